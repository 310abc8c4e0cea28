//! The study history's read queries: due cards, counts, retention, the rating and the progress series.

use std::collections::BTreeMap;

use chrono::{DateTime, NaiveDate, Utc};
use rusqlite::{OptionalExtension, params};

use super::{
    CARD_COLUMNS, CardCounts, DayProgress, QuizRecord, RatingPoint, RawCard, Retention, StoredCard, StudyError,
    StudyStore,
};
use crate::notation;
use crate::study::rating::Rating;
use crate::study::schedule::from_millis;

impl StudyStore {
    /// The decks that have cards, in name order.
    ///
    /// # Errors
    /// [`StudyError::Database`].
    pub fn decks(&self) -> Result<Vec<String>, StudyError> {
        let mut statement =
            self.conn.prepare_cached("SELECT DISTINCT deck FROM cards ORDER BY deck").map_err(self.db("list decks"))?;
        statement.query_map([], |row| row.get(0)).and_then(Iterator::collect).map_err(self.db("list decks"))
    }

    /// Every card of `deck`, in the order they were added.
    ///
    /// # Errors
    /// [`StudyError::Database`] or [`StudyError::Corrupt`].
    pub fn cards(&self, deck: &str) -> Result<Vec<StoredCard>, StudyError> {
        self.card_query(&format!("SELECT {CARD_COLUMNS} FROM cards WHERE deck = ?1 ORDER BY id"), params![deck])
    }

