//! The checkpoint of a long labelling run, so that it can be stopped at any moment (a signal, a killed process, the
//! end of a session) and continued by the same command into the same file a run never stopped would have written.
//!
//! The checkpoint is a text file beside the output. Its first line describes the run (everything that decides its
//! labels: the sampled positions' fingerprint, the search and the evaluation); then come the labels finished so far,
//! in the run's order, one `board64 X score` line each followed by ` =` (solved exactly) or ` ~` (searched). Labels
//! are appended a chunk at a time and synced, so a kill loses at most the chunk under way and leaves at worst a cut
//! last line, which the next run drops. A checkpoint written by another run, or whose positions are not the run's,
//! is refused rather than continued.

use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::board::Board;
use crate::tools::label::Labelled;

/// The start of a checkpoint's first line.
const HEADER: &str = "shirokuro label checkpoint 1: ";

/// Why a checkpoint could not be opened or written.
#[derive(Debug)]
pub enum CheckpointError {
    /// Reading or writing the file failed.
    Io {
        /// The checkpoint.
        path: PathBuf,
        /// What the system said.
        error: io::Error,
    },
    /// The file belongs to another run (other positions, search or evaluation).
    OtherRun {
        /// The checkpoint.
        path: PathBuf,
        /// The other run's description (its first line, cut to 300 characters).
        found: String,
    },
    /// A line is not a label, and not the cut last line of a killed run either.
    BadLine {
        /// The checkpoint.
        path: PathBuf,
        /// The line's number, from 1.
        line: usize,
    },
    /// A line holds another position than the run's label at that place.
    OtherPosition {
        /// The checkpoint.
        path: PathBuf,
        /// The line's number, from 1.
        line: usize,
    },
}

impl fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckpointError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            CheckpointError::OtherRun { path, found } => write!(
                f,
                "{} is the checkpoint of another run ({found}); remove it to start this one afresh",
                path.display()
            ),
            CheckpointError::BadLine { path, line } => {
                write!(f, "{}, line {line}: not a label; remove the file to start afresh", path.display())
            }
            CheckpointError::OtherPosition { path, line } => write!(
                f,
                "{}, line {line}: another position than this run's; remove the file to start afresh",
                path.display()
            ),
        }
    }
}

impl std::error::Error for CheckpointError {}

/// An open checkpoint: the labels finished so far, and the file that new ones are appended to.
#[derive(Debug)]
pub struct Checkpoint {
    path: PathBuf,
    file: File,
    labels: Vec<Labelled>,
}

impl Checkpoint {
    /// Opens the checkpoint at `path` of the run described by `run` (one line) that labels `boards` in this order, or
    /// starts one there. The labels it already holds are checked against `boards`; a cut last line is dropped from
    /// the file.
    pub fn open(path: &Path, run: &str, boards: &[Board]) -> Result<Checkpoint, CheckpointError> {
        let io = |error| CheckpointError::Io { path: path.to_path_buf(), error };
        let header = format!("{HEADER}{}", run.replace('\n', " "));
        let mut text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(error) if error.kind() == io::ErrorKind::NotFound => String::new(),
            Err(error) => return Err(io(error)),
        };
        // A file cut before the end of its first line is a start that never wrote a label.
        if !text.contains('\n') {
            text.clear();
        }
        let mut labels = Vec::new();
        let mut kept = 0;
        if !text.is_empty() {
            let (first, rest) = text.split_once('\n').unwrap_or((&text, ""));
            if first != header {
                let found = first.strip_prefix(HEADER).unwrap_or(first).chars().take(300).collect();
                return Err(CheckpointError::OtherRun { path: path.to_path_buf(), found });
            }
            kept = first.len() + 1;
            let mut lines = rest.split_inclusive('\n').peekable();
            while let Some(line) = lines.next() {
                let number = labels.len() + 2;
                let whole = line.ends_with('\n');
                let Some(label) = line.strip_suffix('\n').and_then(parse_line) else {
                    if !whole && lines.peek().is_none() {
                        break; // the cut last line of a killed run
                    }
                    return Err(CheckpointError::BadLine { path: path.to_path_buf(), line: number });
                };
                if boards.get(labels.len()) != Some(&label.board) {
                    return Err(CheckpointError::OtherPosition { path: path.to_path_buf(), line: number });
                }
                labels.push(label);
                kept += line.len();
            }
        }
        let mut file = OpenOptions::new().create(true).append(true).open(path).map_err(io)?;
        if kept == 0 {
            file.set_len(0).map_err(io)?;
            file.write_all(format!("{header}\n").as_bytes()).map_err(io)?;
            file.sync_data().map_err(io)?;
        } else if kept < text.len() {
            file.set_len(kept as u64).map_err(io)?;
        }
        Ok(Checkpoint { path: path.to_path_buf(), file, labels })
    }

    /// The labels finished so far, in the run's order.
    #[must_use]
    pub fn labels(&self) -> &[Labelled] {
        &self.labels
    }

    /// Appends the next labels of the run and syncs them to the disk.
    pub fn append(&mut self, labels: &[Labelled]) -> Result<(), CheckpointError> {
        let mut text = String::with_capacity(labels.len() * 76);
        for label in labels {
            text.push_str(&label.to_line());
            text.push_str(if label.exact { " =\n" } else { " ~\n" });
        }
        let io = |error| CheckpointError::Io { path: self.path.clone(), error };
        self.file.write_all(text.as_bytes()).map_err(io)?;
        self.file.sync_data().map_err(io)?;
        self.labels.extend_from_slice(labels);
        Ok(())
    }

    /// Removes the file (the run's output is written): its labels are returned.
    pub fn remove(self) -> Result<Vec<Labelled>, CheckpointError> {
        drop(self.file);
        std::fs::remove_file(&self.path).map_err(|error| CheckpointError::Io { path: self.path, error })?;
        Ok(self.labels)
    }
}

