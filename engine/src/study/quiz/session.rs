//! [`QuizSession`]: the quiz's rules, without search or I/O.
//!
//! - Positions come in through [`QuizSession::offer`]; a position already offered in the session (in any
//!   orientation) is refused, so none is asked twice, except on purpose:
//! - a position answered wrongly is asked again after [`RETRY_AFTER`] other positions (the best moves were shown, so
//!   the second time tests memory: it scores half the points and leaves the rating alone);
//! - a right answer scores `difficulty / 100` points (at least 1), times `1 + 0.1 × (streak − 1)` up to double
//!   for a streak of 11 or more; a wrong one scores nothing and ends the streak;
//! - every first answer updates the Glicko-2 rating ([`rating::update`]), the position's difficulty as the opponent.
//!
//! The session draws nothing at random: the same positions and answers give the same outcomes.

use std::collections::{HashSet, VecDeque};

use super::{QuizAnswers, QuizError};
use crate::board::Move;
use crate::study::key::CardKey;
use crate::study::rating::{self, Rating};

/// Other positions asked before a wrongly answered one comes back.
pub const RETRY_AFTER: usize = 3;

/// Streak length after which the points stop growing.
const STREAK_CAP: u32 = 11;

/// What an answer gave.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// Whether the move was one of the best.
    pub correct: bool,
    /// The best moves.
    pub best_moves: Vec<Move>,
    /// Every move's value.
    pub values: Vec<(Move, i32)>,
    /// Points scored.
    pub points: u32,
    /// Right answers in a row, this one included (0 after a wrong answer).
    pub streak: u32,
    /// The rating before the answer.
    pub rating_before: Rating,
    /// The rating after it (the same for a position asked again).
    pub rating_after: Rating,
    /// Whether this was a position asked again after a wrong answer.
    pub retry: bool,
    /// The position's difficulty.
    pub difficulty: f64,
}

/// A session's totals.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct QuizSummary {
    /// Answers given (retries included).
    pub answered: u32,
    /// Right answers.
    pub right: u32,
    /// Points scored.
    pub points: u32,
    /// The longest streak.
    pub best_streak: u32,
    /// The rating at the start.
    pub rating_start: Rating,
    /// The rating now.
    pub rating_end: Rating,
}

impl QuizSummary {
    /// The rating won (or lost, when negative) in the session.
    #[must_use]
    pub fn rating_change(&self) -> f64 {
        self.rating_end.rating - self.rating_start.rating
    }
}

/// A position waiting to be asked again.
#[derive(Debug, Clone)]
struct Retry {
    answers: QuizAnswers,
    /// Other positions still to be answered before it.
    wait: usize,
}

/// The position being asked.
#[derive(Debug, Clone)]
struct Question {
    answers: QuizAnswers,
    retry: bool,
}

/// A quiz session (see the module docs).
#[derive(Debug, Clone)]
pub struct QuizSession {
    fresh: VecDeque<QuizAnswers>,
    retries: Vec<Retry>,
    seen: HashSet<CardKey>,
    current: Option<Question>,
    retry_after: usize,
    rating: Rating,
    rating_start: Rating,
    streak: u32,
    best_streak: u32,
    answered: u32,
    right: u32,
    points: u32,
}

impl QuizSession {
    /// A session for a player rated `rating` (from [`StudyStore::latest_rating`](crate::study::StudyStore), or
    /// [`Rating::default`] for a new player).
    #[must_use]
    pub fn new(rating: Rating) -> QuizSession {
        QuizSession {
            fresh: VecDeque::new(),
            retries: Vec::new(),
            seen: HashSet::new(),
            current: None,
            retry_after: RETRY_AFTER,
            rating,
            rating_start: rating,
            streak: 0,
            best_streak: 0,
            answered: 0,
            right: 0,
            points: 0,
        }
    }

    /// The same session asking a wrongly answered position again after `positions` other ones.
    #[must_use]
    pub fn with_retry_after(mut self, positions: usize) -> QuizSession {
        self.retry_after = positions;
        self
    }

