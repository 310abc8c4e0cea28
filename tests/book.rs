//! The book in the app: the book worker with real files (load, missing and damaged files, info, import/export, add a
//! transcript, a deviate stopped part-way), the engine worker playing and hinting from a book, and the game screen
//! passing the book only when "use book" is on.

use std::path::{Path, PathBuf};

use iced::futures::executor::block_on;
use iced::futures::{Stream, StreamExt};
use shirokuro::book::{Event, Handle, Job, Operation, Outcome, SharedBook};
use shirokuro::context::Ctx;
use shirokuro::engine_worker::{self, EngineOptions, HintKind, Request};
use shirokuro::game::{Action, Game, Message, Order};
use shirokuro::i18n::Language;
use shirokuro::log::LogLine;
use shirokuro::settings::{Paths, Settings};
use shirokuro_engine::book::learn::DeviateSettings;
use shirokuro_engine::book::{self, Book, BookFormat, Entry};
use shirokuro_engine::eval::weights::WeightsError;
use shirokuro_engine::level::Level;
use shirokuro_engine::{Board, Move, Position, Square};

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

fn weights() -> PathBuf {
    Paths::inside(Path::new("/unused")).weights_file()
}

/// A book with the start, f5 and f5 d6 (worth +3 for Black, to move there): after f5, White's d6 is a book move worth
/// −3 for White; f4 and f6 are not in the book.
fn small_book() -> Book {
    let mut book = Book::new();
    let after_f5 = Board::INITIAL.play(Move::Place(sq("f5"))).unwrap();
    let after_f5_d6 = after_f5.play(Move::Place(sq("d6"))).unwrap();
    let _ = book.insert(&Board::INITIAL, Entry::new(0, 20));
    let _ = book.insert(&after_f5, Entry::new(0, 20));
    let _ = book.insert(&after_f5_d6, Entry::new(3, 20));
    book
}

fn after(moves: &[&str]) -> Position {
    moves.iter().fold(Position::INITIAL, |p, m| p.play(Move::Place(sq(m))).unwrap())
}

/// A worker that has loaded [`small_book`] from `book.egbk3` in `dir`: the file, the handle and the events.
fn worker_with_small_book(dir: &tempfile::TempDir) -> (std::path::PathBuf, Handle, impl Stream<Item = Event> + Unpin) {
    let file = dir.path().join("book.egbk3");
    book::save(&small_book(), &file, BookFormat::Egbk3).unwrap();
    let (handle, mut events) = start_book_worker();
    handle.send(Job::Load { file: file.clone() });
    let _ = started(&mut events);
    let _ = finish(&mut events);
    (file, handle, events)
}

fn start_book_worker() -> (Handle, impl Stream<Item = Event> + Unpin) {
    let mut events = Box::pin(shirokuro::book::worker::spawn(&weights()));
    let Some(Event::Ready(handle)) = block_on(events.next()) else { panic!("ready first") };
    (handle, events)
}

/// Runs the events of one job to its end: (snapshots sent, other events, outcome).
fn finish(events: &mut (impl Stream<Item = Event> + Unpin)) -> (Vec<SharedBook>, Vec<Event>, Outcome) {
    let mut books = Vec::new();
    let mut others = Vec::new();
    loop {
        match block_on(events.next()).expect("the worker is alive") {
            Event::Book(book) => books.push(book),
            Event::Finished { outcome, .. } => return (books, others, outcome),
            // How often progress comes depends on the machine's speed.
            Event::Progress { .. } => {}
            event => others.push(event),
        }
    }
}

fn started(events: &mut (impl Stream<Item = Event> + Unpin)) -> Operation {
    match block_on(events.next()) {
        Some(Event::Started(operation)) => operation,
        other => panic!("expected Started, got {other:?}"),
    }
}

#[test]
fn a_book_file_loads_and_a_missing_one_is_an_empty_book() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("book.egbk3");
    book::save(&small_book(), &file, BookFormat::Egbk3).unwrap();
    let (handle, mut events) = start_book_worker();
    handle.send(Job::Load { file: file.clone() });
    assert_eq!(started(&mut events), Operation::Load);
    let (books, _, outcome) = finish(&mut events);
    assert_eq!(books.len(), 1);
    assert_eq!(books[0].len(), 3);
    assert_eq!(outcome, Outcome::Done { positions: 3, added: 3 });

    handle.send(Job::Load { file: dir.path().join("none.egbk3") });
    let _ = started(&mut events);
    let (books, others, outcome) = finish(&mut events);
    assert!(books[0].is_empty());
    assert!(others.is_empty(), "no notice for a missing book: {others:?}");
    assert_eq!(outcome, Outcome::Done { positions: 0, added: 0 });
}

