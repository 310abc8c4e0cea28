//! The training features as a person reaches them, in the simulator: Operate ▸ Best-Move Quiz, Game ▸ Opening
//! Trainer and Display ▸ Study Progress open their screens in the game's place and Close brings the game back.
//! (Settings ▸ AI Style is a submenu, which the simulator cannot open: `tests/sparring.rs` covers its settings.)

use iced_test::selector;
use shirokuro::message::Message;
use shirokuro::settings::Settings;
use shirokuro::study::{Open, Screen};

mod common;
use common::{app_with, apply, screen};

fn people() -> Settings {
    Settings { ai_plays_black: false, ai_plays_white: false, ..Settings::default() }
}

/// Clicks `path` (ids, in order) in the app's window and carries out what the clicks sent.
fn click_through(app: &mut shirokuro::app::App, path: &[&'static str]) -> Vec<Message> {
    let mut ui = screen(app);
    for id in path {
        let _ = ui.click(selector::id(*id)).unwrap_or_else(|_| panic!("{id} on the screen"));
    }
    let messages: Vec<Message> = ui.into_messages().collect();
    apply(app, messages.clone());
    messages
}

#[test]
fn each_training_screen_opens_from_its_menu_and_close_goes_back_to_the_game() {
    let (mut app, _dir) = app_with(people());
    for (menu, item, which) in [
        ("menu_operate", "menu_quiz", Open::Quiz),
        ("menu_game", "menu_trainer", Open::Trainer),
        ("menu_display", "menu_progress", Open::Progress),
    ] {
        let messages = click_through(&mut app, &[menu, item]);
        assert!(messages.iter().any(|m| matches!(m, Message::OpenStudy(w) if *w == which)), "{item}");
        let shown = match app.study() {
            Some(Screen::Quiz(_)) => Open::Quiz,
            Some(Screen::Trainer(_)) => Open::Trainer,
            Some(Screen::Progress(_)) => Open::Progress,
            None => panic!("{item} opened nothing"),
        };
        assert_eq!(shown, which);
        assert!(screen(&app).find(selector::id("board")).is_err(), "the game's board gives way");
        let _ = click_through(&mut app, &["study-close"]);
        assert!(app.study().is_none(), "Close goes back to the game");
        assert!(screen(&app).find(selector::id("board")).is_ok());
    }
}

#[test]
fn the_quiz_prepares_its_first_position_and_the_trainer_offers_its_setup() {
    let (mut app, _dir) = app_with(people());
    let _ = click_through(&mut app, &["menu_operate", "menu_quiz"]);
    assert!(screen(&app).find("Preparing a position...").is_ok() || screen(&app).find("Preparing a position…").is_ok());
    let _ = click_through(&mut app, &["study-close", "menu_game", "menu_trainer"]);
    assert!(screen(&app).find("Opening Trainer").is_ok());
}
