//! The app behaves like a desktop program: `--version` and `--help`, a file given on the command line or dropped on
//! the window opens by what it holds, the window title names the game file, the window's place is remembered, a
//! second instance writing the same settings does no harm, and the Help menu has How to Use, Licences, Report a
//! Problem and About.

use std::path::{Path, PathBuf};
use std::process::Command;

use iced::{Settings as IcedSettings, Size};
use iced_test::selector;
use iced_test::simulator::Simulator;
use shirokuro::app::{App, window_event};
use shirokuro::i18n::Language;
use shirokuro::in_out;
use shirokuro::message::Message;
use shirokuro::modal::{Modal, confirm::Question};
use shirokuro::notice::Notice;
use shirokuro::open_file::{self, Kind};
use shirokuro::settings::{self, Loaded, Paths, Settings};
use shirokuro_engine::Board;
use shirokuro_engine::book::{Book, BookFormat, Entry};
use shirokuro_engine::game_file::GameFile;

fn humans(language: Language) -> Settings {
    Settings { ai_plays_black: false, ai_plays_white: false, language: Some(language), ..Settings::default() }
}

fn app(settings: Settings) -> (App, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let app = App::new(Paths::inside(dir.path()), Loaded { settings, notices: Vec::new() });
    (app, dir)
}

fn screen(app: &App) -> Simulator<'_, Message> {
    Simulator::with_size(IcedSettings::default(), Size::new(1100.0, 720.0), app.view())
}

/// What the app does with `path` once its content is read (the background task's answer, given directly).
fn open(app: &mut App, path: &Path) {
    let _ = app.update(Message::FileClassified(open_file::classify(path.to_path_buf())));
}

fn small_book(path: &Path, format: BookFormat) {
    let mut book = Book::new();
    let _ = book.insert(&Board::INITIAL, Entry::new(0, 10));
    match format {
        BookFormat::Edax => shirokuro_engine::book::file::save_edax(&book, path, &Default::default()).unwrap(),
        format => shirokuro_engine::book::save(&book, path, format).unwrap(),
    }
}

#[test]
fn version_and_help_answer_without_a_window() {
    let run = |flag: &str| Command::new(env!("CARGO_BIN_EXE_shirokuro")).arg(flag).output().unwrap();
    let version = run("--version");
    assert!(version.status.success());
    let version = String::from_utf8(version.stdout).unwrap();
    assert!(version.starts_with(concat!("shirokuro ", env!("CARGO_PKG_VERSION"), " (commit ")), "{version}");
    let help = run("--help");
    assert!(help.status.success());
    let help = String::from_utf8(help.stdout).unwrap();
    assert!(help.contains("[FILE]") && help.contains("--version"), "{help}");
    let wrong = run("--no-such-option");
    assert_eq!(wrong.status.code(), Some(2), "a usage error, not a window");
}

#[test]
fn a_game_file_opens_and_names_the_window() {
    let (mut app, dir) = app(humans(Language::English));
    assert_eq!(app.title(), "Shirokuro");
    let mut source =
        App::new(Paths::inside(dir.path()), Loaded { settings: humans(Language::English), notices: vec![] });
    let _ = source.update(Message::InOut(in_out::Message::ClipboardRead(Some("f5d6c3".to_owned()))));
    let file = source.game().game_file("2026-11-25".to_owned(), 1);
    let path = dir.path().join("named game.json");
    file.save(&path).unwrap();

    assert_eq!(open_file::classify(path.clone()).kind, Ok(Kind::Game));
    open(&mut app, &path);
    // The file itself is read by In/Out's task; its answer:
    let _ = app.update(Message::InOut(in_out::Message::GameOpened(Ok((path.clone(), GameFile::load(&path).unwrap())))));
    assert_eq!(app.game().transcript(), "f5d6c3");
    assert_eq!(app.title(), "named game.json — Shirokuro");
    let _ = app.update(Message::NewGame(shirokuro::game::Mode::HumanVsHuman));
    assert_eq!(app.title(), "Shirokuro", "a new game has no file");
}

