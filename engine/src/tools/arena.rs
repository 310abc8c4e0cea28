//! Engine-against-engine games: matches played from a list of openings, and self-play games for training records.
//!
//! - [`play_game`] plays one game from an opening between two [`Thinker`]s, each at its own level.
//! - [`play_match`] plays every opening twice (engine A as Black, then A as White) on the current rayon pool;
//!   [`MatchSummary`] turns the games into wins, draws, losses, the score and the average disc difference, with 95 %
//!   confidence intervals.
//! - [`selfplay_game`] and [`play_selfplay`] play a number of uniformly random moves, then one level for both sides
//!   to the end; [`SelfPlayGame::record_line`] writes the game as a `moves diff` line of
//!   [`RecordFormat::Egaroucid3`](crate::format::RecordFormat::Egaroucid3), which `shirokuro-cli train` reads.
//!
//! # Determinism
//! [`play_match`] and [`play_selfplay`] give the same games for the same inputs whatever the number of threads and
//! whichever thread plays which game: each game gets new [`Thinker`]s (single-threaded searches), and a self-play
//! game draws its random moves from a [`GameRng`] seeded by the run's seed and the game's index. New thinkers rather
//! than cleared ones, because [`Thinker::clear`] empties the tables but keeps their generation counters, which the
//! replacement policy reads; a thinker's history would then leak into the next game. Results are returned in input
//! order.
//!
//! ```
//! use std::sync::Arc;
//! use shirokuro_engine::tools::arena::{Player, play_game};
//! use shirokuro_engine::eval::Weights;
//! use shirokuro_engine::level::Level;
//! use shirokuro_engine::notation::parse_transcript;
//! use shirokuro_engine::search::SolveOptions;
//! use shirokuro_engine::think::Thinker;
//!
//! let options = SolveOptions::default().with_hash_level(12);
//! let black = Thinker::new(Arc::new(Weights::zero()), options)?;
//! let white = Thinker::new(Arc::new(Weights::zero()), options)?;
//! let level = Level::new(1)?;
//! let opening = parse_transcript("f5d6c4d3c2b3b4b5")?.moves;
//! let plan = level.into();
//! let game = play_game(Player { thinker: &black, plan }, Player { thinker: &white, plan }, &opening)?;
//! assert!(game.end.board.is_game_over());
//! assert_eq!(game.black_score.signum(), game.black_disc_diff.signum());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::sync::{Arc, Mutex};
use std::time::Duration;

use rayon::prelude::*;

use crate::board::{Color, IllegalMove, Move};
use crate::eval::Weights;
use crate::level::{Level, LevelPlan};
use crate::notation::{PassStyle, TranscriptError, format_transcript, parse_transcript};
use crate::position::Position;
use crate::rng::GameRng;
use crate::search::mpc::MpcModel;
use crate::search::{SearchError, SolveOptions};
use crate::think::{Thinker, Thought};

/// The two-sided 95 % quantile of the standard normal distribution.
pub const Z_95: f64 = 1.959_963_984_540_054;

/// Why a game, a match or a self-play run could not be played.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ArenaError {
    /// A line of an openings text is not a legal transcript.
    #[error("openings line {line}: {source}")]
    Opening {
        /// The 1-based line.
        line: usize,
        /// What is wrong with it.
        #[source]
        source: TranscriptError,
    },
    /// A move of the opening given to [`play_game`] is illegal.
    #[error("opening move {number} ({mv}) is illegal: {reason}")]
    IllegalOpeningMove {
        /// The 1-based number of the move.
        number: usize,
        /// The move.
        mv: Move,
        /// Why the rules forbid it.
        reason: IllegalMove,
    },
    /// The engine returned no move in a position that is not over (a stopped search).
    #[error("the engine returned no move at ply {ply} although the game is not over")]
    NoMove {
        /// The 0-based ply (moves played before it, passes included).
        ply: usize,
    },
    /// The engine returned an illegal move.
    #[error("the engine played the illegal move {mv} at ply {ply}: {reason}")]
    IllegalEngineMove {
        /// The 0-based ply.
        ply: usize,
        /// The move.
        mv: Move,
        /// Why the rules forbid it.
        reason: IllegalMove,
    },
    /// A thinker could not be created.
    #[error(transparent)]
    Search(#[from] SearchError),
}

