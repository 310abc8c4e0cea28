//! `shirokuro-cli book <op>`: opening book operations on files (format detected from the content).
//!
//! Every command that changes a book writes it atomically and keeps the previous file as `<name>.bak`; without
//! `--out` it rewrites the input in its own format (egbk3 for the read-only formats, next to it as `<name>.egbk3`).
//! Such a command locks the file it writes before loading and checks that it can write it before any work
//! ([`target`]); a failed save keeps the book in memory and, at the end, in a rescue file.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::time::{Duration, Instant};

use shirokuro_engine::book::edax::WriteOptions;
use shirokuro_engine::book::exits::book_exits;
use shirokuro_engine::book::file::{ReadOptions, write_to};
use shirokuro_engine::book::import::Shard;
use shirokuro_engine::book::learn::{
    DeviateSettings, LeafSettings, Searcher, ThinkerSearcher, deviate, deviate_transcripts, recalculate_leaves, store,
};
use shirokuro_engine::book::ops::{self, Control, Progress, Walk};
use shirokuro_engine::book::views::{AccuracyCache, UmigameCache, UmigameSettings, move_views};
use shirokuro_engine::book::{Book, BookFormat, Entry, Leaf, book_child, legal_moves, load, parse, save};
use shirokuro_engine::eval::{Weights, weights};
use shirokuro_engine::notation::parse_transcript;
use shirokuro_engine::rng::GameRng;
use shirokuro_engine::{Board, Move, Square};

mod bench_control;
mod import_games;
mod quality;
pub(crate) mod signals;
mod target;

use target::{Locks, Target};

/// Options of `book`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    op: Op,
}

/// Input settings shared by the commands that read a book.
#[derive(Debug, clap::Args)]
struct Input {
    /// The book file (egbk3, egbk2, egbk, Edax .dat or Egaroucid 5 text; detected from the content).
    book: PathBuf,
    /// Read as this format instead of detecting it (egbk3, egbk2, egbk, edax, egaroucid5-text).
    #[arg(long, value_parser = parse_format)]
    format: Option<BookFormat>,
    /// Level given to positions of formats without levels (egbk, text).
    #[arg(long, default_value_t = 1)]
    read_level: u8,
}

/// Where a changed book goes.
#[derive(Debug, clap::Args)]
struct Output {
    /// Write the result here (default: over the input, keeping `.bak`).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Output format: egbk3 or edax (default: the input's when writable, else egbk3).
    #[arg(long, value_parser = parse_format)]
    to: Option<BookFormat>,
}