#[test]
fn a_transcript_file_replaces_the_game_and_a_dropped_file_opens_the_same_way() {
    let (mut app, dir) = app(humans(Language::English));
    let path = dir.path().join("line.txt");
    std::fs::write(&path, "f5f6e6f4\n").unwrap();
    open(&mut app, &path);
    assert_eq!(app.game().transcript(), "f5f6e6f4");

    let dropped = iced::Event::Window(iced::window::Event::FileDropped(path.clone()));
    let message = window_event(dropped, iced::event::Status::Ignored, iced::window::Id::unique());
    assert!(matches!(message, Some(Message::OpenFile(p)) if p == path));
    let moved = iced::Event::Window(iced::window::Event::Moved(iced::Point::new(40.0, 60.0)));
    let message = window_event(moved, iced::event::Status::Ignored, iced::window::Id::unique());
    assert!(matches!(message, Some(Message::WindowMoved(p)) if p == iced::Point::new(40.0, 60.0)));
    // The mouse's extra buttons are told to the app, which starts their functions (tests/shortcut_keys.rs); the left
    // and right buttons belong to the widgets.
    use shirokuro::shortcut::MouseButton;
    let id = iced::window::Id::unique();
    let press = |button| iced::Event::Mouse(iced::mouse::Event::ButtonPressed(button));
    let back = window_event(press(iced::mouse::Button::Back), iced::event::Status::Ignored, id);
    assert!(matches!(back, Some(Message::MouseButton(MouseButton::Back))));
    let forward = window_event(press(iced::mouse::Button::Forward), iced::event::Status::Ignored, id);
    assert!(matches!(forward, Some(Message::MouseButton(MouseButton::Forward))));
    let middle = window_event(press(iced::mouse::Button::Middle), iced::event::Status::Ignored, id);
    assert!(matches!(middle, Some(Message::MouseButton(MouseButton::Middle))));
    assert!(window_event(press(iced::mouse::Button::Left), iced::event::Status::Ignored, id).is_none());
    // By default the back button goes one move back.
    let _ = app.update(Message::MouseButton(MouseButton::Back));
    assert_eq!(app.game().transcript(), "f5f6e6f4", "the line stays");
    assert_eq!(app.game().record().ply(), 3);
}

#[test]
fn a_book_file_asks_first_then_is_used_or_merged() {
    let (mut app, dir) = app(humans(Language::English));
    let egbk3 = dir.path().join("friend.egbk3");
    small_book(&egbk3, BookFormat::Egbk3);
    open(&mut app, &egbk3);
    assert!(matches!(app.modal(), Some(Modal::Confirm(Question::UseBook { file })) if *file == egbk3));
    assert!(screen(&app).find("Use This Book").is_ok());
    let _ = app.update(Message::Modal(shirokuro::modal::Message::Yes));
    assert!(app.modal().is_none());
    assert_eq!(app.settings().book_file.as_deref(), Some(egbk3.as_path()), "used from now on, as Book Reference");

    // An Edax book, whatever its name, is offered for merging.
    let edax = dir.path().join("book.bin");
    small_book(&edax, BookFormat::Edax);
    open(&mut app, &edax);
    let asked = app.modal().cloned_question();
    assert_eq!(asked, Some(Question::MergeBook { file: edax, format: BookFormat::Edax }));
    let _ = app.update(Message::Modal(shirokuro::modal::Message::Close));
    assert!(app.modal().is_none(), "Cancel changes nothing");
}

/// The question of a confirm box, if one is shown.
trait ShownQuestion {
    fn cloned_question(&self) -> Option<Question>;
}

impl ShownQuestion for Option<&Modal> {
    fn cloned_question(&self) -> Option<Question> {
        match self {
            Some(Modal::Confirm(question)) => Some(question.clone()),
            _ => None,
        }
    }
}

#[test]
fn what_cannot_be_opened_is_said_in_the_users_language() {
    let (mut app, dir) = app(humans(Language::Japanese));
    let noise = dir.path().join("noise.bin");
    std::fs::write(&noise, [0xff_u8, 0x00, 0x81, 0xfe]).unwrap();
    open(&mut app, &noise);
    open(&mut app, &dir.path().join("missing.json"));
    open(&mut app, dir.path());
    let s = Language::Japanese.strings();
    let texts: Vec<String> = app.notices().iter().map(|n| n.text(s)).collect();
    assert_eq!(texts.len(), 3, "{texts:?}");
    assert!(matches!(&app.notices()[0], Notice::OpenFailed { problem: open_file::Problem::Unknown, .. }));
    assert!(texts[0].contains("noise.bin") && texts[0].contains("棋譜"), "{}", texts[0]);
    assert!(texts[1].contains("missing.json") && texts[1].contains("開けません"), "{}", texts[1]);
    assert!(matches!(&app.notices()[2], Notice::OpenFailed { problem: open_file::Problem::Read(_), .. }));
}

