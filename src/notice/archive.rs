//! A game archive's problem ([`ArchiveError`]), worded in the user's language.

use shirokuro_engine::archive::ArchiveError;
use shirokuro_engine::fsutil::IoFailure;

use crate::failure as system;
use crate::i18n::{Strings, fill};

/// `error` in the language of `s`.
#[must_use]
pub fn text(s: &Strings, error: &ArchiveError) -> String {
    match error {
        ArchiveError::Open { path, source } => fill(&s.archive_read, &[&path.display(), source]),
        ArchiveError::NotAnArchive { path } => fill(&s.archive_not_an_archive, &[&path.display()]),
        ArchiveError::UnsupportedVersion { path, .. } => fill(&s.archive_newer, &[&path.display()]),
        ArchiveError::Database(source) => fill(&s.archive_database, &[source]),
        ArchiveError::Corrupt(what) => fill(&s.archive_damaged, &[what]),
        ArchiveError::Read { path, source } => {
            fill(&s.archive_read, &[&path.display(), &system::io(s, &IoFailure::from(source))])
        }
        ArchiveError::UnsupportedFile { path, .. } => fill(&s.archive_unsupported, &[&path.display()]),
        ArchiveError::Stopped => s.notice_archive_stopped.clone(),
        // WTHOR and GGF structure errors, and kinds added to the engine later: their own (English) words.
        error => error.to_string(),
    }
}
