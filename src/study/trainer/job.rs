//! The opening trainer's work off the UI thread, as plain functions that tests run by hand and hand back as
//! messages, as the app does when its tasks finish (the pattern of `explorer::job`):
//! - [`build`]: the repertoire of the chosen side from the book (the book's read lock is taken there, on the worker
//!   thread, so the UI never waits for it);
//! - [`store_cards`]: the repertoire's cards added to their deck in the study history, and the deck read back with
//!   every card's schedule;
//! - [`Review::write`]: one answer and the card's new schedule, one committed transaction.

use std::ops::RangeInclusive;
use std::path::PathBuf;
use std::sync::Arc;

use chrono::{DateTime, Utc};
use shirokuro_engine::study::{
    Answer, CardCounts, CardId, CardKey, CardState, Repertoire, StoredCard, StudyError, StudyStore,
};
use shirokuro_engine::{Color, Move, Position};

use crate::book::SharedBook;
use crate::study::history::{self, HistoryError};

/// The depths offered, in plies from the start position.
pub const DEPTHS: RangeInclusive<u8> = 4..=20;
/// The allowed errors offered, in discs.
pub const ERRORS: RangeInclusive<u8> = 0..=6;
/// The book variation levels offered for the opponent's replies (as the AI's "book variation").
pub const VARIATIONS: RangeInclusive<u8> = 0..=10;

/// Where the repertoire comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The book's best lines from the position on the board (every reply within the error, the best answers).
    Book,
    /// The student's own lines from the initial position: the forced openings that are on.
    MyLines,
}

/// What the student chose to train.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plan {
    /// Where the repertoire comes from.
    pub source: Source,
    /// The student's colour.
    pub side: Color,
    /// How deep the lines go, in plies (passes not counted).
    pub depth: u8,
    /// The discs a move may lose against the book's best and still be right.
    pub error: u8,
    /// The book variation level of the opponent's replies (0: the best replies only).
    pub variation: u8,
}

impl Default for Plan {
    fn default() -> Plan {
        Plan { source: Source::Book, side: Color::Black, depth: 10, error: 2, variation: 0 }
    }
}

impl Plan {
    /// The plan with every number in its offered range.
    #[must_use]
    pub fn clamped(self) -> Plan {
        let clamp = |value: u8, range: &RangeInclusive<u8>| value.clamp(*range.start(), *range.end());
        Plan {
            source: self.source,
            side: self.side,
            depth: clamp(self.depth, &DEPTHS),
            error: clamp(self.error, &ERRORS),
            variation: clamp(self.variation, &VARIATIONS),
        }
    }

    /// The deck of the repertoire from `start` in the study history:
    /// `book:<side>:<start position, canonical board text>:<depth>:<error>`, so that the same choices from the same
    /// position (in any orientation) find the same cards again, and other choices keep their own schedules. The
    /// variation only changes how replies are drawn, so it is not part of the name.
    #[must_use]
    pub fn deck(&self, start: &Position) -> String {
        let side = match self.side {
            Color::Black => "black",
            Color::White => "white",
        };
        match self.source {
            Source::Book => format!("book:{side}:{}:{}:{}", CardKey::of(start).to_text(), self.depth, self.error),
            // One deck per side: a line added later adds its cards, and the cards of the others keep their schedule.
            Source::MyLines => format!("lines:{side}"),
        }
    }

    /// Where the session starts: the position on the board for the book, the initial position for the lines.
    #[must_use]
    pub fn start(&self, shown: &Position) -> Position {
        match self.source {
            Source::Book => *shown,
            Source::MyLines => Position::INITIAL,
        }
    }
}

/// Why no session could start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StartError {
    /// No book is in use (none loaded, Use Book off, or an empty one).
    NoBook,
    /// The book is being changed by a book operation right now.
    BookBusy,
    /// The book has no move for the student from the start position with these choices.
    OutOfBook,
    /// My lines: no forced opening is on, or none has a move of the chosen side.
    NoLines,
    /// My lines: a line has an illegal move (the forced openings were edited by hand).
    BadLine,
    /// The work's thread could not start or ended without an answer.
    Stopped,
}

