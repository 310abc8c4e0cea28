//! What a new user meets first, tried through the app's `update` and the simulator: the end-of-game result, a New
//! Game that starts clean, a steady screen with progress while the engine works, and file dialogs on a system that
//! has none (the app's own chooser).

use iced::{Settings as IcedSettings, Size};
use iced_test::selector;
use iced_test::simulator::Simulator;
use shirokuro::app::App;
use shirokuro::context::Ctx;
use shirokuro::dialog::{Picked, Purpose};
use shirokuro::engine_worker::Event;
use shirokuro::game::{Action, Game, Message as GameMessage, Mode, Order};
use shirokuro::i18n::Language;
use shirokuro::in_out;
use shirokuro::log::LogLine;
use shirokuro::message::Message;
use shirokuro::modal::{self, Modal, file_chooser};
use shirokuro::notice::Notice;
use shirokuro::settings::{Loaded, Paths, Settings};
use shirokuro_engine::{Board, Color, Position};

const WINDOW: Size = Size::new(1100.0, 720.0);

fn humans() -> Settings {
    Settings { ai_plays_black: false, ai_plays_white: false, language: Some(Language::English), ..Settings::default() }
}

fn app(settings: Settings) -> (App, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let app = App::new(Paths::inside(dir.path()), Loaded { settings, notices: Vec::new() });
    (app, dir)
}

fn screen(app: &App) -> Simulator<'_, Message> {
    Simulator::with_size(IcedSettings::default(), WINDOW, app.view())
}

fn apply(app: &mut App, messages: Vec<Message>) {
    for message in messages {
        let _ = app.update(message);
    }
}

#[test]
fn a_wipe_out_is_scored_with_the_empties_to_the_winner() {
    let (mut app, _dir) = app(humans());
    // White has 51 discs, Black none, 13 squares empty: the game is over and White wins by 64, not 51.
    let white = u64::MAX >> 13;
    let board = Board::new(0, white).unwrap();
    let position = Position { board, side_to_move: Color::Black };
    assert!(position.board.is_game_over());
    let text = shirokuro_engine::notation::format_board(&position);
    let _ = app.update(Message::InOut(in_out::Message::ClipboardRead(Some(text))));
    let mut ui = screen(&app);
    assert!(ui.find("Game over — White wins by 64").is_ok(), "the headline scores the empties");
    assert!(ui.find("Black 0 – White 51").is_ok(), "the discs on the board are still counted as they are");
    assert_eq!(shirokuro::game_library::scored_counts(-64), (0, 64));
    assert_eq!(shirokuro::game_library::scored_counts(0), (32, 32));
}

#[test]
fn new_game_forgets_the_last_games_search() {
    let settings = Settings { ai_plays_black: false, ai_plays_white: true, ..humans() };
    let ctx = Ctx { settings: &settings, language: Language::English, book: None };
    let mut game = Game::new(&ctx);
    let _ = game.engine_ready(&ctx);
    let action = game.update(GameMessage::SquareClicked("f5".parse().unwrap()), &ctx);
    let Action::Engine(Order::Start(request)) = action else { panic!("the AI's move") };
    let iteration = LogLine::Iteration { depth: 5, percent: None, score: 2, pv: vec![], nodes: 10, nps: 100 };
    let _ = game.on_engine(Event::Log(iteration), &ctx);
    assert!(game.status(&ctx).is_some_and(|s| s.contains("depth 5")), "{:?}", game.status(&ctx));
    let thought = shirokuro_engine::think::Thought {
        best_move: Some(shirokuro_engine::Move::Place("d6".parse().unwrap())),
        score: 2,
        exact: false,
        depth: 5,
        nodes: 10,
        elapsed: std::time::Duration::from_millis(3),
        stopped: false,
        selectivity: shirokuro_engine::level::Selectivity::Exact,
        pv: vec![],
    };
    let _ = game.on_engine(Event::Thought { generation: request.generation, thought }, &ctx);
    assert!(game.last_search().is_some());
    let _ = game.new_game(&ctx);
    assert!(game.last_search().is_none(), "New Game clears the last game's search line");
    assert_eq!(game.record().ply(), 0);
    let _ = Mode::HumanVsHuman;
}

