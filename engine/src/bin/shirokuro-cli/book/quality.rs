//! `shirokuro-cli book quality`: how good a book's values are. Positions are sampled from the book at chosen plies;
//! each is searched at a chosen level (deeper than the book's own) and compared with the book: the absolute difference
//! between the book's value and the search's, and whether the book's best move is the search's best move (moves that
//! lead to the same position up to symmetry count as the same move). With `--results FILE` every comparison is kept as
//! it is made (`results.rs`), so that the measurement runs in chunks or shards.

mod results;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::Instant;

use shirokuro_engine::board::hash_pair;
use shirokuro_engine::book::import::Shard;
use shirokuro_engine::book::ops::Control;
use shirokuro_engine::book::{Book, views};
use shirokuro_engine::eval::Weights;
use shirokuro_engine::level::Level;
use shirokuro_engine::rng::GameRng;
use shirokuro_engine::search::SolveOptions;
use shirokuro_engine::think::Thinker;
use shirokuro_engine::{Board, Color, Move, Position};

/// What `book quality` measures.
pub struct Settings {
    /// Positions to sample.
    pub samples: usize,
    /// Plies (discs placed) the positions are drawn from, inclusive.
    pub plies: (u32, u32),
    /// The plies at which the report is split (a band ends at each).
    pub bands: Vec<u32>,
    /// Search level of the reference.
    pub level: u8,
    /// Worker threads (one search each).
    pub threads: usize,
    /// Transposition table of 2^N entries per thread.
    pub hash_level: u8,
    /// Seed of the sample.
    pub seed: u64,
    /// Where the comparisons are kept as they are made (and read back from).
    pub results: Option<PathBuf>,
    /// Which of the sampled positions this run searches.
    pub shard: Shard,
}

/// One sampled position, compared.
struct Compared {
    ply: u32,
    /// The book's value, side to move's view.
    book_value: i32,
    /// The search's value, side to move's view.
    search_value: i32,
    /// `None` when the position has no book move to compare.
    same_best: Option<bool>,
}

impl Compared {
    fn difference(&self) -> i32 {
        (self.book_value - self.search_value).abs()
    }
}

/// Samples, searches and prints the report. Returns how many positions were compared (fewer when stopped).
pub fn run(book: &Book, weights: &Arc<Weights>, settings: &Settings, control: &Control<'_>) -> Result<usize, String> {
    let sample = sample(book, settings);
    let header = header(book, &sample, settings);
    let (mut journal, done) = match &settings.results {
        Some(path) => {
            let loaded = results::Results::open(path, &header)?;
            if loaded.dropped_cut_line {
                errln!("{}: the last line was cut short (a stopped run); dropped", path.display());
            }
            if !loaded.done.is_empty() {
                errln!("{}: {} positions compared already", path.display(), loaded.done.len());
            }
            (Some(loaded.results), loaded.done)
        }
        None => (None, BTreeMap::new()),
    };
    let shard = settings.shard;
    let todo: Vec<usize> = (0..sample.len())
        .filter(|index| !done.contains_key(index))
        .filter(|index| u32::try_from(index % shard.count as usize).is_ok_and(|rest| rest + 1 == shard.index))
        .collect();
    errln!(
        "{} of {} positions at plies {}-{} sampled (seed {}); {} to search at level {} with {} thread(s){}",
        sample.len(),
        book.len(),
        settings.plies.0,
        settings.plies.1,
        settings.seed,
        todo.len(),
        settings.level,
        settings.threads,
        if shard == Shard::ALL { String::new() } else { format!(" (shard {}/{})", shard.index, shard.count) }
    );
    let start = Instant::now();
    let before = done.len();
    let next = AtomicUsize::new(0);
    let found = Mutex::new((done, journal.take(), None::<String>));
    let level = Level::clamped(settings.level);
    let options = SolveOptions::default().with_threads(1).with_hash_level(settings.hash_level);
    let stop = std::sync::atomic::AtomicBool::new(false);
    thread::scope(|scope| -> Result<(), String> {
        let mut workers = Vec::new();
        for _ in 0..settings.threads.max(1) {
            let thinker = Thinker::new(Arc::clone(weights), options).map_err(|e| e.to_string())?;
            let (sample, todo, next, found, stop) = (&sample, &todo, &next, &found, &stop);
            workers.push(scope.spawn(move || {
                while !control.is_stopped() && !stop.load(Ordering::SeqCst) {
                    let Some(&index) = todo.get(next.fetch_add(1, Ordering::SeqCst)) else { break };
                    let Some(&(board, ply)) = sample.get(index) else { break };
                    let Some(compared) = compare(book, &thinker, board, ply, level) else { continue };
                    let mut found = found.lock().unwrap_or_else(PoisonError::into_inner);
                    let (done, journal, failure) = &mut *found;
                    if let Some(journal) = journal
                        && let Err(error) = journal.add(index, &compared)
                    {
                        *failure = Some(error);
                        stop.store(true, Ordering::SeqCst);
                        break;
                    }
                    let _replaced = done.insert(index, compared);
                    err!("\rquality: {} / {}   ", done.len(), sample.len());
                }
            }));
        }
        for worker in workers {
            let _joined = worker.join();
        }
        Ok(())
    })?;
    errln!();
    let (done, _, failure) = found.into_inner().unwrap_or_else(PoisonError::into_inner);
    if let Some(failure) = failure {
        return Err(failure);
    }
    if done.len() < sample.len() {
        errln!("{} of the {} sampled positions are compared so far: the report covers those", done.len(), sample.len());
    }
    let searched = done.len().saturating_sub(before);
    let results: Vec<Compared> = done.into_values().collect();
    print_report(&results, settings, start.elapsed().as_secs_f64(), searched);
    Ok(results.len())
}

