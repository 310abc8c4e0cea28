//! Midgame search: iterative-deepening principal-variation search (negascout) on the pattern evaluation, with a
//! transposition table and aspiration windows. Single-threaded and deterministic for now; Multi-ProbCut and parallel
//! search are still to come (see docs/training.md and the evaluation issue).
//!
//! A pass does not use up depth: a line ends either at depth 0 (evaluation) or at the end of the game (exact final
//! score). So a search at least as deep as the number of empty squares is exact.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::StopHandle;
use super::tt::{NO_MOVE, PASS, TranspositionTable, TtData};
use crate::board::{Board, Color, Move, hash_pair};
use crate::eval::{Features, Weights};
use crate::position::Position;
use crate::square::Square;

/// Selectivity stored with midgame results (plain alpha-beta, no pruning); endgame entries use 100 and a depth equal
/// to the number of empties, so the two never mix even in a shared table.
const MIDGAME: u8 = 101;

/// One finished iteration, reported through the progress callback.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MidgameProgress {
    /// Depth just completed.
    pub depth: u8,
    /// Its score for the side to move, in discs.
    pub score: i32,
    /// Its principal variation.
    pub pv: Vec<Move>,
    /// Nodes so far.
    pub nodes: u64,
    /// Time so far.
    pub elapsed: Duration,
}

/// The outcome of a search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MidgameResult {
    /// Score of the deepest completed iteration, side to move's view, in discs.
    pub score: i32,
    /// Best move (`Move::Pass` when the side to move must pass); `None` if the game is over.
    pub best_move: Option<Move>,
    /// Principal variation of the deepest completed iteration.
    pub pv: Vec<Move>,
    /// Depth of the deepest completed iteration.
    pub depth: u8,
    /// Nodes visited.
    pub nodes: u64,
    /// Wall-clock time.
    pub elapsed: Duration,
    /// Whether the search was stopped before reaching the requested depth.
    pub stopped: bool,
}

/// A midgame searcher: evaluation weights, its own transposition table and a stop flag.
pub struct MidgameSearch {
    weights: Arc<Weights>,
    tt: TranspositionTable,
    stop: Arc<AtomicBool>,
}

struct Context<'a> {
    weights: &'a Weights,
    tt: &'a TranspositionTable,
    stop: &'a AtomicBool,
    nodes: u64,
}

impl MidgameSearch {
    /// A searcher using `weights`, with a table of 2^`hash_level` entries.
    #[must_use]
    pub fn new(weights: Arc<Weights>, hash_level: u8) -> MidgameSearch {
        MidgameSearch { weights, tt: TranspositionTable::new(hash_level), stop: Arc::new(AtomicBool::new(false)) }
    }

    /// A handle that stops the running search (it returns the deepest completed iteration).
    #[must_use]
    pub fn stop_handle(&self) -> StopHandle {
        StopHandle(Arc::clone(&self.stop))
    }

    /// Empties the transposition table.
    pub fn clear(&self) {
        self.tt.clear();
    }

    /// Searches `position` to `depth` plies by iterative deepening, calling `progress` after every iteration.
    pub fn search(&self, position: &Position, depth: u8, progress: &mut dyn FnMut(&MidgameProgress)) -> MidgameResult {
        self.stop.store(false, Ordering::Relaxed);
        self.tt.new_generation();
        let start = Instant::now();
        let mut ctx = Context { weights: &self.weights, tt: &self.tt, stop: &self.stop, nodes: 0 };
        let board = position.board;
        let mut result = MidgameResult {
            score: 0,
            best_move: None,
            pv: Vec::new(),
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            stopped: false,
        };
        if board.is_game_over() {
            result.score = board.final_score();
            return result;
        }
        let features = Features::new(position.black(), position.white());
        let mut guess = 0;
        for d in 1..=depth.max(1) {
            // Aspiration window around the last score, widened on failure.
            let mut delta = 4;
            let (mut alpha, mut beta) = if d <= 2 { (-64, 64) } else { (guess - delta, guess + delta) };
            let score = loop {
                let v =
                    pvs(&mut ctx, &board, &features, position.side_to_move, i32::from(d), alpha.max(-64), beta.min(64));
                if ctx.stop.load(Ordering::Relaxed) {
                    break None;
                }
                if v <= alpha && alpha > -64 {
                    alpha = (v - delta).max(-64);
                } else if v >= beta && beta < 64 {
                    beta = (v + delta).min(64);
                } else {
                    break Some(v);
                }
                delta *= 2;
            };
            let Some(score) = score else {
                result.stopped = true;
                break;
            };
            guess = score;
            let pv = principal_variation(&self.tt, &board, usize::from(d));
            result.score = score;
            result.best_move = pv.first().copied();
            result.pv = pv;
            result.depth = d;
            progress(&MidgameProgress {
                depth: d,
                score,
                pv: result.pv.clone(),
                nodes: ctx.nodes,
                elapsed: start.elapsed(),
            });
        }
        result.nodes = ctx.nodes;
        result.elapsed = start.elapsed();
        result
    }
}