    /// The cards of `deck` due at `now` (new cards included), the longest overdue first, at most `limit`.
    ///
    /// # Errors
    /// [`StudyError::Database`] or [`StudyError::Corrupt`].
    pub fn due_cards(&self, deck: &str, now: DateTime<Utc>, limit: usize) -> Result<Vec<StoredCard>, StudyError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.card_query(
            &format!("SELECT {CARD_COLUMNS} FROM cards WHERE deck = ?1 AND due <= ?2 ORDER BY due, id LIMIT ?3"),
            params![deck, now.timestamp_millis(), limit],
        )
    }

    fn card_query(&self, sql: &str, values: impl rusqlite::Params) -> Result<Vec<StoredCard>, StudyError> {
        let mut statement = self.conn.prepare_cached(sql).map_err(self.db("read cards"))?;
        let raw: Vec<RawCard> =
            statement.query_map(values, RawCard::read).and_then(Iterator::collect).map_err(self.db("read cards"))?;
        raw.into_iter().map(|card| card.decode(&self.path)).collect()
    }

    /// How many cards of `deck` are new, being learned, due at `now`, and in all.
    ///
    /// # Errors
    /// [`StudyError::Database`].
    pub fn card_counts(&self, deck: &str, now: DateTime<Utc>) -> Result<CardCounts, StudyError> {
        let (new, learning, due, total): (i64, i64, i64, i64) = self
            .conn
            .query_row(
                "SELECT coalesce(sum(state = 0), 0), coalesce(sum(state IN (1, 3)), 0),
                        coalesce(sum(state <> 0 AND due <= ?2), 0), count(*)
                 FROM cards WHERE deck = ?1",
                params![deck, now.timestamp_millis()],
                |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?)),
            )
            .map_err(self.db("count cards"))?;
        let count = |n: i64| u64::try_from(n).unwrap_or(0);
        Ok(CardCounts { new: count(new), learning: count(learning), due: count(due), total: count(total) })
    }

    /// When the next card of `deck` is due (in the past when some are due now); `None` for an empty deck.
    ///
    /// # Errors
    /// [`StudyError::Database`].
    pub fn next_due(&self, deck: &str) -> Result<Option<DateTime<Utc>>, StudyError> {
        let due: Option<i64> = self
            .conn
            .query_row("SELECT min(due) FROM cards WHERE deck = ?1", [deck], |row| row.get(0))
            .map_err(self.db("find the next due card"))?;
        Ok(due.map(from_millis))
    }

    /// Card answers given in `from..to` (a session's retention).
    ///
    /// # Errors
    /// [`StudyError::Database`].
    pub fn card_retention(&self, from: DateTime<Utc>, to: DateTime<Utc>) -> Result<Retention, StudyError> {
        self.retention("card_reviews", from, to)
    }

    /// Quiz answers given in `from..to`.
    ///
    /// # Errors
    /// [`StudyError::Database`].
    pub fn quiz_retention(&self, from: DateTime<Utc>, to: DateTime<Utc>) -> Result<Retention, StudyError> {
        self.retention("quiz_answers", from, to)
    }

    fn retention(&self, table: &str, from: DateTime<Utc>, to: DateTime<Utc>) -> Result<Retention, StudyError> {
        let (answered, right): (i64, i64) = self
            .conn
            .query_row(
                &format!("SELECT count(*), coalesce(sum(correct), 0) FROM {table} WHERE time >= ?1 AND time < ?2"),
                params![from.timestamp_millis(), to.timestamp_millis()],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )
            .map_err(self.db("count answers"))?;
        let count = |n: i64| u64::try_from(n).unwrap_or(0);
        Ok(Retention { answered: count(answered), right: count(right) })
    }

    /// The rating after the latest quiz answer; `None` before the first.
    ///
    /// # Errors
    /// [`StudyError::Database`].
    pub fn latest_rating(&self) -> Result<Option<Rating>, StudyError> {
        self.conn
            .query_row(
                "SELECT rating, deviation, volatility FROM quiz_answers ORDER BY time DESC, id DESC LIMIT 1",
                [],
                |row| Ok(Rating { rating: row.get(0)?, deviation: row.get(1)?, volatility: row.get(2)? }),
            )
            .optional()
            .map_err(self.db("read the rating"))
    }

    /// The rating after each quiz answer given in `from..to`, oldest first (the rating graph).
    ///
    /// # Errors
    /// [`StudyError::Database`].
    pub fn rating_series(&self, from: DateTime<Utc>, to: DateTime<Utc>) -> Result<Vec<RatingPoint>, StudyError> {
        let mut statement = self
            .conn
            .prepare_cached(
                "SELECT time, rating, deviation, volatility FROM quiz_answers WHERE time >= ?1 AND time < ?2
                 ORDER BY time, id",
            )
            .map_err(self.db("read the rating series"))?;
        statement
            .query_map(params![from.timestamp_millis(), to.timestamp_millis()], |row| {
                Ok(RatingPoint {
                    time: from_millis(row.get(0)?),
                    rating: Rating { rating: row.get(1)?, deviation: row.get(2)?, volatility: row.get(3)? },
                })
            })
            .and_then(Iterator::collect)
            .map_err(self.db("read the rating series"))
    }

    /// The latest quiz answers, newest first, at most `limit`.
    ///
    /// # Errors
    /// [`StudyError::Database`] or [`StudyError::Corrupt`].
    pub fn recent_quiz_answers(&self, limit: usize) -> Result<Vec<QuizRecord>, StudyError> {
        type Row = (i64, String, String, bool, i64, f64, f64, f64, f64);
        let mut statement = self
            .conn
            .prepare_cached(
                "SELECT time, position, answer, correct, points, difficulty, rating, deviation, volatility
                 FROM quiz_answers ORDER BY time DESC, id DESC LIMIT ?1",
            )
            .map_err(self.db("read quiz answers"))?;
        let rows: Vec<Row> = statement
            .query_map([i64::try_from(limit).unwrap_or(i64::MAX)], |row| {
                Ok((
                    row.get(0)?,
                    row.get(1)?,
                    row.get(2)?,
                    row.get(3)?,
                    row.get(4)?,
                    row.get(5)?,
                    row.get(6)?,
                    row.get(7)?,
                    row.get(8)?,
                ))
            })
            .and_then(Iterator::collect)
            .map_err(self.db("read quiz answers"))?;
        let corrupt = |what: String| StudyError::Corrupt { path: self.path.clone(), what };
        rows.into_iter()
            .map(|(time, position, answer, correct, points, difficulty, rating, deviation, volatility)| {
                Ok(QuizRecord {
                    time: from_millis(time),
                    position: notation::parse_board(&position)
                        .map_err(|e| corrupt(format!("quiz answer at {time}: {e}")))?,
                    answer: notation::parse_move(&answer)
                        .map_err(|e| corrupt(format!("quiz answer at {time}: {e}")))?,
                    correct,
                    points: u32::try_from(points).unwrap_or(0),
                    difficulty,
                    rating: Rating { rating, deviation, volatility },
                })
            })
            .collect()
    }

    /// Per day of `from..to`, the card and quiz answers and the right ones, oldest day first; days without answers
    /// are left out. Days are counted in the time zone `utc_offset_seconds` east of UTC (the player's local time).
    ///
    /// # Errors
    /// [`StudyError::Database`] or [`StudyError::Corrupt`].
    pub fn daily_progress(
        &self,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
        utc_offset_seconds: i32,
    ) -> Result<Vec<DayProgress>, StudyError> {
        let mut days: BTreeMap<NaiveDate, DayProgress> = BTreeMap::new();
        for (table, is_quiz) in [("card_reviews", false), ("quiz_answers", true)] {
            let mut statement = self
                .conn
                .prepare_cached(&format!(
                    "SELECT date(time / 1000 + ?3, 'unixepoch') AS day, count(*), coalesce(sum(correct), 0)
                     FROM {table} WHERE time >= ?1 AND time < ?2 GROUP BY day ORDER BY day"
                ))
                .map_err(self.db("read the progress per day"))?;
            let rows: Vec<(String, i64, i64)> = statement
                .query_map(params![from.timestamp_millis(), to.timestamp_millis(), utc_offset_seconds], |row| {
                    Ok((row.get(0)?, row.get(1)?, row.get(2)?))
                })
                .and_then(Iterator::collect)
                .map_err(self.db("read the progress per day"))?;
            for (text, answered, right) in rows {
                let day = NaiveDate::parse_from_str(&text, "%Y-%m-%d").map_err(|e| StudyError::Corrupt {
                    path: self.path.clone(),
                    what: format!("answer day {text:?}: {e}"),
                })?;
                let entry = days.entry(day).or_insert(DayProgress {
                    day,
                    cards: Retention::default(),
                    quiz: Retention::default(),
                });
                let counts = Retention {
                    answered: u64::try_from(answered).unwrap_or(0),
                    right: u64::try_from(right).unwrap_or(0),
                };
                if is_quiz {
                    entry.quiz = counts;
                } else {
                    entry.cards = counts;
                }
            }
        }
        Ok(days.into_values().collect())
    }
}
