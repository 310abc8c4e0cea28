//! Deep-search labels for training and for measuring the evaluation: positions sampled from game records, each
//! labelled with the score of a search at a given depth and selectivity (exact below a number of empties), written in
//! the `board64 X score` format that [`crate::format::records`] reads back as labelled positions.
//!
//! Sampling is seeded per game and each position is searched single-threaded with a cleared table, so the output does
//! not depend on the number of worker threads.

use std::ops::RangeInclusive;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use rayon::prelude::*;

use crate::board::Board;
use crate::eval::{Evaluator, Features, SCALE, Weights};
use crate::level::Selectivity;
use crate::position::Position;
use crate::rng::GameRng;
use crate::search::midgame::MidgameSearch;
use crate::search::{SolveMode, SolveOptions, Solver};

/// What to label and how deep.
#[derive(Debug, Clone)]
pub struct LabelSpec {
    /// Positions sampled from each game (at most; fewer if the game has fewer suitable positions).
    pub per_game: usize,
    /// Disc counts to sample.
    pub discs: RangeInclusive<u32>,
    /// Midgame search depth.
    pub depth: u8,
    /// Midgame search selectivity.
    pub selectivity: Selectivity,
    /// Positions with at most this many empties are solved exactly instead.
    pub exact_empties: u32,
    /// Sampling seed.
    pub seed: u64,
    /// The first this many positions the game's generator picks are passed over: they are the ones a run with this
    /// `per_game` and the same seed labelled, so a later run adds new positions of the same games.
    pub skip: usize,
    /// Table size of each search.
    pub hash_level: u8,
    /// Each sampled position is moved on by 0 to this many random legal moves before it is labelled, so the labels
    /// also cover the lopsided positions that games between good players rarely reach (but searches do).
    pub random_moves: u32,
}

impl Default for LabelSpec {
    fn default() -> LabelSpec {
        LabelSpec {
            per_game: 4,
            discs: 8..=60,
            depth: 10,
            selectivity: Selectivity::P93,
            exact_empties: 16,
            seed: 1,
            skip: 0,
            hash_level: 18,
            random_moves: 0,
        }
    }
}

/// A labelled position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Labelled {
    /// The position, side to move's view.
    pub board: Board,
    /// The label: the search score for the side to move.
    pub score: i32,
    /// Whether the label is an exact solve.
    pub exact: bool,
}

impl Labelled {
    /// The `board64 X score` line: squares a1…h8 with `X` the side to move's discs, `O` the opponent's.
    #[must_use]
    pub fn to_line(&self) -> String {
        let mut line = String::with_capacity(72);
        for i in 0..64 {
            let bit = 1u64 << i;
            line.push(if self.board.player.0 & bit != 0 {
                'X'
            } else if self.board.opponent.0 & bit != 0 {
                'O'
            } else {
                '-'
            });
        }
        line.push_str(" X ");
        line.push_str(&self.score.to_string());
        line
    }
}

/// The positions of game `index` to label: up to `per_game` distinct plies with a legal move and a disc count in
/// range, chosen with the game's own generator after its first `skip` choices.
fn pick(line: &[Position], index: usize, spec: &LabelSpec) -> Vec<Board> {
    let mut candidates: Vec<Board> = line
        .iter()
        .filter(|p| p.board.has_moves() && spec.discs.contains(&(64 - p.board.empty_count())))
        .map(|p| p.board)
        .collect();
    let mut rng = GameRng::for_game(spec.seed, index as u64);
    let mut chosen = Vec::new();
    while chosen.len() < spec.skip + spec.per_game && !candidates.is_empty() {
        let board = candidates.swap_remove(rng.below(candidates.len()));
        let steps = rng.below(spec.random_moves as usize + 1);
        chosen.push(random_walk(board, steps, &mut rng));
    }
    chosen.split_off(spec.skip.min(chosen.len()))
}

/// `board` moved on by up to `steps` random legal moves (passing when forced), stopping early rather than reach a
/// position without a legal move.
fn random_walk(mut board: Board, steps: usize, rng: &mut GameRng) -> Board {
    for _ in 0..steps {
        let moves: Vec<_> = board.moves().into_iter().collect();
        let square = moves[rng.below(moves.len())];
        let mut next = board.play_unchecked(square, board.flips(square));
        if !next.has_moves() {
            next = next.pass();
        }
        if !next.has_moves() {
            break;
        }
        board = next;
    }
    board
}

