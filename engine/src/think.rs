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
use crate::level::{Level, LevelPlan, SearchPlan, Selectivity};
use crate::position::Position;
use crate::search::midgame::MidgameSearch;
use crate::search::mpc::MpcModel;
use crate::search::{SearchError, SolveMode, SolveOptions, Solver, StopHandle};

pub mod analysis;
pub mod focus;
pub mod hints;
mod loss;
pub mod loss_curves;
mod null_window;
pub mod policy;
mod review;
pub mod sparring;
mod timed;

pub use analysis::Analysis;
pub use hints::{Hint, HintKind, HintsEnd, book_hints};
pub use policy::{Choice, OUT_OF_BOOK_MARGIN, Policy, Source, Sparring};
pub use timed::move_budget;

/// The level at which the position after a move is searched when the moves of a position are compared (hints, the
/// loss choice, the check of the moves missing from the book): one level lower for a midgame plan, so each move costs
/// about what the position's own search costs; the same level for an endgame plan, which depends only on the empties.
fn child_level(level: Level, board: &crate::board::Board) -> Level {
    let empties = u8::try_from(board.empty_count()).unwrap_or(60);
    match level.plan(empties) {
        SearchPlan::Midgame { .. } => Level::clamped(level.get().saturating_sub(1).max(1)),
        SearchPlan::Endgame { .. } => level,
    }
}

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
    /// The selectivity of the search that gave `score` ([`Selectivity::Exact`] for an exact solve or a full-width
    /// midgame search).
    pub selectivity: Selectivity,
    /// The principal variation, starting with `best_move`.
    pub pv: Vec<Move>,
}

/// A progress report while thinking: one per finished iteration of the midgame search, and one at the end of an
/// exact solve.
#[derive(Debug, Clone, PartialEq)]
pub struct ThinkProgress {
    /// Depth completed (plies, or empties for a search to the end).
    pub depth: u8,
    /// Its selectivity.
    pub selectivity: Selectivity,
    /// Whether the score is exact.
    pub exact: bool,
    /// Score for the side to move.
    pub score: i32,
    /// Principal variation.
    pub pv: Vec<Move>,
    /// Nodes so far.
    pub nodes: u64,
    /// Time so far.
    pub elapsed: Duration,
}

