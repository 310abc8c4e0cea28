//! Why a Data Migration export or import failed (its own file, so that the notices can name it without depending on
//! the settings that the migration itself reads and writes).

use std::path::PathBuf;

use shirokuro_engine::fsutil::IoFailure;

/// Why an export or import failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MigrationError {
    /// A file or folder could not be read or written.
    #[error("{path}: {error}")]
    Io {
        /// Which.
        path: PathBuf,
        /// What the system said.
        error: IoFailure,
    },
    /// The folder has no manifest, or not one of ours.
    #[error("{0}: not a Shirokuro export (no manifest.json of Shirokuro's)")]
    NotAnExport(PathBuf),
    /// A file the manifest lists is missing or of another size (the export is incomplete or was changed).
    #[error("{0}: missing or changed since the export")]
    Changed(String),
}
