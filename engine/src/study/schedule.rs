//! Spaced repetition: when a card comes back, decided by FSRS (the Free Spaced Repetition Scheduler) as the
//! `rs-fsrs` crate implements it with its default parameters (90 % requested retention, short-term learning steps:
//! a new or forgotten card comes back after minutes, a known one after days).
//!
//! The maths stays in the crate; this module gives it our vocabulary: an [`Answer`] instead of FSRS's four grades, a
//! [`CardState`] whose fields map one to one to database columns, and a [`Clock`] so that tests move time by hand.
//!
//! ```
//! use chrono::Duration;
//! use shirokuro_engine::study::{Answer, CardState, Clock, FakeClock};
//! let clock = FakeClock::new(chrono::DateTime::UNIX_EPOCH);
//! let card = CardState::new(clock.now());
//! let right = card.review(Answer::Right, clock.now());
//! assert!(right.due > card.due);
//! clock.advance(Duration::days(1));
//! assert!(right.is_due(clock.now()));
//! ```

use std::sync::atomic::{AtomicI64, Ordering};

use chrono::{DateTime, Duration, Utc};

/// Where the current time comes from: the system clock, or a [`FakeClock`] in tests.
pub trait Clock {
    /// The current time.
    fn now(&self) -> DateTime<Utc>;
}

/// The system's clock.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> DateTime<Utc> {
        Utc::now()
    }
}

/// A clock that stands still until it is set or advanced (to test schedules without waiting). It is `Sync`, so a
/// test can share it with a worker thread.
#[derive(Debug)]
pub struct FakeClock {
    millis: AtomicI64,
}

impl FakeClock {
    /// A clock showing `start` (to the millisecond).
    #[must_use]
    pub fn new(start: DateTime<Utc>) -> FakeClock {
        FakeClock { millis: AtomicI64::new(start.timestamp_millis()) }
    }

    /// Sets the time.
    pub fn set(&self, time: DateTime<Utc>) {
        self.millis.store(time.timestamp_millis(), Ordering::Relaxed);
    }

    /// Moves the time on by `by` (back when negative).
    pub fn advance(&self, by: Duration) {
        let _previous = self.millis.fetch_add(by.num_milliseconds(), Ordering::Relaxed);
    }
}

impl Clock for FakeClock {
    fn now(&self) -> DateTime<Utc> {
        from_millis(self.millis.load(Ordering::Relaxed))
    }
}

/// The time `millis` milliseconds after the Unix epoch (the epoch itself when out of chrono's range).
#[must_use]
pub(crate) fn from_millis(millis: i64) -> DateTime<Utc> {
    DateTime::from_timestamp_millis(millis).unwrap_or(DateTime::UNIX_EPOCH)
}

/// How the student answered a card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Answer {
    /// A wrong move (FSRS "Again": the card is learned again and comes back within minutes).
    Wrong,
    /// The right move after a hint, or after a long hesitation (FSRS "Hard").
    Hard,
    /// The right move (FSRS "Good").
    Right,
    /// The right move at once, without thinking (FSRS "Easy").
    Easy,
}

impl Answer {
    /// Every answer, from worst to best.
    pub const ALL: [Answer; 4] = [Answer::Wrong, Answer::Hard, Answer::Right, Answer::Easy];

    /// Whether the move was right.
    #[must_use]
    pub const fn is_correct(self) -> bool {
        !matches!(self, Answer::Wrong)
    }

    /// The stored code: 1 (wrong) to 4 (easy), FSRS's grade numbers.
    #[must_use]
    pub const fn code(self) -> u8 {
        match self {
            Answer::Wrong => 1,
            Answer::Hard => 2,
            Answer::Right => 3,
            Answer::Easy => 4,
        }
    }

    /// The answer of a stored code.
    #[must_use]
    pub const fn from_code(code: u8) -> Option<Answer> {
        match code {
            1 => Some(Answer::Wrong),
            2 => Some(Answer::Hard),
            3 => Some(Answer::Right),
            4 => Some(Answer::Easy),
            _ => None,
        }
    }

    const fn grade(self) -> rs_fsrs::Rating {
        match self {
            Answer::Wrong => rs_fsrs::Rating::Again,
            Answer::Hard => rs_fsrs::Rating::Hard,
            Answer::Right => rs_fsrs::Rating::Good,
            Answer::Easy => rs_fsrs::Rating::Easy,
        }
    }
}

/// Where a card is in its life (FSRS's states).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum CardPhase {
    /// Never answered.
    #[default]
    New,
    /// Answered, but not yet known: comes back after minutes.
    Learning,
    /// Known: comes back after days.
    Review,
    /// Known once, then answered wrongly: learned again.
    Relearning,
}