#[test]
fn the_window_position_is_remembered_within_reason() {
    let (mut app, dir) = app(humans(Language::English));
    let _ = app.update(Message::WindowMoved(iced::Point::new(120.4, 80.6)));
    assert_eq!(app.settings().window_position, Some([120, 81]));
    let path = dir.path().join("s.toml");
    settings::save(app.settings(), &path).unwrap();
    let loaded = settings::load(&path);
    assert_eq!((loaded.settings.window_position, loaded.notices), (Some([120, 81]), vec![]));
    let _ = app.update(Message::WindowMoved(iced::Point::new(-99_999.0, 10.0)));
    assert_eq!(app.settings().window_position, None, "far off every screen: centred next time");
    std::fs::write(&path, "window_position = [1, 2, 3]\n").unwrap();
    let loaded = settings::load(&path);
    assert_eq!(loaded.settings.window_position, None);
    assert!(matches!(loaded.notices.as_slice(), [Notice::BadValue { key }] if key == "window_position"));
}

#[test]
fn two_instances_saving_the_same_settings_never_leave_a_damaged_file() {
    let dir = tempfile::tempdir().unwrap();
    let path: PathBuf = dir.path().join("settings.toml");
    let first = Settings { level: 7, ..Settings::default() };
    let second = Settings { level: 33, window_position: Some([5, 6]), ..Settings::default() };
    settings::save(&first, &path).unwrap();
    std::thread::scope(|scope| {
        for settings in [&first, &second] {
            let path = &path;
            let _ = scope.spawn(move || {
                for _ in 0..200 {
                    settings::save(settings, path).unwrap();
                }
            });
        }
        let (path, first, second) = (&path, &first, &second);
        let _ = scope.spawn(move || {
            for _ in 0..200 {
                let loaded = settings::load(path);
                assert_eq!(loaded.notices, vec![], "a reader never sees a half-written file");
                assert!(loaded.settings == *first || loaded.settings == *second);
            }
        });
    });
    let last = settings::load(&path).settings;
    assert!(last == first || last == second, "the last writer wins");
}

#[test]
fn the_help_menu_has_the_manual_the_licences_the_tracker_and_about() {
    let (mut app, _dir) = app(humans(Language::English));
    let mut ui = screen(&app);
    let _ = ui.click(selector::id("menu_help")).expect("the Help menu title");
    for item in ["how_to_use", "licences", "website", "report_problem", "about"] {
        assert!(ui.find(selector::id(item)).is_ok(), "{item}");
    }
    drop(ui);

    let _ = app.update(Message::Licences);
    let mut ui = screen(&app);
    assert!(ui.find("GPL-3.0-or-later — Shirokuro").is_ok());
    let _ = ui.click("GPL-3.0-or-later — Shirokuro").unwrap();
    let messages: Vec<Message> = ui.into_messages().collect();
    for message in messages {
        let _ = app.update(message);
    }
    assert!(screen(&app).find(shirokuro::modal::licences::OURS.trim()).is_ok(), "the clicked licence's text is shown");
    let third_party = shirokuro::modal::licences::parse(shirokuro::modal::licences::THIRD_PARTY);
    assert!(third_party.iter().any(|l| l.crates.iter().any(|c| c.starts_with("iced "))), "iced's licence is listed");

    let _ = app.update(Message::About);
    let build = format!(
        "Build: commit {}, {} build for {} ({}).",
        shirokuro::help::COMMIT,
        shirokuro::help::PROFILE,
        std::env::consts::OS,
        shirokuro::help::TARGET
    );
    assert!(screen(&app).find(build.as_str()).is_ok(), "{build}");

    // Without a desktop to open the tracker, the address is given to the user.
    let failure = std::io::Error::new(std::io::ErrorKind::NotFound, "no xdg-open");
    let _ = app.update(Message::LinkOpened(shirokuro::help::ISSUES.to_owned(), Err((&failure).into())));
    let text = app.notices().last().unwrap().text(Language::English.strings());
    assert!(text.contains(shirokuro::help::ISSUES), "{text}");
}
