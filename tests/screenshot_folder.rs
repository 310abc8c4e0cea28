//! In/Out ▸ Change Screenshot Folder… (Egaroucid's Change Saving Place): the box starts with the folder in use; a full
//! path is taken and kept in the settings, a relative one refused with a notice, an empty one brings the default back.

use std::sync::Arc;

use iced::widget::text_editor::{Action, Edit};
use iced_test::selector;
use shirokuro::in_out;
use shirokuro::message::Message;
use shirokuro::modal::{self, Modal, text_box};
use shirokuro::settings::Settings;

mod common;
use common::{app_with, apply, screen};

/// Replaces the text of the box shown and submits it.
fn submit(app: &mut shirokuro::app::App, text: &str) {
    let edit = |action| Message::Modal(modal::Message::Text(text_box::Message::Edited(action)));
    apply(
        app,
        vec![
            edit(Action::SelectAll),
            edit(Action::Edit(Edit::Paste(Arc::new(text.to_owned())))),
            Message::Modal(modal::Message::Text(text_box::Message::Submit)),
        ],
    );
}

#[test]
fn a_full_path_becomes_the_screenshot_folder() {
    let (mut app, dir) = app_with(Settings::default());
    let mut ui = screen(&app);
    let _ = ui.click(selector::id("menu_in_out")).expect("the In/Out menu");
    let _ = ui.click(selector::id("screenshot_folder_menu")).expect("Change Screenshot Folder…");
    let messages: Vec<Message> = ui.into_messages().collect();
    apply(&mut app, messages);
    assert!(matches!(app.modal(), Some(Modal::Text(form)) if form.purpose() == text_box::Purpose::ScreenshotFolder));
    let default = dir.path().join("data").join("screenshots").display().to_string();
    assert!(matches!(app.modal(), Some(Modal::Text(form)) if form.text().trim() == default), "the folder in use");
    submit(&mut app, "pictures/othello");
    assert!(app.modal().is_some(), "a relative path is refused; the box stays");
    assert!(!app.notices().is_empty());
    assert_eq!(app.settings().screenshot_dir, None);
    let chosen = dir.path().join("shots");
    submit(&mut app, &format!("  {}  ", chosen.display()));
    assert!(app.modal().is_none());
    assert_eq!(app.settings().screenshot_dir.as_deref(), Some(chosen.as_path()));
    // Empty: the default again.
    let _ = app.update(Message::InOut(in_out::Message::ScreenshotFolder));
    submit(&mut app, "");
    assert_eq!(app.settings().screenshot_dir, None);
}

#[test]
fn the_board_colours_are_chosen_from_the_menu_and_kept() {
    use shirokuro::settings::BoardStyle;
    let (mut app, dir) = app_with(Settings::default());
    use shirokuro::settings::Change;
    {
        let mut ui = screen(&app);
        let _ = ui.click(selector::id("menu_in_out")).expect("the In/Out menu");
        assert!(ui.find("Board: Green").is_ok(), "the slider names the scheme in use");
    }
    apply(&mut app, vec![Message::Setting(Change::BoardStyle(BoardStyle::Wood))]);
    {
        let mut ui = screen(&app);
        let _ = ui.click(selector::id("menu_in_out")).expect("the In/Out menu");
        assert!(ui.find("Board: Wood").is_ok());
    }
    assert_eq!(app.settings().display.board_style, BoardStyle::Wood);
    assert_eq!(app.game().scene().style, BoardStyle::Wood, "the board is drawn in them");
    let file = dir.path().join("settings.toml");
    shirokuro::settings::save(app.settings(), &file).unwrap();
    assert!(std::fs::read_to_string(&file).unwrap().contains("board_style = \"wood\""));
    assert_eq!(shirokuro::settings::load(&file).settings.display.board_style, BoardStyle::Wood);
}
