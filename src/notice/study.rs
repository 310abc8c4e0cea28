//! A study history's problem ([`StudyError`]), worded in the user's language.

use shirokuro_engine::study::StudyError;

use crate::failure as system;
use crate::failure::HistoryError;
use crate::i18n::{Strings, fill};

/// `error` in the language of `s`.
#[must_use]
pub fn text(s: &Strings, error: &HistoryError) -> String {
    match error {
        HistoryError::Study(error) => study_text(s, error),
        HistoryError::Thread(error) => system::io(s, error),
    }
}

fn study_text(s: &Strings, error: &StudyError) -> String {
    match error {
        StudyError::Open { path, source } => fill(&s.study_open, &[&path.display(), source]),
        StudyError::NotAStudyFile { path } => fill(&s.study_not_a_file, &[&path.display()]),
        StudyError::UnsupportedVersion { path, .. } => fill(&s.study_newer, &[&path.display()]),
        StudyError::Database { path, source, .. } => fill(&s.study_database, &[&path.display(), source]),
        StudyError::Corrupt { path, what } => fill(&s.study_damaged, &[&path.display(), what]),
        // Kinds added to the engine later: their own (English) words.
        error => error.to_string(),
    }
}
