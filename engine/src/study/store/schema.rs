//! The study history's tables, and opening (creating or migrating) the file.
//!
//! The file is an SQLite database marked with `PRAGMA application_id` = `0x53484B53` ("SHKS") and
//! `PRAGMA user_version` = the schema version ([`VERSION`]). Times are milliseconds since the Unix epoch (UTC);
//! positions are [`CardKey`](crate::study::CardKey) texts; moves are words such as `f5`, in the canonical orientation
//! for cards.
//!
//! # Durability
//!
//! The journal is a write-ahead log (`journal_mode = WAL`) with `synchronous = FULL`: every commit is written and
//! synced to the log before `COMMIT` returns, so an answer acknowledged to the student is on disk, whether the
//! program is killed (SIGKILL, a crash) or the machine loses power; a transaction cut short is never seen, because
//! SQLite ignores log frames without a commit record. WAL rather than a rollback journal because the app reads
//! progress while a worker records answers, and in WAL readers and the writer do not block each other.

use std::path::Path;

use rusqlite::{Connection, OpenFlags};

use super::error::StudyError;

/// `PRAGMA application_id` of a study history: "SHKS".
pub(crate) const APPLICATION_ID: i64 = 0x5348_4b53;
/// The schema version this program writes (and the newest it reads).
pub(crate) const VERSION: i64 = 1;

/// The tables of version 1.
const SCHEMA_V1: &str = "
CREATE TABLE cards (
    id INTEGER PRIMARY KEY,
    deck TEXT NOT NULL,
    position TEXT NOT NULL,
    side INTEGER NOT NULL,
    expected TEXT NOT NULL,
    best TEXT NOT NULL,
    created INTEGER NOT NULL,
    due INTEGER NOT NULL,
    stability REAL NOT NULL,
    difficulty REAL NOT NULL,
    elapsed_days INTEGER NOT NULL,
    scheduled_days INTEGER NOT NULL,
    reps INTEGER NOT NULL,
    lapses INTEGER NOT NULL,
    state INTEGER NOT NULL,
    last_review INTEGER,
    UNIQUE (deck, position)
);
CREATE INDEX cards_due ON cards(deck, due);
CREATE TABLE card_reviews (
    id INTEGER PRIMARY KEY,
    card INTEGER NOT NULL REFERENCES cards(id) ON DELETE CASCADE,
    time INTEGER NOT NULL,
    answer INTEGER NOT NULL,
    correct INTEGER NOT NULL
);
CREATE INDEX card_reviews_time ON card_reviews(time);
CREATE INDEX card_reviews_card ON card_reviews(card);
CREATE TABLE quiz_answers (
    id INTEGER PRIMARY KEY,
    time INTEGER NOT NULL,
    position TEXT NOT NULL,
    empties INTEGER NOT NULL,
    answer TEXT NOT NULL,
    correct INTEGER NOT NULL,
    points INTEGER NOT NULL,
    difficulty REAL NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL
);
CREATE INDEX quiz_answers_time ON quiz_answers(time);
";

/// Opens the study history at `path`, creating it if it does not exist and bringing an older schema up to date.
///
/// # Errors
/// [`StudyError::Open`], [`StudyError::NotAStudyFile`], [`StudyError::UnsupportedVersion`] or
/// [`StudyError::Database`].
pub(crate) fn open(path: &Path) -> Result<Connection, StudyError> {
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_CREATE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(path, flags)
        .map_err(|source| StudyError::Open { path: path.to_owned(), source })?;
    let db = |what: &'static str| move |source| StudyError::Database { path: path.to_owned(), what, source };
    let not_study = || StudyError::NotAStudyFile { path: path.to_owned() };
    // A file that is not a database fails here, at its first read.
    let id: i64 = conn.query_row("PRAGMA application_id", [], |row| row.get(0)).map_err(|_| not_study())?;
    let version: i64 = conn.query_row("PRAGMA user_version", [], |row| row.get(0)).map_err(db("read the version"))?;
    let tables: i64 =
        conn.query_row("SELECT count(*) FROM sqlite_master", [], |row| row.get(0)).map_err(db("read the tables"))?;
    let fresh = id == 0 && version == 0 && tables == 0;
    if !fresh && id != APPLICATION_ID {
        return Err(not_study());
    }
    if version > VERSION {
        return Err(StudyError::UnsupportedVersion { path: path.to_owned(), found: version, supported: VERSION });
    }
    conn.busy_timeout(std::time::Duration::from_secs(5)).map_err(db("set the busy timeout"))?;
    conn.execute_batch("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;")
        .map_err(db("set the journal mode"))?;
    if fresh {
        conn.execute_batch(&format!(
            "BEGIN IMMEDIATE; {SCHEMA_V1} PRAGMA application_id = {APPLICATION_ID}; PRAGMA user_version = {VERSION}; \
             COMMIT;"
        ))
        .map_err(db("create the tables"))?;
    }
    // Later versions add their migrations here, each `BEGIN IMMEDIATE; …; PRAGMA user_version = n; COMMIT;` for
    // `version < n`.
    Ok(conn)
}