#[derive(Debug, clap::Subcommand)]
enum Op {
    /// Counts by level and by ply, memory; with --links also links and leaves (slow on big books).
    Info {
        #[command(flatten)]
        input: Input,
        /// Also count links and leaves (generates every move of every position).
        #[arg(long)]
        links: bool,
    },
    /// A position as Edax's `book show` prints it: value, links, leaf, lines, principal line.
    Show {
        #[command(flatten)]
        input: Input,
        /// Moves from the initial position to the position to show (default: the initial position).
        #[arg(long, default_value = "")]
        moves: String,
    },
    /// Every book move of a position with its value, umigame counts and accuracy, timed cold and from the caches.
    Views {
        #[command(flatten)]
        input: Input,
        /// Moves from the initial position (default: the initial position).
        #[arg(long, default_value = "")]
        moves: String,
        /// Umigame depth (positions with depth + 4 discs or more count 1).
        #[arg(long, default_value_t = 60)]
        depth: u8,
        /// Umigame accumulated error.
        #[arg(long, default_value_t = 0)]
        error: i32,
    },
    /// Merges other books into the first with Egaroucid's rule (the newer value wins at an equal or higher level).
    Merge {
        #[command(flatten)]
        input: Input,
        /// Books to merge in, in order.
        #[arg(required = true)]
        others: Vec<PathBuf>,
        #[command(flatten)]
        output: Output,
    },
    /// Converts between formats (also `import`, `export`); `--level` overwrites every level (Export with Level).
    #[command(alias = "import", alias = "export")]
    Convert {
        #[command(flatten)]
        input: Input,
        /// The file to write.
        out: PathBuf,
        /// Output format: egbk3 or edax (default: from the output's extension, else egbk3).
        #[arg(long, value_parser = parse_format)]
        to: Option<BookFormat>,
        /// Overwrite every level and leaf level with this one.
        #[arg(long)]
        level: Option<u8>,
        /// Before writing, search the missing or stale leaves (of positions reachable from the initial position) at
        /// this level (Egaroucid's Edax export "With Extra Calc"; with the shipped weights unless --weights is given).
        #[arg(long)]
        leaf_level: Option<u8>,
        /// Evaluation weights for --leaf-level.
        #[arg(long)]
        weights: Option<PathBuf>,
        /// Worker threads for --leaf-level.
        #[arg(long, default_value_t = 2, value_parser = crate::limits::threads)]
        threads: usize,
    },
    /// Book Fix: negamax over the links from a position, line counts, stale leaves removed.
    Fix {
        #[command(flatten)]
        input: Input,
        /// Edax-like: leaves take part in the values.
        #[arg(long)]
        edax_like: bool,
        /// Moves from the initial position to the root (default: the initial position).
        #[arg(long, default_value = "")]
        moves: String,
        #[command(flatten)]
        output: Output,
    },
    /// Sets (or deletes) the value of a move from a position, as the right-click editor does (level "S").
    Edit {
        #[command(flatten)]
        input: Input,
        /// Moves from the initial position to the position edited.
        #[arg(long, default_value = "")]
        moves: String,
        /// The move whose value is set (e.g. f5).
        #[arg(long = "move")]
        mv: String,
        /// Value for the side to move, -64..64; out of range deletes the move's position.
        #[arg(long, allow_hyphen_values = true, conflicts_with = "delete")]
        value: Option<i32>,
        /// Delete the move's position.
        #[arg(long)]
        delete: bool,
        #[command(flatten)]
        output: Output,
    },
    /// Book Reduce: keep what is reachable within depth and errors from a position, delete the rest below it.
    Reduce {
        #[command(flatten)]
        input: Input,
        /// Moves from the initial position to the root.
        #[arg(long, default_value = "")]
        moves: String,
        /// Keep positions with at most depth + 4 discs.
        #[arg(long, default_value_t = 60)]
        depth: u8,
        /// Largest loss of a followed move.
        #[arg(long, default_value_t = 1000)]
        error_per_move: i32,
        /// Largest accumulated loss.
        #[arg(long, default_value_t = 100_000)]
        error_sum: i32,
        #[command(flatten)]
        output: Output,
    },
    /// Checks that the AI playing from the book never leaves it while a book move within the errors exists (walks
    /// every line within the errors, as deviate does) and that no move within the errors leaves the book; exits
    /// with failure and lists the positions where the AI would leave it.
    Verify {
        #[command(flatten)]
        input: Input,
        /// Moves from the initial position to the root.
        #[arg(long, default_value = "")]
        moves: String,
        /// Positions with at most depth + 4 discs (deviate's depth).
        #[arg(long, default_value_t = 60)]
        depth: u8,
        /// Largest loss of a followed move (deviate's error per move).
        #[arg(long, default_value_t = 2)]
        error_per_move: i32,
        /// Largest accumulated loss (deviate's error sum).
        #[arg(long, default_value_t = 4)]
        error_sum: i32,
        /// Largest loss of a leaf deviate expands (deviate's leaf error).
        #[arg(long, default_value_t = 2)]
        error_leaf: i32,
    },
    /// Book Deviate (Egaroucid's learning) from a position: grows the book within depth and errors at a level.
    Deviate {
        #[command(flatten)]
        input: Input,
        #[command(flatten)]
        ai: Ai,
        /// Moves from the initial position to the root (default: the initial position).
        #[arg(long, default_value = "")]
        moves: String,
        /// Deviate from the end of each transcript of this file (one per line), saving after each.
        #[arg(long, conflicts_with = "moves")]
        transcripts: Option<PathBuf>,
        /// Learn positions with at most depth + 4 discs.
        #[arg(long, default_value_t = 30)]
        depth: u8,
        /// Largest loss of a followed move.
        #[arg(long, default_value_t = 2)]
        error_per_move: i32,
        /// Largest accumulated loss.
        #[arg(long, default_value_t = 2)]
        error_sum: i32,
        /// Largest loss of an expanded leaf.
        #[arg(long, default_value_t = 2)]
        error_leaf: i32,
        /// Loops at most.
        #[arg(long, default_value_t = usize::MAX)]
        max_loops: usize,
        /// Save at most every this many seconds.
        #[arg(long, default_value_t = 600)]
        save_every: u64,
        /// Search leaves of and deviate from only the positions of shard K of N (1 <= K <= N, by a hash of the
        /// canonical position); merge the shards' books, then run without --shard on the merged book.
        #[arg(long, value_parser = Shard::parse, conflicts_with = "transcripts")]
        shard: Option<Shard>,
        #[command(flatten)]
        output: Output,
    },
    /// A book from game archives (Edax's import + fill): the positions reached by at least --min-games games within
    /// their first --plies plies, the leaves searched at --level, the rest by negamax; resumable and shardable.
    ImportGames(import_games::Args),
    /// Add a transcript: search each of its positions within the depth and register it and its best child.
    Store {
        #[command(flatten)]
        input: Input,
        #[command(flatten)]
        ai: Ai,
        /// The transcript.
        #[arg(long)]
        moves: String,
        /// Positions with at most depth + 4 discs.
        #[arg(long, default_value_t = 60)]
        depth: u8,
        #[command(flatten)]
        output: Output,
    },
    /// Recalculate Leaves within depth and errors from a position.
    Leaves {
        #[command(flatten)]
        input: Input,
        #[command(flatten)]
        ai: Ai,
        /// Moves from the initial position to the root.
        #[arg(long, default_value = "")]
        moves: String,
        /// Positions with at most depth + 4 discs.
        #[arg(long, default_value_t = 60)]
        depth: u8,
        /// Largest loss of a followed move.
        #[arg(long, default_value_t = 1000)]
        error_per_move: i32,
        /// Largest accumulated loss.
        #[arg(long, default_value_t = 100_000)]
        error_sum: i32,
        /// Recompute every leaf, not only the missing or stale ones.
        #[arg(long)]
        all: bool,
        #[command(flatten)]
        output: Output,
    },
    /// Measures a book's values: positions sampled at the plies asked for, each searched at --level, compared with the
    /// book's value (mean absolute difference) and best move (how often it is the search's best move).
    #[command(after_help = "Long runs: give --results FILE. Each compared position is added to it as soon as it is \
    searched, and a run with the same book, settings and file goes on where the last one stopped (Ctrl-C or SIGTERM \
    at any moment loses at most the searches under way). Shards: run --shard K/N for K = 1..N with one results file \
    each, concatenate the files (`cat q-*.txt > q.txt`), and run once more with --results q.txt: it searches \
    nothing and prints the report over all of them.")]
    Quality {
        #[command(flatten)]
        input: Input,
        #[command(flatten)]
        ai: Ai,
        /// Positions to sample.
        #[arg(long, default_value_t = 500)]
        samples: usize,
        /// Plies to sample from, e.g. 10-30.
        #[arg(long, default_value = "10-30", value_parser = parse_plies)]
        plies: (u32, u32),
        /// Report the plies up to each of these separately (comma-separated, e.g. 20).
        #[arg(long, value_delimiter = ',', default_value = "20")]
        bands: Vec<u32>,
        /// Seed of the sample.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Keep each comparison in this file as it is made, and go on from it (see below).
        #[arg(long)]
        results: Option<PathBuf>,
        /// Search only the sampled positions K, K + N, K + 2N, … of the sample (1 <= K <= N).
        #[arg(long, value_parser = Shard::parse)]
        shard: Option<Shard>,
    },
    /// Writes an empty book (as Egaroucid ships one), to grow with deviate, store, merge or import-games.
    New {
        /// The file to write (refused if it exists).
        file: PathBuf,
        /// egbk3 or edax (default: from the file name's extension, else egbk3).
        #[arg(long, value_parser = parse_format)]
        format: Option<BookFormat>,
    },
    /// Writes a synthetic egbk3 book of random positions (for benchmarks).
    Generate {
        /// The file to write.
        out: PathBuf,
        /// Number of positions.
        #[arg(long, default_value_t = 1_000_000)]
        positions: usize,
        /// Random seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Write the records in a random order instead of ours (hash order), as a book written by another program
        /// (Egaroucid writes its hash map's iteration order) would be.
        #[arg(long)]
        shuffle: bool,
    },
    /// Times load, merge and save: loads BOOK and OTHER, merges OTHER into BOOK, saves to --out (egbk3).
    Bench {
        /// First book.
        book: PathBuf,
        /// Second book, merged into the first.
        other: PathBuf,
        /// Where the merged book is saved.
        #[arg(long)]
        out: PathBuf,
    },
    /// Measures progress and stop: loads BOOK and OTHER and merges OTHER into BOOK (and saves to --out) with a
    /// progress callback, printing the largest and median gap between reports; with --stop-after-ms, runs each again
    /// with the stop flag set that long after the call, printing how soon it returned.
    BenchControl {
        /// First book.
        book: PathBuf,
        /// Second book, merged into the first.
        other: PathBuf,
        /// Also save the merged book here (egbk3), measured the same way.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Set the stop flag from another thread this many milliseconds after each operation starts.
        #[arg(long)]
        stop_after_ms: Option<u64>,
    },
}