#[test]
fn a_damaged_book_gives_a_notice_loads_nothing_and_is_never_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("book.egbk3");
    let mut bytes = Vec::new();
    book::file::write_to(&small_book(), BookFormat::Egbk3, &mut bytes).unwrap();
    bytes.truncate(bytes.len() - 5);
    std::fs::write(&file, &bytes).unwrap();
    let (handle, mut events) = start_book_worker();
    handle.send(Job::Load { file: file.clone() });
    let _ = started(&mut events);
    let (books, others, _) = finish(&mut events);
    assert!(books[0].is_empty());
    assert!(
        matches!(&others[..], [Event::Unreadable { file: f, error }] if *f == file && matches!(error, shirokuro::book::BookProblem::File(_))),
        "{others:?}"
    );
    // An operation that would save fails instead of replacing the damaged file.
    handle.send(Job::Fix { edax_like: false });
    let _ = started(&mut events);
    let (_, _, outcome) = finish(&mut events);
    assert_eq!(outcome, Outcome::NoFile);
    assert_eq!(std::fs::read(&file).unwrap(), bytes);
}

#[test]
fn recalculate_lines_counts_lines_keeps_values_and_saves() {
    let dir = tempfile::tempdir().unwrap();
    let (file, handle, mut events) = worker_with_small_book(&dir);
    handle.send(Job::Lines);
    assert_eq!(started(&mut events), Operation::Lines);
    let (_, _, outcome) = finish(&mut events);
    // The initial position (four first moves, all to f5's position: 1 + 4 × 2) and f5's (1 + 1).
    assert_eq!(outcome, Outcome::Done { positions: 3, added: 2 });
    let saved = book::load(&file, None, book::file::ReadOptions::default()).unwrap().0;
    let root = saved.get(&Board::INITIAL).unwrap();
    assert_eq!((root.value, root.lines), (0, 9), "the value stays (Book Fix would make it -3)");
}

#[test]
fn info_import_export_and_merge_go_through_files() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("book.egbk3");
    let other = dir.path().join("other.egbk3");
    book::save(&small_book(), &other, BookFormat::Egbk3).unwrap();
    let (handle, mut events) = start_book_worker();
    handle.send(Job::Load { file: file.clone() });
    let _ = started(&mut events);
    let _ = finish(&mut events);

    handle.send(Job::Import { from: other.clone(), level: 1 });
    let _ = started(&mut events);
    let (books, _, outcome) = finish(&mut events);
    assert_eq!(books[0].len(), 3);
    assert!(matches!(outcome, Outcome::Done { positions: 3, .. }));
    // The imported book was saved to the book file.
    assert_eq!(book::load(&file, None, book::file::ReadOptions::default()).unwrap().0.len(), 3);

    handle.send(Job::Info);
    let _ = started(&mut events);
    let (_, others, _) = finish(&mut events);
    let [Event::Info(info)] = &others[..] else { panic!("{others:?}") };
    assert_eq!(info.positions, 3);
    assert_eq!(info.by_level[20], 3);
    assert_eq!((info.by_ply[0], info.by_ply[1], info.by_ply[2]), (1, 1, 1));

    let exported = dir.path().join("out.dat");
    handle.send(Job::Export { to: exported.clone(), level: None, extra: None });
    let _ = started(&mut events);
    let (books, _, outcome) = finish(&mut events);
    assert!(books.is_empty(), "an export does not change the book");
    assert!(matches!(outcome, Outcome::Done { .. }));
    let (read, format) = book::load(&exported, None, book::file::ReadOptions::default()).unwrap();
    assert_eq!(format, BookFormat::Edax);
    assert!(read.contains(&after(&["f5", "d6"]).board));

    // Export with Level: the written copy has the level everywhere, the book in use keeps its own.
    let levelled = dir.path().join("levelled.egbk3");
    handle.send(Job::Export { to: levelled.clone(), level: Some(7), extra: None });
    assert_eq!(started(&mut events), Operation::ExportLevel);
    let (books, _, outcome) = finish(&mut events);
    assert!(books.is_empty() && matches!(outcome, Outcome::Done { .. }));
    let (read, _) = book::load(&levelled, None, book::file::ReadOptions::default()).unwrap();
    assert!(read.iter().all(|(_, entry)| entry.level == 7), "every level overwritten");
    handle.send(Job::Info);
    let _ = started(&mut events);
    let (_, others, _) = finish(&mut events);
    let [Event::Info(info)] = &others[..] else { panic!("{others:?}") };
    assert_eq!(info.by_level[20], 3, "the book in use keeps level 20");

    // Export for Edax with Extra Calc: the written copy gets a leaf wherever one was missing; the book in use not.
    let edax = dir.path().join("extra.dat");
    let extra = shirokuro::book::ExtraCalc { leaf_level: 1, hash_level: 12, threads: 1 };
    handle.send(Job::Export { to: edax.clone(), level: None, extra: Some(extra) });
    assert_eq!(started(&mut events), Operation::ExportEdax);
    let (books, _, outcome) = finish(&mut events);
    assert!(books.is_empty() && matches!(outcome, Outcome::Done { .. }), "{outcome:?}");
    let (read, format) = book::load(&edax, None, book::file::ReadOptions::default()).unwrap();
    assert_eq!(format, BookFormat::Edax);
    let with_leaf = read.iter().filter(|(_, entry)| entry.leaf.mv().is_some()).count();
    assert!(with_leaf >= 2, "leaves were searched: {with_leaf} of {}", read.len());
    // The book in use was not changed, so not saved with leaves either.
    let (on_disk, _) = book::load(&file, None, book::file::ReadOptions::default()).unwrap();
    assert!(on_disk.iter().all(|(_, entry)| entry.leaf.mv().is_none()), "the book's own file has no leaf");

    let mut extra = Book::new();
    let _ = extra.insert(&after(&["f5", "f6"]).board, Entry::new(-1, 30));
    let extra_file = dir.path().join("extra.egbk3");
    book::save(&extra, &extra_file, BookFormat::Egbk3).unwrap();
    handle.send(Job::Merge { from: extra_file });
    let _ = started(&mut events);
    let (books, _, outcome) = finish(&mut events);
    assert_eq!(books[0].len(), 4);
    assert_eq!(outcome, Outcome::Done { positions: 4, added: 1 });
    // Saved with a backup of the previous file.
    assert!(shirokuro::fsutil::backup_path(&file).exists());
}

