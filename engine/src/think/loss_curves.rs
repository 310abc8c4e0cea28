//! Egaroucid's "Accept AI's Loss" curves (inventory §1, §2, §6.6): two 15-point curves over the game, point `i`
//! covering the move numbers `4i + 1 ..= 4i + 4` (move number = discs on the board − 3, so the first move is 1).
//!
//! - "Max Loss per Move": how many discs a chosen move may lose against the best, one of
//!   [`MAX_LOSS_STEPS`] (129 stands for "no limit"); default 2.
//! - "Occurring Ratio (%)": how often a losing move is allowed, 0..=100 in steps of 5; default 30.
//!
//! The AI's choice (§6.6): with probability p / 100, when X > 0, a move at random among those losing at most X
//! against the best; otherwise one of the best moves at random ([`choose_with_curves`]).
//!
//! [`LossCurves`] serialises as `{ max_loss = [15 numbers], percent = [15 numbers] }` (for the app's settings
//! file). Loading checks the lengths and ranges (a typed [`LossCurvesError`]) and snaps each point to the nearest
//! allowed step, as Egaroucid's curve editor does.

use serde::{Deserialize, Serialize};

use crate::board::{Board, Move};
use crate::book::MoveValue;
use crate::book::views::choose_with_loss;
use crate::rng::GameRng;

/// Points of each curve.
pub const CURVE_POINTS: usize = 15;
/// Moves covered by one point.
pub const MOVES_PER_POINT: u32 = 4;
/// The values "Max Loss per Move" snaps to; the last one means "no limit".
pub const MAX_LOSS_STEPS: [u8; 9] = [0, 1, 2, 4, 8, 16, 32, 64, MAX_LOSS_UNLIMITED];
/// The "no limit" maximum loss (more than any loss: scores lie in −64..=64).
pub const MAX_LOSS_UNLIMITED: u8 = 129;
/// Step of "Occurring Ratio (%)".
pub const PERCENT_STEP: u8 = 5;
/// Default maximum loss of every point.
pub const DEFAULT_MAX_LOSS: u8 = 2;
/// Default occurring ratio of every point, in percent.
pub const DEFAULT_PERCENT: u8 = 30;

/// Which curve a problem is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Curve {
    /// "Max Loss per Move".
    MaxLoss,
    /// "Occurring Ratio (%)".
    Percent,
}

impl std::fmt::Display for Curve {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Curve::MaxLoss => "max_loss",
            Curve::Percent => "percent",
        })
    }
}

/// A curve that cannot be loaded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LossCurvesError {
    /// The curve does not have [`CURVE_POINTS`] points.
    #[error("{curve}: {found} points, expected {CURVE_POINTS}")]
    Length {
        /// The curve.
        curve: Curve,
        /// Points found.
        found: usize,
    },
    /// A point lies outside the curve's range (max loss 0..=129, percent 0..=100).
    #[error("{curve}[{point}] = {value} is outside 0..={max}")]
    Range {
        /// The curve.
        curve: Curve,
        /// Index of the point (0-based).
        point: usize,
        /// The value found.
        value: i64,
        /// The largest allowed value.
        max: u8,
    },
}

/// The two curves, each point snapped to its steps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "RawCurves", into = "RawCurves")]
pub struct LossCurves {
    max_loss: [u8; CURVE_POINTS],
    percent: [u8; CURVE_POINTS],
}

/// The serialised form: any integers, checked and snapped by [`LossCurves::new`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct RawCurves {
    max_loss: Vec<i64>,
    percent: Vec<i64>,
}

impl TryFrom<RawCurves> for LossCurves {
    type Error = LossCurvesError;

    fn try_from(raw: RawCurves) -> Result<LossCurves, LossCurvesError> {
        LossCurves::new(&raw.max_loss, &raw.percent)
    }
}

impl From<LossCurves> for RawCurves {
    fn from(curves: LossCurves) -> RawCurves {
        RawCurves {
            max_loss: curves.max_loss.iter().map(|&x| i64::from(x)).collect(),
            percent: curves.percent.iter().map(|&p| i64::from(p)).collect(),
        }
    }
}

impl Default for LossCurves {
    /// Egaroucid's "Default" button: 2 discs and 30 % everywhere.
    fn default() -> LossCurves {
        LossCurves::flat(DEFAULT_MAX_LOSS, DEFAULT_PERCENT)
    }
}

impl LossCurves {
    /// Curves from their points, each snapped to the nearest step (a tie goes to the smaller step).
    ///
    /// # Errors
    /// [`LossCurvesError`] for a curve without exactly [`CURVE_POINTS`] points or a point out of range.
    pub fn new(max_loss: &[i64], percent: &[i64]) -> Result<LossCurves, LossCurvesError> {
        Ok(LossCurves {
            max_loss: snap_curve(Curve::MaxLoss, max_loss, MAX_LOSS_UNLIMITED, snap_max_loss)?,
            percent: snap_curve(Curve::Percent, percent, 100, snap_percent)?,
        })
    }

