//! [`CardKey`]: how a study position is named whatever its orientation, and how moves go in and out of the canonical
//! orientation.

use crate::bitboard::Symmetry;
use crate::board::{Board, Color, Move};
use crate::notation::{self, BoardTextError, ParseMoveError};
use crate::position::Position;

/// A position folded over the 8 symmetries of the board: its canonical board ([`Board::canonical`]'s order, the
/// opening books' one) and the colour to move. Two positions that are images of each other have the same key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CardKey {
    /// The canonical board (side to move / opponent).
    pub board: Board,
    /// The colour to move.
    pub side: Color,
}

/// A stored key or move list that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CardKeyError {
    /// The board text is not a board.
    #[error("bad board text: {0}")]
    Board(#[from] BoardTextError),
    /// A move of a move list is not a move.
    #[error("bad move {text:?}: {source}")]
    Move {
        /// The word.
        text: String,
        /// Why it is not a move.
        source: ParseMoveError,
    },
}

impl CardKey {
    /// The key of a position.
    #[must_use]
    pub fn of(position: &Position) -> CardKey {
        CardKey { board: position.board.canonical().0, side: position.side_to_move }
    }

    /// The canonical position itself.
    #[must_use]
    pub const fn position(&self) -> Position {
        Position { board: self.board, side_to_move: self.side }
    }

    /// The key as text: the canonical position in the board notation (64 squares `X`/`O`/`-` from a1 to h8, then
    /// the colour to move), as the study store keeps it.
    #[must_use]
    pub fn to_text(&self) -> String {
        notation::format_board(&self.position())
    }

    /// The key of a board text (any orientation: it is folded again).
    ///
    /// # Errors
    /// [`CardKeyError::Board`] when the text is not a board.
    pub fn from_text(text: &str) -> Result<CardKey, CardKeyError> {
        Ok(CardKey::of(&notation::parse_board(text)?))
    }

    /// `mv`, played in `position`, in the canonical orientation of the position's key. When the position is
    /// symmetric in itself, the moves its symmetries exchange are one move there: the one on the smallest square.
    #[must_use]
    pub fn canonical_move(position: &Position, mv: Move) -> Move {
        let target = position.board.canonical().0;
        onto(&position.board, &target)
            .map(|symmetry| mv.transform(symmetry))
            .min_by_key(|image| image.square().map(crate::square::Square::index))
            .unwrap_or(mv)
    }

    /// The moves of `position` that a canonical move stands for: usually one, more when the position is symmetric
    /// in itself (the four first moves of the game are one canonical move).
    #[must_use]
    pub fn moves_of(position: &Position, canonical: Move) -> Vec<Move> {
        let target = position.board.canonical().0;
        let mut moves = Vec::with_capacity(1);
        for symmetry in onto(&position.board, &target) {
            let mv = canonical.transform(symmetry.inverse());
            if !moves.contains(&mv) {
                moves.push(mv);
            }
        }
        moves
    }

    /// Whether `mv`, played in `position`, is one of `canonical_moves` (given in the canonical orientation): the
    /// move is compared through every symmetry that maps the position onto its canonical board.
    #[must_use]
    pub fn is_one_of(position: &Position, mv: Move, canonical_moves: &[Move]) -> bool {
        let target = position.board.canonical().0;
        onto(&position.board, &target).any(|symmetry| canonical_moves.contains(&mv.transform(symmetry)))
    }
}

/// The symmetries that map `board` onto `target`.
fn onto<'a>(board: &'a Board, target: &'a Board) -> impl Iterator<Item = Symmetry> + 'a {
    Symmetry::ALL.into_iter().filter(move |symmetry| board.transform(*symmetry) == *target)
}

/// Moves as text, separated by spaces (`f5 d6`; `ps` for a pass).
#[must_use]
pub(crate) fn moves_to_text(moves: &[Move]) -> String {
    moves.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ")
}

/// Moves from their text ([`moves_to_text`]).
///
/// # Errors
/// [`CardKeyError::Move`] for a word that is not a move.
pub(crate) fn moves_from_text(text: &str) -> Result<Vec<Move>, CardKeyError> {
    text.split_whitespace()
        .map(|word| notation::parse_move(word).map_err(|source| CardKeyError::Move { text: word.to_owned(), source }))
        .collect()
}
