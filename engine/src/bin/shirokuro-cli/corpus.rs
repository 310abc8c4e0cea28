//! `shirokuro-cli corpus`: the self-play corpus (`shirokuro_engine::corpus`): grow it, count it, write its games out
//! as records for `label` and `train`.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use clap::Subcommand;
use shirokuro_engine::corpus::{
    Corpus, CorpusError, EvalId, GameRecord, GrowEvent, GrowOptions, Labels, Opened, Series, grow,
};
use shirokuro_engine::eval::{Weights, weights};
use shirokuro_engine::fsutil::{self, Backup};
use shirokuro_engine::level::Level;
use shirokuro_engine::tools::label::solve_all;
use shirokuro_engine::{Board, Position};

/// Options of `corpus`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: CorpusCommand,
}

#[derive(Debug, Subcommand)]
enum CorpusCommand {
    /// Play batches of self-play games into a corpus folder, continuing the batch an earlier run left; stop it at any
    /// moment (Ctrl-C, SIGTERM) and run it again to go on. Options left out are taken from the folder's batches.
    Grow(GrowArgs),
    /// Read every batch (each game replayed and checked) and print the counts.
    Stats {
        /// The corpus folder.
        dir: PathBuf,
    },
    /// Write every game of the finished batches as a `moves diff` record line (what `label` and `train` read), or
    /// with `--positions` every position labelled with its game's result (`board64 X score`, what `eval-error` reads).
    Export {
        /// The corpus folder.
        dir: PathBuf,
        /// The file to write (atomically).
        #[arg(long)]
        out: PathBuf,
        /// Write labelled positions instead of games: those before each engine move (`engine`), or before every
        /// move, the random ones too (`all`); the label is the final result for the side to move, empties to the
        /// winner.
        #[arg(long, value_enum)]
        positions: Option<PositionsArg>,
        /// With `--positions`: solve each game's first position with at most this many empties exactly and label
        /// the positions up to it with its value instead of the result (the imperfect moves then end one ply
        /// earlier; docs/training.md, "the parity lean").
        #[arg(long, requires = "positions", value_parser = clap::value_parser!(u32).range(1..=30))]
        cut_empties: Option<u32>,
        /// Worker threads of the exact solves (default: all cores).
        #[arg(long, short = 't', value_parser = crate::limits::threads)]
        threads: Option<usize>,
    },
}

/// Which positions `export --positions` writes.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum PositionsArg {
    /// From the first engine move on.
    Engine,
    /// Every position, the random-move ones too.
    All,
}

#[derive(Debug, clap::Args)]
struct GrowArgs {
    /// The corpus folder (created if missing); it holds one series of batches.
    dir: PathBuf,
    /// Level of both sides after the random moves (default 10: depth 10, exact from 20 empties).
    #[arg(long)]
    level: Option<Level>,
    /// Random moves at the start of each game, `MIN-MAX` or `N` (default 10-19, as Egaroucid's training games).
    #[arg(long, value_parser = crate::selfplay::parse_random_moves)]
    random_moves: Option<(usize, usize)>,
    /// Base seed: batch k is played with seed + k (default 1).
    #[arg(long)]
    seed: Option<u64>,
    /// Games in each batch (default 1000).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    games: Option<u32>,
    /// Weights file (default: the shipped evaluation).
    #[arg(long, conflicts_with = "zero_weights")]
    weights: Option<PathBuf>,
    /// Play with all-zero weights (a flat evaluation).
    #[arg(long)]
    zero_weights: bool,
    /// Stop after finishing this many batches (default: go on until stopped).
    #[arg(long)]
    batches: Option<u32>,
    /// Start no game after this many hours (the games under way are finished and kept).
    #[arg(long)]
    hours: Option<f64>,
    /// Number new batches from N on (the lowest free number from there) and leave unfinished batches below N
    /// alone: a second machine grows the same series apart, and its batch files join the folder (default 0).
    #[arg(long, value_name = "N")]
    first_batch: Option<u32>,
    /// Games played at once (default: all cores); each game's searches are single-threaded.
    #[arg(long, short = 't', value_parser = crate::limits::threads)]
    threads: Option<usize>,
    /// Each game's search tables have 2^H entries of 24 bytes (10-28).
    #[arg(long, default_value_t = 18, value_parser = crate::limits::hash_level)]
    hash_level: u8,
}

