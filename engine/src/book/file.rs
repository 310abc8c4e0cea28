//! Book files: the formats, detection from the content, the file errors ([`BookError`], wrapping the parsers'
//! [`FormatError`] from [`super::error`]), and `load`/`save` around the pure parsers and writers of [`egaroucid`],
//! [`edax`] and [`text`].

use std::fmt;
use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

pub use super::error::{FormatError, RecordProblem};
use super::ops::{Control, Stage, Stopped};
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
    /// The load or save was stopped through its [`Control`]: a load returns no book (nothing partial), a save leaves
    /// the previous file untouched.
    #[error("{} was stopped before the end", path.display())]
    Stopped {
        /// The file being loaded or saved.
        path: PathBuf,
    },
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
    parse_with(bytes, format, options, &Control::none())
}

/// [`parse`] with progress ([`Stage::Load`]) and stop.
///
/// # Errors
/// As [`parse`], or [`FormatError::Stopped`] when stopped (no partial book is returned).
pub fn parse_with(
    bytes: &[u8],
    format: Option<BookFormat>,
    options: ReadOptions,
    control: &Control<'_>,
) -> Result<(Book, BookFormat), FormatError> {
    let format = format.or_else(|| BookFormat::detect(bytes)).ok_or(FormatError::Unknown)?;
    let book = match format {
        BookFormat::Egbk3 => egaroucid::parse_egbk3_with(bytes, control)?,
        BookFormat::Egbk2 => egaroucid::parse_egbk2_with(bytes, control)?,
        BookFormat::Egbk => egaroucid::parse_egbk_with(bytes, options.level, control)?,
        BookFormat::Edax => edax::parse_with(bytes, control)?.0,
        BookFormat::Egaroucid5Text => text::parse_with(bytes, options.level, control)?,
    };
    Ok((book, format))
}

/// Reads and parses the book at `path` (format detected from the content unless given; a gzip-compressed file is
/// unpacked first).
///
/// # Errors
/// [`BookError::Read`] or [`BookError::Parse`], naming the file.
pub fn load(path: &Path, format: Option<BookFormat>, options: ReadOptions) -> Result<(Book, BookFormat), BookError> {
    load_with(path, format, options, &Control::none())
}

/// [`load`] with progress and stop: [`Stage::Read`] while the file is read (bytes, a piece of [`READ_PIECE`] at a
/// time), then [`Stage::Load`] while its records are parsed.
///
/// # Errors
/// As [`load`], or [`BookError::Stopped`] when stopped: no book is returned, so a partly read book is never taken
/// for the whole one.
pub fn load_with(
    path: &Path,
    format: Option<BookFormat>,
    options: ReadOptions,
    control: &Control<'_>,
) -> Result<(Book, BookFormat), BookError> {
    let stopped = || BookError::Stopped { path: path.to_owned() };
    let bytes = match read_with(path, control).and_then(gunzip) {
        Ok(bytes) => bytes,
        Err(error) if Stopped::is_in(&error) => return Err(stopped()),
        Err(source) => return Err(BookError::Read { path: path.to_owned(), source }),
    };
    let format = format.or_else(|| BookFormat::detect(&bytes));
    parse_with(&bytes, format, options, control).map_err(|source| match source {
        FormatError::Stopped => stopped(),
        source => BookError::Parse {
            path: path.to_owned(),
            format: format.map_or_else(|| "known".to_owned(), |f| f.name().to_owned()),
            source,
        },
    })
}

/// The most a gzip-compressed book may unpack to (a guard against a file that unpacks without end).
pub const MAX_UNPACKED: u64 = 4 << 30;

/// `bytes` as they are, or unpacked when they are gzip data (the default book ships compressed: `*.egbk3.gz`).
///
/// # Errors
/// [`io::ErrorKind::InvalidData`] for damaged gzip data or data that unpacks to more than [`MAX_UNPACKED`] bytes.
fn gunzip(bytes: Vec<u8>) -> io::Result<Vec<u8>> {
    if !bytes.starts_with(&[0x1f, 0x8b]) {
        return Ok(bytes);
    }
    let mut unpacked = Vec::with_capacity(bytes.len().saturating_mul(3));
    let _read = flate2::read::GzDecoder::new(bytes.as_slice()).take(MAX_UNPACKED + 1).read_to_end(&mut unpacked)?;
    if unpacked.len() as u64 > MAX_UNPACKED {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("gzip data unpacks to more than {MAX_UNPACKED} bytes"),
        ));
    }
    Ok(unpacked)
}

