//! Measuring the Multi-ProbCut model (`shirokuro-cli mpc-fit`): shallow and deep search scores of positions sampled
//! from game records, grouped into cells, and the σ model fitted to them ([`crate::search::mpc`]).
//!
//! - Midgame pairs: one full-width iterative-deepening search per position to `max_depth` gives the score at every
//!   depth; for each deep depth `d ≥ 2` the pair is (score at [`shallow_depth`]`(d)`, score at `d`), the static
//!   evaluation standing for depth 0. Cells: (disc count in blocks of 4, `d`).
//! - Endgame pairs: positions with `endgame_empties` empties, exact score against the full-width score at
//!   [`shallow_depth`]`(empties)`, and with `endgame_reduction` > 0 also against the score of the probe that many
//!   plies shallower ([`endgame_probe_depth`]), for the model's reduced endgame probe. Cells: (empties, shallow
//!   depth).
//!
//! Everything is seeded and each position is searched single-threaded with a cleared table, so the result does not
//! depend on the number of worker threads.

use std::ops::RangeInclusive;
use std::sync::Arc;

use rayon::prelude::*;

use crate::eval::{Evaluator, Features, Weights};
use crate::level::Selectivity;
use crate::position::Position;
use crate::rng::GameRng;
use crate::search::midgame::MidgameSearch;
use crate::search::mpc::{
    Cell, ENDGAME_TERMS, MIDGAME_TERMS, MpcModel, ReducedEndgame, endgame_probe_depth, endgame_terms, fit,
    midgame_terms, shallow_depth,
};
use crate::search::{SolveMode, SolveOptions, Solver};

/// What to measure.
#[derive(Debug, Clone)]
pub struct FitOptions {
    /// Positions sampled for the midgame pairs.
    pub midgame_positions: usize,
    /// Deepest midgame search.
    pub max_depth: u8,
    /// Disc counts of the midgame positions.
    pub midgame_discs: RangeInclusive<u32>,
    /// Positions sampled for the endgame pairs.
    pub endgame_positions: usize,
    /// Empties of the endgame positions.
    pub endgame_empties: RangeInclusive<u32>,
    /// When not 0, also measure and fit a reduced endgame probe this many plies shallower than [`shallow_depth`]
    /// (even; see [`crate::search::mpc::ReducedEndgame`]).
    pub endgame_reduction: u32,
    /// Sampling seed.
    pub seed: u64,
    /// Table size of each search.
    pub hash_level: u8,
}

impl Default for FitOptions {
    fn default() -> FitOptions {
        FitOptions {
            midgame_positions: 600,
            max_depth: 10,
            midgame_discs: 12..=52,
            endgame_positions: 300,
            endgame_empties: 13..=22,
            endgame_reduction: 0,
            seed: 1,
            hash_level: 18,
        }
    }
}

/// The measurement and its fit.
#[derive(Debug, Clone)]
pub struct FitReport {
    /// Midgame cells (terms: [`midgame_terms`]), with their disc block and depths for printing.
    pub midgame: Vec<(u32, u32, u32, Cell)>,
    /// Endgame cells (terms: [`endgame_terms`]), with their empties and shallow depth.
    pub endgame: Vec<(u32, u32, Cell)>,
    /// The same for the reduced probe (empty when not measured).
    pub reduced_endgame: Vec<(u32, u32, Cell)>,
    /// The fitted model.
    pub model: MpcModel,
}

