//! Labelled positions from corpus games: every position before a move, labelled with the game's final result for the
//! side to move (standard scoring: the empty squares go to the winner).
//!
//! A corpus game is played by the same engine for both sides, exact from its level's endgame depth, so the result is
//! the exact value of every position from there on and an unbiased, if noisy, estimate of the earlier ones — except
//! for the random-move positions: random moves lose discs, and with an odd number of them Black has made one more, so
//! their results lean to White. [`Labels::FromEngineMoves`] leaves them out.

use crate::board::Color;
use crate::tools::label::Labelled;
use crate::{Move, Position};

use super::format::{GameRecord, RecordError};

/// Which positions of a game get a label.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Labels {
    /// From the position before the first engine move on.
    FromEngineMoves,
    /// Every position, the random-move ones too.
    All,
}

impl GameRecord {
    /// The positions before each placed move (passes skipped), and the final position.
    fn positions(&self) -> Result<(Vec<Position>, Position), RecordError> {
        let moves = self.replay()?;
        let mut position = Position::INITIAL;
        let mut before = Vec::with_capacity(self.moves.len());
        for mv in moves {
            if let Move::Place(_) = mv {
                before.push(position);
            }
            // replay() checked every move.
            position = position.play(mv).map_err(|_| RecordError::NotOver { moves: self.moves.len() })?;
        }
        Ok((before, position))
    }

    /// The positions before each placed move (passes skipped), each labelled with the final result for its side to
    /// move; `exact_empties` marks those with at most that many empties as exact (the level's perfect endgame).
    ///
    /// # Errors
    /// [`RecordError`] when the game does not replay (a decoded record always does).
    pub fn labelled_positions(&self, which: Labels, exact_empties: u32) -> Result<Vec<Labelled>, RecordError> {
        self.labelled(which, exact_empties, None)
    }

    /// The game's first position with at most `empties` empties and a move to play, where
    /// [`labelled_positions_cut`](Self::labelled_positions_cut) takes its exact value (`None` if the game ends
    /// before).
    ///
    /// # Errors
    /// [`RecordError`] when the game does not replay.
    pub fn cut_position(&self, empties: u32) -> Result<Option<Position>, RecordError> {
        Ok(self.positions()?.0.into_iter().find(|p| p.board.empty_count() <= empties))
    }

    /// As [`labelled_positions`](Self::labelled_positions), but the positions before `cut` (a position of this game,
    /// from [`cut_position`](Self::cut_position)) and `cut` itself are labelled with `cut_score`, the exact value of `cut` for its
    /// side to move, seen from their own side to move. So their label is the result of the game as played to `cut`
    /// and perfectly from there: the imperfect moves end one ply earlier than with the result. (From a position
    /// `k` imperfect moves before the end of imperfect play, the side to move makes one more of them than its
    /// opponent when `k` is odd, so its label is lower by about one move's loss; averaging labels cut at two
    /// successive plies evens that out between the parities.)
    ///
    /// # Errors
    /// [`RecordError`] when the game does not replay.
    pub fn labelled_positions_cut(
        &self,
        which: Labels,
        exact_empties: u32,
        cut: &Position,
        cut_score: i32,
    ) -> Result<Vec<Labelled>, RecordError> {
        self.labelled(which, exact_empties, Some((cut, cut_score)))
    }

    fn labelled(
        &self,
        which: Labels,
        exact_empties: u32,
        cut: Option<(&Position, i32)>,
    ) -> Result<Vec<Labelled>, RecordError> {
        let (before, end) = self.positions()?;
        let black_result = end.black_score();
        let cut_at = cut.and_then(|(cut, score)| {
            let index = before.iter().position(|p| p == cut)?;
            let black = if cut.side_to_move == Color::Black { score } else { -score };
            Some((index, black))
        });
        let first = if which == Labels::All { 0 } else { usize::from(self.random_moves) };
        Ok(before
            .iter()
            .enumerate()
            .skip(first)
            .map(|(i, p)| {
                let black = match cut_at {
                    Some((index, black)) if i <= index => black,
                    _ => black_result,
                };
                let exact = p.board.empty_count() <= exact_empties || cut_at.is_some_and(|(index, _)| i == index);
                Labelled { board: p.board, score: if p.side_to_move == Color::Black { black } else { -black }, exact }
            })
            .collect())
    }
}

