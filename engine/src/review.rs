//! Game review: every move of a line graded by how many discs it lost against the best move.
//!
//! A review has two steps:
//! 1. each position of the line gets a [`PositionValue`] — the book's value and best move when the book holds the
//!    position, otherwise a search at a level, exact from a number of empties
//!    ([`Thinker::review_position`](crate::think::Thinker::review_position));
//! 2. [`grade_moves`] compares each position's value with the value of the position the move led to: the
//!    difference, for the player who moved, is the move's loss (never below zero; zero when the move is the one the
//!    search found best), and [`Thresholds`] turn losses into [`Grade`]s. A move from a book position into a book
//!    position is graded [`Grade::Book`] and loses nothing.
//!
//! [`summarize`] adds each player's losses up, grade by grade and [`Phase`] by phase.

use crate::board::{Color, Move};
use crate::position::Position;
use crate::square::Square;

/// How a review searches: the level for the midgame, exact from `exact_from` empties.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReviewOptions {
    /// The level of the midgame searches.
    pub level: crate::level::Level,
    /// Positions with at most this many empties are solved exactly.
    pub exact_from: u8,
}

/// A position's value in a review, Black's point of view.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PositionValue {
    /// Predicted final disc difference, Black positive.
    pub value: i32,
    /// The best move for the side to move (`None` when the game is over, or when the book holds the position but
    /// none of its moves).
    pub best: Option<Move>,
    /// The best line, starting with `best`.
    pub line: Vec<Move>,
    /// Whether `value` is exact (an exact solve, or the end of the game).
    pub exact: bool,
    /// Whether `value` is the book's.
    pub book: bool,
}

/// A move's grade.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Grade {
    /// A book move (from a book position into a book position): no loss.
    Book,
    /// The best move (no loss).
    Best,
    /// A small loss.
    Good,
    /// An inaccuracy.
    Inaccuracy,
    /// A mistake.
    Mistake,
    /// A blunder.
    Blunder,
}

impl Grade {
    /// Every grade, from the best.
    pub const ALL: [Grade; 6] =
        [Grade::Book, Grade::Best, Grade::Good, Grade::Inaccuracy, Grade::Mistake, Grade::Blunder];

    /// The grade's index in [`Grade::ALL`].
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Whether the move is an error worth going back to: an inaccuracy, a mistake or a blunder.
    #[must_use]
    pub const fn is_error(self) -> bool {
        matches!(self, Grade::Inaccuracy | Grade::Mistake | Grade::Blunder)
    }

    /// A short mark for transcripts: `!` for the best move, `?!`, `?`, `??` for the errors.
    #[must_use]
    pub const fn mark(self) -> &'static str {
        match self {
            Grade::Book | Grade::Good => "",
            Grade::Best => "!",
            Grade::Inaccuracy => "?!",
            Grade::Mistake => "?",
            Grade::Blunder => "??",
        }
    }
}

/// The largest loss of each grade, in discs: a loss of 0 is the best move, up to `good` good, up to `inaccuracy` an
/// inaccuracy, up to `mistake` a mistake, above it a blunder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Thresholds {
    /// The largest loss of a good move.
    pub good: u8,
    /// The largest loss of an inaccuracy.
    pub inaccuracy: u8,
    /// The largest loss of a mistake.
    pub mistake: u8,
}

impl Default for Thresholds {
    /// 0 / ≤ 2 / ≤ 5 / ≤ 9 / ≥ 10 discs.
    fn default() -> Self {
        Thresholds { good: 2, inaccuracy: 5, mistake: 9 }
    }
}

impl Thresholds {
    /// The thresholds, each at least the one before (a later threshold below an earlier one is raised to it).
    #[must_use]
    pub fn normalized(self) -> Thresholds {
        let inaccuracy = self.inaccuracy.max(self.good);
        Thresholds { good: self.good, inaccuracy, mistake: self.mistake.max(inaccuracy) }
    }

    /// The grade of a move that lost `loss` discs (not a book move).
    #[must_use]
    pub fn grade(self, loss: i32) -> Grade {
        let t = self.normalized();
        match loss {
            i32::MIN..=0 => Grade::Best,
            l if l <= i32::from(t.good) => Grade::Good,
            l if l <= i32::from(t.inaccuracy) => Grade::Inaccuracy,
            l if l <= i32::from(t.mistake) => Grade::Mistake,
            _ => Grade::Blunder,
        }
    }
}

/// The part of the game a move belongs to, by the empties before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Phase {
    /// More than 40 empties (moves 1–20 from the standard start).
    Opening,
    /// 21 to 40 empties.
    Midgame,
    /// At most 20 empties (moves 41–60).
    Endgame,
}

impl Phase {
    /// Every phase, in game order.
    pub const ALL: [Phase; 3] = [Phase::Opening, Phase::Midgame, Phase::Endgame];

