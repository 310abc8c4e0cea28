//! The keyboard: a key Shortcut Key Settings waits for, Esc backing out of a box or the board editor, the board
//! editor's own keys, and the shortcut table.

use iced::Task;
use iced::keyboard::{self, Key, key::Named};

use super::App;
use crate::game;
use crate::message::Message;
use crate::modal;
use crate::shortcut::{KeyCombo, editor_shortcut, shortcut};

/// The Game Library's keys (Egaroucid's): Ctrl+A selects all, Ctrl+C copies, Ctrl+X cuts, Ctrl+V pastes, Delete
/// deletes; the modifiers are passed on for clicks.
fn library_key(event: &keyboard::Event) -> Option<modal::library::Message> {
    use modal::library::Message as L;
    match event {
        keyboard::Event::ModifiersChanged(modifiers) => Some(L::Modifiers(*modifiers)),
        keyboard::Event::KeyPressed { key: Key::Named(Named::Delete), .. } => Some(L::Delete),
        keyboard::Event::KeyPressed { key: Key::Character(c), modifiers, .. } if modifiers.command() => {
            match c.to_lowercase().as_str() {
                "a" => Some(L::SelectAll),
                "c" => Some(L::Copy),
                "x" => Some(L::Cut),
                "v" => Some(L::Paste),
                _ => None,
            }
        }
        _ => None,
    }
}

impl App {
    pub(super) fn key(&mut self, event: keyboard::Event) -> Task<Message> {
        let escape = matches!(&event, keyboard::Event::KeyPressed { key: Key::Named(Named::Escape), .. });
        if self.waits_for_key() {
            // Shortcut Key Settings waits for the new key: Esc cancels, a key no shortcut may use is ignored.
            let message = if escape {
                Some(modal::shortcut_keys::Message::Cancel)
            } else {
                KeyCombo::of(&event).map(modal::shortcut_keys::Message::Pressed)
            };
            return message.map_or_else(Task::none, |m| self.modal_message(modal::Message::ShortcutKeys(m)));
        }
        if let Some(modal::Modal::Library(_)) = &self.modal
            && let Some(message) = library_key(&event)
        {
            // The Game Library's own keys: Ctrl+A / C / X / V, Delete, and the modifiers for Ctrl- and Shift-clicks.
            return self.modal_message(modal::Message::Library(message));
        }
        if escape && (self.modal.is_some() || self.game.is_editing()) {
            // Esc backs out of a box or the board editor without changing anything, as in Egaroucid.
            if self.modal.take().is_none() {
                return self.update(Message::Game(game::Message::EditBoard(false)));
            }
            return Task::none();
        }
        // While the board is edited, B / W / E and Enter belong to the editor.
        let editing = self.game.is_editing().then(|| editor_shortcut(&event)).flatten();
        editing.or_else(|| shortcut(&event, &self.settings)).map_or_else(Task::none, |message| self.update(message))
    }
}
