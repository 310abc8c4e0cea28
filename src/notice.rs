//! Notices: what the user should be told (a damaged settings or book file, a failed save, a rejected text …). They
//! are data; the view puts them into words in the current language.

use std::path::PathBuf;

use shirokuro_engine::eval::weights::WeightsError;
use shirokuro_engine::fsutil::IoFailure;
use shirokuro_engine::search::SearchError;

use crate::book::problem::BookProblem;
use crate::failure::{self as system, Shared};
use crate::fsutil::SaveFailure;
use crate::i18n::{Strings, fill};
use crate::open_file;
use crate::screenshot::ScreenshotError;

pub mod archive;
mod game_file;
mod study;
mod text_problem;

pub use text_problem::TextProblem;

/// Why the settings file could not be read (as a whole, or in part).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SettingsProblem {
    /// The file is not UTF-8 text.
    NotUtf8,
    /// The file could not be read.
    Read(IoFailure),
    /// The file is not valid TOML; the line of the first fault, when the reader gave one.
    Toml {
        /// The 1-based line.
        line: Option<usize>,
    },
}

impl SettingsProblem {
    fn text(&self, s: &Strings) -> String {
        match self {
            SettingsProblem::NotUtf8 => s.settings_not_utf8.clone(),
            SettingsProblem::Read(error) => system::io(s, error),
            SettingsProblem::Toml { line: Some(line) } => fill(&s.settings_toml_line, &[line]),
            SettingsProblem::Toml { line: None } => s.settings_toml.clone(),
        }
    }

    /// The problem, and the failure to keep a copy of the file if there was one.
    fn with_copy(&self, s: &Strings, copy_failed: Option<&IoFailure>) -> String {
        match copy_failed {
            None => self.text(s),
            Some(error) => fill(&s.settings_copy_failed, &[&self.text(s), &system::io(s, error)]),
        }
    }
}

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
        /// What went wrong.
        problem: SettingsProblem,
        /// Why the copy could not be kept, when it could not.
        copy_failed: Option<IoFailure>,
        /// Where the copy was kept.
        copy: PathBuf,
    },
    /// The file was damaged: every key that could be read is kept, the lines `lost` could not be; the file is
    /// untouched and a copy sits at `copy`.
    Salvaged {
        /// What went wrong first.
        problem: SettingsProblem,
        /// Why the copy could not be kept, when it could not.
        copy_failed: Option<IoFailure>,
        /// Where the copy was kept.
        copy: PathBuf,
        /// The numbers of the lines lost, comma-separated.
        lost: String,
    },
    /// Saving failed.
    SaveFailed {
        /// The step that failed.
        error: SaveFailure,
    },
    /// The evaluation weights could not be loaded.
    WeightsFailed {
        /// Why.
        error: Shared<WeightsError>,
    },
    /// The evaluation's network (Settings ▸ Evaluation) could not be loaded: the patterns play alone.
    NetworkFailed {
        /// Why.
        error: Shared<WeightsError>,
    },
    /// The engine could not be created.
    EngineFailed {
        /// Why.
        error: SearchError,
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
        error: BookProblem,
    },
    /// The default book that comes with the app was installed as the user's book (at the first start, or by Reset
    /// to the Default Book).
    DefaultBookInstalled {
        /// The user's book file.
        file: PathBuf,
        /// Its positions.
        positions: usize,
    },
    /// Another run (`shirokuro-cli book …`) writes the book file: the book is used read-only.
    BookLocked {
        /// The book file.
        file: PathBuf,
        /// The other run's process id, when known.
        holder: Option<u32>,
    },
    /// A book change was refused: the book file could not be read at start, so it is not overwritten.
    BookNotWritable,
    /// The system has no file dialog; the app's own chooser is used.
    NoFileDialog,
    /// A book operation (import, export, merge, save) failed.
    BookFailed {
        /// Why.
        error: BookProblem,
    },
    /// A file given on the command line or dropped on the window could not be opened.
    OpenFailed {
        /// The file.
        file: PathBuf,
        /// Why.
        problem: open_file::Problem,
    },
    /// Help's manual or issue tracker could not be shown: no program opens it (the launcher's own message, in
    /// English, goes to the log only).
    LinkFailed {
        /// The address or file.
        target: String,
    },
    /// Help ▸ How to Use found no manual in these places.
    ManualMissing {
        /// Where it was looked for.
        looked: Vec<PathBuf>,
    },
    /// Data Migration: the export was written here.
    Exported {
        /// The new folder.
        folder: PathBuf,
    },
    /// Data Migration: the settings, profiles and forced openings of an export were brought back.
    Imported {
        /// The export folder.
        folder: PathBuf,
    },
    /// Data Migration failed.
    MigrationFailed {
        /// Why.
        error: crate::migration::error::MigrationError,
    },
    /// A folder was asked for and this is not a full path to one.
    NotAFolder {
        /// What was given.
        text: String,
    },
    /// The screenshot was saved but could not be put on the clipboard.
    ScreenshotNotCopied {
        /// What the clipboard said.
        error: String,
    },
    /// The forced openings could not be read.
    ForcedUnreadable {
        /// Their folder.
        dir: PathBuf,
        /// Why.
        error: shirokuro_engine::fsutil::IoFailure,
    },
    /// Lines of the forced openings' files that are not openings were skipped.
    ForcedSkipped {
        /// Where (`file:line`).
        lines: Vec<String>,
    },
    /// The forced openings could not be saved.
    ForcedSaveFailed {
        /// Why.
        error: crate::fsutil::SaveFailure,
    },
    /// Game ▸ Review's text could not be saved.
    ReviewSaveFailed {
        /// Why.
        error: crate::fsutil::SaveFailure,
    },
    /// An import into the game archive ended: games added, duplicates and bad games skipped.
    ArchiveImported {
        /// Games added.
        added: u64,
        /// Games the archive already had.
        duplicates: u64,
        /// Malformed or illegal games left out.
        skipped: u64,
    },
    /// An import into the game archive failed or was stopped; the archive is as it was.
    ArchiveImportFailed {
        /// Why.
        error: Shared<shirokuro_engine::archive::ArchiveError>,
    },
    /// The study history (quiz answers, cards) could not be read or written.
    StudyFailed {
        /// Why.
        error: crate::failure::HistoryError,
    },
}

