//! Help ▸ Data Migration (Egaroucid's): Export Data writes the settings and the user's own data into a new folder,
//! `Shirokuro_Settings_<YYYY_MM_DD_hh_mm_ss>/`, with a `manifest.json` that lists every file, its size and CRC-32;
//! Import Data
//! checks such a folder against its manifest and brings it back.
//!
//! What travels: `settings.toml` (every setting, the shortcut keys and buttons included), `profiles/` (AI and display
//! profiles) and `forced_openings/`. Games, books and screenshots stay where they are: they are ordinary files in the
//! data folder, copied as any other. An import replaces the settings (through the same lenient reader as at start,
//! so a value it cannot use is reported and replaced by its default) and writes the profiles and forced openings over
//! those of the same names (each file atomically, the old one kept as `.bak`).

use std::fs;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use serde::{Deserialize, Serialize};
use shirokuro_engine::calendar::UtcDateTime;

pub mod error;

pub use error::MigrationError;

use crate::fsutil::write_atomic;
use crate::settings::{self, Loaded, Settings};

/// The manifest's file name.
pub const MANIFEST: &str = "manifest.json";
/// The folders of the data folder that travel.
const FOLDERS: [&str; 2] = ["profiles", "forced_openings"];
/// The settings file's name in an export.
const SETTINGS: &str = "settings.toml";

/// The manifest of an export.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    /// Always "shirokuro".
    pub app: String,
    /// The version that wrote it.
    pub version: String,
    /// When (UTC, `YYYY_MM_DD_hh_mm_ss`).
    pub created: String,
    /// Every file, relative to the export folder with `/` separators, with its size and checksum.
    pub files: Vec<ManifestFile>,
}

/// One file of an export.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManifestFile {
    /// Its path in the export folder (`/` separators).
    pub path: String,
    /// Its size in bytes.
    pub bytes: u64,
    /// Its CRC-32, so that a change of the same size is seen too.
    pub crc32: u32,
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> MigrationError + '_ {
    move |error| MigrationError::Io { path: path.to_path_buf(), error: error.into() }
}

fn save_err(path: &Path) -> impl Fn(crate::fsutil::SaveFailure) -> MigrationError + '_ {
    move |failure| MigrationError::Io { path: path.to_path_buf(), error: failure.error }
}

/// Every file under `dir`, as paths relative to `base`.
fn files_under(dir: &Path, base: &Path, out: &mut Vec<PathBuf>) -> Result<(), MigrationError> {
    if !dir.is_dir() {
        return Ok(());
    }
    for entry in fs::read_dir(dir).map_err(io(dir))? {
        let path = entry.map_err(io(dir))?.path();
        if path.is_dir() {
            files_under(&path, base, out)?;
        } else if path.extension().is_none_or(|e| e != "bak") {
            out.push(path.strip_prefix(base).unwrap_or(&path).to_path_buf());
        }
    }
    Ok(())
}

fn slash(path: &Path) -> String {
    path.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect::<Vec<_>>().join("/")
}

/// Writes an export of `settings` and of the profiles and forced openings of `data_dir` into a new folder inside
/// `parent`; the new folder.
///
/// # Errors
/// [`MigrationError::Io`] for the first file that could not be read or written.
pub fn export(settings: &Settings, data_dir: &Path, parent: &Path, now: SystemTime) -> Result<PathBuf, MigrationError> {
    let stamp = UtcDateTime::of(now).stamp();
    let folder = parent.join(format!("Shirokuro_Settings_{stamp}"));
    fs::create_dir_all(&folder).map_err(io(&folder))?;
    let settings_file = folder.join(SETTINGS);
    settings::save(settings, &settings_file).map_err(save_err(&settings_file))?;
    let mut relative = Vec::new();
    for name in FOLDERS {
        files_under(&data_dir.join(name), data_dir, &mut relative)?;
    }
    for rel in &relative {
        let (from, to) = (data_dir.join(rel), folder.join(rel));
        let bytes = fs::read(&from).map_err(io(&from))?;
        write_atomic(&to, &bytes).map_err(save_err(&to))?;
    }
    let mut files = vec![entry(SETTINGS.to_owned(), &settings_file)?];
    for rel in &relative {
        files.push(entry(slash(rel), &folder.join(rel))?);
    }
    let manifest =
        Manifest { app: "shirokuro".to_owned(), version: crate::help::VERSION.to_owned(), created: stamp, files };
    let text = serde_json::to_string_pretty(&manifest).unwrap_or_default();
    let path = folder.join(MANIFEST);
    write_atomic(&path, text.as_bytes()).map_err(save_err(&path))?;
    Ok(folder)
}