/// A book worker that has loaded an empty book from `book.egbk3` in `dir`: the file, the handle and the events.
fn worker_with_an_empty_book(dir: &tempfile::TempDir) -> (PathBuf, Handle, impl Stream<Item = Event> + Unpin) {
    let file = dir.path().join("book.egbk3");
    let (handle, mut events) = start_book_worker();
    handle.send(Job::Load { file: file.clone() });
    let _ = started(&mut events);
    let _ = finish(&mut events);
    (file, handle, events)
}

#[test]
fn a_transcript_is_added_and_a_deviate_stops_when_asked_and_is_saved() {
    let dir = tempfile::tempdir().unwrap();
    let (file, handle, mut events) = worker_with_an_empty_book(&dir);

    let moves: Vec<Move> = ["f5", "d6", "c3"].iter().map(|m| Move::Place(sq(m))).collect();
    handle.send(Job::Store { start: Board::INITIAL, moves, depth: 30, level: 1, hash_level: 12 });
    assert_eq!(started(&mut events), Operation::Store);
    let (books, _, outcome) = finish(&mut events);
    let stored = books[0].read().unwrap();
    for line in [&["f5"][..], &["f5", "d6"], &["f5", "d6", "c3"]] {
        assert!(stored.contains(&after(line).board), "{line:?} is in the book");
    }
    assert!(matches!(outcome, Outcome::Done { added, .. } if added >= 4), "{outcome:?}");
    // Readers hold the shared book only briefly (the worker waits for them to change it).
    drop(stored);

    // A deviate far too large to finish, stopped as soon as it starts: it ends Stopped and saves what it has.
    let settings = DeviateSettings {
        level: 1,
        depth: 40,
        error_per_move: 80,
        error_sum: 100_000,
        error_leaf: 80,
        max_loops: usize::MAX,
        threads: 1,
        save_every: std::time::Duration::from_secs(3600),
        shard: shirokuro_engine::book::import::Shard::ALL,
    };
    handle.send(Job::Deviate { root: Board::INITIAL, settings, hash_level: 12 });
    assert_eq!(started(&mut events), Operation::Deviate);
    handle.stop();
    let (books, _, outcome) = finish(&mut events);
    let Outcome::Stopped { positions, .. } = outcome else { panic!("{outcome:?}") };
    assert_eq!(books.last().unwrap().len(), positions);
    let saved = book::load(&file, None, book::file::ReadOptions::default()).unwrap().0;
    assert_eq!(saved.len(), positions);
}

