//! A file given on the command line (`shirokuro FILE`, the desktop's "Open With") or dropped on the window: what it
//! holds is told from its content, not its name — a game file (Egaroucid's JSON), an opening book (egbk3, egbk2,
//! egbk, Edax's `.dat`, Egaroucid 5's text book), or text holding a game (a transcript, GGF, a board). Only the
//! first bytes are read for a book; the game and the text are read whole, within the game files' size limit.

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use shirokuro_engine::book::BookFormat;
use shirokuro_engine::bounded;
use shirokuro_engine::fsutil::IoFailure;

/// The bytes read to tell a file's kind.
const PREFIX_BYTES: u64 = 64 << 10;

/// What a file holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// A game file (Egaroucid's JSON): opened as Open Game opens it.
    Game,
    /// An opening book in this format.
    Book(BookFormat),
    /// Text, read as Input Text reads it (a transcript, GGF, a board).
    Text(String),
}

/// Why a file could not be opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// It could not be read (missing, a folder or device, no permission, larger than a game file may be).
    Read(IoFailure),
    /// It is neither a game, nor a book, nor text.
    Unknown,
}

/// A file the user asked to open, and what it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Classified {
    /// The file.
    pub path: PathBuf,
    /// What it holds, or why it cannot be opened.
    pub kind: Result<Kind, Problem>,
}

/// Tells what `path` holds (blocking: run it on a background task).
#[must_use]
pub fn classify(path: PathBuf) -> Classified {
    let kind = kind_of(&path);
    Classified { path, kind }
}

fn kind_of(path: &Path) -> Result<Kind, Problem> {
    let read_error = |error: std::io::Error| Problem::Read(IoFailure::from(error));
    let size = bounded::regular_file_size(path).map_err(read_error)?;
    let mut prefix = Vec::new();
    let _read =
        File::open(path).and_then(|file| file.take(PREFIX_BYTES).read_to_end(&mut prefix)).map_err(read_error)?;
    let text_start = prefix.strip_prefix("\u{feff}".as_bytes()).unwrap_or(&prefix).trim_ascii_start();
    if text_start.starts_with(b"{") {
        return Ok(Kind::Game);
    }
    if let Some(format) = BookFormat::detect(&prefix).filter(|format| *format != BookFormat::Egbk) {
        return Ok(Kind::Book(format));
    }
    // Egaroucid 6.0's `.egbk` has no signature: only the whole file tells (its count must match its length).
    let egbk_named = path.extension().is_some_and(|extension| extension.eq_ignore_ascii_case("egbk"));
    if egbk_named {
        let bytes = bounded::read(path, bounded::BOOK_BYTES).map_err(read_error)?;
        if BookFormat::detect(&bytes) == Some(BookFormat::Egbk) {
            return Ok(Kind::Book(BookFormat::Egbk));
        }
    }
    if size > bounded::SMALL_BYTES || std::str::from_utf8(&prefix).is_err_and(|e| e.error_len().is_some()) {
        return Err(Problem::Unknown);
    }
    let text = bounded::read_to_string(path, bounded::SMALL_BYTES).map_err(|error| match error.kind() {
        std::io::ErrorKind::InvalidData => Problem::Unknown,
        _ => read_error(error),
    })?;
    Ok(Kind::Text(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classified(name: &str, bytes: &[u8]) -> Result<Kind, Problem> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        classify(path).kind
    }

    #[test]
    fn the_content_tells_the_kind_whatever_the_name() {
        assert_eq!(classified("game.txt", b"  {\"black_player\": \"\"}"), Ok(Kind::Game));
        assert_eq!(classified("game.json", "\u{feff}{}".as_bytes()), Ok(Kind::Game));
        assert_eq!(classified("book.bin", b"DICUORAGE\x03rest"), Ok(Kind::Book(BookFormat::Egbk3)));
        assert_eq!(classified("book.json", b"DICUORAGE\x02rest"), Ok(Kind::Book(BookFormat::Egbk2)));
        assert_eq!(classified("edax", b"XADEKOOB rest of the header"), Ok(Kind::Book(BookFormat::Edax)));
        assert_eq!(classified("line.egbk3", b"f5d6c3d3c4\n"), Ok(Kind::Text("f5d6c3d3c4\n".to_owned())));
        assert_eq!(classified("noise.dat", &[0xff, 0xfe, 0x00, 0x81]), Err(Problem::Unknown));
    }

    #[test]
    fn what_cannot_be_read_says_why() {
        let dir = tempfile::tempdir().unwrap();
        let missing = classify(dir.path().join("missing.json")).kind;
        assert!(matches!(missing, Err(Problem::Read(IoFailure { kind: std::io::ErrorKind::NotFound, .. }))));
        assert!(matches!(classify(dir.path().to_path_buf()).kind, Err(Problem::Read(_))));
    }
}
