//! `shirokuro-cli review`: a game's moves graded by their loss against the best move (the app's Game ▸ Review from
//! the command line, and its benchmark).

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use shirokuro_engine::Position;
use shirokuro_engine::eval::weights;
use shirokuro_engine::level::Level;
use shirokuro_engine::notation::parse_transcript;
use shirokuro_engine::review::{
    Grade, PositionValue, ReviewOptions, Thresholds, grade_moves, line_of_moves, summarize,
};
use shirokuro_engine::search::SolveOptions;
use shirokuro_engine::think::Thinker;

use crate::gtp::load_book;

/// Options of `review`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The game: a transcript from the initial position (f5d6c3…).
    transcript: String,
    /// Level of the midgame searches.
    #[arg(long, default_value = "10")]
    level: Level,
    /// Solve exactly from this many empties.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u8).range(0..=60))]
    exact_from: u8,
    /// Largest loss of a good move, an inaccuracy and a mistake (discs); above the last: a blunder.
    #[arg(long, num_args = 3, value_names = ["GOOD", "INACCURACY", "MISTAKE"], default_values_t = [2, 5, 9])]
    thresholds: Vec<u8>,
    /// Search threads.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Transposition-table size (2^H entries).
    #[arg(long, default_value_t = 20, value_parser = crate::limits::hash_level)]
    hash_level: u8,
    /// Evaluation weights file (default: the shipped weights).
    #[arg(long)]
    weights: Option<PathBuf>,
    /// A book whose positions count as book moves (no loss).
    #[arg(long)]
    book: Option<PathBuf>,
}

/// Runs `review`.
pub fn run(args: &Args) -> Result<ExitCode, String> {
    let transcript = parse_transcript(&args.transcript).map_err(|e| format!("the transcript: {e}"))?;
    let weights = match &args.weights {
        Some(path) => weights::load(path).map_err(|e| e.to_string())?,
        None => weights::bundled().map_err(|e| e.to_string())?,
    };
    let options = SolveOptions::default().with_threads(args.threads).with_hash_level(args.hash_level);
    let thinker = Thinker::new(Arc::new(weights), options).map_err(|e| e.to_string())?;
    let book = load_book(args.book.as_deref())?;
    let line = line_of_moves(Position::INITIAL, &transcript.moves);
    let review = ReviewOptions { level: args.level, exact_from: args.exact_from };
    let start = Instant::now();
    let mut values: Vec<Option<PositionValue>> = vec![None; line.len()];
    // From the end: the exact solves of the last positions fill the table for the earlier ones.
    for (index, at) in line.iter().enumerate().rev() {
        let value = thinker.review_position(&at.position, review, book.as_deref());
        if let Some(slot) = values.get_mut(index) {
            *slot = value;
        }
    }
    let elapsed = start.elapsed();
    let [good, inaccuracy, mistake] = args.thresholds[..] else { return Err("--thresholds takes 3 values".into()) };
    let thresholds = Thresholds { good, inaccuracy, mistake };
    let in_book =
        |i: usize| book.as_deref().zip(line.get(i)).is_some_and(|(book, at)| book.contains(&at.position.board));
    let graded = grade_moves(&line, &values, thresholds, in_book);
    for review in graded.iter().flatten() {
        let best = review.best.map(|m| m.to_string()).unwrap_or_default();
        let better = if review.loss > 0 {
            let line: Vec<String> = review.best_line.iter().take(8).map(ToString::to_string).collect();
            format!("  best {best}: {}", line.join(" "))
        } else {
            String::new()
        };
        outln!(
            "{:>2}. {} {:<5} {:>3} {:<10}{better}",
            review.ply,
            review.played,
            format!("{:?}", review.mover),
            -review.loss,
            format!("{:?}", review.grade).to_lowercase()
        );
    }
    for (name, summary) in ["Black", "White"].iter().zip(summarize(&graded)) {
        let counts: Vec<String> = Grade::ALL
            .iter()
            .map(|g| format!("{} {}", format!("{g:?}").to_lowercase(), summary.counts[g.index()]))
            .collect();
        let [opening, midgame, endgame] = summary.loss_by_phase;
        outln!(
            "{name}: lost {} discs over {} moves ({}); opening {opening}, midgame {midgame}, endgame {endgame}",
            summary.total_loss,
            summary.moves,
            counts.join(", ")
        );
    }
    outln!(
        "reviewed {} positions at level {} (exact from {} empties) in {:.2} s",
        line.len(),
        args.level.get(),
        args.exact_from,
        elapsed.as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}