/// Follows the table's best moves from `board`, at most `max` plies.
fn principal_variation(tt: &TranspositionTable, board: &Board, max: usize) -> Vec<Move> {
    let mut pv = Vec::new();
    let mut b = *board;
    while pv.len() < max {
        let Some(data) = tt.probe(b.hash(), b.player.0, b.opponent.0) else { break };
        let mv = match data.best_move {
            PASS => Move::Pass,
            m => match Square::new(m) {
                Some(sq) => Move::Place(sq),
                None => break,
            },
        };
        match b.play(mv) {
            Ok(next) => {
                pv.push(mv);
                b = next;
            }
            Err(_) => break,
        }
    }
    pv
}

/// Negascout. Scores are from the side to move's view; `side` is its colour (for the evaluation's features).
fn pvs(
    ctx: &mut Context<'_>,
    board: &Board,
    features: &Features,
    side: Color,
    depth: i32,
    mut alpha: i32,
    beta: i32,
) -> i32 {
    ctx.nodes += 1;
    if ctx.stop.load(Ordering::Relaxed) {
        return 0;
    }
    if depth <= 0 {
        // A finished game scores exactly, not by the evaluation.
        if board.is_game_over() {
            return board.final_score();
        }
        return ctx.weights.evaluate(board, features, side);
    }
    let moves = board.moves();
    if moves.is_empty() {
        let passed = board.pass();
        if !passed.has_moves() {
            return board.final_score();
        }
        let v = -pvs(ctx, &passed, features, side.opposite(), depth, -beta, -alpha);
        store(ctx, board, depth, alpha, beta, v, PASS);
        return v;
    }
    let (p, o) = (board.player.0, board.opponent.0);
    let hash = hash_pair(p, o);
    let mut tt_move = NO_MOVE;
    if let Some(d) = ctx.tt.probe(hash, p, o) {
        if d.selectivity == MIDGAME && i32::from(d.depth) >= depth {
            let (lower, upper) = (i32::from(d.lower), i32::from(d.upper));
            if lower >= beta {
                return lower;
            }
            if upper <= alpha {
                return upper;
            }
            if lower == upper {
                return lower;
            }
        }
        tt_move = d.best_move;
    }
    // Order: table move, then by a one-ply evaluation (deep nodes) or by fewest replies (shallow ones).
    let mut children: Vec<(i32, Square, Board, Features)> = Vec::with_capacity(moves.count() as usize);
    for sq in moves {
        let flips = board.flips(sq);
        let child = board.play_unchecked(sq, flips);
        let mut f = *features;
        f.play(side, sq, flips);
        let key = if sq.index() == tt_move {
            i32::MAX
        } else if depth >= 3 {
            -ctx.weights.evaluate(&child, &f, side.opposite()) * 16 - child.moves().count() as i32
        } else {
            -(child.moves().count() as i32)
        };
        children.push((key, sq, child, f));
    }
    children.sort_by_key(|c| std::cmp::Reverse(c.0));
    let original_alpha = alpha;
    let mut best = -65;
    let mut best_move = NO_MOVE;
    for (i, (_, sq, child, f)) in children.iter().enumerate() {
        let mut v;
        if i == 0 {
            v = -pvs(ctx, child, f, side.opposite(), depth - 1, -beta, -alpha);
        } else {
            v = -pvs(ctx, child, f, side.opposite(), depth - 1, -alpha - 1, -alpha);
            if v > alpha && v < beta {
                v = -pvs(ctx, child, f, side.opposite(), depth - 1, -beta, -v);
            }
        }
        if ctx.stop.load(Ordering::Relaxed) {
            return 0;
        }
        if v > best {
            best = v;
            best_move = sq.index();
            if v > alpha {
                alpha = v;
                if v >= beta {
                    break;
                }
            }
        }
    }
    store(ctx, board, depth, original_alpha, beta, best, best_move);
    best
}

fn store(ctx: &Context<'_>, board: &Board, depth: i32, alpha: i32, beta: i32, value: i32, best_move: u8) {
    let (lower, upper) = if value >= beta {
        (value, 64)
    } else if value > alpha {
        (value, value)
    } else {
        (-64, value)
    };
    let data = TtData {
        lower: lower as i8,
        upper: upper as i8,
        best_move,
        depth: depth.clamp(0, 255) as u8,
        selectivity: MIDGAME,
    };
    ctx.tt.store(board.hash(), board.player.0, board.opponent.0, data);
}

#[cfg(test)]
mod tests;