#[test]
fn analysis_shows_how_far_it_is_and_survives_navigation() {
    let settings = humans();
    let ctx = Ctx { settings: &settings, language: Language::English, book: None };
    let mut game = Game::new(&ctx);
    let _ = game.engine_ready(&ctx);
    for square in ["f5", "d6", "c3"] {
        let _ = game.update(GameMessage::SquareClicked(square.parse().unwrap()), &ctx);
    }
    let Action::Engine(Order::Start(request)) = game.update(GameMessage::Analyze, &ctx) else { panic!("analysis") };
    assert_eq!(game.status(&ctx).as_deref(), Some("Analyzing… position 1 of 4"));
    let _ = game.on_engine(Event::Analyzed { generation: request.generation, ply: 3, value: 1 }, &ctx);
    assert_eq!(game.status(&ctx).as_deref(), Some("Analyzing… position 2 of 4"));
    // Going back a move keeps the analysis (no new engine order, same generation).
    assert_eq!(game.update(GameMessage::Backward, &ctx), Action::None);
    assert_eq!(game.generation(), request.generation);
    let _ = game.on_engine(Event::Analyzed { generation: request.generation, ply: 2, value: -1 }, &ctx);
    assert_eq!(game.record().node_at(2).and_then(|n| n.value), Some(-1), "its values still arrive");
}

#[test]
fn without_a_system_dialog_the_apps_own_chooser_opens_a_game() {
    let (mut app, dir) = app(humans());
    // A game file to open, in the games folder.
    let games = dir.path().join("data").join("games");
    std::fs::create_dir_all(&games).unwrap();
    let _ = app.update(Message::InOut(in_out::Message::ClipboardRead(Some("f5d6c3d3".to_owned()))));
    let file = app.in_out().game_file(app.game(), 21);
    file.save(&games.join("one.json")).unwrap();
    std::fs::write(games.join("notes.txt"), "not offered").unwrap();
    let _ = app.update(Message::NewGame(Mode::HumanVsHuman));

    // The system dialog could not be shown: a notice, and the chooser.
    let request = in_out::game_file_request(Language::English.strings(), Purpose::OpenGame, &dir.path().join("data"));
    let _ = app.update(Message::FilePicked(request, Picked::Unavailable));
    assert!(app.notices().contains(&Notice::NoFileDialog));
    let Some(Modal::FileChooser(chooser)) = app.modal() else { panic!("the chooser is open") };
    assert_eq!(chooser.purpose(), Purpose::OpenGame);
    // Its folder is read in the background; here the listing is handed over as the task would.
    let entries = vec![file_chooser::Entry { name: "one.json".to_owned(), is_dir: false }];
    let listed = file_chooser::Message::Listed(games.clone(), Ok(entries));
    let _ = app.update(Message::Modal(modal::Message::Chooser(listed)));

    // Click the file, then Choose.
    let mut ui = screen(&app);
    let _ = ui.click("one.json").expect("the game file is listed");
    let messages: Vec<Message> = ui.into_messages().collect();
    apply(&mut app, messages);
    let mut ui = screen(&app);
    let _ = ui.click(selector::id("chooser-choose")).expect("the Choose button");
    let messages: Vec<Message> = ui.into_messages().collect();
    let mut tasks = Vec::new();
    for message in messages {
        tasks.push(app.update(message));
    }
    assert!(app.modal().is_none(), "the chooser closed");
    // The file is read in the background; its answer replaces the game.
    let opened = shirokuro_engine::game_file::GameFile::load(&games.join("one.json")).unwrap();
    let _ = app.update(Message::InOut(in_out::Message::GameOpened(Ok((games.join("one.json"), opened)))));
    assert_eq!(app.game().transcript(), "f5d6c3d3");
}

#[test]
fn the_chooser_takes_a_typed_path_and_says_what_is_wrong() {
    let (mut app, dir) = app(humans());
    let request = in_out::game_file_request(Language::English.strings(), Purpose::SaveGame, &dir.path().join("data"));
    let _ = app.update(Message::FilePicked(request, Picked::Unavailable));
    let chooser = |app: &App| match app.modal() {
        Some(Modal::FileChooser(chooser)) => chooser.path().to_owned(),
        _ => panic!("the chooser is open"),
    };
    assert!(chooser(&app).ends_with(".json"), "a dated name is proposed: {}", chooser(&app));
    // Type a path with the wrong extension and press Enter.
    let mut ui = screen(&app);
    let _ = ui.click(selector::id(file_chooser::PATH_INPUT)).expect("the path field");
    let _ = ui.typewrite("x");
    let messages: Vec<Message> = ui.into_messages().collect();
    assert!(
        messages
            .iter()
            .any(|m| matches!(m, Message::Modal(modal::Message::Chooser(file_chooser::Message::PathEdited(_))))),
        "typing reaches the path field: {messages:?}"
    );
    apply(&mut app, messages);
    let wrong = dir.path().join("game.txt").display().to_string();
    let _ = app.update(Message::Modal(modal::Message::Chooser(file_chooser::Message::PathEdited(wrong))));
    let _ = app.update(Message::Modal(modal::Message::Chooser(file_chooser::Message::Submit)));
    assert!(screen(&app).find("Choose a file ending in *.json.").is_ok(), "it says what is wrong");
    // A right one saves (the save runs as a task; the box closes).
    let right = dir.path().join("game.json").display().to_string();
    let _ = app.update(Message::Modal(modal::Message::Chooser(file_chooser::Message::PathEdited(right))));
    let _ = app.update(Message::Modal(modal::Message::Chooser(file_chooser::Message::Submit)));
    assert!(app.modal().is_none());
}

