//! Searching positions: the exact endgame solver.
//!
//! The API is synchronous and GUI-agnostic: [`Solver::solve`] runs on the calling thread (and on the solver's own thread
//! pool when it has more than one thread) and returns a [`SolveResult`]; [`StopHandle::stop`] from any other thread
//! makes it return promptly with `stopped = true`. The transposition table lives in the `Solver` and survives between
//! calls until [`Solver::clear`].

pub(crate) mod core;
pub(crate) mod endgame;
pub(crate) mod kernels;
pub(crate) mod leaf_cache;
pub mod midgame;
pub mod mpc;
pub mod tt;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use self::core::{INF, Shared, Worker, parity_of};
use crate::board::{Board, Move};
use crate::flip::Backend;
use crate::level::Selectivity;
use crate::square::Square;
use tt::{NO_MOVE, PASS, TranspositionTable};

/// What the solver is asked to find.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SolveMode {
    /// The exact final disc difference.
    #[default]
    Exact,
    /// Only win, draw or loss (score −1, 0 or +1): faster.
    WinLossDraw,
}

/// Settings of a [`Solver`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SolveOptions {
    /// Search threads (at least 1).
    pub threads: usize,
    /// The transposition table has 2^`hash_level` entries of 24 bytes.
    pub hash_level: u8,
    /// Which primitives to use; `None` picks the fastest this CPU supports.
    pub backend: Option<Backend>,
}

impl Default for SolveOptions {
    fn default() -> SolveOptions {
        SolveOptions { threads: 1, hash_level: 22, backend: None }
    }
}

impl SolveOptions {
    /// These options with `threads` threads.
    #[must_use]
    pub fn with_threads(mut self, threads: usize) -> SolveOptions {
        self.threads = threads.max(1);
        self
    }

    /// These options with a table of 2^`level` entries.
    #[must_use]
    pub fn with_hash_level(mut self, level: u8) -> SolveOptions {
        self.hash_level = level;
        self
    }

    /// These options with a given backend.
    #[must_use]
    pub fn with_backend(mut self, backend: Backend) -> SolveOptions {
        self.backend = Some(backend);
        self
    }
}

/// The outcome of a solve.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SolveResult {
    /// Final disc difference for the side to move with best play (or −1/0/+1 in win/loss/draw mode).
    pub score: i32,
    /// The best move (`Move::Pass` if the side to move must pass); `None` when the game is already over.
    pub best_move: Option<Move>,
    /// The principal variation, starting with the best move (passes included).
    pub pv: Vec<Move>,
    /// Positions visited.
    pub nodes: u64,
    /// Wall-clock time.
    pub elapsed: Duration,
    /// Whether the search was stopped before it finished (then the other fields are meaningless).
    pub stopped: bool,
}

impl SolveResult {
    /// Nodes per second.
    #[must_use]
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// Errors creating a solver.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SearchError {
    /// The worker threads could not be started.
    #[error("cannot start {threads} search threads: {message}")]
    ThreadPool {
        /// Threads requested.
        threads: usize,
        /// What the OS said.
        message: String,
    },
    /// The requested backend is not supported by this CPU.
    #[error("this CPU does not support the {0} backend")]
    UnsupportedBackend(&'static str),
}

/// Stops a running search from another thread.
#[derive(Debug, Clone)]
pub struct StopHandle(Arc<AtomicBool>);

impl StopHandle {
    /// Asks the search to stop; it returns within milliseconds with `stopped = true`.
    pub fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// An exact endgame solver with its transposition table and threads.
pub struct Solver {
    tt: TranspositionTable,
    /// The small table of the nodes a few moves before the end (`core::SHALLOW_TABLE_MIN`).
    shallow: TranspositionTable,
    stop: Arc<AtomicBool>,
    pool: Option<rayon::ThreadPool>,
    backend: Backend,
    threads: usize,
    evaluator: Option<Arc<crate::eval::Evaluator>>,
    mpc: mpc::MpcModel,
}

impl Solver {
    /// A solver with the given options.
    ///
    /// # Errors
    /// [`SearchError`] if the threads cannot be started or the backend is not supported here.
    pub fn new(options: SolveOptions) -> Result<Solver, SearchError> {
        let backend = options.backend.unwrap_or_else(Backend::detect);
        if !Backend::supported().contains(&backend) {
            return Err(SearchError::UnsupportedBackend(backend.name()));
        }
        let threads = options.threads.max(1);
        let pool = if threads > 1 {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .thread_name(|i| format!("shirokuro-search-{i}"))
                .build()
                .map_err(|e| SearchError::ThreadPool { threads, message: e.to_string() })?;
            Some(pool)
        } else {
            None
        };
        Ok(Solver {
            tt: TranspositionTable::new(options.hash_level),
            shallow: TranspositionTable::new(self::core::SHALLOW_TABLE_LEVEL),
            stop: Arc::new(AtomicBool::new(false)),
            pool,
            backend,
            threads,
            evaluator: None,
            mpc: mpc::MpcModel::bundled().without_reduced_endgame(),
        })
    }

