//! The study history: one SQLite file with the cards of every deck and their schedules, every card answer and every
//! quiz answer, and the queries a study screen shows (due cards, counts, retention, the rating, progress per day).
//!
//! Every answer is one committed transaction: when [`StudyStore::record_card_review`] or
//! [`StudyStore::record_quiz_answer`] returns `Ok`, the answer is on disk and survives the program being killed (see
//! the durability note in `schema.rs`); when it fails or the program dies before, nothing of it is stored.
//!
//! ```
//! use shirokuro_engine::study::store::{NewCard, StudyStore};
//! use shirokuro_engine::study::{Answer, CardKey};
//! use shirokuro_engine::{Move, Position, Square};
//! # let dir = tempfile::tempdir().unwrap();
//! let mut store = StudyStore::open(dir.path().join("study.sqlite")).unwrap();
//! let now = chrono::Utc::now();
//! let card = NewCard::new(&Position::INITIAL, &[Move::Place(Square::F5)], Move::Place(Square::F5));
//! let ids = store.add_cards("openings", &[card], now).unwrap();
//! let due = store.due_cards("openings", now, 10).unwrap();
//! assert_eq!(due.len(), 1);
//! let next = due[0].state.review(Answer::Right, now);
//! store.record_card_review(ids[0], Answer::Right, &next, now).unwrap();
//! assert!(store.due_cards("openings", now, 10).unwrap().is_empty());
//! ```

mod error;
mod queries;
mod schema;
mod types;

use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use rusqlite::{Connection, OptionalExtension, Row, TransactionBehavior, params};

pub use error::StudyError;
pub use types::{CardCounts, CardId, DayProgress, NewCard, QuizRecord, RatingPoint, Retention, StoredCard};

use super::key::{CardKey, moves_from_text, moves_to_text};
use super::schedule::{Answer, CardPhase, CardState, from_millis};
use crate::board::Color;
use crate::notation;

/// An open study history (one SQLite file). Not `Sync`: keep it on one thread (a worker) and send it requests.
#[derive(Debug)]
pub struct StudyStore {
    conn: Connection,
    path: PathBuf,
}

impl StudyStore {
    /// Opens the study history at `path`, creating it (and its tables) when the file does not exist, and bringing
    /// an older version's tables up to date.
    ///
    /// # Errors
    /// [`StudyError::Open`] if the file cannot be opened or made, [`StudyError::NotAStudyFile`] for another
    /// database or a file that is not one, [`StudyError::UnsupportedVersion`] for a newer program's file,
    /// [`StudyError::Database`] if the tables cannot be made.
    pub fn open(path: impl AsRef<Path>) -> Result<StudyStore, StudyError> {
        let path = path.as_ref();
        Ok(StudyStore { conn: schema::open(path)?, path: path.to_owned() })
    }

    /// The file.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The error of a failed database call, naming the file and what was being done.
    fn db(&self, what: &'static str) -> impl FnOnce(rusqlite::Error) -> StudyError + use<> {
        db_error(&self.path, what)
    }