#[test]
fn notices_and_progress_do_not_move_the_board() {
    let (mut app, _dir) = app(humans());
    let before = screen(&app).find(selector::id("board")).unwrap().bounds();
    let _ = app.update(Message::InOut(in_out::Message::ClipboardRead(None)));
    assert!(!app.notices().is_empty());
    let event = shirokuro::book::Event::Started(shirokuro::book::Operation::Merge);
    let _ = app.update(Message::Book(shirokuro::book::Message::Worker(event)));
    let mut ui = screen(&app);
    assert!(ui.find(selector::id("book-progress")).is_ok() && ui.find(selector::id("notices")).is_ok());
    let after = ui.find(selector::id("board")).unwrap().bounds();
    assert_eq!(before, after, "the board stays where it was");
}

#[test]
fn a_rejected_text_is_worded_in_the_users_language() {
    let (mut app, _dir) = app(humans());
    let _ = app.update(Message::InOut(in_out::Message::ClipboardRead(Some("f5f5".to_owned()))));
    let [Notice::TranscriptRejected { problem }] = app.notices() else { panic!("{:?}", app.notices()) };
    let english = Notice::TranscriptRejected { problem: problem.clone() }.text(Language::English.strings());
    let japanese = Notice::TranscriptRejected { problem: problem.clone() }.text(Language::Japanese.strings());
    assert!(english.contains("f5 is occupied"), "{english}");
    assert!(japanese.contains("f5 にはすでに石があります"), "{japanese}");
    assert!(!japanese.contains("occupied") && !japanese.contains("move"), "no English in Japanese: {japanese}");
    // Deviate with Transcripts names the line.
    let problem = shirokuro::book::parse_transcript_lines("f5d6\n\nf5z9\n").unwrap_err();
    assert!(problem.is_on_line(3));
    assert!(problem.text(Language::Japanese.strings()).starts_with("3 行目："));
}

#[test]
fn a_bad_game_file_is_worded_in_the_users_language() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{}").unwrap();
    let error = shirokuro_engine::game_file::GameFile::load(&bad).unwrap_err();
    let notice = Notice::GameFileFailed { error };
    let japanese = notice.text(Language::Japanese.strings());
    assert!(japanese.contains("bad.json") && japanese.contains("局面が一つもありません"), "{japanese}");
    assert!(notice.text(Language::English.strings()).contains("the file holds no position"));
}

#[test]
fn a_failed_screenshot_is_worded_in_the_users_language() {
    use shirokuro::screenshot::ScreenshotError;
    let notice = Notice::ScreenshotFailed { error: ScreenshotError::Capture { bytes: 10, width: 4, height: 4 } };
    let japanese = notice.text(Language::Japanese.strings());
    assert!(japanese.contains("キャプチャが 10 バイトで、4×4 ピクセルに合いません"), "{japanese}");
    assert!(notice.text(Language::English.strings()).contains("the capture has 10 bytes for 4×4 pixels"));
}

#[test]
fn the_first_start_installs_the_shipped_book_and_says_so_once() {
    use iced::futures::StreamExt;
    use iced::futures::executor::block_on;
    use shirokuro::book::{self, Event as BookEvent, Operation};
    let (mut app, dir) = app(humans());
    let paths = Paths::inside(dir.path());
    assert!(paths.shipped_book().is_file(), "the default book ships in resources/book/");
    let mut events = Box::pin(book::worker::spawn(&paths.weights_file()));
    // Every event of the worker goes to the app, as its subscription would, until the first load has ended.
    loop {
        let event = block_on(events.next()).expect("the book worker runs");
        let done = matches!(event, BookEvent::Finished { operation: Operation::Load, .. });
        let _ = app.update(Message::Book(book::Message::Worker(event)));
        if done {
            break;
        }
    }
    let installed: Vec<&Notice> =
        app.notices().iter().filter(|n| matches!(n, Notice::DefaultBookInstalled { .. })).collect();
    let [Notice::DefaultBookInstalled { file, positions }] = installed[..] else { panic!("{:?}", app.notices()) };
    assert_eq!(*file, paths.default_book_file());
    let in_use = app.book().expect("a book is in use").len();
    assert_eq!(*positions, in_use);
    // The shipped file loads whole (its header's count matches its records), with the count its README states.
    let readme = std::fs::read_to_string(paths.shipped_book().with_file_name("README.md")).expect("the book's README");
    let stated = readme
        .lines()
        .find_map(|line| line.strip_prefix("Positions: "))
        .and_then(|n| n.trim().parse::<usize>().ok())
        .expect("README.md states the number of positions");
    assert_eq!(in_use, stated, "resources/book/README.md says {stated} positions");
    assert!(file.is_file(), "saved as the user's book");
    assert!(shirokuro_engine::fsutil::lock_path(file).is_file(), "and locked against other writers");
}