    /// The same maximum loss and percentage at every point (both snapped; out of range values are clamped).
    #[must_use]
    pub fn flat(max_loss: u8, percent: u8) -> LossCurves {
        LossCurves {
            max_loss: [snap_max_loss(max_loss.min(MAX_LOSS_UNLIMITED)); CURVE_POINTS],
            percent: [snap_percent(percent.min(100)); CURVE_POINTS],
        }
    }

    /// The "Max Loss per Move" points.
    #[must_use]
    pub const fn max_loss_points(&self) -> &[u8; CURVE_POINTS] {
        &self.max_loss
    }

    /// The "Occurring Ratio (%)" points.
    #[must_use]
    pub const fn percent_points(&self) -> &[u8; CURVE_POINTS] {
        &self.percent
    }

    /// The curve point covering `move_number` (1 = the first move; numbers beyond 60 use the last point, 0 the
    /// first).
    #[must_use]
    pub fn point(move_number: u32) -> usize {
        let index = move_number.saturating_sub(1) / MOVES_PER_POINT;
        usize::try_from(index).map_or(CURVE_POINTS - 1, |i| i.min(CURVE_POINTS - 1))
    }

    /// The maximum loss at `move_number` ([`MAX_LOSS_UNLIMITED`] for no limit).
    #[must_use]
    pub fn max_loss(&self, move_number: u32) -> u8 {
        self.max_loss[Self::point(move_number)]
    }

    /// The occurring ratio at `move_number`, in percent.
    #[must_use]
    pub fn percent(&self, move_number: u32) -> u8 {
        self.percent[Self::point(move_number)]
    }
}

/// The move number of the next move on `board`: discs − 3 (1 at the initial position).
#[must_use]
pub fn move_number(board: &Board) -> u32 {
    (64 - board.empty_count()).saturating_sub(3)
}

/// The "Accept AI's Loss" choice among `moves` (the book moves of `board`): with probability p / 100 and a
/// maximum loss X > 0 taken from the curves at `board`'s move number, a move at random among those losing at most X;
/// otherwise one of the best moves at random. `None` without moves.
#[must_use]
pub fn choose_with_curves(moves: &[MoveValue], board: &Board, curves: &LossCurves, rng: &mut GameRng) -> Option<Move> {
    let number = move_number(board);
    choose_with_loss(moves, f64::from(curves.percent(number)), i32::from(curves.max_loss(number)), rng)
}

fn snap_curve(
    curve: Curve,
    values: &[i64],
    max: u8,
    snap: fn(u8) -> u8,
) -> Result<[u8; CURVE_POINTS], LossCurvesError> {
    if values.len() != CURVE_POINTS {
        return Err(LossCurvesError::Length { curve, found: values.len() });
    }
    let mut points = [0; CURVE_POINTS];
    for (point, (out, &value)) in points.iter_mut().zip(values).enumerate() {
        let v = u8::try_from(value).ok().filter(|v| *v <= max).ok_or(LossCurvesError::Range {
            curve,
            point,
            value,
            max,
        })?;
        *out = snap(v);
    }
    Ok(points)
}

/// The step of [`MAX_LOSS_STEPS`] nearest to `value` (the smaller on a tie).
fn snap_max_loss(value: u8) -> u8 {
    MAX_LOSS_STEPS.iter().copied().min_by_key(|step| (step.abs_diff(value), *step)).unwrap_or(DEFAULT_MAX_LOSS)
}

/// The multiple of [`PERCENT_STEP`] nearest to `value`.
fn snap_percent(value: u8) -> u8 {
    (value.saturating_add(PERCENT_STEP / 2) / PERCENT_STEP).saturating_mul(PERCENT_STEP).min(100)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_cover_four_moves_each() {
        assert_eq!(LossCurves::point(0), 0);
        assert_eq!(LossCurves::point(1), 0);
        assert_eq!(LossCurves::point(4), 0);
        assert_eq!(LossCurves::point(5), 1);
        assert_eq!(LossCurves::point(57), 14);
        assert_eq!(LossCurves::point(60), 14);
        assert_eq!(LossCurves::point(99), 14);
        assert_eq!(move_number(&Board::INITIAL), 1);
    }

    #[test]
    fn values_snap_to_the_steps() {
        let snapped: Vec<u8> = [0, 1, 2, 3, 5, 6, 7, 12, 13, 40, 48, 49, 96, 97, 128, 129].map(snap_max_loss).to_vec();
        assert_eq!(snapped, [0, 1, 2, 2, 4, 4, 8, 8, 16, 32, 32, 64, 64, 129, 129, 129]);
        let snapped: Vec<u8> = [0, 2, 3, 7, 8, 98, 100].map(snap_percent).to_vec();
        assert_eq!(snapped, [0, 0, 5, 5, 10, 100, 100]);
    }
}
