//! AI levels 1–60 with Egaroucid's meaning (`src/engine/level.hpp`, Egaroucid 7.x): which search a level runs at each
//! number of empty squares.
//!
//! A level is a midgame depth (always equal to the level) searched at a midgame [`Selectivity`], then up to five
//! endgame stages `(E_k, p_k)` with `E_0 ≥ E_1 ≥ …`. With `e` empty squares:
//! - if `e > E_0`, a **midgame** search to depth = level at the midgame selectivity;
//! - otherwise an **endgame** search to the end of the game (depth `e`) at the selectivity `p_k` of the *last* stage
//!   with `e ≤ E_k`; 100 % ([`Selectivity::Exact`]) means an exact solve.
//!
//! The move about to be played is number `61 - e` (move 1 has 60 empties).
//!
//! | levels | midgame     | endgame stages (`E@p`, "from E empties at p %")                       |
//! |--------|-------------|-----------------------------------------------------------------------|
//! | 1–10   | L @ 100 %   | 2L@100 (no Multi-ProbCut anywhere; exact from 2L empties)            |
//! | 11, 12 | L @ 74 %    | 25@98 23@99 21@100                                                    |
//! | 27, 28 | L @ 74 %    | 36@88 34@93 32@98 30@99 28@100                                        |
//! | 37     | 37 @ 74 %   | 40@93 36@98 36@99 34@100 (the 98 % stage is empty, see below)         |
//! | 56     | never used  | 60@88 58@93 56@98 54@99 52@100                                        |
//! | 60     | never used  | 60@100 (perfect play from move 1)                                     |
//!
//! The full table is [`Level::stages`] for every level. Two quirks are kept exactly as Egaroucid has them:
//! - **level 37** lists `36@98` then `36@99`: the 98 % stage covers no empties count (a typo for 38, as level 38
//!   has it), so level 37 goes from 93 % straight to 99 % at 36 empties. [`Level::stages`] still returns the empty
//!   stage; [`Level::plan`] never selects it.
//! - **levels 56–60** begin the endgame search at 60 empties, so their midgame depth and selectivity (kept in the
//!   table: 56 and 57 at 88 %, 58 and 59 at 93 %, 60 at 100 %) are never used ([`Level::uses_midgame`] is false).
//!
//! Level 0 exists in Egaroucid's table but is never used: the engine clamps levels to 1..=60 ([`Level::clamped`]).
//!
//! **The table is kept as Egaroucid has it, on purpose.** Matches (docs/benchmarks.md, issue 32 item 4) show that the
//! middle levels spend most of their time in the first selective endgame stage and that a deeper midgame with later
//! stages would be stronger at the same time (`21@74;25@98,23@99,21@100` scores 74 % against level 15 with two
//! thirds of its time). The table still does not change: a level number is stored in book files and read by
//! Egaroucid, it names hints and reviews, and matches against other engines compare like with like only at the same
//! plan. Other plans are available as [`LevelPlan`]s for tuning (`match --plan-a`, `level-profile --plan`).
//!
//! ```
//! use shirokuro_engine::level::{Level, SearchPlan, Selectivity};
//! let level = Level::new(27)?;
//! assert_eq!(level.plan(40), SearchPlan::Midgame { depth: 27, selectivity: Selectivity::P74 });
//! assert_eq!(level.plan(36), SearchPlan::Endgame { selectivity: Selectivity::P88 });
//! assert_eq!(level.plan(28), SearchPlan::Endgame { selectivity: Selectivity::Exact });
//! assert_eq!((level.endgame_start(), level.exact_from()), (36, 28));
//! # Ok::<(), shirokuro_engine::level::LevelError>(())
//! ```

use std::fmt;
use std::str::FromStr;

mod plan;

pub use plan::{LevelPlan, LevelPlanError, MAX_STAGES};

/// The confidence of a Multi-ProbCut search: the probability that a cut it makes agrees with the full search.
///
/// The variants are ordered from the most selective (fastest, least reliable) to [`Selectivity::Exact`]. Their
/// [`index`](Self::index) is Egaroucid's `mpc_level` (0 = 74 % … 6 = 100 %).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Selectivity {
    /// 74 %.
    P74,
    /// 88 %.
    P88,
    /// 93 %.
    P93,
    /// 98 %.
    P98,
    /// 99 %.
    P99,
    /// 99.9 % (used by no level; Egaroucid's graph legend hides it too).
    P99_9,
    /// 100 %: no Multi-ProbCut. An endgame search at this selectivity is exact; a midgame search is a plain
    /// alpha-beta search to its depth.
    Exact,
}

