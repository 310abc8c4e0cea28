//! The engine's and the system's failures: kept typed ([`Shared`] for the ones that cannot be cloned) and worded in
//! the user's language: a file operation by its kind (the system's own message is quoted only for a kind without
//! words of its own), the step of an atomic save, the evaluation weights, the searcher, and a damaged book record.
//! Notices and the book's problems both use it, so it depends on neither.

use std::io::ErrorKind;
use std::ops::Deref;
use std::sync::Arc;

use shirokuro_engine::book::RecordProblem;
use shirokuro_engine::eval::weights::WeightsError;
use shirokuro_engine::format::reader::UnexpectedEof;
use shirokuro_engine::fsutil::{IoFailure, SaveStep};
use shirokuro_engine::search::SearchError;

use crate::fsutil::SaveFailure;
use crate::i18n::{Strings, fill};

/// An error that cannot be cloned (it holds the system's error), shared so that a notice or a message carrying it
/// can be; two are equal when they are the same error.
#[derive(Debug)]
pub struct Shared<T>(Arc<T>);

impl<T> Shared<T> {
    /// Shares `error`.
    pub fn new(error: T) -> Shared<T> {
        Shared(Arc::new(error))
    }
}

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Shared<T> {
        Shared(Arc::clone(&self.0))
    }
}

impl<T> PartialEq for Shared<T> {
    fn eq(&self, other: &Shared<T>) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl<T> Eq for Shared<T> {}

impl<T> Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// A failed file operation.
#[must_use]
pub fn io(s: &Strings, error: &IoFailure) -> String {
    let words = match error.kind {
        ErrorKind::NotFound => &s.io_not_found,
        ErrorKind::PermissionDenied => &s.io_permission_denied,
        ErrorKind::AlreadyExists => &s.io_already_exists,
        ErrorKind::StorageFull | ErrorKind::QuotaExceeded => &s.io_storage_full,
        ErrorKind::ReadOnlyFilesystem => &s.io_read_only,
        ErrorKind::IsADirectory => &s.io_is_a_directory,
        ErrorKind::NotADirectory => &s.io_not_a_directory,
        ErrorKind::FileTooLarge => &s.io_file_too_large,
        ErrorKind::InvalidFilename => &s.io_invalid_filename,
        ErrorKind::InvalidData => &s.io_invalid_data,
        ErrorKind::UnexpectedEof => &s.io_unexpected_eof,
        ErrorKind::OutOfMemory => &s.io_out_of_memory,
        ErrorKind::Interrupted => &s.io_interrupted,
        // What `shirokuro_engine::bounded` says of a folder, a device or a pipe given as a file to read.
        ErrorKind::InvalidInput => &s.io_not_a_file,
        _ => return fill(&s.io_other, &[&error.message]),
    };
    words.clone()
}

/// The failure of one step of an atomic save.
#[must_use]
pub fn save(s: &Strings, step: SaveStep, error: &IoFailure) -> String {
    let step = match step {
        SaveStep::CheckPath => &s.save_step_check_path,
        SaveStep::WriteTemporary => &s.save_step_write,
        SaveStep::KeepBackup => &s.save_step_backup,
        SaveStep::Rename => &s.save_step_rename,
    };
    fill(&s.save_step_failed, &[step, &io(s, error)])
}

/// A file of the app's own that could not be saved.
#[must_use]
pub fn save_failure(s: &Strings, failure: &SaveFailure) -> String {
    match failure.step {
        Some(step) => save(s, step, &failure.error),
        None => fill(&s.save_make_folder, &[&io(s, &failure.error)]),
    }
}

/// Why the evaluation weights could not be loaded.
#[must_use]
pub fn weights(s: &Strings, error: &WeightsError) -> String {
    match error {
        WeightsError::Read { path, source } => fill(&s.weights_read, &[&path.display(), &io(s, &source.into())]),
        WeightsError::FileTooLarge { path, limit } => fill(&s.weights_too_large, &[&path.display(), limit]),
        WeightsError::Network { path, source } => fill(&s.weights_network, &[&path.display(), &io(s, &source.into())]),
        WeightsError::Parse { path, source } => {
            fill(&s.weights_damaged, &[&path.display(), &weights_content(s, source)])
        }
        WeightsError::Save { path, step, source } => {
            fill(&s.weights_save, &[&path.display(), &save(s, *step, &source.into())])
        }
        error => weights_content(s, error),
    }
}

/// What is wrong inside a weights file.
fn weights_content(s: &Strings, error: &WeightsError) -> String {
    match error {
        WeightsError::BadMagic { .. } => s.weights_magic.clone(),
        WeightsError::UnsupportedVersion { found } => fill(&s.weights_version, &[found]),
        WeightsError::ShapeMismatch { offset, .. } => fill(&s.weights_shape, &[offset]),
        WeightsError::Truncated { offset, .. }
        | WeightsError::TrailingBytes { offset, .. }
        | WeightsError::ChecksumMismatch { offset, .. }
        | WeightsError::Decompress { offset, .. }
        | WeightsError::UnusedCompressedBytes { offset, .. } => fill(&s.weights_damaged_at, &[offset]),
        WeightsError::PayloadTooShort { .. } | WeightsError::PayloadTooLong { .. } => s.weights_payload.clone(),
        // Only writing produces the others, and a kind added to the engine later has only its own (English) words.
        error => error.to_string(),
    }
}

/// Why the searcher could not be made.
#[must_use]
pub fn search(s: &Strings, error: &SearchError) -> String {
    match error {
        SearchError::ThreadPool { threads, message } => fill(&s.search_threads, &[threads, message]),
        SearchError::UnsupportedBackend(backend) => fill(&s.search_backend, &[backend]),
        // A kind added to the engine later: its own (English) words.
        error => error.to_string(),
    }
}

/// What is wrong with one record of a book.
#[must_use]
pub fn record(s: &Strings, problem: &RecordProblem) -> String {
    match problem {
        RecordProblem::Overlap { .. } => s.record_overlap.clone(),
        RecordProblem::EmptyBoard => s.record_empty_board.clone(),
        RecordProblem::Value(value) => fill(&s.record_value, &[value]),
        RecordProblem::LineLength(length) => fill(&s.record_line_length, &[length]),
        RecordProblem::Character { column, found } => fill(&s.record_character, &[&format!("{found:?}"), column]),
        // A kind added to the engine later: its own (English) words.
        problem => problem.to_string(),
    }
}

/// Data that ends too early.
#[must_use]
pub fn eof(s: &Strings, error: &UnexpectedEof) -> String {
    fill(&s.data_ends_early, &[&error.offset, &error.needed, &error.available])
}

/// Why the study history (`study.sqlite`) could not be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HistoryError {
    /// The store said no (the file, the database, a damaged value).
    Study(Shared<shirokuro_engine::study::StudyError>),
    /// No thread could be started for the request.
    Thread(IoFailure),
}
