//! AI and display profiles (Egaroucid's Settings ▸ AI Profile and Display ▸ Display Profile): named sets of settings
//! kept in the data folder, `profiles/ai/<name>.toml` and `profiles/display/<name>.toml`. A profile file is a
//! settings file (read with the same key-by-key checks); loading one takes only its kind's settings from it.

use std::io;
use std::path::{Path, PathBuf};

use serde::Serialize;
use shirokuro_engine::think::loss_curves::LossCurves;

use super::Settings;
use crate::fsutil::SaveFailure;

/// Which settings a profile holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProfileKind {
    /// The AI's: level, threads, hash level, Use Book, Accept AI's Loss and its curves.
    Ai,
    /// Everything under Display.
    Display,
}

/// The part of `settings` a profile of `kind` holds, for telling whether it changed.
#[must_use]
pub fn part(kind: ProfileKind, settings: &Settings) -> Part {
    match kind {
        ProfileKind::Ai => Part::Ai(AiSettings::of(settings)),
        ProfileKind::Display => Part::Display(settings.display),
    }
}

/// The settings of one kind of profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// The AI's.
    Ai(AiSettings),
    /// The display's.
    Display(super::Display),
}

/// The AI's settings, as an AI profile carries them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct AiSettings {
    /// AI level.
    pub level: u8,
    /// Search threads.
    pub threads: u16,
    /// Table size exponent.
    pub hash_level: u8,
    /// Settings ▸ Evaluation.
    pub evaluation: super::Evaluation,
    /// Use the book.
    pub use_book: bool,
    /// Accept AI's Loss.
    pub accept_ai_loss: bool,
    /// Its curves.
    pub ai_loss: LossCurves,
}

impl AiSettings {
    /// The AI's settings of `settings`.
    #[must_use]
    pub fn of(settings: &Settings) -> AiSettings {
        AiSettings {
            level: settings.level,
            threads: settings.threads,
            hash_level: settings.hash_level,
            evaluation: settings.evaluation,
            use_book: settings.use_book,
            accept_ai_loss: settings.accept_ai_loss,
            ai_loss: settings.ai_loss,
        }
    }
}

/// Egaroucid's Profile Auto-Save: what happens on exit to settings changed since their profile was loaded or saved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AutoSave {
    /// Nothing.
    #[default]
    Off,
    /// They overwrite that profile.
    Overwrite,
    /// They are saved as a new profile, "<name> YYYY-MM-DD".
    NewSave,
}

/// The longest profile name.
pub const NAME_CHARS: usize = 64;

/// `name` trimmed, when it can name a profile file: 1 to 64 characters, none of `/ \ : * ? " < > |` or a control
/// character, not starting with a dot.
#[must_use]
pub fn valid_name(name: &str) -> Option<String> {
    let name = name.trim();
    let bad = |c: char| c.is_control() || "/\\:*?\"<>|".contains(c);
    let count = name.chars().count();
    ((1..=NAME_CHARS).contains(&count) && !name.starts_with('.') && !name.chars().any(bad)).then(|| name.to_owned())
}

/// The folder of `kind`'s profiles.
#[must_use]
pub fn folder(data_dir: &Path, kind: ProfileKind) -> PathBuf {
    let name = match kind {
        ProfileKind::Ai => "ai",
        ProfileKind::Display => "display",
    };
    data_dir.join("profiles").join(name)
}

/// The file of profile `name`.
#[must_use]
pub fn path(data_dir: &Path, kind: ProfileKind, name: &str) -> PathBuf {
    folder(data_dir, kind).join(format!("{name}.toml"))
}

/// The profiles of `kind`, by name (none when the folder does not exist yet).
///
/// # Errors
/// The folder cannot be read.
pub fn list(data_dir: &Path, kind: ProfileKind) -> io::Result<Vec<String>> {
    let entries = match std::fs::read_dir(folder(data_dir, kind)) {
        Ok(entries) => entries,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(error) => return Err(error),
    };
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let path = entry.path();
            let is_toml = path.extension().is_some_and(|e| e == "toml");
            is_toml.then(|| path.file_stem().map(|s| s.to_string_lossy().into_owned())).flatten()
        })
        .filter_map(|name| valid_name(&name))
        .collect();
    names.sort_by_key(|name| name.to_lowercase());
    Ok(names)
}

/// Writes `settings` as profile `name` (atomically; the previous file, if any, is kept as `.bak`).
///
/// # Errors
/// The step of the save that failed.
pub fn save(settings: &Settings, data_dir: &Path, kind: ProfileKind, name: &str) -> Result<(), SaveFailure> {
    super::save(settings, &path(data_dir, kind, name))
}

/// The settings of profile `name`, read key by key (a bad value keeps its default).
///
/// # Errors
/// The file does not exist or cannot be read.
pub fn load(data_dir: &Path, kind: ProfileKind, name: &str) -> io::Result<Settings> {
    let file = path(data_dir, kind, name);
    // `settings::load` treats a missing file as "defaults": here it is an error.
    let _exists = std::fs::metadata(&file)?;
    Ok(super::load(&file).settings)
}

/// Renames profile `from` to `to` (refused when `to` exists).
///
/// # Errors
/// `to` exists, or the rename fails.
pub fn rename(data_dir: &Path, kind: ProfileKind, from: &str, to: &str) -> io::Result<()> {
    let target = path(data_dir, kind, to);
    if target.try_exists()? {
        return Err(io::Error::new(io::ErrorKind::AlreadyExists, format!("{}", target.display())));
    }
    std::fs::rename(path(data_dir, kind, from), target)
}

/// Deletes profile `name`.
///
/// # Errors
/// The file cannot be removed.
pub fn delete(data_dir: &Path, kind: ProfileKind, name: &str) -> io::Result<()> {
    std::fs::remove_file(path(data_dir, kind, name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked_for_a_file_name() {
        assert_eq!(valid_name("  Evening study "), Some("Evening study".to_owned()));
        assert_eq!(valid_name("研究用"), Some("研究用".to_owned()));
        for bad in ["", "   ", "a/b", "a\\b", ".hidden", "x:y", "tab\there", &"n".repeat(65)] {
            assert_eq!(valid_name(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn profiles_are_saved_listed_loaded_renamed_and_deleted() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path();
        assert!(list(data, ProfileKind::Ai).unwrap().is_empty(), "no folder yet: no profiles");
        let strong = Settings { level: 30, threads: 3, accept_ai_loss: true, ..Settings::default() };
        save(&strong, data, ProfileKind::Ai, "strong").unwrap();
        save(&Settings::default(), data, ProfileKind::Ai, "Another").unwrap();
        assert_eq!(list(data, ProfileKind::Ai).unwrap(), ["Another", "strong"]);
        assert!(list(data, ProfileKind::Display).unwrap().is_empty(), "each kind has its own folder");
        let read = load(data, ProfileKind::Ai, "strong").unwrap();
        assert_eq!(AiSettings::of(&read), AiSettings::of(&strong));
        rename(data, ProfileKind::Ai, "strong", "Sunday").unwrap();
        assert!(rename(data, ProfileKind::Ai, "Sunday", "Another").is_err(), "no overwrite by a rename");
        assert!(load(data, ProfileKind::Ai, "strong").is_err(), "gone under its old name");
        delete(data, ProfileKind::Ai, "Another").unwrap();
        assert_eq!(list(data, ProfileKind::Ai).unwrap(), ["Sunday"]);
    }
}