/// Reads an openings text: one transcript from the standard start per line (`f5d6c4d3c2b3b4b5`). Blank lines and
/// lines starting with `#` are skipped. Each opening is returned with its implicit passes made explicit.
///
/// # Errors
/// [`ArenaError::Opening`] naming the first bad line.
pub fn parse_openings(text: &str) -> Result<Vec<Vec<Move>>, ArenaError> {
    let mut openings = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let transcript = parse_transcript(trimmed)
            .map_err(|source| ArenaError::Opening { line: index.saturating_add(1), source })?;
        openings.push(transcript.moves);
    }
    Ok(openings)
}

/// One side of a game: the thinker that chooses its moves, and with which plan.
#[derive(Clone, Copy)]
pub struct Player<'a> {
    /// Chooses the moves.
    pub thinker: &'a Thinker,
    /// A level's plan (`Level::into()`), or one changed for a tuning run.
    pub plan: LevelPlan,
}

/// A finished game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameResult {
    /// Every move from the standard start, the opening's included, with passes as [`Move::Pass`].
    pub moves: Vec<Move>,
    /// The final position (neither side can move).
    pub end: Position,
    /// Black's final disc difference in standard scoring (empty squares go to the winner).
    pub black_score: i32,
    /// Black's discs minus White's at the end, empty squares not awarded (the `diff` of
    /// [`RecordFormat::Egaroucid3`](crate::format::RecordFormat::Egaroucid3)).
    pub black_disc_diff: i32,
}

impl GameResult {
    fn from_end(moves: Vec<Move>, end: Position) -> GameResult {
        let black = i32::try_from(end.black().count()).unwrap_or(0);
        let white = i32::try_from(end.white().count()).unwrap_or(0);
        GameResult { moves, end, black_score: end.black_score(), black_disc_diff: black.saturating_sub(white) }
    }

    /// The moves as a lower-case transcript without passes.
    #[must_use]
    pub fn transcript(&self) -> String {
        format_transcript(&self.moves, PassStyle::Omit)
    }
}

/// Plays `opening` from the standard start, then lets `black` and `white` move in turn until the game is over.
/// Forced passes are made without asking the thinkers. The thinkers' tables are left as they are.
///
/// # Errors
/// [`ArenaError::IllegalOpeningMove`] if the opening is not legal; [`ArenaError::NoMove`] or
/// [`ArenaError::IllegalEngineMove`] if a thinker fails (neither happens with an unstopped [`Thinker`]).
pub fn play_game(black: Player<'_>, white: Player<'_>, opening: &[Move]) -> Result<GameResult, ArenaError> {
    play_counting_effort(black, white, opening).map(|(game, _)| game)
}

/// What one side's searches spent in a game.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Effort {
    /// Nodes visited.
    pub nodes: u64,
    /// Time spent thinking.
    pub time: Duration,
}

/// [`play_game`], also returning what each side's searches spent: `[Black's, White's]`.
fn play_counting_effort(
    black: Player<'_>,
    white: Player<'_>,
    opening: &[Move],
) -> Result<(GameResult, [Effort; 2]), ArenaError> {
    let mut position = Position::INITIAL;
    let mut moves = Vec::with_capacity(64);
    for (index, &mv) in opening.iter().enumerate() {
        position = position.play(mv).map_err(|reason| ArenaError::IllegalOpeningMove {
            number: index.saturating_add(1),
            mv,
            reason,
        })?;
        moves.push(mv);
    }
    let mut effort = [Effort::default(); 2];
    let mut count = |position: &Position, thought: &Thought| {
        let side = &mut effort[usize::from(position.side_to_move == Color::White)];
        side.nodes = side.nodes.saturating_add(thought.nodes);
        side.time = side.time.saturating_add(thought.elapsed);
    };
    let game = play_out(position, moves, black, white, &mut count)?;
    Ok((game, effort))
}

