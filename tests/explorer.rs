//! The Archive Explorer: the panel opened from the Display menu, the moves and games of the position shown from a
//! small archive with known counts, the year and player filters, a move played and a game loaded from the panel, and
//! the first-start import (with Stop leaving nothing behind). The background work (lookups, game reads, the import)
//! is run here by hand and its answer handed back as a message, as the app does when it finishes, so nothing
//! depends on timing.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use iced_test::selector;
use shirokuro::app::App;
use shirokuro::dialog::{Picked, Purpose, Request};
use shirokuro::explorer::{self, Found, ImportEvent, Message as X};
use shirokuro::game::Message::{SquareClicked, Undo};
use shirokuro::message::Message;
use shirokuro::notice::Notice;
use shirokuro::settings::{Change, Settings, Toggle};
use shirokuro_engine::archive::{Archive, ArchiveError, Lookup};
use shirokuro_engine::notation::parse_transcript;
use shirokuro_engine::{Move, Square};

mod common;
use common::{app_with, apply, screen};

/// Five games with names, places and years. After f5: d6 three times (games 1–3) and f6 twice (game 4, and game 5,
/// c4c3, which is f5f6 turned by 180 degrees).
const GGF: &str = "\
(;GM[Othello]PC[Paris]DT[2001.05.01_10:00:00.UTC]PB[Alice]PW[Bob]RE[+10.000]TY[8]B[f5]W[d6]B[c3];)
(;GM[Othello]PC[Tokyo]DT[2005.05.01_10:00:00.UTC]PB[Carol]PW[Alice]RE[-4.000]TY[8]B[f5]W[d6]B[c5];)
(;GM[Othello]PC[Osaka]DT[2010.05.01_10:00:00.UTC]PB[Bob]PW[Dave]RE[0.000]TY[8]B[f5]W[d6]B[c3];)
(;GM[Othello]PC[Paris]DT[2012.05.01_10:00:00.UTC]PB[Dave]PW[Eve]RE[+2.000]TY[8]B[f5]W[f6]B[e6];)
(;GM[Othello]PC[Tokyo]DT[2015.05.01_10:00:00.UTC]PB[Eve]PW[Carol]RE[-6.000]TY[8]B[c4]W[c3];)
";

fn place(square: Square) -> Move {
    Move::Place(square)
}

/// Two people play (the AI never waits to move), in English, with the data folder of `dir`.
fn people() -> Settings {
    Settings { ai_plays_black: false, ai_plays_white: false, ..Settings::default() }
}

fn write_games(dir: &Path) -> PathBuf {
    let games = dir.join("games.ggf");
    std::fs::write(&games, GGF).unwrap();
    games
}

/// The archive of [`GGF`] in the app's data folder.
fn archive_in(root: &Path) {
    let games = write_games(root);
    std::fs::create_dir_all(root.join("data")).unwrap();
    let mut archive = Archive::create(root.join("data").join(explorer::ARCHIVE_FILE)).unwrap();
    let report = archive.import(&[games], |_| {}, &AtomicBool::new(false)).unwrap();
    assert_eq!(report.added, 5);
}

/// Runs the lookups the explorer asked for, handing each answer back, until none is in flight.
fn settle(app: &mut App) {
    while let Some(job) = app.explorer().lookup_in_flight().cloned() {
        apply(app, vec![Message::Explorer(X::Looked(job.run()))]);
    }
}

fn lookup(app: &App) -> &Lookup {
    match app.explorer().found() {
        Some(Found::Games(lookup)) => lookup,
        other => panic!("no games shown: {other:?}"),
    }
}

/// (move, games) of the table.
fn moves(app: &App) -> Vec<(Move, u32)> {
    lookup(app).moves.iter().map(|m| (m.mv, m.games)).collect()
}

/// Whether the app's window shows what `selector` finds.
fn shows<S>(app: &App, selector: S) -> bool
where
    S: iced_test::Selector + Send,
    S::Output: Clone + Send,
{
    screen(app).find(selector).is_ok()
}

fn ex(message: X) -> Message {
    Message::Explorer(message)
}

