//! `shirokuro-cli archive`: the game archive from the command line — import game files, statistics, and what was
//! played from a position (with `--repeat`, the lookup benchmark). See docs/archive.md.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use clap::Subcommand;
use shirokuro_engine::archive::{
    Archive, ArchiveError, ArchivedGame, Filter, GameId, ImportProgress, ImportReport, ImportStage, Lookup,
};
use shirokuro_engine::format::Winner;
use shirokuro_engine::notation::parse_transcript;
use shirokuro_engine::{Color, Move};

/// Options of `archive`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    op: Op,
}

#[derive(Debug, Subcommand)]
enum Op {
    /// Import game files into ARCHIVE (created if missing): WTHOR .wtb (with the WTH.JOU and WTH.TRN beside them),
    /// GGF files, and text records with one game per line. All or nothing: a file that cannot be read, Ctrl-C or
    /// SIGTERM leave the archive as it was.
    Import {
        /// The archive file.
        archive: PathBuf,
        /// The game files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// What the archive holds: games, positions, players, tournaments, years, size.
    Stats {
        /// The archive file.
        archive: PathBuf,
    },
    /// What was played from a position, how those games ended, and the newest of them.
    Lookup {
        /// The archive file.
        archive: PathBuf,
        /// The position, as the moves from the standard start (`f5d6c3`); the initial position if left out.
        #[arg(long, default_value = "")]
        moves: String,
        /// Only games of these years (`1990-2000`, or one year).
        #[arg(long, value_parser = parse_years)]
        years: Option<(u16, u16)>,
        /// Only games of players whose name contains this (ignoring case).
        #[arg(long)]
        player: Option<String>,
        /// List this many games.
        #[arg(long, default_value_t = 10)]
        games: usize,
        /// Leave out the moves of fewer games than this.
        #[arg(long, default_value_t = 0)]
        min_games: u32,
        /// Run the lookup this many times and print the fastest and the median time (the benchmark).
        #[arg(long, default_value_t = 1)]
        repeat: usize,
    },
    /// One game of the archive: its players, result and moves.
    Game {
        /// The archive file.
        archive: PathBuf,
        /// The game's id (as `lookup` lists it).
        id: u32,
    },
}

/// Runs `archive`.
pub fn run(args: &Args) -> Result<ExitCode, String> {
    match &args.op {
        Op::Import { archive, files } => import(archive, files),
        Op::Stats { archive } => stats(archive),
        Op::Lookup { archive, moves, years, player, games, min_games, repeat } => {
            let filter = Filter { years: *years, player: player.clone(), min_games: *min_games };
            lookup(archive, moves, &filter, *games, *repeat)
        }
        Op::Game { archive, id } => game(archive, *id),
    }
}

fn parse_years(text: &str) -> Result<(u16, u16), String> {
    let year = |t: &str| t.trim().parse::<u16>().map_err(|_| format!("{t:?} is not a year"));
    match text.split_once('-') {
        Some((lo, hi)) => Ok((year(lo)?, year(hi)?)),
        None => year(text).map(|y| (y, y)),
    }
}

fn open(path: &Path) -> Result<Archive, String> {
    Archive::open(path).map_err(|e| e.to_string())
}

fn import(path: &Path, files: &[PathBuf]) -> Result<ExitCode, String> {
    let created = !path.exists();
    let mut archive = Archive::open_or_create(path).map_err(|e| e.to_string())?;
    let stop = Arc::new(AtomicBool::new(false));
    let signal = crate::stop_signals::stop_on_signals(Arc::clone(&stop), "the import (the archive stays as it was)");
    crate::output::stop_when_closed(Arc::clone(&stop));
    let mut printer = ProgressPrinter::default();
    let outcome = archive.import(files, |p| printer.show(&p), &stop);
    printer.finish();
    let remove_new = |archive: Archive| {
        drop(archive);
        if created {
            let _ignored = std::fs::remove_file(path);
        }
    };
    match outcome {
        Ok(report) => {
            print_report(&report, &archive);
            Ok(ExitCode::SUCCESS)
        }
        Err(ArchiveError::Stopped) => {
            remove_new(archive);
            errln!("stopped; the archive is as it was before the import");
            Ok(ExitCode::from(crate::stop_signals::exit_status(signal.load(Ordering::SeqCst))))
        }
        Err(error) => {
            remove_new(archive);
            Err(format!("{error}\nnothing was imported; the archive is as it was"))
        }
    }
}

/// Prints progress to stderr, at most twice a second, and each new stage.
#[derive(Debug, Default)]
struct ProgressPrinter {
    last: Option<(ImportStage, Instant)>,
    shown: bool,
}

impl ProgressPrinter {
    fn show(&mut self, progress: &ImportProgress) {
        let now = Instant::now();
        let due = match self.last {
            Some((stage, at)) => stage != progress.stage || now.duration_since(at) >= Duration::from_millis(500),
            None => true,
        };
        if !due {
            return;
        }
        if self.last.is_some_and(|(stage, _)| stage != progress.stage) {
            errln!();
        }
        self.last = Some((progress.stage, now));
        let what = match progress.stage {
            ImportStage::Reading => "reading",
            ImportStage::Games => "storing games",
            ImportStage::Replaying => "replaying",
            ImportStage::Positions => "indexing positions",
            ImportStage::Committing => "committing",
        };
        let percent = if progress.total == 0 { 100.0 } else { 100.0 * progress.done as f64 / progress.total as f64 };
        let file = progress.file.as_ref().and_then(|f| f.file_name()).map(|n| n.to_string_lossy().into_owned());
        err!("\r{what} {percent:5.1}% {}\x1b[K", file.unwrap_or_default());
        self.shown = true;
    }

