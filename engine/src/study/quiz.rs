//! The best-move quiz: a position is shown, the player picks a move, and it is right when no other move is better.
//!
//! - [`QuizSource`] makes positions: random mid-game boards ([`crate::random_board`]) or random boards
//!   with few empties (endgame drills).
//! - [`answers`] values every legal move of a position (exactly when few squares are empty), and says which moves are
//!   best and how hard the position is ([`rating::difficulty`]).
//! - [`QuizSession`] (pure logic) asks the positions in turn, scores the answers, keeps the streak and the rating,
//!   and asks a wrongly answered position again a few positions later.
//!
//! A worker calls [`QuizSource::generate`] and [`answers`] (seconds of search), hands the result to
//! [`QuizSession::offer`], and records each [`Outcome`] in the [`StudyStore`](super::StudyStore).

mod session;

use crate::board::Move;
use crate::level::Level;
use crate::position::Position;
use crate::random_board::{self, RandomBoardError, RandomBoardSpec};
use crate::rng::GameRng;
use crate::think::Thinker;

use super::rating::{self, ProblemStats};

pub use session::{Outcome, QuizSession, QuizSummary, RETRY_AFTER};

/// Tries of [`QuizSource::generate`] before it gives up on positions whose side to move has no move.
const GENERATE_TRIES: usize = 8;

/// Where quiz positions come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuizSource {
    /// Random boards as the specification asks (number of moves from the start, score range, level).
    Midgame(RandomBoardSpec),
    /// Random boards with `min_empties..=max_empties` empty squares (each within 1–59), any score, searched at
    /// `level` while they are made: endgame drills.
    Endgame {
        /// Fewest empty squares.
        min_empties: u8,
        /// Most empty squares.
        max_empties: u8,
        /// The level of the generator's searches.
        level: Level,
    },
}

/// Why no quiz position or no answers could be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum QuizError {
    /// The random board generator failed (a bad specification, no position found, or stopped).
    #[error("no quiz position: {0}")]
    Generate(#[from] RandomBoardError),
    /// The side to move has no legal move (it must pass, or the game is over): nothing to ask.
    #[error("the side to move has no legal move")]
    NoMoves,
    /// A search was stopped through the thinker's stop handle.
    #[error("stopped")]
    Stopped,
    /// [`QuizSession::answer`] with no question asked.
    #[error("no question is open")]
    NoQuestion,
    /// The answer is not a legal move of the position asked.
    #[error("{0} is not a legal move here")]
    IllegalMove(Move),
}

impl QuizSource {
    /// A new position, drawn from `rng`; the side to move has a legal move (a forced pass at the end of the line is
    /// played).
    ///
    /// # Errors
    /// [`QuizError::Generate`] when the generator fails or is stopped, or when no try gave a position with a move.
    pub fn generate(&self, thinker: &Thinker, rng: &mut GameRng) -> Result<Position, QuizError> {
        let spec = match *self {
            QuizSource::Midgame(spec) => spec,
            QuizSource::Endgame { min_empties, max_empties, level } => {
                let (low, high) = (min_empties.clamp(1, 59), max_empties.clamp(1, 59));
                let empties = rng.in_range(usize::from(low.min(high)), usize::from(high.max(low)));
                let moves = 60u8.saturating_sub(u8::try_from(empties).unwrap_or(59));
                RandomBoardSpec::new(moves, -64, 64, level)?
            }
        };
        for _ in 0..GENERATE_TRIES {
            let board = random_board::generate(thinker, &spec, rng)?;
            let mut position = board.position;
            if position.board.must_pass() {
                let Ok(passed) = position.play(Move::Pass) else { continue };
                position = passed;
            }
            if position.board.has_moves() {
                return Ok(position);
            }
        }
        let (min, max) = spec.score_range();
        Err(QuizError::Generate(RandomBoardError::NotFound { moves: spec.moves(), min, max, tries: GENERATE_TRIES }))
    }
}

/// The answers to a quiz position: the value of every legal move and which are best.
#[derive(Debug, Clone, PartialEq)]
pub struct QuizAnswers {
    /// The position asked.
    pub position: Position,
    /// Every legal move with its value for the side to move (final disc difference when exact), in square order.
    pub values: Vec<(Move, i32)>,
    /// The moves with the best value (every move within 0 discs of the best).
    pub best_moves: Vec<Move>,
    /// The best value.
    pub best_value: i32,
    /// Whether every value is exact (solved to the end of the game).
    pub exact: bool,
    /// The features the difficulty is made from.
    pub stats: ProblemStats,
    /// How hard the position is, on the rating scale ([`rating::difficulty`]).
    pub difficulty: f64,
}

impl QuizAnswers {
    /// The answers from the values of the moves (as [`answers`] finds them, or from elsewhere: a book, a test).
    ///
    /// # Errors
    /// [`QuizError::NoMoves`] when `values` is empty.
    pub fn from_values(position: Position, values: Vec<(Move, i32)>, exact: bool) -> Result<QuizAnswers, QuizError> {
        let best_value = values.iter().map(|(_, v)| *v).max().ok_or(QuizError::NoMoves)?;
        let best_moves: Vec<Move> = values.iter().filter(|(_, v)| *v == best_value).map(|(mv, _)| *mv).collect();
        let second = values.iter().map(|(_, v)| *v).filter(|v| *v < best_value).max();
        let count = |n: usize| u8::try_from(n).unwrap_or(u8::MAX);
        let stats = ProblemStats {
            empties: count(usize::try_from(position.board.empty_count()).unwrap_or(60)),
            moves: count(values.len()),
            best_moves: count(best_moves.len()),
            gap: second.map(|second| best_value.abs_diff(second)),
        };
        Ok(QuizAnswers {
            position,
            values,
            best_moves,
            best_value,
            exact,
            stats,
            difficulty: rating::difficulty(&stats),
        })
    }

    /// Whether `mv` is one of the best moves.
    #[must_use]
    pub fn is_best(&self, mv: Move) -> bool {
        self.best_moves.contains(&mv)
    }

    /// The value of `mv`, if it is a legal move of the position.
    #[must_use]
    pub fn value_of(&self, mv: Move) -> Option<i32> {
        self.values.iter().find(|(m, _)| *m == mv).map(|(_, v)| *v)
    }
}

/// The value of every legal move of `position` ([`Thinker::move_values`]): exact (through [`Level::MAX`], whose plan
/// is exact at any number of empties) when the position has at most `exact_from` empty squares; otherwise at
/// `midgame_level` (the position after each move one level lower for a midgame plan, as the hints do).
///
/// # Errors
/// [`QuizError::NoMoves`] when the side to move has no legal move; [`QuizError::Stopped`] when the thinker's stop
/// handle stopped a search.
pub fn answers(
    thinker: &Thinker,
    position: &Position,
    exact_from: u8,
    midgame_level: Level,
) -> Result<QuizAnswers, QuizError> {
    let empties = u8::try_from(position.board.empty_count()).unwrap_or(60);
    let level = if empties <= exact_from { Level::MAX } else { midgame_level };
    let searched = thinker.move_values(position, level).ok_or(QuizError::Stopped)?;
    let exact = searched.iter().all(|(_, _, thought)| thought.exact);
    let values = searched.into_iter().map(|(mv, value, _)| (mv, value)).collect();
    QuizAnswers::from_values(*position, values, exact)
}
