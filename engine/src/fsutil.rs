//! Crash-safe file saving shared by every writer of user data. [`save_atomically`] (and [`save`], which also says
//! what it did) promises:
//! - **atomic**: the new content goes to a temporary file next to the target, is synced, and is renamed over the
//!   target, so a reader (or a crash at any moment) sees either the old or the new file, never a partial one;
//! - **a backup**: with [`Backup::Keep`] the previous file stays as `<name>.bak`;
//! - **links and permissions kept**: a symbolic link is followed and the file it leads to is replaced (the link stays
//!   a link); the new file gets the previous file's permissions (and, where allowed, its owner);
//! - **no clobbering**: a read-only file (its permissions protect it) and anything that is not a regular file (a
//!   folder, a FIFO, a device) are refused with a [`Refusal`], and left alone;
//! - **no litter**: the temporary files of earlier saves of the same file that were killed part-way are removed
//!   ([`leftover`]).
//!
//! [`check_writable`] runs the same checks before a long run starts, [`FileLock`] keeps two long runs from writing
//! the same file, and [`save_rescue`] writes what could not be saved to a new file nearby.

use std::ffi::{OsStr, OsString};
use std::fs::{self, File, Metadata};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

pub mod leftover;
mod lock;
#[cfg(test)]
mod tests;

pub use lock::{FileLock, LockError, lock_path};

/// The steps of [`save_atomically`], named so that a failure says which one failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
pub enum SaveStep {
    /// The path was checked: it must name a regular file that is not read-only, or nothing yet.
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

/// What a path names when it is not a regular file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NodeKind {
    /// A folder.
    Directory,
    /// A named pipe.
    Fifo,
    /// A block or character device.
    Device,
    /// A Unix socket.
    Socket,
    /// Anything else that is not a regular file.
    Other,
}

impl NodeKind {
    fn of(file_type: fs::FileType) -> NodeKind {
        if file_type.is_dir() {
            return NodeKind::Directory;
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt;
            if file_type.is_fifo() {
                return NodeKind::Fifo;
            }
            if file_type.is_block_device() || file_type.is_char_device() {
                return NodeKind::Device;
            }
            if file_type.is_socket() {
                return NodeKind::Socket;
            }
        }
        NodeKind::Other
    }
}

impl std::fmt::Display for NodeKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            NodeKind::Directory => "a folder",
            NodeKind::Fifo => "a named pipe (FIFO)",
            NodeKind::Device => "a device",
            NodeKind::Socket => "a socket",
            NodeKind::Other => "something other than a file",
        })
    }
}

/// Why [`save_atomically`] or [`check_writable`] refuses a destination before writing anything. It travels as the
/// inner error of [`SaveError::source`] (see [`SaveError::refusal`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum Refusal {
    /// The file's permissions say read-only: a user's protection, which a save does not override.
    #[error("the file is read-only (its permissions protect it); make it writable to save over it")]
    ReadOnly,
    /// The path names a folder, a FIFO, a device … which a save would replace or block on.
    #[error("it is {0}, not a regular file")]
    NotAFile(NodeKind),
    /// Symbolic links lead to each other without end.
    #[error("its symbolic links lead to each other without end")]
    LinkLoop,
    /// The path ends in no file name (`..`, `/`).
    #[error("the path has no file name")]
    NoFileName,
}

impl Refusal {
    fn into_io(self) -> io::Error {
        let kind = match self {
            Refusal::ReadOnly => io::ErrorKind::PermissionDenied,
            Refusal::NotAFile(NodeKind::Directory) => io::ErrorKind::IsADirectory,
            Refusal::NotAFile(_) | Refusal::LinkLoop | Refusal::NoFileName => io::ErrorKind::InvalidInput,
        };
        io::Error::new(kind, self)
    }
}

/// A step of [`save_atomically`] failed.
#[derive(Debug, thiserror::Error)]
#[error("cannot save {}: {step} failed: {source}", path.display())]
pub struct SaveError {
    /// The file being saved (as it was given, before links are followed).
    pub path: PathBuf,
    /// The step that failed.
    pub step: SaveStep,
    /// The I/O error; a [`Refusal`] inside one for a destination refused on purpose.
    #[source]
    pub source: io::Error,
}

impl SaveError {
    /// The reason when the destination was refused on purpose (read-only, not a file …) rather than failing.
    #[must_use]
    pub fn refusal(&self) -> Option<&Refusal> {
        self.source.get_ref().and_then(|inner| inner.downcast_ref::<Refusal>())
    }
}

/// Whether [`save_atomically`] keeps the file it replaces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backup {
    /// Keep the previous file as `<name>.bak` (replacing an older backup).
    Keep,
    /// Replace the previous file without a backup (an older `.bak` stays as it is: a long run's later autosaves use
    /// this, so that the `.bak` stays the file as it was before the run).
    None,
}

/// What [`save`] did besides writing the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Saved {
    /// The file written: the path given, or the file its symbolic links lead to.
    pub file: PathBuf,
    /// Temporary files of earlier saves of this file, killed part-way, that were removed.
    pub leftovers_removed: usize,
}