/// Bytes read between two progress reports of [`load_with`] (a few milliseconds from a disk cache).
pub const READ_PIECE: usize = 8 << 20;

/// Reads a whole file a piece at a time, reporting [`Stage::Read`] and checking the stop flag before each piece.
fn read_with(path: &Path, control: &Control<'_>) -> io::Result<Vec<u8>> {
    // Only a regular file, of a size a book can have (not /dev/zero, not a FIFO that blocks for ever).
    let size = crate::bounded::regular_file_size(path)?;
    crate::bounded::too_large(size, crate::bounded::BOOK_BYTES)?;
    let mut file = File::open(path)?;
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    loop {
        let done = bytes.len() as u64;
        control.report(Stage::Read, done, size.max(done));
        control.check_io()?;
        let read = file.by_ref().take(READ_PIECE as u64).read_to_end(&mut bytes)?;
        // A file that grows while it is read is still held to the limit.
        crate::bounded::too_large(bytes.len() as u64, crate::bounded::BOOK_BYTES)?;
        if read == 0 {
            return Ok(bytes);
        }
    }
}

/// Writes `book` in `format` (egbk3, or Edax with default [`edax::WriteOptions`]) to `out`.
///
/// # Errors
/// The writer's I/O error, or [`io::ErrorKind::Unsupported`] for a format we only read.
pub fn write_to(book: &Book, format: BookFormat, out: &mut dyn io::Write) -> io::Result<()> {
    write_to_with(book, format, out, &Control::none())
}

/// [`write_to`] with progress ([`Stage::Save`]) and stop.
///
/// # Errors
/// As [`write_to`]; a stop is an [`io::ErrorKind::Interrupted`] error carrying [`Stopped`] (the output is then
/// incomplete).
pub fn write_to_with(
    book: &Book,
    format: BookFormat,
    out: &mut dyn io::Write,
    control: &Control<'_>,
) -> io::Result<()> {
    match format {
        BookFormat::Egbk3 => egaroucid::write_egbk3_with(book, out, control),
        BookFormat::Edax => edax::write_with(book, &edax::WriteOptions::default(), out, control),
        other => Err(io::Error::new(io::ErrorKind::Unsupported, BookError::ReadOnly(other).to_string())),
    }
}

/// Saves `book` to `path` in `format` atomically (temporary file, fsync, rename), keeping the previous file as
/// `<name>.bak`, with the other promises of [`save_atomically`] (links followed, permissions kept, read-only files and
/// folders refused, leftovers of killed saves removed).
///
/// # Errors
/// [`BookError::ReadOnly`] for formats we only read, or [`BookError::Save`] naming the step that failed (the previous
/// file is then untouched).
pub fn save(book: &Book, path: &Path, format: BookFormat) -> Result<(), BookError> {
    save_with(book, path, format, &Control::none())
}

/// [`save`] with progress ([`Stage::Save`]) and stop.
///
/// # Errors
/// As [`save`], or [`BookError::Stopped`] when stopped while writing: the temporary file is removed and the previous
/// file (and its `.bak`) is untouched. A stop after the last record is written lets the save finish.
pub fn save_with(book: &Book, path: &Path, format: BookFormat, control: &Control<'_>) -> Result<(), BookError> {
    if !format.is_writable() {
        return Err(BookError::ReadOnly(format));
    }
    atomically(path, |out| write_to_with(book, format, out, control))
}

/// Saves an Edax book with explicit [`edax::WriteOptions`], atomically and keeping a `.bak`.
///
/// # Errors
/// [`BookError::Save`] naming the step that failed.
pub fn save_edax(book: &Book, path: &Path, options: &edax::WriteOptions) -> Result<(), BookError> {
    save_edax_with(book, path, options, &Control::none())
}

/// [`save_edax`] with progress ([`Stage::Save`]) and stop.
///
/// # Errors
/// As [`save_edax`], or [`BookError::Stopped`] as [`save_with`].
pub fn save_edax_with(
    book: &Book,
    path: &Path,
    options: &edax::WriteOptions,
    control: &Control<'_>,
) -> Result<(), BookError> {
    atomically(path, |out| edax::write_with(book, options, out, control))
}

/// [`save_atomically`] keeping a `.bak`, with a writer's stop reported as [`BookError::Stopped`].
fn atomically(path: &Path, write: impl FnOnce(&mut dyn io::Write) -> io::Result<()>) -> Result<(), BookError> {
    save_atomically(path, Backup::Keep, write).map_err(|error| {
        if Stopped::is_in(&error.source) {
            BookError::Stopped { path: path.to_owned() }
        } else {
            BookError::Save(error)
        }
    })
}
