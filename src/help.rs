//! The Help menu's links: How to Use opens the manual (the installed one, else the copy bundled with the resources,
//! else the one built in a source checkout; in the UI language, else English), Report a Problem opens the issue
//! tracker of `Cargo.toml`'s repository, and the build information shown by About and `shirokuro --version`.

use std::path::{Path, PathBuf};

use shirokuro_engine::fsutil::IoFailure;

use crate::i18n::Language;

/// The issue tracker: `Cargo.toml`'s repository address followed by `/issues`.
pub const ISSUES: &str = concat!(env!("CARGO_PKG_REPOSITORY"), "/issues");

/// Help ▸ Website: the project's home page (`homepage` in Cargo.toml).
pub const WEBSITE: &str = env!("CARGO_PKG_HOMEPAGE");

/// The git commit the app was built from ("unknown" outside a checkout; see `build.rs`).
pub const COMMIT: &str = env!("SHIROKURO_COMMIT");

/// The target the app was built for, e.g. `x86_64-unknown-linux-gnu`.
pub const TARGET: &str = env!("SHIROKURO_TARGET");

/// `release` or `debug`.
pub const PROFILE: &str = if cfg!(debug_assertions) { "debug" } else { "release" };

/// The version with the commit and the target, as `shirokuro --version` prints it after the name.
pub const VERSION: &str =
    concat!(env!("CARGO_PKG_VERSION"), " (commit ", env!("SHIROKURO_COMMIT"), ", ", env!("SHIROKURO_TARGET"), ")");

/// The places the manual's start page is looked for, best first: for `language`, then English.
///
/// `exe` is the running program; `resources` the resources folder. An installed package keeps the manual in
/// `share/doc/shirokuro/manual/<code>/` above the program's folder (`/usr/bin` → `/usr/share/doc/…`); a portable copy
/// in the resources' `manual/<code>/`; a source checkout in `book/<code>/book/` once `mdbook build` has run.
#[must_use]
pub fn manual_candidates(language: Language, exe: Option<&Path>, resources: &Path) -> Vec<PathBuf> {
    let source = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut codes = vec![language.code()];
    if language != Language::English {
        codes.push(Language::English.code());
    }
    let mut places = Vec::new();
    for code in codes {
        if let Some(exe) = exe {
            // `/usr/bin/shirokuro` → `/usr` (and `/` for a program in `/bin`).
            for dir in exe.ancestors().skip(2).take(2) {
                places.push(dir.join("share/doc/shirokuro/manual").join(code).join("index.html"));
            }
        }
        places.push(resources.join("manual").join(code).join("index.html"));
        places.push(source.join("book").join(code).join("book").join("index.html"));
    }
    places
}

/// The manual's start page: the first of `candidates` that exists, or all of them when none does.
///
/// # Errors
/// The places looked in, when the manual is in none of them.
pub fn find_manual(candidates: Vec<PathBuf>) -> Result<PathBuf, Vec<PathBuf>> {
    match candidates.iter().find(|path| path.is_file()) {
        Some(found) => Ok(found.clone()),
        None => Err(candidates),
    }
}

/// Opens `target` (an address or a file) with the desktop's program for it, without waiting for that program.
///
/// # Errors
/// When no program could be started (no desktop, no browser).
pub fn open(target: &str) -> Result<(), IoFailure> {
    open::that_detached(target).map_err(|error| IoFailure::from(&error))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_installed_manual_comes_first_then_the_bundled_then_the_source_and_english_last() {
        let places = manual_candidates(Language::Japanese, Some(Path::new("/usr/bin/shirokuro")), Path::new("/r"));
        assert_eq!(places.first(), Some(&PathBuf::from("/usr/share/doc/shirokuro/manual/ja/index.html")));
        assert!(places.contains(&PathBuf::from("/r/manual/ja/index.html")));
        let first_english = places.iter().position(|p| p.to_string_lossy().contains("/en/")).unwrap();
        assert!(places.iter().take(first_english).all(|p| p.to_string_lossy().contains("/ja/")));

        let dir = tempfile::tempdir().unwrap();
        let bundled = dir.path().join("manual/en/index.html");
        std::fs::create_dir_all(bundled.parent().unwrap()).unwrap();
        std::fs::write(&bundled, "<html></html>").unwrap();
        let candidates = manual_candidates(Language::Japanese, None, dir.path());
        let found = find_manual(candidates.clone());
        // The Japanese manual is missing here unless this checkout built it.
        let built = Path::new(env!("CARGO_MANIFEST_DIR")).join("book/ja/book/index.html");
        assert_eq!(found, Ok(if built.is_file() { built } else { bundled }));
        let nowhere = find_manual(vec![dir.path().join("missing.html")]);
        assert_eq!(nowhere, Err(vec![dir.path().join("missing.html")]));
    }

    #[test]
    fn the_issue_tracker_is_the_repository_s() {
        assert!(ISSUES.starts_with("https://") && ISSUES.ends_with("/issues"), "{ISSUES}");
        assert!(WEBSITE.starts_with("https://"), "{WEBSITE}");
        assert!(VERSION.starts_with(env!("CARGO_PKG_VERSION")) && VERSION.contains(COMMIT), "{VERSION}");
    }
}
