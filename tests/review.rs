//! Game ▸ Review: a known game reviewed by the real engine (the worker's job carried out here, its events handed to
//! the app), the known blunder graded and reached with "Next mistake" in the simulator, and the text export.

mod common;

use std::sync::Arc;

use common::{app_with, apply, screen};
use iced_test::selector;
use shirokuro::engine_worker::Event;
use shirokuro::game::Message as GameMessage;
use shirokuro::message::Message;
use shirokuro::review::Message as ReviewMessage;
use shirokuro::settings::{ReviewSettings, Settings};
use shirokuro_engine::eval::weights;
use shirokuro_engine::review::Grade;
use shirokuro_engine::search::SolveOptions;
use shirokuro_engine::think::Thinker;
use shirokuro_engine::{Move, Square};

/// A tournament game of 1977 (the first of the WTHOR set in ../shared/reference/games): with exact values from 20
/// empties, White's 42nd move f2 loses 12 discs (c2 was best) and Black's 41st, e1, loses 8 (f1 was best).
const GAME: &str = "f5d6c3f3f4d3c4g6f6e6c5c6d7d8e7g5e3d2g4h3f7b5h5g3b4b6c8b8c7e8f8g8h4h6e2d1c1a3a6a5e1f2g7c2a4h8a2b7\
                    f1b3b1b2h7a7a8a1g1g2h2h1";

fn humans() -> Settings {
    Settings {
        ai_plays_black: false,
        ai_plays_white: false,
        review: ReviewSettings { level: 1, exact_from: 20, ..ReviewSettings::default() },
        ..Settings::default()
    }
}

/// The app with the game played and reviewed by a real engine.
fn reviewed() -> (shirokuro::app::App, tempfile::TempDir) {
    let (mut app, dir) = app_with(humans());
    let _ = app.update(Message::Engine(Event::Configured));
    let _ = app.update(Message::InOut(shirokuro::in_out::Message::ClipboardRead(Some(GAME.to_owned()))));
    assert_eq!(app.game().record().last_ply(), 60);
    let _ = app.update(Message::Game(GameMessage::Review(ReviewMessage::Start)));
    let generation = app.game().generation();
    let review = app.game().review().expect("a review runs");
    assert!(review.is_running());
    let options = review.options();
    let positions: Vec<_> = review.line().iter().map(|at| at.position).enumerate().rev().collect();
    let weights = Arc::new(weights::bundled().unwrap());
    let thinker = Thinker::new(weights, SolveOptions::default().with_threads(2).with_hash_level(18)).unwrap();
    for (ply, position) in positions {
        let value = thinker.review_position(&position, options, None).unwrap();
        let _ = app.update(Message::Engine(Event::Reviewed { generation, ply, value }));
    }
    let _ = app.update(Message::Engine(Event::Done { generation }));
    (app, dir)
}

#[test]
fn the_blunder_is_graded_and_next_mistake_lands_on_it() {
    let (mut app, _dir) = reviewed();
    let review = app.game().review().unwrap();
    assert!(!review.is_running());
    assert_eq!(review.progress(), (61, 61));
    let f2 = review.graded()[42].as_ref().expect("move 42 graded");
    assert_eq!((f2.played, f2.loss, f2.grade), (Square::F2, 12, Grade::Blunder));
    assert_eq!(f2.best, Some(Move::Place(Square::C2)));
    let e1 = review.graded()[41].as_ref().expect("move 41 graded");
    assert_eq!((e1.played, e1.loss, e1.grade), (Square::E1, 8, Grade::Mistake));
    // The values are on the graph too.
    assert!(app.game().record().main().iter().all(|n| n.value.is_some()));
    let [black, white] = review.summaries();
    assert!(white.counts[Grade::Blunder.index()] >= 1 && black.total_loss >= 8, "{black:?} {white:?}");

    // From the position before move 41, "Next mistake" in the panel goes to the position before f2.
    let _ = app.update(Message::Game(GameMessage::Review(ReviewMessage::Goto(41))));
    assert_eq!(app.game().record().ply(), 40);
    let mut ui = screen(&app);
    let _ = ui.click(selector::id("review-next")).expect("the Next mistake button");
    let messages: Vec<Message> = ui.into_messages().collect();
    apply(&mut app, messages);
    assert_eq!(app.game().record().ply(), 41);
    // The panel names the move and the better one, and the best line is c2's.
    {
        let mut ui = screen(&app);
        assert!(ui.find("Move 42 f2 (White): blunder, lost 12").is_ok());
    }
    assert_eq!(app.game().best_line().and_then(|line| line.first().copied()), Some(Move::Place(Square::C2)));
    // And back: Previous mistake goes before move 41 or earlier.
    let _ = app.update(Message::Game(GameMessage::Review(ReviewMessage::PreviousMistake)));
    assert!(app.game().record().ply() < 41);
}