/// The path of the backup [`save_atomically`] keeps for `path`: the same name with `.bak` appended.
#[must_use]
pub fn backup_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().map_or_else(OsString::new, ToOwned::to_owned);
    name.push(".bak");
    path.with_file_name(name)
}

/// Symbolic links followed at most before [`real_file`] gives up (Linux's own limit).
const MAX_LINKS: usize = 40;

/// The file `path` names once its symbolic links (of the last component) are followed, whether or not that file
/// exists yet; `path` itself when it is not a link. A relative link is read from the link's folder.
///
/// # Errors
/// The system's error reading a link, or [`Refusal::LinkLoop`].
pub fn real_file(path: &Path) -> io::Result<PathBuf> {
    let mut current = path.to_owned();
    for _ in 0..MAX_LINKS {
        match fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let target = fs::read_link(&current)?;
                current = match current.parent() {
                    Some(dir) if target.is_relative() => dir.join(target),
                    _ => target,
                };
            }
            Ok(_) => return Ok(current),
            Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(current),
            Err(error) => return Err(error),
        }
    }
    Err(Refusal::LinkLoop.into_io())
}

/// A checked destination: the real file, its folder and name, and the file there now (if any).
struct Destination {
    file: PathBuf,
    dir: PathBuf,
    name: OsString,
    previous: Option<Metadata>,
}

/// Follows `path`'s links and checks what is there: nothing, or a regular file that is not read-only.
fn destination(path: &Path) -> io::Result<Destination> {
    let file = real_file(path)?;
    let name = file.file_name().ok_or_else(|| Refusal::NoFileName.into_io())?.to_owned();
    let dir = match file.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_owned(),
        _ => PathBuf::from("."),
    };
    let previous = match fs::metadata(&file) {
        Ok(meta) => Some(meta),
        Err(error) if error.kind() == io::ErrorKind::NotFound => None,
        Err(error) => return Err(error),
    };
    if let Some(meta) = &previous {
        if !meta.is_file() {
            return Err(Refusal::NotAFile(NodeKind::of(meta.file_type())).into_io());
        }
        if meta.permissions().readonly() {
            return Err(Refusal::ReadOnly.into_io());
        }
    }
    Ok(Destination { file, dir, name, previous })
}

/// Checks, before a long run, that its first save can succeed: `path` (its links followed) is a regular file that is
/// not read-only, or nothing yet, and a file can be created in its folder (one is created and removed, named like
/// [`save`]'s temporary files so that a kill leaves nothing [`leftover`] would not remove).
///
/// # Errors
/// [`SaveError`] with [`SaveStep::CheckPath`]: a [`Refusal`], or the system's error creating the file.
pub fn check_writable(path: &Path) -> Result<(), SaveError> {
    let error = |source| SaveError { path: path.to_owned(), step: SaveStep::CheckPath, source };
    let target = destination(path).map_err(error)?;
    let probe = target.dir.join(leftover::temporary_name(&target.name));
    let _created = File::options().write(true).create_new(true).open(&probe).map_err(error)?;
    fs::remove_file(&probe).map_err(error)
}

/// Saves a file atomically (see the [module docs](self)): `write` fills a new temporary file next to the real file
/// (buffered), which is synced to disk; then the previous file (if any) becomes `<name>.bak` when `backup` says so, and
/// the temporary file is renamed over the real file. On any error the temporary file is removed and the file is
/// untouched.
///
/// # Errors
/// [`SaveError`] naming the step that failed (an error returned by `write` is reported as "writing the temporary
/// file"; a refused destination as "checking the path", with a [`Refusal`]).
pub fn save_atomically(
    path: &Path,
    backup: Backup,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), SaveError> {
    save(path, backup, write).map(drop)
}