/// Continues a game from `position` (reached by `moves`) to its end, showing `on_thought` each position a thinker
/// moved in and what it thought.
fn play_out(
    mut position: Position,
    mut moves: Vec<Move>,
    black: Player<'_>,
    white: Player<'_>,
    on_thought: &mut dyn FnMut(&Position, &Thought),
) -> Result<GameResult, ArenaError> {
    while !position.board.is_game_over() {
        let ply = moves.len();
        let mv = if position.board.has_moves() {
            let player = match position.side_to_move {
                Color::Black => black,
                Color::White => white,
            };
            let thought = player.thinker.think(&position, player.plan);
            on_thought(&position, &thought);
            thought.best_move.ok_or(ArenaError::NoMove { ply })?
        } else {
            Move::Pass
        };
        position = position.play(mv).map_err(|reason| ArenaError::IllegalEngineMove { ply, mv, reason })?;
        moves.push(mv);
    }
    Ok(GameResult::from_end(moves, position))
}

/// A single-threaded thinker with a table of 2^`hash_level` entries (for each of its two searches), with `mpc` as its
/// Multi-ProbCut model (`None`: the bundled one).
fn new_thinker(weights: &Arc<Weights>, mpc: Option<&MpcModel>, hash_level: u8) -> Result<Thinker, ArenaError> {
    let mut thinker =
        Thinker::new(Arc::clone(weights), SolveOptions::default().with_threads(1).with_hash_level(hash_level))?;
    if let Some(model) = mpc {
        thinker.set_mpc_model(model);
    }
    Ok(thinker)
}

/// One engine of a match: its evaluation weights, Multi-ProbCut model and level (or plan).
#[derive(Debug, Clone)]
pub struct MatchEngine {
    /// Evaluation weights.
    pub weights: Arc<Weights>,
    /// Multi-ProbCut model; `None` for the bundled one.
    pub mpc: Option<MpcModel>,
    /// A level's plan (`Level::into()`), or one changed for a tuning run.
    pub plan: LevelPlan,
}

/// A game of a match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchGame {
    /// The 0-based index of its opening.
    pub opening: usize,
    /// Whether engine A played Black.
    pub a_is_black: bool,
    /// The game.
    pub result: GameResult,
    /// What A's searches spent in the game.
    pub a_effort: Effort,
    /// What B's searches spent in the game.
    pub b_effort: Effort,
}

impl MatchGame {
    /// A's final disc difference in standard scoring (positive: A won).
    #[must_use]
    pub fn a_score(&self) -> i32 {
        if self.a_is_black { self.result.black_score } else { -self.result.black_score }
    }
}

/// Plays each opening twice, A as Black and then A as White, on the current rayon pool (call it inside
/// `ThreadPool::install` to choose the threads). Each game gets single-threaded thinkers with empty tables of
/// 2^`hash_level` entries: the thinkers of a finished game, cleared, go to the next game to start, so that a match
/// makes as many as it plays games at once. `on_game` is called from the worker threads as each game finishes (in no
/// fixed order); the games are returned in order: opening 0 with A as Black, opening 0 with A as White, opening 1, …
///
/// # Errors
/// The first [`ArenaError`] of a game (an illegal opening, a thinker that cannot be created).
pub fn play_match(
    openings: &[Vec<Move>],
    a: &MatchEngine,
    b: &MatchEngine,
    hash_level: u8,
    on_game: &(dyn Fn(&MatchGame) + Sync),
) -> Result<Vec<MatchGame>, ArenaError> {
    // The thinkers of finished games, cleared and handed to the next: a cleared table is a new one (the clear writes
    // nothing), and a game's four tables of 2^hash_level entries are then made once per worker, not once per game.
    let idle: Mutex<Vec<(Thinker, Thinker)>> = Mutex::new(Vec::new());
    (0..openings.len().saturating_mul(2))
        .into_par_iter()
        .map(|index| {
            let opening = index / 2;
            let a_is_black = index % 2 == 0;
            let reused = idle.lock().unwrap_or_else(std::sync::PoisonError::into_inner).pop();
            let (thinker_a, thinker_b) = match reused {
                Some(pair) => pair,
                None => (
                    new_thinker(&a.weights, a.mpc.as_ref(), hash_level)?,
                    new_thinker(&b.weights, b.mpc.as_ref(), hash_level)?,
                ),
            };
            let player_a = Player { thinker: &thinker_a, plan: a.plan };
            let player_b = Player { thinker: &thinker_b, plan: b.plan };
            let (black, white) = if a_is_black { (player_a, player_b) } else { (player_b, player_a) };
            let played = play_counting_effort(black, white, &openings[opening]);
            thinker_a.clear();
            thinker_b.clear();
            idle.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push((thinker_a, thinker_b));
            let (result, [black_effort, white_effort]) = played?;
            let (a_effort, b_effort) =
                if a_is_black { (black_effort, white_effort) } else { (white_effort, black_effort) };
            let game = MatchGame { opening, a_is_black, result, a_effort, b_effort };
            on_game(&game);
            Ok(game)
        })
        .collect()
}

