//! Choosing a move at an AI level: [`Level::plan`] carried out.
//!
//! - A midgame plan runs the midgame search to the level's depth at the level's midgame selectivity (a depth that
//!   reaches the empties searches to the end of the game, still at that selectivity, as Egaroucid does).
//! - A selective endgame plan (88–99.9 %) runs the midgame search to the end of the game with Multi-ProbCut at the
//!   plan's selectivity.
//! - An exact endgame plan runs the exact solver.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::board::Move;
use crate::eval::Weights;
use crate::level::{Level, SearchPlan};
use crate::position::Position;
use crate::search::midgame::MidgameSearch;
use crate::search::{SearchError, SolveMode, SolveOptions, Solver, StopHandle};

/// What the AI decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Thought {
    /// The move to play (`Move::Pass` when forced); `None` when the game is over.
    pub best_move: Option<Move>,
    /// Score for the side to move: the evaluation-based estimate, or the exact final disc difference.
    pub score: i32,
    /// Whether `score` is exact.
    pub exact: bool,
    /// Depth searched (plies; the number of empties for an exact search).
    pub depth: u8,
    /// Nodes visited.
    pub nodes: u64,
    /// Wall-clock time.
    pub elapsed: Duration,
    /// Whether the search was stopped.
    pub stopped: bool,
}

/// The AI: a midgame searcher and an endgame solver, each with its own transposition table.
pub struct Thinker {
    midgame: MidgameSearch,
    solver: Solver,
}

/// Stops whichever search a [`Thinker`] is running.
#[derive(Debug, Clone)]
pub struct ThinkerStop {
    midgame: StopHandle,
    endgame: StopHandle,
}

impl ThinkerStop {
    /// Asks the running search to return as soon as it can.
    pub fn stop(&self) {
        self.midgame.stop();
        self.endgame.stop();
    }
}

impl Thinker {
    /// An AI with these evaluation weights; `options` sets the endgame solver's threads and table size (the midgame
    /// table gets the same size).
    ///
    /// # Errors
    /// [`SearchError`] if the solver cannot be created.
    pub fn new(weights: Arc<Weights>, options: SolveOptions) -> Result<Thinker, SearchError> {
        Ok(Thinker {
            midgame: MidgameSearch::new(weights, options.hash_level).with_threads(options.threads),
            solver: Solver::new(options)?,
        })
    }

    /// A handle that stops the running search.
    #[must_use]
    pub fn stop_handle(&self) -> ThinkerStop {
        ThinkerStop { midgame: self.midgame.stop_handle(), endgame: self.solver.stop_handle() }
    }

    /// Forgets both transposition tables (a new game).
    pub fn clear(&self) {
        self.midgame.clear();
        self.solver.clear();
    }

    /// Picks a move for `position` at `level`.
    pub fn think(&self, position: &Position, level: Level) -> Thought {
        let start = Instant::now();
        let board = position.board;
        if board.is_game_over() {
            return Thought {
                best_move: None,
                score: board.final_score(),
                exact: true,
                depth: 0,
                nodes: 0,
                elapsed: start.elapsed(),
                stopped: false,
            };
        }
        if !board.has_moves() {
            // A forced pass: the score is the opponent's, negated.
            let mut thought =
                self.think(&Position { board: board.pass(), side_to_move: !position.side_to_move }, level);
            thought.best_move = Some(Move::Pass);
            thought.score = -thought.score;
            return thought;
        }
        let empties = board.empty_count() as u8;
        match level.plan(empties) {
            SearchPlan::Endgame { selectivity } if selectivity.is_exact() => {
                let r = self.solver.solve(&board, SolveMode::Exact);
                Thought {
                    best_move: r.best_move,
                    score: r.score,
                    exact: !r.stopped,
                    depth: empties,
                    nodes: r.nodes,
                    elapsed: start.elapsed(),
                    stopped: r.stopped,
                }
            }
            plan => {
                let (depth, selectivity) = match plan {
                    SearchPlan::Midgame { depth, selectivity } => (depth.min(empties), selectivity),
                    SearchPlan::Endgame { selectivity } => (empties, selectivity),
                };
                let r = self.midgame.search(position, depth, selectivity, &mut |_| {});
                Thought {
                    best_move: r.best_move,
                    score: r.score,
                    exact: depth == empties && selectivity.is_exact() && !r.stopped,
                    depth: r.depth,
                    nodes: r.nodes,
                    elapsed: start.elapsed(),
                    stopped: r.stopped,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    use super::*;

    /// Plays whole games at two low levels with zero weights: every move is legal, the endgame part is exact.
    #[test]
    fn plays_legal_games_and_solves_the_endgame_exactly() {
        let thinker = Thinker::new(Arc::new(Weights::zero()), SolveOptions::default().with_hash_level(16)).unwrap();
        let solver = Solver::new(SolveOptions::default().with_hash_level(16)).unwrap();
        let mut rng = StdRng::seed_from_u64(3);
        for game in 0..4 {
            let mut position = Position::INITIAL;
            // A few random opening moves so the games differ.
            for _ in 0..4 {
                let moves: Vec<_> = position.board.moves().into_iter().collect();
                position = position.play(Move::Place(moves[rng.random_range(0..moves.len())])).unwrap();
            }
            let level = Level::new(if game % 2 == 0 { 2 } else { 4 }).unwrap();
            loop {
                let thought = thinker.think(&position, level);
                let Some(mv) = thought.best_move else {
                    assert!(position.board.is_game_over());
                    break;
                };
                if thought.exact && mv != Move::Pass {
                    assert_eq!(thought.score, solver.solve(&position.board, SolveMode::Exact).score);
                }
                assert!(position.board.is_legal(mv), "{mv} at {:?}", position.board);
                position = position.play(mv).unwrap();
            }
        }
    }
}
