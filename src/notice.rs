//! Notices: what the user should be told (a damaged settings or book file, a failed save, a rejected text …). They
//! are data; the view puts them into words in the current language.

use std::path::PathBuf;

use crate::i18n::{Strings, fill};
use crate::screenshot::ScreenshotError;

mod game_file;
mod text_problem;

pub use text_problem::TextProblem;

/// Something the user should see. Carries no UI text: the view
/// translates it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    /// The value of `key` (dotted path) was unusable; its default is in use.
    BadValue {
        /// The key, e.g. `display.hint_count`.
        key: String,
    },
    /// An unknown key was ignored.
    UnknownKey {
        /// The key.
        key: String,
    },
    /// The whole file could not be read; defaults are in use, the file is untouched, a copy sits at `copy`.
    Unreadable {
        /// What went wrong (with the line for TOML errors).
        error: String,
        /// Where the copy was kept.
        copy: PathBuf,
    },
    /// The file was damaged: every key that could be read is kept, the lines `lost` could not be; the file is
    /// untouched and a copy sits at `copy`.
    Salvaged {
        /// What went wrong first (with its line).
        error: String,
        /// Where the copy was kept.
        copy: PathBuf,
        /// The numbers of the lines lost, comma-separated.
        lost: String,
    },
    /// Saving failed.
    SaveFailed {
        /// The I/O error.
        error: String,
    },
    /// The evaluation weights could not be loaded.
    WeightsFailed {
        /// Why.
        error: String,
    },
    /// The engine could not be created.
    EngineFailed {
        /// Why.
        error: String,
    },
    /// Text given as a transcript was rejected.
    TranscriptRejected {
        /// Why (where in the text, and what is wrong there).
        problem: TextProblem,
    },
    /// The clipboard held no text.
    ClipboardEmpty,
    /// A game file could not be read or written.
    GameFileFailed {
        /// Why, with the file.
        error: shirokuro_engine::game_file::GameFileError,
    },
    /// The screenshot could not be saved.
    ScreenshotFailed {
        /// Why.
        error: crate::screenshot::ScreenshotError,
    },
    /// Generate Random Board found no position in the range.
    RandomBoardNotFound {
        /// Moves asked for.
        moves: u8,
        /// Lowest score for Black.
        min: i32,
        /// Highest score for Black.
        max: i32,
    },
    /// The book file exists but could not be read; no book is in use.
    BookUnreadable {
        /// The file.
        file: PathBuf,
        /// Why (what is wrong, and where in the file).
        error: crate::book::BookProblem,
    },
    /// A book change was refused: the book file could not be read at start, so it is not overwritten.
    BookNotWritable,
    /// The system has no file dialog; the app's own chooser is used.
    NoFileDialog,
    /// A book operation (import, export, merge, save) failed.
    BookFailed {
        /// Why.
        error: crate::book::BookProblem,
    },
}

impl Notice {
    /// The notice in the language of `s`.
    #[must_use]
    pub fn text(&self, s: &Strings) -> String {
        match self {
            Notice::BadValue { key } => fill(&s.notice_bad_value, &[key]),
            Notice::UnknownKey { key } => fill(&s.notice_unknown_key, &[key]),
            Notice::Unreadable { error, copy } => fill(&s.notice_settings_unreadable, &[error, &copy.display()]),
            Notice::Salvaged { error, copy, lost } => {
                fill(&s.notice_settings_salvaged, &[error, lost, &copy.display()])
            }
            Notice::SaveFailed { error } => fill(&s.notice_settings_save_failed, &[error]),
            Notice::WeightsFailed { error } => fill(&s.notice_weights_failed, &[error]),
            Notice::EngineFailed { error } => fill(&s.notice_engine_failed, &[error]),
            Notice::TranscriptRejected { problem } => fill(&s.notice_transcript_rejected, &[&problem.text(s)]),
            Notice::ClipboardEmpty => s.notice_clipboard_empty.clone(),
            Notice::RandomBoardNotFound { moves, min, max } => fill(&s.notice_random_failed, &[moves, min, max]),
            Notice::ScreenshotFailed { error } => {
                let why = match error {
                    ScreenshotError::Capture { bytes, width, height } => {
                        fill(&s.screenshot_capture, &[bytes, width, height])
                    }
                    ScreenshotError::Encode(detail) => fill(&s.screenshot_encode, &[detail]),
                    ScreenshotError::Write { path, error } => fill(&s.screenshot_write, &[&path.display(), error]),
                };
                fill(&s.notice_screenshot_failed, &[&why])
            }
            Notice::GameFileFailed { error } => fill(&s.notice_game_file_failed, &[&game_file::text(s, error)]),
            Notice::BookUnreadable { file, error } => {
                fill(&s.notice_book_unreadable, &[&file.display(), &error.text(s)])
            }
            Notice::BookFailed { error } => fill(&s.notice_book_failed, &[&error.text(s)]),
            Notice::NoFileDialog => s.notice_no_file_dialog.clone(),
            Notice::BookNotWritable => fill(&s.notice_book_failed, &[&s.book_no_file]),
        }
    }
}
