//! Writing user files safely: a temporary file in the same folder, synced, then renamed over the target, keeping the
//! previous file as `<name>.bak`.
//!
//! This mirrors the private helper behind the engine's weights `save`; the two should become one function in the
//! engine's `fsutil` module (see docs/app-status.md).

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The `<name>.bak` path next to `path`.
#[must_use]
pub fn backup_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().map(std::ffi::OsStr::to_os_string).unwrap_or_default();
    name.push(".bak");
    path.with_file_name(name)
}

/// Writes `bytes` to `path` atomically: readers see the old file or the new one, never a partial one. The previous
/// file, if any, is kept as `<name>.bak` (replacing an older backup). Missing parent folders are created.
///
/// # Errors
/// The I/O error of the step that failed; the temporary file is removed then.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let name =
        path.file_name().ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "the path has no file name"))?;
    let dir = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    fs::create_dir_all(dir)?;
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    let call = COUNTER.fetch_add(1, Ordering::Relaxed);
    tmp_name.push(format!(".tmp-{}-{call}", std::process::id()));
    let tmp = dir.join(tmp_name);
    let result = write_synced(&tmp, bytes).and_then(|()| {
        if path.exists() {
            keep_backup(path, &backup_path(path))?;
        }
        fs::rename(&tmp, path)
    });
    if result.is_err() {
        let _ignored = fs::remove_file(&tmp);
        return result;
    }
    if let Ok(handle) = File::open(dir) {
        // Best effort: makes the rename durable where directories can be opened.
        let _ignored = handle.sync_all();
    }
    Ok(())
}

/// Creates `path` (which must not exist), writes `bytes` and syncs it.
fn write_synced(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut file = File::options().write(true).create_new(true).open(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

/// Makes `bak` a copy of `path`, replacing an older `bak`.
fn keep_backup(path: &Path, bak: &Path) -> io::Result<()> {
    match fs::remove_file(bak) {
        Err(error) if error.kind() != io::ErrorKind::NotFound => return Err(error),
        _ => {}
    }
    if fs::hard_link(path, bak).is_err() {
        let _copied = fs::copy(path, bak)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_and_keeps_the_previous_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub").join("a.toml");
        write_atomic(&path, b"one").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"one");
        assert!(!backup_path(&path).exists());
        write_atomic(&path, b"two").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"two");
        assert_eq!(fs::read(backup_path(&path)).unwrap(), b"one");
        // No temporary files are left behind.
        assert_eq!(fs::read_dir(path.parent().unwrap()).unwrap().count(), 2);
    }
}
