//! Crash-safe file saving shared by every writer of user data: [`save_atomically`] writes a temporary file next to the
//! target, syncs it, keeps the previous file as `<name>.bak`, and renames the new file over the target, so a reader
//! (or a crash at any moment) sees either the old or the new file, never a partial one.

use std::ffi::OsString;
use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The steps of [`save_atomically`], named so that a failure says which one failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
pub enum SaveStep {
    /// The path was checked (it must name a file).
    #[error("checking the path")]
    CheckPath,
    /// The new content was written to the temporary file next to the target and synced.
    #[error("writing the temporary file")]
    WriteTemporary,
    /// The previous file was kept as `<name>.bak`.
    #[error("keeping the previous file as .bak")]
    KeepBackup,
    /// The temporary file was renamed over the target.
    #[error("renaming the temporary file")]
    Rename,
}

/// What the system said when a file operation failed: its kind (which a user interface words in its own language)
/// and its own message. Unlike [`io::Error`] it can be cloned and compared, so typed errors that carry it can be too.
#[derive(Debug, Clone, PartialEq, Eq, Hash, thiserror::Error)]
#[error("{message}")]
pub struct IoFailure {
    /// The kind of failure.
    pub kind: io::ErrorKind,
    /// The system's message (in English on most systems).
    pub message: String,
}

impl From<&io::Error> for IoFailure {
    fn from(error: &io::Error) -> IoFailure {
        IoFailure { kind: error.kind(), message: error.to_string() }
    }
}

impl From<io::Error> for IoFailure {
    fn from(error: io::Error) -> IoFailure {
        IoFailure::from(&error)
    }
}

/// A step of [`save_atomically`] failed.
#[derive(Debug, thiserror::Error)]
#[error("cannot save {}: {step} failed: {source}", path.display())]
pub struct SaveError {
    /// The file being saved.
    pub path: PathBuf,
    /// The step that failed.
    pub step: SaveStep,
    /// The I/O error.
    #[source]
    pub source: io::Error,
}

/// Whether [`save_atomically`] keeps the file it replaces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backup {
    /// Keep the previous file as `<name>.bak` (replacing an older backup).
    Keep,
    /// Replace the previous file without a backup.
    None,
}

/// The path of the backup [`save_atomically`] keeps for `path`: the same name with `.bak` appended.
#[must_use]
pub fn backup_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().map_or_else(OsString::new, ToOwned::to_owned);
    name.push(".bak");
    path.with_file_name(name)
}

/// Saves a file atomically: `write` fills a new temporary file in the same directory (buffered), which is synced to
/// disk; then the previous file (if any) becomes `<name>.bak` when `backup` says so, and the temporary file is renamed
/// over `path`. On any error the temporary file is removed and `path` is untouched.
///
/// # Errors
/// [`SaveError`] naming the step that failed (an error returned by `write` is reported as "writing the temporary
/// file").
pub fn save_atomically(
    path: &Path,
    backup: Backup,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), SaveError> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let error = |step: SaveStep| move |source| SaveError { path: path.to_owned(), step, source };
    let name = path.file_name().ok_or_else(|| {
        error(SaveStep::CheckPath)(io::Error::new(io::ErrorKind::InvalidInput, "the path has no file name"))
    })?;
    let dir = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let mut tmp_name = OsString::from(".");
    tmp_name.push(name);
    // Unique per process and call, so concurrent saves and stale files of a crashed run never collide.
    let call = COUNTER.fetch_add(1, Ordering::Relaxed);
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
    tmp_name.push(format!(".tmp-{}-{call}-{nanos}", std::process::id()));
    let tmp = dir.join(tmp_name);

    let result = write_synced(&tmp, write).map_err(error(SaveStep::WriteTemporary)).and_then(|()| {
        if backup == Backup::Keep && path.exists() {
            keep_backup(path, &backup_path(path)).map_err(error(SaveStep::KeepBackup))?;
        }
        fs::rename(&tmp, path).map_err(error(SaveStep::Rename))
    });
    if result.is_err() {
        let _ignored = fs::remove_file(&tmp);
        return result;
    }
    sync_dir(dir);
    Ok(())
}

/// Creates `path` (which must not exist), lets `write` fill it and syncs it to disk.
fn write_synced(path: &Path, write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> io::Result<()> {
    let file = File::options().write(true).create_new(true).open(path)?;
    let mut out = BufWriter::with_capacity(1 << 20, file);
    write(&mut out)?;
    let file = out.into_inner().map_err(io::IntoInnerError::into_error)?;
    file.sync_all()
}

/// Makes `bak` a copy of `path` (a hard link where possible), replacing an older `bak`.
fn keep_backup(path: &Path, bak: &Path) -> io::Result<()> {
    match fs::remove_file(bak) {
        Err(error) if error.kind() != io::ErrorKind::NotFound => return Err(error),
        _ => {}
    }
    if fs::hard_link(path, bak).is_err() {
        let _copied = fs::copy(path, bak)?;
        File::open(bak)?.sync_all()?;
    }
    Ok(())
}

/// Syncs a directory so that a rename in it is durable (best effort: not every platform can open directories).
fn sync_dir(dir: &Path) {
    if let Ok(handle) = File::open(dir) {
        let _ignored = handle.sync_all();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("shirokuro-fsutil-{tag}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn saves_keeps_a_backup_and_leaves_no_temporary_file() {
        let dir = temp_dir("save");
        let path = dir.join("book.egbk3");
        save_atomically(&path, Backup::Keep, |w| w.write_all(b"first")).unwrap();
        assert!(!backup_path(&path).exists());
        save_atomically(&path, Backup::Keep, |w| w.write_all(b"second")).unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"second");
        assert_eq!(fs::read(backup_path(&path)).unwrap(), b"first");
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 2);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_failing_writer_leaves_the_old_file_untouched() {
        let dir = temp_dir("fail");
        let path = dir.join("book.dat");
        save_atomically(&path, Backup::None, |w| w.write_all(b"old")).unwrap();
        let error = save_atomically(&path, Backup::Keep, |w| {
            w.write_all(b"partial")?;
            Err(io::Error::other("stopped"))
        })
        .unwrap_err();
        assert_eq!(error.step, SaveStep::WriteTemporary);
        assert_eq!(fs::read(&path).unwrap(), b"old");
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 1);
        fs::remove_dir_all(&dir).unwrap();
    }
}
