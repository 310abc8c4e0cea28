//! Null-window searches at a level: whether a position's value reaches a bound, for less than the value itself costs.
//! The book policy uses them to check that no move missing from the book beats the book's best move.

use super::Thinker;
use crate::level::{Level, SearchPlan};
use crate::position::Position;

impl Thinker {
    /// Whether the value of `position` for its side to move, searched as [`Thinker::think`] would at `level`, is at
    /// least `bound`, by a null-window search; `None` when the search was stopped. Bounds outside −64..=64 need no
    /// search.
    pub fn reaches(&self, position: &Position, level: Level, bound: i32) -> Option<bool> {
        let board = position.board;
        if board.is_game_over() {
            return Some(board.final_score() >= bound);
        }
        if bound <= -64 {
            return Some(true);
        }
        if bound > 64 {
            return Some(false);
        }
        if !board.has_moves() {
            // After the pass the opponent's value is the negation: v ≥ bound exactly when the opponent's value does
            // not reach 1 − bound.
            let passed = Position { board: board.pass(), side_to_move: !position.side_to_move };
            return self.reaches(&passed, level, 1 - bound).map(|reached| !reached);
        }
        let empties = u8::try_from(board.empty_count()).unwrap_or(60);
        let (score, stopped) = match level.plan(empties) {
            SearchPlan::Endgame { selectivity } if selectivity.is_exact() => {
                let r = self.solver.solve_window(&board, bound - 1, bound);
                (r.score, r.stopped)
            }
            SearchPlan::Midgame { depth, selectivity } => {
                let r = self.midgame.search_window(position, depth.min(empties), selectivity, bound - 1, bound);
                (r.score, r.stopped)
            }
            SearchPlan::Endgame { selectivity } => {
                let r = self.midgame.search_window(position, empties, selectivity, bound - 1, bound);
                (r.score, r.stopped)
            }
        };
        (!stopped).then_some(score >= bound)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::eval::weights;
    use crate::search::SolveOptions;

    fn thinker() -> Thinker {
        let weights = Arc::new(weights::bundled().unwrap());
        Thinker::new(weights, SolveOptions::default().with_threads(1).with_hash_level(16)).unwrap()
    }

    /// The null-window answers agree with the full search's value on both sides of it, in the midgame, in a selective
    /// search to the end and in an exact solve.
    #[test]
    fn reaches_agrees_with_the_value() {
        let thinker = thinker();
        let cases = [("f5d6c3d3c4f4c5b3c2e6c6b4", 8), ("f5d6c3d3c4f4c5b3c2e6c6b4", 1)];
        let mut positions: Vec<(Position, Level)> = cases
            .iter()
            .map(|(line, level)| (crate::notation::parse_transcript(line).unwrap().end, Level::new(*level).unwrap()))
            .collect();
        // A position with 14 empties: an exact solve at level 10, a selective one at level 1.
        let text = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
        let late = crate::notation::parse_board(text).unwrap();
        positions.push((late, Level::new(10).unwrap()));
        positions.push((late, Level::new(1).unwrap()));
        for (position, level) in positions {
            let value = thinker.think(&position, level).score;
            for bound in [value - 3, value, value + 1, value + 4] {
                thinker.clear();
                assert_eq!(thinker.reaches(&position, level, bound), Some(value >= bound), "{value} vs {bound}");
            }
        }
    }

    #[test]
    fn bounds_outside_the_scores_and_finished_games_need_no_search() {
        let thinker = thinker();
        let position = Position::INITIAL;
        let level = Level::new(60).unwrap();
        assert_eq!(thinker.reaches(&position, level, -64), Some(true));
        assert_eq!(thinker.reaches(&position, level, 65), Some(false));
        let over = crate::notation::parse_board(&format!("{}O X", "X".repeat(63))).unwrap();
        assert!(over.board.is_game_over());
        let score = over.board.final_score();
        assert_eq!(thinker.reaches(&over, level, score), Some(true));
        assert_eq!(thinker.reaches(&over, level, score + 1), Some(false));
    }
}