#[test]
fn deviate_with_transcripts_adds_each_line_and_what_follows_its_end() {
    let dir = tempfile::tempdir().unwrap();
    let (file, handle, mut events) = worker_with_an_empty_book(&dir);
    // Depth 4: positions of up to 8 discs, so each line's end (7 discs) is learned from and the run is short.
    let settings = DeviateSettings {
        level: 1,
        depth: 4,
        error_per_move: 2,
        error_sum: 4,
        error_leaf: 2,
        max_loops: usize::MAX,
        threads: 1,
        save_every: std::time::Duration::from_secs(3600),
        shard: shirokuro_engine::book::import::Shard::ALL,
    };
    let lines: Vec<Vec<Move>> = [["f5", "d6", "c3"], ["f5", "f6", "e6"]]
        .iter()
        .map(|l| l.iter().map(|m| Move::Place(sq(m))).collect())
        .collect();
    handle.send(Job::DeviateTranscripts { lines, settings, hash_level: 12 });
    assert_eq!(started(&mut events), Operation::DeviateTranscripts);
    let (books, _, outcome) = finish(&mut events);
    let learned = books.last().unwrap().read().unwrap();
    for line in [&["f5", "d6", "c3"][..], &["f5", "f6", "e6"]] {
        assert!(learned.contains(&after(line).board), "{line:?} is in the book");
    }
    assert!(matches!(outcome, Outcome::Done { added, .. } if added >= 7), "{outcome:?}");
    let saved = book::load(&file, None, book::file::ReadOptions::default()).unwrap().0;
    assert_eq!(saved.len(), learned.len(), "saved");
}

#[test]
fn the_engine_plays_book_moves_and_labels_book_hints() {
    let mut events = Box::pin(engine_worker::spawn(&weights()));
    let next = |events: &mut std::pin::Pin<Box<_>>| loop {
        match block_on(StreamExt::next(events)).expect("alive") {
            engine_worker::Event::Log(_) => {}
            event => break event,
        }
    };
    let engine_worker::Event::Ready(handle) = next(&mut events) else { panic!("ready") };
    handle.configure(EngineOptions { threads: 1, hash_level: 16, network: None });
    assert!(matches!(next(&mut events), engine_worker::Event::Configured));
    let book = Some(SharedBook::new(small_book()));
    let position = after(&["f5"]);
    // White to move after f5: d6 is the only book move, worth −3; the AI plays it without searching.
    for generation in 1..=3 {
        let job = engine_worker::Job::Think {
            position,
            level: Level::clamped(10),
            book: book.clone(),
            loss: None,
            time: None,
            sparring: None,
        };
        handle.send(Request { generation, job });
        let engine_worker::Event::Thought { thought, .. } = next(&mut events) else { panic!("a thought") };
        assert_eq!(thought.best_move, Some(Move::Place(sq("d6"))));
        assert_eq!((thought.score, thought.nodes), (-3, 0));
        assert_eq!(thought.pv, vec![Move::Place(sq("d6"))], "the book line ends at d6");
        assert!(matches!(next(&mut events), engine_worker::Event::Done { .. }));
    }
    // Hints: d6 comes from the book, f4 and f6 are searched.
    let job = engine_worker::Job::Hints { position, level: Level::clamped(2), book };
    handle.send(Request { generation: 10, job });
    let mut kinds = Vec::new();
    loop {
        match next(&mut events) {
            engine_worker::Event::Hint { square, value, kind, .. } => kinds.push((square, value, kind)),
            engine_worker::Event::Done { .. } => break,
            other => panic!("unexpected {other:?}"),
        }
    }
    assert!(kinds.contains(&(sq("d6"), -3, HintKind::Book)));
    for searched in ["f4", "f6"] {
        assert!(kinds.iter().any(|(s, _, k)| *s == sq(searched) && matches!(k, HintKind::Depth(_))), "{kinds:?}");
    }
    assert_eq!(kinds.iter().filter(|(s, _, _)| *s == sq("d6")).count(), 1, "the book move is not searched");
}

fn ctx(settings: &Settings) -> Ctx<'_> {
    Ctx { settings, language: Language::English, book: None }
}

fn job_book(action: &Action) -> Option<Option<SharedBook>> {
    match action {
        Action::Engine(Order::Start(Request { job, .. })) => Some(match job {
            engine_worker::Job::Think { book, .. }
            | engine_worker::Job::Hints { book, .. }
            | engine_worker::Job::Analyze { book, .. }
            | engine_worker::Job::Review { book, .. } => book.clone(),
            engine_worker::Job::RandomBoard { .. } | engine_worker::Job::Focus { .. } => None,
        }),
        _ => None,
    }
}

