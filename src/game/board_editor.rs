//! The board editor (In/Out ▸ Edit Board): paint discs, choose the side to move, start a new game from the result.

use iced::Element;
use iced::widget::{button, column, row, text};
use shirokuro_engine::{Color, Position, Square};

use super::Message;
use crate::i18n::{Strings, fill};

/// What a click puts on a square in the board editor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Brush {
    /// A black disc.
    Black,
    /// A white disc.
    White,
    /// An empty square.
    Empty,
}

/// The board editor's state: the discs, the side to move and the brush.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct BoardEditor {
    pub(super) black: u64,
    pub(super) white: u64,
    pub(super) side: Color,
    pub(super) brush: Brush,
}

impl BoardEditor {
    pub(super) fn of(position: &Position) -> BoardEditor {
        BoardEditor {
            black: position.black().0,
            white: position.white().0,
            side: position.side_to_move,
            brush: Brush::Black,
        }
    }

    /// Puts the brush on `square`; clicking a disc of the brush's colour empties it.
    pub(super) fn paint(&mut self, square: Square) {
        let bit = 1u64 << square.index();
        let brush = match self.brush {
            Brush::Black if self.black & bit != 0 => Brush::Empty,
            Brush::White if self.white & bit != 0 => Brush::Empty,
            brush => brush,
        };
        self.black &= !bit;
        self.white &= !bit;
        match brush {
            Brush::Black => self.black |= bit,
            Brush::White => self.white |= bit,
            Brush::Empty => {}
        }
    }

    pub(super) fn position(&self) -> Position {
        let (player, opponent) = match self.side {
            Color::Black => (self.black, self.white),
            Color::White => (self.white, self.black),
        };
        // The two sets never overlap (paint clears both first).
        let board = shirokuro_engine::Board::new(player, opponent).unwrap_or(Position::INITIAL.board);
        Position { board, side_to_move: self.side }
    }
}

/// The board editor's panel: brushes, side to move, Clear, Done and Cancel.
pub(super) fn view<'a>(s: &Strings, editor: &BoardEditor) -> Element<'a, Message> {
    let choice = |label: &str, on: bool, message: Message| {
        let label = if on { format!("● {label}") } else { label.to_owned() };
        let style = if on { button::primary } else { button::secondary };
        button(text(label).size(14)).style(style).on_press(message)
    };
    let (black, white) = (editor.black.count_ones(), editor.white.count_ones());
    column![
        text(s.edit_board.clone()).size(18),
        text(s.edit_board_help.clone()).size(13),
        row![
            choice(&s.black, editor.brush == Brush::Black, Message::EditBrush(Brush::Black)),
            choice(&s.white, editor.brush == Brush::White, Message::EditBrush(Brush::White)),
            choice(&s.edit_empty, editor.brush == Brush::Empty, Message::EditBrush(Brush::Empty)),
        ]
        .spacing(6),
        text(s.edit_side.clone()).size(14),
        row![
            choice(&s.black, editor.side == Color::Black, Message::EditSide(Color::Black)),
            choice(&s.white, editor.side == Color::White, Message::EditSide(Color::White)),
        ]
        .spacing(6),
        text(fill(&s.discs, &[&black, &white])).size(14),
        row![
            button(text(s.edit_done.clone())).on_press(Message::EditDone),
            button(text(s.edit_clear.clone())).style(button::secondary).on_press(Message::EditClear),
            button(text(s.close.clone())).style(button::secondary).on_press(Message::EditBoard(false)),
        ]
        .spacing(6),
    ]
    .spacing(8)
    .padding(8)
    .into()
}