    /// Replaces the Multi-ProbCut model of the presearch (a model's reduced endgame probe is for the levels'
    /// selective searches, not for this: see [`mpc::MpcModel::without_reduced_endgame`]).
    pub fn set_mpc_model(&mut self, model: mpc::MpcModel) {
        self.mpc = model.without_reduced_endgame();
    }

    /// Lets the move ordering at many empties use the pattern evaluation (`None`: mobility-based ordering only).
    pub fn set_weights(&mut self, weights: Option<Arc<crate::eval::Weights>>) {
        self.set_evaluator(weights.map(|w| Arc::new(crate::eval::Evaluator::new(&w))));
    }

    /// Like [`set_weights`](Self::set_weights) with weights already laid out (shared with a midgame search).
    pub fn set_evaluator(&mut self, evaluator: Option<Arc<crate::eval::Evaluator>>) {
        self.evaluator = evaluator;
    }

    /// The backend this solver runs.
    #[must_use]
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Number of search threads.
    #[must_use]
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Memory used by the transposition tables, in bytes.
    #[must_use]
    pub fn table_bytes(&self) -> usize {
        self.tt.bytes() + self.shallow.bytes()
    }

    /// A handle that stops the running (or next) search.
    #[must_use]
    pub fn stop_handle(&self) -> StopHandle {
        StopHandle(Arc::clone(&self.stop))
    }

    /// Empties the transposition table.
    pub fn clear(&self) {
        match &self.pool {
            Some(pool) => pool.install(|| self.tt.clear()),
            None => self.tt.clear(),
        }
        self.shallow.clear();
    }

    /// Solves `board` (side to move's point of view) to the end of the game.
    pub fn solve(&self, board: &Board, mode: SolveMode) -> SolveResult {
        self.solve_in(board, mode, None)
    }

    /// Solves `board` to the end of the game inside the window `alpha..beta` (−64 ≤ alpha < beta ≤ 64), after the
    /// usual presearch: the score is fail-soft, so a score ≤ alpha is an upper bound, a score ≥ beta a lower bound,
    /// and one in between exact. A null window (`beta = alpha + 1`) answers whether the score reaches `beta`. The
    /// principal variation holds the best move only.
    pub fn solve_window(&self, board: &Board, alpha: i32, beta: i32) -> SolveResult {
        let alpha = alpha.clamp(-64, 63);
        self.solve_in(board, SolveMode::Exact, Some((alpha, beta.clamp(alpha + 1, 64))))
    }

    /// [`solve`](Self::solve), or with `window` a single root search inside it.
    fn solve_in(&self, board: &Board, mode: SolveMode, window: Option<(i32, i32)>) -> SolveResult {
        self.stop.store(false, Ordering::Relaxed);
        self.tt.new_generation();
        self.shallow.new_generation();
        let start = Instant::now();
        let (alpha, beta) = match mode {
            SolveMode::Exact => (-64, 64),
            SolveMode::WinLossDraw => (-1, 1),
        };
        let shared = Shared {
            tt: &self.tt,
            shallow: Some(&self.shallow),
            stop: &self.stop,
            parallel: self.pool.is_some(),
            eval: self.evaluator.as_deref(),
            mpc: Some(&self.mpc),
        };
        let run = || {
            let mut worker = Worker::new(&shared, None);
            let (p, o) = (board.player.0, board.opponent.0);
            let guess = match mode {
                SolveMode::Exact => self.presearch(&shared, &mut worker, p, o),
                SolveMode::WinLossDraw => None,
            };
            let (score, best) = match (window, guess) {
                (Some((alpha, beta)), _) => self.root(&mut worker, p, o, alpha, beta),
                (None, Some(guess)) => self.aspiration_root(&mut worker, p, o, guess),
                (None, None) => self.root(&mut worker, p, o, alpha, beta),
            };
            let pv = match (mode, best) {
                (SolveMode::Exact, Some(_)) if window.is_none() && !worker.aborted() => {
                    self.principal_variation(&mut worker, p, o, score)
                }
                (_, Some(m)) => vec![m],
                (_, None) => Vec::new(),
            };
            (score, best, pv, worker.nodes, worker.aborted())
        };
        let (score, best_move, pv, nodes, stopped) = match &self.pool {
            Some(pool) => pool.install(run),
            None => run(),
        };
        let score = match mode {
            SolveMode::Exact => score,
            SolveMode::WinLossDraw => score.signum(),
        };
        SolveResult { score, best_move, pv, nodes, elapsed: start.elapsed(), stopped }
    }

