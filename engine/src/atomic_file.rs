//! Writing a file so that readers see the old or the new contents, never a mix: a temporary file in the same
//! directory, synced, then renamed over the target; the previous file is kept as `<name>.bak`.

use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};

/// An error writing `path`, with the step that failed.
#[derive(Debug, thiserror::Error)]
#[error("cannot save {path}: {step}: {source}")]
pub struct AtomicWriteError {
    /// The target file.
    pub path: PathBuf,
    /// What was being done.
    pub step: &'static str,
    /// What the OS said.
    pub source: std::io::Error,
}

/// Writes `bytes` to `path` atomically, keeping the previous file (if any) as `<name>.bak`.
///
/// # Errors
/// [`AtomicWriteError`] naming the step; the temporary file is removed on failure.
pub fn write(path: &Path, bytes: &[u8]) -> Result<(), AtomicWriteError> {
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let err = |step, source| AtomicWriteError { path: path.to_owned(), step, source };
    let name = path.file_name().ok_or_else(|| err("name", std::io::Error::other("the path has no file name")))?;
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = dir.join(format!(".{}.{}.{n}.tmp", name.to_string_lossy(), std::process::id()));
    let result = (|| {
        let mut file = File::create(&tmp).map_err(|e| err("create temporary file", e))?;
        file.write_all(bytes).map_err(|e| err("write", e))?;
        file.sync_all().map_err(|e| err("sync", e))?;
        drop(file);
        if path.exists() {
            let mut bak = name.to_os_string();
            bak.push(".bak");
            let _bytes = fs::copy(path, dir.join(bak)).map_err(|e| err("keep backup", e))?;
        }
        fs::rename(&tmp, path).map_err(|e| err("rename", e))
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    #[test]
    fn writes_and_keeps_a_backup() {
        let dir = std::env::temp_dir().join(format!("shirokuro-atomic-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("model.txt");
        super::write(&path, b"one").unwrap();
        super::write(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        assert_eq!(std::fs::read(dir.join("model.txt.bak")).unwrap(), b"one");
        let leftovers = std::fs::read_dir(&dir)
            .unwrap()
            .filter(|e| e.as_ref().unwrap().file_name().to_string_lossy().ends_with(".tmp"))
            .count();
        assert_eq!(leftovers, 0);
        assert!(super::write(&dir.join("missing-dir").join("x"), b"x").is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
