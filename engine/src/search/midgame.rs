//! Midgame search: iterative-deepening principal-variation search (negascout) on the pattern evaluation, with a
//! transposition table, aspiration windows, Multi-ProbCut ([`super::mpc`]), enhanced transposition cut-off, move
//! ordering by shallow searches, and parallel search (Lazy SMP: helper threads search the same tree through the shared
//! table; the main thread's result is the answer, so one thread is deterministic).
//!
//! A pass does not use up depth: a line ends either at depth 0 (evaluation) or at the end of the game (exact final
//! score). A search as deep as the number of empty squares is therefore a search to the end of the game: exact at
//! [`Selectivity::Exact`], a selective endgame search otherwise; its last [`kernel::HANDOFF`] plies are solved by the
//! exact endgame kernel.

pub(crate) mod kernel;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::core::{Ctx, MIDGAME_BASE, Shared};
use super::kernels;
use super::leaf_cache::LeafCache;
use super::mpc::{MpcModel, t_value};
use super::tt::{NO_MOVE, PASS, TranspositionTable};
use super::{SearchError, StopHandle};
use crate::board::{Board, Color, Move};
use crate::eval::{Evaluator, Features, Weights};
use crate::flip::Backend;
use crate::level::Selectivity;
use crate::position::Position;
use crate::square::Square;

/// One finished iteration, reported through the progress callback.
#[derive(Debug, Clone, PartialEq)]
pub struct MidgameProgress {
    /// Depth just completed (plies; equal to the empties for a search to the end).
    pub depth: u8,
    /// Its selectivity.
    pub selectivity: Selectivity,
    /// Its score for the side to move, in discs.
    pub score: i32,
    /// Its principal variation.
    pub pv: Vec<Move>,
    /// Nodes so far, all threads.
    pub nodes: u64,
    /// Time so far.
    pub elapsed: Duration,
}

impl MidgameProgress {
    /// Nodes per second so far.
    #[must_use]
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// The outcome of a search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MidgameResult {
    /// Score of the deepest completed iteration, side to move's view, in discs.
    pub score: i32,
    /// Best move (`Move::Pass` when the side to move must pass); `None` if the game is over.
    pub best_move: Option<Move>,
    /// Principal variation of the deepest completed iteration.
    pub pv: Vec<Move>,
    /// Depth of the deepest completed iteration.
    pub depth: u8,
    /// Nodes visited, all threads.
    pub nodes: u64,
    /// Wall-clock time.
    pub elapsed: Duration,
    /// Whether the search was stopped before reaching the requested depth.
    pub stopped: bool,
}

/// A midgame searcher: the evaluation, a transposition table, the Multi-ProbCut model, threads and a stop flag.
pub struct MidgameSearch {
    evaluator: Arc<Evaluator>,
    mpc: MpcModel,
    tt: TranspositionTable,
    stop: Arc<AtomicBool>,
    threads: usize,
    backend: Backend,
}

impl MidgameSearch {
    /// A single-threaded searcher using `weights`, with a table of 2^`hash_level` entries and the bundled
    /// Multi-ProbCut model.
    #[must_use]
    pub fn new(weights: Arc<Weights>, hash_level: u8) -> MidgameSearch {
        MidgameSearch::with_evaluator(Arc::new(Evaluator::new(&weights)), hash_level)
    }

    /// Like [`new`](Self::new) with weights already laid out (shared with a [`super::Solver`], for instance).
    #[must_use]
    pub fn with_evaluator(evaluator: Arc<Evaluator>, hash_level: u8) -> MidgameSearch {
        MidgameSearch {
            evaluator,
            mpc: MpcModel::bundled(),
            tt: TranspositionTable::new(hash_level),
            stop: Arc::new(AtomicBool::new(false)),
            threads: 1,
            backend: Backend::detect(),
        }
    }

    /// Searches with `threads` threads (at least 1).
    #[must_use]
    pub fn with_threads(mut self, threads: usize) -> MidgameSearch {
        self.threads = threads.max(1);
        self
    }

    /// Uses this move-generation backend.
    ///
    /// # Errors
    /// [`SearchError::UnsupportedBackend`] if this CPU lacks it.
    pub fn with_backend(mut self, backend: Backend) -> Result<MidgameSearch, SearchError> {
        if !Backend::supported().contains(&backend) {
            return Err(SearchError::UnsupportedBackend(backend.name()));
        }
        self.backend = backend;
        Ok(self)
    }

    /// Replaces the Multi-ProbCut model.
    pub fn set_mpc_model(&mut self, model: MpcModel) {
        self.mpc = model;
    }

    /// Number of search threads.
    #[must_use]
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// A handle that stops the running search (it returns the deepest completed iteration).
    #[must_use]
    pub fn stop_handle(&self) -> StopHandle {
        StopHandle(Arc::clone(&self.stop))
    }

    /// Empties the transposition table.
    pub fn clear(&self) {
        self.tt.clear();
    }

