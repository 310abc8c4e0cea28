//! The game's information: the players' names, the date and a memo. In/Out ▸ Save Game… asks for them before the
//! file dialog; Game ▸ Game Information shows them and lets them be edited (Egaroucid's game information and its
//! editor).

use iced::widget::{button, column, container, row, text, text_editor, text_input};
use iced::{Element, Length};

use crate::i18n::Strings;

/// The players' names, the date and the memo saved with a game (kept from the last game opened or saved).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Players {
    /// Black's name.
    pub black: String,
    /// White's name.
    pub white: String,
    /// The memo.
    pub memo: String,
    /// The game's date (`YYYY-MM-DD`, as a game file writes it); empty for "today" when it is saved.
    pub date: String,
}

/// Why the form is open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// In/Out ▸ Save Game…: on to the file dialog.
    Save,
    /// Game ▸ Game Information: view and edit.
    Info,
}

/// The form's state.
#[derive(Debug)]
pub struct Form {
    purpose: Purpose,
    black: String,
    white: String,
    date: String,
    memo: text_editor::Content,
}

/// Messages of the form.
#[derive(Debug, Clone)]
pub enum Message {
    /// Black's name typed.
    Black(String),
    /// White's name typed.
    White(String),
    /// The date typed.
    Date(String),
    /// An edit of the memo.
    Memo(text_editor::Action),
    /// Choose the File… (Save) or OK (Info).
    Choose,
}

/// The longest date kept (a date is ten characters; the rest is cut).
const DATE_CHARS: usize = 32;

impl Form {
    /// The form filled with `players`; an empty date shows `today`.
    #[must_use]
    pub fn new(players: &Players, purpose: Purpose, today: &str) -> Form {
        Form {
            purpose,
            black: players.black.clone(),
            white: players.white.clone(),
            date: if players.date.is_empty() { today.to_owned() } else { players.date.clone() },
            memo: text_editor::Content::with_text(&players.memo),
        }
    }

    /// Why the form is open.
    #[must_use]
    pub fn purpose(&self) -> Purpose {
        self.purpose
    }

    /// Handles a message; `Some` with the names, date and memo when the user goes on (Save) or confirms (Info).
    pub fn update(&mut self, message: Message) -> Option<Players> {
        match message {
            Message::Black(name) => self.black = name,
            Message::White(name) => self.white = name,
            Message::Date(date) => self.date = date.chars().take(DATE_CHARS).collect(),
            Message::Memo(action) => self.memo.perform(action),
            Message::Choose => {
                return Some(Players {
                    black: self.black.trim().to_owned(),
                    white: self.white.trim().to_owned(),
                    // Egaroucid keeps at most 10,000 characters of memo.
                    memo: self.memo.text().trim_end().chars().take(10_000).collect(),
                    date: self.date.trim().to_owned(),
                });
            }
        }
        None
    }

    /// The form; `close` closes it.
    pub fn view<'a, M: Clone + 'a>(&'a self, s: &Strings, map: fn(Message) -> M, close: M) -> Element<'a, M> {
        let (title, go) = match self.purpose {
            Purpose::Save => (&s.save_game, &s.save_game_choose),
            Purpose::Info => (&s.game_information, &s.game_information_ok),
        };
        let form = column![
            text(title.clone()).size(20),
            text(s.save_game_black.clone()).size(14),
            text_input("", &self.black).id("save-black").on_input(move |n| map(Message::Black(n))),
            text(s.save_game_white.clone()).size(14),
            text_input("", &self.white).id("save-white").on_input(move |n| map(Message::White(n))),
            text(s.save_game_date.clone()).size(14),
            text_input("YYYY-MM-DD", &self.date).id("save-date").on_input(move |d| map(Message::Date(d))),
            text(s.save_game_memo.clone()).size(14),
            text_editor(&self.memo)
                .id("save-memo")
                .on_action(move |a| map(Message::Memo(a)))
                .height(Length::Fixed(140.0)),
            row![
                container(button(text(go.clone())).on_press(map(Message::Choose))).id("save-choose"),
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
