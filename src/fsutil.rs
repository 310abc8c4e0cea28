//! Writing user files safely, through the engine's shared helper ([`shirokuro_engine::fsutil::save_atomically`]):
//! a temporary file in the same folder, synced, then renamed over the target, keeping the previous file as
//! `<name>.bak`.

use std::fs;
use std::path::Path;

pub use shirokuro_engine::fsutil::backup_path;
use shirokuro_engine::fsutil::{Backup, IoFailure, SaveStep, save_atomically};

/// A file that could not be saved: the step of the atomic save that failed (none when its folder could not be made)
/// and what the system said.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{error}", step.map(|step| format!("{step} failed: ")).unwrap_or_default())]
pub struct SaveFailure {
    /// The failed step.
    pub step: Option<SaveStep>,
    /// What the system said.
    pub error: IoFailure,
}

/// Writes `bytes` to `path` atomically: readers see the old file or the new one, never a partial one. The previous
/// file, if any, is kept as `<name>.bak` (replacing an older backup). Missing parent folders are created.
///
/// # Errors
/// [`SaveFailure`] naming the step that failed.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), SaveFailure> {
    if let Some(dir) = path.parent()
        && !dir.as_os_str().is_empty()
    {
        fs::create_dir_all(dir).map_err(|error| SaveFailure { step: None, error: error.into() })?;
    }
    save_atomically(path, Backup::Keep, |out| out.write_all(bytes))
        .map_err(|error| SaveFailure { step: Some(error.step), error: error.source.into() })
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