/// The positions of `games` (each game as its sequence of positions) that `spec` samples, in game order: the ones
/// [`label_games`] labels.
#[must_use]
pub fn sample(games: &[Vec<Position>], spec: &LabelSpec) -> Vec<Board> {
    games.iter().enumerate().flat_map(|(i, line)| pick(line, i, spec)).collect()
}

/// Labels positions sampled from `games` (each game as its sequence of positions), in game order.
///
/// `progress` gets (positions done, positions in all).
#[must_use]
pub fn label_games(
    games: &[Vec<Position>],
    weights: &Arc<Weights>,
    spec: &LabelSpec,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Vec<Labelled> {
    let boards = sample(games, spec);
    let done = AtomicUsize::new(0);
    let total = boards.len();
    let count = || progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
    label_boards(&boards, weights, spec, &AtomicBool::new(false), &count).into_iter().flatten().collect()
}

/// Labels `boards` (each from its side to move's view) in parallel on rayon's current pool, in the order given; a
/// board is `None` when `stop` was up before its search began (the searches under way finish). `done` is called once
/// for each board labelled.
pub fn label_boards(
    boards: &[Board],
    weights: &Arc<Weights>,
    spec: &LabelSpec,
    stop: &AtomicBool,
    done: &(dyn Fn() + Sync),
) -> Vec<Option<Labelled>> {
    boards
        .par_iter()
        .map_init(
            || (MidgameSearch::new(Arc::clone(weights), spec.hash_level), single_solver(weights, spec.hash_level)),
            |(search, solver), &board| {
                if stop.load(Ordering::Relaxed) {
                    return None;
                }
                let empties = board.empty_count();
                let exact_solver = solver.as_ref().ok().filter(|_| empties <= spec.exact_empties);
                let labelled = if let Some(solver) = exact_solver {
                    solver.clear();
                    Labelled { board, score: solver.solve(&board, SolveMode::Exact).score, exact: true }
                } else {
                    search.clear();
                    // The side to move is read as Black: the evaluation is the same for either colour.
                    let position = Position { board, side_to_move: crate::board::Color::Black };
                    let r = search.search(&position, spec.depth, spec.selectivity, &mut |_| {});
                    Labelled { board, score: r.score, exact: r.depth as u32 == empties && spec.selectivity.is_exact() }
                };
                done();
                Some(labelled)
            },
        )
        .collect()
}

/// Every position of `games` (each game as its sequence of positions) that has a legal move and a disc count in
/// `discs`, labelled with its game's final result for its side to move (the empty squares to the winner), in game
/// order: the labels the corpus's `export --positions` gives its own games, for any game records. A game that does not
/// reach its end (a record cut short or with an illegal move) gives none.
#[must_use]
pub fn result_labels(games: &[Vec<Position>], discs: &RangeInclusive<u32>) -> Vec<Labelled> {
    let mut labels = Vec::new();
    for line in games {
        let Some(end) = line.last().filter(|p| p.board.is_game_over()) else { continue };
        let black = end.black_score();
        labels.extend(
            line.iter().filter(|p| p.board.has_moves() && discs.contains(&(64 - p.board.empty_count()))).map(|p| {
                Labelled {
                    board: p.board,
                    score: if p.side_to_move == crate::board::Color::Black { black } else { -black },
                    exact: false,
                }
            }),
        );
    }
    labels
}

/// A single-threaded exact solver whose move ordering uses `weights`.
fn single_solver(weights: &Arc<Weights>, hash_level: u8) -> Result<Solver, crate::search::SearchError> {
    Solver::new(SolveOptions::default().with_threads(1).with_hash_level(hash_level)).map(|mut s| {
        s.set_weights(Some(Arc::clone(weights)));
        s
    })
}

/// The static evaluation of `board` for its side to move, in 1/[`SCALE`] disc before rounding (offset by half a
/// disc, as [`Evaluator::evaluate_scaled`] gives it).
#[must_use]
pub fn evaluate_scaled(evaluator: &Evaluator, board: &Board) -> i32 {
    let features = Features::new(board.player, board.opponent);
    evaluator.evaluate_scaled(
        64 - board.empty_count(),
        board.player.0.count_ones(),
        &features,
        crate::board::Color::Black,
        board.moves().count(),
        board.pass().moves().count(),
    )
}

/// The exact score of each board for its side to move, solved in parallel on rayon's current pool with one
/// single-threaded solver per worker (its move ordering uses `weights`), in the order given.
///
/// # Errors
/// [`SearchError`](crate::search::SearchError) when a solver cannot be made (the search backend is not supported).
pub fn solve_all(
    boards: &[Board],
    weights: &Arc<Weights>,
    hash_level: u8,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Vec<i32>, crate::search::SearchError> {
    let done = AtomicUsize::new(0);
    let total = boards.len();
    boards
        .par_iter()
        .map_init(
            || single_solver(weights, hash_level),
            |solver, board| {
                let solver = solver.as_ref().map_err(Clone::clone)?;
                solver.clear();
                let score = solver.solve(board, SolveMode::Exact).score;
                progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
                Ok(score)
            },
        )
        .collect()
}

/// Mean absolute error of the static evaluation against labels, by move number (discs − 4, 0–60).
#[derive(Debug, Clone, PartialEq)]
pub struct MaeReport {
    /// `(count, sum of |evaluation − label|)` by move number.
    pub by_move: Vec<(usize, f64)>,
    /// Sum of `evaluation − label` by move number (a systematic over- or underestimate shows here).
    pub signed: Vec<f64>,
}

impl MaeReport {
    /// Gathers errors (`evaluation − label`) by move number; move numbers above 60 count as 60.
    #[must_use]
    pub fn from_errors(errors: impl IntoIterator<Item = (usize, f64)>) -> MaeReport {
        let mut by_move = vec![(0usize, 0f64); 61];
        let mut signed = vec![0f64; 61];
        for (m, err) in errors {
            let m = m.min(60);
            by_move[m].0 += 1;
            by_move[m].1 += err.abs();
            signed[m] += err;
        }
        MaeReport { by_move, signed }
    }

    /// The mean error at a move number (`None` without positions).
    #[must_use]
    pub fn mae(&self, move_number: usize) -> Option<f64> {
        let (n, sum) = *self.by_move.get(move_number)?;
        (n > 0).then(|| sum / n as f64)
    }

    /// The mean of `evaluation − label` at a move number (`None` without positions).
    #[must_use]
    pub fn bias(&self, move_number: usize) -> Option<f64> {
        let (n, _) = *self.by_move.get(move_number)?;
        (n > 0).then(|| self.signed.get(move_number).copied().unwrap_or(0.0) / n as f64)
    }

    /// The average over `moves` of the per-move mean errors (moves without positions skipped).
    #[must_use]
    pub fn average(&self, moves: RangeInclusive<usize>) -> Option<f64> {
        mean_over(moves, |m| self.mae(m))
    }

    /// The average over `moves` of the per-move biases (moves without positions skipped), as [`Self::average`].
    #[must_use]
    pub fn mean_bias(&self, moves: RangeInclusive<usize>) -> Option<f64> {
        mean_over(moves, |m| self.bias(m))
    }
}

/// The mean of `value` over the moves that have one.
fn mean_over(moves: RangeInclusive<usize>, value: impl Fn(usize) -> Option<f64>) -> Option<f64> {
    let values: Vec<f64> = moves.filter_map(value).collect();
    (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
}

/// Compares the static evaluation with each label.
#[must_use]
pub fn evaluation_error(weights: &Weights, labels: &[(Board, i32)]) -> MaeReport {
    let evaluator = Evaluator::new(weights);
    MaeReport::from_errors(labels.iter().map(|&(board, label)| {
        let discs = 64 - board.empty_count();
        let v = evaluate_scaled(&evaluator, &board).div_euclid(SCALE).clamp(-64, 64);
        ((discs as usize).saturating_sub(4), f64::from(v - label))
    }))
}

/// Compares a midgame search of each labelled position at `depth` (single-threaded, a cleared table per position, as
/// [`label_games`]) with its label: how much of a static evaluation's gain a search keeps.
#[must_use]
pub fn search_error(
    weights: &Arc<Weights>,
    labels: &[(Board, i32)],
    depth: u8,
    selectivity: Selectivity,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> MaeReport {
    let done = AtomicUsize::new(0);
    let errors: Vec<(usize, f64)> = labels
        .par_iter()
        .map_init(
            || MidgameSearch::new(Arc::clone(weights), LabelSpec::default().hash_level),
            |search, &(board, label)| {
                search.clear();
                let position = Position { board, side_to_move: crate::board::Color::Black };
                let score = search.search(&position, depth, selectivity, &mut |_| {}).score;
                progress(done.fetch_add(1, Ordering::Relaxed) + 1, labels.len());
                ((64 - board.empty_count() as usize).saturating_sub(4), f64::from(score - label))
            },
        )
        .collect();
    MaeReport::from_errors(errors)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The positions of a transcript's game, its start first.
    fn line_of(transcript: &str) -> Vec<Position> {
        let tr = crate::notation::parse_transcript(transcript).unwrap();
        let mut line = vec![tr.start];
        for &mv in &tr.moves {
            line.push(line.last().unwrap().play(mv).unwrap());
        }
        line
    }

    #[test]
    fn a_finished_games_positions_carry_its_result_for_their_side_to_move() {
        // A game to the end by always taking the first legal move (it has passes, so colours do not simply alternate).
        let mut line = vec![Position::INITIAL];
        while let Some(p) = line.last().copied().filter(|p| !p.board.is_game_over()) {
            let mv = p.board.moves().into_iter().next().map_or(crate::board::Move::Pass, crate::board::Move::Place);
            line.push(p.play(mv).unwrap());
        }
        let end = *line.last().unwrap();
        let labels = result_labels(std::slice::from_ref(&line), &(4..=64));
        let placed: Vec<&Position> = line.iter().filter(|p| p.board.has_moves()).collect();
        assert!(placed.len() < line.len() - 1, "the game should have a pass");
        assert_eq!(labels.len(), placed.len());
        for (label, p) in labels.iter().zip(&placed) {
            assert_eq!(label.board, p.board);
            let own = if p.side_to_move == crate::board::Color::Black { end.black_score() } else { -end.black_score() };
            assert_eq!(label.score, own);
            assert!(!label.exact);
        }
        assert!(labels.iter().any(|l| l.score > 0) && labels.iter().any(|l| l.score < 0), "both sides' views");
        // The disc range picks the positions; a game cut short gives nothing.
        let middle = result_labels(std::slice::from_ref(&line), &(20..=40));
        assert!(middle.iter().all(|l| (20..=40).contains(&(64 - l.board.empty_count()))));
        assert_eq!(middle.len(), placed.iter().filter(|p| (20..=40).contains(&(64 - p.board.empty_count()))).count());
        assert!(result_labels(&[line[..line.len() - 1].to_vec()], &(4..=64)).is_empty());
    }

    #[test]
    fn labels_are_deterministic_and_read_back() {
        let games: Vec<Vec<Position>> =
            ["f5d6c3d3c4f4c5b3c2e6c6b4b5d2e3a6c1b1", "f5f6e6f4e3c5c4e7c6e2f3d3"].map(line_of).to_vec();
        let weights = Arc::new(crate::eval::weights::bundled().unwrap());
        let spec = LabelSpec { per_game: 3, depth: 4, hash_level: 14, ..LabelSpec::default() };
        let a = label_games(&games, &weights, &spec, &|_, _| {});
        let b = label_games(&games, &weights, &spec, &|_, _| {});
        assert_eq!(a, b);
        assert_eq!(a.len(), 6);
        let text: String = a.iter().map(|l| l.to_line() + "\n").collect();
        let parsed =
            crate::format::records::parse_records(&text, crate::format::records::RecordFormat::ExactPosition).unwrap();
        for (record, label) in parsed.iter().zip(&a) {
            assert_eq!(record.start.board, label.board);
        }
        // The labels are what a fresh search says.
        let search = MidgameSearch::new(Arc::clone(&weights), 14);
        for l in &a {
            let p = Position { board: l.board, side_to_move: crate::board::Color::Black };
            search.clear();
            assert_eq!(search.search(&p, 4, Selectivity::P93, &mut |_| {}).score, l.score);
        }
    }

    #[test]
    fn random_moves_lead_off_the_game_and_keep_a_legal_move() {
        let line = line_of("f5d6c3d3c4f4c5b3c2e6c6b4b5d2e3a6c1b1");
        let in_game: Vec<Board> = line.iter().map(|p| p.board).collect();
        let spec = LabelSpec { per_game: 6, random_moves: 5, ..LabelSpec::default() };
        let mut off_track = 0;
        for game in 0..20 {
            let picked = pick(&line, game, &spec);
            assert_eq!(picked, pick(&line, game, &spec), "seeded");
            assert_eq!(picked.len(), 6);
            for board in picked {
                assert!(board.has_moves());
                off_track += usize::from(!in_game.contains(&board));
            }
        }
        assert!(off_track > 60, "most positions leave the game: {off_track} of 120");
    }

    #[test]
    fn skipping_the_first_picks_gives_the_next_positions_of_the_same_games() {
        let line = line_of("f5d6c3d3c4f4c5b3c2e6c6b4b5d2e3a6c1b1f6e7");
        let first = LabelSpec { per_game: 4, ..LabelSpec::default() };
        let next = LabelSpec { skip: 4, ..first.clone() };
        let both = LabelSpec { per_game: 8, ..first.clone() };
        for game in 0..10 {
            let (a, b) = (pick(&line, game, &first), pick(&line, game, &next));
            assert_eq!((a.len(), b.len()), (4, 4));
            assert!(b.iter().all(|board| !a.contains(board)), "game {game}: the next four are new");
            assert_eq!([a, b].concat(), pick(&line, game, &both));
        }
        // A game with fewer positions than are skipped gives none, not a panic.
        let short = LabelSpec { skip: 40, ..first };
        assert!(pick(&line, 0, &short).is_empty());
    }

    #[test]
    fn the_error_report_averages_by_move() {
        let weights = Weights::zero();
        let b = Board::INITIAL;
        let report = evaluation_error(&weights, &[(b, 4), (b, -2)]);
        assert_eq!(report.mae(0), Some(3.0));
        assert_eq!(report.bias(0), Some(-1.0));
        assert_eq!(report.mae(1), None);
        assert_eq!(report.bias(1), None);
        assert_eq!(report.average(0..=60), Some(3.0));
        assert_eq!(report.mean_bias(0..=60), Some(-1.0));
        assert_eq!(report.mean_bias(1..=60), None);
        // Each move counts once, whatever its number of positions; past 60 counts as 60.
        let report = MaeReport::from_errors([(20, 1.0), (20, 3.0), (30, -4.0), (70, 2.0)]);
        assert_eq!(report.mae(20), Some(2.0));
        assert_eq!(report.bias(60), Some(2.0));
        assert_eq!(report.average(20..=50), Some(3.0));
        assert_eq!(report.mean_bias(20..=50), Some(-1.0));
    }

    #[test]
    fn a_search_to_the_end_has_no_error_against_exact_labels() {
        let weights = Arc::new(Weights::zero());
        let mut rng = GameRng::for_game(7, 0);
        let mut pick = |n: usize| rng.below(n);
        let boards: Vec<Board> =
            (0..12).map(|_| Board::INITIAL.after_random_moves(52, &mut pick)).filter(Board::has_moves).collect();
        assert!(boards.len() >= 6, "enough late positions: {}", boards.len());
        let solver = single_solver(&weights, 12).unwrap();
        let labels: Vec<(Board, i32)> = boards
            .iter()
            .map(|b| {
                solver.clear();
                (*b, solver.solve(b, SolveMode::Exact).score)
            })
            .collect();
        let exact = search_error(&weights, &labels, 60, Selectivity::Exact, &|_, _| {});
        assert_eq!(exact.by_move.iter().map(|e| e.0).sum::<usize>(), labels.len());
        assert!(exact.by_move.iter().all(|e| e.1 == 0.0), "{exact:?}");
        // A one-ply search with an evaluation of zero (only the disc count) is wrong somewhere.
        let shallow = search_error(&weights, &labels, 1, Selectivity::Exact, &|_, _| {});
        assert!(shallow.average(0..=60).unwrap() > 0.0);
    }
}