pub fn run(args: &Args) -> Result<ExitCode, String> {
    match &args.command {
        CorpusCommand::Grow(args) => run_grow(args),
        CorpusCommand::Stats { dir } => stats(dir),
        CorpusCommand::Export { dir, out, positions: None, .. } => export(dir, out),
        CorpusCommand::Export { dir, out, positions: Some(which), cut_empties, threads } => {
            export_positions(dir, out, *which, *cut_empties, *threads)
        }
    }
}

/// The weights the options name, with their identity.
fn chosen_weights(args: &GrowArgs, existing: Option<&Series>) -> Result<(Weights, EvalId), String> {
    if args.zero_weights {
        return Ok((Weights::zero(), EvalId::zero()));
    }
    if let Some(path) = &args.weights {
        let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let name = path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
        return Ok((weights::load(path).map_err(|e| e.to_string())?, EvalId::of_file(&name, &bytes)));
    }
    match existing.map(|series| &series.eval) {
        Some(eval) if *eval == EvalId::zero() => Ok((Weights::zero(), EvalId::zero())),
        Some(eval) if *eval != EvalId::bundled() => Err(format!(
            "this corpus was played with {eval}, which is not the shipped evaluation ({}): give --weights FILE",
            EvalId::bundled()
        )),
        _ => Ok((weights::bundled().map_err(|e| e.to_string())?, EvalId::bundled())),
    }
}

fn run_grow(args: &GrowArgs) -> Result<ExitCode, String> {
    let corpus = Corpus::open_or_create(&args.dir).map_err(|e| e.to_string())?;
    let existing = corpus.series().map_err(|e| e.to_string())?.map(|(series, _)| series);
    let (weights, eval) = chosen_weights(args, existing.as_ref())?;
    let random_moves = match args.random_moves {
        // parse_random_moves allows at most 60.
        Some((min, max)) => (u8::try_from(min).unwrap_or(60), u8::try_from(max).unwrap_or(60)),
        None => existing.as_ref().map_or((10, 19), |s| s.random_moves),
    };
    let default_level = Level::new(10).map_err(|e| e.to_string())?;
    let series = Series {
        level: args.level.or(existing.as_ref().map(|s| s.level)).unwrap_or(default_level),
        random_moves,
        base_seed: args.seed.or(existing.as_ref().map(|s| s.base_seed)).unwrap_or(1),
        games_per_batch: args.games.or(existing.as_ref().map(|s| s.games_per_batch)).unwrap_or(1000),
        eval,
    };
    let command = std::env::args().collect::<Vec<_>>().join(" ");
    let threads = args.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from));
    let mut options =
        GrowOptions::new(Arc::new(weights), series.clone(), command).threads(threads).hash_level(args.hash_level);
    if let Some(batches) = args.batches {
        options = options.batches(batches);
    }
    if let Some(first) = args.first_batch {
        options = options.first_batch(first);
    }
    if let Some(hours) = args.hours {
        let hours = Duration::try_from_secs_f64(hours * 3600.0).map_err(|_| format!("--hours {hours}: not a time"))?;
        options = options.until(Instant::now() + hours);
    }
    outln!(
        "{}: batches of {} games at level {} after {}-{} random moves, seed {} + batch, {}, on {threads} thread(s)",
        args.dir.display(),
        series.games_per_batch,
        series.level,
        series.random_moves.0,
        series.random_moves.1,
        series.base_seed,
        series.eval
    );

    let stop = Arc::new(AtomicBool::new(false));
    let signal = crate::stop_signals::stop_on_signals(
        Arc::clone(&stop),
        "the run (the games synced so far stay; run it again to go on)",
    );
    crate::output::stop_when_closed(Arc::clone(&stop));
    let start = Instant::now();
    let mut printer = Printer { start, every: (series.games_per_batch as usize / 10).max(1) };
    let outcome = grow(&args.dir, &options, &mut |event| printer.show(event), &stop);
    let seconds = start.elapsed().as_secs_f64();
    let report = outcome.map_err(|e| e.to_string())?;
    let rate = report.games as f64 * 3600.0 / seconds.max(1e-9);
    outln!(
        "{} games played in {seconds:.1} s ({rate:.0} an hour); batches finished: {}",
        report.games,
        report.finished.len()
    );
    let signal = signal.load(Ordering::SeqCst);
    if report.stopped && signal != 0 {
        errln!("stopped by a signal; the games played so far are kept, run the same command to go on");
        return Ok(ExitCode::from(crate::stop_signals::exit_status(signal)));
    }
    Ok(ExitCode::SUCCESS)
}

