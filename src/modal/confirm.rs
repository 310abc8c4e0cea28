//! A question before a change the app cannot undo by itself, or one the user may not have meant (a book file opened
//! from the desktop): Yes carries it out, Cancel (or Esc) closes the box.

use std::path::PathBuf;

use iced::Element;
use iced::widget::{button, column, container, row, text};
use shirokuro_engine::book::BookFormat;

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
    /// A book in Egaroucid's current format was opened: use it from now on (as Book Reference does)?
    UseBook {
        /// The book file.
        file: PathBuf,
    },
    /// The book in use is too small to trust: turn Use Book off until it has grown?
    SmallBook {
        /// Its positions.
        positions: usize,
    },
    /// A book in another format was opened: merge it into the book in use?
    MergeBook {
        /// The book file.
        file: PathBuf,
        /// Its format.
        format: BookFormat,
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
        Question::UseBook { file } => (
            s.open_book_title.clone(),
            fill(&s.open_book_use_question, &[&file.display()]),
            s.open_book_use_yes.clone(),
        ),
        Question::SmallBook { positions } => {
            (s.small_book_title.clone(), fill(&s.small_book_question, &[positions]), s.small_book_yes.clone())
        }
        Question::MergeBook { file, format } => (
            s.open_book_title.clone(),
            fill(&s.open_book_merge_question, &[format, &file.display()]),
            s.open_book_merge_yes.clone(),
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