/// The outcome of a match for engine A.
///
/// Confidence intervals use the normal approximation: the sample mean ± [`Z_95`] × the sample standard deviation
/// (divisor `n − 1`) / √n, treating the games as independent (the two games of an opening are in fact correlated).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MatchSummary {
    /// Games played.
    pub games: usize,
    /// Games A won.
    pub wins: usize,
    /// Drawn games.
    pub draws: usize,
    /// Games A lost.
    pub losses: usize,
    /// A's score as a fraction of the games (win 1, draw ½, loss 0); 0 without games.
    pub score: f64,
    /// Half-width of the 95 % confidence interval of `score`; `None` with fewer than two games.
    pub score_ci: Option<f64>,
    /// A's average final disc difference (standard scoring); 0 without games.
    pub mean_disc_diff: f64,
    /// Half-width of the 95 % confidence interval of `mean_disc_diff`; `None` with fewer than two games.
    pub disc_diff_ci: Option<f64>,
}

impl MatchSummary {
    /// The summary of games whose final disc differences for A are `a_scores`.
    ///
    /// # Examples
    /// ```
    /// use shirokuro_engine::tools::arena::MatchSummary;
    /// let summary = MatchSummary::from_a_scores([10, 0, -4, 2]);
    /// assert_eq!((summary.wins, summary.draws, summary.losses), (2, 1, 1));
    /// assert_eq!(summary.score, 0.625);
    /// assert_eq!(summary.mean_disc_diff, 2.0);
    /// ```
    #[must_use]
    pub fn from_a_scores(a_scores: impl IntoIterator<Item = i32>) -> MatchSummary {
        let scores: Vec<i32> = a_scores.into_iter().collect();
        let count = |sign: i32| scores.iter().filter(|s| s.signum() == sign).count();
        let points: Vec<f64> = scores.iter().map(|&s| 0.5 * f64::from(s.signum() + 1)).collect();
        let diffs: Vec<f64> = scores.iter().map(|&s| f64::from(s)).collect();
        let (score, score_ci) = mean_and_ci(&points);
        let (mean_disc_diff, disc_diff_ci) = mean_and_ci(&diffs);
        MatchSummary {
            games: scores.len(),
            wins: count(1),
            draws: count(0),
            losses: count(-1),
            score,
            score_ci,
            mean_disc_diff,
            disc_diff_ci,
        }
    }

    /// The summary of a match's games.
    #[must_use]
    pub fn from_games(games: &[MatchGame]) -> MatchSummary {
        MatchSummary::from_a_scores(games.iter().map(MatchGame::a_score))
    }

    /// The Elo difference of A over B that the score implies (logistic model), `None` at a score of 0 or 1 (or
    /// without games).
    #[must_use]
    pub fn elo(&self) -> Option<f64> {
        (self.games > 0 && self.score > 0.0 && self.score < 1.0).then(|| -400.0 * (1.0 / self.score - 1.0).log10())
    }
}

/// The mean of `values` and the half-width of its 95 % confidence interval (normal approximation, sample standard
/// deviation); `(0, None)` when empty, `(mean, None)` with one value.
fn mean_and_ci(values: &[f64]) -> (f64, Option<f64>) {
    if values.is_empty() {
        return (0.0, None);
    }
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    if values.len() < 2 {
        return (mean, None);
    }
    let variance = values.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / (n - 1.0);
    (mean, Some(Z_95 * (variance / n).sqrt()))
}