/// Prints [`GrowEvent`]s.
struct Printer {
    start: Instant,
    every: usize,
}

impl Printer {
    fn show(&mut self, event: GrowEvent) {
        let seconds = self.start.elapsed().as_secs_f64();
        match event {
            GrowEvent::Batch { batch, opened: Opened::New } => outln!("batch {batch}: started"),
            GrowEvent::Batch { batch, opened: Opened::Resumed { games, dropped, why } } => {
                outln!("batch {batch}: continued with the {games} games an earlier run kept");
                if let Some(why) = why {
                    outln!("  {dropped} bytes at its end were cut off, to be played again: {why}");
                }
            }
            GrowEvent::Game { batch, done, of } => {
                if done.is_multiple_of(self.every) || done == of as usize {
                    outln!("  batch {batch}: {done}/{of} games ({seconds:.0} s)");
                }
            }
            GrowEvent::Finished { batch, path } => {
                let size = std::fs::metadata(&path).map_or(0, |m| m.len());
                outln!("batch {batch} finished: {} ({size} bytes)", path.display());
            }
            GrowEvent::StaleRemoved { path } => {
                outln!("removed {}: its batch had been finished already", path.display());
            }
        }
    }
}

/// The games of each finished batch, by batch number.
type Batches = Vec<(u32, Vec<GameRecord>)>;

/// Every finished batch read and checked, in order.
fn read_all(dir: &Path) -> Result<(Corpus, Batches), String> {
    let corpus = Corpus::open(dir).map_err(|e| e.to_string())?;
    let mut batches = Vec::new();
    for file in corpus.finished() {
        let (_, games) = corpus.read_batch(file.batch).map_err(|e: CorpusError| e.to_string())?;
        batches.push((file.batch, games));
    }
    Ok((corpus, batches))
}

fn stats(dir: &Path) -> Result<ExitCode, String> {
    let (corpus, batches) = read_all(dir)?;
    let Some((series, _)) = corpus.series().map_err(|e| e.to_string())? else {
        outln!("{}: no batches", dir.display());
        return Ok(ExitCode::SUCCESS);
    };
    let games: Vec<&GameRecord> = batches.iter().flat_map(|(_, games)| games).collect();
    let bytes: u64 = corpus.finished().iter().map(|file| std::fs::metadata(&file.path).map_or(0, |m| m.len())).sum();
    let count = games.len().max(1) as f64;
    let mut results = BTreeMap::new();
    for game in &games {
        *results.entry(game.black_disc_diff.signum()).or_insert(0usize) += 1;
    }
    let result = |sign: i8| results.get(&sign).copied().unwrap_or(0);
    outln!(
        "{}: level {}, {}-{} random moves, base seed {}, {}",
        dir.display(),
        series.level,
        series.random_moves.0,
        series.random_moves.1,
        series.base_seed,
        series.eval
    );
    outln!(
        "finished batches: {} of {} games; being played: {}",
        batches.len(),
        series.games_per_batch,
        corpus.parts().len()
    );
    outln!("games: {} (every one replayed and checked)", games.len());
    outln!("positions: {}", games.iter().map(|g| g.moves.len()).sum::<usize>());
    outln!("Black: {} wins, {} draws, {} losses", result(1), result(0), result(-1));
    outln!(
        "mean disc difference (Black - White): {:+.2}",
        games.iter().map(|g| f64::from(g.black_disc_diff)).sum::<f64>() / count
    );
    outln!("mean random moves: {:.2}", games.iter().map(|g| f64::from(g.random_moves)).sum::<f64>() / count);
    outln!("on disk: {bytes} bytes ({:.2} MB per 100,000 games)", bytes as f64 / count * 100_000.0 / 1e6);
    Ok(ExitCode::SUCCESS)
}