#[test]
fn the_game_passes_the_book_only_when_it_is_in_use_and_shows_the_book_label() {
    let settings = Settings { ai_plays_black: false, ai_plays_white: false, ..Settings::default() };
    let shared = SharedBook::new(small_book());
    let with_book = Ctx { settings: &settings, language: Language::English, book: Some(&shared) };
    let without = Ctx { settings: &settings, language: Language::English, book: None };
    let mut game = Game::new(&with_book);
    let action = game.engine_ready(&with_book);
    assert_eq!(job_book(&action), Some(Some(shared.clone())), "hints get the book");
    let action = game.update(Message::SquareClicked(sq("f5")), &without);
    assert_eq!(job_book(&action), Some(None), "no book when it is not in use");
    let action = game.update(Message::Analyze, &with_book);
    assert_eq!(job_book(&action), Some(Some(shared.clone())), "analysis gets the book");
    let Action::Engine(Order::Start(analysis)) = action else { panic!("an analysis") };

    // Moving during the analysis lets it run on; when it is done, the position shown gets its hints.
    assert_eq!(game.update(Message::Backward, &with_book), Action::None, "the analysis goes on");
    let action = game.on_engine(engine_worker::Event::Done { generation: analysis.generation }, &with_book);
    // A book hint is labelled "book" on the board.
    let Action::Engine(Order::Start(request)) = action else { panic!("hints") };
    let generation = request.generation;
    let hint = engine_worker::Event::Hint { generation, square: sq("f5"), value: 0, kind: HintKind::Book, pv: vec![] };
    let _ = game.on_engine(hint, &with_book);
    let marks = &game.scene().hints;
    assert_eq!(marks.len(), 1);
    assert_eq!(marks[0].label, "book");
    let ja = Ctx { language: Language::Japanese, ..with_book };
    game.language_changed(&ja);
    assert_eq!(game.scene().hints[0].label, "book");

    // Book operations report in the log, in the current language.
    game.log(LogLine::BookFinished(Operation::Fix, Outcome::Stopped { positions: 5, added: 2 }));
    let line = game.log_lines().last().unwrap();
    assert_eq!(
        line.text(Language::English.strings()),
        "Book Fix: stopped, 5 positions in the book (2 added, changed or removed)"
    );
    assert!(line.text(Language::Japanese.strings()).starts_with("book修正"));
}

#[test]
fn right_click_opens_the_book_editor_and_enter_asks_for_the_edit() {
    let mut settings = Settings { ai_plays_black: false, ai_plays_white: false, ..Settings::default() };
    let mut game = Game::new(&ctx(&settings));
    let _ = game.engine_ready(&ctx(&settings));
    // Not a legal move: nothing opens.
    let _ = game.update(Message::SquareRightClicked(sq("a1")), &ctx(&settings));
    assert_eq!(game.book_edit(), None);
    let _ = game.update(Message::SquareRightClicked(sq("f5")), &ctx(&settings));
    assert_eq!(game.book_edit(), Some((sq("f5"), "")));
    // Empty: no change.
    assert_eq!(game.update(Message::BookEditSubmit, &ctx(&settings)), Action::None);
    assert_eq!(game.book_edit(), None);
    let _ = game.update(Message::SquareRightClicked(sq("f5")), &ctx(&settings));
    let _ = game.update(Message::BookEditInput(" -7 ".to_owned()), &ctx(&settings));
    assert_eq!(
        game.update(Message::BookEditSubmit, &ctx(&settings)),
        Action::BookEdit { board: Board::INITIAL, mv: Move::Place(sq("f5")), value: Some(-7) }
    );
    // Not a number in range: delete; a right click on the same square commits too.
    let _ = game.update(Message::SquareRightClicked(sq("d3")), &ctx(&settings));
    let _ = game.update(Message::BookEditInput("65".to_owned()), &ctx(&settings));
    assert_eq!(
        game.update(Message::SquareRightClicked(sq("d3")), &ctx(&settings)),
        Action::BookEdit { board: Board::INITIAL, mv: Move::Place(sq("d3")), value: None }
    );
    // Cancel, and moving on closes the editor.
    let _ = game.update(Message::SquareRightClicked(sq("c4")), &ctx(&settings));
    let _ = game.update(Message::BookEditCancel, &ctx(&settings));
    assert_eq!(game.book_edit(), None);
    let _ = game.update(Message::SquareRightClicked(sq("c4")), &ctx(&settings));
    let _ = game.update(Message::SquareClicked(sq("f5")), &ctx(&settings));
    assert_eq!(game.book_edit(), None, "the editor belongs to the position it was opened in");
    // With "Right-click to Change" off, right clicks do nothing.
    settings.book.right_click_edit = false;
    let _ = game.update(Message::SquareRightClicked(sq("d6")), &ctx(&settings));
    assert_eq!(game.book_edit(), None);
}