#[test]
fn closing_the_window_during_a_book_deviate_saves_what_it_learned_before_the_app_ends() {
    use iced::futures::StreamExt;
    use iced::futures::executor::block_on;
    use shirokuro::book::{self, Event as BookEvent, Operation};
    // No default book here: the deviate grows an empty book from the initial position.
    let mut settings = humans();
    settings.book_file = Some(std::path::PathBuf::from("unused"));
    let (mut app, dir) = app(settings);
    let file = dir.path().join("mine.egbk3");
    let _ = app.update(Message::Book(book::Message::FileChosen(Operation::Reference, file.clone())));
    // The settings save that the choice starts (the runtime would run it; here its answer is given).
    let _ = app.update(Message::SettingsSaved(Ok(())));
    let paths = Paths::inside(dir.path());
    let mut events = Box::pin(book::worker::spawn(&paths.weights_file()));
    let mut pump = |app: &mut App, until: &dyn Fn(&BookEvent) -> bool| loop {
        let event = block_on(events.next()).expect("the book worker runs");
        let done = until(&event);
        let _ = app.update(Message::Book(book::Message::Worker(event)));
        if done {
            return;
        }
    };
    pump(&mut app, &|e| matches!(e, BookEvent::Ready(_)));
    pump(&mut app, &|e| matches!(e, BookEvent::Finished { operation: Operation::Load, .. }));
    let _ = app.update(Message::Book(book::Message::Run(Operation::Deviate)));
    pump(&mut app, &|e| matches!(e, BookEvent::Progress { operation: Operation::Deviate, .. }));
    assert!(!app.may_exit());
    let _ = app.update(Message::CloseRequested);
    assert!(!app.may_exit(), "the deviate is still saving");
    pump(&mut app, &|e| matches!(e, BookEvent::Finished { operation: Operation::Flush, .. }));
    assert!(app.may_exit(), "everything is saved: the app ends");
    let (saved, _) = shirokuro_engine::book::load(&file, None, Default::default()).expect("the book was saved");
    assert_eq!(saved.len(), app.book().map_or(0, shirokuro::book::SharedBook::len), "what was learned is on disk");
    assert!(!saved.is_empty());
}

#[test]
fn a_small_book_in_use_is_pointed_out_and_use_book_can_be_turned_off() {
    use shirokuro::book::{self, Event as BookEvent, Operation, Outcome};
    let worker = |event| Message::Book(book::Message::Worker(event));
    let (mut app, _dir) = app(Settings { language: Some(Language::English), ..Settings::default() });
    assert!(app.settings().use_book);
    // A book of 3,000 positions loads quietly; one of 40 asks.
    let _ = app.update(worker(BookEvent::Finished {
        operation: Operation::Load,
        outcome: Outcome::Done { positions: 3_000, added: 3_000 },
    }));
    assert!(app.modal().is_none());
    let _ = app.update(worker(BookEvent::Finished {
        operation: Operation::Reference,
        outcome: Outcome::Done { positions: 40, added: 40 },
    }));
    assert!(matches!(app.modal(), Some(Modal::Confirm(modal::confirm::Question::SmallBook { positions: 40 }))));
    let mut ui = Simulator::with_size(IcedSettings::default(), Size::new(1100.0, 720.0), app.view());
    assert!(ui.find("A small book").is_ok());
    let _ = ui.click(selector::id("confirm-yes")).expect("Turn Use Book Off");
    let messages: Vec<Message> = ui.into_messages().collect();
    apply(&mut app, messages);
    assert!(app.modal().is_none());
    assert!(!app.settings().use_book, "Use Book is off");
    // With Use Book off, no more questions; an empty book never asks.
    let _ = app.update(worker(BookEvent::Finished {
        operation: Operation::Load,
        outcome: Outcome::Done { positions: 40, added: 40 },
    }));
    assert!(app.modal().is_none());
}
