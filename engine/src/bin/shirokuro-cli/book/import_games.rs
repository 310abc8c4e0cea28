//! `shirokuro-cli book import-games`: a book from game archives (Edax's `book import` + `book fill`), see
//! [`shirokuro_engine::book::import`].
//!
//! The output file is read first when it exists, so a stopped run continues where it stopped: leaves already in it
//! at the level (or above) are not searched again. Leaves are saved every `--save-every` seconds and at the end;
//! once every leaf is in the book (a run without `--shard`, or one over merged shards), the other kept positions are
//! added and valued by negamax (the fill), and the book is saved again.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use shirokuro_engine::book::file::ReadOptions;
use shirokuro_engine::book::import::{EvaluateSettings, GameCounts, Kept, RecordsReport, Shard, evaluate_leaves, fill};
use shirokuro_engine::book::ops::{Control, Progress};
use shirokuro_engine::book::{Book, BookFormat, load};
use shirokuro_engine::eval::{Weights, weights};

use super::searchers;
use super::target::{Locks, Target};

/// Options of `book import-games`.
#[derive(Debug, clap::Args)]
#[command(after_long_help = "Resuming: OUT is read first when it exists, and leaves already in it at --level or \
    above are not searched again; the book is saved every --save-every seconds and at the end. Ctrl-C, SIGTERM or \
    SIGHUP stop the command after the searches under way; it saves and exits with 130, 143 or 129. Run it again to \
    continue.\n\nValues: leaves are searched; the other kept positions get the negamax of their kept children (Book \
    Fix), whose line counts (1 + the children's) the book keeps, not numbers of games.\n\nSharding: run \
    `--shard K/N` for K = 1..N (e.g. as a Slurm job array, one output file each), merge the outputs with `book \
    merge`, then run the same command without --shard on the merged book: it finds every leaf searched, searches \
    nothing, and adds and values the rest (see docs/book-recipe.md).")]
pub struct Args {
    /// The book to write (egbk3); read first when it exists, to resume.
    out: PathBuf,
    /// Game record files: one game per line, the first whitespace-separated token a transcript from the initial
    /// position (`f5d6c3…`), or CSV rows (`id,winner,moves`, header allowed) whose transcript is the field that
    /// parses.
    #[arg(required = true)]
    records: Vec<PathBuf>,
    /// Keep the positions reached by at least this many games.
    #[arg(long, default_value_t = 3)]
    min_games: u32,
    /// Follow each game for this many plies (discs placed; passes do not count).
    #[arg(long, default_value_t = 10)]
    plies: usize,
    /// Search level of the leaves.
    #[arg(long, default_value_t = 15)]
    level: u8,
    /// Worker threads (one search each).
    #[arg(long, default_value_t = 2, value_parser = crate::limits::threads)]
    threads: usize,
    /// Transposition table of 2^N entries per thread.
    #[arg(long, default_value_t = 18, value_parser = crate::limits::hash_level)]
    hash_level: u8,
    /// Evaluation weights file (default: the shipped weights, built into the program).
    #[arg(long)]
    weights: Option<PathBuf>,
    /// Search without an evaluation (tests).
    #[arg(long, conflicts_with = "weights")]
    zero_weights: bool,
    /// Search only the leaves of shard K of N (1 <= K <= N), by a hash of the canonical position.
    #[arg(long, value_parser = Shard::parse)]
    shard: Option<Shard>,
    /// Save at most every this many seconds while searching.
    #[arg(long, default_value_t = 600)]
    save_every: u64,
}

impl Args {
    fn weights(&self) -> Result<Arc<Weights>, String> {
        let weights = match (&self.weights, self.zero_weights) {
            (Some(path), _) => weights::load(path).map_err(|e| format!("{}: {e}", path.display()))?,
            (None, true) => Weights::zero(),
            (None, false) => weights::bundled().map_err(|e| e.to_string())?,
        };
        Ok(Arc::new(weights))
    }
}

/// The book in `path`, or an empty one (said on stderr) when there is no such file.
fn load_or_create(path: &Path) -> Result<Book, String> {
    if !path.exists() {
        errln!("{} does not exist: creating it", path.display());
        return Ok(Book::new());
    }
    let start = Instant::now();
    let (book, format) = load(path, None, ReadOptions::default()).map_err(|error| error.to_string())?;
    errln!("loaded {} ({format}, {} positions) in {:.2} s", path.display(), book.len(), start.elapsed().as_secs_f64());
    Ok(book)
}

/// Counts the games of every record file; an unreadable file is an error naming it.
fn count_games(records: &[PathBuf], plies: usize) -> Result<GameCounts, String> {
    let mut counts = GameCounts::new(plies);
    for path in records {
        let start = Instant::now();
        let bytes = shirokuro_engine::bounded::read(path, shirokuro_engine::bounded::RECORDS_BYTES)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let report = counts.add_records(&String::from_utf8_lossy(&bytes));
        errln!(
            "{}: {} games, {} lines skipped, {} bad lines ({:.1} s; {} games in all)",
            path.display(),
            report.games,
            report.skipped,
            report.bad,
            start.elapsed().as_secs_f64(),
            counts.games()
        );
        print_bad_lines(path, &report);
    }
    Ok(counts)
}

fn print_bad_lines(path: &Path, report: &RecordsReport) {
    for (line, why) in &report.first_bad {
        errln!("  {} line {line}: {why}", path.display());
    }
    if report.bad > report.first_bad.len() as u64 {
        errln!("  … and {} more bad lines", report.bad - report.first_bad.len() as u64);
    }
}

fn summary(kept: &Kept) -> String {
    let max_ply = kept.positions.iter().map(|(b, _)| 60 - b.empty_count()).max().unwrap_or(0);
    format!(
        "{} positions kept (plies 0..={max_ply}), {} leaves, {} roots",
        kept.positions.len(),
        kept.leaves.len(),
        kept.roots.len()
    )
}

/// Runs the command; `control` stops it (its progress is replaced by this command's own line).
pub fn run(args: &Args, control: &Control<'_>) -> Result<ExitCode, String> {
    let start = Instant::now();
    let mut target = Target::new(args.out.clone(), BookFormat::Egbk3, Locks::default())?;
    let counts = count_games(&args.records, args.plies)?;
    let kept = counts.kept(args.min_games);
    let (games, positions) = (counts.games(), counts.positions());
    drop(counts);
    outln!(
        "{games} games read, {positions} positions within {} plies, {} (at least {} games each)",
        args.plies,
        summary(&kept),
        args.min_games
    );
    let mut book = load_or_create(&args.out)?;
    let make = searchers(args.weights()?, args.hash_level);
    let kept_count = kept.positions.len();
    let progress = move |p: Progress| {
        err!("\rimport: {games} games, {kept_count} positions kept, leaves searched {} / {}   ", p.done, p.total);
    };
    let control = Control { stop: control.stop, progress: &progress };
    let settings = EvaluateSettings {
        level: args.level,
        threads: args.threads,
        shard: args.shard.unwrap_or(Shard::ALL),
        save_every: Duration::from_secs(args.save_every),
    };
    let mut save = |b: &Book| {
        errln!();
        target.save_point(b)
    };
    let Ok(report) = evaluate_leaves(&mut book, &kept.leaves, settings, &make, &mut save, &control);
    errln!();
    outln!(
        "leaves: {} searched at level {}, {} finished games, {} already in the book, {} in other shards{}",
        report.searched,
        args.level,
        report.finished_games,
        report.already,
        report.other_shards,
        if report.stopped { " (stopped)" } else { "" }
    );
    if !report.stopped {
        let filled = fill(&mut book, &kept, args.level, &control);
        if filled.missing_leaves > 0 {
            outln!(
                "fill: {} leaves of other shards are missing; merge the shards' books with `book merge`, then run \
                 this command again without --shard on the merged book",
                filled.missing_leaves
            );
        } else {
            outln!(
                "fill: {} positions added; Book Fix from {} roots visited {} positions",
                filled.added,
                kept.roots.len(),
                filled.fixed
            );
        }
    }
    target.save_final(&book)?;
    outln!("import-games: {} positions in the book, {:.1} s", book.len(), start.elapsed().as_secs_f64());
    Ok(ExitCode::SUCCESS)
}