/// Errors of [`measure`].
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FitError {
    /// No game reaches the requested positions.
    #[error("the records give no position with {0}")]
    NoPositions(String),
    /// The cells do not determine the model.
    #[error("the {0} cells do not determine the model (too few distinct cells); measure more positions or depths")]
    Degenerate(&'static str),
    /// The endgame solver could not start.
    #[error(transparent)]
    Search(#[from] crate::search::SearchError),
}

/// Samples `count` positions whose disc count is in `discs`, from random plies of random games.
fn sample(games: &[Vec<Position>], discs: &RangeInclusive<u32>, count: usize, rng: &mut GameRng) -> Vec<Position> {
    let pools: Vec<Vec<Position>> = games
        .iter()
        .map(|line| {
            line.iter()
                .filter(|p| discs.contains(&(64 - p.board.empty_count())) && p.board.has_moves())
                .copied()
                .collect::<Vec<_>>()
        })
        .filter(|pool| !pool.is_empty())
        .collect();
    if pools.is_empty() {
        return Vec::new();
    }
    (0..count)
        .map(|_| {
            let pool = &pools[rng.below(pools.len())];
            pool[rng.below(pool.len())]
        })
        .collect()
}

/// Measures the pairs on positions from `games` (each game as its sequence of positions) and fits the model.
///
/// `progress` is called with (positions done, positions in all) from the worker threads.
///
/// # Errors
/// [`FitError`] if there are no suitable positions or the fit is degenerate.
pub fn measure(
    games: &[Vec<Position>],
    weights: &Arc<Weights>,
    options: &FitOptions,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<FitReport, FitError> {
    let mut rng = GameRng::new(options.seed);
    let mid_positions = sample(games, &options.midgame_discs, options.midgame_positions, &mut rng);
    let end_discs = (64 - options.endgame_empties.end())..=(64 - options.endgame_empties.start());
    let end_positions = sample(games, &end_discs, options.endgame_positions, &mut rng);
    if mid_positions.is_empty() && options.midgame_positions > 0 {
        return Err(FitError::NoPositions(format!("{:?} discs", options.midgame_discs)));
    }
    if end_positions.is_empty() && options.endgame_positions > 0 {
        return Err(FitError::NoPositions(format!("{:?} empties", options.endgame_empties)));
    }
    let total = mid_positions.len() + end_positions.len();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let tick = || progress(done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1, total);
    let evaluator = Evaluator::new(weights);
    let max_depth = options.max_depth.max(2);

    // Midgame: scores at every depth 0..=max_depth.
    let mid_scores: Vec<(u32, Vec<i32>)> = mid_positions
        .par_iter()
        .map_init(
            || MidgameSearch::new(Arc::clone(weights), options.hash_level),
            |search, position| {
                search.clear();
                let b = position.board;
                let discs = 64 - b.empty_count();
                let f = Features::new(position.black(), position.white());
                let mut scores = vec![evaluator.evaluate(
                    discs,
                    b.player.0.count_ones(),
                    &f,
                    position.side_to_move,
                    b.moves().count(),
                    b.pass().moves().count(),
                )];
                let depth = max_depth.min(b.empty_count() as u8 - 1);
                let _ = search.search(position, depth, Selectivity::Exact, &mut |p| scores.push(p.score));
                tick();
                (discs, scores)
            },
        )
        .collect();
    let mut mid_diffs: std::collections::BTreeMap<(u32, u32), Vec<f64>> = std::collections::BTreeMap::new();
    for (discs, scores) in &mid_scores {
        for d in 2..scores.len() as u32 {
            let s = shallow_depth(d);
            let diff = f64::from(scores[d as usize] - scores[s as usize]);
            mid_diffs.entry((discs / 4, d)).or_default().push(diff);
        }
    }
    let midgame: Vec<(u32, u32, u32, Cell)> = mid_diffs
        .into_iter()
        .filter(|(_, v)| v.len() >= 8)
        .map(|((block, d), v)| {
            let s = shallow_depth(d);
            (block * 4, s, d, Cell::from_samples(midgame_terms(block * 4 + 2, d).to_vec(), &v))
        })
        .collect();

    // Endgame: exact score against the shallow search. A single-threaded solver can only fail on an unsupported
    // backend, which this check reports before any work.
    let _ = Solver::new(SolveOptions::default().with_threads(1).with_hash_level(options.hash_level))?;
    let reduction = options.endgame_reduction;
    let end_pairs: Vec<Option<EndPairs>> = end_positions
        .par_iter()
        .map_init(
            || {
                (
                    MidgameSearch::new(Arc::clone(weights), options.hash_level),
                    Solver::new(SolveOptions::default().with_threads(1).with_hash_level(options.hash_level)),
                )
            },
            |(search, solver), position| {
                let solver = solver.as_ref().ok()?;
                let empties = position.board.empty_count();
                let probe = |depth: u32| {
                    search.clear();
                    search.search(position, depth as u8, Selectivity::Exact, &mut |_| {}).score
                };
                let s = shallow_depth(empties);
                let shallow = probe(s);
                let reduced = (reduction > 0).then(|| {
                    let r = endgame_probe_depth(empties, reduction);
                    (r, probe(r))
                });
                solver.clear();
                let exact = solver.solve(&position.board, SolveMode::Exact).score;
                tick();
                Some(EndPairs {
                    empties,
                    full: (s, f64::from(exact - shallow)),
                    reduced: reduced.map(|(r, v)| (r, f64::from(exact - v))),
                })
            },
        )
        .collect();
    let end_pairs: Vec<EndPairs> = end_pairs.into_iter().flatten().collect();
    let endgame = endgame_cells(end_pairs.iter().map(|p| (p.empties, p.full)));
    let reduced_endgame = endgame_cells(end_pairs.iter().filter_map(|p| p.reduced.map(|r| (p.empties, r))));

    let mid_cells: Vec<Cell> = midgame.iter().map(|(_, _, _, c)| c.clone()).collect();
    let end_cells: Vec<Cell> = endgame.iter().map(|(_, _, c)| c.clone()).collect();
    let mid = fit(&mid_cells).ok_or(FitError::Degenerate("midgame"))?;
    let end = fit(&end_cells).ok_or(FitError::Degenerate("endgame"))?;
    let reduced = if reduction > 0 {
        let cells: Vec<Cell> = reduced_endgame.iter().map(|(_, _, c)| c.clone()).collect();
        let coefficients = fit(&cells).ok_or(FitError::Degenerate("reduced endgame"))?;
        Some(ReducedEndgame {
            reduction,
            endgame: coefficients.try_into().map_err(|_| FitError::Degenerate("reduced endgame"))?,
        })
    } else {
        None
    };
    let model = MpcModel {
        midgame: mid.try_into().map_err(|_| FitError::Degenerate("midgame"))?,
        endgame: end.try_into().map_err(|_| FitError::Degenerate("endgame"))?,
        reduced_endgame: reduced,
    };
    debug_assert_eq!(model.midgame.len(), MIDGAME_TERMS);
    debug_assert_eq!(model.endgame.len(), ENDGAME_TERMS);
    Ok(FitReport { midgame, endgame, reduced_endgame, model })
}

/// One endgame position's measurement: its empties, and (probe depth, exact − probe score) for the full probe
/// and, when measured, the reduced one.
struct EndPairs {
    empties: u32,
    full: (u32, f64),
    reduced: Option<(u32, f64)>,
}

/// Groups (empties, (probe depth, difference)) samples into cells of at least 8.
fn endgame_cells(samples: impl Iterator<Item = (u32, (u32, f64))>) -> Vec<(u32, u32, Cell)> {
    let mut diffs: std::collections::BTreeMap<(u32, u32), Vec<f64>> = std::collections::BTreeMap::new();
    for (e, (s, diff)) in samples {
        diffs.entry((e, s)).or_default().push(diff);
    }
    diffs
        .into_iter()
        .filter(|(_, v)| v.len() >= 8)
        .map(|((e, s), v)| (e, s, Cell::from_samples(endgame_terms(e).to_vec(), &v)))
        .collect()
}

impl FitReport {
    /// The measured cells and the model's prediction for each, as text.
    #[must_use]
    pub fn table(&self) -> String {
        use std::fmt::Write as _;
        let mut out = String::from("midgame cells: discs  shallow  deep  n  mean  sigma  model\n");
        for (discs, s, d, cell) in &self.midgame {
            let _ = writeln!(
                out,
                "  {discs:>2}-{:<2} {s:>2} {d:>2} {:>5} {:>6.2} {:>6.2} {:>6.2}",
                discs + 3,
                cell.count,
                cell.mean,
                cell.sigma,
                self.model.midgame_sigma(discs + 2, *d)
            );
        }
        endgame_rows(&mut out, "endgame cells", &self.endgame, |e| self.model.endgame_sigma(e));
        if !self.reduced_endgame.is_empty() {
            endgame_rows(&mut out, "reduced endgame probe cells", &self.reduced_endgame, |e| {
                self.model.endgame_probe(e).1
            });
        }
        out
    }
}

/// Appends a table of endgame cells under `title`, each with the σ the model gives it.
fn endgame_rows(out: &mut String, title: &str, cells: &[(u32, u32, Cell)], model: impl Fn(u32) -> f64) {
    use std::fmt::Write as _;
    let _ = writeln!(out, "{title}: empties  shallow  n  mean  sigma  model");
    for (e, s, cell) in cells {
        let _ = writeln!(
            out,
            "  {e:>2} {s:>2} {:>5} {:>6.2} {:>6.2} {:>6.2}",
            cell.count,
            cell.mean,
            cell.sigma,
            model(*e)
        );
    }
}
