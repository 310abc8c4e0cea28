//! An archived game put on the board at the position it was picked from: turned into the orientation of that
//! position (the archive folds the 8 symmetries, so the game may have reached it mirrored or rotated), with the cursor
//! where it reached it.

use shirokuro_engine::archive::ArchivedGame;
use shirokuro_engine::bitboard::Symmetry;
use shirokuro_engine::{Move, Position};

/// A game ready to load: its start and moves in the orientation asked for, and the ply (discs placed) to show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Aligned {
    /// The position before the first move.
    pub start: Position,
    /// The moves, passes included.
    pub moves: Vec<Move>,
    /// The ply to show: discs placed from the start to the position (passes do not count).
    pub ply: usize,
}

/// `game` turned so that it passes through `at` as `at` stands, with the cursor at the first position where it does;
/// `None` if the game never reaches `at` in any orientation.
#[must_use]
pub fn aligned(game: &ArchivedGame, at: &Position) -> Option<Aligned> {
    let mut position = game.start;
    let mut placed = 0;
    for index in 0..=game.moves.len() {
        if let Some(symmetry) = symmetry_onto(&position, at) {
            let start = Position { board: game.start.board.transform(symmetry), side_to_move: game.start.side_to_move };
            let moves = game.moves.iter().map(|mv| mv.transform(symmetry)).collect();
            return Some(Aligned { start, moves, ply: placed });
        }
        let &mv = game.moves.get(index)?;
        position = position.play(mv).ok()?;
        if mv.square().is_some() {
            placed += 1;
        }
    }
    None
}

/// The symmetry that takes `from` onto `to`, if any.
fn symmetry_onto(from: &Position, to: &Position) -> Option<Symmetry> {
    if from.side_to_move != to.side_to_move {
        return None;
    }
    Symmetry::ALL.into_iter().find(|&symmetry| from.board.transform(symmetry) == to.board)
}
