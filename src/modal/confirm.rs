//! A question before a change the app cannot undo by itself: Yes carries it out, Cancel (or Esc) closes the box.

use std::path::PathBuf;

use iced::Element;
use iced::widget::{button, column, container, row, text};

use crate::i18n::{Strings, fill};

/// What is asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Question {
    /// Book ▸ Reset to the Default Book: the book in use (`positions`, in `file`) is replaced.
    ResetBook {
        /// Positions of the book in use.
        positions: usize,
        /// Its file (kept as `.bak`).
        file: PathBuf,
    },
}

/// The box: the question, Yes (`yes`) and Cancel (`no`).
pub fn view<'a, M: Clone + 'a>(s: &Strings, question: &Question, yes: M, no: M) -> Element<'a, M> {
    let (title, asked, agree) = match question {
        Question::ResetBook { positions, file } => (
            s.book_reset_default.clone(),
            fill(&s.book_reset_question, &[positions, &file.display()]),
            s.book_reset_yes.clone(),
        ),
    };
    column![
        text(title).size(20),
        text(asked).width(480),
        row![
            container(button(text(agree)).on_press(yes)).id("confirm-yes"),
            container(button(text(s.close.clone())).on_press(no)).id("confirm-no"),
        ]
        .spacing(10),
    ]
    .spacing(12)
    .padding(20)
    .into()
}
