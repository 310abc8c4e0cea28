//! What can be wrong inside a book's bytes: [`FormatError`] and its per-record [`RecordProblem`]. The format modules
//! ([`super::edax`], [`super::egaroucid`], [`super::text`]) return them and the file layer ([`super::file`]) wraps
//! them with the path, so both depend on this module and not on each other.

use crate::format::reader::UnexpectedEof;

/// What is wrong with one record.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RecordProblem {
    /// A square holds discs of both sides.
    #[error("player and opponent discs overlap (player {player:#018x}, opponent {opponent:#018x})")]
    Overlap {
        /// Player bitboard as stored.
        player: u64,
        /// Opponent bitboard as stored.
        opponent: u64,
    },
    /// The board has no disc at all.
    #[error("the board is empty")]
    EmptyBoard,
    /// The value is not a disc difference.
    #[error("value {0} is outside -64..=64")]
    Value(i32),
    /// A text line has the wrong length.
    #[error("line has {0} characters, 67 expected")]
    LineLength(usize),
    /// A text line has a character that is not allowed at its column.
    #[error("unexpected character {found:?} at column {column}")]
    Character {
        /// 1-based column.
        column: usize,
        /// The character.
        found: char,
    },
}

/// A book file that cannot be read: what is wrong and where (byte offset, record or line).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FormatError {
    /// The data ends inside a header or record.
    #[error("truncated: {0}")]
    Truncated(#[from] UnexpectedEof),
    /// The file does not start with the format's magic bytes.
    #[error("bad magic at offset 0: expected {expected:?}, found {found:?}")]
    Magic {
        /// The magic of the format.
        expected: &'static str,
        /// The bytes found (lossy text).
        found: String,
    },
    /// The version byte is not one we read.
    #[error("unsupported version {found} at offset {offset}")]
    Version {
        /// Offset of the version byte.
        offset: usize,
        /// The version found.
        found: u8,
    },
    /// The position count is negative or larger than the data can hold.
    #[error("position count {count} at offset {offset} needs at least {needed} bytes but only {available} follow")]
    Count {
        /// Offset of the count.
        offset: usize,
        /// The count as stored.
        count: i64,
        /// Bytes the count needs at least.
        needed: u64,
        /// Bytes after the count.
        available: usize,
    },
    /// A record is malformed.
    #[error("record {index} at offset {offset}: {problem}")]
    Record {
        /// 0-based record index.
        index: u64,
        /// Offset of the record.
        offset: usize,
        /// What is wrong.
        problem: RecordProblem,
    },
    /// A line of a text book is malformed.
    #[error("line {line}: {problem}")]
    Line {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        problem: RecordProblem,
    },
    /// Bytes follow the last record.
    #[error("{extra} unexpected bytes after the last record at offset {offset}")]
    Trailing {
        /// Offset of the first extra byte.
        offset: usize,
        /// How many there are.
        extra: usize,
    },
    /// The parse was stopped through its [`Control`](super::ops::Control) before the end: not a problem of the data,
    /// and no partial book is returned. The file layer reports it as [`BookError::Stopped`](super::BookError::Stopped).
    #[error("stopped before the end")]
    Stopped,
    /// The content matches no book format.
    #[error("not a book file (no egbk3, egbk2, egbk, Edax or Egaroucid 5 text layout recognised)")]
    Unknown,
}
