//! What can go wrong with the study history: [`StudyError`].

use std::path::PathBuf;

/// Why a study store operation failed. Every error names the file; an answer that fails to record leaves the store
/// as it was (each answer is one transaction).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StudyError {
    /// The file could not be opened or created.
    #[error("cannot open the study history {}: {source}", .path.display())]
    Open {
        /// The file.
        path: PathBuf,
        /// What SQLite said.
        source: rusqlite::Error,
    },
    /// The file is another SQLite database, or not a database.
    #[error("{} is not a Shirokuro study history", .path.display())]
    NotAStudyFile {
        /// The file.
        path: PathBuf,
    },
    /// A study history written by a newer version of the program.
    #[error("{} is a study history of version {found}; this program reads versions up to {supported}", .path.display())]
    UnsupportedVersion {
        /// The file.
        path: PathBuf,
        /// Its version.
        found: i64,
        /// The newest version this program reads and writes.
        supported: i64,
    },
    /// A database operation failed (a full disk, a locked or read-only file, …).
    #[error("study history {}: {what}: {source}", .path.display())]
    Database {
        /// The file.
        path: PathBuf,
        /// What was being done.
        what: &'static str,
        /// What SQLite said.
        source: rusqlite::Error,
    },
    /// A stored value cannot be read (a bad position or move text, an unknown code).
    #[error("study history {} is damaged: {what}", .path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        what: String,
    },
    /// An answer for a card that the store does not hold.
    #[error("study history {}: no card {id}", .path.display())]
    UnknownCard {
        /// The file.
        path: PathBuf,
        /// The card id asked for.
        id: i64,
    },
}
