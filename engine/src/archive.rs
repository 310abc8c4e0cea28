//! The game archive: an indexed local collection of Othello game records, to show for any position what was played
//! in real games, how those games ended, and which games they were.
//!
//! Games come from WTHOR files (the Fédération Française d'Othello's database, with its player and tournament names),
//! GGF files and text records (one game per line); see [`Archive::import`]. Every position of every game is indexed by
//! its canonical form over the 8 symmetries of the board and the colour to move, so a position reached in another
//! orientation counts, and the moves come back in the caller's orientation ([`Archive::lookup`]).
//!
//! The archive is one SQLite file (docs/archive.md gives the tables and why SQLite): games with their names, a
//! posting list per position (the games through it, newest first, with the move each played next), and per-move,
//! per-year totals for the positions of many games, so that even the initial position answers in a few
//! milliseconds.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use shirokuro_engine::archive::{Archive, Filter};
//! use shirokuro_engine::{Move, Position, Square};
//! # let dir = tempfile::tempdir().unwrap();
//! let records = dir.path().join("games.csv"); // eOthello's layout: id,winner,moves
//! std::fs::write(&records, "1,1,f5d6c3\n2,-1,f5d6c5\n3,0,f5f6e6\n").unwrap();
//! let mut archive = Archive::create(dir.path().join("games.sqlite")).unwrap();
//! let report = archive.import(&[records], |_| {}, &AtomicBool::new(false)).unwrap();
//! assert_eq!(report.added, 3);
//! let after_f5 = Position::INITIAL.play(Move::Place(Square::F5)).unwrap();
//! let lookup = archive.lookup(&after_f5, &Filter::default(), 10).unwrap();
//! assert_eq!(lookup.total_games, 3);
//! assert_eq!((lookup.moves[0].mv, lookup.moves[0].games), (Move::Place(Square::D6), 2));
//! ```
#![deny(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::cast_possible_truncation,
    reason = "reads files and a database that may be damaged: every access is checked, every failure is an error value"
)]

mod error;
mod ggf;
mod import;
mod key;
mod lookup;
mod new_game;
mod schema;
mod source;
mod store;
mod types;
mod write;

use std::path::{Path, PathBuf};

use rusqlite::Connection;

pub use error::ArchiveError;
pub use types::{
    ArchiveStats, ArchivedGame, Filter, GameId, GameSummary, ImportProgress, ImportReport, ImportStage, Lookup,
    MoveStats, Skipped,
};

/// An open game archive (one SQLite file). Not `Sync`: keep it on one thread (a worker) and send it requests.
#[derive(Debug)]
pub struct Archive {
    conn: Connection,
    path: PathBuf,
}

impl Archive {
    /// Opens an existing archive.
    ///
    /// # Errors
    /// [`ArchiveError::Open`] if the file cannot be opened, [`ArchiveError::NotAnArchive`] if it is not an archive,
    /// [`ArchiveError::UnsupportedVersion`] if a newer program wrote it.
    pub fn open(path: impl AsRef<Path>) -> Result<Archive, ArchiveError> {
        let path = path.as_ref();
        Ok(Archive { conn: schema::open(path)?, path: path.to_owned() })
    }

    /// Creates a new, empty archive.
    ///
    /// # Errors
    /// [`ArchiveError::Exists`] if the path exists; [`ArchiveError::Open`] or [`ArchiveError::Database`] if the
    /// file cannot be made.
    pub fn create(path: impl AsRef<Path>) -> Result<Archive, ArchiveError> {
        let path = path.as_ref();
        Ok(Archive { conn: schema::create(path)?, path: path.to_owned() })
    }

    /// Opens the archive, or creates it if the path does not exist.
    ///
    /// # Errors
    /// As [`Archive::open`] and [`Archive::create`].
    pub fn open_or_create(path: impl AsRef<Path>) -> Result<Archive, ArchiveError> {
        let path = path.as_ref();
        if path.exists() { Archive::open(path) } else { Archive::create(path) }
    }

    /// The archive's file.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// What the archive holds.
    ///
    /// # Errors
    /// [`ArchiveError::Database`] or [`ArchiveError::Corrupt`].
    pub fn stats(&self) -> Result<ArchiveStats, ArchiveError> {
        let meta = schema::Meta::read(&self.conn)?;
        let count = |table: &str| -> Result<u64, ArchiveError> {
            let n: i64 = self.conn.query_row(&format!("SELECT count(*) FROM {table}"), [], |row| row.get(0))?;
            Ok(u64::try_from(n).unwrap_or(0))
        };
        let page_count: i64 = self.conn.query_row("PRAGMA page_count", [], |row| row.get(0))?;
        let page_size: i64 = self.conn.query_row("PRAGMA page_size", [], |row| row.get(0))?;
        let file_bytes = std::fs::metadata(&self.path).map_or_else(
            |_| u64::try_from(page_count.saturating_mul(page_size)).unwrap_or(0),
            |metadata| metadata.len(),
        );
        Ok(ArchiveStats {
            games: meta.games,
            positions: meta.positions,
            players: count("players")?,
            tournaments: count("tournaments")?,
            sources: count("sources")?,
            years: (meta.year_min != 0).then_some((meta.year_min, meta.year_max)),
            file_bytes,
        })
    }

    /// One game, to replay it or load it on a board; `None` if the archive has no game with this id.
    ///
    /// # Errors
    /// [`ArchiveError::Database`] or [`ArchiveError::Corrupt`].
    pub fn game(&self, id: GameId) -> Result<Option<ArchivedGame>, ArchiveError> {
        store::load_game(&self.conn, id.0)
    }
}
