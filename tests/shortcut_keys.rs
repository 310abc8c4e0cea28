//! Settings ▸ Shortcut Key Settings…: clicked in the `iced_test` simulator and driven through the app's `update()`:
//! Change waits for a key, the key pressed becomes the function's shortcut (and works at once), a key another
//! function has is refused, Esc cancels the wait, Default restores Egaroucid's table, and the table survives a restart.

use iced::keyboard::{Key, Modifiers, key};
use iced_test::selector;
use shirokuro::message::Message;
use shirokuro::modal::Modal;
use shirokuro::settings::{self, Settings};
use shirokuro::shortcut::{Function, KeyCombo, Shortcuts, shortcut};

mod common;
use common::{app_with, apply, press, screen};

fn waiting(app: &shirokuro::app::App) -> bool {
    matches!(app.modal(), Some(Modal::ShortcutKeys(keys)) if keys.is_waiting())
}

#[test]
fn a_key_pressed_after_change_becomes_the_shortcut() {
    let (mut app, dir) = app_with(Settings::default());
    let mut ui = screen(&app);
    let _ = ui.click(selector::id("menu_settings")).expect("the Settings menu");
    let _ = ui.click(selector::id("shortcut_keys")).expect("Shortcut Key Settings…");
    let messages: Vec<Message> = ui.into_messages().collect();
    apply(&mut app, messages);
    assert!(matches!(app.modal(), Some(Modal::ShortcutKeys(_))));

    let mut ui = screen(&app);
    let _ = ui.click(selector::id("shortcut-change-analyze")).expect("Change on Analyze's row");
    let messages: Vec<Message> = ui.into_messages().collect();
    apply(&mut app, messages);
    assert!(waiting(&app));
    // Ctrl+N belongs to New Game: refused, named in the box, nothing changes.
    let _ = app.update(Message::Key(press(Key::Character("n".into()), Modifiers::COMMAND)));
    assert!(!waiting(&app));
    assert_eq!(app.settings().shortcuts, Shortcuts::default());
    {
        let mut ui = screen(&app);
        let refused = "Ctrl+N is the key of New Game (Human vs Human): give that one another key first.";
        assert!(ui.find(refused).is_ok(), "the refusal names the function");
    }

    // Again, with F5: taken; the key works at once and A is free.
    let mut ui = screen(&app);
    let _ = ui.click(selector::id("shortcut-change-analyze")).expect("Change on Analyze's row");
    let messages: Vec<Message> = ui.into_messages().collect();
    apply(&mut app, messages);
    let _ = app.update(Message::Key(press(Key::Named(key::Named::F5), Modifiers::empty())));
    assert_eq!(app.settings().shortcuts.key(Function::Analyze), Some(&KeyCombo::plain("F5")));
    let f5 = shortcut(&press(Key::Named(key::Named::F5), Modifiers::empty()), app.settings());
    assert!(matches!(f5, Some(Message::Game(shirokuro::game::Message::Analyze))));
    assert!(shortcut(&press(Key::Character("a".into()), Modifiers::empty()), app.settings()).is_none());

    // Esc while waiting cancels the wait, not the box.
    let mut ui = screen(&app);
    let _ = ui.click(selector::id("shortcut-change-new_game")).expect("Change on New Game's row");
    let messages: Vec<Message> = ui.into_messages().collect();
    apply(&mut app, messages);
    let _ = app.update(Message::Key(press(Key::Named(key::Named::Escape), Modifiers::empty())));
    assert!(!waiting(&app) && app.modal().is_some());
    assert_eq!(app.settings().shortcuts.key(Function::NewGame), Some(&KeyCombo::ctrl("N")));

    // The table goes into the settings file (the app saves in the background; here the save is called): a restart
    // has it.
    let file = dir.path().join("settings.toml");
    settings::save(app.settings(), &file).unwrap();
    assert!(std::fs::read_to_string(&file).unwrap().contains("[shortcuts]\nanalyze = \"F5\""));
    let loaded = settings::load(&file);
    assert!(loaded.notices.is_empty(), "{:?}", loaded.notices);
    assert_eq!(loaded.settings.shortcuts.key(Function::Analyze), Some(&KeyCombo::plain("F5")));

    // Default puts Egaroucid's table back.
    let mut ui = screen(&app);
    let _ = ui.click(selector::id("shortcut-default")).expect("Default");
    let messages: Vec<Message> = ui.into_messages().collect();
    apply(&mut app, messages);
    assert_eq!(app.settings().shortcuts, Shortcuts::default());
}

#[test]
fn the_menus_show_the_keys_of_the_table() {
    let mut table = Shortcuts::default();
    table.assign(Function::About, KeyCombo::plain("F1")).unwrap();
    table.clear(Function::Analyze);
    let (app, _dir) = app_with(Settings { shortcuts: table, ..Settings::default() });
    let mut ui = screen(&app);
    let _ = ui.click(selector::id("menu_help")).expect("the Help menu");
    assert!(ui.find("About Shirokuro (F1)").is_ok());
    let mut ui = screen(&app);
    let _ = ui.click(selector::id("menu_game")).expect("the Game menu");
    assert!(ui.find("Analyze").is_ok(), "no key: no key shown");
    assert!(ui.find("New Game (Human vs Human) (Ctrl+N)").is_ok());
}

#[test]
fn shortcut_buttons_and_mouse_buttons_start_their_functions() {
    use shirokuro::modal::buttons;
    use shirokuro::shortcut::MouseButton;
    let (mut app, _dir) = app_with(Settings::default());
    let mut ui = screen(&app);
    let _ = ui.click(selector::id("menu_settings")).expect("the Settings menu");
    let _ = ui.click(selector::id("button_settings")).expect("Shortcut Button Settings…");
    let messages: Vec<Message> = ui.into_messages().collect();
    apply(&mut app, messages);
    assert!(matches!(app.modal(), Some(Modal::Buttons(_))));
    let pick = |m| Message::Modal(shirokuro::modal::Message::Buttons(m));
    apply(
        &mut app,
        vec![
            pick(buttons::Message::OnScreen(2, Some(Function::ShowLegal))),
            pick(buttons::Message::Mouse(MouseButton::Middle, Some(Function::ShowStable))),
            Message::Modal(shirokuro::modal::Message::Close),
        ],
    );
    assert_eq!(app.settings().buttons.on_screen[2], Some(Function::ShowLegal));
    // The button shows at the right of the menu bar; a click flips the legal-move dots.
    let legal = app.settings().display.show_legal;
    let mut ui = screen(&app);
    let _ = ui.click(selector::id("shortcut-button-2")).expect("the shortcut button");
    let messages: Vec<Message> = ui.into_messages().collect();
    apply(&mut app, messages);
    assert_eq!(app.settings().display.show_legal, !legal);
    // The middle button flips the stable discs; the back button (by default) goes one move back.
    let stable = app.settings().display.show_stable;
    let _ = app.update(Message::MouseButton(MouseButton::Middle));
    assert_eq!(app.settings().display.show_stable, !stable);
    let _ = app.update(Message::Game(shirokuro::game::Message::SquareClicked("f5".parse().unwrap())));
    assert_eq!(app.game().record().ply(), 1);
    let _ = app.update(Message::MouseButton(MouseButton::Back));
    assert_eq!(app.game().record().ply(), 0);
    // Default: no shortcut buttons.
    apply(&mut app, vec![Message::ButtonSettings, pick(buttons::Message::Default)]);
    assert_eq!(app.settings().buttons, shirokuro::shortcut::Buttons::default());
    let mut ui = screen(&app);
    assert!(ui.find(selector::id("shortcut-button-2")).is_err());
}
