//! Training modes (issue #31): spaced repetition of opening positions, a best-move quiz with a rating, and the study
//! history that keeps both between sessions.
//!
//! The parts are small and independent, so that a background worker of the app can call them one by one:
//! - [`schedule`]: when a card comes back, from the answers given so far (the FSRS scheduler of the `rs-fsrs` crate);
//!   a [`Clock`] trait lets tests move time by hand;
//! - [`rating`]: the player's Glicko-2 rating (the `skillratings` crate), and how hard a quiz position is;
//! - [`store`]: the study history in one SQLite file: cards, every answer, progress series for plotting;
//! - [`quiz`]: the best-move quiz: the value of every move of a position, and a session that scores answers;
//! - [`repertoire`]: the opening trainer: the cards of a book or of marked lines, and a session that plays the
//!   opponent's moves and checks the student's.
//!
//! Positions are named by [`CardKey`]: the board's canonical image over the 8 symmetries and the colour to move, so
//! the same position reached in another orientation is the same card; moves are stored in the canonical orientation.
//!
//! Nothing here does I/O except [`store`], and nothing draws at random except through a seeded
//! [`GameRng`](crate::rng::GameRng), so the sessions are reproducible in tests.

mod key;
pub mod quiz;
pub mod rating;
pub mod repertoire;
pub mod schedule;
pub mod store;

pub use key::{CardKey, CardKeyError};
pub use quiz::{Outcome, QuizAnswers, QuizError, QuizSession, QuizSource, QuizSummary};
pub use rating::{ProblemStats, Rating};
pub use repertoire::{Repertoire, RepertoireCard, RepertoireError, TrainerSession, TrainerSummary, Turn, Verdict};
pub use schedule::{Answer, CardPhase, CardState, Clock, FakeClock, SystemClock};
pub use store::{
    CardCounts, CardId, DayProgress, QuizRecord, RatingPoint, Retention, StoredCard, StudyError, StudyStore,
};

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::float_cmp,
    reason = "tests"
)]
mod tests;
