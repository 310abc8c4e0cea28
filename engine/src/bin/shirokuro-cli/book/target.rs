//! Where a book command writes its book, for the whole run (see docs/reliability.md, "Files"):
//! - the file is locked ([`Locks`]) before the book is loaded and until the command ends, so a second command
//!   writing the same book refuses at once instead of replacing the first one's saves with its own;
//! - it is checked before any work ([`Target::new`]): a read-only file, a folder or an unwritable folder is refused
//!   before the first search, not at the first save;
//! - the run's first save keeps the previous file as `.bak` and later autosaves do not replace it, so the `.bak` is
//!   the book as it was before the run;
//! - a failed autosave keeps the book in memory, says why and tries again at the next save point; when the last save
//!   fails too, the book is written to a rescue file beside the destination (or in the temporary folder) and the
//!   command fails, saying where it is.

use std::convert::Infallible;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use shirokuro_engine::book::edax::{self, WriteOptions};
use shirokuro_engine::book::file::write_to;
use shirokuro_engine::book::ops::Control;
use shirokuro_engine::book::{Book, BookFormat};
use shirokuro_engine::fsutil::{self, Backup, FileLock, LockError};

/// The write locks a command holds until it ends.
#[derive(Debug, Default)]
pub struct Locks(Vec<FileLock>);

impl Locks {
    /// Locks `path` for this run (once per file); refuses when another run holds it. A file system without locks only
    /// gets a warning.
    pub fn lock(&mut self, path: &Path) -> Result<(), String> {
        let lock_file = fsutil::lock_path(path);
        if self.0.iter().any(|held| fsutil::lock_path(held.path()) == lock_file) {
            return Ok(());
        }
        match FileLock::try_lock(path) {
            Ok(lock) => self.0.push(lock),
            Err(error @ LockError::Unsupported { .. }) => {
                errln!("warning: {error}: another command writing it at the same time would not be stopped");
            }
            Err(error) => return Err(format!("{error} (nothing was changed)")),
        }
        Ok(())
    }
}

/// How the book is encoded.
#[derive(Debug, Clone, Copy)]
enum Encoding {
    /// A writable format with its default settings.
    Format(BookFormat),
    /// Edax's format with explicit settings.
    Edax(WriteOptions),
}

impl Encoding {
    fn write(self, book: &Book, out: &mut dyn Write) -> io::Result<()> {
        match self {
            Encoding::Format(format) => write_to(book, format, out),
            Encoding::Edax(options) => edax::write_with(book, &options, out, &Control::none()),
        }
    }

    fn name(self) -> BookFormat {
        match self {
            Encoding::Format(format) => format,
            Encoding::Edax(_) => BookFormat::Edax,
        }
    }
}

/// The file a command writes its book to, checked and locked for the run (see the [module docs](self)).
#[derive(Debug)]
pub struct Target {
    path: PathBuf,
    encoding: Encoding,
    /// Held until the command ends.
    _locks: Locks,
    /// Whether a save of this run succeeded (later saves keep no `.bak`).
    saved: bool,
    /// Why the last save failed, while the book in memory is not saved.
    failure: Option<String>,
}

impl Target {
    /// The book is written to `path` in `format`: checks that it can be (the checks of a save, and a file created and
    /// removed in its folder), then locks it, keeping `locks` (taken before the book was loaded).
    pub fn new(path: PathBuf, format: BookFormat, locks: Locks) -> Result<Target, String> {
        Target::open(path, Encoding::Format(format), locks)
    }

    /// [`Target::new`] for an Edax book written with `options`.
    pub fn edax(path: PathBuf, options: WriteOptions, locks: Locks) -> Result<Target, String> {
        Target::open(path, Encoding::Edax(options), locks)
    }

    fn open(path: PathBuf, encoding: Encoding, mut locks: Locks) -> Result<Target, String> {
        fsutil::check_writable(&path).map_err(|error| format!("{error} (nothing was done)"))?;
        locks.lock(&path)?;
        Ok(Target { path, encoding, _locks: locks, saved: false, failure: None })
    }

    /// Saves `book` once: the run's first successful save keeps the previous file as `.bak`, later ones do not.
    fn save(&mut self, book: &Book) -> Result<(), String> {
        let start = Instant::now();
        let backup = if self.saved { Backup::None } else { Backup::Keep };
        let encoding = self.encoding;
        let saved =
            fsutil::save(&self.path, backup, |out| encoding.write(book, out)).map_err(|error| error.to_string())?;
        self.saved = true;
        self.failure = None;
        match saved.leftovers_removed {
            0 => {}
            1 => errln!("removed 1 leftover temporary file of an interrupted save"),
            n => errln!("removed {n} leftover temporary files of an interrupted save"),
        }
        errln!(
            "saved {} ({}, {} positions) in {:.2} s",
            self.path.display(),
            encoding.name(),
            book.len(),
            start.elapsed().as_secs_f64()
        );
        Ok(())
    }

    /// An autosave during the run: a failure is said on stderr and remembered, and the run goes on with the book in
    /// memory (the next save point tries again; [`Target::finish`] rescues it if the last one fails too).
    pub fn save_point(&mut self, book: &Book) -> Result<(), Infallible> {
        if let Err(error) = self.save(book) {
            errln!("\n{error}\nthe book stays in memory; the next save tries again");
            self.failure = Some(error);
        }
        Ok(())
    }

    /// Ends the run after its last [`Target::save_point`]: when that save failed, writes the book to a rescue file
    /// and fails, saying where the book is.
    pub fn finish(&mut self, book: &Book) -> Result<(), String> {
        let Some(error) = self.failure.take() else { return Ok(()) };
        let encoding = self.encoding;
        match fsutil::save_rescue(&self.path, &mut |out| encoding.write(book, out)) {
            Ok(rescue) => Err(format!(
                "{error}\n{} was not saved: the book of this run ({} positions) was written to {} instead",
                self.path.display(),
                book.len(),
                rescue.display()
            )),
            Err(rescue_error) => Err(format!(
                "{error}\n{} was not saved, and the book could not be written to a rescue file either ({rescue_error}): \
                 the work of this run is lost",
                self.path.display()
            )),
        }
    }

    /// The one save at the end of a command: when it fails, the book goes to a rescue file as in [`Target::finish`].
    pub fn save_final(&mut self, book: &Book) -> Result<(), String> {
        if let Err(error) = self.save(book) {
            self.failure = Some(error);
        }
        self.finish(book)
    }
}
