//! Settings: round trip, lenient loading of bad values, and broken files left untouched.

use std::fs;

use shirokuro::i18n::Language;
use shirokuro::notice::{Notice, SettingsProblem};
use shirokuro::settings::{self, Settings};

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
    s.display.play_order = settings::PlayOrder::Transcript;
    s.display.show_flipped_last = true;
    s.display.colorize_hints = true;
    s.display.graph_mode = settings::GraphMode::SumOfLoss;
    s.display.endgame_error = settings::EndgameError::From41;
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
         [display]\nshow_legal = false\nhint_count = 0\nshow_log = \"yes\"\nplay_order = \"diagonal\"\n",
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
        bad("display.play_order"),
        Notice::UnknownKey { key: "colour".to_owned() },
    ];
    expected.sort_by_key(|n| format!("{n:?}"));
    assert_eq!(notices, expected);
}

#[test]
fn a_damaged_file_keeps_what_parses_is_left_alone_and_copied() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.toml");
    let broken = "level = 5\nthis is not toml\n[display]\nshow_log = false\n";
    fs::write(&path, broken).unwrap();
    let loaded = settings::load(&path);
    let mut expected = Settings { level: 5, ..Settings::default() };
    expected.display.show_log = false;
    assert_eq!(loaded.settings, expected, "every key that parses is kept");
    let [Notice::Salvaged { problem, copy_failed: None, copy, lost }] = loaded.notices.as_slice() else {
        panic!("one damaged-file notice: {:?}", loaded.notices)
    };
    assert_eq!(*problem, SettingsProblem::Toml { line: Some(2) }, "the problem names the line");
    assert_eq!(lost, "2", "the notice says which lines were lost");
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

#[test]
fn book_settings_book_file_and_window_size_round_trip_and_bad_ones_fall_back() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.toml");
    let mut s = Settings {
        use_book: false,
        book_file: Some(dir.path().join("my book.egbk3")),
        window_width: 1500,
        window_height: 900,
        ..Settings::default()
    };
    s.book.depth = 12;
    s.book.error_leaf = settings::BOOK_ERROR_UNLIMITED;
    settings::save(&s, &path).unwrap();
    let loaded = settings::load(&path);
    assert_eq!(loaded.notices, vec![]);
    assert_eq!(loaded.settings, s);

    fs::write(&path, "window_width = 10\nbook_file = \"\"\nuse_book = 3\n[book]\ndepth = 61\nerror_sum = 2\nx = 1\n")
        .unwrap();
    let loaded = settings::load(&path);
    let d = Settings::default();
    assert_eq!(loaded.settings.window_width, d.window_width);
    assert_eq!(loaded.settings.book_file, None);
    assert_eq!(loaded.settings.use_book, d.use_book);
    assert_eq!(loaded.settings.book.depth, d.book.depth);
    assert_eq!(loaded.settings.book.error_sum, 2);
    let keys: Vec<String> = loaded
        .notices
        .iter()
        .map(|n| match n {
            Notice::BadValue { key } | Notice::UnknownKey { key } => key.clone(),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(keys, ["use_book", "book_file", "window_width", "book.depth", "book.x"]);
}

#[test]
fn window_resizes_are_remembered() {
    use shirokuro::app::App;
    use shirokuro::message::Message;
    let dir = tempfile::tempdir().unwrap();
    let paths = settings::Paths::inside(dir.path());
    let mut app = App::new(paths, settings::Loaded { settings: Settings::default(), notices: Vec::new() });
    let _ = app.update(Message::WindowResized(iced::Size::new(1234.4, 777.6)));
    assert_eq!((app.settings().window_width, app.settings().window_height), (1234, 778));
    let _ = app.update(Message::WindowResized(iced::Size::new(10.0, 100_000.0)));
    assert_eq!((app.settings().window_width, app.settings().window_height), (300, 16_384));
}

#[test]
fn random_board_settings_round_trip_keep_their_gap_and_bad_ones_fall_back() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.toml");
    let mut s = Settings::default();
    s.random_board.moves = 34;
    s.random_board.set_min(-4);
    s.random_board.set_max(6);
    settings::save(&s, &path).unwrap();
    let loaded = settings::load(&path);
    assert_eq!(loaded.notices, vec![]);
    assert_eq!(loaded.settings.random_board, s.random_board);

    // The sliders keep the bounds at least 2 apart, pushing the other bound along.
    let mut r = s.random_board;
    r.set_min(10);
    assert_eq!((r.score_min, r.score_max), (10, 12));
    r.set_max(-64);
    assert_eq!((r.score_min, r.score_max), (-64, -62));
    r.set_min(64);
    assert_eq!((r.score_min, r.score_max), (62, 64));

    let d = Settings::default().random_board;
    for (text, key, moves) in [
        ("[random_board]\nmoves = 0\n", "random_board.moves", d.moves),
        ("[random_board]\nmoves = 9\nscore_min = 5\nscore_max = 6\n", "random_board.score_max", 9),
        ("[random_board]\nscore_min = -65\n", "random_board.score_min", d.moves),
        ("random_board = 3\n", "random_board", d.moves),
    ] {
        fs::write(&path, text).unwrap();
        let loaded = settings::load(&path);
        assert_eq!(loaded.notices, vec![Notice::BadValue { key: key.to_owned() }], "{text}");
        let r = loaded.settings.random_board;
        assert_eq!((r.moves, r.score_min, r.score_max), (moves, d.score_min, d.score_max), "{text}");
    }
}

