//! Why a book operation failed, kept typed so that it is worded in the user's language.

use std::path::PathBuf;

use shirokuro_engine::book::{BookError, EditError, FormatError};
use shirokuro_engine::eval::weights::WeightsError;
use shirokuro_engine::fsutil::IoFailure;
use shirokuro_engine::search::SearchError;

use crate::failure::{self as system, Shared};
use crate::i18n::{Strings, fill};

/// Why a book operation failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BookProblem {
    /// Reading or writing a book file failed.
    File(Shared<BookError>),
    /// The folder of the book file cannot be made.
    Folder {
        /// The folder.
        path: PathBuf,
        /// What the system said.
        error: IoFailure,
    },
    /// The evaluation weights a searching operation needs cannot be read.
    Weights(Shared<WeightsError>),
    /// The searcher cannot be made (the table size).
    Search(SearchError),
    /// A right-click edit names a move the position does not have.
    Edit(EditError),
}

impl From<BookError> for BookProblem {
    fn from(error: BookError) -> BookProblem {
        BookProblem::File(Shared::new(error))
    }
}

impl BookProblem {
    /// The problem in the language of `s`.
    #[must_use]
    pub fn text(&self, s: &Strings) -> String {
        match self {
            BookProblem::File(error) => book_error(s, error),
            BookProblem::Folder { path, error } => {
                fill(&s.book_error_folder, &[&path.display(), &system::io(s, error)])
            }
            BookProblem::Weights(error) => fill(&s.book_error_weights, &[&system::weights(s, error)]),
            BookProblem::Search(error) => fill(&s.book_error_search, &[&system::search(s, error)]),
            BookProblem::Edit(EditError::IllegalMove { mv }) => fill(&s.book_error_edit, &[mv]),
            // A kind added to the engine later: its own (English) words.
            BookProblem::Edit(error) => error.to_string(),
        }
    }
}

fn book_error(s: &Strings, error: &BookError) -> String {
    match error {
        BookError::Read { path, source } => {
            fill(&s.book_error_read, &[&path.display(), &system::io(s, &source.into())])
        }
        BookError::Parse { path, source: FormatError::Unknown, .. } => {
            fill(&s.book_error_not_a_book, &[&path.display()])
        }
        BookError::Parse { path, format, source } => {
            fill(&s.book_error_parse, &[&path.display(), format, &format_error(s, source)])
        }
        BookError::ReadOnly(format) => fill(&s.book_error_read_only, &[format]),
        BookError::Save(error) => {
            fill(&s.book_error_save, &[&error.path.display(), &system::save(s, error.step, &(&error.source).into())])
        }
        BookError::Stopped { path } => fill(&s.book_error_stopped, &[&path.display()]),
        // A kind added to the engine later: its own (English) words.
        error => error.to_string(),
    }
}

fn format_error(s: &Strings, error: &FormatError) -> String {
    match error {
        FormatError::Truncated(eof) => fill(&s.format_truncated, &[&system::eof(s, eof)]),
        FormatError::Magic { expected, found } => fill(&s.format_magic, &[expected, found]),
        FormatError::Version { offset, found } => fill(&s.format_version, &[found, offset]),
        FormatError::Count { offset, count, needed, available } => {
            fill(&s.format_count, &[count, offset, needed, available])
        }
        FormatError::Record { index, offset, problem } => {
            fill(&s.format_record, &[index, offset, &system::record(s, problem)])
        }
        FormatError::Line { line, problem } => fill(&s.format_line, &[line, &system::record(s, problem)]),
        FormatError::Trailing { offset, extra } => fill(&s.format_trailing, &[extra, offset]),
        FormatError::Stopped => s.format_stopped.clone(),
        FormatError::Unknown => s.format_unknown.clone(),
        // A kind added to the engine later: its own (English) words.
        error => error.to_string(),
    }
}