/// A self-play game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SelfPlayGame {
    /// Random moves played before the engine took over (forced passes not counted).
    pub random_moves: usize,
    /// The game.
    pub result: GameResult,
}

impl SelfPlayGame {
    /// The game as a [`RecordFormat::Egaroucid3`](crate::format::RecordFormat::Egaroucid3) line: the transcript
    /// without passes, a space, and Black's discs minus White's (empties not awarded). No line break.
    #[must_use]
    pub fn record_line(&self) -> String {
        format!("{} {}", self.result.transcript(), self.result.black_disc_diff)
    }
}

/// Plays `random_moves` uniformly random legal moves from the standard start (forced passes are made and not
/// counted; the game may end before), then `thinker` at `level` for both sides to the end. The thinker's tables are
/// cleared first.
///
/// # Errors
/// [`ArenaError::NoMove`] or [`ArenaError::IllegalEngineMove`] if the thinker fails.
pub fn selfplay_game(
    thinker: &Thinker,
    level: impl Into<LevelPlan>,
    random_moves: usize,
    rng: &mut GameRng,
) -> Result<SelfPlayGame, ArenaError> {
    selfplay_game_observed(thinker, level, random_moves, rng, &mut |_, _| {})
}

/// [`selfplay_game`], showing `on_thought` each position the thinker moved in (after the random moves) and what it
/// thought: its time and nodes.
///
/// # Errors
/// As [`selfplay_game`].
pub fn selfplay_game_observed(
    thinker: &Thinker,
    level: impl Into<LevelPlan>,
    random_moves: usize,
    rng: &mut GameRng,
    on_thought: &mut dyn FnMut(&Position, &Thought),
) -> Result<SelfPlayGame, ArenaError> {
    thinker.clear();
    let mut position = Position::INITIAL;
    let mut moves = Vec::with_capacity(64);
    let mut played = 0;
    while played < random_moves && !position.board.is_game_over() {
        let legal = position.board.moves();
        let mv = if legal.count() == 0 {
            Move::Pass
        } else {
            played += 1;
            let pick = rng.below(legal.count() as usize);
            Move::Place(legal.into_iter().nth(pick).ok_or(ArenaError::NoMove { ply: moves.len() })?)
        };
        position =
            position.play(mv).map_err(|reason| ArenaError::IllegalEngineMove { ply: moves.len(), mv, reason })?;
        moves.push(mv);
    }
    let player = Player { thinker, plan: level.into() };
    Ok(SelfPlayGame { random_moves: played, result: play_out(position, moves, player, player, on_thought)? })
}

/// How [`play_selfplay`] plays.
#[derive(Debug, Clone)]
pub struct SelfPlayOptions {
    /// Evaluation weights.
    pub weights: Arc<Weights>,
    /// The level for both sides after the random moves.
    pub level: Level,
    /// A plan that replaces the level's for a tuning run (`level-profile --plan`); `None`: the level's own.
    pub plan: Option<LevelPlan>,
    /// The fewest random moves of a game.
    pub min_random_moves: usize,
    /// The most random moves of a game (each game draws its number uniformly in `min..=max`).
    pub max_random_moves: usize,
    /// The run's seed.
    pub seed: u64,
    /// Each search's table has 2^`hash_level` entries.
    pub hash_level: u8,
}

impl SelfPlayOptions {
    /// The plan both sides play with: [`plan`](Self::plan) if set, else the level's.
    #[must_use]
    pub fn level_plan(&self) -> LevelPlan {
        self.plan.unwrap_or_else(|| self.level.into())
    }
}

/// Plays `games` self-play games on the current rayon pool (call it inside `ThreadPool::install` to choose the
/// threads). Game `i` draws its number of random moves and the moves from [`GameRng::for_game`]`(seed, i)` and gets
/// a new thinker. `on_game` is called from the worker threads as each game finishes (in no fixed order); the games
/// are returned in index order.
///
/// # Errors
/// The first [`ArenaError`] of a game.
pub fn play_selfplay(
    games: usize,
    options: &SelfPlayOptions,
    on_game: &(dyn Fn(&SelfPlayGame) + Sync),
) -> Result<Vec<SelfPlayGame>, ArenaError> {
    (0..games)
        .into_par_iter()
        .map(|index| {
            let game = play_selfplay_game(index as u64, options)?;
            on_game(&game);
            Ok(game)
        })
        .collect()
}

