//! Reading input files within bounds: only regular files are read (a path to `/dev/zero` or a FIFO is refused instead
//! of read until the memory runs out or blocking for ever), and never more than a limit sane for what the file is.

#![deny(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::cast_possible_truncation,
    clippy::arithmetic_side_effects,
    reason = "reads untrusted input: every access is checked, every failure is an error value"
)]

use std::fs::{self, File};
use std::io::{self, Read};
use std::path::Path;

/// The most a book file may hold (the largest books in use are a few hundred MB).
pub const BOOK_BYTES: u64 = 8 << 30;
/// The most a file of game records, transcripts or positions may hold.
pub const RECORDS_BYTES: u64 = 2 << 30;
/// The most a game file, a WTHOR file or a small settings-like file may hold.
pub const SMALL_BYTES: u64 = 256 << 20;

/// The size of `path` when it is a regular file (symbolic links followed).
///
/// # Errors
/// The system's error, or [`io::ErrorKind::InvalidInput`] naming what the path is when it is not a regular file.
pub fn regular_file_size(path: &Path) -> io::Result<u64> {
    let metadata = fs::metadata(path)?;
    if metadata.is_file() {
        return Ok(metadata.len());
    }
    let what = if metadata.is_dir() { "a folder" } else { "not a regular file (a device, a pipe or a socket)" };
    Err(io::Error::new(io::ErrorKind::InvalidInput, format!("it is {what}, not a file to read")))
}

/// The bytes of the regular file `path`, at most `limit` of them.
///
/// # Errors
/// As [`regular_file_size`], or [`io::ErrorKind::FileTooLarge`] when the file holds more than `limit` bytes.
pub fn read(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let size = regular_file_size(path)?;
    too_large(size, limit)?;
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    let _read = File::open(path)?.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    too_large(bytes.len() as u64, limit)?;
    Ok(bytes)
}

/// The text of the regular file `path` (UTF-8), at most `limit` bytes.
///
/// # Errors
/// As [`read`], or [`io::ErrorKind::InvalidData`] when the file is not UTF-8 text.
pub fn read_to_string(path: &Path, limit: u64) -> io::Result<String> {
    String::from_utf8(read(path, limit)?)
        .map_err(|error| io::Error::new(io::ErrorKind::InvalidData, format!("not UTF-8 text: {}", error.utf8_error())))
}

/// `Err` with [`io::ErrorKind::FileTooLarge`] when `size` exceeds `limit`.
///
/// # Errors
/// That error.
pub fn too_large(size: u64, limit: u64) -> io::Result<()> {
    if size > limit {
        return Err(io::Error::new(
            io::ErrorKind::FileTooLarge,
            format!("it holds more than {limit} bytes, more than such a file can sensibly be"),
        ));
    }
    Ok(())
}

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::cast_possible_truncation,
    clippy::arithmetic_side_effects,
    reason = "tests"
)]
mod tests {
    use super::*;

    #[test]
    fn only_regular_files_within_the_limit_are_read() {
        let dir = std::env::temp_dir().join(format!("shirokuro-bounded-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let file = dir.join("a.txt");
        fs::write(&file, "twelve bytes").unwrap();
        assert_eq!(read_to_string(&file, 100).unwrap(), "twelve bytes");
        assert_eq!(read(&file, 11).unwrap_err().kind(), io::ErrorKind::FileTooLarge);
        assert_eq!(read(&dir, 100).unwrap_err().kind(), io::ErrorKind::InvalidInput);
        #[cfg(unix)]
        {
            // A device that never ends and a pipe that never answers are refused at once.
            assert_eq!(read(Path::new("/dev/zero"), 100).unwrap_err().kind(), io::ErrorKind::InvalidInput);
            assert_eq!(read(Path::new("/dev/null"), 100).unwrap_err().kind(), io::ErrorKind::InvalidInput);
        }
        fs::write(&file, [0xff, 0xfe]).unwrap();
        assert_eq!(read_to_string(&file, 100).unwrap_err().kind(), io::ErrorKind::InvalidData);
        fs::remove_dir_all(&dir).unwrap();
    }
}