/// The AI used by the searching commands.
#[derive(Debug, clap::Args)]
struct Ai {
    /// Evaluation weights file (default: the shipped weights, built into the program).
    #[arg(long)]
    weights: Option<PathBuf>,
    /// Search without an evaluation (experiments).
    #[arg(long, conflicts_with = "weights")]
    zero_weights: bool,
    /// AI level.
    #[arg(long, default_value_t = 21)]
    level: u8,
    /// Worker threads (one search each).
    #[arg(long, default_value_t = 2, value_parser = crate::limits::threads)]
    threads: usize,
    /// Transposition table of 2^N entries per thread.
    #[arg(long, default_value_t = 18, value_parser = crate::limits::hash_level)]
    hash_level: u8,
}

impl Ai {
    fn weights(&self) -> Result<Arc<Weights>, String> {
        match (&self.weights, self.zero_weights) {
            (Some(path), _) => Ok(Arc::new(weights::load(path).map_err(|e| e.to_string())?)),
            (None, true) => Ok(Arc::new(Weights::zero())),
            (None, false) => Ok(Arc::new(weights::bundled().map_err(|e| e.to_string())?)),
        }
    }
}

/// A factory of AI searchers for the worker threads.
fn searchers(weights: Arc<Weights>, hash_level: u8) -> impl Fn() -> Box<dyn Searcher> + Sync {
    move || -> Box<dyn Searcher> {
        match ThinkerSearcher::new(Arc::clone(&weights), hash_level) {
            Ok(searcher) => Box::new(searcher),
            // Only an impossible table size fails; fall back to the smallest table.
            Err(_) => Box::new(ThinkerSearcher::new(Arc::clone(&weights), 10).expect("a 2^10 table can be made")),
        }
    }
}