    /// Searches `position` to `depth` plies (capped at the number of empties: deeper is a search to the end of the
    /// game) at `selectivity`, by iterative deepening, calling `progress` after every iteration.
    pub fn search(
        &self,
        position: &Position,
        depth: u8,
        selectivity: Selectivity,
        progress: &mut dyn FnMut(&MidgameProgress),
    ) -> MidgameResult {
        self.search_in(position, depth, selectivity, None, progress)
    }

    /// Like [`search`](Self::search), but the last iteration (at `depth`) is a single root search inside the window
    /// `alpha..beta` (−64 ≤ alpha < beta ≤ 64) instead of an aspiration search: its score is fail-soft, so a score
    /// ≤ alpha is an upper bound and one ≥ beta a lower bound. A null window (`beta = alpha + 1`) answers whether the
    /// score at this depth reaches `beta`. The shallower iterations run as usual and order the moves.
    pub fn search_window(
        &self,
        position: &Position,
        depth: u8,
        selectivity: Selectivity,
        alpha: i32,
        beta: i32,
    ) -> MidgameResult {
        let alpha = alpha.clamp(-64, 63);
        self.search_in(position, depth, selectivity, Some((alpha, beta.clamp(alpha + 1, 64))), &mut |_| {})
    }

    /// [`search`](Self::search), or with `window` a last iteration inside it.
    fn search_in(
        &self,
        position: &Position,
        depth: u8,
        selectivity: Selectivity,
        window: Option<(i32, i32)>,
        progress: &mut dyn FnMut(&MidgameProgress),
    ) -> MidgameResult {
        self.stop.store(false, Ordering::Relaxed);
        self.tt.new_generation();
        let start = Instant::now();
        let board = position.board;
        let mut result = MidgameResult {
            score: 0,
            best_move: None,
            pv: Vec::new(),
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            stopped: false,
        };
        if board.is_game_over() {
            result.score = board.final_score();
            return result;
        }
        let depth = depth.max(1).min(board.empty_count() as u8);
        let done = AtomicBool::new(false);
        let helper_nodes = AtomicU64::new(0);
        let endgame = Shared { tt: &self.tt, shallow: None, stop: &self.stop, parallel: false, eval: None, mpc: None };
        let features = Features::new(position.black(), position.white());
        let job = Job { board, side: position.side_to_move, features, depth };
        std::thread::scope(|scope| {
            for helper in 1..self.threads {
                let (job, endgame, done, helper_nodes) = (&job, &endgame, &done, &helper_nodes);
                let _ = scope.spawn(move || {
                    let mut ctx = self.context(endgame, done, selectivity);
                    // Helpers start one ply deeper every other thread, so the threads spread over the depths.
                    let offset = (helper % 2) as u8;
                    for d in iteration_depths(1 + offset, job.depth, job.board.empty_count()) {
                        let _ = self.iterate(&mut ctx, job, d, 0);
                        if ctx.aborted() {
                            break;
                        }
                    }
                    let _ = helper_nodes.fetch_add(ctx.nodes, Ordering::Relaxed);
                });
            }
            let mut ctx = self.context(&endgame, &done, selectivity);
            let mut guess = 0;
            for d in iteration_depths(1, depth, board.empty_count()) {
                // The selectivity applies to the requested depth; shallower iterations that already reach the end
                // of the game use it too.
                let outcome = match window {
                    Some((alpha, beta)) if d == depth => self.window_root(&mut ctx, &job, d, alpha, beta),
                    _ => self.iterate(&mut ctx, &job, d, guess),
                };
                let Some((score, root_move)) = outcome else {
                    result.stopped = true;
                    break;
                };
                guess = score;
                let pv = root_line(&self.tt, &board, root_move, usize::from(d));
                result.score = score;
                result.best_move = pv.first().copied();
                result.pv = pv;
                result.depth = d;
                progress(&MidgameProgress {
                    depth: d,
                    selectivity,
                    score,
                    pv: result.pv.clone(),
                    nodes: ctx.nodes + helper_nodes.load(Ordering::Relaxed),
                    elapsed: start.elapsed(),
                });
            }
            done.store(true, Ordering::Relaxed);
            result.nodes = ctx.nodes;
        });
        result.nodes += helper_nodes.load(Ordering::Relaxed);
        result.elapsed = start.elapsed();
        result
    }

    fn context<'a>(&'a self, endgame: &'a Shared<'a>, done: &'a AtomicBool, selectivity: Selectivity) -> Ctx<'a> {
        Ctx {
            eval: &self.evaluator,
            tt: &self.tt,
            stop: &self.stop,
            done,
            nodes: 0,
            mpc: t_value(selectivity).map(|t| (t, &self.mpc)),
            selectivity: MIDGAME_BASE + selectivity.index(),
            endgame,
            patterns_only: false,
            leaf_cache: self.evaluator.has_net().then(|| Box::new(LeafCache::new())),
        }
    }