#[test]
fn a_book_edit_is_stored_and_saved() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("book.egbk3");
    book::save(&small_book(), &file, BookFormat::Egbk3).unwrap();
    let (handle, mut events) = start_book_worker();
    handle.send(Job::Load { file: file.clone() });
    let _ = started(&mut events);
    let (loaded, _, _) = finish(&mut events);
    let after_f5 = after(&["f5"]).board;
    handle.send(Job::Edit { board: after_f5, mv: Move::Place(sq("f6")), value: Some(5) });
    assert_eq!(started(&mut events), Operation::Edit);
    let (books, _, outcome) = finish(&mut events);
    assert_eq!(outcome, Outcome::Done { positions: 4, added: 1 });
    // The edit changed the one shared book: the app's handle from the load sees it, nothing was copied.
    assert_eq!(books.len(), 1, "one change event, sent before the save");
    assert_eq!(books[0], loaded[0], "the same shared book, not a copy");
    assert_eq!(loaded[0].len(), 4);
    let value = books[0].read().unwrap().move_value(&after_f5, Move::Place(sq("f6"))).unwrap();
    assert_eq!((value.value, value.level), (5, book::LEVEL_HUMAN));
    let saved = book::load(&file, None, book::file::ReadOptions::default()).unwrap().0;
    assert_eq!(saved.move_value(&after_f5, Move::Place(sq("f6"))).unwrap().value, 5);
    // A value out of range deletes the move's position.
    handle.send(Job::Edit { board: after_f5, mv: Move::Place(sq("d6")), value: None });
    let _ = started(&mut events);
    let (books, _, _) = finish(&mut events);
    assert!(books[0].read().unwrap().move_value(&after_f5, Move::Place(sq("d6"))).is_none());
}

#[test]
fn book_overlays_come_from_the_worker_and_show_on_the_board() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("book.egbk3");
    book::save(&small_book(), &file, BookFormat::Egbk3).unwrap();
    let (handle, mut events) = start_book_worker();
    handle.send(Job::Load { file });
    let _ = started(&mut events);
    let (books, _, _) = finish(&mut events);
    let position = after(&["f5"]);
    handle.send(Job::Views { position, umigame: Settings::default().display.umigame() });
    assert_eq!(started(&mut events), Operation::Views);
    let (_, others, _) = finish(&mut events);
    let [Event::Views { position: at, views }] = &others[..] else { panic!("{others:?}") };
    assert_eq!(*at, position);
    assert_eq!(views.len(), 1, "d6 is the only book move");
    assert_eq!(views[0].value.mv, Move::Place(sq("d6")));
    assert_eq!((views[0].umigame.black, views[0].umigame.white), (1, 1));
    // A midgame value at level 20 with no book below: accuracy F.
    assert_eq!(views[0].accuracy.as_deref(), Some("F"));

    let mut settings = Settings { ai_plays_black: false, ai_plays_white: false, ..Settings::default() };
    settings.display.show_book_accuracy = true;
    settings.display.show_umigame = false;
    let shared = books[0].clone();
    let ctx = Ctx { settings: &settings, language: Language::English, book: Some(&shared) };
    let mut game = Game::new(&ctx);
    let _ = game.update(Message::SquareClicked(sq("f5")), &ctx);
    game.set_book_views(position, views.clone(), &ctx);
    let marks = &game.scene().book_marks;
    assert_eq!(marks.len(), 1);
    assert_eq!((marks[0].square, marks[0].accuracy.as_str(), marks[0].umigame), (sq("d6"), "F 20", None));
    // With Book Accuracy on, a book hint's label is the move's line count.
    let generation = game.generation();
    let hint = engine_worker::Event::Hint { generation, square: sq("d6"), value: -3, kind: HintKind::Book, pv: vec![] };
    let _ = game.on_engine(hint, &ctx);
    assert_eq!(game.scene().hints[0].label, "1");
    // Another position: the data no longer applies.
    let _ = game.update(Message::SquareClicked(sq("d6")), &ctx);
    assert!(game.scene().book_marks.is_empty());
}

