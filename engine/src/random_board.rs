//! Random mid-game positions for quizzes and for starting games, made the way Egaroucid's "Generate Random Board"
//! makes them (inventory §7.4): a line of plausible moves whose final position is worth a chosen score.
//!
//! A position after `n` moves is built in up to [`MAX_TRIES`] tries. In each try, from the initial position:
//! - every move but the last two is drawn by the *loss rule*: all legal moves are scored by a search at
//!   [`LIGHT_LEVEL`], a loss budget `E = |round(N(0, 6))|` discs is drawn, and a move is picked uniformly among those
//!   that lose at most `E` against the best (so most moves are good ones and a few are not, as in human games);
//! - the second-to-last move is picked uniformly among the moves whose score at [`MID_LEVEL`] (Black's point of view,
//!   the position after the move) lies in the requested range; when none does, by the loss rule on those scores;
//! - the last move is picked uniformly among the moves whose score at the requested level lies in the range; when
//!   none does, the try fails and the next one starts.
//!
//! Light and middle levels are capped at the requested level. Passes are made when forced and are not counted as
//! moves; a try that reaches the end of the game fails. Egaroucid's app also consults its book for the light
//! scores; here every score comes from a search, so the generator needs only a [`Thinker`].
//!
//! The generator is reproducible: the same thinker settings (one thread), specification and seed give the same
//! position. It stops with [`RandomBoardError::Stopped`] when the thinker is asked to stop.

#![deny(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::cast_possible_truncation,
    clippy::arithmetic_side_effects,
    reason = "reads untrusted input: every access is checked, every failure is an error value"
)]

use crate::board::{Color, Move};
use crate::level::Level;
use crate::position::Position;
use crate::rng::GameRng;
use crate::think::Thinker;

/// Moves of a random board by default (Egaroucid's default).
pub const DEFAULT_MOVES: u8 = 20;
/// Tries before giving up.
pub const MAX_TRIES: usize = 40;
/// The level that scores the moves drawn by the loss rule.
pub const LIGHT_LEVEL: u8 = 1;
/// The level that scores the second-to-last move.
pub const MID_LEVEL: u8 = 15;
/// Standard deviation of the loss budget of a move drawn by the loss rule, in discs.
pub const LOSS_SIGMA: f64 = 6.0;

/// What position to make.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RandomBoardSpec {
    moves: u8,
    min_score: i32,
    max_score: i32,
    level: Level,
}

impl RandomBoardSpec {
    /// A position after `moves` moves (1–60) whose score for Black, searched at `level`, lies in
    /// `min_score..=max_score` (each within −64..=64).
    ///
    /// # Errors
    /// [`RandomBoardError::Moves`] or [`RandomBoardError::Range`] when a value is out of bounds.
    pub fn new(moves: u8, min_score: i32, max_score: i32, level: Level) -> Result<RandomBoardSpec, RandomBoardError> {
        if !(1..=60).contains(&moves) {
            return Err(RandomBoardError::Moves(moves));
        }
        if !(-64..=64).contains(&min_score) || !(-64..=64).contains(&max_score) || min_score > max_score {
            return Err(RandomBoardError::Range { min: min_score, max: max_score });
        }
        Ok(RandomBoardSpec { moves, min_score, max_score, level })
    }

    /// Moves to play from the initial position.
    #[must_use]
    pub fn moves(&self) -> u8 {
        self.moves
    }

    /// The score range, Black's point of view.
    #[must_use]
    pub fn score_range(&self) -> (i32, i32) {
        (self.min_score, self.max_score)
    }

    /// The level of the final scores.
    #[must_use]
    pub fn level(&self) -> Level {
        self.level
    }

    fn contains(&self, black_score: i32) -> bool {
        (self.min_score..=self.max_score).contains(&black_score)
    }
}

/// A generated position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RandomBoard {
    /// The line from the initial position, forced passes included.
    pub line: Vec<Move>,
    /// The position it reaches.
    pub position: Position,
    /// Its score for Black, from the search at the requested level that chose the last move.
    pub black_score: i32,
    /// Tries it took (1 when the first one succeeded).
    pub tries: usize,
}

/// Why no position was made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RandomBoardError {
    /// The number of moves is outside 1–60.
    #[error("{0} moves: a random board has 1 to 60 moves")]
    Moves(u8),
    /// The score range is empty or outside −64..=64.
    #[error("score range {min}..{max}: the bounds must lie in -64..64, the lower one first")]
    Range {
        /// Lower bound asked for.
        min: i32,
        /// Upper bound asked for.
        max: i32,
    },
    /// No try reached a position in the range.
    #[error("no position after {moves} moves scored {min}..{max} for Black in {tries} tries; widen the range")]
    NotFound {
        /// Moves asked for.
        moves: u8,
        /// Lower bound.
        min: i32,
        /// Upper bound.
        max: i32,
        /// Tries made.
        tries: usize,
    },
    /// The thinker was asked to stop.
    #[error("stopped")]
    Stopped,
}

/// Makes a position as `spec` asks (see the module documentation), drawing from `rng`.
///
/// # Errors
/// [`RandomBoardError::NotFound`] after [`MAX_TRIES`] failed tries; [`RandomBoardError::Stopped`] when the
/// thinker's search was stopped.
pub fn generate(thinker: &Thinker, spec: &RandomBoardSpec, rng: &mut GameRng) -> Result<RandomBoard, RandomBoardError> {
    generate_with(thinker, spec, rng, &mut |_| {})
}

/// Where [`generate_with`] is: the try, the move being chosen, and the search of one candidate move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RandomBoardProgress {
    /// The try (1-based, at most [`MAX_TRIES`]).
    pub attempt: usize,
    /// The move being chosen (1-based, at most the specification's moves).
    pub move_number: u8,
    /// The level the candidates are searched at.
    pub level: Level,
    /// The candidate move being searched.
    pub candidate: Move,
    /// The depth its search has completed.
    pub depth: u8,
    /// Its score so far, for Black.
    pub black_score: i32,
}