fn export(dir: &Path, out: &Path) -> Result<ExitCode, String> {
    let (_, batches) = read_all(dir)?;
    let mut games = 0usize;
    fsutil::save_atomically(out, Backup::None, |file| {
        let mut file = std::io::BufWriter::new(file);
        for (_, list) in &batches {
            for game in list {
                writeln!(file, "{}", game.record_line())?;
                games += 1;
            }
        }
        file.flush()
    })
    .map_err(|e| e.to_string())?;
    outln!("{games} games from {} batches written to {}", batches.len(), out.display());
    Ok(ExitCode::SUCCESS)
}

fn export_positions(
    dir: &Path,
    out: &Path,
    which: PositionsArg,
    cut_empties: Option<u32>,
    threads: Option<usize>,
) -> Result<ExitCode, String> {
    let (corpus, batches) = read_all(dir)?;
    let Some((series, _)) = corpus.series().map_err(|e| e.to_string())? else {
        return Err(format!("{}: no finished batches to export", dir.display()));
    };
    let which = match which {
        PositionsArg::Engine => Labels::FromEngineMoves,
        PositionsArg::All => Labels::All,
    };
    let exact_empties = u32::from(series.level.exact_from());
    let games: Vec<&GameRecord> = batches.iter().flat_map(|(_, games)| games).collect();
    let cuts = match cut_empties {
        Some(empties) => Some(solve_cuts(&games, empties, threads)?),
        None => None,
    };
    let (mut positions, mut exact) = (0usize, 0usize);
    fsutil::save_atomically(out, Backup::None, |file| {
        let mut file = std::io::BufWriter::new(file);
        for (i, game) in games.iter().enumerate() {
            // Every game was replayed when its batch was read.
            let cut = cuts.as_ref().and_then(|cuts| cuts.get(i).copied().flatten());
            let labelled = match cut {
                Some((position, score)) => game.labelled_positions_cut(which, exact_empties, &position, score),
                None => game.labelled_positions(which, exact_empties),
            }
            .map_err(std::io::Error::other)?;
            for label in labelled {
                writeln!(file, "{}", label.to_line())?;
                positions += 1;
                exact += usize::from(label.exact);
            }
        }
        file.flush()
    })
    .map_err(|e| e.to_string())?;
    outln!(
        "{positions} positions ({exact} of them with an exact label) from {} batches written to {}",
        batches.len(),
        out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// Each game's first position with at most `empties` empties and its exact value (`None` for a game that ends
/// before), solved on `threads` workers.
fn solve_cuts(
    games: &[&GameRecord],
    empties: u32,
    threads: Option<usize>,
) -> Result<Vec<Option<(Position, i32)>>, String> {
    let mut cuts = Vec::with_capacity(games.len());
    for game in games {
        cuts.push(game.cut_position(empties).map_err(|e| e.to_string())?);
    }
    let boards: Vec<Board> = cuts.iter().flatten().map(|p| p.board).collect();
    let weights = Arc::new(weights::bundled().map_err(|e| e.to_string())?);
    let (pool, _) = crate::limits::pool(threads)?;
    let start = Instant::now();
    let every = (boards.len() / 10).max(1);
    let scores = pool
        .install(|| {
            solve_all(&boards, &weights, 20, &|done, total| {
                if done % every == 0 || done == total {
                    errln!(
                        "{done}/{total} positions at {empties} empties solved ({:.0} s)",
                        start.elapsed().as_secs_f64()
                    );
                }
            })
        })
        .map_err(|e| e.to_string())?;
    let mut scores = scores.into_iter();
    Ok(cuts.into_iter().map(|cut| cut.and_then(|position| Some((position, scores.next()?)))).collect())
}