    /// Adds cards to `deck`, new and due at `now`, in one transaction; a card whose position the deck already holds
    /// keeps its schedule and takes the new expected moves. Returns the cards' ids, in order.
    ///
    /// # Errors
    /// [`StudyError::Database`]; then no card is added.
    pub fn add_cards(&mut self, deck: &str, cards: &[NewCard], now: DateTime<Utc>) -> Result<Vec<CardId>, StudyError> {
        let path = self.path.clone();
        let db = |what: &'static str| db_error(&path, what);
        let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(db("begin"))?;
        let mut ids = Vec::with_capacity(cards.len());
        {
            let mut insert = tx
                .prepare_cached(
                    "INSERT INTO cards (deck, position, side, expected, best, created, due, stability, difficulty,
                         elapsed_days, scheduled_days, reps, lapses, state, last_review)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6, 0, 0, 0, 0, 0, 0, 0, NULL)
                     ON CONFLICT (deck, position) DO UPDATE SET expected = excluded.expected, best = excluded.best
                     RETURNING id",
                )
                .map_err(db("prepare adding cards"))?;
            for card in cards {
                let side = side_code(card.key.side);
                let values = params![
                    deck,
                    card.key.to_text(),
                    side,
                    moves_to_text(&card.expected),
                    card.best.to_string(),
                    now.timestamp_millis()
                ];
                let id: i64 = insert.query_row(values, |row| row.get(0)).map_err(db("add a card"))?;
                ids.push(CardId(id));
            }
        }
        tx.commit().map_err(db("commit the cards"))?;
        Ok(ids)
    }

    /// Records an answer to a card and its new schedule (from [`CardState::review`]), in one committed transaction.
    ///
    /// # Errors
    /// [`StudyError::UnknownCard`] if the store has no such card, [`StudyError::Database`]; then nothing is stored.
    pub fn record_card_review(
        &mut self,
        card: CardId,
        answer: Answer,
        state: &CardState,
        now: DateTime<Utc>,
    ) -> Result<(), StudyError> {
        let path = self.path.clone();
        let db = |what: &'static str| db_error(&path, what);
        let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(db("begin"))?;
        let changed = tx
            .prepare_cached(
                "UPDATE cards SET due = ?2, stability = ?3, difficulty = ?4, elapsed_days = ?5, scheduled_days = ?6,
                     reps = ?7, lapses = ?8, state = ?9, last_review = ?10 WHERE id = ?1",
            )
            .and_then(|mut update| {
                update.execute(params![
                    card.0,
                    state.due.timestamp_millis(),
                    state.stability,
                    state.difficulty,
                    state.elapsed_days,
                    state.scheduled_days,
                    state.reps,
                    state.lapses,
                    state.phase.code(),
                    state.last_review.map(|t| t.timestamp_millis()),
                ])
            })
            .map_err(db("update the card"))?;
        if changed == 0 {
            return Err(StudyError::UnknownCard { path: self.path.clone(), id: card.0 });
        }
        let _inserted = tx
            .prepare_cached("INSERT INTO card_reviews (card, time, answer, correct) VALUES (?1, ?2, ?3, ?4)")
            .and_then(|mut insert| {
                insert.execute(params![card.0, now.timestamp_millis(), answer.code(), answer.is_correct()])
            })
            .map_err(db("record the answer"))?;
        tx.commit().map_err(db("commit the answer"))
    }

    /// Records a quiz answer in one committed transaction; returns its row id.
    ///
    /// # Errors
    /// [`StudyError::Database`]; then nothing is stored.
    pub fn record_quiz_answer(&mut self, record: &QuizRecord) -> Result<i64, StudyError> {
        let path = self.path.clone();
        let db = |what: &'static str| db_error(&path, what);
        let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(db("begin"))?;
        let id = tx
            .prepare_cached(
                "INSERT INTO quiz_answers (time, position, empties, answer, correct, points, difficulty, rating,
                     deviation, volatility) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10) RETURNING id",
            )
            .and_then(|mut insert| {
                insert.query_row(
                    params![
                        record.time.timestamp_millis(),
                        notation::format_board(&record.position),
                        record.position.board.empty_count(),
                        record.answer.to_string(),
                        record.correct,
                        record.points,
                        record.difficulty,
                        record.rating.rating,
                        record.rating.deviation,
                        record.rating.volatility,
                    ],
                    |row| row.get(0),
                )
            })
            .map_err(db("record the quiz answer"))?;
        tx.commit().map_err(db("commit the quiz answer"))?;
        Ok(id)
    }

    /// One card; `None` if the store has no card with this id.
    ///
    /// # Errors
    /// [`StudyError::Database`] or [`StudyError::Corrupt`].
    pub fn card(&self, id: CardId) -> Result<Option<StoredCard>, StudyError> {
        let sql = format!("SELECT {CARD_COLUMNS} FROM cards WHERE id = ?1");
        let row = self.conn.query_row(&sql, [id.0], RawCard::read).optional().map_err(self.db("read a card"))?;
        row.map(|raw| raw.decode(&self.path)).transpose()
    }

    /// The card of `key` in `deck`, if the deck has it.
    ///
    /// # Errors
    /// [`StudyError::Database`] or [`StudyError::Corrupt`].
    pub fn card_by_key(&self, deck: &str, key: &CardKey) -> Result<Option<StoredCard>, StudyError> {
        let sql = format!("SELECT {CARD_COLUMNS} FROM cards WHERE deck = ?1 AND position = ?2");
        let row = self
            .conn
            .query_row(&sql, params![deck, key.to_text()], RawCard::read)
            .optional()
            .map_err(self.db("read a card"))?;
        row.map(|raw| raw.decode(&self.path)).transpose()
    }

    /// `PRAGMA integrity_check`: `"ok"` when the file is sound, else SQLite's list of problems.
    ///
    /// # Errors
    /// [`StudyError::Database`].
    pub fn integrity_check(&self) -> Result<String, StudyError> {
        let mut statement = self.conn.prepare("PRAGMA integrity_check").map_err(self.db("check the file"))?;
        let lines: Vec<String> =
            statement.query_map([], |row| row.get(0)).and_then(Iterator::collect).map_err(self.db("check the file"))?;
        Ok(lines.join("\n"))
    }
}

