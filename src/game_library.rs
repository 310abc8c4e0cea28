//! The Game Library's files (In/Out ▸ Game Library), as Egaroucid keeps them: game files in `<data>/games/` and
//! its folders, and a recycle bin, `games/recycle_bin/`, where deleted games and folders go until it is emptied.
//! Every operation works on whole files with renames (or copies), so a game is never half-moved; a name already taken
//! in the destination gets a `_1`, `_2`… before its extension.

use std::fs;
use std::path::{Path, PathBuf};

use shirokuro_engine::fsutil::IoFailure;

use shirokuro_engine::game_file::GameFile;

/// One game of the Game Library.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LibraryEntry {
    /// The file.
    pub path: PathBuf,
    /// Its date, names, final disc counts (when the game ended) and the start of its memo.
    pub date: String,
    /// Black's name.
    pub black: String,
    /// White's name.
    pub white: String,
    /// Black's and White's discs at the end (empties to the winner), when the game is over.
    pub result: Option<(u32, u32)>,
    /// Moves in the line.
    pub moves: usize,
    /// The first line of the memo, cut at 40 characters (as Egaroucid's library shows it).
    pub memo: String,
}

/// The Game Library: every readable game file in `folder`, newest file name first (Egaroucid's names are dates);
/// files that are not games are left out.
#[must_use]
pub fn read_library(folder: &std::path::Path) -> Vec<LibraryEntry> {
    let Ok(dir) = std::fs::read_dir(folder) else { return Vec::new() };
    let mut paths: Vec<PathBuf> = dir
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|e| e.eq_ignore_ascii_case("json")))
        .collect();
    paths.sort();
    paths.reverse();
    paths
        .into_iter()
        .filter_map(|path| {
            let file = GameFile::load(&path).ok()?;
            let last = file.nodes.last()?.position;
            let result = last.board.is_game_over().then(|| scored_counts(last.black_score()));
            let memo = file.memo.lines().next().unwrap_or_default().chars().take(40).collect();
            Some(LibraryEntry {
                path,
                date: file.date,
                black: file.black_player,
                white: file.white_player,
                result,
                moves: file.nodes.len().saturating_sub(1),
                memo,
            })
        })
        .collect()
}

/// Black's and White's final counts with the empties given to the winner (split on a draw), from Black's score.
#[must_use]
pub fn scored_counts(black_score: i32) -> (u32, u32) {
    let black = u32::try_from((64 + black_score.clamp(-64, 64)) / 2).unwrap_or(0);
    (black, 64 - black)
}

/// The recycle bin's folder name inside the games folder (Egaroucid's).
pub const RECYCLE_BIN: &str = "recycle_bin";

/// One folder of the library as the box shows it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Listing {
    /// Its subfolders (the recycle bin left out), by name.
    pub folders: Vec<String>,
    /// Its games, newest first.
    pub games: Vec<LibraryEntry>,
}

/// What went wrong, on which file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}: {error}")]
pub struct LibraryError {
    /// The file or folder.
    pub path: PathBuf,
    /// What the system said.
    pub error: IoFailure,
}

fn fail(path: &Path) -> impl Fn(std::io::Error) -> LibraryError + '_ {
    move |error| LibraryError { path: path.to_path_buf(), error: error.into() }
}

/// Lists `folder` (a missing folder is empty).
///
/// # Errors
/// [`LibraryError`] when the folder exists but cannot be read.
pub fn list(folder: &Path, is_root: bool) -> Result<Listing, LibraryError> {
    if !folder.exists() {
        return Ok(Listing::default());
    }
    let mut folders: Vec<String> = fs::read_dir(folder)
        .map_err(fail(folder))?
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|entry| entry.file_name().to_str().map(str::to_owned))
        .filter(|name| !(is_root && name == RECYCLE_BIN))
        .collect();
    folders.sort();
    Ok(Listing { folders, games: read_library(folder) })
}

/// A free path for `name` in `dir`: the name itself, or with `_1`, `_2`… before the extension.
fn free_path(dir: &Path, name: &std::ffi::OsStr) -> PathBuf {
    let candidate = dir.join(name);
    if !candidate.exists() {
        return candidate;
    }
    let path = Path::new(name);
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let extension = path.extension().map(|e| format!(".{}", e.to_string_lossy())).unwrap_or_default();
    (1..).map(|n| dir.join(format!("{stem}_{n}{extension}"))).find(|p| !p.exists()).unwrap_or(candidate)
}

