//! The keyboard shortcuts: Egaroucid's table of functions and keys, which the user can change (Settings ▸
//! Shortcut Key Settings), and the board editor's own keys.

mod buttons;
mod combo;
mod function;
mod table;

use iced::keyboard::{self, Key, key::Named};

pub use buttons::{Buttons, MouseButton, ON_SCREEN};
pub use combo::{ComboError, KeyCombo};
pub use function::Function;
pub use table::{Shortcuts, function_id};

use crate::game;
use crate::message::Message;
use crate::settings::Settings;

/// The board editor's keys (Egaroucid's): B, W and E choose the black, white or empty brush, Enter starts the game
/// from the edited position.
#[must_use]
pub fn editor_shortcut(event: &keyboard::Event) -> Option<Message> {
    let keyboard::Event::KeyPressed { key, modifiers, .. } = event else { return None };
    if !modifiers.is_empty() {
        return None;
    }
    let edit = |m| Some(Message::Game(m));
    match key.as_ref() {
        Key::Character("b") => edit(game::Message::EditBrush(game::Brush::Black)),
        Key::Character("w") => edit(game::Message::EditBrush(game::Brush::White)),
        Key::Character("e") => edit(game::Message::EditBrush(game::Brush::Empty)),
        Key::Named(Named::Enter) => edit(game::Message::EditDone),
        _ => None,
    }
}

/// The function of the key pressed in the user's table (`settings.shortcuts`), as a message; switches read the
/// current `settings`.
#[must_use]
pub fn shortcut(event: &keyboard::Event, settings: &Settings) -> Option<Message> {
    let combo = KeyCombo::of(event)?;
    settings.shortcuts.function(&combo).map(|function| function.message(settings))
}
