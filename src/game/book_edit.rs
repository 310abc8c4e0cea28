//! The right-click book value editor (Book ▸ Right-click to Change): a value typed for a move of the position shown.

use shirokuro_engine::{Move, Position, Square};

use super::{Action, Game};
use crate::context::Ctx;

/// The id of the book value editor's text field (the app focuses it when the editor opens).
pub const BOOK_EDIT_INPUT: &str = "book-edit-input";

/// The book value editor's state: the move's square, the text typed and the position it belongs to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct BookEdit {
    pub(super) position: Position,
    pub(super) square: Square,
    pub(super) text: String,
}

impl Game {
    /// The square whose book value is being edited and the text typed, if the editor is open.
    #[must_use]
    pub fn book_edit(&self) -> Option<(Square, &str)> {
        self.current_edit().map(|edit| (edit.square, edit.text.as_str()))
    }

    /// The editor's state if it belongs to the position shown.
    pub(super) fn current_edit(&self) -> Option<&BookEdit> {
        self.book_edit.as_ref().filter(|edit| edit.position == self.record.current().position)
    }

    pub(super) fn right_click(&mut self, square: Square, ctx: &Ctx<'_>) -> Action {
        if !ctx.settings.book.right_click_edit {
            return Action::None;
        }
        if self.current_edit().is_some_and(|edit| edit.square == square) {
            return self.commit_book_edit();
        }
        let position = self.record.current().position;
        if !position.board.moves().contains(square) {
            return Action::None;
        }
        self.book_edit = Some(BookEdit { position, square, text: String::new() });
        Action::None
    }

    pub(super) fn commit_book_edit(&mut self) -> Action {
        let Some(edit) = self.book_edit.take() else { return Action::None };
        if edit.position != self.record.current().position {
            return Action::None;
        }
        let text = edit.text.trim();
        if text.is_empty() {
            return Action::None;
        }
        let value = text.parse::<i32>().ok().filter(|v| (-64..=64).contains(v));
        Action::BookEdit { board: edit.position.board, mv: Move::Place(edit.square), value }
    }
}