fn parse_format(text: &str) -> Result<BookFormat, String> {
    BookFormat::from_name(text).ok_or_else(|| format!("unknown book format {text:?}"))
}

fn progress_line(progress: Progress) {
    err!("\r{}: {} / {}   ", progress.stage, progress.done, progress.total);
}

impl Input {
    /// Loads the book, or starts a new, empty one when the file does not exist yet (for the commands that write a book:
    /// it is created at their first save), saying so in one line.
    fn load_or_create(&self) -> Result<(Book, BookFormat), String> {
        if self.book.try_exists().is_ok_and(|exists| !exists) {
            let format = self.format.or_else(|| format_of_extension(&self.book)).unwrap_or(BookFormat::Egbk3);
            errln!("{} does not exist: starting a new, empty {format} book there", self.book.display());
            return Ok((Book::new(), format));
        }
        self.load()
    }

    fn load(&self) -> Result<(Book, BookFormat), String> {
        let start = Instant::now();
        let (book, format) =
            load(&self.book, self.format, ReadOptions { level: self.read_level }).map_err(|error| error.to_string())?;
        errln!(
            "loaded {} ({format}, {} positions) in {:.2} s",
            self.book.display(),
            book.len(),
            start.elapsed().as_secs_f64()
        );
        Ok((book, format))
    }
}

/// `A-B` plies (inclusive), as `--plies` takes them.
fn parse_plies(text: &str) -> Result<(u32, u32), String> {
    let bad = || format!("{text:?}: expected plies as A-B, e.g. 10-30");
    let (low, high) = text.split_once('-').ok_or_else(bad)?;
    let (low, high): (u32, u32) = (low.trim().parse().map_err(|_| bad())?, high.trim().parse().map_err(|_| bad())?);
    if low > high || high > 60 { Err(bad()) } else { Ok((low, high)) }
}

/// The writable format a file name's extension names (`.egbk3`, `.dat`), if any.
fn format_of_extension(path: &Path) -> Option<BookFormat> {
    path.extension().and_then(|e| e.to_str()).and_then(BookFormat::from_name).filter(|f| f.is_writable())
}

/// Where and how a changed book is written: `--to`, else the format of `--out`'s extension, else the input's format
/// when we can write it, else egbk3; by default over the input (or next to it with the new extension).
fn destination(input: &Input, output: &Output, format: BookFormat) -> (PathBuf, BookFormat) {
    let from_extension = output.out.as_deref().and_then(format_of_extension);
    let to = output.to.or(from_extension).unwrap_or(if format.is_writable() { format } else { BookFormat::Egbk3 });
    let path = output
        .out
        .clone()
        .unwrap_or_else(|| if to == format { input.book.clone() } else { input.book.with_extension(extension(to)) });
    (path, to)
}

/// Locks where a command writes (`--out`, else the input) before the book is loaded, loads it (or starts an empty
/// one with `create` when the file does not exist), then checks and locks the real destination ([`destination`])
/// before any work.
fn open_for_writing(input: &Input, output: &Output, create: bool) -> Result<(Book, Target), String> {
    let mut locks = Locks::default();
    let written = output.out.as_deref().unwrap_or(&input.book);
    // A missing input that is not created fails to load just below: no lock file is left beside a mistyped name.
    if create || output.out.is_some() || input.book.try_exists().unwrap_or(true) {
        locks.lock(written)?;
    }
    let (book, format) = if create { input.load_or_create()? } else { input.load()? };
    let (path, to) = destination(input, output, format);
    Ok((book, Target::new(path, to, locks)?))
}

fn extension(format: BookFormat) -> &'static str {
    match format {
        BookFormat::Edax => "dat",
        _ => "egbk3",
    }
}

fn write(book: &Book, path: &Path, format: BookFormat) -> Result<(), String> {
    let start = Instant::now();
    save(book, path, format).map_err(|error| error.to_string())?;
    errln!("saved {} ({format}, {} positions) in {:.2} s", path.display(), book.len(), start.elapsed().as_secs_f64());
    Ok(())
}

