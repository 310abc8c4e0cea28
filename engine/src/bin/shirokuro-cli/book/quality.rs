//! `shirokuro-cli book quality`: how good a book's values are. Positions are sampled from the book at chosen plies;
//! each is searched at a chosen level (deeper than the book's own) and compared with the book: the absolute difference
//! between the book's value and the search's, and whether the book's best move is the search's best move (moves that
//! lead to the same position up to symmetry count as the same move).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::Instant;

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
}

/// One sampled position, compared.
struct Compared {
    ply: u32,
    difference: i32,
    /// `None` when the position has no book move to compare.
    same_best: Option<bool>,
}

/// Samples, searches and prints the report. Returns how many positions were compared (fewer when stopped).
pub fn run(book: &Book, weights: &Arc<Weights>, settings: &Settings, control: &Control<'_>) -> Result<usize, String> {
    let sample = sample(book, settings);
    errln!(
        "{} of {} positions at plies {}-{} sampled (seed {}); searching each at level {} with {} thread(s)",
        sample.len(),
        book.len(),
        settings.plies.0,
        settings.plies.1,
        settings.seed,
        settings.level,
        settings.threads
    );
    let start = Instant::now();
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::with_capacity(sample.len()));
    let level = Level::clamped(settings.level);
    let options = SolveOptions::default().with_threads(1).with_hash_level(settings.hash_level);
    thread::scope(|scope| -> Result<(), String> {
        let mut workers = Vec::new();
        for _ in 0..settings.threads.max(1) {
            let thinker = Thinker::new(Arc::clone(weights), options).map_err(|e| e.to_string())?;
            let (sample, next, results) = (&sample, &next, &results);
            workers.push(scope.spawn(move || {
                while !control.is_stopped() {
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    let Some(&(board, ply)) = sample.get(index) else { break };
                    let Some(compared) = compare(book, &thinker, board, ply, level) else { continue };
                    let mut results = results.lock().unwrap_or_else(PoisonError::into_inner);
                    results.push(compared);
                    err!("\rquality: {} / {}   ", results.len(), sample.len());
                }
            }));
        }
        for worker in workers {
            let _joined = worker.join();
        }
        Ok(())
    })?;
    errln!();
    let results = results.into_inner().unwrap_or_else(PoisonError::into_inner);
    print_report(&results, settings, start.elapsed().as_secs_f64());
    Ok(results.len())
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
    let difference = (i32::from(entry.value) - thought.score).abs();
    let book_best = views::book_moves(book, &board).into_iter().max_by_key(|m| m.value).map(|m| m.mv);
    let same_best = book_best.map(|mv| Some(child(board, mv)) == thought.best_move.map(|best| child(board, best)));
    Some(Compared { ply, difference, same_best })
}

/// The position after `mv`, up to symmetry.
fn child(board: Board, mv: Move) -> Option<Board> {
    board.play(mv).ok().map(|child| child.canonical().0)
}

fn print_report(results: &[Compared], settings: &Settings, seconds: f64) {
    outln!(
        "book vs level {}: {} positions in {:.0} s ({:.2} s each with {} thread(s))",
        settings.level,
        results.len(),
        seconds,
        seconds * settings.threads as f64 / results.len().max(1) as f64,
        settings.threads
    );
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
    let mean = band.iter().map(|r| f64::from(r.difference)).sum::<f64>() / band.len() as f64;
    let judged: Vec<bool> = band.iter().filter_map(|r| r.same_best).collect();
    let same = judged.iter().filter(|same| **same).count();
    outln!(
        "{name:>9} {:>9} {mean:>12.2} {:>13.1} % of {:>5}",
        band.len(),
        100.0 * same as f64 / judged.len().max(1) as f64,
        judged.len()
    );
}