    /// One iteration at depth `d` with an aspiration window around `guess`: the score and the root's best move
    /// (`PASS` for a forced pass); `None` if stopped.
    fn iterate(&self, ctx: &mut Ctx<'_>, job: &Job, d: u8, guess: i32) -> Option<(i32, u8)> {
        let mut delta = 4;
        let (mut alpha, mut beta) =
            if d <= 2 { (-64, 64) } else { ((guess - delta).max(-64), (guess + delta).min(64)) };
        loop {
            let first = self
                .tt
                .probe(job.board.hash(), job.board.player.0, job.board.opponent.0)
                .map_or(NO_MOVE, |e| e.best_move);
            let (v, mv) = self.root(ctx, job, i32::from(d), alpha, beta, first);
            if ctx.aborted() {
                return None;
            }
            if v <= alpha && alpha > -64 {
                alpha = (v - delta).max(-64);
            } else if v >= beta && beta < 64 {
                beta = (v + delta).min(64);
            } else {
                return Some((v, mv));
            }
            delta *= 2;
        }
    }

    /// One root search at depth `d` inside `alpha..beta`: the fail-soft score and the root's best move; `None` if
    /// stopped.
    fn window_root(&self, ctx: &mut Ctx<'_>, job: &Job, d: u8, alpha: i32, beta: i32) -> Option<(i32, u8)> {
        let first =
            self.tt.probe(job.board.hash(), job.board.player.0, job.board.opponent.0).map_or(NO_MOVE, |e| e.best_move);
        let (v, mv) = self.root(ctx, job, i32::from(d), alpha, beta, first);
        (!ctx.aborted()).then_some((v, mv))
    }

    /// Dispatches the root search to the backend's kernel.
    fn root(&self, ctx: &mut Ctx<'_>, job: &Job, depth: i32, alpha: i32, beta: i32, first: u8) -> (i32, u8) {
        let (p, o, f, side) = (job.board.player.0, job.board.opponent.0, &job.features, job.side);
        match self.backend {
            #[cfg(target_arch = "x86_64")]
            #[allow(unsafe_code)]
            // SAFETY: `with_backend` only accepts backends listed by `Backend::supported()`, and `Backend::detect`
            // only returns supported ones.
            Backend::Avx2 => unsafe { kernels::avx2::midgame::root(ctx, p, o, f, side, depth, alpha, beta, first) },
            #[cfg(target_arch = "x86_64")]
            #[allow(unsafe_code)]
            // SAFETY: as above.
            Backend::Avx512 => unsafe { kernels::avx512::midgame::root(ctx, p, o, f, side, depth, alpha, beta, first) },
            _ => kernels::portable::midgame::root(ctx, p, o, f, side, depth, alpha, beta, first),
        }
    }
}

/// The deepest midgame iteration before a search to the end of the game. Deeper midgame iterations cost about as
/// much as the search to the end itself (they never reach the exact solver) and do little for its move ordering: on a
/// 25-empty position at level 11 (to the end at 98 %) stopping them at 12 took the search from 48–51 s to 13 s with
/// the same move and score (docs/engine.md, "Thirteenth session").
pub(crate) const LAST_ITERATION_BEFORE_END: u8 = 12;

/// The depths of the iterative deepening towards `depth` from `first`: every depth, except that a search to the end
/// of the game (`depth` = `empties`) goes from [`LAST_ITERATION_BEFORE_END`] straight to the end.
fn iteration_depths(first: u8, depth: u8, empties: u32) -> impl Iterator<Item = u8> {
    let to_end = u32::from(depth) == empties;
    (first..=depth).filter(move |&d| !to_end || d == depth || d <= LAST_ITERATION_BEFORE_END)
}

/// What every thread of one search works on.
struct Job {
    board: Board,
    side: Color,
    features: Features,
    depth: u8,
}

/// The principal variation of an iteration: the root's own best move `root_move` (which the table may not hold: a
/// search that fails low everywhere, e.g. with every move evaluated at −64, stores no move), then the table's moves.
fn root_line(tt: &TranspositionTable, board: &Board, root_move: u8, max: usize) -> Vec<Move> {
    let mv = match root_move {
        PASS => Move::Pass,
        m => match Square::new(m) {
            Some(sq) => Move::Place(sq),
            None => return principal_variation(tt, board, max),
        },
    };
    let Ok(next) = board.play(mv) else { return principal_variation(tt, board, max) };
    let mut pv = vec![mv];
    pv.extend(principal_variation(tt, &next, max.saturating_sub(1)));
    pv
}

/// Follows the table's best moves from `board`, at most `max` plies.
fn principal_variation(tt: &TranspositionTable, board: &Board, max: usize) -> Vec<Move> {
    let mut pv = Vec::new();
    let mut b = *board;
    while pv.len() < max {
        let Some(data) = tt.probe(b.hash(), b.player.0, b.opponent.0) else { break };
        let mv = match data.best_move {
            PASS => Move::Pass,
            m => match Square::new(m) {
                Some(sq) => Move::Place(sq),
                None => break,
            },
        };
        match b.play(mv) {
            Ok(next) => {
                pv.push(mv);
                b = next;
            }
            Err(_) => break,
        }
    }
    pv
}

#[cfg(test)]
mod tests;