/// The transcripts of a file, one per non-empty line.
fn read_transcripts(path: &Path) -> Result<Vec<Vec<Move>>, String> {
    let text = shirokuro_engine::bounded::read_to_string(path, shirokuro_engine::bounded::RECORDS_BYTES)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let mut lines = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let transcript = parse_transcript(line).map_err(|e| format!("{} line {}: {e}", path.display(), i + 1))?;
        lines.push(transcript.moves);
    }
    Ok(lines)
}

fn position(moves: &str) -> Result<Board, String> {
    let transcript = parse_transcript(moves).map_err(|error| format!("--moves: {error}"))?;
    Ok(transcript.end.board)
}

impl Op {
    /// Whether the command can run for long (searches, or a walk over the whole book): Ctrl-C then stops it and
    /// what it did is saved.
    fn is_long(&self) -> bool {
        match self {
            Op::Fix { .. }
            | Op::Deviate { .. }
            | Op::ImportGames(_)
            | Op::Store { .. }
            | Op::Leaves { .. }
            | Op::Generate { .. }
            | Op::Quality { .. } => true,
            Op::Convert { leaf_level, .. } => leaf_level.is_some(),
            Op::Info { .. }
            | Op::Show { .. }
            | Op::Verify { .. }
            | Op::Views { .. }
            | Op::Merge { .. }
            | Op::Edit { .. }
            | Op::Reduce { .. }
            | Op::Bench { .. }
            | Op::New { .. }
            | Op::BenchControl { .. } => false,
        }
    }
}

pub fn run(args: &Args) -> Result<ExitCode, String> {
    let stop = Arc::new(AtomicBool::new(false));
    let signal = Arc::new(AtomicI32::new(0));
    if args.op.is_long() {
        signals::stop_on_signals(Arc::clone(&stop), Arc::clone(&signal));
        // A closed stdout or stderr (`… 2>&1 | head`) stops the work the same way: it saves, then ends quietly.
        crate::output::stop_when_closed(Arc::clone(&stop));
    }
    let control = Control { stop: &stop, progress: &progress_line };
    let status = run_op(&args.op, &control)?;
    let signal = signal.load(Ordering::SeqCst);
    if stop.load(Ordering::SeqCst) && signal != 0 {
        errln!("stopped by a signal; the work done so far is saved");
        return Ok(ExitCode::from(signals::exit_status(signal)));
    }
    Ok(status)
}