impl Notice {
    /// The notice in the language of `s`.
    #[must_use]
    pub fn text(&self, s: &Strings) -> String {
        match self {
            Notice::BadValue { key } => fill(&s.notice_bad_value, &[key]),
            Notice::UnknownKey { key } => fill(&s.notice_unknown_key, &[key]),
            Notice::Unreadable { problem, copy_failed, copy } => {
                fill(&s.notice_settings_unreadable, &[&problem.with_copy(s, copy_failed.as_ref()), &copy.display()])
            }
            Notice::Salvaged { problem, copy_failed, copy, lost } => {
                fill(&s.notice_settings_salvaged, &[&problem.with_copy(s, copy_failed.as_ref()), lost, &copy.display()])
            }
            Notice::SaveFailed { error } => fill(&s.notice_settings_save_failed, &[&system::save_failure(s, error)]),
            Notice::WeightsFailed { error } => fill(&s.notice_weights_failed, &[&system::weights(s, error)]),
            Notice::NetworkFailed { error } => fill(&s.notice_network_failed, &[&system::weights(s, error)]),
            Notice::EngineFailed { error } => fill(&s.notice_engine_failed, &[&system::search(s, error)]),
            Notice::TranscriptRejected { problem } => fill(&s.notice_transcript_rejected, &[&problem.text(s)]),
            Notice::ClipboardEmpty => s.notice_clipboard_empty.clone(),
            Notice::RandomBoardNotFound { moves, min, max } => fill(&s.notice_random_failed, &[moves, min, max]),
            Notice::ScreenshotFailed { error } => {
                let why = match error {
                    ScreenshotError::Capture { bytes, width, height } => {
                        fill(&s.screenshot_capture, &[bytes, width, height])
                    }
                    ScreenshotError::Encode(_) => s.screenshot_encode.clone(),
                    ScreenshotError::Write { path, error } => {
                        fill(&s.screenshot_write, &[&path.display(), &system::save_failure(s, error)])
                    }
                };
                fill(&s.notice_screenshot_failed, &[&why])
            }
            Notice::GameFileFailed { error } => fill(&s.notice_game_file_failed, &[&game_file::text(s, error)]),
            Notice::BookUnreadable { file, error } => {
                fill(&s.notice_book_unreadable, &[&file.display(), &error.text(s)])
            }
            Notice::BookFailed { error } => fill(&s.notice_book_failed, &[&error.text(s)]),
            Notice::NoFileDialog => s.notice_no_file_dialog.clone(),
            Notice::BookLocked { file, holder } => match holder {
                Some(holder) => fill(&s.notice_book_locked_by, &[&file.display(), holder]),
                None => fill(&s.notice_book_locked, &[&file.display()]),
            },
            Notice::DefaultBookInstalled { file, positions } => {
                fill(&s.notice_default_book, &[positions, &file.display()])
            }
            Notice::BookNotWritable => fill(&s.notice_book_failed, &[&s.book_no_file]),
            Notice::OpenFailed { file, problem: open_file::Problem::Read(error) } => {
                fill(&s.notice_open_failed, &[&file.display(), &system::io(s, error)])
            }
            Notice::OpenFailed { file, problem: open_file::Problem::Unknown } => {
                fill(&s.notice_open_unknown, &[&file.display()])
            }
            Notice::LinkFailed { target } => fill(&s.notice_open_link_failed, &[target]),
            Notice::ForcedUnreadable { dir, error } => {
                fill(&s.notice_forced_unreadable, &[&dir.display(), &system::io(s, error)])
            }
            Notice::Exported { folder } => fill(&s.notice_exported, &[&folder.display()]),
            Notice::Imported { folder } => fill(&s.notice_imported, &[&folder.display()]),
            Notice::MigrationFailed { error } => {
                let why = match error {
                    crate::migration::error::MigrationError::Io { path, error } => {
                        format!("{}: {}", path.display(), system::io(s, error))
                    }
                    crate::migration::error::MigrationError::NotAnExport(folder) => {
                        fill(&s.migration_not_an_export, &[&folder.display()])
                    }
                    crate::migration::error::MigrationError::Changed(file) => fill(&s.migration_changed, &[file]),
                };
                fill(&s.notice_migration_failed, &[&why])
            }
            Notice::NotAFolder { text } => fill(&s.notice_not_a_folder, &[text]),
            Notice::ScreenshotNotCopied { error } => fill(&s.notice_screenshot_not_copied, &[error]),
            Notice::ForcedSkipped { lines } => fill(&s.notice_forced_skipped, &[&lines.len(), &lines.join(", ")]),
            Notice::ForcedSaveFailed { error } => {
                fill(&s.notice_forced_save_failed, &[&system::save_failure(s, error)])
            }
            Notice::ReviewSaveFailed { error } => {
                fill(&s.notice_review_save_failed, &[&system::save_failure(s, error)])
            }
            Notice::ManualMissing { looked } => {
                let places: Vec<String> = looked.iter().map(|path| path.display().to_string()).collect();
                fill(&s.notice_manual_missing, &[&places.join(", ")])
            }
            Notice::ArchiveImported { added, duplicates, skipped } => {
                fill(&s.notice_archive_imported, &[added, duplicates, skipped])
            }
            Notice::ArchiveImportFailed { error } => match &**error {
                shirokuro_engine::archive::ArchiveError::Stopped => s.notice_archive_stopped.clone(),
                error => fill(&s.notice_archive_failed, &[&archive::text(s, error)]),
            },
            Notice::StudyFailed { error } => fill(&s.notice_study_failed, &[&study::text(s, error)]),
        }
    }
}
