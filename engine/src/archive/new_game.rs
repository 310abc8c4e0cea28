//! A game as read from a file, before it enters the archive: what the readers (`source`, `ggf`) make and the import
//! writes.

use crate::board::Move;
use crate::format::Winner;
use crate::position::Position;

/// A game read from a file, before it enters the archive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct NewGame {
    pub black: Option<String>,
    pub white: Option<String>,
    pub tournament: Option<String>,
    pub year: Option<u16>,
    pub recorded_black_discs: Option<u8>,
    pub theoretical_black_discs: Option<u8>,
    pub black_diff: Option<i32>,
    pub winner: Option<Winner>,
    pub start: Position,
    pub moves: Vec<Move>,
    /// Index of its file in the import's file list (not part of what makes two games the same).
    pub source: usize,
}

impl NewGame {
    /// Whether two games are the same game: same moves, start and metadata (the file they came from aside).
    #[must_use]
    pub fn same_game(&self, other: &NewGame) -> bool {
        NewGame { source: 0, ..self.clone() } == NewGame { source: 0, ..other.clone() }
    }
}