    fn finish(&self) {
        if self.shown {
            errln!();
        }
    }
}

fn print_report(report: &ImportReport, archive: &Archive) {
    outln!("files:            {}", report.files);
    outln!("games read:       {}", report.games_read);
    outln!("games added:      {}", report.added);
    outln!("duplicates:       {} (same moves and metadata as a game already there)", report.duplicates);
    outln!("skipped:          {}", report.skipped);
    for skipped in report.skipped_details.iter().take(20) {
        outln!("  {}: {}: {}", skipped.file.display(), skipped.item, skipped.reason);
    }
    if report.skipped > 20 {
        outln!("  … and {} more", report.skipped - 20);
    }
    for warning in &report.warnings {
        outln!("warning: {warning}");
    }
    outln!("positions added:  {}", report.positions_added);
    outln!("seconds:          {:.1}", report.seconds);
    if let Ok(stats) = archive.stats() {
        outln!(
            "archive:          {} games, {} positions, {:.1} MB",
            stats.games,
            stats.positions,
            mb(stats.file_bytes)
        );
    }
}

fn mb(bytes: u64) -> f64 {
    bytes as f64 / 1e6
}

fn stats(path: &Path) -> Result<ExitCode, String> {
    let stats = open(path)?.stats().map_err(|e| e.to_string())?;
    outln!("games:        {}", stats.games);
    outln!("positions:    {}", stats.positions);
    outln!("players:      {}", stats.players);
    outln!("tournaments:  {}", stats.tournaments);
    outln!("source files: {}", stats.sources);
    match stats.years {
        Some((lo, hi)) => outln!("years:        {lo}-{hi}"),
        None => outln!("years:        none"),
    }
    outln!("file size:    {} bytes ({:.1} MB)", stats.file_bytes, mb(stats.file_bytes));
    Ok(ExitCode::SUCCESS)
}

fn lookup(path: &Path, moves: &str, filter: &Filter, games: usize, repeat: usize) -> Result<ExitCode, String> {
    let archive = open(path)?;
    let transcript = parse_transcript(moves).map_err(|e| format!("--moves: {e}"))?;
    let position = transcript.end;
    let mut times = Vec::with_capacity(repeat.max(1));
    let mut answer = Lookup::default();
    for _ in 0..repeat.max(1) {
        let started = Instant::now();
        answer = archive.lookup(&position, filter, games).map_err(|e| e.to_string())?;
        times.push(started.elapsed());
    }
    let side = match position.side_to_move {
        Color::Black => "Black",
        Color::White => "White",
    };
    let placed = transcript.moves.iter().filter(|m| m.square().is_some()).count();
    outln!("position after {placed} moves, {side} to move: {} games", answer.total_games);
    if !answer.moves.is_empty() {
        outln!("move   games   black%   draw%  white%   mean (black)");
    }
    for stats in &answer.moves {
        let pct = |n: u32| if stats.games == 0 { 0.0 } else { 100.0 * f64::from(n) / f64::from(stats.games) };
        let mean = stats.mean_black_diff.map_or_else(|| "-".to_owned(), |m| format!("{m:+.1}"));
        let also: Vec<String> = stats.equivalent.iter().map(Move::to_string).collect();
        let also = if also.is_empty() { String::new() } else { format!("  (= {})", also.join(" ")) };
        outln!(
            "{:<4} {:>7}  {:>6.1}  {:>6.1}  {:>6.1}  {:>6}{also}",
            stats.mv,
            stats.games,
            pct(stats.black_wins),
            pct(stats.draws),
            pct(stats.white_wins),
            mean
        );
    }
    if !answer.games.is_empty() {
        outln!("games (newest first):");
    }
    for game in &answer.games {
        let name = |n: &Option<String>| n.clone().unwrap_or_else(|| "?".to_owned());
        let year = game.year.map_or_else(|| "----".to_owned(), |y| y.to_string());
        let next = game.next.map_or_else(|| "end".to_owned(), |m| m.to_string());
        let tournament = game.tournament.as_deref().map(|t| format!("  [{t}]")).unwrap_or_default();
        outln!(
            "{:>8} {year} {} - {} {}{tournament}  ply {} next {next}",
            game.id.to_string(),
            name(&game.black),
            name(&game.white),
            result_text(game.black_diff, game.winner),
            game.ply
        );
    }
    if repeat > 1 {
        times.sort();
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        let median = times.get(times.len() / 2).copied().unwrap_or_default();
        let first = times.first().copied().unwrap_or_default();
        outln!("lookup x{repeat}: min {:.3} ms, median {:.3} ms", ms(first), ms(median));
    }
    Ok(ExitCode::SUCCESS)
}

fn result_text(black_diff: Option<i32>, winner: Option<Winner>) -> String {
    match (black_diff, winner) {
        (Some(diff), _) => format!("{diff:+}"),
        (None, Some(Winner::Black)) => "1-0 (unfinished)".to_owned(),
        (None, Some(Winner::White)) => "0-1 (unfinished)".to_owned(),
        (None, Some(Winner::Draw)) => "draw (unfinished)".to_owned(),
        (None, None) => "unfinished".to_owned(),
    }
}

fn game(path: &Path, id: u32) -> Result<ExitCode, String> {
    let archive = open(path)?;
    let Some(game) = archive.game(GameId(id)).map_err(|e| e.to_string())? else {
        return Err(format!("{} has no game {id}", path.display()));
    };
    print_game(&game);
    Ok(ExitCode::SUCCESS)
}

fn print_game(game: &ArchivedGame) {
    let name = |n: &Option<String>| n.clone().unwrap_or_else(|| "?".to_owned());
    outln!("game {}: {} - {}", game.id, name(&game.black), name(&game.white));
    if let Some(tournament) = &game.tournament {
        outln!("tournament: {tournament}");
    }
    if let Some(year) = game.year {
        outln!("year: {year}");
    }
    outln!("result: {}", result_text(game.black_diff, game.winner));
    if let Some(theoretical) = game.theoretical_black_discs {
        outln!("theoretical black discs (WTHOR): {theoretical}");
    }
    outln!("source: {}", game.source);
    let moves: String = game.moves.iter().filter(|m| m.square().is_some()).map(Move::to_string).collect();
    outln!("moves: {moves}");
}
