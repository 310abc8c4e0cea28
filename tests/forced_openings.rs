//! Settings ▸ Force AI's Opening and Opening Setting…: the AI follows a forced line at once (no search), leaves it
//! to the engine when the line ends or the game leaves it, the editor registers lines (clicked in the `iced_test`
//! simulator), and the tree read at start reaches the game.

use iced_test::selector;
use shirokuro::context::Ctx;
use shirokuro::engine_worker::Job;
use shirokuro::forced_opening::{Folder, Forced, Opening, store};
use shirokuro::game::{Action, Game, Message as GameMessage, Order};
use shirokuro::i18n::Language;
use shirokuro::message::Message;
use shirokuro::modal::Modal;
use shirokuro::settings::Settings;
use shirokuro_engine::Square;
use shirokuro_engine::notation::parse_transcript;

mod common;
use common::{app_with, apply, screen};

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

fn tree(lines: &[&str]) -> Folder {
    let mut root = Folder::default();
    for line in lines {
        let moves =
            parse_transcript(line).unwrap().moves.into_iter().filter_map(shirokuro_engine::Move::square).collect();
        root.openings.push(Opening { moves, weight: 1.0, enabled: true });
    }
    root
}

fn ctx(settings: &Settings) -> Ctx<'_> {
    Ctx { settings, language: Language::English, book: None }
}

fn thinks(action: &Action) -> bool {
    matches!(action, Action::Engine(Order::Start(request)) if matches!(request.job, Job::Think { .. }))
}

#[test]
fn the_ai_follows_the_forced_line_until_it_ends() {
    let settings =
        Settings { ai_plays_black: false, ai_plays_white: true, force_openings: true, ..Settings::default() };
    let mut game = Game::new(&ctx(&settings));
    let _ = game.engine_ready(&ctx(&settings));
    let _ = game.set_forced(tree(&["f5d6c3d3c4"]), &ctx(&settings));
    let action = game.update(GameMessage::SquareClicked(sq("f5")), &ctx(&settings));
    assert_eq!(game.transcript(), "f5d6", "d6 was played at once");
    assert!(!thinks(&action), "no search for a forced move: {action:?}");
    assert!(game.log_lines().any(|l| matches!(l, shirokuro::log::LogLine::ForcedMove(s) if *s == sq("d6"))));
    let _ = game.update(GameMessage::SquareClicked(sq("c3")), &ctx(&settings));
    assert_eq!(game.transcript(), "f5d6c3d3");
    let action = game.update(GameMessage::SquareClicked(sq("c4")), &ctx(&settings));
    assert!(thinks(&action), "the line ended: the AI searches");
    assert_eq!(game.forced_status(&ctx(&settings)), Some(Forced::Ended));
    // Off the line: the engine again.
    let _ = game.update(GameMessage::Undo, &ctx(&settings));
    let _ = game.update(GameMessage::Undo, &ctx(&settings));
    assert_eq!(game.transcript(), "f5d6");
    let action = game.update(GameMessage::SquareClicked(sq("c5")), &ctx(&settings));
    assert!(thinks(&action));
    assert_eq!(game.forced_status(&ctx(&settings)), Some(Forced::Out));
    // With the setting off, the AI searches from the first move.
    let off = Settings { force_openings: false, ..settings.clone() };
    let mut game = Game::new(&ctx(&off));
    let _ = game.engine_ready(&ctx(&off));
    let _ = game.set_forced(tree(&["f5d6c3d3c4"]), &ctx(&off));
    let action = game.update(GameMessage::SquareClicked(sq("f5")), &ctx(&off));
    assert!(thinks(&action));
    assert_eq!(game.forced_status(&ctx(&off)), None);
}

#[test]
fn the_editor_registers_a_line_and_the_game_follows_it() {
    let settings =
        Settings { ai_plays_black: false, ai_plays_white: false, force_openings: true, ..Settings::default() };
    let (mut app, dir) = app_with(settings);
    let _ = app.update(Message::Game(GameMessage::SquareClicked(sq("f5"))));
    let mut ui = screen(&app);
    let _ = ui.click(selector::id("menu_settings")).expect("the Settings menu");
    let _ = ui.click(selector::id("forced_setting")).expect("Opening Setting…");
    let messages: Vec<Message> = ui.into_messages().collect();
    apply(&mut app, messages);
    assert!(matches!(app.modal(), Some(Modal::ForcedOpenings(_))));
    let mut ui = screen(&app);
    let _ = ui.click(selector::id("forced-game-line")).expect("The Game's Line");
    let messages: Vec<Message> = ui.into_messages().collect();
    apply(&mut app, messages);
    {
        let mut ui = screen(&app);
        assert!(ui.find("f5").is_ok(), "the game's line is in the field");
    }
    let mut ui = screen(&app);
    let _ = ui.click(selector::id("forced-transcript")).expect("the line field");
    let _ = ui.typewrite("d6");
    let _ = ui.click(selector::id("forced-register")).expect("Register");
    let messages: Vec<Message> = ui.into_messages().collect();
    apply(&mut app, messages);
    assert_eq!(app.game().forced_root().openings.len(), 1);
    assert_eq!(app.game().forced_root().openings[0].transcript(), "f5d6");
    // The save runs in the background; called here, it writes Egaroucid's files.
    let root = store::root_dir(&dir.path().join("data"));
    store::save(&root, app.game().forced_root()).unwrap();
    assert_eq!(std::fs::read_to_string(root.join("summary.csv")).unwrap(), "f5d6,1,true\n");
    // Read back at start, the tree reaches the game.
    let (mut other, _dir) = app_with(Settings { force_openings: true, ..Settings::default() });
    let _ = other.update(Message::ForcedLoaded(store::load(&root)));
    assert_eq!(other.game().forced_root(), app.game().forced_root());
}