impl Selectivity {
    /// Every selectivity, by [`index`](Self::index).
    pub const ALL: [Selectivity; 7] = [
        Selectivity::P74,
        Selectivity::P88,
        Selectivity::P93,
        Selectivity::P98,
        Selectivity::P99,
        Selectivity::P99_9,
        Selectivity::Exact,
    ];

    /// Egaroucid's index of this selectivity (0 = 74 %, …, 5 = 99.9 %, 6 = 100 %).
    #[must_use]
    pub const fn index(self) -> u8 {
        self as u8
    }

    /// The selectivity of an [`index`](Self::index), or `None` above 6.
    #[must_use]
    pub const fn from_index(index: u8) -> Option<Selectivity> {
        if (index as usize) < Self::ALL.len() { Some(Self::ALL[index as usize]) } else { None }
    }

    /// The confidence in percent: 74, 88, 93, 98, 99, 99.9 or 100.
    #[must_use]
    pub const fn percent(self) -> f64 {
        match self {
            Selectivity::P74 => 74.0,
            Selectivity::P88 => 88.0,
            Selectivity::P93 => 93.0,
            Selectivity::P98 => 98.0,
            Selectivity::P99 => 99.0,
            Selectivity::P99_9 => 99.9,
            Selectivity::Exact => 100.0,
        }
    }

    /// Whether this is [`Selectivity::Exact`] (no Multi-ProbCut).
    #[must_use]
    pub const fn is_exact(self) -> bool {
        matches!(self, Selectivity::Exact)
    }
}

/// Writes the percentage as Egaroucid shows it: `74%`, `99.9%`, `100%`.
impl fmt::Display for Selectivity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Selectivity::P99_9 => f.write_str("99.9%"),
            other => write!(f, "{}%", other.percent()),
        }
    }
}

/// One endgame stage of a level: from `empties` empty squares down (until the next stage), search to the end of the
/// game at `selectivity`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct EndgameStage {
    /// The stage applies at this many empty squares or fewer (`E_k`).
    pub empties: u8,
    /// Its selectivity (`p_k`).
    pub selectivity: Selectivity,
}

/// The search a level runs for a position, from [`Level::plan`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SearchPlan {
    /// A depth-limited midgame search.
    ///
    /// `depth` is the level and may reach or exceed the empties (e.g. level 51 at 49 empties): the search then runs
    /// to the end of the game, still at the midgame selectivity, as in Egaroucid.
    Midgame {
        /// Depth in plies.
        depth: u8,
        /// Multi-ProbCut selectivity.
        selectivity: Selectivity,
    },
    /// A search to the end of the game (depth = empties); exact at [`Selectivity::Exact`].
    Endgame {
        /// Multi-ProbCut selectivity.
        selectivity: Selectivity,
    },
}

impl SearchPlan {
    /// The plan's selectivity.
    #[must_use]
    pub const fn selectivity(self) -> Selectivity {
        match self {
            SearchPlan::Midgame { selectivity, .. } | SearchPlan::Endgame { selectivity } => selectivity,
        }
    }

    /// Whether this is an endgame search (to the end of the game).
    #[must_use]
    pub const fn is_endgame(self) -> bool {
        matches!(self, SearchPlan::Endgame { .. })
    }

    /// Whether this is an exact endgame solve.
    #[must_use]
    pub const fn is_exact(self) -> bool {
        matches!(self, SearchPlan::Endgame { selectivity: Selectivity::Exact })
    }
}

/// The category of a level shown in Egaroucid's info panel ("Level 21 (Standard)").
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LevelCategory {
    /// Levels 1–15.
    Light,
    /// Levels 16–21.
    Standard,
    /// Levels 22–25.
    Pragmatic,
    /// Levels 26–40.
    Accurate,
    /// Levels 41–60.
    Danger,
}

impl LevelCategory {
    /// The English name Egaroucid shows: `Light`, `Standard`, `Pragmatic`, `Accurate` or `Danger`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            LevelCategory::Light => "Light",
            LevelCategory::Standard => "Standard",
            LevelCategory::Pragmatic => "Pragmatic",
            LevelCategory::Accurate => "Accurate",
            LevelCategory::Danger => "Danger",
        }
    }
}

