//! `Position`: a board plus the colour to move, for notation and user-facing code.

use crate::bitboard::Bitboard;
use crate::board::{Board, Color, IllegalMove, Move};

/// A board with the colour whose turn it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// The board from the side to move's point of view.
    pub board: Board,
    /// The colour to move.
    pub side_to_move: Color,
}

impl Position {
    /// The starting position, Black to move.
    pub const INITIAL: Position = Position { board: Board::INITIAL, side_to_move: Color::Black };

    /// A position from Black's and White's discs and the side to move, or `None` if the sets overlap.
    #[must_use]
    pub const fn from_colors(black: u64, white: u64, side_to_move: Color) -> Option<Position> {
        let board = match side_to_move {
            Color::Black => Board::new(black, white),
            Color::White => Board::new(white, black),
        };
        match board {
            Some(board) => Some(Position { board, side_to_move }),
            None => None,
        }
    }

    /// Black's discs.
    #[must_use]
    pub const fn black(&self) -> Bitboard {
        match self.side_to_move {
            Color::Black => self.board.player,
            Color::White => self.board.opponent,
        }
    }

    /// White's discs.
    #[must_use]
    pub const fn white(&self) -> Bitboard {
        match self.side_to_move {
            Color::Black => self.board.opponent,
            Color::White => self.board.player,
        }
    }

    /// The position after `mv`.
    ///
    /// # Errors
    /// [`IllegalMove`] if the rules forbid it.
    pub fn play(&self, mv: Move) -> Result<Position, IllegalMove> {
        Ok(Position { board: self.board.play(mv)?, side_to_move: self.side_to_move.opposite() })
    }

    /// Black's disc count minus White's, empties to the winner (the final result from Black's side).
    #[must_use]
    pub const fn black_score(&self) -> i32 {
        match self.side_to_move {
            Color::Black => self.board.final_score(),
            Color::White => -self.board.final_score(),
        }
    }
}

impl Default for Position {
    fn default() -> Position {
        Position::INITIAL
    }
}