    /// The phase of a move played with `empties` empty squares on the board.
    #[must_use]
    pub const fn of(empties: u32) -> Phase {
        match empties {
            41.. => Phase::Opening,
            21..=40 => Phase::Midgame,
            _ => Phase::Endgame,
        }
    }

    /// The phase's index in [`Phase::ALL`].
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// One graded move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveReview {
    /// The ply of the position the move led to (the move is the `ply`-th of the line).
    pub ply: usize,
    /// Who played it.
    pub mover: Color,
    /// The square played.
    pub played: Square,
    /// Discs lost against the best move (0 for the best move and book moves).
    pub loss: i32,
    /// Its grade.
    pub grade: Grade,
    /// The best move of the position before it, when known.
    pub best: Option<Move>,
    /// The best line from the position before it, starting with `best`.
    pub best_line: Vec<Move>,
    /// The phase it was played in.
    pub phase: Phase,
}

/// One position of a reviewed line: the position (after any forced pass) and the square played to reach it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LinePosition {
    /// The position.
    pub position: Position,
    /// The square played to reach it (`None` for the first position).
    pub played: Option<Square>,
}

/// The positions of the line played from `start` by `moves`, as a review takes them: a forced pass is folded into
/// the position before it; the line stops at the first illegal move.
#[must_use]
pub fn line_of_moves(start: Position, moves: &[Move]) -> Vec<LinePosition> {
    let mut line = vec![LinePosition { position: start, played: None }];
    let mut at = start;
    for &mv in moves {
        let Ok(next) = at.play(mv) else { break };
        at = next;
        match mv.square() {
            Some(square) => line.push(LinePosition { position: at, played: Some(square) }),
            None => {
                if let Some(last) = line.last_mut() {
                    last.position = at;
                }
            }
        }
    }
    line
}

/// Grades the move into each position of `line` from the values of `values` (one per position, `None` where not
/// known yet): element `i` is the grade of the move into position `i`, `None` for the first position and where a
/// value is missing. `in_book(i)` says whether position `i` is in the book.
#[must_use]
pub fn grade_moves(
    line: &[LinePosition],
    values: &[Option<PositionValue>],
    thresholds: Thresholds,
    in_book: impl Fn(usize) -> bool,
) -> Vec<Option<MoveReview>> {
    let mut reviews = vec![None; line.len()];
    for (ply, pair) in line.windows(2).enumerate() {
        let [before, after] = pair else { continue };
        let Some(played) = after.played else { continue };
        let (Some(Some(v0)), Some(Some(v1))) = (values.get(ply), values.get(ply + 1)) else { continue };
        let mover = before.position.side_to_move;
        let phase = Phase::of(before.position.board.empty_count());
        let book = in_book(ply) && in_book(ply + 1);
        let best_played = v0.best == Some(Move::Place(played));
        let drop = if mover == Color::Black { v0.value - v1.value } else { v1.value - v0.value };
        let loss = if book || best_played { 0 } else { drop.max(0) };
        let grade = if book { Grade::Book } else { thresholds.grade(loss) };
        if let Some(slot) = reviews.get_mut(ply + 1) {
            *slot = Some(MoveReview {
                ply: ply + 1,
                mover,
                played,
                loss,
                grade,
                best: v0.best,
                best_line: v0.line.clone(),
                phase,
            });
        }
    }
    reviews
}

/// One player's review in figures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PlayerSummary {
    /// Discs lost over the game.
    pub total_loss: i32,
    /// Moves of each grade, by [`Grade::index`].
    pub counts: [u32; 6],
    /// Discs lost in each phase, by [`Phase::index`].
    pub loss_by_phase: [i32; 3],
    /// Moves graded.
    pub moves: u32,
}

/// Each player's summary, Black's first.
#[must_use]
pub fn summarize(moves: &[Option<MoveReview>]) -> [PlayerSummary; 2] {
    let mut summaries = [PlayerSummary::default(); 2];
    for review in moves.iter().flatten() {
        let summary = match review.mover {
            Color::Black => &mut summaries[0],
            Color::White => &mut summaries[1],
        };
        summary.total_loss += review.loss;
        summary.moves += 1;
        if let Some(count) = summary.counts.get_mut(review.grade.index()) {
            *count += 1;
        }
        if let Some(loss) = summary.loss_by_phase.get_mut(review.phase.index()) {
            *loss += review.loss;
        }
    }
    summaries
}

/// Where "next mistake" goes from the position at `ply`: the position before the next error (inaccuracy or worse)
/// whose position-before lies after `ply` — or, with `forward` false, the last one before `ply`.
#[must_use]
pub fn next_error(moves: &[Option<MoveReview>], ply: usize, forward: bool) -> Option<usize> {
    let mut errors = moves.iter().flatten().filter(|m| m.grade.is_error()).map(|m| m.ply.saturating_sub(1));
    if forward { errors.find(|&p| p > ply) } else { errors.rfind(|&p| p < ply) }
}

#[cfg(test)]
mod tests;