/// Moves `paths` (games or folders) into `dest` (made when missing). Moving a thing into itself is skipped.
///
/// # Errors
/// [`LibraryError`] of the first one that could not be moved (the ones before it are moved).
pub fn move_into(paths: &[PathBuf], dest: &Path) -> Result<(), LibraryError> {
    fs::create_dir_all(dest).map_err(fail(dest))?;
    for path in paths {
        if dest.starts_with(path) || path.parent() == Some(dest) {
            continue;
        }
        let Some(name) = path.file_name() else { continue };
        fs::rename(path, free_path(dest, name)).map_err(fail(path))?;
    }
    Ok(())
}

/// Copies the game files `paths` into `dest` (made when missing).
///
/// # Errors
/// [`LibraryError`] of the first one that could not be copied.
pub fn copy_into(paths: &[PathBuf], dest: &Path) -> Result<(), LibraryError> {
    fs::create_dir_all(dest).map_err(fail(dest))?;
    for path in paths.iter().filter(|p| p.is_file()) {
        let Some(name) = path.file_name() else { continue };
        let _bytes = fs::copy(path, free_path(dest, name)).map_err(fail(path))?;
    }
    Ok(())
}

/// Empties the recycle bin of the library at `root`.
///
/// # Errors
/// [`LibraryError`] of the first thing that could not be removed.
pub fn empty_bin(root: &Path) -> Result<(), LibraryError> {
    let bin = root.join(RECYCLE_BIN);
    if !bin.exists() {
        return Ok(());
    }
    for entry in fs::read_dir(&bin).map_err(fail(&bin))?.filter_map(Result::ok) {
        let path = entry.path();
        let removed = if path.is_dir() { fs::remove_dir_all(&path) } else { fs::remove_file(&path) };
        removed.map_err(fail(&path))?;
    }
    Ok(())
}

/// Makes the folder `name` in `dir`.
///
/// # Errors
/// [`LibraryError`] when it exists already or cannot be made.
pub fn new_folder(dir: &Path, name: &str) -> Result<(), LibraryError> {
    // The library itself may not exist yet (no game saved so far).
    fs::create_dir_all(dir).map_err(fail(dir))?;
    let path = dir.join(name);
    fs::create_dir(&path).map_err(fail(&path))
}

/// Renames the folder `path` to `name` (in the same parent).
///
/// # Errors
/// [`LibraryError`] when the name is taken or the rename fails.
pub fn rename_folder(path: &Path, name: &str) -> Result<(), LibraryError> {
    let target = path.with_file_name(name);
    if target.exists() {
        return Err(LibraryError {
            path: target,
            error: IoFailure { kind: std::io::ErrorKind::AlreadyExists, message: "already exists".to_owned() },
        });
    }
    fs::rename(path, &target).map_err(fail(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn touch(path: &Path) {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, "{}").unwrap();
    }

    #[test]
    fn games_move_copy_go_to_the_bin_and_come_back() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("games");
        new_folder(&root, "first").unwrap();
        assert!(root.join("first").is_dir(), "a folder in a library that did not exist yet");
        fs::remove_dir(root.join("first")).unwrap();
        let (a, b) = (root.join("a.json"), root.join("b.json"));
        touch(&a);
        touch(&b);
        new_folder(&root, "club").unwrap();
        assert!(new_folder(&root, "club").is_err(), "a folder that exists");
        let listing = list(&root, true).unwrap();
        assert_eq!(listing.folders, vec!["club".to_owned()]);
        // Copy keeps the original; a second copy gets a new name.
        copy_into(std::slice::from_ref(&a), &root.join("club")).unwrap();
        copy_into(std::slice::from_ref(&a), &root.join("club")).unwrap();
        assert!(root.join("club/a.json").exists() && root.join("club/a_1.json").exists() && a.exists());
        // Delete = into the bin (not listed as a folder of the root).
        move_into(&[a.clone(), root.join("club")], &root.join(RECYCLE_BIN)).unwrap();
        assert!(!a.exists() && root.join(RECYCLE_BIN).join("a.json").exists());
        assert!(root.join(RECYCLE_BIN).join("club").join("a_1.json").exists(), "a folder goes whole");
        assert_eq!(list(&root, true).unwrap().folders, Vec::<String>::new());
        // Restore.
        move_into(&[root.join(RECYCLE_BIN).join("a.json")], &root).unwrap();
        assert!(a.exists());
        empty_bin(&root).unwrap();
        assert_eq!(fs::read_dir(root.join(RECYCLE_BIN)).unwrap().count(), 0);
        // A folder is not moved into itself; renames refuse a taken name.
        new_folder(&root, "x").unwrap();
        move_into(&[root.join("x")], &root.join("x")).unwrap();
        assert!(root.join("x").is_dir());
        new_folder(&root, "y").unwrap();
        assert!(rename_folder(&root.join("x"), "y").is_err());
        rename_folder(&root.join("x"), "z").unwrap();
        assert!(root.join("z").is_dir() && b.exists());
    }
}