impl CardPhase {
    /// The stored code, 0 (new) to 3 (relearning), FSRS's state numbers.
    #[must_use]
    pub const fn code(self) -> u8 {
        match self {
            CardPhase::New => 0,
            CardPhase::Learning => 1,
            CardPhase::Review => 2,
            CardPhase::Relearning => 3,
        }
    }

    /// The phase of a stored code.
    #[must_use]
    pub const fn from_code(code: u8) -> Option<CardPhase> {
        match code {
            0 => Some(CardPhase::New),
            1 => Some(CardPhase::Learning),
            2 => Some(CardPhase::Review),
            3 => Some(CardPhase::Relearning),
            _ => None,
        }
    }

    const fn to_fsrs(self) -> rs_fsrs::State {
        match self {
            CardPhase::New => rs_fsrs::State::New,
            CardPhase::Learning => rs_fsrs::State::Learning,
            CardPhase::Review => rs_fsrs::State::Review,
            CardPhase::Relearning => rs_fsrs::State::Relearning,
        }
    }

    const fn of_fsrs(state: rs_fsrs::State) -> CardPhase {
        match state {
            rs_fsrs::State::New => CardPhase::New,
            rs_fsrs::State::Learning => CardPhase::Learning,
            rs_fsrs::State::Review => CardPhase::Review,
            rs_fsrs::State::Relearning => CardPhase::Relearning,
        }
    }
}

/// The scheduling state of one card: FSRS's card, field for field, as the study store keeps it in its columns.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CardState {
    /// When the card is due.
    pub due: DateTime<Utc>,
    /// FSRS stability: the days after which the chance of remembering falls to 90 %.
    pub stability: f64,
    /// FSRS difficulty, 1 (easy) to 10 (hard); 0 for a new card.
    pub difficulty: f64,
    /// Days between the last two reviews.
    pub elapsed_days: i64,
    /// Days from the last review to the due time (0 while learning).
    pub scheduled_days: i64,
    /// Times answered.
    pub reps: u32,
    /// Times forgotten (answered wrongly once known).
    pub lapses: u32,
    /// Where the card is in its life.
    pub phase: CardPhase,
    /// When it was last answered (`None` for a new card).
    pub last_review: Option<DateTime<Utc>>,
}

impl CardState {
    /// A new card, due at `now`.
    #[must_use]
    pub fn new(now: DateTime<Utc>) -> CardState {
        CardState {
            due: now,
            stability: 0.0,
            difficulty: 0.0,
            elapsed_days: 0,
            scheduled_days: 0,
            reps: 0,
            lapses: 0,
            phase: CardPhase::New,
            last_review: None,
        }
    }

    /// Whether the card is due at `now` (a new card is due from its creation).
    #[must_use]
    pub fn is_due(&self, now: DateTime<Utc>) -> bool {
        self.due <= now
    }

    /// The state after answering the card with `answer` at `now` (see [`review`]).
    #[must_use]
    pub fn review(&self, answer: Answer, now: DateTime<Utc>) -> CardState {
        review(self, answer, now)
    }

    fn to_fsrs(self) -> rs_fsrs::Card {
        rs_fsrs::Card {
            due: self.due,
            stability: self.stability,
            difficulty: self.difficulty,
            elapsed_days: self.elapsed_days,
            scheduled_days: self.scheduled_days,
            reps: i32::try_from(self.reps).unwrap_or(i32::MAX),
            lapses: i32::try_from(self.lapses).unwrap_or(i32::MAX),
            state: self.phase.to_fsrs(),
            last_review: self.last_review.unwrap_or(self.due),
        }
    }

    fn of_fsrs(card: &rs_fsrs::Card) -> CardState {
        CardState {
            due: card.due,
            stability: card.stability,
            difficulty: card.difficulty,
            elapsed_days: card.elapsed_days,
            scheduled_days: card.scheduled_days,
            reps: u32::try_from(card.reps).unwrap_or(0),
            lapses: u32::try_from(card.lapses).unwrap_or(0),
            phase: CardPhase::of_fsrs(card.state),
            last_review: Some(card.last_review),
        }
    }
}

/// The state of `card` after it was answered with `answer` at `now`, as FSRS schedules it: a wrong answer brings the
/// card back within minutes, a right one after minutes while it is being learned, then after days that grow with
/// every right answer.
#[must_use]
pub fn review(card: &CardState, answer: Answer, now: DateTime<Utc>) -> CardState {
    let fsrs = rs_fsrs::FSRS::default();
    let next = fsrs.next(card.to_fsrs(), now, answer.grade());
    CardState::of_fsrs(&next.card)
}