#[cfg(test)]
#[allow(
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::cast_possible_truncation,
    clippy::cast_possible_wrap,
    reason = "tests"
)]
mod tests {
    use super::*;

    /// A game played to the end by always taking the first legal move (it has passes), with `random_moves` of them
    /// counted as random.
    fn first_move_game(random_moves: u8) -> (GameRecord, Position) {
        let mut position = Position::INITIAL;
        let mut moves = Vec::new();
        while !position.board.is_game_over() {
            let mv = position.board.moves().into_iter().next().map_or(Move::Pass, Move::Place);
            if let Move::Place(square) = mv {
                moves.push(square);
            }
            position = position.play(mv).expect("legal");
        }
        let diff = i8::try_from(position.black().count() as i32 - position.white().count() as i32).expect("small");
        (GameRecord { index: 0, random_moves, moves, black_disc_diff: diff }, position)
    }

    #[test]
    fn every_position_is_labelled_with_the_result_for_its_side_to_move() {
        let (record, end) = first_move_game(0);
        let labels = record.labelled_positions(Labels::All, 20).expect("replays");
        assert_eq!(labels.len(), record.moves.len());
        assert_eq!(labels[0].board, Position::INITIAL.board);
        let black = end.black_score();
        assert_ne!(black, 0, "this game is no draw");
        assert!(record.replay().expect("replays").len() > record.moves.len(), "it has a pass");
        assert_eq!(labels[0].score, black, "Black to move at the start");
        assert_eq!(labels[1].score, -black, "White to move after the first move");
        // Replay again, following who is to move through the passes.
        let mut position = Position::INITIAL;
        let mut checked = 0;
        for &square in &record.moves {
            if !position.board.has_moves() {
                position = position.play(Move::Pass).expect("a pass");
            }
            let label = &labels[checked];
            assert_eq!(label.board, position.board);
            assert_eq!(label.score, if position.side_to_move == Color::Black { black } else { -black });
            assert_eq!(label.exact, position.board.empty_count() <= 20);
            position = position.play(Move::Place(square)).expect("legal");
            checked += 1;
        }
        assert_eq!(checked, labels.len());
    }

    #[test]
    fn random_move_positions_are_left_out_unless_asked_for() {
        let (record, end) = first_move_game(3);
        let engine = record.labelled_positions(Labels::FromEngineMoves, 60).expect("replays");
        let all = record.labelled_positions(Labels::All, 60).expect("replays");
        assert_eq!(engine.len(), record.moves.len() - 3);
        assert_eq!(engine[..], all[3..]);
        assert_eq!(engine[0].score, -end.black_score(), "White to move after three moves");
        assert!(engine.iter().all(|l| l.exact));
    }

    #[test]
    fn positions_before_the_cut_take_its_exact_value() {
        let (record, end) = first_move_game(0);
        let cut = record.cut_position(21).expect("replays").expect("the game reaches 21 empties");
        assert_eq!(cut.board.empty_count(), 21);
        let results = record.labelled_positions(Labels::All, 20).expect("replays");
        // Pretend the cut position is worth 5 for its side to move.
        let cut_labels = record.labelled_positions_cut(Labels::All, 20, &cut, 5).expect("replays");
        assert_eq!(results.len(), cut_labels.len());
        let index = results.iter().position(|l| l.board == cut.board).expect("the cut is a position of the game");
        assert_eq!(results[index + 1..], cut_labels[index + 1..], "after the cut, the result");
        assert_eq!(cut_labels[index].score, 5);
        assert!(cut_labels[index].exact);
        assert!(!results[index].exact, "21 empties");
        let black_cut = if cut.side_to_move == Color::Black { 5 } else { -5 };
        assert_eq!(cut_labels[0].score, black_cut, "Black to move at the start");
        assert_eq!(cut_labels[1].score, -black_cut);
        assert_ne!(black_cut, end.black_score());
        assert_eq!(record.cut_position(0).expect("replays"), None, "no move is played with no empties");
    }
}