/// The repertoire of `plan.side`: from `book` from `start`, or from `lines` (from the initial position).
///
/// # Errors
/// [`StartError::NoBook`] without a book or with an empty one, [`StartError::BookBusy`] while the book is being
/// changed, [`StartError::OutOfBook`] when the repertoire has no card; with the lines, [`StartError::BadLine`] for
/// an illegal move and [`StartError::NoLines`] when they give no card.
pub fn build(
    book: Option<&SharedBook>,
    start: &Position,
    plan: Plan,
    lines: &[Vec<Move>],
) -> Result<Repertoire, StartError> {
    if plan.source == Source::MyLines {
        let repertoire =
            Repertoire::from_lines(&Position::INITIAL, lines, plan.side).map_err(|_| StartError::BadLine)?;
        return if repertoire.cards().is_empty() { Err(StartError::NoLines) } else { Ok(repertoire) };
    }
    let shared = book.filter(|book| !book.is_empty()).ok_or(StartError::NoBook)?;
    let book = shared.read().ok_or(StartError::BookBusy)?;
    let repertoire = Repertoire::from_book(&book, start, plan.side, plan.depth, i32::from(plan.error));
    if repertoire.cards().is_empty() { Err(StartError::OutOfBook) } else { Ok(repertoire) }
}

/// [`build`] on a thread of its own.
///
/// # Errors
/// See [`build`]; [`StartError::Stopped`] when the thread fails.
pub async fn build_off_thread(
    book: Option<SharedBook>,
    start: Position,
    plan: Plan,
    lines: Vec<Vec<Move>>,
) -> Result<Arc<Repertoire>, StartError> {
    crate::worker::off_thread("trainer", move || build(book.as_ref(), &start, plan, &lines))
        .await
        .unwrap_or(Err(StartError::Stopped))
        .map(Arc::new)
}

/// A deck of the study history as the session starts with it.
#[derive(Debug, Clone, PartialEq)]
pub struct Deck {
    /// Its name ([`Plan::deck`]).
    pub name: String,
    /// Its cards with their schedules.
    pub cards: Vec<StoredCard>,
    /// How many are new, learning, due.
    pub counts: CardCounts,
}

/// Adds the repertoire's cards to the deck `name` (a card already there keeps its schedule) and reads the deck back.
///
/// # Errors
/// The store's [`StudyError`]; then no card is added.
pub fn store_cards(
    store: &mut StudyStore,
    name: &str,
    repertoire: &Repertoire,
    now: DateTime<Utc>,
) -> Result<Deck, StudyError> {
    let _ids = store.add_cards(name, &repertoire.new_cards(), now)?;
    let cards = store.cards(name)?;
    let counts = store.card_counts(name, now)?;
    Ok(Deck { name: name.to_owned(), cards, counts })
}

/// [`store_cards`] on the study history `file`, on a thread of its own.
///
/// # Errors
/// See [`history::with_store`].
pub async fn open_deck(
    file: PathBuf,
    name: String,
    repertoire: Arc<Repertoire>,
    now: DateTime<Utc>,
) -> Result<Arc<Deck>, HistoryError> {
    history::with_store(file, move |store| store_cards(store, &name, &repertoire, now)).await.map(Arc::new)
}

/// One answer to write to the study history.
#[derive(Debug, Clone, PartialEq)]
pub struct Review {
    /// The card's deck.
    pub deck: String,
    /// The card.
    pub card: CardId,
    /// How it was answered.
    pub answer: Answer,
    /// Its schedule after the answer.
    pub state: CardState,
    /// When it was answered.
    pub time: DateTime<Utc>,
}

impl Review {
    /// Writes the answer and the card's schedule (one committed transaction), then reads the deck's counts.
    ///
    /// # Errors
    /// The store's [`StudyError`]; then nothing is written.
    pub fn write(&self, store: &mut StudyStore) -> Result<CardCounts, StudyError> {
        store.record_card_review(self.card, self.answer, &self.state, self.time)?;
        store.card_counts(&self.deck, self.time)
    }
}

/// [`Review::write`] on the study history `file`, on a thread of its own.
///
/// # Errors
/// See [`history::with_store`].
pub async fn record(file: PathBuf, review: Review) -> Result<CardCounts, HistoryError> {
    history::with_store(file, move |store| review.write(store)).await
}
