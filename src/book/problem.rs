//! Why a book operation failed, kept typed so that it is worded in the user's language. The system's own messages
//! (a file that cannot be opened) and the finest details of a damaged record are quoted as they are.

use std::path::PathBuf;
use std::sync::Arc;

use shirokuro_engine::book::{BookError, FormatError};

use crate::i18n::{Strings, fill};

/// Why a book operation failed.
#[derive(Debug, Clone)]
pub enum BookProblem {
    /// Reading or writing a book file failed.
    File(Arc<BookError>),
    /// The folder of the book file cannot be made.
    Folder {
        /// The folder.
        path: PathBuf,
        /// What the system said.
        error: String,
    },
    /// The evaluation weights a searching operation needs cannot be read.
    Weights(String),
    /// The searcher cannot be made (the table size).
    Search(String),
    /// A right-click edit names a move the position does not have.
    Edit(String),
}

/// Two problems are equal when they are the same error (a file error is compared by identity: the system's error
/// cannot be compared).
impl PartialEq for BookProblem {
    fn eq(&self, other: &BookProblem) -> bool {
        match (self, other) {
            (BookProblem::File(a), BookProblem::File(b)) => Arc::ptr_eq(a, b),
            (BookProblem::Folder { path: a, error: e }, BookProblem::Folder { path: b, error: f }) => a == b && e == f,
            (BookProblem::Weights(a), BookProblem::Weights(b))
            | (BookProblem::Search(a), BookProblem::Search(b))
            | (BookProblem::Edit(a), BookProblem::Edit(b)) => a == b,
            _ => false,
        }
    }
}

impl Eq for BookProblem {}

impl From<BookError> for BookProblem {
    fn from(error: BookError) -> BookProblem {
        BookProblem::File(Arc::new(error))
    }
}

impl BookProblem {
    /// The problem in the language of `s`.
    #[must_use]
    pub fn text(&self, s: &Strings) -> String {
        match self {
            BookProblem::File(error) => book_error(s, error),
            BookProblem::Folder { path, error } => fill(&s.book_error_folder, &[&path.display(), error]),
            BookProblem::Weights(error) => fill(&s.book_error_weights, &[error]),
            BookProblem::Search(error) => fill(&s.book_error_search, &[error]),
            BookProblem::Edit(error) => fill(&s.book_error_edit, &[error]),
        }
    }
}

fn book_error(s: &Strings, error: &BookError) -> String {
    match error {
        BookError::Read { path, source } => fill(&s.book_error_read, &[&path.display(), source]),
        BookError::Parse { path, format, source } => {
            fill(&s.book_error_parse, &[&path.display(), format, &format_error(s, source)])
        }
        BookError::ReadOnly(format) => fill(&s.book_error_read_only, &[format]),
        BookError::Save(error) => fill(&s.book_error_save, &[&error.path.display(), &error.source]),
        BookError::Stopped { path } => fill(&s.book_error_stopped, &[&path.display()]),
        // A kind added to the engine later: its own (English) words.
        error => error.to_string(),
    }
}

fn format_error(s: &Strings, error: &FormatError) -> String {
    match error {
        FormatError::Truncated(detail) => fill(&s.format_truncated, &[detail]),
        FormatError::Magic { expected, found } => fill(&s.format_magic, &[expected, found]),
        FormatError::Version { offset, found } => fill(&s.format_version, &[found, offset]),
        FormatError::Count { offset, count, needed, available } => {
            fill(&s.format_count, &[count, offset, needed, available])
        }
        FormatError::Record { index, offset, problem } => fill(&s.format_record, &[index, offset, problem]),
        FormatError::Line { line, problem } => fill(&s.format_line, &[line, problem]),
        FormatError::Trailing { offset, extra } => fill(&s.format_trailing, &[extra, offset]),
        FormatError::Stopped => s.format_stopped.clone(),
        FormatError::Unknown => s.format_unknown.clone(),
        // A kind added to the engine later: its own (English) words.
        error => error.to_string(),
    }
}