fn run_op(op: &Op, control: &Control<'_>) -> Result<ExitCode, String> {
    match op {
        Op::Info { input, links } => {
            let (book, _) = input.load()?;
            outln!("{}", ops::info(&book, *links));
        }
        Op::Show { input, moves } => {
            let (book, _) = input.load()?;
            let board = position(moves)?;
            match ops::show(&book, &board) {
                Some(show) => outln!("{show}"),
                None => {
                    outln!("not in the book");
                    return Ok(ExitCode::FAILURE);
                }
            }
        }
        Op::Views { input, moves, depth, error } => {
            let (book, _) = input.load()?;
            let transcript = parse_transcript(moves).map_err(|error| format!("--moves: {error}"))?;
            let settings = UmigameSettings { depth: *depth, error: *error, black_range: None };
            let mut umigame = UmigameCache::new();
            let mut accuracy = AccuracyCache::new();
            let start = Instant::now();
            let views = move_views(&book, &transcript.end, settings, &mut umigame, &mut accuracy);
            let cold = start.elapsed();
            let start = Instant::now();
            let again = move_views(&book, &transcript.end, settings, &mut umigame, &mut accuracy);
            let warm = start.elapsed();
            for view in &views {
                outln!(
                    "{} {:+3}  lines {:>10}  umigame black {:>8} white {:>8}  accuracy {}",
                    view.value.mv,
                    view.value.value,
                    view.value.lines,
                    view.umigame.black,
                    view.umigame.white,
                    view.accuracy.as_deref().unwrap_or("-")
                );
            }
            outln!(
                "{} moves: cold {:.1} ms, from the caches {:.3} ms",
                again.len(),
                cold.as_secs_f64() * 1000.0,
                warm.as_secs_f64() * 1000.0
            );
        }
        Op::Merge { input, others, output } => {
            let (mut book, mut target) = open_for_writing(input, output, true)?;
            for other in others {
                let (other, other_format) =
                    load(other, None, ReadOptions { level: input.read_level }).map_err(|error| error.to_string())?;
                errln!("merging {} positions ({other_format})", other.len());
                book.merge(&other);
            }
            target.save_final(&book)?;
        }
        Op::Convert { input, out, to, level, leaf_level, weights: weights_file, threads } => {
            let ext = out.extension().and_then(|e| e.to_str()).and_then(BookFormat::from_name);
            let to = to.or(ext.filter(|f| f.is_writable())).unwrap_or(BookFormat::Egbk3);
            let mut target = if to == BookFormat::Edax {
                let options = WriteOptions { level: *level, ..WriteOptions::default() };
                Target::edax(out.clone(), options, Locks::default())?
            } else {
                Target::new(out.clone(), to, Locks::default())?
            };
            let (mut book, _) = input.load()?;
            if let Some(leaf_level) = leaf_level {
                let weights = Arc::new(
                    match weights_file {
                        Some(path) => weights::load(path),
                        None => weights::bundled(),
                    }
                    .map_err(|e| e.to_string())?,
                );
                let make = searchers(weights, 18);
                let settings =
                    LeafSettings { walk: Walk::UNLIMITED, level: *leaf_level, only_invalid: true, threads: *threads };
                // The positions reachable from the initial position; any others keep their leaves.
                let report = recalculate_leaves(&mut book, &Board::INITIAL, settings, &make, control);
                errln!();
                outln!("extra calc: {} positions searched, {} leaves set", report.searched, report.set);
            }
            if let Some(level) = level {
                ops::overwrite_levels(&mut book, *level);
            }
            target.save_final(&book)?;
        }
        Op::Fix { input, edax_like, moves, output } => {
            let (mut book, mut target) = open_for_writing(input, output, false)?;
            let root = position(moves)?;
            if !book.contains(&root) {
                return Err("the root position is not in the book".to_owned());
            }
            let report = ops::fix(&mut book, &root, *edax_like, control);
            errln!();
            outln!(
                "visited {} positions, {} values changed, {} leaves removed",
                report.visited,
                report.values_changed,
                report.leaves_invalidated
            );
            target.save_final(&book)?;
        }
        Op::Edit { input, moves, mv, value, delete, output } => {
            let (mut book, mut target) = open_for_writing(input, output, false)?;
            let board = position(moves)?;
            let square = Square::parse(mv).map_err(|error| format!("--move: {error}"))?;
            let value = if *delete { None } else { Some(value.ok_or("give --value or --delete")?) };
            let old = book.edit(&board, Move::Place(square), value).map_err(|error| error.to_string())?;
            let new = book.move_value(&board, Move::Place(square));
            outln!(
                "{mv}: {} -> {}",
                old.map_or("(not in book)".to_owned(), |e| format!("entry value {:+} level {}", e.value, e.level)),
                new.map_or("(deleted)".to_owned(), |m| format!("{:+}", m.value))
            );
            target.save_final(&book)?;
        }
        Op::Reduce { input, moves, depth, error_per_move, error_sum, output } => {
            let (mut book, mut target) = open_for_writing(input, output, false)?;
            let root = position(moves)?;
            let walk = Walk { depth: *depth, error_per_move: *error_per_move, error_sum: *error_sum };
            let report = ops::reduce(&mut book, &root, walk);
            outln!("kept {} positions, deleted {}", report.kept, report.deleted);
            target.save_final(&book)?;
        }
        Op::Verify { input, moves, depth, error_per_move, error_sum, error_leaf } => {
            let (book, _) = input.load()?;
            let root = position(moves)?;
            let walk = Walk { depth: *depth, error_per_move: *error_per_move, error_sum: *error_sum };
            let start = Instant::now();
            let report = book_exits(&book, &root, walk, *error_leaf);
            outln!(
                "verify: {} positions checked in {:.2} s: the AI keeps to the book at {}, leaves it with no book \
                 move within the errors at {}, leaves it although one exists at {}; moves within the errors that \
                 leave the book (open leaves): {}",
                report.checked,
                start.elapsed().as_secs_f64(),
                report.in_book,
                report.ends,
                report.exits.len(),
                report.open_leaves
            );
            for exit in report.exits.iter().take(20) {
                outln!(
                    "  {} value {:+} leaf {} {:+}, error left {}: {:?}",
                    exit.board.to_string().replace('\n', ""),
                    exit.entry.value,
                    exit.entry.leaf.mv().map_or("-".to_owned(), |m| m.to_string()),
                    exit.entry.leaf.value,
                    exit.remaining,
                    exit.reason
                );
            }
            if !report.exits.is_empty() || report.open_leaves > 0 {
                return Ok(ExitCode::FAILURE);
            }
        }
        Op::Deviate {
            input,
            ai,
            moves,
            transcripts,
            depth,
            error_per_move,
            error_sum,
            error_leaf,
            max_loops,
            save_every,
            shard,
            output,
        } => {
            let (mut book, mut target) = open_for_writing(input, output, true)?;
            let root = position(moves)?;
            let make = searchers(ai.weights()?, ai.hash_level);
            let settings = DeviateSettings {
                level: ai.level,
                depth: *depth,
                error_per_move: *error_per_move,
                error_sum: *error_sum,
                error_leaf: *error_leaf,
                max_loops: *max_loops,
                threads: ai.threads,
                save_every: Duration::from_secs(*save_every),
                shard: shard.unwrap_or(Shard::ALL),
            };
            let start = Instant::now();
            let mut save = |b: &Book| target.save_point(b);
            if let Some(file) = transcripts {
                let lines = read_transcripts(file)?;
                let Ok(report) = deviate_transcripts(&mut book, &lines, &settings, &make, &mut save, control);
                errln!();
                outln!(
                    "deviate: {} transcripts, {} positions added ({} in the book), {} saves, {:.1} s",
                    report.transcripts,
                    report.added,
                    book.len(),
                    report.saves,
                    start.elapsed().as_secs_f64()
                );
                target.finish(&book)?;
                return Ok(ExitCode::SUCCESS);
            }
            let Ok(report) = deviate(&mut book, &root, &settings, &make, &mut save, control);
            errln!();
            outln!(
                "deviate: {} loops, {} positions added ({} in the book), {} saves, {:.1} s",
                report.loops,
                report.added,
                book.len(),
                report.saves,
                start.elapsed().as_secs_f64()
            );
            target.finish(&book)?;
        }
        Op::ImportGames(args) => return import_games::run(args, control),
        Op::Store { input, ai, moves, depth, output } => {
            let (mut book, mut target) = open_for_writing(input, output, true)?;
            let transcript = parse_transcript(moves).map_err(|error| format!("--moves: {error}"))?;
            let make = searchers(ai.weights()?, ai.hash_level);
            let mut searcher = make();
            let report =
                store(&mut book, &Board::INITIAL, &transcript.moves, *depth, ai.level, searcher.as_mut(), control);
            errln!();
            outln!("store: {} positions added, {} updated", report.added, report.updated);
            target.save_final(&book)?;
        }
        Op::Leaves { input, ai, moves, depth, error_per_move, error_sum, all, output } => {
            let (mut book, mut target) = open_for_writing(input, output, false)?;
            let root = position(moves)?;
            let make = searchers(ai.weights()?, ai.hash_level);
            let settings = LeafSettings {
                walk: Walk { depth: *depth, error_per_move: *error_per_move, error_sum: *error_sum },
                level: ai.level,
                only_invalid: !*all,
                threads: ai.threads,
            };
            let report = recalculate_leaves(&mut book, &root, settings, &make, control);
            errln!();
            outln!("leaves: {} positions searched, {} leaves set", report.searched, report.set);
            target.save_final(&book)?;
        }
        Op::Quality { input, ai, samples, plies, bands, seed, results, shard } => {
            let (book, _) = input.load()?;
            let settings = quality::Settings {
                samples: *samples,
                plies: *plies,
                bands: bands.clone(),
                level: ai.level,
                threads: ai.threads,
                hash_level: ai.hash_level,
                seed: *seed,
                results: results.clone(),
                shard: shard.unwrap_or(Shard::ALL),
            };
            let _compared = quality::run(&book, &ai.weights()?, &settings, control)?;
        }
        Op::New { file, format } => {
            if file.try_exists().unwrap_or(true) {
                return Err(format!("{} exists already (or cannot be checked): not replaced", file.display()));
            }
            let format = format.or_else(|| format_of_extension(file)).unwrap_or(BookFormat::Egbk3);
            write(&Book::new(), file, format)?;
            outln!("new empty {format} book: {}", file.display());
        }
        Op::Generate { out, positions, seed, shuffle } => {
            let start = Instant::now();
            let book = synthetic_book(*positions, *seed, control);
            errln!("generated {} positions in {:.2} s", book.len(), start.elapsed().as_secs_f64());
            if *shuffle {
                write_shuffled(&book, out, *seed)?;
            } else {
                write(&book, out, BookFormat::Egbk3)?;
            }
        }
        Op::Bench { book, other, out } => bench(book, other, out)?,
        Op::BenchControl { book, other, out, stop_after_ms } => {
            bench_control::run(book, other, out.as_deref(), stop_after_ms.map(Duration::from_millis))?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `n` distinct positions from seeded random games (lengths 0–59 plies) with random values, levels, line counts
/// and leaves.
fn synthetic_book(n: usize, seed: u64, control: &Control<'_>) -> Book {
    let mut rng = GameRng::new(seed);
    // A value in min..=max.
    let value = |rng: &mut GameRng, min: i8, max: i8| {
        i8::try_from(rng.in_range(0, usize::from(max.abs_diff(min)))).unwrap_or(0).saturating_add(min)
    };
    let mut book = Book::with_capacity(n);
    // Egaroucid books always hold the initial position.
    let _ = book.insert(&Board::INITIAL, Entry::new(0, 30));
    while book.len() < n && !control.is_stopped() {
        let mut board = Board::INITIAL;
        let plies = rng.in_range(1, 59);
        for _ in 0..plies {
            let moves: Vec<Move> = legal_moves(&board).collect();
            if moves.is_empty() || book.len() >= n {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            let Some((child, _)) = book_child(&board, mv) else { break };
            if child.has_moves() && !book.contains(&child) {
                let leaf_move = legal_moves(&child).next().unwrap_or(Move::Pass);
                let level = value(&mut rng, 1, 30).unsigned_abs();
                let entry = Entry {
                    value: value(&mut rng, -20, 20),
                    level,
                    lines: u32::try_from(rng.in_range(1, 99)).unwrap_or(1),
                    leaf: Leaf::new(leaf_move, value(&mut rng, -20, 20), level),
                };
                let _ = book.insert(&child, entry);
            }
            board = child;
        }
    }
    book
}

/// Writes `book` as egbk3 with its records in a random order (seeded), atomically.
fn write_shuffled(book: &Book, path: &Path, seed: u64) -> Result<(), String> {
    use shirokuro_engine::book::egaroucid::{EGBK3_RECORD_LEN, HEADER_LEN};
    let mut bytes = Vec::new();
    write_to(book, BookFormat::Egbk3, &mut bytes).map_err(|e| e.to_string())?;
    let mut records: Vec<[u8; EGBK3_RECORD_LEN]> = bytes
        .get(HEADER_LEN..)
        .unwrap_or_default()
        .chunks_exact(EGBK3_RECORD_LEN)
        .map(|r| r.try_into().unwrap_or([0; EGBK3_RECORD_LEN]))
        .collect();
    let mut rng = GameRng::new(seed ^ 0x5eed);
    for i in (1..records.len()).rev() {
        records.swap(i, rng.below(i + 1));
    }
    bytes.truncate(HEADER_LEN);
    bytes.extend(records.iter().flatten());
    shirokuro_engine::fsutil::save_atomically(path, shirokuro_engine::fsutil::Backup::Keep, |out| {
        out.write_all(&bytes)
    })
    .map_err(|e| format!("{}: {e}", path.display()))?;
    errln!("saved {} (egbk3, {} positions, records shuffled)", path.display(), book.len());
    Ok(())
}

/// Peak resident memory of this process in bytes (Linux), if known.
fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// CPU time (user + system) this process has used, in seconds (Linux; 0 elsewhere).
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else { return 0.0 };
    // Fields after the command name (which is in parentheses and may hold spaces): utime and stime are 14 and 15.
    let Some(rest) = stat.rsplit_once(')').map(|(_, rest)| rest) else { return 0.0 };
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok()).unwrap_or(0.0);
    (ticks(11) + ticks(12)) / 100.0
}

/// Wall and CPU time of a step.
struct Timer(Instant, f64);

impl Timer {
    fn start() -> Timer {
        Timer(Instant::now(), cpu_seconds())
    }

    fn report(&self) -> String {
        format!("{:.2} s wall, {:.2} s CPU", self.0.elapsed().as_secs_f64(), cpu_seconds() - self.1)
    }
}

fn bench(first: &Path, second: &Path, out: &Path) -> Result<(), String> {
    let options = ReadOptions::default();
    let per_position = |book: &Book| book.memory_bytes() as f64 / book.len().max(1) as f64;
    let timer = Timer::start();
    let bytes = shirokuro_engine::bounded::read(first, shirokuro_engine::bounded::RECORDS_BYTES)
        .map_err(|e| format!("{}: {e}", first.display()))?;
    outln!("read {}: {} bytes in {}", first.display(), bytes.len(), timer.report());
    let timer = Timer::start();
    let (mut book, _) = parse(&bytes, None, options).map_err(|e| e.to_string())?;
    outln!("parse: {} positions in {} ({:.1} bytes/position)", book.len(), timer.report(), per_position(&book));
    drop(bytes);
    let timer = Timer::start();
    let (other, _) = load(second, None, options).map_err(|e| e.to_string())?;
    outln!("load {}: {} positions in {}", second.display(), other.len(), timer.report());
    let timer = Timer::start();
    book.merge(&other);
    outln!("merge: {} -> {} positions ({:.1} bytes/position)", timer.report(), book.len(), per_position(&book));
    drop(other);
    let timer = Timer::start();
    let mut buffer = Vec::new();
    write_to(&book, BookFormat::Egbk3, &mut buffer).map_err(|e| e.to_string())?;
    outln!("encode to memory: {} bytes in {}", buffer.len(), timer.report());
    drop(buffer);
    let timer = Timer::start();
    save(&book, out, BookFormat::Egbk3).map_err(|e| e.to_string())?;
    outln!("save {} (atomic, fsync): {}", out.display(), timer.report());
    if let Some(rss) = peak_rss() {
        outln!("peak resident memory: {:.0} MiB", rss as f64 / 1_048_576.0);
    }
    Ok(())
}