#[test]
fn reduce_and_recalculate_leaves_run_and_save() {
    let dir = tempfile::tempdir().unwrap();
    let (file, handle, mut events) = worker_with_small_book(&dir);

    let walk = shirokuro_engine::book::ops::Walk { depth: 60, error_per_move: 80, error_sum: 100_000 };
    let settings = shirokuro_engine::book::learn::LeafSettings { walk, level: 1, only_invalid: false, threads: 1 };
    handle.send(Job::Leaves { root: Board::INITIAL, settings, hash_level: 12 });
    assert_eq!(started(&mut events), Operation::Leaves);
    let (books, _, outcome) = finish(&mut events);
    assert!(matches!(outcome, Outcome::Done { added, .. } if added >= 1), "{outcome:?}");
    let f5d6 = after(&["f5", "d6"]).board;
    assert!(books[0].read().unwrap().get(&f5d6).unwrap().leaf.is_defined(), "a leaf was searched for f5 d6");

    // Depth 1: positions with at most 5 discs stay, f5 d6 (6 discs) goes.
    let walk = shirokuro_engine::book::ops::Walk { depth: 1, ..walk };
    handle.send(Job::Reduce { root: Board::INITIAL, walk });
    assert_eq!(started(&mut events), Operation::Reduce);
    let (books, _, outcome) = finish(&mut events);
    assert_eq!(outcome, Outcome::Done { positions: 2, added: 1 });
    assert!(!books[0].read().unwrap().contains(&f5d6));
    assert_eq!(book::load(&file, None, book::file::ReadOptions::default()).unwrap().0.len(), 2);
}

#[test]
fn line_counts_read_like_egaroucid_s() {
    use shirokuro::game::format_lines;
    assert_eq!(format_lines(0), "0");
    assert_eq!(format_lines(999), "999");
    assert_eq!(format_lines(1_000), "1.0K");
    assert_eq!(format_lines(1_299), "1.2K");
    assert_eq!(format_lines(12_345), "12K");
    assert_eq!(format_lines(123_456), "123K");
    assert_eq!(format_lines(1_234_567), "1.2M");
    assert_eq!(format_lines(4_000_000_000), "4.0G");
}

#[test]
fn a_stopped_change_ends_at_once_and_its_save_follows_as_a_step_of_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let (file, handle, mut events) = worker_with_an_empty_book(&dir);
    // A store far too slow to finish (every position of a long line searched at level 30), stopped once it runs.
    let moves: Vec<Move> = ["f5", "d6", "c3", "d3", "c4", "f4", "f6", "f3", "e6", "e7", "d7", "c6"]
        .iter()
        .map(|m| Move::Place(sq(m)))
        .collect();
    handle.send(Job::Store { start: Board::INITIAL, moves, depth: 30, level: 30, hash_level: 12 });
    assert_eq!(started(&mut events), Operation::Store);
    handle.stop();
    let (_, _, outcome) = finish(&mut events);
    let Outcome::Stopped { positions, .. } = outcome else { panic!("{outcome:?}") };
    // The save runs after the stopped operation has ended, reported as its own step.
    assert_eq!(started(&mut events), Operation::Save);
    let (_, _, saved) = finish(&mut events);
    assert_eq!(saved, Outcome::Done { positions, added: 0 });
    let on_disk = book::load(&file, None, book::file::ReadOptions::default()).unwrap().0;
    assert_eq!(on_disk.len(), positions);
}

/// `book` written gzip-compressed at `path`, as the default book ships.
fn write_shipped(book: &Book, path: &Path) {
    use std::io::Write;
    let mut bytes = Vec::new();
    book::file::write_to(book, BookFormat::Egbk3, &mut bytes).unwrap();
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    encoder.write_all(&bytes).unwrap();
    std::fs::write(path, encoder.finish().unwrap()).unwrap();
}

#[test]
fn the_default_book_is_installed_at_the_first_start_only_and_reset_keeps_a_backup() {
    let dir = tempfile::tempdir().unwrap();
    let (file, shipped) = (dir.path().join("data").join("book.egbk3"), dir.path().join("shipped.egbk3.gz"));
    write_shipped(&small_book(), &shipped);
    let (handle, mut events) = start_book_worker();
    // First start: no book file yet, so the shipped one becomes the user's book, and the app is told.
    handle.send(Job::Install { file: file.clone(), shipped: shipped.clone(), only_if_missing: true });
    assert_eq!(started(&mut events), Operation::Load);
    let (books, others, outcome) = finish(&mut events);
    assert_eq!(books.last().unwrap().len(), 3);
    assert!(matches!(&others[..], [Event::Installed { file: f, positions: 3 }] if *f == file), "{others:?}");
    assert_eq!(outcome, Outcome::Done { positions: 3, added: 3 });
    let (on_disk, format) = book::load(&file, None, book::file::ReadOptions::default()).unwrap();
    assert_eq!((on_disk.len(), format), (3, BookFormat::Egbk3), "saved uncompressed as the user's book");

    // The user changes the book; the next start loads it as it is.
    handle.send(Job::Edit { board: after(&["f5"]).board, mv: Move::Place(sq("f6")), value: Some(1) });
    let _ = started(&mut events);
    let _ = finish(&mut events);
    handle.send(Job::Install { file: file.clone(), shipped: shipped.clone(), only_if_missing: true });
    let _ = started(&mut events);
    let (books, others, _) = finish(&mut events);
    assert_eq!(books.last().unwrap().len(), 4, "the user's book, not the shipped one");
    assert!(others.is_empty(), "no second notice: {others:?}");

    // Reset to the Default Book: the shipped book again, the user's book kept as .bak.
    handle.send(Job::Install { file: file.clone(), shipped: shipped.clone(), only_if_missing: false });
    assert_eq!(started(&mut events), Operation::ResetDefault);
    let (books, others, _) = finish(&mut events);
    assert_eq!(books.last().unwrap().len(), 3);
    assert!(matches!(&others[..], [Event::Installed { positions: 3, .. }]), "{others:?}");
    let backup = shirokuro::fsutil::backup_path(&file);
    assert_eq!(book::load(&backup, None, book::file::ReadOptions::default()).unwrap().0.len(), 4);

    // A damaged shipped book is reported and the user's book is loaded as it is.
    std::fs::write(&shipped, b"\x1f\x8b damaged").unwrap();
    handle.send(Job::Install { file: file.clone(), shipped: shipped.clone(), only_if_missing: false });
    let _ = started(&mut events);
    let (books, others, _) = finish(&mut events);
    assert_eq!(books.last().unwrap().len(), 3);
    assert!(matches!(&others[..], [Event::Unreadable { file: f, .. }] if *f == shipped), "{others:?}");
}