/// The columns [`RawCard::read`] reads, in order.
const CARD_COLUMNS: &str = "id, deck, position, expected, best, created, due, stability, difficulty, elapsed_days, \
                            scheduled_days, reps, lapses, state, last_review";

/// A card row before its texts and codes are checked.
struct RawCard {
    id: i64,
    deck: String,
    position: String,
    expected: String,
    best: String,
    created: i64,
    due: i64,
    stability: f64,
    difficulty: f64,
    elapsed_days: i64,
    scheduled_days: i64,
    reps: i64,
    lapses: i64,
    state: i64,
    last_review: Option<i64>,
}

impl RawCard {
    fn read(row: &Row<'_>) -> rusqlite::Result<RawCard> {
        Ok(RawCard {
            id: row.get(0)?,
            deck: row.get(1)?,
            position: row.get(2)?,
            expected: row.get(3)?,
            best: row.get(4)?,
            created: row.get(5)?,
            due: row.get(6)?,
            stability: row.get(7)?,
            difficulty: row.get(8)?,
            elapsed_days: row.get(9)?,
            scheduled_days: row.get(10)?,
            reps: row.get(11)?,
            lapses: row.get(12)?,
            state: row.get(13)?,
            last_review: row.get(14)?,
        })
    }

    fn decode(self, path: &Path) -> Result<StoredCard, StudyError> {
        let corrupt = |what: String| StudyError::Corrupt { path: path.to_owned(), what };
        let id = self.id;
        let key = CardKey::from_text(&self.position).map_err(|e| corrupt(format!("card {id}: {e}")))?;
        let expected = moves_from_text(&self.expected).map_err(|e| corrupt(format!("card {id}: {e}")))?;
        let best = notation::parse_move(&self.best).map_err(|e| corrupt(format!("card {id}: best move: {e}")))?;
        let phase = u8::try_from(self.state)
            .ok()
            .and_then(CardPhase::from_code)
            .ok_or_else(|| corrupt(format!("card {id}: unknown state {}", self.state)))?;
        let count = |n: i64| u32::try_from(n).unwrap_or(0);
        let state = CardState {
            due: from_millis(self.due),
            stability: self.stability,
            difficulty: self.difficulty,
            elapsed_days: self.elapsed_days,
            scheduled_days: self.scheduled_days,
            reps: count(self.reps),
            lapses: count(self.lapses),
            phase,
            last_review: self.last_review.map(from_millis),
        };
        Ok(StoredCard {
            id: CardId(id),
            deck: self.deck,
            key,
            expected,
            best,
            created: from_millis(self.created),
            state,
        })
    }
}

/// The error of a failed database call on the file `path`, doing `what`.
fn db_error(path: &Path, what: &'static str) -> impl FnOnce(rusqlite::Error) -> StudyError + use<> {
    let path = path.to_owned();
    move |source| StudyError::Database { path, what, source }
}

/// The stored code of a colour.
const fn side_code(side: Color) -> u8 {
    match side {
        Color::Black => 0,
        Color::White => 1,
    }
}
