//! The player's quiz rating: Glicko-2 (the `skillratings` crate), each answer a game against the position.
//!
//! A quiz position plays the part of an opponent whose rating is its [`difficulty`] and whose deviation is small and
//! fixed ([`PROBLEM_DEVIATION`]): solving it is a win, failing it a loss. So solving a hard position raises the
//! rating more than solving an easy one, and failing an easy one lowers it more than failing a hard one.
//!
//! ```
//! use shirokuro_engine::study::rating::{self, ProblemStats, Rating};
//! let easy = rating::difficulty(&ProblemStats { empties: 8, moves: 2, best_moves: 1, gap: Some(20) });
//! let hard = rating::difficulty(&ProblemStats { empties: 30, moves: 12, best_moves: 1, gap: Some(1) });
//! assert!(hard > easy);
//! let start = Rating::default();
//! assert!(rating::update(start, hard, true).rating > rating::update(start, easy, true).rating);
//! ```

use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};

/// The deviation given to a quiz position seen as an opponent: its difficulty is an estimate, but a fixed one.
pub const PROBLEM_DEVIATION: f64 = 50.0;

/// The lowest difficulty [`difficulty`] returns.
pub const MIN_DIFFICULTY: f64 = 0.0;
/// The highest difficulty [`difficulty`] returns.
pub const MAX_DIFFICULTY: f64 = 3000.0;

/// Base of [`difficulty`]: a position with no empties, every move best.
const BASE: f64 = 800.0;
/// Added per empty square: a longer game left is harder to read.
const PER_EMPTY: f64 = 15.0;
/// Added, times the share of moves that are not best: the chance that a guess is wrong.
const GUESS_WEIGHT: f64 = 500.0;
/// Added, times `2 / (2 + gap)`: a small gap between the best and the second-best value is harder to see.
const GAP_WEIGHT: f64 = 300.0;

/// A Glicko-2 rating.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rating {
    /// The rating, 1500 at the start.
    pub rating: f64,
    /// How uncertain it is (one standard deviation), 350 at the start, smaller with every answer.
    pub deviation: f64,
    /// How erratic the results are, 0.06 at the start.
    pub volatility: f64,
}

impl Default for Rating {
    /// 1500 / 350 / 0.06, Glicko-2's start.
    fn default() -> Rating {
        Rating { rating: 1500.0, deviation: 350.0, volatility: 0.06 }
    }
}

impl Rating {
    fn to_glicko(self) -> Glicko2Rating {
        Glicko2Rating { rating: self.rating, deviation: self.deviation, volatility: self.volatility }
    }
}

/// The rating after an answer to a position of difficulty `problem_difficulty` (its rating as an opponent, see
/// [`difficulty`]): `solved` is a win, otherwise a loss.
#[must_use]
pub fn update(player: Rating, problem_difficulty: f64, solved: bool) -> Rating {
    let problem = Glicko2Rating { rating: problem_difficulty, deviation: PROBLEM_DEVIATION, volatility: 0.06 };
    let outcome = if solved { Outcomes::WIN } else { Outcomes::LOSS };
    let (after, _) = glicko2(&player.to_glicko(), &problem, &outcome, &Glicko2Config::new());
    if after.rating.is_finite() && after.deviation.is_finite() && after.volatility.is_finite() {
        Rating { rating: after.rating, deviation: after.deviation, volatility: after.volatility }
    } else {
        player
    }
}

/// What makes a quiz position hard, as [`difficulty`] reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ProblemStats {
    /// Empty squares.
    pub empties: u8,
    /// Legal moves.
    pub moves: u8,
    /// Moves with the best value.
    pub best_moves: u8,
    /// Discs between the best value and the best value of the other moves; `None` when every move is best.
    pub gap: Option<u32>,
}

/// A quiz position's difficulty on the rating scale (0–3000; a player of this rating solves it half the time):
///
/// `800 + 15 × empties + 500 × (1 − best_moves / moves) + 300 × 2 / (2 + gap)`
///
/// - more empties: harder (15 per empty);
/// - more moves and fewer best moves: harder (the chance that a guess is wrong);
/// - a smaller gap to the second-best move: harder (no gap term when every move is best).
///
/// Each term is monotone in its feature, so the sum is too. The weights are a first guess, to be fitted to answers
/// later; positions of 10 to 20 empties with one best move land around 1200–1800.
#[must_use]
pub fn difficulty(stats: &ProblemStats) -> f64 {
    let moves = f64::from(stats.moves.max(1));
    let best = f64::from(stats.best_moves.clamp(1, stats.moves.max(1)));
    let guess = 1.0 - best / moves;
    let gap = stats.gap.map_or(0.0, |gap| 2.0 / (2.0 + f64::from(gap)));
    let value = BASE + PER_EMPTY * f64::from(stats.empties) + GUESS_WEIGHT * guess + GAP_WEIGHT * gap;
    value.clamp(MIN_DIFFICULTY, MAX_DIFFICULTY)
}