    /// With an evaluation and enough empties: a 74 % iterative deepening, then a selective search to the end at 74 %,
    /// which fill the table with good moves and give an estimate of the score for the exact search's window.
    /// (Further stages at 88 % and 98 % cost more nodes than they saved on FFO #40–#52.)
    fn presearch(&self, shared: &Shared<'_>, w: &mut Worker<'_, '_>, p: u64, o: u64) -> Option<i32> {
        let eval = self.evaluator.as_deref()?;
        let empties = 64 - (p | o).count_ones();
        if empties < PRESEARCH_MIN {
            return None;
        }
        let features = crate::eval::Features::new(crate::Bitboard(p), crate::Bitboard(o));
        let context = |selectivity: Selectivity| self::core::Ctx {
            eval,
            tt: &self.tt,
            stop: &self.stop,
            done: &self.stop,
            nodes: 0,
            mpc: mpc::t_value(selectivity).map(|t| (t, &self.mpc)),
            selectivity: self::core::MIDGAME_BASE + selectivity.index(),
            endgame: shared,
            patterns_only: false,
            leaf_cache: eval.has_net().then(|| Box::new(leaf_cache::LeafCache::new())),
        };
        // Iterative deepening at 74 % up to `empties - PRESEARCH_DEPTH_GAP`, which gives most nodes of the tree a
        // table move before the searches to the end.
        let mut ctx = context(Selectivity::P74);
        let mut depth = PRESEARCH_FIRST_DEPTH;
        while depth <= empties as i32 - PRESEARCH_DEPTH_GAP && !ctx.aborted() {
            let _ = self.midgame_root(&mut ctx, p, o, &features, depth, -64, 64);
            depth += if depth < PRESEARCH_STEP_UNTIL { PRESEARCH_STEP } else { 1 };
        }
        w.nodes += ctx.nodes;
        if ctx.aborted() {
            return None;
        }
        let mut guess: Option<i32> = None;
        for selectivity in PRESEARCH_SELECTIVITIES {
            let mut ctx = context(selectivity);
            let (mut alpha, mut beta) = guess.map_or((-64, 64), |g| ((g - 2).max(-64), (g + 2).min(64)));
            let v = loop {
                let v = self.midgame_root(&mut ctx, p, o, &features, empties as i32, alpha, beta);
                if ctx.aborted() {
                    break v;
                }
                if v <= alpha && alpha > -64 {
                    (alpha, beta) = (-64, v + 1);
                } else if v >= beta && beta < 64 {
                    (alpha, beta) = (v - 1, 64);
                } else {
                    break v;
                }
            };
            w.nodes += ctx.nodes;
            if ctx.aborted() {
                return None;
            }
            guess = Some(v);
        }
        guess
    }

    /// The exact search with a narrow window around `guess`, widened on failure.
    fn aspiration_root(&self, w: &mut Worker<'_, '_>, p: u64, o: u64, guess: i32) -> (i32, Option<Move>) {
        let (mut alpha, mut beta) = ((guess - 2).max(-64), (guess + 2).min(64));
        loop {
            let (v, best) = self.root(w, p, o, alpha, beta);
            if w.aborted() {
                return (v, best);
            }
            if v <= alpha && alpha > -64 {
                (alpha, beta) = (-64, v + 1);
            } else if v >= beta && beta < 64 {
                (alpha, beta) = (v - 1, 64);
            } else {
                return (v, best);
            }
        }
    }

    /// Dispatches a midgame-kernel search (used by the presearch) to the backend.
    #[allow(clippy::too_many_arguments)]
    fn midgame_root(
        &self,
        ctx: &mut self::core::Ctx<'_>,
        p: u64,
        o: u64,
        f: &crate::eval::Features,
        depth: i32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let black = crate::board::Color::Black;
        match self.backend {
            #[cfg(target_arch = "x86_64")]
            #[allow(unsafe_code)]
            // SAFETY: `Solver::new` only accepts backends listed by `Backend::supported()` for this CPU.
            Backend::Avx2 => unsafe { kernels::avx2::midgame::pvs(ctx, p, o, f, black, depth, alpha, beta) },
            #[cfg(target_arch = "x86_64")]
            #[allow(unsafe_code)]
            // SAFETY: as above.
            Backend::Avx512 => unsafe { kernels::avx512::midgame::pvs(ctx, p, o, f, black, depth, alpha, beta) },
            _ => kernels::portable::midgame::pvs(ctx, p, o, f, black, depth, alpha, beta),
        }
    }

    fn root(&self, w: &mut Worker<'_, '_>, p: u64, o: u64, alpha: i32, beta: i32) -> (i32, Option<Move>) {
        let (score, mv) = self.pvs(w, p, o, alpha, beta);
        let best = match mv {
            PASS => Some(Move::Pass),
            NO_MOVE => None,
            sq => Square::new(sq).map(Move::Place),
        };
        (score, best)
    }