impl ThinkProgress {
    /// Nodes per second so far.
    #[must_use]
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
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
        // One flat copy of the weights (about 20 MB) serves both searches.
        let evaluator = Arc::new(crate::eval::Evaluator::new(&weights));
        let mut solver = Solver::new(options)?;
        solver.set_evaluator(Some(Arc::clone(&evaluator)));
        let mut midgame = MidgameSearch::with_evaluator(evaluator, options.hash_level).with_threads(options.threads);
        if let Some(backend) = options.backend {
            midgame = midgame.with_backend(backend)?;
        }
        Ok(Thinker { midgame, solver })
    }

    /// Replaces the Multi-ProbCut model of both searches (the default is the bundled model of the shipped weights).
    pub fn set_mpc_model(&mut self, model: &MpcModel) {
        self.midgame.set_mpc_model(model.clone());
        self.solver.set_mpc_model(model.clone());
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

    /// Picks a move for `position` at `level` (a [`Level`], or a [`LevelPlan`] changed for a tuning run).
    pub fn think(&self, position: &Position, level: impl Into<LevelPlan>) -> Thought {
        self.think_with_progress(position, level, &mut |_| {})
    }

    /// Picks a move for `position` at `level`, reporting each finished iteration to `progress`.
    pub fn think_with_progress(
        &self,
        position: &Position,
        level: impl Into<LevelPlan>,
        progress: &mut dyn FnMut(&ThinkProgress),
    ) -> Thought {
        self.think_planned(position, level.into(), progress)
    }

    fn think_planned(
        &self,
        position: &Position,
        level: LevelPlan,
        progress: &mut dyn FnMut(&ThinkProgress),
    ) -> Thought {
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
                selectivity: Selectivity::Exact,
                pv: Vec::new(),
            };
        }
        if !board.has_moves() {
            // A forced pass: the score is the opponent's, negated.
            let passed = Position { board: board.pass(), side_to_move: !position.side_to_move };
            let mut thought = self.think_planned(&passed, level, &mut |p| {
                let mut p = p.clone();
                p.score = -p.score;
                p.pv.insert(0, Move::Pass);
                progress(&p);
            });
            thought.best_move = Some(Move::Pass);
            thought.score = -thought.score;
            thought.pv.insert(0, Move::Pass);
            return thought;
        }
        let empties = board.empty_count() as u8;
        match level.plan(empties) {
            SearchPlan::Endgame { selectivity } if selectivity.is_exact() => {
                let r = self.solver.solve(&board, SolveMode::Exact);
                if !r.stopped {
                    progress(&ThinkProgress {
                        depth: empties,
                        selectivity: Selectivity::Exact,
                        exact: true,
                        score: r.score,
                        pv: r.pv.clone(),
                        nodes: r.nodes,
                        elapsed: start.elapsed(),
                    });
                }
                Thought {
                    best_move: r.best_move,
                    score: r.score,
                    exact: !r.stopped,
                    depth: empties,
                    nodes: r.nodes,
                    elapsed: start.elapsed(),
                    stopped: r.stopped,
                    selectivity: Selectivity::Exact,
                    pv: r.pv,
                }
            }
            plan => {
                let (depth, selectivity) = match plan {
                    SearchPlan::Midgame { depth, selectivity } => (depth.min(empties), selectivity),
                    SearchPlan::Endgame { selectivity } => (empties, selectivity),
                };
                let r = self.midgame.search(position, depth, selectivity, &mut |p| {
                    progress(&ThinkProgress {
                        depth: p.depth,
                        selectivity: p.selectivity,
                        exact: p.depth == empties && p.selectivity.is_exact(),
                        score: p.score,
                        pv: p.pv.clone(),
                        nodes: p.nodes,
                        elapsed: start.elapsed(),
                    });
                });
                Thought {
                    best_move: r.best_move,
                    score: r.score,
                    selectivity,
                    pv: r.pv,
                    exact: r.depth == empties && selectivity.is_exact() && !r.stopped,
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

#[cfg(test)]
mod progress_tests {
    use super::*;

    #[test]
    fn progress_reports_every_iteration_and_the_result_agrees() {
        let thinker = Thinker::new(Arc::new(Weights::zero()), SolveOptions::default().with_hash_level(16)).unwrap();
        let position = crate::notation::parse_transcript("f5d6c3d3c4f4").unwrap().end;
        let mut reports = Vec::new();
        let thought = thinker.think_with_progress(&position, Level::new(6).unwrap(), &mut |p| reports.push(p.clone()));
        let depths: Vec<u8> = reports.iter().map(|p| p.depth).collect();
        assert_eq!(depths, vec![1, 2, 3, 4, 5, 6]);
        let last = reports.last().unwrap();
        assert_eq!((last.score, last.pv.first().copied()), (thought.score, thought.best_move));
        assert_eq!(thought.pv, last.pv);
        assert!(reports.windows(2).all(|w| w[0].nodes <= w[1].nodes));
        assert!(!thought.exact);
    }
}

#[cfg(test)]
mod mpc_tests {
    use super::*;

    /// The model set on a thinker is the one its selective search prunes with: a model that predicts huge errors
    /// cuts nothing, so the same search visits more nodes than with the bundled model.
    #[test]
    fn the_mpc_model_set_on_a_thinker_decides_its_cuts() {
        let weights = Arc::new(crate::eval::weights::bundled().unwrap());
        let options = SolveOptions::default().with_threads(1).with_hash_level(16);
        let position = crate::notation::parse_transcript("f5d6c3d3c4f4c5b3c2e6c6b4").unwrap().end;
        let level = Level::new(11).unwrap();
        let bundled = Thinker::new(Arc::clone(&weights), options).unwrap().think(&position, level);
        let mut cautious = Thinker::new(Arc::clone(&weights), options).unwrap();
        cautious.set_mpc_model(&MpcModel::parse("midgame 1000 0 0 0 0\nendgame 1000 0\n").unwrap());
        let wide = cautious.think(&position, level);
        assert_eq!(bundled.selectivity, Selectivity::P74);
        assert!(wide.nodes > bundled.nodes * 3 / 2, "bundled {} nodes, no cuts {}", bundled.nodes, wide.nodes);
        cautious.set_mpc_model(&MpcModel::bundled());
        cautious.clear();
        let again = cautious.think(&position, level);
        assert_eq!((again.nodes, again.best_move, again.score), (bundled.nodes, bundled.best_move, bundled.score));
    }

    /// A selective search to the end probes at the model's endgame depth: the same σ with a probe two plies
    /// shallower searches a different tree, and both stay near the exact score.
    #[test]
    fn the_endgame_reduction_of_the_model_sets_the_probe_depth() {
        let weights = Arc::new(crate::eval::weights::bundled().unwrap());
        let text = "--XXXXX--OOOXX---OOOXXXX-OXOXOXXOXXXOXXX--XOXOXX--OXOOO--OOOOO-- X";
        let position = crate::notation::parse_board(text).unwrap();
        let solver = crate::search::Solver::new(SolveOptions::default().with_threads(1).with_hash_level(16)).unwrap();
        let exact = solver.solve(&position.board, crate::search::SolveMode::Exact).score;
        let mut nodes = Vec::new();
        for reduction in [0, 2] {
            let mut model = MpcModel::bundled();
            model.reduced_endgame = Some(crate::search::mpc::ReducedEndgame { reduction, endgame: model.endgame });
            let mut search = crate::search::midgame::MidgameSearch::new(Arc::clone(&weights), 16);
            search.set_mpc_model(model);
            let result = search.search(&position, 60, Selectivity::P88, &mut |_| {});
            assert!((result.score - exact).abs() <= 6, "reduction {reduction}: {} for {exact}", result.score);
            nodes.push(result.nodes);
        }
        assert_ne!(nodes[0], nodes[1], "the probe depth did not change with the reduction");
    }

    /// The exact solver's presearch keeps the full probe: a model's reduced endgame probe changes nothing there.
    #[test]
    fn the_solver_ignores_the_reduced_endgame_probe() {
        let weights = Arc::new(crate::eval::weights::bundled().unwrap());
        let (text, exact) = ("O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X", 38);
        let board = crate::notation::parse_board(text).unwrap().board;
        let plain = MpcModel::bundled().without_reduced_endgame();
        let mut reduced = plain.clone();
        reduced.reduced_endgame = Some(crate::search::mpc::ReducedEndgame { reduction: 4, endgame: [20.0, 0.0] });
        let mut counts = Vec::new();
        for model in [plain, reduced] {
            let mut solver =
                crate::search::Solver::new(SolveOptions::default().with_threads(1).with_hash_level(18)).unwrap();
            solver.set_weights(Some(Arc::clone(&weights)));
            solver.set_mpc_model(model);
            let result = solver.solve(&board, crate::search::SolveMode::Exact);
            assert_eq!(result.score, exact);
            counts.push(result.nodes);
        }
        assert_eq!(counts[0], counts[1]);
    }
}