/// [`save_atomically`], saying which file it wrote and how many leftovers of killed saves it removed.
///
/// # Errors
/// As [`save_atomically`].
pub fn save(
    path: &Path,
    backup: Backup,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<Saved, SaveError> {
    let error = |step: SaveStep| move |source| SaveError { path: path.to_owned(), step, source };
    let target = destination(path).map_err(error(SaveStep::CheckPath))?;
    let leftovers_removed = leftover::remove(&target.dir, &target.name);
    let tmp = target.dir.join(leftover::temporary_name(&target.name));
    let result =
        write_synced(&tmp, target.previous.as_ref(), write).map_err(error(SaveStep::WriteTemporary)).and_then(|()| {
            if backup == Backup::Keep && target.previous.is_some() {
                keep_backup(&target.file, &backup_path(&target.file)).map_err(error(SaveStep::KeepBackup))?;
            }
            fs::rename(&tmp, &target.file).map_err(error(SaveStep::Rename))
        });
    if let Err(error) = result {
        let _ignored = fs::remove_file(&tmp);
        return Err(error);
    }
    sync_dir(&target.dir);
    Ok(Saved { file: target.file, leftovers_removed })
}

/// Creates `path` (which must not exist) with the permissions of `previous` (the file it will replace), lets `write`
/// fill it and syncs it to disk.
fn write_synced(
    path: &Path,
    previous: Option<&Metadata>,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let mut options = File::options();
    let _options = options.write(true).create_new(true);
    #[cfg(unix)]
    if let Some(meta) = previous {
        // Created with (at most) the previous mode, so that a private file's content is never readable by others,
        // not even while it is written; the exact mode is set below (the umask may have removed bits).
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        let _mode = options.mode(meta.permissions().mode() & 0o777);
    }
    let file = options.open(path)?;
    if let Some(meta) = previous {
        keep_owner(&file, meta);
        file.set_permissions(meta.permissions())?;
    }
    let mut out = BufWriter::with_capacity(1 << 20, file);
    write(&mut out)?;
    let file = out.into_inner().map_err(io::IntoInnerError::into_error)?;
    file.sync_all()
}

/// Gives `file` the owner and group of `previous` where the system allows it (a file saved by an administrator
/// stays its user's); best effort, as an ordinary user cannot give a file away.
#[cfg(unix)]
fn keep_owner(file: &File, previous: &Metadata) {
    use std::os::unix::fs::MetadataExt;
    let Ok(now) = file.metadata() else { return };
    if (now.uid(), now.gid()) != (previous.uid(), previous.gid()) {
        let _ignored = std::os::unix::fs::fchown(file, Some(previous.uid()), Some(previous.gid()));
    }
}

#[cfg(not(unix))]
fn keep_owner(_file: &File, _previous: &Metadata) {}

/// Makes `bak` a copy of `path` (a hard link where possible), replacing an older `bak`.
fn keep_backup(path: &Path, bak: &Path) -> io::Result<()> {
    // The copy is made under a temporary name and renamed over `bak`: `bak` is never opened for writing, because
    // another save (a second instance) may have made it a hard link of `path`, and writing into it would truncate
    // the live file. Both renames are atomic, so concurrent saves each leave a whole `bak` and a whole file.
    let (Some(dir), Some(name)) = (bak.parent(), bak.file_name()) else {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "the backup path has no file name"));
    };
    let _removed = leftover::remove(dir, name);
    let tmp = dir.join(leftover::temporary_name(name));
    let made = fs::hard_link(path, &tmp).or_else(|_| {
        let _copied = fs::copy(path, &tmp)?;
        File::open(&tmp)?.sync_all()
    });
    let result = made.and_then(|()| fs::rename(&tmp, bak));
    if result.is_err() {
        let _ignored = fs::remove_file(&tmp);
    }
    result
}

/// Syncs a directory so that a rename in it is durable (best effort: not every platform can open directories).
fn sync_dir(dir: &Path) {
    if let Ok(handle) = File::open(dir) {
        let _ignored = handle.sync_all();
    }
}

/// The name of a rescue file for `path` made at `time`: `<stem>.rescue-YYYYMMDD-HHMMSS<.extension>` (UTC), beside the
/// real file `path` leads to.
#[must_use]
pub fn rescue_path(path: &Path, time: SystemTime) -> PathBuf {
    let file = real_file(path).unwrap_or_else(|_| path.to_owned());
    let t = crate::calendar::UtcDateTime::of(time);
    let stamp = format!("{:04}{:02}{:02}-{:02}{:02}{:02}", t.year, t.month, t.day, t.hour, t.minute, t.second);
    let mut name = file.file_stem().map_or_else(|| OsString::from("file"), OsStr::to_owned);
    name.push(format!(".rescue-{stamp}"));
    if let Some(extension) = file.extension() {
        name.push(".");
        name.push(extension);
    }
    file.with_file_name(name)
}

/// Writes what could not be saved to `path` to a new rescue file ([`rescue_path`]): beside the file, or in the
/// system's temporary folder when that fails too. `write` may be called twice (once per place tried).
///
/// # Errors
/// The [`SaveError`] of the last place tried.
pub fn save_rescue(path: &Path, write: &mut dyn FnMut(&mut dyn Write) -> io::Result<()>) -> Result<PathBuf, SaveError> {
    let beside = rescue_path(path, SystemTime::now());
    let in_temp = std::env::temp_dir().join(beside.file_name().unwrap_or_else(|| OsStr::new("rescue")));
    let mut last = None;
    for candidate in [beside, in_temp] {
        let free = free_name(&candidate);
        match save(&free, Backup::None, |out| write(out)) {
            Ok(saved) => return Ok(saved.file),
            Err(error) => last = Some(error),
        }
    }
    Err(last.unwrap_or_else(|| SaveError {
        path: path.to_owned(),
        step: SaveStep::CheckPath,
        source: Refusal::NoFileName.into_io(),
    }))
}

/// `path`, or `path` with `-2`, `-3` … before its extension when a file of that name exists (two rescues within a
/// second).
fn free_name(path: &Path) -> PathBuf {
    let mut candidate = path.to_owned();
    for n in 2..100 {
        if fs::symlink_metadata(&candidate).is_err() {
            break;
        }
        let stem = path.file_stem().map_or_else(OsString::new, OsStr::to_owned);
        let mut name = stem;
        name.push(format!("-{n}"));
        if let Some(extension) = path.extension() {
            name.push(".");
            name.push(extension);
        }
        candidate = path.with_file_name(name);
    }
    candidate
}
