//! Book files: the formats, detection from the content, the file errors ([`BookError`], wrapping the parsers'
//! [`FormatError`] from [`super::error`]), and `load`/`save` around the pure parsers and writers of [`egaroucid`],
//! [`edax`] and [`text`].

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

pub use super::error::{FormatError, RecordProblem};
use super::{Book, edax, egaroucid, text};
use crate::fsutil::{Backup, SaveError, save_atomically};

/// A book file format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BookFormat {
    /// Egaroucid 6.5+ `.egbk3` (read and write).
    Egbk3,
    /// Egaroucid 6.3–6.5 `.egbk2` (read).
    Egbk2,
    /// Egaroucid 6.0–6.2 `.egbk` (read; carries no levels).
    Egbk,
    /// Edax `book.dat` (read and write).
    Edax,
    /// Egaroucid 5's `book.txt` text book (read; carries no levels).
    Egaroucid5Text,
}

impl BookFormat {
    /// Every format.
    pub const ALL: [BookFormat; 5] =
        [BookFormat::Egbk3, BookFormat::Egbk2, BookFormat::Egbk, BookFormat::Edax, BookFormat::Egaroucid5Text];

    /// A short name (`egbk3`, `egbk2`, `egbk`, `edax`, `egaroucid5-text`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            BookFormat::Egbk3 => "egbk3",
            BookFormat::Egbk2 => "egbk2",
            BookFormat::Egbk => "egbk",
            BookFormat::Edax => "edax",
            BookFormat::Egaroucid5Text => "egaroucid5-text",
        }
    }

    /// The format for a short name or a file extension (`egbk3`, `dat`, `txt` …), case-insensitive.
    #[must_use]
    pub fn from_name(name: &str) -> Option<BookFormat> {
        match name.to_ascii_lowercase().as_str() {
            "egbk3" => Some(BookFormat::Egbk3),
            "egbk2" => Some(BookFormat::Egbk2),
            "egbk" => Some(BookFormat::Egbk),
            "edax" | "dat" => Some(BookFormat::Edax),
            "egaroucid5-text" | "txt" => Some(BookFormat::Egaroucid5Text),
            _ => None,
        }
    }

    /// Whether we can write this format.
    #[must_use]
    pub const fn is_writable(self) -> bool {
        matches!(self, BookFormat::Egbk3 | BookFormat::Edax)
    }

    /// Recognises a format from the first bytes of a file (the whole file for `egbk`, whose only header is a count).
    #[must_use]
    pub fn detect(bytes: &[u8]) -> Option<BookFormat> {
        if let Some(rest) = bytes.strip_prefix(egaroucid::MAGIC) {
            return match rest.first() {
                Some(3) => Some(BookFormat::Egbk3),
                Some(2) => Some(BookFormat::Egbk2),
                _ => None,
            };
        }
        if bytes.starts_with(edax::MAGIC) {
            return Some(BookFormat::Edax);
        }
        if text::looks_like_text_book(bytes) {
            return Some(BookFormat::Egaroucid5Text);
        }
        if egaroucid::looks_like_egbk(bytes) {
            return Some(BookFormat::Egbk);
        }
        None
    }
}

impl fmt::Display for BookFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Loading or saving a book file failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BookError {
    /// The file cannot be read.
    #[error("cannot read {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: io::Error,
    },
    /// The file is not a valid book; nothing was loaded.
    #[error("{} is not a valid {format} book: {source}", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// The format it was read as.
        format: String,
        /// What is wrong and where.
        #[source]
        source: FormatError,
    },
    /// The format cannot be written.
    #[error("{0} books can be read but not written (write egbk3 or edax)")]
    ReadOnly(BookFormat),
    /// Saving failed; the previous file is untouched.
    #[error(transparent)]
    Save(#[from] SaveError),
}

/// Settings for formats that lack a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadOptions {
    /// Level given to positions of formats without levels (egbk and the text book); Egaroucid asks the user and uses 1
    /// at start-up.
    pub level: u8,
}

impl Default for ReadOptions {
    fn default() -> ReadOptions {
        ReadOptions { level: 1 }
    }
}

/// Parses a book in `format`, or in the format [`BookFormat::detect`] finds when `format` is `None`.
///
/// # Errors
/// [`FormatError`] saying what is wrong and where; no partial book is returned.
pub fn parse(
    bytes: &[u8],
    format: Option<BookFormat>,
    options: ReadOptions,
) -> Result<(Book, BookFormat), FormatError> {
    let format = format.or_else(|| BookFormat::detect(bytes)).ok_or(FormatError::Unknown)?;
    let book = match format {
        BookFormat::Egbk3 => egaroucid::parse_egbk3(bytes)?,
        BookFormat::Egbk2 => egaroucid::parse_egbk2(bytes)?,
        BookFormat::Egbk => egaroucid::parse_egbk(bytes, options.level)?,
        BookFormat::Edax => edax::parse(bytes)?.0,
        BookFormat::Egaroucid5Text => text::parse(bytes, options.level)?,
    };
    Ok((book, format))
}

/// Reads and parses the book at `path` (format detected from the content unless given).
///
/// # Errors
/// [`BookError::Read`] or [`BookError::Parse`], naming the file.
pub fn load(path: &Path, format: Option<BookFormat>, options: ReadOptions) -> Result<(Book, BookFormat), BookError> {
    let bytes = std::fs::read(path).map_err(|source| BookError::Read { path: path.to_owned(), source })?;
    let format = format.or_else(|| BookFormat::detect(&bytes));
    parse(&bytes, format, options).map_err(|source| BookError::Parse {
        path: path.to_owned(),
        format: format.map_or_else(|| "known".to_owned(), |f| f.name().to_owned()),
        source,
    })
}

/// Writes `book` in `format` (egbk3, or Edax with default [`edax::WriteOptions`]) to `out`.
///
/// # Errors
/// The writer's I/O error, or [`io::ErrorKind::Unsupported`] for a format we only read.
pub fn write_to(book: &Book, format: BookFormat, out: &mut dyn io::Write) -> io::Result<()> {
    match format {
        BookFormat::Egbk3 => egaroucid::write_egbk3(book, out),
        BookFormat::Edax => edax::write(book, &edax::WriteOptions::default(), out),
        other => Err(io::Error::new(io::ErrorKind::Unsupported, BookError::ReadOnly(other).to_string())),
    }
}

/// Saves `book` to `path` in `format` atomically (temporary file, fsync, rename), keeping the previous file as
/// `<name>.bak`.
///
/// # Errors
/// [`BookError::ReadOnly`] for formats we only read, or [`BookError::Save`] naming the step that failed (the previous
/// file is then untouched).
pub fn save(book: &Book, path: &Path, format: BookFormat) -> Result<(), BookError> {
    if !format.is_writable() {
        return Err(BookError::ReadOnly(format));
    }
    save_atomically(path, Backup::Keep, |out| write_to(book, format, out))?;
    Ok(())
}

/// Saves an Edax book with explicit [`edax::WriteOptions`], atomically and keeping a `.bak`.
///
/// # Errors
/// [`BookError::Save`] naming the step that failed.
pub fn save_edax(book: &Book, path: &Path, options: &edax::WriteOptions) -> Result<(), BookError> {
    save_atomically(path, Backup::Keep, |out| edax::write(book, options, out))?;
    Ok(())
}