impl fmt::Display for LevelCategory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A level that is not 1–60.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LevelError {
    /// The number is outside 1..=60.
    #[error("level {0} is out of range (expected 1 to 60)")]
    OutOfRange(i64),
    /// The text is not a whole number.
    #[error("{0:?} is not a level (expected a number from 1 to 60)")]
    NotANumber(String),
}

/// An AI level, 1..=60 (Egaroucid's meaning; see the [module docs](self)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

impl Level {
    /// The weakest level, 1.
    pub const MIN: Level = Level(1);
    /// The strongest level, 60 (perfect play from move 1).
    pub const MAX: Level = Level(60);
    /// Egaroucid's default level, 21.
    pub const DEFAULT: Level = Level(21);

    /// The level `n`.
    ///
    /// # Errors
    /// [`LevelError::OutOfRange`] unless `1 <= n <= 60`.
    pub const fn new(n: u8) -> Result<Level, LevelError> {
        if n >= Self::MIN.0 && n <= Self::MAX.0 { Ok(Level(n)) } else { Err(LevelError::OutOfRange(n as i64)) }
    }

    /// The level `n` clamped to 1..=60, as Egaroucid treats out-of-range levels (level 0 becomes 1).
    #[must_use]
    pub const fn clamped(n: u8) -> Level {
        if n < Self::MIN.0 {
            Self::MIN
        } else if n > Self::MAX.0 {
            Self::MAX
        } else {
            Level(n)
        }
    }

    /// The level's number, 1..=60.
    #[must_use]
    pub const fn get(self) -> u8 {
        self.0
    }

    /// Every level, 1 to 60.
    pub fn all() -> impl DoubleEndedIterator<Item = Level> + ExactSizeIterator + Clone {
        (Self::MIN.0..=Self::MAX.0).map(Level)
    }

    const fn definition(self) -> &'static Definition {
        &DEFINITIONS[(self.0 - 1) as usize]
    }

    /// The midgame search depth in plies (Egaroucid's `mid_lookahead`), always equal to the level. Unused by levels
    /// 56–60 (see [`uses_midgame`](Self::uses_midgame)).
    #[must_use]
    pub const fn midgame_depth(self) -> u8 {
        self.0
    }

    /// The midgame selectivity: 100 % (no Multi-ProbCut) for levels 1–10, 74 % for levels 11–55. Levels 56–60
    /// keep a value in the table (88, 88, 93, 93, 100 %) that is never used.
    #[must_use]
    pub const fn midgame_selectivity(self) -> Selectivity {
        self.definition().midgame
    }

    /// The endgame stages, from the most empties down (`E_0 ≥ E_1 ≥ …`); the last one is always exact.
    ///
    /// Level 37's list contains a stage that covers no empties count (see the [module docs](self)).
    #[must_use]
    pub const fn stages(self) -> &'static [EndgameStage] {
        self.definition().stages
    }

    /// The empties count at which the endgame search begins (`E_0`, Egaroucid's `get_level_endsearch_depth`): a
    /// position with more empties gets a midgame search.
    #[must_use]
    pub const fn endgame_start(self) -> u8 {
        self.stages()[0].empties
    }

    /// The empties count from which the endgame search is exact (the first 100 % stage, Egaroucid's
    /// `get_level_complete_depth`).
    #[must_use]
    pub fn exact_from(self) -> u8 {
        self.stages().iter().find(|stage| stage.selectivity.is_exact()).map_or(0, |stage| stage.empties)
    }

    /// Whether a game from the initial position (60 empties) ever gets a midgame search: false for levels 56–60.
    #[must_use]
    pub const fn uses_midgame(self) -> bool {
        self.endgame_start() < 60
    }

    /// The category of the level.
    #[must_use]
    pub const fn category(self) -> LevelCategory {
        match self.0 {
            ..=15 => LevelCategory::Light,
            16..=21 => LevelCategory::Standard,
            22..=25 => LevelCategory::Pragmatic,
            26..=40 => LevelCategory::Accurate,
            _ => LevelCategory::Danger,
        }
    }

    /// The search this level runs for a position with `empties` empty squares (Egaroucid's `get_level`).
    ///
    /// Any count is accepted: above the endgame start it is a midgame search, and 0 empties (a finished game) falls
    /// in the last, exact, stage.
    #[must_use]
    pub fn plan(self, empties: u8) -> SearchPlan {
        plan_of(self.midgame_depth(), self.midgame_selectivity(), self.stages(), empties)
    }
}

