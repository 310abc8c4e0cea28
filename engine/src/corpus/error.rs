//! What can go wrong with a corpus, each error naming the file (and the game) concerned.

use std::path::PathBuf;

use super::format::{HeaderError, RecordError};
use crate::fsutil::{IoFailure, SaveError};
use crate::tools::arena::ArenaError;

/// What was being done with a file when the system refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum FileStep {
    /// Creating the corpus folder.
    #[error("create the folder")]
    CreateFolder,
    /// Listing the corpus folder.
    #[error("list the folder")]
    List,
    /// Reading a batch.
    #[error("read")]
    Read,
    /// Creating or opening the batch being played.
    #[error("open for writing")]
    Open,
    /// Appending games to the batch being played, or syncing them to disk.
    #[error("append to")]
    Append,
    /// Cutting damaged games off the end of the batch being played.
    #[error("truncate")]
    Truncate,
    /// Removing the batch being played once it is finished.
    #[error("remove")]
    Remove,
}

/// A corpus operation that failed.
#[derive(Debug, thiserror::Error)]
pub enum CorpusError {
    /// The system refused a file operation.
    #[error("cannot {step} {}: {failure}", path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// What was being done.
        step: FileStep,
        /// What the system said.
        failure: IoFailure,
    },
    /// A batch's header is damaged.
    #[error("{}: {reason}", path.display())]
    Header {
        /// The batch file.
        path: PathBuf,
        /// What is wrong.
        reason: HeaderError,
    },
    /// A finished batch holds a damaged game.
    #[error("{}: game {ordinal} (byte {offset} after the header): {reason}", path.display())]
    Record {
        /// The batch file.
        path: PathBuf,
        /// The 1-based position of the record in the file.
        ordinal: usize,
        /// Where it starts, counted from the end of the header.
        offset: usize,
        /// What is wrong.
        reason: RecordError,
    },
    /// A finished batch does not hold each of its games exactly once.
    #[error("{}: {problem}", path.display())]
    Games {
        /// The batch file.
        path: PathBuf,
        /// What is wrong.
        problem: GamesProblem,
    },
    /// A batch was played another way than the rest of the corpus, or than the options given.
    #[error(
        "{} was played with {key} {found}, not {wanted}: a corpus folder holds one series (use another folder for \
         other settings)",
        path.display()
    )]
    Mismatch {
        /// The batch file.
        path: PathBuf,
        /// The header key that differs.
        key: &'static str,
        /// Its value in the file.
        found: String,
        /// The value wanted.
        wanted: String,
    },
    /// A finished batch could not be saved.
    #[error(transparent)]
    Save(#[from] SaveError),
    /// The pool of threads to play on could not be started.
    #[error("cannot start the threads to play on: {0}")]
    Threads(String),
    /// Every batch number is taken (4,294,967,296 batches).
    #[error("the corpus has no batch number left")]
    Full,
    /// A game could not be played.
    #[error("playing game {index} of batch {batch}: {source}")]
    Play {
        /// The batch.
        batch: u32,
        /// The game's index.
        index: u32,
        /// Why.
        #[source]
        source: ArenaError,
    },
}

/// How a finished batch's games fail to be the batch's games, each once.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GamesProblem {
    /// A game index at or beyond the batch's size.
    #[error("game index {index} is beyond the batch's {games} games")]
    OutOfRange {
        /// The index.
        index: u32,
        /// The batch's size.
        games: u32,
    },
    /// The same game twice.
    #[error("game index {0} appears twice")]
    Repeated(u32),
    /// Games missing from a finished batch.
    #[error("{found} games where there should be {games}")]
    Missing {
        /// Games found.
        found: usize,
        /// The batch's size.
        games: u32,
    },
}

impl CorpusError {
    /// An I/O error on `path` while doing `step`.
    pub(super) fn io(path: impl Into<PathBuf>, step: FileStep) -> impl FnOnce(std::io::Error) -> CorpusError {
        let path = path.into();
        move |error| CorpusError::Io { path, step, failure: IoFailure::from(&error) }
    }
}