/// [`generate`], reporting every finished iteration of every candidate's search to `progress` (the generator's
/// searches are many and short, so a caller that shows them should throttle).
///
/// # Errors
/// As [`generate`].
pub fn generate_with(
    thinker: &Thinker,
    spec: &RandomBoardSpec,
    rng: &mut GameRng,
    progress: &mut dyn FnMut(&RandomBoardProgress),
) -> Result<RandomBoard, RandomBoardError> {
    let cap = |n: u8| Level::clamped(n.min(spec.level.get()));
    let (light, mid) = (cap(LIGHT_LEVEL), cap(MID_LEVEL));
    for tries in 1..=MAX_TRIES {
        let mut report = Reporter { attempt: tries, progress: &mut *progress };
        if let Some((line, position, black_score)) = one_try(thinker, spec, light, mid, rng, &mut report)? {
            return Ok(RandomBoard { line, position, black_score, tries });
        }
    }
    Err(RandomBoardError::NotFound { moves: spec.moves, min: spec.min_score, max: spec.max_score, tries: MAX_TRIES })
}

/// One try: the line, the position and its score for Black, or `None` when the try failed.
/// The progress callback of one try.
struct Reporter<'a> {
    attempt: usize,
    progress: &'a mut dyn FnMut(&RandomBoardProgress),
}

fn one_try(
    thinker: &Thinker,
    spec: &RandomBoardSpec,
    light: Level,
    mid: Level,
    rng: &mut GameRng,
    report: &mut Reporter<'_>,
) -> Result<Option<(Vec<Move>, Position, i32)>, RandomBoardError> {
    let mut position = Position::INITIAL;
    let mut line = Vec::with_capacity(usize::from(spec.moves) + 4);
    let mut placed = 0;
    let mut last_score = 0;
    while placed < spec.moves {
        let board = position.board;
        if board.is_game_over() {
            return Ok(None);
        }
        if board.must_pass() {
            let Ok(passed) = position.play(Move::Pass) else { return Ok(None) };
            position = passed;
            line.push(Move::Pass);
            continue;
        }
        let left = spec.moves.saturating_sub(placed);
        let level = match left {
            1 => spec.level,
            2 => mid,
            _ => light,
        };
        let scores = score_moves(thinker, &position, level, &mut |candidate, depth, score| {
            let black_score = if position.side_to_move == Color::Black { score } else { score.saturating_neg() };
            let attempt = report.attempt;
            (report.progress)(&RandomBoardProgress {
                attempt,
                move_number: placed.saturating_add(1),
                level,
                candidate,
                depth,
                black_score,
            });
        })?;
        let black = |value: i32| if position.side_to_move == Color::Black { value } else { value.saturating_neg() };
        let in_range: Vec<&(Move, i32)> = scores.iter().filter(|(_, v)| spec.contains(black(*v))).collect();
        let chosen = if left <= 2 && !in_range.is_empty() {
            in_range.get(rng.below(in_range.len())).map(|chosen| **chosen)
        } else if left == 1 {
            None
        } else {
            pick_with_loss(&scores, rng)
        };
        let Some((mv, value)) = chosen else { return Ok(None) };
        last_score = black(value);
        let Ok(next) = position.play(mv) else { return Ok(None) };
        position = next;
        line.push(mv);
        placed = placed.saturating_add(1);
    }
    Ok(Some((line, position, last_score)))
}

/// Every legal move of `position` with its score for the side to move, searched at `level` (the position after it,
/// negated); each finished iteration is reported as (move, depth, score for the side to move).
fn score_moves(
    thinker: &Thinker,
    position: &Position,
    level: Level,
    progress: &mut dyn FnMut(Move, u8, i32),
) -> Result<Vec<(Move, i32)>, RandomBoardError> {
    let mut scores = Vec::new();
    for sq in position.board.moves() {
        let mv = Move::Place(sq);
        let Ok(child) = position.play(mv) else { continue };
        let thought =
            thinker.think_with_progress(&child, level, &mut |p| progress(mv, p.depth, p.score.saturating_neg()));
        if thought.stopped {
            return Err(RandomBoardError::Stopped);
        }
        scores.push((mv, thought.score.saturating_neg()));
    }
    Ok(scores)
}

/// The loss rule: a budget `|round(N(0, LOSS_SIGMA))|`, then uniformly among the moves within it of the best.
fn pick_with_loss(scores: &[(Move, i32)], rng: &mut GameRng) -> Option<(Move, i32)> {
    let best = scores.iter().map(|(_, v)| *v).max()?;
    let budget = loss_budget(rng);
    let candidates: Vec<&(Move, i32)> = scores.iter().filter(|(_, v)| *v >= best.saturating_sub(budget)).collect();
    candidates.get(rng.below(candidates.len())).map(|c| **c)
}

/// `|round(N(0, LOSS_SIGMA))|` by the Box–Muller transform.
#[expect(clippy::cast_possible_truncation, reason = "a float-to-integer `as` saturates; the budget is a few discs")]
fn loss_budget(rng: &mut GameRng) -> i32 {
    // Two uniforms in (0, 1]: 53 random bits each, shifted off zero so the logarithm is finite.
    let mut unit = || ((rng.next_u64() >> 11) as f64 + 1.0) / (1u64 << 53) as f64;
    let (u, v) = (unit(), unit());
    let normal = (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos();
    (normal * LOSS_SIGMA).round().abs() as i32
}

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::cast_possible_truncation,
    clippy::arithmetic_side_effects,
    reason = "tests"
)]
mod tests;
