//! `shirokuro-cli xot`: our own list of XOT openings (eXtra Opening Theory: games start from a balanced position a
//! few moves in, so that they do not follow the book's main lines). Every position reached after `--plies` moves is
//! taken once up to the board's 8 symmetries (with the lexically smallest move sequence from f5 reaching it), searched at a
//! quick `--prefilter-level` and, when its value stays within `--prefilter-max` discs, at `--level`; the openings
//! whose value at `--level` lies within `--max` discs of a draw are written, one move sequence a line, sorted.

use std::collections::HashMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use shirokuro_engine::eval::{Weights, weights};
use shirokuro_engine::level::Level;
use shirokuro_engine::search::SolveOptions;
use shirokuro_engine::think::Thinker;
use shirokuro_engine::{Color, Move, Position, Square};

/// Options of `xot`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The list to write (written whole at the end, through a temporary file).
    out: PathBuf,
    /// Moves from the initial position.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u8).range(1..=12))]
    plies: u8,
    /// The level whose value decides.
    #[arg(long, default_value_t = 14)]
    level: u8,
    /// Largest distance from a draw (discs, side to move's view) at --level.
    #[arg(long, default_value_t = 2)]
    max: i32,
    /// A quick search first: positions further than --prefilter-max from a draw at this level are dropped.
    #[arg(long, default_value_t = 6)]
    prefilter_level: u8,
    /// Largest distance from a draw at --prefilter-level.
    #[arg(long, default_value_t = 8)]
    prefilter_max: i32,
    /// Worker threads (one search each).
    #[arg(long, default_value_t = 2, value_parser = crate::limits::threads)]
    threads: usize,
    /// Transposition table of 2^N entries per thread.
    #[arg(long, default_value_t = 18, value_parser = crate::limits::hash_level)]
    hash_level: u8,
}

/// The positions after `plies` moves, one per symmetry class, each with the smallest move sequence reaching it.
fn openings(plies: u8) -> Vec<(Position, String)> {
    fn walk(
        position: Position,
        line: &mut String,
        left: u8,
        found: &mut HashMap<(u64, u64, bool), (Position, String)>,
    ) {
        if left == 0 {
            let (canonical, _) = position.board.canonical();
            let key = (canonical.player.0, canonical.opponent.0, position.side_to_move == Color::Black);
            let entry = found.entry(key).or_insert_with(|| (position, line.clone()));
            if *line < entry.1 {
                *entry = (position, line.clone());
            }
            return;
        }
        for square in position.board.moves() {
            // The four first moves are one up to symmetry: starting with f5, as openings are written, loses nothing.
            if line.is_empty() && square != Square::F5 {
                continue;
            }
            let Ok(next) = position.play(Move::Place(square)) else { continue };
            let length = line.len();
            line.push_str(&square_name(square));
            walk(next, line, left - 1, found);
            line.truncate(length);
        }
    }
    let mut found = HashMap::new();
    walk(Position::INITIAL, &mut String::new(), plies, &mut found);
    let mut all: Vec<(Position, String)> = found.into_values().collect();
    all.sort_by(|a, b| a.1.cmp(&b.1));
    all
}

fn square_name(square: Square) -> String {
    square.to_string().to_lowercase()
}

/// Searches `positions` at `level` with `threads` workers and returns the values (side to move's view), in order;
/// `None` where a stop came first.
fn values(
    positions: &[Position],
    weights: &Arc<Weights>,
    args: &Args,
    level: u8,
    stage: &str,
    stop: &AtomicBool,
) -> Result<Vec<Option<i32>>, String> {
    let level = Level::clamped(level);
    let options = SolveOptions::default().with_threads(1).with_hash_level(args.hash_level);
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results = Mutex::new(vec![None; positions.len()]);
    std::thread::scope(|scope| -> Result<(), String> {
        for _ in 0..args.threads.max(1) {
            let thinker = Thinker::new(Arc::clone(weights), options).map_err(|e| e.to_string())?;
            let (next, done, results) = (&next, &done, &results);
            let _worker = scope.spawn(move || {
                while !stop.load(Ordering::SeqCst) {
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    let Some(position) = positions.get(index) else { break };
                    let thought = thinker.think(position, level);
                    if thought.stopped {
                        break;
                    }
                    if let Some(slot) = results.lock().unwrap_or_else(PoisonError::into_inner).get_mut(index) {
                        *slot = Some(thought.score);
                    }
                    let n = done.fetch_add(1, Ordering::SeqCst) + 1;
                    if n % 256 == 0 || n == positions.len() {
                        err!("\r{stage}: {n} / {}   ", positions.len());
                    }
                }
            });
        }
        Ok(())
    })?;
    errln!();
    Ok(results.into_inner().unwrap_or_else(PoisonError::into_inner))
}

