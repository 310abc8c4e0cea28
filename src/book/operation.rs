//! The book operations: one [`Operation`] per user intent (the Book menu's items, the file each one asks for, the
//! progress line and the log name it), the [`Job`] carrying what one run needs, and how it ended ([`Outcome`]).

use std::path::{Path, PathBuf};

use shirokuro_engine::book::BookFormat;
use shirokuro_engine::book::learn::{DeviateSettings, LeafSettings};
use shirokuro_engine::book::ops::Walk;
use shirokuro_engine::{Board, Move, Position};

use crate::i18n::Strings;

/// The book operations, one per user intent: what the Book menu asks for, what a file dialog is for, what the progress
/// line and the log name. Each runs in the background on the book worker and can be stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    /// Loading the book file.
    Load,
    /// Import Book (replaces the book).
    Import,
    /// Export Book.
    Export,
    /// Export Book with Level: every level of the written copy set to the AI level (Egaroucid's level overwrite).
    ExportLevel,
    /// Export Book for Edax with Egaroucid's "Extra Calc": missing leaves searched at a leaf level, then `.dat`.
    ExportEdax,
    /// Merge Book.
    Merge,
    /// Book Info.
    Info,
    /// A right-click edit.
    Edit,
    /// The overlay data of a position.
    Views,
    /// Book Fix.
    Fix,
    /// Edax-like Book Fix.
    FixEdax,
    /// Book Reduce.
    Reduce,
    /// Recalculate Leaves.
    Leaves,
    /// Recalculate #Lines.
    Lines,
    /// Book Deviate.
    Deviate,
    /// Book Deviate with Transcripts.
    DeviateTranscripts,
    /// Add This Transcript to Book.
    Store,
    /// Book Reference: choose the book file loaded at start, and load it.
    Reference,
    /// Save the book: the step that follows a stopped operation which changed it (internal).
    Save,
    /// Reset to the Default Book: the book that comes with the app replaces the book in use (asked first).
    ResetDefault,
    /// Nothing: when it ends, everything asked of the worker before it has ended, saves included (internal, quiet).
    Flush,
}

impl Operation {
    /// The operation's name in the language of `s` (the menu item's).
    #[must_use]
    pub fn name(self, s: &Strings) -> String {
        match self {
            Operation::Load => s.book_load.clone(),
            Operation::Import => s.book_import.clone(),
            Operation::Export => s.book_export.clone(),
            Operation::ExportLevel => s.book_export_level.clone(),
            Operation::ExportEdax => s.book_export_edax.clone(),
            Operation::Merge => s.book_merge.clone(),
            Operation::Info => s.book_info.clone(),
            Operation::Edit => s.book_edit.clone(),
            Operation::Views => s.show_book_accuracy.clone(),
            Operation::Fix => s.book_fix.clone(),
            Operation::FixEdax => s.book_fix_edax.clone(),
            Operation::Reduce => s.book_reduce.clone(),
            Operation::Leaves => s.book_leaves.clone(),
            Operation::Lines => s.book_lines.clone(),
            Operation::Deviate => s.book_deviate.clone(),
            Operation::DeviateTranscripts => s.book_deviate_transcripts.clone(),
            Operation::Store => s.book_store.clone(),
            Operation::Reference => s.book_reference.clone(),
            Operation::Save => s.book_save.clone(),
            Operation::ResetDefault => s.book_reset_default.clone(),
            Operation::Flush => String::new(),
        }
    }

    /// Whether the operation is quick and internal (no progress line, no log line).
    #[must_use]
    pub const fn is_quiet(self) -> bool {
        matches!(self, Operation::Info | Operation::Views | Operation::Flush)
    }

    /// Whether the operation asks for a file first (Import, Export, Merge, Book Reference).
    #[must_use]
    pub const fn needs_file(self) -> bool {
        matches!(
            self,
            Operation::Import
                | Operation::Export
                | Operation::ExportLevel
                | Operation::ExportEdax
                | Operation::Merge
                | Operation::Reference
        )
    }

    /// Whether the file is one to write (Export) rather than one to read.
    #[must_use]
    pub const fn writes_file(self) -> bool {
        matches!(self, Operation::Export | Operation::ExportLevel | Operation::ExportEdax)
    }

    /// The file name extensions its file dialog offers.
    #[must_use]
    pub const fn extensions(self) -> &'static [&'static str] {
        match self {
            Operation::Reference => &["egbk3"],
            Operation::Export | Operation::ExportLevel => &["egbk3", "dat"],
            Operation::ExportEdax => &["dat"],
            _ => &["egbk3", "egbk2", "egbk", "dat", "txt"],
        }
    }
}

/// Egaroucid's "With Extra Calc" of an Edax export: the positions without a valid leaf get one, searched at
/// `leaf_level` (5 in Egaroucid), so that Edax finds a move out of every position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExtraCalc {
    /// The level of the leaf searches.
    pub leaf_level: u8,
    /// Table size exponent of each searcher.
    pub hash_level: u8,
    /// Searches at once.
    pub threads: usize,
}

/// Egaroucid's default leaf level of the Extra Calc.
pub const EXTRA_CALC_LEVEL: u8 = 5;