#[test]
fn accept_ai_loss_and_its_curves_round_trip_and_bad_curves_fall_back() {
    use shirokuro_engine::think::loss_curves::LossCurves;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.toml");
    let s = Settings { accept_ai_loss: true, ai_loss: LossCurves::flat(8, 55), ..Settings::default() };
    settings::save(&s, &path).unwrap();
    let loaded = settings::load(&path);
    assert_eq!(loaded.notices, vec![]);
    assert_eq!(loaded.settings, s);
    // A curve with the wrong number of points falls back to the default curves, with a notice.
    fs::write(&path, "accept_ai_loss = true\n[ai_loss]\nmax_loss = [1, 2]\npercent = [30]\n").unwrap();
    let loaded = settings::load(&path);
    assert!(loaded.settings.accept_ai_loss);
    assert_eq!(loaded.settings.ai_loss, LossCurves::default());
    assert_eq!(loaded.notices, vec![Notice::BadValue { key: "ai_loss".to_owned() }]);
}

#[test]
fn umigame_settings_map_to_the_engine_and_keep_their_bounds_in_order() {
    use shirokuro::settings::Change;
    let mut s = Settings::default();
    let u = s.display.umigame();
    assert_eq!((u.depth, u.error, u.black_range), (60, 0, None), "Egaroucid's defaults: full depth, best moves only");
    let _ = s.apply(Change::UmigameDepth(20));
    let _ = s.apply(Change::UmigameError(21));
    let _ = s.apply(Change::UmigameMin(-2));
    let u = s.display.umigame();
    assert_eq!(u.depth, 20);
    assert!(u.error >= 1000, "21 reads Inf: no limit");
    assert_eq!(u.black_range, Some((-2, 64)));
    // A lower upper bound pulls the lower one down with it; values off Egaroucid's scale are ignored.
    let _ = s.apply(Change::UmigameMax(-5));
    assert_eq!((s.display.umigame_min, s.display.umigame_max), (-5, -5));
    let _ = s.apply(Change::UmigameMax(20));
    assert_eq!(s.display.umigame_max, -5);
    let _ = s.apply(Change::UmigameDepth(0));
    assert_eq!(s.display.umigame_depth, 1);
}

#[test]
fn the_evaluation_round_trips_rebuilds_the_engine_and_a_bad_one_falls_back() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.toml");
    assert_eq!(Settings::default().evaluation, settings::Evaluation::Network, "the strongest is the default");
    let mut s = Settings::default();
    // A change to the other evaluation rebuilds the engine; choosing the one in use does not.
    assert!(s.apply(settings::Change::Evaluation(settings::Evaluation::Patterns)));
    assert!(!s.apply(settings::Change::Evaluation(settings::Evaluation::Patterns)));
    settings::save(&s, &path).unwrap();
    assert!(fs::read_to_string(&path).unwrap().contains("evaluation = \"patterns\""));
    let loaded = settings::load(&path);
    assert_eq!(loaded.notices, vec![]);
    assert_eq!(loaded.settings.evaluation, settings::Evaluation::Patterns);

    fs::write(&path, "evaluation = \"neural\"\n").unwrap();
    let loaded = settings::load(&path);
    assert_eq!(loaded.settings.evaluation, settings::Evaluation::Network);
    assert_eq!(loaded.notices, vec![Notice::BadValue { key: "evaluation".to_owned() }]);

    // The network file is the shipped one under the resources, and only for the network.
    let paths = settings::Paths::inside(dir.path());
    let network = paths.network_file(settings::Evaluation::Network).unwrap();
    assert_eq!(network.parent(), paths.weights_file().parent());
    assert_eq!(paths.network_file(settings::Evaluation::Patterns), None);
}