pub fn run(args: &Args) -> Result<ExitCode, String> {
    let start = Instant::now();
    let weights = Arc::new(weights::bundled().map_err(|e| e.to_string())?);
    let stop = Arc::new(AtomicBool::new(false));
    let signal = Arc::new(AtomicI32::new(0));
    crate::book::signals::stop_on_signals(Arc::clone(&stop), Arc::clone(&signal));
    crate::output::stop_when_closed(Arc::clone(&stop));
    let stop = stop.as_ref();
    let all = openings(args.plies);
    errln!("{} positions after {} moves, up to symmetry", all.len(), args.plies);
    let positions: Vec<Position> = all.iter().map(|(p, _)| *p).collect();
    let quick = values(&positions, &weights, args, args.prefilter_level, "prefilter", stop)?;
    let kept: Vec<usize> = (0..all.len())
        .filter(|&i| quick.get(i).copied().flatten().is_some_and(|v| v.abs() <= args.prefilter_max))
        .collect();
    errln!(
        "{} within {} discs at level {} ({:.0} s)",
        kept.len(),
        args.prefilter_max,
        args.prefilter_level,
        start.elapsed().as_secs_f64()
    );
    let deep_positions: Vec<Position> = kept.iter().filter_map(|&i| positions.get(i).copied()).collect();
    let deep = values(&deep_positions, &weights, args, args.level, "search", stop)?;
    if stop.load(Ordering::SeqCst) || deep.iter().any(Option::is_none) {
        errln!("stopped before every position was searched: nothing written (run it again)");
        let signal = signal.load(Ordering::SeqCst);
        return Ok(if signal == 0 {
            ExitCode::FAILURE
        } else {
            ExitCode::from(crate::book::signals::exit_status(signal))
        });
    }
    let mut lines: Vec<&str> = kept
        .iter()
        .zip(&deep)
        .filter(|(_, value)| value.is_some_and(|v| v.abs() <= args.max))
        .filter_map(|(&i, _)| all.get(i).map(|(_, line)| line.as_str()))
        .collect();
    lines.sort_unstable();
    write_list(&args.out, &lines, args, all.len())?;
    outln!(
        "xot: {} openings within {} discs at level {} written to {} ({:.0} s)",
        lines.len(),
        args.max,
        args.level,
        args.out.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

/// Writes the list with a header that says how it was made, through a temporary file.
fn write_list(path: &Path, lines: &[&str], args: &Args, classes: usize) -> Result<(), String> {
    let mut text = format!(
        "# XOT openings made by shirokuro-cli {} (xot --plies {} --prefilter-level {} --prefilter-max {} --level {} \
         --max {}): of the {} positions after {} moves (up to symmetry), those whose value at level {} lies within \
         {} discs of a draw; one move sequence a line.\n",
        env!("CARGO_PKG_VERSION"),
        args.plies,
        args.prefilter_level,
        args.prefilter_max,
        args.level,
        args.max,
        classes,
        args.plies,
        args.level,
        args.max,
    );
    for line in lines {
        text.push_str(line);
        text.push('\n');
    }
    let temp = path.with_extension("tmp");
    let written = fs::File::create(&temp)
        .and_then(|mut file| file.write_all(text.as_bytes()).and_then(|()| file.sync_all()))
        .and_then(|()| fs::rename(&temp, path));
    written.map_err(|e| format!("cannot write {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openings_are_taken_once_up_to_symmetry_with_their_smallest_line() {
        // One move: the four first moves are one position up to symmetry, written f5.
        let one = openings(1);
        assert_eq!(one.len(), 1);
        assert_eq!(one[0].1, "f5");
        // Two moves: the perpendicular, parallel and diagonal openings.
        let two: Vec<String> = openings(2).into_iter().map(|(_, line)| line).collect();
        assert_eq!(two, ["f5d6", "f5f4", "f5f6"]);
    }
}
