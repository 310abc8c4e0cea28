//! The default shortcut table maps keys to the right messages.

use iced::keyboard::{Key, Modifiers, key};
use shirokuro::game::{self, Mode};
use shirokuro::in_out;
use shirokuro::message::Message;
use shirokuro::settings::Settings;
use shirokuro::settings::{Change, GraphMode, Toggle};
use shirokuro::shortcut::shortcut;

mod common;
use common::press;

fn char_key(c: &str) -> Key {
    Key::Character(c.into())
}

#[test]
fn navigation_and_game_keys() {
    let s = Settings::default();
    let named = |k| shortcut(&press(Key::Named(k), Modifiers::empty()), &s);
    assert!(matches!(named(key::Named::ArrowRight), Some(Message::Game(game::Message::Forward))));
    assert!(matches!(named(key::Named::ArrowLeft), Some(Message::Game(game::Message::Backward))));
    assert!(matches!(named(key::Named::Home), Some(Message::Game(game::Message::First))));
    assert!(matches!(named(key::Named::End), Some(Message::Game(game::Message::Last))));
    assert!(matches!(named(key::Named::Backspace), Some(Message::Game(game::Message::Undo))));
    assert!(matches!(named(key::Named::Space), Some(Message::Game(game::Message::StartPressed))));
    let ctrl = |c| shortcut(&press(char_key(c), Modifiers::COMMAND), &s);
    assert!(matches!(ctrl("n"), Some(Message::NewGame(Mode::HumanVsHuman))));
    assert!(matches!(ctrl("l"), Some(Message::Game(game::Message::SaveBranch))));
    assert!(matches!(ctrl("c"), Some(Message::InOut(in_out::Message::CopyTranscript))));
    assert!(matches!(ctrl("v"), Some(Message::InOut(in_out::Message::Paste))));
    assert!(matches!(ctrl("r"), Some(Message::Game(game::Message::GenerateRandom))));
    assert!(matches!(ctrl("s"), Some(Message::InOut(in_out::Message::Screenshot))));
    assert!(matches!(ctrl("e"), Some(Message::Game(game::Message::EditBoard(true)))));
    let shift_home = shortcut(&press(Key::Named(key::Named::Home), Modifiers::SHIFT), &s);
    assert!(matches!(shift_home, Some(Message::Game(game::Message::BackToRandom))));
    let plain = |c| shortcut(&press(char_key(c), Modifiers::empty()), &s);
    assert!(matches!(plain("g"), Some(Message::Game(game::Message::AiMoveOnce))));
    assert!(matches!(plain("q"), Some(Message::Game(game::Message::Stop))));
    assert!(matches!(plain("a"), Some(Message::Game(game::Message::Analyze))));
    assert!(plain("z").is_none());
    // Shift+A is not Analyze.
    assert!(shortcut(&press(char_key("a"), Modifiers::SHIFT), &s).is_none());
}

#[test]
fn toggles_flip_the_current_setting() {
    let s = Settings { ai_plays_black: false, ai_plays_white: true, ..Settings::default() };
    let plain = |c| shortcut(&press(char_key(c), Modifiers::empty()), &s);
    assert!(matches!(plain("b"), Some(Message::Setting(Change::AiBlack(true)))));
    assert!(matches!(plain("w"), Some(Message::Setting(Change::AiWhite(false)))));
    assert!(matches!(plain("v"), Some(Message::Setting(Change::Display(Toggle::Hints, false)))));
    let umigame_on = !s.display.show_umigame;
    assert!(matches!(plain("u"), Some(Message::Setting(Change::Display(Toggle::Umigame, on))) if on == umigame_on));
    // D and S choose the graph's mode (Egaroucid's radio items), whatever it is now.
    assert!(matches!(plain("d"), Some(Message::Setting(Change::GraphMode(GraphMode::Evaluation)))));
    assert!(matches!(plain("s"), Some(Message::Setting(Change::GraphMode(GraphMode::SumOfLoss)))));
    assert!(matches!(plain("p"), Some(Message::Setting(Change::Display(Toggle::LaserPointer, true)))));
}

#[test]
fn the_board_editor_takes_b_w_e_and_enter() {
    use shirokuro::game::Brush;
    use shirokuro::shortcut::editor_shortcut;
    let plain = |c| editor_shortcut(&press(char_key(c), Modifiers::empty()));
    assert!(matches!(plain("b"), Some(Message::Game(game::Message::EditBrush(Brush::Black)))));
    assert!(matches!(plain("w"), Some(Message::Game(game::Message::EditBrush(Brush::White)))));
    assert!(matches!(plain("e"), Some(Message::Game(game::Message::EditBrush(Brush::Empty)))));
    assert!(matches!(
        editor_shortcut(&press(Key::Named(key::Named::Enter), Modifiers::empty())),
        Some(Message::Game(game::Message::EditDone))
    ));
    assert!(plain("q").is_none());
    assert!(editor_shortcut(&press(char_key("b"), Modifiers::CTRL)).is_none());

    // In the app: while editing, W is the white brush, not "AI plays White"; Enter ends the editing.
    let dir = tempfile::tempdir().unwrap();
    let settings = Settings { language: Some(shirokuro::i18n::Language::English), ..Settings::default() };
    let ai_white = settings.ai_plays_white;
    let loaded = shirokuro::settings::Loaded { settings, notices: Vec::new() };
    let mut app = shirokuro::app::App::new(shirokuro::settings::Paths::inside(dir.path()), loaded);
    let _ = app.update(Message::Game(game::Message::EditBoard(true)));
    assert!(app.game().is_editing());
    let _ = app.update(Message::Key(press(char_key("w"), Modifiers::empty())));
    assert_eq!(app.settings().ai_plays_white, ai_white, "W chose the brush");
    let _ = app.update(Message::Key(press(Key::Named(key::Named::Enter), Modifiers::empty())));
    assert!(!app.game().is_editing(), "Enter starts the game from the edited position");
    let _ = app.update(Message::Key(press(char_key("w"), Modifiers::empty())));
    assert_ne!(app.settings().ai_plays_white, ai_white, "out of the editor, W is AI plays White again");
}
