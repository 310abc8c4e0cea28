//! The forced openings on disk: `<data>/forced_openings/`, a folder per folder with `summary.csv` and
//! `folder_state.json` (see the parent module). Reading is lenient line by line — a line that is not an opening is
//! skipped and counted, so one bad line never hides the others — and writing is atomic, file by file.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use shirokuro_engine::fsutil::IoFailure;
use shirokuro_engine::notation::parse_transcript;

use super::{Folder, Opening};
use crate::fsutil::{SaveFailure, write_atomic};

/// The folder of the forced openings in the data folder.
#[must_use]
pub fn root_dir(data_dir: &Path) -> PathBuf {
    data_dir.join("forced_openings")
}

/// What reading the tree found wrong (the rest is read).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Skipped {
    /// Lines of `summary.csv` files that are not openings, as `file:line`.
    pub lines: Vec<String>,
}

/// Reads the tree under `dir` (an empty root when it does not exist).
///
/// # Errors
/// [`IoFailure`] when a folder or file that exists cannot be read.
pub fn load(dir: &Path) -> Result<(Folder, Skipped), IoFailure> {
    let mut skipped = Skipped::default();
    let root = if dir.is_dir() { read_folder(dir, String::new(), &mut skipped)? } else { Folder::default() };
    Ok((root, skipped))
}

fn read_folder(dir: &Path, name: String, skipped: &mut Skipped) -> Result<Folder, IoFailure> {
    let mut folder = Folder { name, ..Folder::default() };
    let state = dir.join("folder_state.json");
    if state.is_file() {
        let text = fs::read_to_string(&state).map_err(IoFailure::from)?;
        let mut lines = text.lines().map(str::trim);
        folder.enabled = lines.next() != Some("false");
        folder.weight =
            lines.next().and_then(|w| w.parse::<f64>().ok()).filter(|w| w.is_finite() && *w > 0.0).unwrap_or(1.0);
    }
    let summary = dir.join("summary.csv");
    if summary.is_file() {
        let text = fs::read_to_string(&summary).map_err(IoFailure::from)?;
        for (number, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            match parse_line(line) {
                Some(opening) => folder.openings.push(opening),
                None => skipped.lines.push(format!("{}:{}", summary.display(), number + 1)),
            }
        }
    }
    let mut subfolders: Vec<(String, PathBuf)> = fs::read_dir(dir)
        .map_err(IoFailure::from)?
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|entry| entry.file_name().to_str().map(|n| (n.to_owned(), entry.path())))
        .collect();
    subfolders.sort();
    for (name, path) in subfolders {
        folder.folders.push(read_folder(&path, name, skipped)?);
    }
    Ok(folder)
}

/// One `summary.csv` line: `transcript[,weight[,enabled]]`.
fn parse_line(line: &str) -> Option<Opening> {
    let mut fields = line.split(',').map(str::trim);
    let moves: Vec<_> =
        parse_transcript(fields.next()?).ok()?.moves.into_iter().filter_map(shirokuro_engine::Move::square).collect();
    if moves.is_empty() {
        return None;
    }
    let weight = match fields.next() {
        None | Some("") => 1.0,
        Some(w) => w.parse::<f64>().ok().filter(|w| w.is_finite() && *w > 0.0)?,
    };
    let enabled = match fields.next() {
        None | Some("") | Some("true") => true,
        Some("false") => false,
        Some(_) => return None,
    };
    Some(Opening { moves, weight, enabled })
}

/// Writes `folder` and everything under it into `dir`; folders on disk that the tree no longer has are removed
/// (only folders: a file that is not ours is left alone).
///
/// # Errors
/// [`SaveFailure`] of the first file or folder that could not be written or removed.
pub fn save(dir: &Path, folder: &Folder) -> Result<(), SaveFailure> {
    let io = |error: io::Error| SaveFailure { step: None, error: error.into() };
    fs::create_dir_all(dir).map_err(io)?;
    let state = format!("{}\n{}\n", folder.enabled, folder.weight);
    write_atomic(&dir.join("folder_state.json"), state.as_bytes())?;
    let summary: String =
        folder.openings.iter().map(|o| format!("{},{},{}\n", o.transcript(), o.weight, o.enabled)).collect();
    write_atomic(&dir.join("summary.csv"), summary.as_bytes())?;
    for sub in &folder.folders {
        save(&dir.join(&sub.name), sub)?;
    }
    if let Ok(entries) = fs::read_dir(dir) {
        for entry in entries.filter_map(Result::ok) {
            let name = entry.file_name();
            let ours = folder.folders.iter().any(|f| std::ffi::OsStr::new(&f.name) == name);
            if entry.file_type().is_ok_and(|t| t.is_dir()) && !ours {
                fs::remove_dir_all(entry.path()).map_err(io)?;
            }
        }
    }
    Ok(())
}

/// Whether `name` can be a folder's name: not empty, no path separators or dots alone, at most 64 characters.
#[must_use]
pub fn valid_folder_name(name: &str) -> bool {
    let name = name.trim();
    !name.is_empty()
        && name.chars().count() <= 64
        && name != "."
        && name != ".."
        && !name.chars().any(|c| matches!(c, '/' | '\\' | ':' | '*' | '?' | '"' | '<' | '>' | '|') || c.is_control())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tree_is_saved_and_read_back_and_bad_lines_are_skipped() {
        let dir = tempfile::tempdir().unwrap();
        let root_path = root_dir(dir.path());
        let (empty, _) = load(&root_path).unwrap();
        assert_eq!(empty, Folder::default(), "no folder: an empty tree");
        let mut root = Folder::default();
        root.openings.push(parse_line("f5d6c3d3c4,2.5,true").unwrap());
        root.openings.push(parse_line("f5f6").unwrap());
        let mut tiger = Folder { name: "tiger".into(), enabled: false, weight: 3.0, ..Folder::default() };
        tiger.openings.push(parse_line("f5d6c3d3c4f4f6,1,false").unwrap());
        root.folders.push(tiger);
        save(&root_path, &root).unwrap();
        let (read, skipped) = load(&root_path).unwrap();
        assert_eq!(read, root);
        assert!(skipped.lines.is_empty());
        // A bad line is skipped and named; the others stay.
        let summary = root_path.join("summary.csv");
        let text = fs::read_to_string(&summary).unwrap() + "f5a1,1,true\nf5d6,-2,true\nf5d6,1,maybe\n";
        fs::write(&summary, text).unwrap();
        let (read, skipped) = load(&root_path).unwrap();
        assert_eq!(read.openings.len(), 2);
        assert_eq!(skipped.lines.len(), 3, "{skipped:?}");
        // A folder taken out of the tree goes from the disk.
        root.folders.clear();
        save(&root_path, &root).unwrap();
        assert!(!root_path.join("tiger").exists());
    }

    #[test]
    fn folder_names_are_checked() {
        assert!(valid_folder_name("Tiger lines"));
        assert!(valid_folder_name("虎"));
        for bad in ["", " ", "..", "a/b", "a\\b", "x:y"] {
            assert!(!valid_folder_name(bad), "{bad:?}");
        }
    }
}
