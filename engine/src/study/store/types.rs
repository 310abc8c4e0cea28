//! The values the study store takes and returns.

use chrono::{DateTime, NaiveDate, Utc};

use crate::board::Move;
use crate::position::Position;
use crate::study::key::CardKey;
use crate::study::rating::Rating;
use crate::study::schedule::CardState;

/// A card's row id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CardId(pub i64);

/// A card to add: a position and its expected moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewCard {
    /// The position.
    pub key: CardKey,
    /// The moves accepted as right, in the key's canonical orientation.
    pub expected: Vec<Move>,
    /// The move shown after a wrong answer, in the canonical orientation.
    pub best: Move,
}

impl NewCard {
    /// A card for `position` whose right answers are `expected` and whose shown answer is `best`, all given in the
    /// position's own orientation.
    #[must_use]
    pub fn new(position: &Position, expected: &[Move], best: Move) -> NewCard {
        NewCard {
            key: CardKey::of(position),
            expected: expected.iter().map(|mv| CardKey::canonical_move(position, *mv)).collect(),
            best: CardKey::canonical_move(position, best),
        }
    }
}

/// A card as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredCard {
    /// Its id.
    pub id: CardId,
    /// The deck (repertoire) it belongs to.
    pub deck: String,
    /// The position.
    pub key: CardKey,
    /// The moves accepted as right, in the canonical orientation ([`CardKey::is_one_of`] compares a played move).
    pub expected: Vec<Move>,
    /// The move shown after a wrong answer, in the canonical orientation.
    pub best: Move,
    /// When the card was added.
    pub created: DateTime<Utc>,
    /// Its schedule.
    pub state: CardState,
}

/// How many cards of a deck are in each phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CardCounts {
    /// Never answered.
    pub new: u64,
    /// Being learned or relearned (they come back within minutes).
    pub learning: u64,
    /// Answered before and due now (learning ones included).
    pub due: u64,
    /// All the deck's cards.
    pub total: u64,
}

/// Answers and right answers over a period.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Retention {
    /// Answers given.
    pub answered: u64,
    /// Right answers.
    pub right: u64,
}

impl Retention {
    /// The share of right answers, 0–1; `None` when nothing was answered.
    #[must_use]
    pub fn ratio(&self) -> Option<f64> {
        (self.answered > 0).then(|| self.right as f64 / self.answered as f64)
    }
}

/// One answer of the quiz, as recorded.
#[derive(Debug, Clone, PartialEq)]
pub struct QuizRecord {
    /// When it was given.
    pub time: DateTime<Utc>,
    /// The position asked (in the orientation shown).
    pub position: Position,
    /// The move played.
    pub answer: Move,
    /// Whether it was a best move.
    pub correct: bool,
    /// Points scored.
    pub points: u32,
    /// The position's difficulty (rating scale).
    pub difficulty: f64,
    /// The player's rating after the answer.
    pub rating: Rating,
}

/// The rating after one quiz answer, a point of the rating graph.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RatingPoint {
    /// When the answer was given.
    pub time: DateTime<Utc>,
    /// The rating after it.
    pub rating: Rating,
}

/// What was done on one day (a bar of the progress graph).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DayProgress {
    /// The day (in the time zone asked for).
    pub day: NaiveDate,
    /// Card answers.
    pub cards: Retention,
    /// Quiz answers.
    pub quiz: Retention,
}