/// The results file's first line: names the sample (settings, and a fingerprint of the sampled positions and their
/// book values), so that a file is never continued with another book or other settings.
fn header(book: &Book, sample: &[(Board, u32)], settings: &Settings) -> String {
    let fingerprint = sample.iter().fold(0_u64, |acc, (board, _)| {
        let value = book.get(board).map_or(0, |entry| i64::from(entry.value));
        acc.rotate_left(7) ^ hash_pair(board.player.0, board.opponent.0) ^ value.cast_unsigned()
    });
    format!(
        "# shirokuro book quality 1: {} positions sampled of {}, plies {}-{}, seed {}, level {}, fingerprint {:016x}",
        sample.len(),
        book.len(),
        settings.plies.0,
        settings.plies.1,
        settings.seed,
        settings.level,
        fingerprint
    )
}

/// The positions of `book` at the plies asked for (ply = discs − 4), `samples` of them drawn with the seed.
fn sample(book: &Book, settings: &Settings) -> Vec<(Board, u32)> {
    let mut all: Vec<(Board, u32)> = book
        .iter()
        .map(|(board, _)| (board, board.player.count() + board.opponent.count() - 4))
        .filter(|(_, ply)| (settings.plies.0..=settings.plies.1).contains(ply))
        .collect();
    // The table's order depends on its history: sort first, so that the seed alone decides the sample.
    all.sort_unstable_by_key(|(board, _)| (board.player.0, board.opponent.0));
    let mut rng = GameRng::new(settings.seed);
    for i in (1..all.len()).rev() {
        all.swap(i, rng.below(i + 1));
    }
    all.truncate(settings.samples);
    all
}

/// The book's value and best move of `board` against a search at `level`.
fn compare(book: &Book, thinker: &Thinker, board: Board, ply: u32, level: Level) -> Option<Compared> {
    let entry = book.get(&board)?;
    // Without passes, Black is to move after an even number of plies (the evaluation may care about colour).
    let side = if ply.is_multiple_of(2) { Color::Black } else { Color::White };
    let thought = thinker.think(&Position { board, side_to_move: side }, level);
    if thought.stopped {
        return None;
    }
    let book_best = views::book_moves(book, &board).into_iter().max_by_key(|m| m.value).map(|m| m.mv);
    let same_best = book_best.map(|mv| Some(child(board, mv)) == thought.best_move.map(|best| child(board, best)));
    Some(Compared { ply, book_value: i32::from(entry.value), search_value: thought.score, same_best })
}

/// The position after `mv`, up to symmetry.
fn child(board: Board, mv: Move) -> Option<Board> {
    board.play(mv).ok().map(|child| child.canonical().0)
}

fn print_report(results: &[Compared], settings: &Settings, seconds: f64, searched: usize) {
    let this_run = if searched == 0 {
        "nothing searched in this run".to_string()
    } else {
        format!(
            "{searched} searched in this run, {seconds:.0} s, {:.2} s each with {} thread(s)",
            seconds * settings.threads as f64 / searched as f64,
            settings.threads
        )
    };
    outln!("book vs level {}: {} positions ({this_run})", settings.level, results.len());
    outln!("{:>9} {:>9} {:>12} {:>22}", "plies", "positions", "mean |diff|", "same best move");
    let mut low = settings.plies.0;
    let mut ends = settings.bands.clone();
    ends.push(settings.plies.1);
    for high in ends {
        if high < low {
            continue;
        }
        let band: Vec<&Compared> = results.iter().filter(|r| (low..=high).contains(&r.ply)).collect();
        line(&format!("{low}-{high}"), &band);
        low = high + 1;
    }
    line("all", &results.iter().collect::<Vec<_>>());
}

fn line(name: &str, band: &[&Compared]) {
    if band.is_empty() {
        outln!("{name:>9} {:>9}", 0);
        return;
    }
    let mean = band.iter().map(|r| f64::from(r.difference())).sum::<f64>() / band.len() as f64;
    let judged: Vec<bool> = band.iter().filter_map(|r| r.same_best).collect();
    let same = judged.iter().filter(|same| **same).count();
    outln!(
        "{name:>9} {:>9} {mean:>12.2} {:>13.1} % of {:>5}",
        band.len(),
        100.0 * same as f64 / judged.len().max(1) as f64,
        judged.len()
    );
}
