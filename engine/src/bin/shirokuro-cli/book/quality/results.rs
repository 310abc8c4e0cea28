//! `book quality --results FILE`: the comparisons kept in a text file as they are made, so that a long measurement
//! runs in chunks (stopped at any moment, continued later) or in shards on several machines.
//!
//! The file: one header line that names the sample (`# shirokuro book quality 1: …`, repeated where shards' files
//! were concatenated, and then equal), then one line per compared position:
//! `INDEX PLY BOOK_VALUE SEARCH_VALUE SAME` where INDEX is the position's place in the sample, the values are from
//! the side to move's view, and SAME is `same`, `other` (the book's best move is not the search's) or `none` (no book
//! move to compare). A line cut short by a kill is dropped and cut off the file before anything is added.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{ErrorKind, Read, Write};
use std::path::{Path, PathBuf};

use super::Compared;

/// The results file, open for adding.
pub struct Results {
    path: PathBuf,
    file: File,
}

/// What a results file held.
pub struct Loaded {
    pub results: Results,
    /// The comparisons already made, by their index in the sample.
    pub done: BTreeMap<usize, Compared>,
    /// Whether a cut line was dropped.
    pub dropped_cut_line: bool,
}

impl Results {
    /// Opens (or creates) `path` for the sample named by `header`, reading what it holds.
    ///
    /// # Errors
    /// A message naming the file (and the line) when it cannot be read, belongs to another sample, or is damaged.
    pub fn open(path: &Path, header: &str) -> Result<Loaded, String> {
        let shown = path.display();
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)
            .map_err(|e| format!("cannot open the results file {shown}: {e}"))?;
        let mut bytes = Vec::new();
        let _read = file.read_to_end(&mut bytes).map_err(|e| format!("cannot read the results file {shown}: {e}"))?;
        // A kill can cut the last line: keep what ends with a newline, cut the rest off the file.
        let whole = bytes.iter().rposition(|b| *b == b'\n').map_or(0, |at| at + 1);
        let dropped_cut_line = whole < bytes.len();
        if dropped_cut_line {
            file.set_len(whole as u64).map_err(|e| format!("cannot cut the last, unfinished line of {shown}: {e}"))?;
        }
        let text = std::str::from_utf8(&bytes[..whole])
            .map_err(|e| format!("{shown} is not a results file (not UTF-8 text at byte {})", e.valid_up_to()))?;
        let mut done = BTreeMap::new();
        let mut results = Results { path: path.to_path_buf(), file };
        if text.is_empty() {
            results.write_line(header)?;
        }
        for (number, line) in text.lines().enumerate() {
            let number = number + 1;
            if line.starts_with('#') {
                if line != header {
                    return Err(format!(
                        "{shown}, line {number}: made for another sample or book ({line:?}; this run is {header:?}): \
                         give another --results file, or the same book and settings"
                    ));
                }
                continue;
            }
            let (index, compared) =
                parse(line).ok_or_else(|| format!("{shown}, line {number}: not a result line: {line:?}"))?;
            let _first = done.entry(index).or_insert(compared);
        }
        Ok(Loaded { results, done, dropped_cut_line })
    }

    /// Adds one comparison and makes it durable before returning.
    ///
    /// # Errors
    /// A message naming the file when it cannot be written.
    pub fn add(&mut self, index: usize, compared: &Compared) -> Result<(), String> {
        let same = match compared.same_best {
            Some(true) => "same",
            Some(false) => "other",
            None => "none",
        };
        let line = format!("{index} {} {} {} {same}", compared.ply, compared.book_value, compared.search_value);
        self.write_line(&line)
    }

    fn write_line(&mut self, line: &str) -> Result<(), String> {
        let written = self.file.write_all(format!("{line}\n").as_bytes()).and_then(|()| self.file.sync_data());
        written.map_err(|e| match e.kind() {
            ErrorKind::StorageFull => {
                format!("the disk is full: cannot add to the results file {}", self.path.display())
            }
            _ => format!("cannot write the results file {}: {e}", self.path.display()),
        })
    }
}

fn parse(line: &str) -> Option<(usize, Compared)> {
    let mut fields = line.split(' ');
    let index = fields.next()?.parse().ok()?;
    let ply = fields.next()?.parse().ok()?;
    let book_value = fields.next()?.parse().ok()?;
    let search_value = fields.next()?.parse().ok()?;
    let same_best = match fields.next()? {
        "same" => Some(true),
        "other" => Some(false),
        "none" => None,
        _ => return None,
    };
    if fields.next().is_some() || !(-64..=64).contains(&book_value) || !(-64..=64).contains(&search_value) {
        return None;
    }
    Some((index, Compared { ply, book_value, search_value, same_best }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("shirokuro-quality-results-{}-{name}", std::process::id()));
        let _ = std::fs::remove_file(&dir);
        dir
    }

    #[test]
    fn adds_reads_back_and_cuts_an_unfinished_line() {
        let path = temp("cut");
        let header = "# shirokuro book quality 1: test";
        let mut loaded = Results::open(&path, header).unwrap();
        assert!(loaded.done.is_empty());
        let compared = Compared { ply: 12, book_value: -2, search_value: 4, same_best: Some(false) };
        loaded.results.add(7, &compared).unwrap();
        drop(loaded);
        // A killed run leaves half a line.
        let mut file = OpenOptions::new().append(true).open(&path).unwrap();
        file.write_all(b"9 13 1").unwrap();
        drop(file);
        let loaded = Results::open(&path, header).unwrap();
        assert!(loaded.dropped_cut_line);
        assert_eq!(loaded.done.len(), 1);
        let back = &loaded.done[&7];
        assert_eq!((back.ply, back.book_value, back.search_value, back.same_best), (12, -2, 4, Some(false)));
        drop(loaded);
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text, format!("{header}\n7 12 -2 4 other\n"));
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn refuses_another_sample_and_damaged_lines() {
        let path = temp("other");
        std::fs::write(&path, "# shirokuro book quality 1: one\n").unwrap();
        let error = Results::open(&path, "# shirokuro book quality 1: two").err().unwrap();
        assert!(error.contains("line 1") && error.contains("another sample"), "{error}");
        std::fs::write(&path, "# h\n3 10 99 0 same\n").unwrap();
        let error = Results::open(&path, "# h").err().unwrap();
        assert!(error.contains("line 2"), "{error}");
        let _ = std::fs::remove_file(&path);
    }
}
