//! Game ▸ Review's settings: the level of its searches, where it solves exactly, and the grade thresholds.

use std::ops::RangeInclusive;

use serde::Serialize;
use shirokuro_engine::level::Level;
use shirokuro_engine::review::{ReviewOptions, Thresholds};

use super::{take, unknown_keys};
use crate::notice::Notice;

/// Levels a review searches at.
pub const REVIEW_LEVELS: RangeInclusive<u8> = 1..=30;
/// Empties from which a review solves exactly.
pub const REVIEW_EXACT: RangeInclusive<u8> = 0..=30;
/// The grade thresholds' range, in discs.
pub const REVIEW_THRESHOLDS: RangeInclusive<u8> = 0..=64;

/// How reviews search and grade.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ReviewSettings {
    /// The level of the midgame searches.
    pub level: u8,
    /// Positions with at most this many empties are solved exactly.
    pub exact_from: u8,
    /// The largest loss of a good move.
    pub good: u8,
    /// The largest loss of an inaccuracy.
    pub inaccuracy: u8,
    /// The largest loss of a mistake (above: a blunder).
    pub mistake: u8,
}

impl Default for ReviewSettings {
    fn default() -> ReviewSettings {
        let t = Thresholds::default();
        ReviewSettings { level: 10, exact_from: 20, good: t.good, inaccuracy: t.inaccuracy, mistake: t.mistake }
    }
}

impl ReviewSettings {
    /// The search options.
    #[must_use]
    pub fn options(self) -> ReviewOptions {
        ReviewOptions { level: Level::clamped(self.level), exact_from: self.exact_from }
    }

    /// The thresholds (each at least the one before).
    #[must_use]
    pub fn thresholds(self) -> Thresholds {
        Thresholds { good: self.good, inaccuracy: self.inaccuracy, mistake: self.mistake }.normalized()
    }

    /// These settings with every value in its range and the thresholds in order.
    #[must_use]
    pub fn clamped(self) -> ReviewSettings {
        let clamp = |v: u8, r: &RangeInclusive<u8>| v.clamp(*r.start(), *r.end());
        let t = Thresholds {
            good: clamp(self.good, &REVIEW_THRESHOLDS),
            inaccuracy: clamp(self.inaccuracy, &REVIEW_THRESHOLDS),
            mistake: clamp(self.mistake, &REVIEW_THRESHOLDS),
        }
        .normalized();
        ReviewSettings {
            level: clamp(self.level, &REVIEW_LEVELS),
            exact_from: clamp(self.exact_from, &REVIEW_EXACT),
            good: t.good,
            inaccuracy: t.inaccuracy,
            mistake: t.mistake,
        }
    }

    /// Reads the `[review]` table value by value.
    pub(super) fn from_table(mut t: toml::Table, notices: &mut Vec<Notice>) -> ReviewSettings {
        let d = ReviewSettings::default();
        let p = "review.";
        let level = take(&mut t, p, "level", |v| REVIEW_LEVELS.contains(v), notices).unwrap_or(d.level);
        let exact_from = take(&mut t, p, "exact_from", |v| REVIEW_EXACT.contains(v), notices).unwrap_or(d.exact_from);
        let threshold = |v: &u8| REVIEW_THRESHOLDS.contains(v);
        let good = take(&mut t, p, "good", threshold, notices).unwrap_or(d.good);
        let inaccuracy = take(&mut t, p, "inaccuracy", threshold, notices).unwrap_or(d.inaccuracy);
        let mistake = take(&mut t, p, "mistake", threshold, notices).unwrap_or(d.mistake);
        unknown_keys(t, p, notices);
        ReviewSettings { level, exact_from, good, inaccuracy, mistake }.clamped()
    }
}