/// The search for `empties` empty squares under a midgame depth and selectivity and endgame stages (non-empty, from
/// the most empties down): [`Level::plan`] and [`LevelPlan::plan`].
fn plan_of(depth: u8, midgame: Selectivity, stages: &[EndgameStage], empties: u8) -> SearchPlan {
    if stages.first().is_none_or(|first| empties > first.empties) {
        return SearchPlan::Midgame { depth, selectivity: midgame };
    }
    // The stages' empties never increase, so the last stage with `empties <= E_k` is the one Egaroucid's cascade of
    // `n_empties > complete_{k+1}` tests picks.
    let selectivity =
        stages.iter().rev().find(|stage| empties <= stage.empties).map_or(Selectivity::Exact, |s| s.selectivity);
    SearchPlan::Endgame { selectivity }
}

impl Default for Level {
    fn default() -> Self {
        Self::DEFAULT
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl TryFrom<u8> for Level {
    type Error = LevelError;

    fn try_from(n: u8) -> Result<Self, Self::Error> {
        Level::new(n)
    }
}

impl From<Level> for u8 {
    fn from(level: Level) -> u8 {
        level.0
    }
}

/// Parses a decimal level such as `21` (surrounding whitespace allowed).
impl FromStr for Level {
    type Err = LevelError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let n: i64 = s.trim().parse().map_err(|_| LevelError::NotANumber(s.to_owned()))?;
        match u8::try_from(n) {
            Ok(n) => Level::new(n),
            Err(_) => Err(LevelError::OutOfRange(n)),
        }
    }
}

/// One row of Egaroucid's `level_definition` (the midgame depth is the level itself).
struct Definition {
    midgame: Selectivity,
    stages: &'static [EndgameStage],
}

const fn row(midgame: Selectivity, stages: &'static [EndgameStage]) -> Definition {
    Definition { midgame, stages }
}

const fn s(empties: u8, selectivity: Selectivity) -> EndgameStage {
    EndgameStage { empties, selectivity }
}

// Short names for the table below (P100 = Exact, as Egaroucid's MPC_100_LEVEL).
use Selectivity::{Exact as P100, P74, P88, P93, P98, P99};

/// Levels 1..=60 (index = level - 1), transcribed from Egaroucid 7.x `level.hpp` (see the module docs).
static DEFINITIONS: [Definition; 60] = [
    // 1-10: no Multi-ProbCut; exact from 2L empties.
    row(P100, &[s(2, P100)]),
    row(P100, &[s(4, P100)]),
    row(P100, &[s(6, P100)]),
    row(P100, &[s(8, P100)]),
    row(P100, &[s(10, P100)]),
    row(P100, &[s(12, P100)]),
    row(P100, &[s(14, P100)]),
    row(P100, &[s(16, P100)]),
    row(P100, &[s(18, P100)]),
    row(P100, &[s(20, P100)]),
    // 11-20
    row(P74, &[s(25, P98), s(23, P99), s(21, P100)]),
    row(P74, &[s(25, P98), s(23, P99), s(21, P100)]),
    row(P74, &[s(27, P93), s(25, P98), s(23, P99), s(21, P100)]),
    row(P74, &[s(27, P93), s(25, P98), s(23, P99), s(21, P100)]),
    row(P74, &[s(27, P98), s(24, P99), s(22, P100)]),
    row(P74, &[s(27, P98), s(24, P99), s(22, P100)]),
    row(P74, &[s(27, P98), s(24, P99), s(22, P100)]),
    row(P74, &[s(29, P93), s(27, P98), s(24, P99), s(22, P100)]),
    row(P74, &[s(29, P93), s(27, P98), s(24, P99), s(22, P100)]),
    row(P74, &[s(30, P93), s(28, P98), s(26, P99), s(24, P100)]),
    // 21-30
    row(P74, &[s(30, P93), s(28, P98), s(26, P99), s(24, P100)]),
    row(P74, &[s(30, P93), s(28, P98), s(26, P99), s(24, P100)]),
    row(P74, &[s(32, P93), s(30, P98), s(28, P99), s(26, P100)]),
    row(P74, &[s(32, P93), s(30, P98), s(28, P99), s(26, P100)]),
    row(P74, &[s(34, P88), s(32, P93), s(30, P98), s(28, P99), s(26, P100)]),
    row(P74, &[s(34, P88), s(32, P93), s(30, P98), s(28, P99), s(26, P100)]),
    row(P74, &[s(36, P88), s(34, P93), s(32, P98), s(30, P99), s(28, P100)]),
    row(P74, &[s(36, P88), s(34, P93), s(32, P98), s(30, P99), s(28, P100)]),
    row(P74, &[s(36, P93), s(34, P98), s(32, P99), s(30, P100)]),
    row(P74, &[s(36, P93), s(34, P98), s(32, P99), s(30, P100)]),
    // 31-40
    row(P74, &[s(38, P88), s(36, P93), s(34, P98), s(32, P99), s(30, P100)]),
    row(P74, &[s(38, P88), s(36, P93), s(34, P98), s(32, P99), s(30, P100)]),
    row(P74, &[s(38, P93), s(36, P98), s(34, P99), s(32, P100)]),
    row(P74, &[s(38, P93), s(36, P98), s(34, P99), s(32, P100)]),
    row(P74, &[s(40, P88), s(38, P93), s(36, P98), s(34, P99), s(32, P100)]),
    row(P74, &[s(40, P88), s(38, P93), s(36, P98), s(34, P99), s(32, P100)]),
    // Level 37: Egaroucid's row reads 36@98 where level 38 has 38@98, so the 98 % stage is empty. Kept as is.
    row(P74, &[s(40, P93), s(36, P98), s(36, P99), s(34, P100)]),
    row(P74, &[s(40, P93), s(38, P98), s(36, P99), s(34, P100)]),
    row(P74, &[s(42, P88), s(40, P93), s(38, P98), s(36, P99), s(34, P100)]),
    row(P74, &[s(42, P88), s(40, P93), s(38, P98), s(36, P99), s(34, P100)]),
    // 41-50
    row(P74, &[s(42, P93), s(40, P98), s(38, P99), s(36, P100)]),
    row(P74, &[s(42, P93), s(40, P98), s(38, P99), s(36, P100)]),
    row(P74, &[s(44, P88), s(42, P93), s(40, P98), s(38, P99), s(36, P100)]),
    row(P74, &[s(44, P88), s(42, P93), s(40, P98), s(38, P99), s(36, P100)]),
    row(P74, &[s(44, P93), s(42, P98), s(40, P99), s(38, P100)]),
    row(P74, &[s(44, P93), s(42, P98), s(40, P99), s(38, P100)]),
    row(P74, &[s(46, P88), s(44, P93), s(42, P98), s(40, P99), s(38, P100)]),
    row(P74, &[s(46, P88), s(44, P93), s(42, P98), s(40, P99), s(38, P100)]),
    row(P74, &[s(46, P93), s(44, P98), s(42, P99), s(40, P100)]),
    row(P74, &[s(46, P93), s(44, P98), s(42, P99), s(40, P100)]),
    // 51-60; 56-60 begin the endgame at 60 empties, so their midgame selectivity is never used.
    row(P74, &[s(48, P88), s(46, P93), s(44, P98), s(42, P99), s(40, P100)]),
    row(P74, &[s(50, P88), s(48, P93), s(46, P98), s(44, P99), s(42, P100)]),
    row(P74, &[s(54, P88), s(52, P93), s(50, P98), s(48, P99), s(46, P100)]),
    row(P74, &[s(56, P88), s(54, P93), s(52, P98), s(50, P99), s(48, P100)]),
    row(P74, &[s(58, P88), s(56, P93), s(54, P98), s(52, P99), s(50, P100)]),
    row(P88, &[s(60, P88), s(58, P93), s(56, P98), s(54, P99), s(52, P100)]),
    row(P88, &[s(60, P93), s(58, P98), s(56, P99), s(54, P100)]),
    row(P93, &[s(60, P98), s(58, P99), s(56, P100)]),
    row(P93, &[s(60, P99), s(58, P100)]),
    row(P100, &[s(60, P100)]),
];

#[cfg(test)]
mod tests;
