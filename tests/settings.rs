//! Settings: round trip, lenient loading of bad values, and broken files left untouched.

use std::fs;

use shirokuro::i18n::Language;
use shirokuro::settings::{self, Notice, Settings};

#[test]
fn a_missing_file_gives_defaults_without_notices() {
    let dir = tempfile::tempdir().unwrap();
    let loaded = settings::load(&dir.path().join("settings.toml"));
    assert_eq!(loaded.settings, Settings::default());
    assert!(loaded.notices.is_empty());
}

#[test]
fn saved_settings_load_back_identical_and_keep_a_backup() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nested").join("settings.toml");
    let mut s =
        Settings { level: 7, threads: 3, hash_level: 20, language: Some(Language::Japanese), ..Settings::default() };
    s.display.hint_count = 5;
    s.display.show_stable = true;
    s.ai_plays_black = true;
    settings::save(&s, &path).unwrap();
    let loaded = settings::load(&path);
    assert_eq!(loaded.notices, vec![]);
    assert_eq!(loaded.settings, s);
    let first = fs::read_to_string(&path).unwrap();
    s.level = 8;
    settings::save(&s, &path).unwrap();
    assert_eq!(settings::load(&path).settings.level, 8);
    assert_eq!(fs::read_to_string(shirokuro::fsutil::backup_path(&path)).unwrap(), first);
}

#[test]
fn bad_values_fall_back_one_by_one_with_notices() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.toml");
    fs::write(
        &path,
        "level = 99\nthreads = 2\nhash_level = \"big\"\nlanguage = \"xx\"\nai_plays_black = true\ncolour = 1\n\
         [display]\nshow_legal = false\nhint_count = 0\nshow_log = \"yes\"\n",
    )
    .unwrap();
    let loaded = settings::load(&path);
    let d = Settings::default();
    assert_eq!(loaded.settings.level, d.level);
    assert_eq!(loaded.settings.threads, 2);
    assert_eq!(loaded.settings.hash_level, d.hash_level);
    assert_eq!(loaded.settings.language, None);
    assert!(loaded.settings.ai_plays_black);
    assert!(!loaded.settings.display.show_legal);
    assert_eq!(loaded.settings.display.hint_count, d.display.hint_count);
    assert_eq!(loaded.settings.display.show_log, d.display.show_log);
    let mut notices = loaded.notices.clone();
    notices.sort_by_key(|n| format!("{n:?}"));
    let bad = |key: &str| Notice::BadValue { key: key.to_owned() };
    let mut expected = vec![
        bad("level"),
        bad("hash_level"),
        bad("language"),
        bad("display.hint_count"),
        bad("display.show_log"),
        Notice::UnknownKey { key: "colour".to_owned() },
    ];
    expected.sort_by_key(|n| format!("{n:?}"));
    assert_eq!(notices, expected);
}

#[test]
fn a_corrupt_file_gives_defaults_is_left_alone_and_copied() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.toml");
    let broken = "level = 5\nthis is not toml\n";
    fs::write(&path, broken).unwrap();
    let loaded = settings::load(&path);
    assert_eq!(loaded.settings, Settings::default());
    let [Notice::Unreadable { error, copy }] = loaded.notices.as_slice() else {
        panic!("one unreadable notice: {:?}", loaded.notices)
    };
    assert!(error.contains("line 2"), "the error names the line: {error}");
    assert_eq!(fs::read_to_string(&path).unwrap(), broken, "the file is untouched");
    assert_eq!(fs::read_to_string(copy).unwrap(), broken, "and copied");
    // Saving afterwards keeps the broken file as the backup as well.
    settings::save(&loaded.settings, &path).unwrap();
    assert_eq!(fs::read_to_string(shirokuro::fsutil::backup_path(&path)).unwrap(), broken);
    assert_eq!(fs::read_to_string(copy).unwrap(), broken);
}

#[test]
fn a_non_utf8_file_is_unreadable_not_fatal() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.toml");
    fs::write(&path, [0xff, 0xfe, 0x00, 0x41]).unwrap();
    let loaded = settings::load(&path);
    assert_eq!(loaded.settings, Settings::default());
    assert!(matches!(loaded.notices.as_slice(), [Notice::Unreadable { .. }]));
}