#[test]
fn the_panel_shows_the_moves_and_games_of_the_position_filters_them_and_loads_a_game() {
    let (mut app, dir) = app_with(people());
    archive_in(dir.path());

    // Display ▸ Archive Explorer turns the panel on (in the log's place); nothing is looked up before.
    assert!(app.explorer().lookup_in_flight().is_none());
    let mut ui = screen(&app);
    let _ = ui.click(selector::id("menu_display")).expect("the Display menu");
    let _ = ui.click(selector::id("show_explorer")).expect("the Archive Explorer item");
    let messages: Vec<Message> = ui.into_messages().collect();
    assert!(messages.iter().any(|m| matches!(m, Message::Setting(Change::Display(Toggle::Explorer, true)))));
    apply(&mut app, messages);
    assert!(app.settings().display.show_explorer);
    assert!(app.explorer().lookup_in_flight().is_some(), "the position shown is looked up");
    assert!(shows(&app, "Looking up..."));
    settle(&mut app);

    // The initial position: the four first moves are one (the archive keeps the smallest square, d3), all five
    // games.
    assert_eq!(lookup(&app).total_games, 5);
    assert_eq!(moves(&app), [(place(Square::D3), 5)]);
    assert!(lookup(&app).moves[0].equivalent.contains(&place(Square::F5)));
    assert!(shows(&app, "5 games of the archive reach this position"));
    assert!(shows(&app, "d3 c4 f5 e6"), "the move names the moves it stands for");
    let mut ui = screen(&app);
    let _ = ui.click(selector::id("explorer-move-d3")).expect("the move d3 in the table");
    let messages: Vec<Message> = ui.into_messages().collect();
    apply(&mut app, messages);
    assert_eq!(app.game().transcript(), "d3", "a click on a move plays it");
    apply(&mut app, vec![Message::Game(Undo), Message::Game(SquareClicked(Square::F5))]);
    settle(&mut app);

    // After f5: d6 three times, f6 twice; the five games listed, newest first.
    assert_eq!(moves(&app), [(place(Square::D6), 3), (place(Square::F6), 2)]);
    let d6 = &lookup(&app).moves[0];
    assert_eq!((d6.black_wins, d6.draws, d6.white_wins), (1, 1, 1));
    let years: Vec<Option<u16>> = lookup(&app).games.iter().map(|g| g.year).collect();
    assert_eq!(years, [Some(2015), Some(2012), Some(2010), Some(2005), Some(2001)]);
    assert!(shows(&app, selector::id("explorer-move-d6")));
    assert!(shows(&app, "Eve") && shows(&app, "Tokyo"), "the games are listed with names and places");

    // Years 2005–2012: d6 twice (2005, 2010), f6 once (2012).
    apply(&mut app, vec![ex(X::YearFrom("2005".into())), ex(X::YearTo("2012".into()))]);
    settle(&mut app);
    assert_eq!(moves(&app), [(place(Square::D6), 2), (place(Square::F6), 1)]);
    // And a player: Alice played games 1 and 2, both d6; the year filter leaves game 2.
    apply(&mut app, vec![ex(X::Player("alice".into()))]);
    settle(&mut app);
    assert_eq!(moves(&app), [(place(Square::D6), 1)]);
    apply(&mut app, vec![ex(X::YearFrom(String::new())), ex(X::YearTo(String::new()))]);
    settle(&mut app);
    assert_eq!(moves(&app), [(place(Square::D6), 2)]);
    apply(&mut app, vec![ex(X::Player(String::new()))]);
    settle(&mut app);
    assert_eq!(lookup(&app).total_games, 5);

    // A click on game 5 (c4c3, turned): it is read, turned into the board's orientation (f5f6) and loaded with the
    // cursor after f5, where it was picked.
    // (The graph off, as a user would for a longer list: the panel takes its room.)
    let id = lookup(&app).games.iter().find(|g| g.black.as_deref() == Some("Eve")).unwrap().id;
    apply(&mut app, vec![Message::Setting(Change::Display(Toggle::Graph, false))]);
    let mut ui = screen(&app);
    let _ = ui.click(selector::id(format!("explorer-game-{}", id.0))).expect("the game in the list");
    let messages: Vec<Message> = ui.into_messages().collect();
    apply(&mut app, messages);
    let read = app.explorer().game_in_flight().cloned().expect("the game is read");
    assert!(shows(&app, "Loading the game..."));
    apply(&mut app, vec![ex(X::GameRead(read.run()))]);
    assert_eq!(app.game().transcript(), "f5f6");
    assert_eq!(app.game().record().ply(), 1);
    assert_eq!(app.game().position(), parse_transcript("f5").unwrap().end);
}