/// What the book worker is asked to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Job {
    /// Load the book at `file` (a missing file is an empty book) and make it the book saved to.
    Load {
        /// The book file.
        file: PathBuf,
    },
    /// Install the default book (`shipped`, the compressed book that comes with the app) as `file` and load it; with
    /// `only_if_missing`, only when `file` does not exist yet (the first start), else load `file`.
    Install {
        /// The user's book file.
        file: PathBuf,
        /// The shipped book.
        shipped: PathBuf,
        /// Install only when `file` does not exist.
        only_if_missing: bool,
    },
    /// Replace the book by the one in `from` (any readable format), then save it.
    Import {
        /// The file to read.
        from: PathBuf,
        /// Level given to positions of formats without levels.
        level: u8,
    },
    /// Write the book to `to` (Edax `.dat` by extension, egbk3 otherwise).
    Export {
        /// The file to write.
        to: PathBuf,
        /// Every level (and leaf level) of the written copy set to this one; the book in use keeps its own.
        level: Option<u8>,
        /// Egaroucid's Extra Calc before an Edax export (the copy written gets the leaves; the book in use does not).
        extra: Option<ExtraCalc>,
    },
    /// Merge the book in `from` with the level rule, then save.
    Merge {
        /// The file to read.
        from: PathBuf,
    },
    /// Count positions by level and ply.
    Info,
    /// Nothing (see [`Operation::Flush`]).
    Flush,
    /// The book moves of `position` with their umigame counts and accuracy labels (cached until the book changes).
    Views {
        /// The position.
        position: Position,
        /// How the umigame numbers are counted.
        umigame: shirokuro_engine::book::views::UmigameSettings,
    },
    /// The right-click editor: set (`Some`) or delete (`None`) the value of `mv` from `board`, then save.
    Edit {
        /// The position.
        board: Board,
        /// The move.
        mv: Move,
        /// Value for the side to move, or `None` to delete the move's position.
        value: Option<i32>,
    },
    /// Book Fix from the initial position (Edax's rule with `edax_like`: leaves take part), then save.
    Fix {
        /// Edax-like Book Fix.
        edax_like: bool,
    },
    /// Recalculate #Lines from the initial position (values and leaves untouched), then save.
    Lines,
    /// Book Reduce: keep what is reachable from `root` within `walk`, delete the rest below it, then save.
    Reduce {
        /// The position kept from.
        root: Board,
        /// Depth and errors.
        walk: Walk,
    },
    /// Recalculate Leaves of the positions reachable from `root`, then save.
    Leaves {
        /// The position to walk from.
        root: Board,
        /// Depth, errors, level, threads.
        settings: LeafSettings,
        /// Table size exponent of each searcher.
        hash_level: u8,
    },
    /// Book Deviate from `root`, saving now and then and at the end.
    Deviate {
        /// The position learning starts from.
        root: Board,
        /// Level, depth and errors.
        settings: DeviateSettings,
        /// Table size exponent of each searcher.
        hash_level: u8,
    },
    /// Book Deviate with Transcripts: each line's positions, then Deviate from its end, saving after each line.
    DeviateTranscripts {
        /// The lines, moves from the initial position.
        lines: Vec<Vec<Move>>,
        /// Level, depth and errors.
        settings: DeviateSettings,
        /// Table size exponent of each searcher.
        hash_level: u8,
    },
    /// Add This Transcript to Book: the line from `start`, then save.
    Store {
        /// The start of the line.
        start: Board,
        /// The moves of the line up to the position shown.
        moves: Vec<Move>,
        /// Positions with at most `depth + 4` discs are stored.
        depth: u8,
        /// Search level.
        level: u8,
        /// Table size exponent of the searcher.
        hash_level: u8,
    },
}

impl Job {
    /// The operation this job is.
    #[must_use]
    pub const fn operation(&self) -> Operation {
        match self {
            Job::Load { .. } | Job::Install { only_if_missing: true, .. } => Operation::Load,
            Job::Install { only_if_missing: false, .. } => Operation::ResetDefault,
            Job::Import { .. } => Operation::Import,
            Job::Export { extra: Some(_), .. } => Operation::ExportEdax,
            Job::Export { level: None, .. } => Operation::Export,
            Job::Export { level: Some(_), .. } => Operation::ExportLevel,
            Job::Merge { .. } => Operation::Merge,
            Job::Info => Operation::Info,
            Job::Flush => Operation::Flush,
            Job::Views { .. } => Operation::Views,
            Job::Edit { .. } => Operation::Edit,
            Job::Fix { edax_like: false } => Operation::Fix,
            Job::Fix { edax_like: true } => Operation::FixEdax,
            Job::Reduce { .. } => Operation::Reduce,
            Job::Leaves { .. } => Operation::Leaves,
            Job::Lines => Operation::Lines,
            Job::Deviate { .. } => Operation::Deviate,
            Job::DeviateTranscripts { .. } => Operation::DeviateTranscripts,
            Job::Store { .. } => Operation::Store,
        }
    }
}

/// How an operation ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Done; the book now has `positions` positions and `added` were added (or replaced).
    Done {
        /// Positions in the book.
        positions: usize,
        /// Positions added by the operation.
        added: u64,
    },
    /// Stopped on request; what was learned until then is kept and saved.
    Stopped {
        /// Positions in the book.
        positions: usize,
        /// Positions added before the stop.
        added: u64,
    },
    /// Failed; the book is as it was.
    Failed(super::problem::BookProblem),
    /// Refused: the book file could not be read at start, so nothing is changed or saved over it (Book Reference
    /// can choose another file).
    NoFile,
}

/// The format an export writes, by the file's extension: Edax for `.dat`, egbk3 otherwise.
#[must_use]
pub fn export_format(path: &Path) -> BookFormat {
    match path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).as_deref() {
        Some("dat") => BookFormat::Edax,
        _ => BookFormat::Egbk3,
    }
}
