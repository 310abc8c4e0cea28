//! The archive's tables, opening and creating the file, and its counters.
//!
//! The file is an SQLite database marked with `PRAGMA application_id` = `0x53484B41` ("SHKA") and
//! `PRAGMA user_version` = [`VERSION`]; the tables are in [`SCHEMA`] and described in docs/archive.md.

use std::path::Path;

use rusqlite::{Connection, OpenFlags, OptionalExtension};

use super::error::ArchiveError;

/// `PRAGMA application_id` of an archive: "SHKA".
pub(crate) const APPLICATION_ID: i64 = 0x5348_4b41;
/// The version of the tables this program reads and writes.
pub(crate) const VERSION: i64 = 1;

/// The tables (see docs/archive.md).
pub(crate) const SCHEMA: &str = "
CREATE TABLE players (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE tournaments (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE sources (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    black INTEGER,
    white INTEGER,
    tournament INTEGER,
    year INTEGER,
    black_diff INTEGER,
    winner INTEGER,
    recorded_black_discs INTEGER,
    theoretical_black_discs INTEGER,
    source INTEGER NOT NULL,
    start BLOB,
    moves BLOB NOT NULL,
    digest INTEGER NOT NULL
);
CREATE INDEX games_black ON games(black) WHERE black IS NOT NULL;
CREATE INDEX games_white ON games(white) WHERE white IS NOT NULL;
CREATE TABLE positions (key INTEGER PRIMARY KEY, postings BLOB NOT NULL);
CREATE TABLE position_moves (
    key INTEGER NOT NULL,
    mv INTEGER NOT NULL,
    year INTEGER NOT NULL,
    games INTEGER NOT NULL,
    black_wins INTEGER NOT NULL,
    draws INTEGER NOT NULL,
    white_wins INTEGER NOT NULL,
    diff_sum INTEGER NOT NULL,
    diff_games INTEGER NOT NULL,
    PRIMARY KEY (key, mv, year)
) WITHOUT ROWID;
CREATE TABLE meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
INSERT INTO meta (name, value) VALUES ('games', 0), ('positions', 0), ('year_min', 0), ('year_max', 0);
";

/// Settings for every connection: a 64 MiB page cache, temporary data in memory.
const PRAGMAS: &str = "PRAGMA cache_size = -65536; PRAGMA temp_store = MEMORY;";

/// Opens an existing archive.
///
/// # Errors
/// [`ArchiveError::Open`], [`ArchiveError::NotAnArchive`] or [`ArchiveError::UnsupportedVersion`].
pub(crate) fn open(path: &Path) -> Result<Connection, ArchiveError> {
    let open_error = |source| ArchiveError::Open { path: path.to_owned(), source };
    let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX)
        .map_err(open_error)?;
    let not_archive = || ArchiveError::NotAnArchive { path: path.to_owned() };
    let id: i64 = conn.query_row("PRAGMA application_id", [], |row| row.get(0)).map_err(|_| not_archive())?;
    if id != APPLICATION_ID {
        return Err(not_archive());
    }
    let version: i64 = conn.query_row("PRAGMA user_version", [], |row| row.get(0))?;
    if version != VERSION {
        return Err(ArchiveError::UnsupportedVersion { path: path.to_owned(), found: version, supported: VERSION });
    }
    conn.execute_batch(PRAGMAS)?;
    Ok(conn)
}

/// Creates a new archive (the path must not exist).
///
/// # Errors
/// [`ArchiveError::Exists`], [`ArchiveError::Open`] or [`ArchiveError::Database`].
pub(crate) fn create(path: &Path) -> Result<Connection, ArchiveError> {
    if path.exists() {
        return Err(ArchiveError::Exists { path: path.to_owned() });
    }
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_CREATE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(path, flags)
        .map_err(|source| ArchiveError::Open { path: path.to_owned(), source })?;
    conn.execute_batch(PRAGMAS)?;
    conn.execute_batch(&format!(
        "BEGIN; {SCHEMA} PRAGMA application_id = {APPLICATION_ID}; PRAGMA user_version = {VERSION}; COMMIT;"
    ))?;
    Ok(conn)
}

/// The archive's counters (kept in `meta`, so that statistics need no scan).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Meta {
    pub games: u64,
    pub positions: u64,
    /// Oldest and newest year, 0 when no game has one.
    pub year_min: u16,
    pub year_max: u16,
}

impl Meta {
    /// Reads the counters.
    ///
    /// # Errors
    /// [`ArchiveError::Database`], or [`ArchiveError::Corrupt`] for a missing or negative counter.
    pub fn read(conn: &Connection) -> Result<Meta, ArchiveError> {
        let get = |name: &str| -> Result<i64, ArchiveError> {
            conn.query_row("SELECT value FROM meta WHERE name = ?1", [name], |row| row.get(0))
                .optional()?
                .ok_or_else(|| ArchiveError::Corrupt(format!("the counter {name} is missing")))
        };
        let count = |name: &str| -> Result<u64, ArchiveError> {
            u64::try_from(get(name)?).map_err(|_| ArchiveError::Corrupt(format!("the counter {name} is negative")))
        };
        let year = |name: &str| -> Result<u16, ArchiveError> { Ok(u16::try_from(get(name)?).unwrap_or(0)) };
        Ok(Meta {
            games: count("games")?,
            positions: count("positions")?,
            year_min: year("year_min")?,
            year_max: year("year_max")?,
        })
    }

    /// Writes the counters.
    ///
    /// # Errors
    /// [`ArchiveError::Database`].
    pub fn write(&self, conn: &Connection) -> Result<(), ArchiveError> {
        let mut statement = conn.prepare_cached("UPDATE meta SET value = ?2 WHERE name = ?1")?;
        let as_i64 = |v: u64| i64::try_from(v).unwrap_or(i64::MAX);
        for (name, value) in [
            ("games", as_i64(self.games)),
            ("positions", as_i64(self.positions)),
            ("year_min", i64::from(self.year_min)),
            ("year_max", i64::from(self.year_max)),
        ] {
            let _changed = statement.execute(rusqlite::params![name, value])?;
        }
        Ok(())
    }

    /// Widens the year range to take in `year`.
    pub fn add_year(&mut self, year: u16) {
        if self.year_min == 0 || year < self.year_min {
            self.year_min = year;
        }
        self.year_max = self.year_max.max(year);
    }
}