#[test]
fn the_review_exports_as_text_and_closes() {
    let (mut app, dir) = reviewed();
    let path = dir.path().join("review.txt");
    let _ = app.update(Message::FilePicked(
        shirokuro::dialog::Request {
            purpose: shirokuro::dialog::Purpose::ExportReview,
            folder: dir.path().to_owned(),
            name: None,
            filter: String::new(),
        },
        shirokuro::dialog::Picked::Chosen(path.clone()),
    ));
    // The write runs as a task; here it is done as the task would.
    let text = shirokuro::review::export_text(
        app.game().review().unwrap(),
        shirokuro::i18n::Language::English.strings(),
        "",
        "",
    );
    assert!(text.contains("42. f2?? White   -12  blunder  Better: c2"), "{text}");
    assert!(text.starts_with("Review: level 1, exact from 20 empties\n"));
    assert!(text.contains(&format!("{}\n", GAME)));
    // Another line (a new game) drops the review; Close does too.
    let _ = app.update(Message::Game(GameMessage::Review(ReviewMessage::Close)));
    assert!(app.game().review().is_none());
}

#[test]
fn a_review_is_dropped_when_the_line_changes() {
    let (mut app, _dir) = reviewed();
    let _ = app.update(Message::Game(GameMessage::First));
    let _ = app.update(Message::Game(GameMessage::SquareClicked(Square::D3)));
    assert!(app.game().review().is_none(), "the review was of the other line");
}

#[test]
fn the_review_is_saved_with_the_game_and_comes_back_with_it() {
    let (app, _dir) = reviewed();
    let file = app.game().game_file("2026-11-27".to_owned(), 1);
    let text = file.to_json();
    assert!(text.contains("\"shirokuro_review\""));
    let read = shirokuro_engine::game_file::GameFile::parse(&text).unwrap();
    let saved = read.review.as_ref().expect("the review is in the file");
    assert_eq!(saved.values, app.game().review().unwrap().values());

    let (mut other, _other_dir) = app_with(humans());
    let _ = other.update(Message::Engine(Event::Configured));
    let _ = other.update(Message::InOut(shirokuro::in_out::Message::GameOpened(Ok((
        std::path::PathBuf::from("game.json"),
        read,
    )))));
    let restored = other.game().review().expect("the review is back");
    assert!(!restored.is_running());
    assert_eq!(restored.graded(), app.game().review().unwrap().graded());
    assert_eq!(restored.graded()[42].as_ref().unwrap().grade, Grade::Blunder);
}

#[test]
fn the_memo_keeps_one_summary() {
    let (app, _dir) = reviewed();
    let s = shirokuro::i18n::Language::English.strings();
    let summary = shirokuro::review::memo_text(app.game().review().unwrap(), s);
    assert!(summary.starts_with("Review: level 1, exact from 20 empties\nBlack: lost "), "{summary}");
    let once = shirokuro::review::memo_with_review("A club game.", &summary);
    assert_eq!(once, format!("A club game.\n\n{summary}"));
    assert_eq!(shirokuro::review::memo_with_review(&once, &summary), once, "saving again replaces the summary");
    assert_eq!(shirokuro::review::memo_with_review("", &summary), summary);
}