#[test]
fn without_an_archive_the_panel_offers_the_import_which_builds_one() {
    let (mut app, dir) = app_with(Settings { language: None, ..people() });
    let file = dir.path().join("data").join(explorer::ARCHIVE_FILE);
    apply(&mut app, vec![Message::Setting(Change::Display(Toggle::Explorer, true))]);
    settle(&mut app);
    assert!(matches!(app.explorer().found(), Some(Found::NoArchive)));
    assert!(!file.exists(), "a lookup does not make an archive");

    // The offer: its button asks for the files (the system's dialog, or the app's own chooser).
    assert!(shows(&app, selector::id("explorer-first-import")));
    let mut ui = screen(&app);
    let _ = ui.click(selector::id("explorer-first-import")).expect("the import button");
    let messages: Vec<Message> = ui.into_messages().collect();
    assert!(messages.iter().any(|m| matches!(m, Message::Explorer(X::Import))));

    // The files chosen: the import runs (the panel shows its progress and Stop, and lookups wait).
    let games = write_games(dir.path());
    let request =
        Request { purpose: Purpose::Archive, folder: dir.path().into(), name: None, filter: "Game records".into() };
    apply(&mut app, vec![Message::FilePicked(request.clone(), Picked::Chosen(games.clone()))]);
    let job = app.explorer().import_running().cloned().expect("the import runs");
    assert_eq!(job.chosen, std::slice::from_ref(&games));
    assert!(shows(&app, selector::id("explorer-stop")));
    apply(&mut app, vec![Message::Game(SquareClicked(Square::F5))]);
    assert!(app.explorer().lookup_in_flight().is_none(), "no lookup while the import runs");

    // Stopped: nothing kept, not even the archive it created.
    apply(&mut app, vec![ex(X::Stop)]);
    let mut progress = Vec::new();
    let result = job.run(|p| progress.push(p));
    assert!(matches!(result.as_ref().map_err(|e| &**e), Err(ArchiveError::Stopped)));
    apply(&mut app, vec![ex(X::Importing(ImportEvent::Done(result)))]);
    assert!(!file.exists(), "a stopped first import leaves no archive");
    assert!(matches!(app.notices().last(), Some(Notice::ArchiveImportFailed { .. })));
    assert_eq!(
        app.notices().last().unwrap().text(app.language().strings()),
        "The import was stopped; the archive is as it was."
    );

    // Again, to the end: the report as a notice, and the panel shows the position.
    apply(&mut app, vec![Message::FilePicked(request, Picked::Chosen(games))]);
    let job = app.explorer().import_running().cloned().unwrap();
    let progress = ImportEvent::Progress(shirokuro_engine::archive::ImportProgress {
        stage: shirokuro_engine::archive::ImportStage::Replaying,
        done: 1,
        total: 4,
        file: None,
    });
    apply(&mut app, vec![ex(X::Importing(progress))]);
    assert!(shows(&app, "Importing, replaying the games: 25 %"));
    apply(&mut app, vec![ex(X::Importing(ImportEvent::Done(job.run(|_| {}))))]);
    assert!(file.exists());
    let Some(Notice::ArchiveImported { added, duplicates, skipped }) = app.notices().last() else {
        panic!("the import's report")
    };
    assert_eq!((*added, *duplicates, *skipped), (5, 0, 0));
    settle(&mut app);
    assert_eq!(moves(&app), [(place(Square::D6), 3), (place(Square::F6), 2)]);
}

#[test]
fn a_chosen_wthor_file_brings_the_wthor_files_of_its_folder() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["WTH_2001.wtb", "WTH_2002.WTB", "WTH.JOU", "notes.txt"] {
        std::fs::write(dir.path().join(name), b"").unwrap();
    }
    let chosen = [dir.path().join("WTH_2002.WTB"), dir.path().join("notes.txt")];
    let files = explorer::job::with_wthor_neighbours(&chosen);
    assert_eq!(files, [dir.path().join("WTH_2001.wtb"), dir.path().join("WTH_2002.WTB"), dir.path().join("notes.txt")]);
}

#[test]
fn the_panel_is_worded_in_every_language() {
    use shirokuro::i18n::Language;
    for language in Language::ALL {
        let (mut app, _dir) = app_with(people());
        apply(
            &mut app,
            vec![Message::LanguageSelected(language), Message::Setting(Change::Display(Toggle::Explorer, true))],
        );
        settle(&mut app);
        let s = language.strings();
        assert!(shows(&app, s.explorer_no_archive.as_str()), "{language:?}");
    }
}

#[test]
fn the_switch_is_kept_in_the_settings_file_and_in_out_offers_the_import() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("settings.toml");
    let mut settings = people();
    settings.display.show_explorer = true;
    shirokuro::settings::save(&settings, &file).unwrap();
    let loaded = shirokuro::settings::load(&file);
    assert!(loaded.notices.is_empty(), "{:?}", loaded.notices);
    assert!(loaded.settings.display.show_explorer);
    assert!(!Settings::default().display.show_explorer, "off at first");

    let (app, _dir) = app_with(people());
    let mut ui = screen(&app);
    let _ = ui.click(selector::id("menu_in_out")).expect("the In/Out menu");
    let _ = ui.click(selector::id("explorer_import")).expect("Import Games into the Archive...");
    let messages: Vec<Message> = ui.into_messages().collect();
    assert!(messages.iter().any(|m| matches!(m, Message::Explorer(X::Import))));
}