#[test]
fn a_book_another_run_is_writing_is_used_read_only() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("book.egbk3");
    book::save(&small_book(), &file, BookFormat::Egbk3).unwrap();
    // A `shirokuro-cli book deviate` holds the book's lock.
    let other_run = shirokuro_engine::fsutil::FileLock::try_lock(&file).unwrap();
    let (handle, mut events) = start_book_worker();
    handle.send(Job::Load { file: file.clone() });
    let _ = started(&mut events);
    let (books, others, _) = finish(&mut events);
    assert_eq!(books.last().unwrap().len(), 3, "the book is read");
    assert!(matches!(&others[..], [Event::Locked { file: f, holder: Some(_) }] if *f == file), "{others:?}");
    // A change is refused rather than saved over the other run's work.
    handle.send(Job::Edit { board: after(&["f5"]).board, mv: Move::Place(sq("f6")), value: Some(1) });
    let _ = started(&mut events);
    let (_, _, outcome) = finish(&mut events);
    assert_eq!(outcome, Outcome::NoFile);
    // Once the other run has ended, loading again takes the book back.
    drop(other_run);
    handle.send(Job::Load { file: file.clone() });
    let _ = started(&mut events);
    let (_, others, _) = finish(&mut events);
    assert!(others.is_empty(), "{others:?}");
    handle.send(Job::Edit { board: after(&["f5"]).board, mv: Move::Place(sq("f6")), value: Some(1) });
    let _ = started(&mut events);
    let (_, _, outcome) = finish(&mut events);
    assert!(matches!(outcome, Outcome::Done { .. }), "{outcome:?}");
}

#[test]
fn book_searches_use_the_evaluation_asked_for_and_a_bad_network_fails_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let (_file, handle, mut events) = worker_with_small_book(&dir);
    let walk = shirokuro_engine::book::ops::Walk { depth: 60, error_per_move: 80, error_sum: 100_000 };
    let settings = shirokuro_engine::book::learn::LeafSettings { walk, level: 1, only_invalid: false, threads: 1 };
    let mut leaves = || {
        handle.send(Job::Leaves { root: Board::INITIAL, settings, hash_level: 12 });
        assert_eq!(started(&mut events), Operation::Leaves);
        finish(&mut events).2
    };

    // The shipped network (Settings ▸ Evaluation's default) is read and searched with.
    let paths = Paths::inside(Path::new("/unused"));
    handle.use_network(paths.network_file(shirokuro::settings::Evaluation::Network));
    let outcome = leaves();
    assert!(matches!(outcome, Outcome::Done { added, .. } if added >= 1), "{outcome:?}");

    // A network that cannot be read: the operation fails, naming the file, and changes nothing.
    let missing = dir.path().join("missing.net");
    handle.use_network(Some(missing.clone()));
    match leaves() {
        Outcome::Failed(shirokuro::book::BookProblem::Weights(error)) => {
            assert!(matches!(&*error, WeightsError::Network { path, .. } if *path == missing), "{error:?}");
        }
        other => panic!("expected the network's failure, got {other:?}"),
    }
    // The patterns alone work again.
    handle.use_network(None);
    assert!(matches!(leaves(), Outcome::Done { .. }));
}
