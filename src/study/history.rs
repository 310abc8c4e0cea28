//! The study history's reads and writes (`<data folder>/study.sqlite`), each on a short-lived thread of its own: open
//! the file, do one thing, close it. As with the archive explorer's reads (`explorer::job`), the store is an SQLite
//! connection that may live on one thread only, and every request is short and rare (one write per answer, one read
//! when a screen opens), so there is nothing to keep open between them. Each write is one committed transaction, so
//! an answer acknowledged here survives a crash.

use std::path::PathBuf;

use chrono::{DateTime, Utc};
use shirokuro_engine::fsutil::IoFailure;
use shirokuro_engine::study::store::NewCard;
use shirokuro_engine::study::{
    Answer, CardId, CardState, DayProgress, QuizRecord, Rating, RatingPoint, StoredCard, StudyError, StudyStore,
};

use crate::failure::Shared;

pub use crate::failure::HistoryError;

/// Runs `work` on the store at `file`, on a thread of its own.
///
/// # Errors
/// [`HistoryError`] when the file cannot be opened, the work fails, or no thread starts.
pub async fn with_store<T: Send + 'static>(
    file: PathBuf,
    work: impl FnOnce(&mut StudyStore) -> Result<T, StudyError> + Send + 'static,
) -> Result<T, HistoryError> {
    let answer = crate::worker::off_thread("study", move || {
        let mut store = StudyStore::open(&file)?;
        work(&mut store)
    })
    .await;
    match answer {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(error)) => Err(HistoryError::Study(Shared::new(error))),
        Err(error) => Err(HistoryError::Thread(IoFailure::from(error))),
    }
}

/// The rating after the last quiz answer (the default rating before the first).
///
/// # Errors
/// See [`with_store`].
pub async fn rating(file: PathBuf) -> Result<Rating, HistoryError> {
    with_store(file, |store| Ok(store.latest_rating()?.unwrap_or_default())).await
}

/// Writes one quiz answer.
///
/// # Errors
/// See [`with_store`].
pub async fn record_quiz(file: PathBuf, record: QuizRecord) -> Result<(), HistoryError> {
    with_store(file, move |store| store.record_quiz_answer(&record).map(|_| ())).await
}

/// Adds `cards` to `deck` (a card already there keeps its schedule) and returns the deck's cards.
///
/// # Errors
/// See [`with_store`].
pub async fn add_cards(
    file: PathBuf,
    deck: String,
    cards: Vec<NewCard>,
    now: DateTime<Utc>,
) -> Result<Vec<StoredCard>, HistoryError> {
    with_store(file, move |store| {
        let _ids = store.add_cards(&deck, &cards, now)?;
        store.cards(&deck)
    })
    .await
}

/// Writes one card answer with the card's new schedule.
///
/// # Errors
/// See [`with_store`].
pub async fn record_card(
    file: PathBuf,
    card: CardId,
    answer: Answer,
    state: CardState,
    now: DateTime<Utc>,
) -> Result<(), HistoryError> {
    with_store(file, move |store| store.record_card_review(card, answer, &state, now)).await
}

/// What Display ▸ Study Progress draws.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ProgressData {
    /// The rating after each quiz answer.
    pub ratings: Vec<RatingPoint>,
    /// Cards and quiz answers by day (local time).
    pub days: Vec<DayProgress>,
}

/// The rating series and the per-day counts between `from` and `to`, days in the time zone `utc_offset` seconds
/// east of UTC.
///
/// # Errors
/// See [`with_store`].
pub async fn progress(
    file: PathBuf,
    from: DateTime<Utc>,
    to: DateTime<Utc>,
    utc_offset: i32,
) -> Result<ProgressData, HistoryError> {
    with_store(file, move |store| {
        Ok(ProgressData { ratings: store.rating_series(from, to)?, days: store.daily_progress(from, to, utc_offset)? })
    })
    .await
}
