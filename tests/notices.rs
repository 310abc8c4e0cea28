//! Notices made from real failures (a damaged settings file, an unwritable folder, a broken weights file, a damaged
//! book, a bad game file) are worded in the user's language: in Japanese no English words are left, apart from file
//! names and the names of formats.

use std::fs;
use std::path::Path;

use shirokuro::book::BookProblem;
use shirokuro::failure::Shared;
use shirokuro::i18n::Language;
use shirokuro::notice::Notice;
use shirokuro::settings::{self, Settings};
use shirokuro_engine::book::BookFormat;
use shirokuro_engine::book::file::ReadOptions;
use shirokuro_engine::eval::weights;
use shirokuro_engine::game_file::GameFile;
use shirokuro_engine::search::SearchError;

/// Words that may stay in Latin letters in Japanese: format names (as the command line spells them), file suffixes,
/// JSON field names, our name.
const KEPT: [&str; 14] = [
    "TOML",
    "JSON",
    "PNG",
    "UTF",
    "egbk3",
    "Edax",
    "egaroucid5",
    "text",
    "bak",
    "Shirokuro",
    "board_player",
    "player",
    "avx512",
    "book",
];

/// The notices a user can meet when files, folders and the system fail, made from real failures under `dir`.
fn notices(dir: &Path) -> Vec<Notice> {
    let mut notices = Vec::new();
    // Settings: damaged, not text, and a save into a folder that cannot exist.
    let damaged = dir.join("damaged.toml");
    fs::write(&damaged, "level = 5\nthis is not toml\n").unwrap();
    notices.extend(settings::load(&damaged).notices.into_iter().take(1));
    let binary = dir.join("binary.toml");
    fs::write(&binary, [0xff, 0xfe, 0x00]).unwrap();
    notices.extend(settings::load(&binary).notices);
    let blocker = dir.join("a-file");
    fs::write(&blocker, "x").unwrap();
    let error = settings::save(&Settings::default(), &blocker.join("settings.toml")).unwrap_err();
    notices.push(Notice::SaveFailed { error });
    // Weights: missing, and not a weights file.
    let error = weights::load(&dir.join("missing.skw")).unwrap_err();
    notices.push(Notice::WeightsFailed { error: Shared::new(error) });
    let garbage = dir.join("garbage.skw");
    fs::write(&garbage, b"this is not a weights file at all").unwrap();
    let error = weights::load(&garbage).unwrap_err();
    notices.push(Notice::WeightsFailed { error: Shared::new(error) });
    notices.push(Notice::EngineFailed { error: SearchError::UnsupportedBackend("avx512") });
    // Books: missing, truncated, and a text book with a bad line.
    let read = |name: &str, format: Option<BookFormat>| {
        let path = dir.join(name);
        let error = shirokuro_engine::book::load(&path, format, ReadOptions::default()).unwrap_err();
        Notice::BookUnreadable { file: path, error: BookProblem::from(error) }
    };
    notices.push(Notice::BookLocked { file: dir.join("locked.egbk3"), holder: Some(4242) });
    notices.push(read("missing.egbk3", None));
    std::fs::create_dir(dir.join("folder.egbk3")).unwrap();
    notices.push(read("folder.egbk3", None));
    fs::write(dir.join("unknown.egbk3"), b"DICOEGBK3").unwrap();
    notices.push(read("unknown.egbk3", None));
    fs::write(dir.join("short.egbk3"), b"DICUORAGE\x03\x00").unwrap();
    notices.push(read("short.egbk3", Some(BookFormat::Egbk3)));
    let line = format!("{}{}{}0%!\n", "2".repeat(27), "01", "2".repeat(35)).replace("0122", "01X2");
    fs::write(dir.join("bad.txt"), line).unwrap();
    notices.push(read("bad.txt", Some(BookFormat::Egaroucid5Text)));
    // Game files: missing, not JSON, a bad position, and a save into a folder that cannot exist.
    for (name, text) in [
        ("missing.json", None),
        ("text.json", Some("hello")),
        ("node.json", Some(r#"{"4": {"board_player": 1, "board_opponent": 1, "player": 0}}"#)),
    ] {
        let path = dir.join(name);
        if let Some(text) = text {
            fs::write(&path, text).unwrap();
        }
        let error = GameFile::load(&path).unwrap_err();
        notices.push(Notice::GameFileFailed { error });
    }
    let error = GameFile::new(Vec::new(), String::new()).save(&blocker.join("game.json")).unwrap_err();
    notices.push(Notice::GameFileFailed { error });
    notices
}

/// `text` without the paths under `root` that it names.
fn without_paths(text: &str, root: &str) -> String {
    let mut rest = text;
    let mut out = String::new();
    while let Some(start) = rest.find(root) {
        out.push_str(&rest[..start]);
        let path = &rest[start..];
        let end = path.find(|c: char| c.is_whitespace() || !c.is_ascii()).unwrap_or(path.len());
        rest = &path[end..];
    }
    out.push_str(rest);
    out
}

/// The runs of three or more Latin letters in `text` that are not kept words.
fn english_words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .filter(|word| word.chars().filter(char::is_ascii_alphabetic).count() >= 3)
        .filter(|word| !KEPT.contains(word))
        .map(str::to_owned)
        .collect()
}

#[test]
fn system_failures_are_worded_in_japanese() {
    let dir = tempfile::tempdir().unwrap();
    let japanese = Language::Japanese.strings();
    let english = Language::English.strings();
    let root = dir.path().display().to_string();
    let notices = notices(dir.path());
    assert_eq!(notices.len(), 16, "every failure made its notice: {notices:#?}");
    let mut english_left = Vec::new();
    for notice in &notices {
        let text = notice.text(japanese);
        // File names are the user's own: take them out, check the rest.
        let words = english_words(&without_paths(&text, &root));
        if !words.is_empty() {
            english_left.push(format!("{words:?} in {text:?}"));
        }
        assert_ne!(text, notice.text(english), "{notice:?}");
    }
    assert!(english_left.is_empty(), "English words in Japanese notices:\n{}", english_left.join("\n"));
}
