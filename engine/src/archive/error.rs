//! What can go wrong with an archive: [`ArchiveError`].

use std::io;
use std::path::PathBuf;

use crate::format::WthorError;
use crate::protocol::ggf::GgfError;

/// Why an archive operation failed. An import that fails leaves the archive as it was.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ArchiveError {
    /// The archive file could not be opened or created.
    #[error("cannot open the archive {}: {source}", .path.display())]
    Open {
        /// The archive file.
        path: PathBuf,
        /// What SQLite said.
        source: rusqlite::Error,
    },
    /// [`Archive::create`](super::Archive::create) on a path that exists.
    #[error("{} already exists", .path.display())]
    Exists {
        /// The path.
        path: PathBuf,
    },
    /// The file is not a Shirokuro game archive (another SQLite database, or not a database).
    #[error("{} is not a Shirokuro game archive", .path.display())]
    NotAnArchive {
        /// The file.
        path: PathBuf,
    },
    /// An archive written by a newer version of the program.
    #[error("{} is a game archive of version {found}; this program reads version {supported}", .path.display())]
    UnsupportedVersion {
        /// The file.
        path: PathBuf,
        /// Its version.
        found: i64,
        /// The version this program reads and writes.
        supported: i64,
    },
    /// A database operation failed (a full disk, a file changed under us, …).
    #[error("archive database: {0}")]
    Database(#[from] rusqlite::Error),
    /// The archive's data is inconsistent.
    #[error("the archive is damaged: {0}")]
    Corrupt(String),
    /// An input file could not be read.
    #[error("cannot read {}: {source}", .path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: io::Error,
    },
    /// An input file whose kind is not recognised, or that holds no games.
    #[error("{}: {reason}", .path.display())]
    UnsupportedFile {
        /// The file.
        path: PathBuf,
        /// Why it cannot be imported.
        reason: String,
    },
    /// A WTHOR file whose structure is broken (a bad header, a length that does not match its game count).
    #[error("{}: {source}", .path.display())]
    Wthor {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        source: WthorError,
    },
    /// A GGF file in which no game could be found.
    #[error("{}: {source}", .path.display())]
    Ggf {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        source: GgfError,
    },
    /// The stop flag was raised: the import was abandoned and the archive left as it was.
    #[error("stopped; the archive is unchanged")]
    Stopped,
}