/// The manifest entry of the file `path`, listed as `name`.
fn entry(name: String, path: &Path) -> Result<ManifestFile, MigrationError> {
    let bytes = fs::read(path).map_err(io(path))?;
    Ok(ManifestFile { path: name, bytes: bytes.len() as u64, crc32: crc32fast::hash(&bytes) })
}

/// Reads and checks the export in `folder`: its manifest is Shirokuro's and every file it lists is there, of its
/// size, and inside the folder.
///
/// # Errors
/// See [`MigrationError`].
pub fn check(folder: &Path) -> Result<Manifest, MigrationError> {
    let path = folder.join(MANIFEST);
    let text = fs::read_to_string(&path).map_err(|_| MigrationError::NotAnExport(folder.to_path_buf()))?;
    let manifest: Manifest =
        serde_json::from_str(&text).map_err(|_| MigrationError::NotAnExport(folder.to_path_buf()))?;
    if manifest.app != "shirokuro" {
        return Err(MigrationError::NotAnExport(folder.to_path_buf()));
    }
    for file in &manifest.files {
        let inside = !file.path.split('/').any(|part| part == ".." || part.is_empty()) && !file.path.starts_with('/');
        let found = if inside { fs::read(folder.join(&file.path)).ok() } else { None };
        let same = found.is_some_and(|b| b.len() as u64 == file.bytes && crc32fast::hash(&b) == file.crc32);
        if !same {
            return Err(MigrationError::Changed(file.path.clone()));
        }
    }
    Ok(manifest)
}

/// Brings the export in `folder` back: checks it, writes its profiles and forced openings into `data_dir`, and
/// reads its settings (with the notices of anything it could not use).
///
/// # Errors
/// See [`MigrationError`]; nothing is written when the check fails.
pub fn import(folder: &Path, data_dir: &Path) -> Result<Loaded, MigrationError> {
    let manifest = check(folder)?;
    for file in manifest.files.iter().filter(|f| f.path != SETTINGS) {
        let travels = FOLDERS.iter().any(|name| file.path.starts_with(&format!("{name}/")));
        if !travels {
            continue;
        }
        let (from, to) = (folder.join(&file.path), data_dir.join(&file.path));
        let bytes = fs::read(&from).map_err(io(&from))?;
        write_atomic(&to, &bytes).map_err(save_err(&to))?;
    }
    Ok(settings::load(&folder.join(SETTINGS)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_export_is_checked_and_imported_back() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data");
        fs::create_dir_all(data.join("profiles/ai")).unwrap();
        fs::write(data.join("profiles/ai/strong.toml"), "level = 30\n").unwrap();
        fs::create_dir_all(data.join("forced_openings/tiger")).unwrap();
        fs::write(data.join("forced_openings/tiger/summary.csv"), "f5d6c3d3c4,1,true\n").unwrap();
        let settings = Settings { level: 17, force_openings: true, ..Settings::default() };
        let folder = export(&settings, &data, dir.path(), SystemTime::UNIX_EPOCH).unwrap();
        assert_eq!(folder.file_name().unwrap(), "Shirokuro_Settings_1970_01_01_00_00_00");
        let manifest = check(&folder).unwrap();
        let paths: Vec<&str> = manifest.files.iter().map(|f| f.path.as_str()).collect();
        assert!(paths.contains(&"settings.toml") && paths.contains(&"profiles/ai/strong.toml"), "{paths:?}");
        assert!(paths.contains(&"forced_openings/tiger/summary.csv"));

        // Into another data folder.
        let other = dir.path().join("other");
        let loaded = import(&folder, &other).unwrap();
        assert_eq!((loaded.settings.level, loaded.settings.force_openings), (17, true));
        assert!(loaded.notices.is_empty(), "{:?}", loaded.notices);
        assert_eq!(fs::read_to_string(other.join("profiles/ai/strong.toml")).unwrap(), "level = 30\n");
        assert!(other.join("forced_openings/tiger/summary.csv").exists());

        // A changed file or a folder that is not an export is refused, and nothing is written.
        fs::write(folder.join("profiles/ai/strong.toml"), "level = 60\n").unwrap();
        assert_eq!(import(&folder, &other), Err(MigrationError::Changed("profiles/ai/strong.toml".into())));
        assert_eq!(fs::read_to_string(other.join("profiles/ai/strong.toml")).unwrap(), "level = 30\n");
        assert_eq!(check(&data), Err(MigrationError::NotAnExport(data.clone())));
        // A manifest that points outside its folder is refused.
        let bad = Manifest {
            app: "shirokuro".into(),
            version: "0".into(),
            created: String::new(),
            files: vec![ManifestFile { path: "../data/profiles/ai/strong.toml".into(), bytes: 11, crc32: 0 }],
        };
        fs::write(folder.join(MANIFEST), serde_json::to_string(&bad).unwrap()).unwrap();
        assert!(matches!(check(&folder), Err(MigrationError::Changed(_))));
    }
}