/// A checkpoint's label line (without its newline), or `None` if it is not one.
fn parse_line(line: &str) -> Option<Labelled> {
    let (label, flag) = line.rsplit_once(' ')?;
    let exact = match flag {
        "=" => true,
        "~" => false,
        _ => return None,
    };
    let (squares, score) = label.split_once(" X ")?;
    if squares.len() != 64 {
        return None;
    }
    let (mut player, mut opponent) = (0u64, 0u64);
    for (i, c) in squares.bytes().enumerate() {
        match c {
            b'X' => player |= 1 << i,
            b'O' => opponent |= 1 << i,
            b'-' => {}
            _ => return None,
        }
    }
    let board = Board::new(player, opponent)?;
    let score = score.parse().ok().filter(|s: &i32| (-64..=64).contains(s))?;
    Some(Labelled { board, score, exact })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn boards() -> Vec<Board> {
        let mut rng = crate::rng::GameRng::for_game(3, 0);
        let mut pick = |n: usize| rng.below(n);
        (0..6).map(|k| Board::INITIAL.after_random_moves(4 + 3 * k, &mut pick)).collect()
    }

    fn labels(boards: &[Board]) -> Vec<Labelled> {
        boards
            .iter()
            .enumerate()
            .map(|(i, &board)| Labelled { board, score: i as i32 * 3 - 7, exact: i % 2 == 0 })
            .collect()
    }

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("shirokuro-checkpoint-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join("out.txt.resume")
    }

    #[test]
    fn a_stopped_run_continues_where_it_stopped() {
        let (boards, path) = (boards(), temp("continue"));
        let all = labels(&boards);
        let mut first = Checkpoint::open(&path, "depth 4", &boards).unwrap();
        assert!(first.labels().is_empty());
        first.append(&all[..2]).unwrap();
        first.append(&all[2..3]).unwrap();
        drop(first);
        let mut second = Checkpoint::open(&path, "depth 4", &boards).unwrap();
        assert_eq!(second.labels(), &all[..3]);
        second.append(&all[3..]).unwrap();
        assert_eq!(second.remove().unwrap(), all);
        assert!(!path.exists());
        // Another run's checkpoint is refused and left as it was.
        let mut other = Checkpoint::open(&path, "depth 4", &boards).unwrap();
        other.append(&all[..1]).unwrap();
        let before = std::fs::read(&path).unwrap();
        let err = Checkpoint::open(&path, "depth 6", &boards).unwrap_err();
        assert!(matches!(&err, CheckpointError::OtherRun { found, .. } if found == "depth 4"), "{err}");
        assert_eq!(std::fs::read(&path).unwrap(), before);
        // So is one whose positions are not the run's.
        let err = Checkpoint::open(&path, "depth 4", &boards[1..]).unwrap_err();
        assert!(matches!(err, CheckpointError::OtherPosition { line: 2, .. }), "{err}");
        std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
    }

    #[test]
    fn a_cut_last_line_is_dropped_and_a_bad_line_refused() {
        let (boards, path) = (boards(), temp("cut"));
        let all = labels(&boards);
        let mut run = Checkpoint::open(&path, "r", &boards).unwrap();
        run.append(&all[..3]).unwrap();
        drop(run);
        let whole = std::fs::read_to_string(&path).unwrap();
        // Cut inside the fourth line (a killed write), and inside the first line (a killed start).
        for cut in [whole.len() - 10, 5] {
            std::fs::write(&path, &whole[..cut]).unwrap();
            let expect = if cut == 5 { 0 } else { 2 };
            let mut again = Checkpoint::open(&path, "r", &boards).unwrap();
            assert_eq!(again.labels(), &all[..expect]);
            again.append(&all[expect..]).unwrap();
            drop(again);
            assert_eq!(Checkpoint::open(&path, "r", &boards).unwrap().labels(), &all[..]);
        }
        // A damaged line that is not the last is an error that names it, and the file stays.
        let text = std::fs::read_to_string(&path).unwrap().replacen(" X 2 ", " X two ", 1);
        std::fs::write(&path, &text).unwrap();
        let err = Checkpoint::open(&path, "r", &boards).unwrap_err();
        assert!(matches!(err, CheckpointError::BadLine { line: 5, .. }), "{err}");
        assert!(err.to_string().contains("line 5"));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
        std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
    }
}
