//! An advisory lock that keeps two long runs (two `book deviate` on one book) from writing the same file: the second
//! would otherwise replace the first one's saves with its own and silently drop what the first learned.
//!
//! The lock is taken on a separate file, `<name>.lock` beside the real file ([`lock_path`]), not on the file itself:
//! every atomic save renames a new file over the old one, so a lock on the file's inode would vanish at the first
//! save. The lock file is left in place when the lock is released: removing it would let a run that opened the old
//! one and a run that creates a new one both hold "the" lock. It holds the process id of the holder, for the message
//! of a run that is refused.
//!
//! The lock is the operating system's (`flock` on Unix, `LockFileEx` on Windows, through [`File::try_lock`]): it is
//! released when the process ends, however it ends, so a killed run never leaves a stale lock behind.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::real_file;

/// The lock file of `path`: `<name>.lock` beside the file its symbolic links lead to (so two links to one book share
/// one lock).
#[must_use]
pub fn lock_path(path: &Path) -> PathBuf {
    let file = real_file(path).unwrap_or_else(|_| path.to_owned());
    let mut name = file.file_name().map_or_else(Default::default, ToOwned::to_owned);
    name.push(".lock");
    file.with_file_name(name)
}

/// Taking a [`FileLock`] failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LockError {
    /// Another run holds the lock.
    #[error(
        "{} is being written by another run ({}holds {}); wait for it to end or stop it, then run this again",
        file.display(),
        holder.map(|pid| format!("process {pid}, which ")).unwrap_or_else(|| "which ".to_owned()),
        lock.display()
    )]
    Held {
        /// The file locked.
        file: PathBuf,
        /// The lock file.
        lock: PathBuf,
        /// The holder's process id, when the lock file says.
        holder: Option<u32>,
    },
    /// The file system has no locks (some network file systems).
    #[error("cannot lock {}: the file system has no locks", file.display())]
    Unsupported {
        /// The file locked.
        file: PathBuf,
    },
    /// The lock file cannot be opened or locked.
    #[error("cannot lock {} (through {}): {source}", file.display(), lock.display())]
    Io {
        /// The file locked.
        file: PathBuf,
        /// The lock file.
        lock: PathBuf,
        /// What the system said.
        #[source]
        source: io::Error,
    },
}

/// An exclusive advisory lock on a file being written, held until it is dropped (or the process ends). Only programs
/// that take it too are kept out: the book commands of the CLI do.
#[derive(Debug)]
pub struct FileLock {
    /// The open lock file (the lock lives as long as it is open).
    file: File,
    /// The file locked.
    locked: PathBuf,
}

impl FileLock {
    /// Locks `path` for writing, or fails at once when another run holds it (nothing waits).
    ///
    /// # Errors
    /// [`LockError::Held`] when another run holds it; [`LockError::Unsupported`] or [`LockError::Io`] otherwise.
    pub fn try_lock(path: &Path) -> Result<FileLock, LockError> {
        let lock = lock_path(path);
        let io = |source| LockError::Io { file: path.to_owned(), lock: lock.clone(), source };
        // Not truncated on opening: the holder's process id is in it until the lock is ours.
        let mut file = File::options().read(true).write(true).create(true).truncate(false).open(&lock).map_err(io)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(fs::TryLockError::WouldBlock) => {
                let holder = fs::read_to_string(&lock).ok().and_then(|text| text.trim().parse().ok());
                return Err(LockError::Held { file: path.to_owned(), lock, holder });
            }
            Err(fs::TryLockError::Error(error)) if error.kind() == io::ErrorKind::Unsupported => {
                return Err(LockError::Unsupported { file: path.to_owned() });
            }
            Err(fs::TryLockError::Error(error)) => return Err(io(error)),
        }
        // Who holds it, for the message of a run that is refused (best effort: the lock does not depend on it).
        if file.set_len(0).is_ok() {
            let _ignored = writeln!(file, "{}", std::process::id());
        }
        Ok(FileLock { file, locked: path.to_owned() })
    }

    /// The file locked (as given).
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.locked
    }
}

impl Drop for FileLock {
    fn drop(&mut self) {
        // Closing the file releases the lock too; unlocking first says so explicitly.
        let _ignored = self.file.unlock();
    }
}