    /// Dispatches the full-window search to the backend's kernel.
    fn pvs(&self, w: &mut Worker<'_, '_>, p: u64, o: u64, alpha: i32, beta: i32) -> (i32, u8) {
        let parity = parity_of(!(p | o));
        match self.backend {
            #[cfg(target_arch = "x86_64")]
            #[allow(unsafe_code)]
            // SAFETY: `Solver::new` only accepts backends listed by `Backend::supported()` for this CPU.
            Backend::Avx2 => unsafe { kernels::avx2::endgame::pvs(w, p, o, alpha, beta, parity) },
            #[cfg(target_arch = "x86_64")]
            #[allow(unsafe_code)]
            // SAFETY: as above.
            Backend::Avx512 => unsafe { kernels::avx512::endgame::pvs(w, p, o, alpha, beta, parity) },
            _ => kernels::portable::endgame::pvs(w, p, o, alpha, beta, parity),
        }
    }

    /// Dispatches a null-window search to the backend's kernel.
    fn nws(&self, w: &mut Worker<'_, '_>, p: u64, o: u64, alpha: i32) -> i32 {
        let parity = parity_of(!(p | o));
        match self.backend {
            #[cfg(target_arch = "x86_64")]
            #[allow(unsafe_code)]
            // SAFETY: `Solver::new` only accepts backends listed by `Backend::supported()` for this CPU.
            Backend::Avx2 => unsafe { kernels::avx2::endgame::nws(w, p, o, alpha, parity) },
            #[cfg(target_arch = "x86_64")]
            #[allow(unsafe_code)]
            // SAFETY: as above.
            Backend::Avx512 => unsafe { kernels::avx512::endgame::nws(w, p, o, alpha, parity) },
            _ => kernels::portable::endgame::nws(w, p, o, alpha, parity),
        }
    }

    /// Follows the best line from a solved position: at each step, the first move (table move first) whose child is
    /// proved by a null-window search to have exactly the expected score.
    fn principal_variation(&self, w: &mut Worker<'_, '_>, mut p: u64, mut o: u64, mut score: i32) -> Vec<Move> {
        let mut pv = Vec::new();
        while pv.len() < 61 {
            let board = Board::from_raw(p, o);
            let moves = board.moves();
            if moves.is_empty() {
                if board.pass().has_moves() {
                    pv.push(Move::Pass);
                    (p, o, score) = (o, p, -score);
                    continue;
                }
                break;
            }
            let tt_move = self.tt.probe(board.hash(), p, o).map(|d| d.best_move);
            let mut ordered: Vec<Square> = moves.into_iter().collect();
            if let Some(i) = tt_move.and_then(Square::new).and_then(|m| ordered.iter().position(|&s| s == m)) {
                ordered.swap(0, i);
            }
            let mut found = None;
            for sq in ordered {
                let child = board.play_unchecked(sq, board.flips(sq));
                // The child is worth at least -score; it is on the PV if it is worth no more.
                if self.nws(w, child.player.0, child.opponent.0, -score) <= -score {
                    found = Some((sq, child));
                    break;
                }
                if w.aborted() {
                    return pv;
                }
            }
            let Some((sq, child)) = found else { break };
            pv.push(Move::Place(sq));
            (p, o, score) = (child.player.0, child.opponent.0, -score);
        }
        pv
    }
}

/// Solves one position with a fresh single-use solver (convenience for tests and small tools).
///
/// # Errors
/// [`SearchError`] if the solver cannot be created.
pub fn solve(board: &Board, options: SolveOptions, mode: SolveMode) -> Result<SolveResult, SearchError> {
    Ok(Solver::new(options)?.solve(board, mode))
}

/// From this many empties on, a solver with an evaluation runs selective presearches before the exact search.
const PRESEARCH_MIN: u32 = 20;
/// Before them, a 74 % iterative deepening from this depth, in steps of `PRESEARCH_STEP` up to
/// `PRESEARCH_STEP_UNTIL`, then of 1, up to the empties minus `PRESEARCH_DEPTH_GAP`.
const PRESEARCH_FIRST_DEPTH: i32 = 4;
const PRESEARCH_STEP: i32 = 3;
const PRESEARCH_STEP_UNTIL: i32 = 16;
/// (One thread, eval-1, FFO #40–#49 / #50–#52 in millions of nodes: a gap of 6 684.0 / 1226.8, 8 655.0 / 1230.4,
/// 10 635.5 / 1174.5, 12 656.7 / 1224.9, 14 682.4 / 1249.8.)
const PRESEARCH_DEPTH_GAP: i32 = 10;
/// The selectivities of those presearches, in order.
const PRESEARCH_SELECTIVITIES: [Selectivity; 1] = [Selectivity::P74];

const _: () = assert!(INF > 64);