    /// Adds a position to ask; `false` (and nothing added) when the session has had it already, in any orientation.
    pub fn offer(&mut self, answers: QuizAnswers) -> bool {
        if !self.seen.insert(CardKey::of(&answers.position)) {
            return false;
        }
        self.fresh.push_back(answers);
        true
    }

    /// New positions waiting (the worker keeps a few ready).
    #[must_use]
    pub fn queued(&self) -> usize {
        self.fresh.len()
    }

    /// Wrongly answered positions waiting to come back.
    #[must_use]
    pub fn retries_waiting(&self) -> usize {
        self.retries.len()
    }

    /// The position to answer: the open one, else a wrongly answered one whose turn has come, else the next new one;
    /// `None` when nothing is ready (offer more positions).
    pub fn ask(&mut self) -> Option<&QuizAnswers> {
        if self.current.is_none() {
            let due = self.retries.iter().position(|retry| retry.wait == 0);
            self.current = match due {
                Some(index) => Some(Question { answers: self.retries.remove(index).answers, retry: true }),
                None => self.fresh.pop_front().map(|answers| Question { answers, retry: false }),
            };
        }
        self.current()
    }

    /// The open position, if one is asked.
    #[must_use]
    pub fn current(&self) -> Option<&QuizAnswers> {
        self.current.as_ref().map(|question| &question.answers)
    }

    /// Answers the open position with `mv`.
    ///
    /// # Errors
    /// [`QuizError::NoQuestion`] when no position is open ([`QuizSession::ask`] opens one),
    /// [`QuizError::IllegalMove`] when `mv` is not a legal move there (the question stays open).
    pub fn answer(&mut self, mv: Move) -> Result<Outcome, QuizError> {
        let question = self.current.as_ref().ok_or(QuizError::NoQuestion)?;
        if question.answers.value_of(mv).is_none() {
            return Err(QuizError::IllegalMove(mv));
        }
        let Some(Question { answers, retry }) = self.current.take() else { return Err(QuizError::NoQuestion) };
        let correct = answers.is_best(mv);
        let rating_before = self.rating;
        if !retry {
            self.rating = rating::update(self.rating, answers.difficulty, correct);
        }
        self.streak = if correct { self.streak.saturating_add(1) } else { 0 };
        self.best_streak = self.best_streak.max(self.streak);
        let points = if correct { points(answers.difficulty, self.streak, retry) } else { 0 };
        self.answered = self.answered.saturating_add(1);
        self.right = self.right.saturating_add(u32::from(correct));
        self.points = self.points.saturating_add(points);
        for waiting in &mut self.retries {
            waiting.wait = waiting.wait.saturating_sub(1);
        }
        let outcome = Outcome {
            correct,
            best_moves: answers.best_moves.clone(),
            values: answers.values.clone(),
            points,
            streak: self.streak,
            rating_before,
            rating_after: self.rating,
            retry,
            difficulty: answers.difficulty,
        };
        if !correct {
            self.retries.push(Retry { answers, wait: self.retry_after });
        }
        Ok(outcome)
    }

    /// The rating now.
    #[must_use]
    pub fn rating(&self) -> Rating {
        self.rating
    }

    /// Right answers in a row now.
    #[must_use]
    pub fn streak(&self) -> u32 {
        self.streak
    }

    /// The session's totals.
    #[must_use]
    pub fn summary(&self) -> QuizSummary {
        QuizSummary {
            answered: self.answered,
            right: self.right,
            points: self.points,
            best_streak: self.best_streak,
            rating_start: self.rating_start,
            rating_end: self.rating,
        }
    }
}

/// The points of a right answer (see the module docs).
fn points(difficulty: f64, streak: u32, retry: bool) -> u32 {
    let base = (difficulty / 100.0).round().max(1.0);
    let bonus = 1.0 + 0.1 * f64::from(streak.clamp(1, STREAK_CAP) - 1);
    let points = (base * bonus).round();
    let points = if retry { (points / 2.0).floor().max(1.0) } else { points };
    // At most 30 × 2: the difficulty is capped at 3000.
    points.clamp(1.0, f64::from(u16::MAX)) as u32
}
