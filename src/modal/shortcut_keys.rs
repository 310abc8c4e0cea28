//! Settings ▸ Shortcut Key Settings… (Egaroucid's scene): every function with its key, **Change** (then press the
//! new key: Ctrl, Shift and Alt combine with it; Esc cancels; Enter and Esc themselves cannot be given), **Clear**, and
//! **Default** for Egaroucid's table. A key that starts another function is refused, naming that function. Each
//! change goes to the settings at once.

use iced::widget::{Column, button, column, container, row, scrollable, text};
use iced::{Alignment, Element, Length};

use crate::i18n::{Strings, fill};
use crate::settings::shortcuts::{Function, KeyCombo, Shortcuts, function_id};

/// Messages of the box.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Message {
    /// Wait for the new key of this function.
    Change(Function),
    /// Take this function's key away.
    Clear(Function),
    /// Egaroucid's default table.
    Default,
    /// A key was pressed while waiting (sent by the root, which holds the keyboard).
    Pressed(KeyCombo),
    /// Esc while waiting: no change.
    Cancel,
}

/// The box's state: the table being edited and what it waits for.
#[derive(Debug)]
pub struct ShortcutKeysBox {
    table: Shortcuts,
    waiting: Option<Function>,
    /// The last refused key and the function that has it.
    refused: Option<(KeyCombo, Function)>,
}

impl ShortcutKeysBox {
    /// The box over the current table.
    #[must_use]
    pub fn new(table: Shortcuts) -> ShortcutKeysBox {
        ShortcutKeysBox { table, waiting: None, refused: None }
    }

    /// Whether a key press belongs to the box (it waits for a new key).
    #[must_use]
    pub fn is_waiting(&self) -> bool {
        self.waiting.is_some()
    }

    /// The table as edited.
    #[must_use]
    pub fn table(&self) -> &Shortcuts {
        &self.table
    }

    /// Handles a message; returns the new table when it changed.
    pub fn update(&mut self, message: Message) -> Option<Shortcuts> {
        match message {
            Message::Change(function) => {
                self.waiting = Some(function);
                self.refused = None;
                None
            }
            Message::Cancel => {
                self.waiting = None;
                None
            }
            Message::Clear(function) => {
                self.waiting = None;
                self.refused = None;
                self.table.clear(function);
                Some(self.table.clone())
            }
            Message::Default => {
                self.waiting = None;
                self.refused = None;
                self.table = Shortcuts::default();
                Some(self.table.clone())
            }
            Message::Pressed(combo) => {
                let function = self.waiting.take()?;
                match self.table.assign(function, combo.clone()) {
                    Ok(()) => {
                        self.refused = None;
                        Some(self.table.clone())
                    }
                    Err(holder) => {
                        self.refused = Some((combo, holder));
                        None
                    }
                }
            }
        }
    }

    /// The list of functions with their keys and buttons.
    pub fn view<'a, M: Clone + 'a>(&'a self, s: &Strings, on: fn(Message) -> M, close: M) -> Element<'a, M> {
        let mut list = Column::new().spacing(2);
        for &function in Function::ALL {
            let key = match (self.waiting == Some(function), self.table.key(function)) {
                (true, _) => s.shortcut_press.clone(),
                (false, Some(key)) => key.to_string(),
                (false, None) => "-".to_owned(),
            };
            let id = function_id(function);
            let change = button(text(s.shortcut_change.clone()).size(12)).on_press(on(Message::Change(function)));
            let clear = button(text(s.shortcut_clear.clone()).size(12)).on_press(on(Message::Clear(function)));
            let line = row![
                text(function.label(s).to_owned()).size(13).width(Length::Fill),
                container(text(key).size(13)).id(format!("shortcut-key-{id}")).width(Length::Fixed(150.0)),
                container(change).id(format!("shortcut-change-{id}")),
                container(clear).id(format!("shortcut-clear-{id}")),
            ]
            .spacing(8)
            .align_y(Alignment::Center);
            list = list.push(line);
        }
        let mut page = column![
            text(s.shortcut_keys_title.clone()).size(18),
            text(s.shortcut_help.clone()).size(12),
            container(scrollable(list.padding([0, 12])).height(Length::Fixed(380.0))).id("shortcut-list"),
        ]
        .spacing(8);
        if let Some((key, holder)) = &self.refused {
            page = page.push(text(fill(&s.shortcut_taken, &[key, &holder.label(s)])).size(13));
        }
        page = page.push(
            row![
                container(button(text(s.shortcut_default.clone())).on_press(on(Message::Default)))
                    .id("shortcut-default"),
                button(text(s.close.clone())).on_press(close),
            ]
            .spacing(8),
        );
        page.padding(16).width(Length::Fixed(640.0)).into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pressed_key_is_given_unless_another_function_has_it() {
        let mut shortcuts = ShortcutKeysBox::new(Shortcuts::default());
        assert_eq!(shortcuts.update(Message::Pressed(KeyCombo::plain("F5"))), None, "not waiting: nothing");
        let _ = shortcuts.update(Message::Change(Function::Analyze));
        assert!(shortcuts.is_waiting());
        let table = shortcuts.update(Message::Pressed(KeyCombo::ctrl("N")));
        assert_eq!(table, None);
        assert_eq!(shortcuts.refused, Some((KeyCombo::ctrl("N"), Function::NewGame)));
        assert!(!shortcuts.is_waiting());
        let _ = shortcuts.update(Message::Change(Function::Analyze));
        let table = shortcuts.update(Message::Pressed(KeyCombo::plain("F5"))).expect("a new table");
        assert_eq!(table.function(&KeyCombo::plain("F5")), Some(Function::Analyze));
        let _ = shortcuts.update(Message::Change(Function::Undo));
        let _ = shortcuts.update(Message::Cancel);
        assert!(!shortcuts.is_waiting());
        let table = shortcuts.update(Message::Default).expect("the defaults");
        assert_eq!(table, Shortcuts::default());
    }
}
