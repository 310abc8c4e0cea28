//! In/Out ▸ Save Game…: the players' names and a memo, asked before the file dialog.

use iced::widget::{button, column, container, row, text, text_editor, text_input};
use iced::{Element, Length};

use crate::i18n::Strings;

/// The players' names and the memo saved with a game (kept from the last game opened or saved).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Players {
    /// Black's name.
    pub black: String,
    /// White's name.
    pub white: String,
    /// The memo.
    pub memo: String,
}

/// The form's state.
#[derive(Debug)]
pub struct Form {
    black: String,
    white: String,
    memo: text_editor::Content,
}

/// Messages of the form.
#[derive(Debug, Clone)]
pub enum Message {
    /// Black's name typed.
    Black(String),
    /// White's name typed.
    White(String),
    /// An edit of the memo.
    Memo(text_editor::Action),
    /// Choose the File…: on to the file dialog.
    Choose,
}

impl Form {
    /// The form filled with `players`.
    #[must_use]
    pub fn new(players: &Players) -> Form {
        Form {
            black: players.black.clone(),
            white: players.white.clone(),
            memo: text_editor::Content::with_text(&players.memo),
        }
    }

    /// Handles a message; `Some` with the names and memo when the user goes on to choose the file.
    pub fn update(&mut self, message: Message) -> Option<Players> {
        match message {
            Message::Black(name) => self.black = name,
            Message::White(name) => self.white = name,
            Message::Memo(action) => self.memo.perform(action),
            Message::Choose => {
                return Some(Players {
                    black: self.black.trim().to_owned(),
                    white: self.white.trim().to_owned(),
                    // Egaroucid keeps at most 10,000 characters of memo.
                    memo: self.memo.text().trim_end().chars().take(10_000).collect(),
                });
            }
        }
        None
    }

    /// The form; `close` closes it.
    pub fn view<'a, M: Clone + 'a>(&'a self, s: &Strings, map: fn(Message) -> M, close: M) -> Element<'a, M> {
        let form = column![
            text(s.save_game.clone()).size(20),
            text(s.save_game_black.clone()).size(14),
            text_input("", &self.black).id("save-black").on_input(move |n| map(Message::Black(n))),
            text(s.save_game_white.clone()).size(14),
            text_input("", &self.white).id("save-white").on_input(move |n| map(Message::White(n))),
            text(s.save_game_memo.clone()).size(14),
            text_editor(&self.memo)
                .id("save-memo")
                .on_action(move |a| map(Message::Memo(a)))
                .height(Length::Fixed(140.0)),
            row![
                container(button(text(s.save_game_choose.clone())).on_press(map(Message::Choose))).id("save-choose"),
                button(text(s.close.clone())).on_press(close),
            ]
            .spacing(10),
        ]
        .spacing(8)
        .padding(20)
        .max_width(640);
        form.into()
    }
}