/// Game `index` of a self-play run with `options`, on the calling thread with a new single-threaded thinker: its
/// number of random moves and the moves come from [`GameRng::for_game`]`(seed, index)`, so the same index always
/// gives the same game, whichever thread plays it and whenever.
///
/// # Errors
/// As [`selfplay_game`], or [`ArenaError::Search`] if the thinker cannot be built.
pub fn play_selfplay_game(index: u64, options: &SelfPlayOptions) -> Result<SelfPlayGame, ArenaError> {
    play_selfplay_game_observed(index, options, None, &mut |_, _| {})
}

/// [`play_selfplay_game`] with `mpc` as the thinker's Multi-ProbCut model (`None`: the bundled one), showing
/// `on_thought` each engine move's position and thought.
///
/// # Errors
/// As [`play_selfplay_game`].
pub fn play_selfplay_game_observed(
    index: u64,
    options: &SelfPlayOptions,
    mpc: Option<&MpcModel>,
    on_thought: &mut dyn FnMut(&Position, &Thought),
) -> Result<SelfPlayGame, ArenaError> {
    let mut rng = GameRng::for_game(options.seed, index);
    let random_moves = rng.in_range(options.min_random_moves, options.max_random_moves);
    let thinker = new_thinker(&options.weights, mpc, options.hash_level)?;
    selfplay_game_observed(&thinker, options.level_plan(), random_moves, &mut rng, on_thought)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::records::{RecordFormat, RecordedResult, parse_records};

    fn zero_engine(level: u8) -> MatchEngine {
        MatchEngine { weights: Arc::new(Weights::zero()), mpc: None, plan: Level::new(level).unwrap().into() }
    }

    #[test]
    fn openings_parse_and_report_bad_lines() {
        let openings = parse_openings("# XOT\nf5d6c4d3c2b3b4b5\n\n  f5f4g3g6f3g4e3e2 \n").unwrap();
        assert_eq!(openings.len(), 2);
        assert_eq!(format_transcript(&openings[1], PassStyle::Omit), "f5f4g3g6f3g4e3e2");
        let err = parse_openings("f5d6\nf5f5\n").unwrap_err();
        assert!(matches!(err, ArenaError::Opening { line: 2, .. }), "{err}");
        assert!(err.to_string().starts_with("openings line 2: "), "{err}");
    }

    #[test]
    fn tiny_match_pairs_colours_and_counts_results() {
        let openings = parse_openings("f5d6c4d3c2b3b4b5\nf5f6d3c5d6c7b5e3\n").unwrap();
        let finished = std::sync::atomic::AtomicUsize::new(0);
        let on_game = |_: &MatchGame| {
            let _ = finished.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        };
        let games = play_match(&openings, &zero_engine(1), &zero_engine(1), 14, &on_game).unwrap();
        assert_eq!(games.len(), 4);
        assert_eq!(finished.into_inner(), 4);
        for (index, game) in games.iter().enumerate() {
            assert_eq!(game.opening, index / 2);
            assert_eq!(game.a_is_black, index % 2 == 0);
            assert!(game.result.end.board.is_game_over());
            assert_eq!(game.result.moves[..8], openings[game.opening][..]);
            assert_eq!(game.result.black_score.signum(), game.result.black_disc_diff.signum());
        }
        // Same engines on both sides: swapping colours replays the same game.
        for pair in games.chunks(2) {
            assert_eq!(pair[0].result, pair[1].result);
            assert_eq!(pair[0].a_score(), -pair[1].a_score());
            // The same searches, with the engines' roles swapped.
            assert!(pair[0].a_effort.nodes > 0 && pair[0].b_effort.nodes > 0);
            assert!(pair[0].a_effort.time > Duration::ZERO && pair[0].b_effort.time > Duration::ZERO);
            assert_eq!(
                (pair[0].a_effort.nodes, pair[0].b_effort.nodes),
                (pair[1].b_effort.nodes, pair[1].a_effort.nodes)
            );
        }
        let summary = MatchSummary::from_games(&games);
        assert_eq!(summary.games, 4);
        assert_eq!(summary.wins + summary.draws + summary.losses, 4);
        // Each opening is won once by A and once by B (or drawn twice): a score of exactly one half.
        assert_eq!(summary.wins, summary.losses);
        assert_eq!(summary.score, 0.5);
        assert_eq!(summary.mean_disc_diff, 0.0);
        // The same match again gives the same games, with the same nodes (the times differ).
        let again = play_match(&openings, &zero_engine(1), &zero_engine(1), 14, &|_| {}).unwrap();
        let searched = |games: &[MatchGame]| -> Vec<(GameResult, u64, u64)> {
            games.iter().map(|g| (g.result.clone(), g.a_effort.nodes, g.b_effort.nodes)).collect()
        };
        assert_eq!(searched(&again), searched(&games));
    }

    #[test]
    fn a_match_on_one_thread_reuses_thinkers_and_plays_as_new_ones_do() {
        let openings = parse_openings(
            "f5d6c4d3c2b3b4b5\nf5f4g3g6f3g4e3e2\nf5f6d3c5d6c7b5e3\nf5f6d3c5c6e3c4b4\nf5d6c3f4c5d3g3b5\n",
        )
        .unwrap();
        let weights = Arc::new(crate::eval::weights::bundled().expect("the shipped weights"));
        let engine = |level: u8| MatchEngine {
            weights: Arc::clone(&weights),
            mpc: None,
            plan: Level::new(level).unwrap().into(),
        };
        let (a, b) = (engine(7), engine(6));
        // One thread: every game after the first gets the thinkers of the game before, cleared.
        let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        let games = pool.install(|| play_match(&openings, &a, &b, 12, &|_| {})).unwrap();
        for game in &games {
            let fresh_a = new_thinker(&a.weights, None, 12).unwrap();
            let fresh_b = new_thinker(&b.weights, None, 12).unwrap();
            let player_a = Player { thinker: &fresh_a, plan: a.plan };
            let player_b = Player { thinker: &fresh_b, plan: b.plan };
            let (black, white) = if game.a_is_black { (player_a, player_b) } else { (player_b, player_a) };
            let (result, [black_effort, white_effort]) =
                play_counting_effort(black, white, &openings[game.opening]).unwrap();
            let (a_nodes, b_nodes) = if game.a_is_black {
                (black_effort.nodes, white_effort.nodes)
            } else {
                (white_effort.nodes, black_effort.nodes)
            };
            assert_eq!(result, game.result, "opening {}", game.opening);
            assert_eq!((a_nodes, b_nodes), (game.a_effort.nodes, game.b_effort.nodes), "opening {}", game.opening);
        }
    }

    #[test]
    fn deeper_engine_plays_legal_games_against_a_shallow_one() {
        let openings = parse_openings("f5d6c4d3c2b3b4b5\n").unwrap();
        let games = play_match(&openings, &zero_engine(2), &zero_engine(1), 14, &|_| {}).unwrap();
        assert_eq!(games.len(), 2);
        for game in &games {
            let text = game.result.transcript();
            let replay = parse_transcript(&text).unwrap();
            assert_eq!(replay.end, game.result.end);
            assert_eq!(replay.moves, game.result.moves);
        }
    }

    #[test]
    fn illegal_opening_is_an_error() {
        let thinker = new_thinker(&Arc::new(Weights::zero()), None, 12).unwrap();
        let player = Player { thinker: &thinker, plan: Level::new(1).unwrap().into() };
        let err = play_game(player, player, &[Move::Place(crate::Square::A1)]).unwrap_err();
        assert!(matches!(err, ArenaError::IllegalOpeningMove { number: 1, .. }), "{err}");
    }

    #[test]
    fn summary_statistics_on_known_scores() {
        let summary = MatchSummary::from_a_scores([10, 0, -4, 2]);
        assert_eq!((summary.games, summary.wins, summary.draws, summary.losses), (4, 2, 1, 1));
        assert!((summary.score - 0.625).abs() < 1e-12);
        // Points 1, ½, 0, 1: sample variance 0.6875 / 3.
        let score_ci = Z_95 * (0.6875f64 / 3.0 / 4.0).sqrt();
        assert!((summary.score_ci.unwrap() - score_ci).abs() < 1e-12);
        assert!((summary.score_ci.unwrap() - 0.469_14).abs() < 1e-4);
        // Differences 10, 0, -4, 2: mean 2, sample variance 104 / 3.
        assert!((summary.mean_disc_diff - 2.0).abs() < 1e-12);
        assert!((summary.disc_diff_ci.unwrap() - Z_95 * (104.0f64 / 3.0 / 4.0).sqrt()).abs() < 1e-12);
        assert!((summary.disc_diff_ci.unwrap() - 5.770).abs() < 1e-3);
        // 62.5 %: +88.7 Elo.
        assert!((summary.elo().unwrap() - 88.739).abs() < 1e-3);

        let all_draws = MatchSummary::from_a_scores([0; 10]);
        assert_eq!((all_draws.score, all_draws.score_ci, all_draws.elo()), (0.5, Some(0.0), Some(0.0)));
        let one = MatchSummary::from_a_scores([64]);
        assert_eq!((one.score, one.score_ci, one.disc_diff_ci, one.elo()), (1.0, None, None, None));
        let none = MatchSummary::from_a_scores([]);
        assert_eq!((none.games, none.score, none.score_ci, none.elo()), (0, 0.0, None, None));
    }

    fn selfplay_options(seed: u64) -> SelfPlayOptions {
        SelfPlayOptions {
            weights: Arc::new(Weights::zero()),
            level: Level::new(2).unwrap(),
            plan: None,
            min_random_moves: 6,
            max_random_moves: 12,
            seed,
            hash_level: 14,
        }
    }

    #[test]
    fn selfplay_lines_read_back_as_egaroucid3_records() {
        let games = play_selfplay(20, &selfplay_options(5), &|_| {}).unwrap();
        assert_eq!(games.len(), 20);
        let text: String = games.iter().map(|g| g.record_line() + "\n").collect();
        assert_eq!(RecordFormat::detect(&text), Some(RecordFormat::Egaroucid3));
        let records = parse_records(&text, RecordFormat::Egaroucid3).unwrap();
        assert_eq!(records.len(), 20);
        for (record, game) in records.iter().zip(&games) {
            assert!((6..=12).contains(&game.random_moves));
            assert!(record.is_finished());
            assert_eq!(record.recorded, RecordedResult::DiscDiff(game.result.black_disc_diff));
            assert_eq!(record.recorded_matches_replay(), Some(true));
            assert_eq!(record.end, game.result.end);
            assert_eq!(record.moves, game.result.moves);
            assert_eq!(record.final_black_disc_diff, Some(game.result.black_score));
        }
    }

    #[test]
    fn selfplay_is_deterministic() {
        let first: Vec<String> =
            play_selfplay(6, &selfplay_options(11), &|_| {}).unwrap().iter().map(SelfPlayGame::record_line).collect();
        // On a single thread the games are played in another order and by other workers: same output.
        let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        let second: Vec<String> = pool.install(|| {
            play_selfplay(6, &selfplay_options(11), &|_| {}).unwrap().iter().map(SelfPlayGame::record_line).collect()
        });
        assert_eq!(first, second);
        let other: Vec<String> =
            play_selfplay(6, &selfplay_options(12), &|_| {}).unwrap().iter().map(SelfPlayGame::record_line).collect();
        assert_ne!(first, other);
        // A game's first moves are its random ones: games differ from one another.
        let distinct: std::collections::HashSet<&String> = first.iter().collect();
        assert_eq!(distinct.len(), first.len());
    }

    #[test]
    fn selfplay_game_with_reused_thinker_matches_a_fresh_one() {
        let weights = Arc::new(Weights::zero());
        let level = Level::new(1).unwrap();
        let thinker = new_thinker(&weights, None, 12).unwrap();
        let first = selfplay_game(&thinker, level, 8, &mut GameRng::new(3)).unwrap();
        let fresh = new_thinker(&weights, None, 12).unwrap();
        assert_eq!(selfplay_game(&fresh, level, 8, &mut GameRng::new(3)).unwrap(), first);
        assert_eq!(first.random_moves, 8);
        assert!(first.result.end.board.is_game_over());
    }
}
