//! The evaluation's lean by the parity of the empty squares, measured and removed.
//!
//! The evaluation cannot see whose colour is to move, only the side to move's discs and the parity of the empties.
//! In a game without passes that parity *is* the colour: an even number of empties means Black to move. So when the
//! labels a file was trained on lean to one colour (human games that White wins more often, self-play whose random
//! openings give Black one more bad move, depth-limited labels that inherit an earlier file's lean), the parity half
//! of the disc-count table learns it, and the evaluation over-values one colour's positions and under-values the
//! other's at the same stage of the game.
//!
//! [`measure`] gives, for each phase, the mean error (evaluation − label) of its even-empties and its odd-empties
//! positions. A phase spans two disc counts, one of each parity, and everything but the disc-count table is shared
//! by them, so [`remove`] can take half the difference off one and add it to the other: it moves the disc-count
//! entries of each parity by a constant, which shifts exactly the positions of that parity in that phase and leaves
//! the phase's mean error where it was.

use std::ops::RangeInclusive;

use crate::Board;
use crate::eval::{DISC_TABLE, Evaluator, PHASES, SCALE, Weights, phase};

/// Positions and the sum of their errors (evaluation − label, discs).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ErrorSum {
    /// Positions.
    pub count: usize,
    /// Sum of evaluation − label.
    pub sum: f64,
}

impl ErrorSum {
    /// The mean error (`None` without positions).
    #[must_use]
    pub fn mean(&self) -> Option<f64> {
        (self.count > 0).then(|| self.sum / self.count as f64)
    }
}

/// One phase's errors by the parity of the empties.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PhaseErrors {
    /// Positions with an even number of empties (Black to move, in a game without passes).
    pub even: ErrorSum,
    /// Positions with an odd number of empties.
    pub odd: ErrorSum,
}

impl PhaseErrors {
    /// The lean: half the difference of the two means, even minus odd (`None` unless both parities have at least
    /// `min_positions` positions). Removing it moves both means to their average.
    #[must_use]
    pub fn lean(&self, min_positions: usize) -> Option<f64> {
        if self.even.count < min_positions.max(1) || self.odd.count < min_positions.max(1) {
            return None;
        }
        Some((self.even.mean()? - self.odd.mean()?) / 2.0)
    }
}

/// The evaluation of `board` (side to move's view) in discs, before rounding, clamped as the evaluation is.
fn evaluate(evaluator: &Evaluator, board: &Board) -> f64 {
    let scaled = super::label::evaluate_scaled(evaluator, board);
    (f64::from(scaled - SCALE / 2) / f64::from(SCALE)).clamp(-64.0, 64.0)
}

/// The errors of `weights` against `labels` (side to move's view), by phase and parity.
#[must_use]
pub fn measure(weights: &Weights, labels: &[(Board, i32)]) -> Vec<PhaseErrors> {
    let evaluator = Evaluator::new(weights);
    let mut phases = vec![PhaseErrors::default(); PHASES];
    for (board, label) in labels {
        let empties = board.empty_count();
        let errors = &mut phases[phase(64 - empties)];
        let side = if empties.is_multiple_of(2) { &mut errors.even } else { &mut errors.odd };
        side.count += 1;
        side.sum += evaluate(&evaluator, board) - f64::from(*label);
    }
    phases
}

/// `weights` with the lean of each phase in `phases` that has at least `min_positions` positions of each parity
/// taken off, and the shift applied to each phase (in 1/[`SCALE`] disc: even-empties positions move by minus it,
/// odd-empties ones by plus it; `None` where the phase was left alone).
#[must_use]
pub fn remove(
    weights: &Weights,
    errors: &[PhaseErrors],
    phases: RangeInclusive<usize>,
    min_positions: usize,
) -> (Weights, Vec<Option<i32>>) {
    let mut corrected = weights.clone();
    let mut shifts = vec![None; PHASES];
    for (p, errors) in errors.iter().enumerate().take(PHASES) {
        if !phases.contains(&p) {
            continue;
        }
        let Some(lean) = errors.lean(min_positions) else { continue };
        // Weights are i16 in 1/256 disc; a lean is a few discs at most.
        let shift = (lean * f64::from(SCALE)).round().clamp(-16_000.0, 16_000.0) as i32;
        let half = DISC_TABLE / 2;
        for (k, weight) in corrected.discs[p].iter_mut().enumerate() {
            let delta = if k < half { -shift } else { shift };
            *weight = i16::try_from(i32::from(*weight) + delta).unwrap_or(if delta > 0 { i16::MAX } else { i16::MIN });
        }
        shifts[p] = Some(shift);
    }
    (corrected, shifts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::weights;
    use crate::rng::GameRng;
    use crate::{Move, Position};

    /// Positions of a few random games, each labelled with the evaluation's own value moved by `even` discs where
    /// the empties are even and by `odd` where they are odd.
    fn labels(weights: &Weights, even: i32, odd: i32) -> Vec<(Board, i32)> {
        let evaluator = Evaluator::new(weights);
        let mut labels = Vec::new();
        for game in 0..40 {
            let mut rng = GameRng::for_game(7, game);
            let mut position = Position::INITIAL;
            while !position.board.is_game_over() {
                let moves: Vec<_> = position.board.moves().into_iter().collect();
                if moves.is_empty() {
                    position = position.play(Move::Pass).expect("a pass");
                    continue;
                }
                let value = evaluate(&evaluator, &position.board).round() as i32;
                let shift = if position.board.empty_count().is_multiple_of(2) { even } else { odd };
                labels.push((position.board, value + shift));
                let square = moves[rng.below(moves.len())];
                position = position.play(Move::Place(square)).expect("legal");
            }
        }
        labels
    }

    #[test]
    fn the_lean_is_half_the_difference_of_the_two_parities() {
        let weights = weights::bundled().expect("the shipped weights");
        // Labels 3 below the evaluation at even empties, 1 above at odd: errors about +3 and -1, lean +2.
        let errors = measure(&weights, &labels(&weights, -3, 1));
        for (p, phase) in errors.iter().enumerate().take(29) {
            let lean = phase.lean(1).expect("both parities in every phase");
            assert!((lean - 2.0).abs() < 0.5, "phase {p}: {lean}");
        }
        assert_eq!(errors[3].lean(1_000_000), None, "too few positions");
    }

    #[test]
    fn removing_the_lean_evens_the_parities_and_keeps_their_mean() {
        let weights = weights::bundled().expect("the shipped weights");
        let labels = labels(&weights, -3, 1);
        let before = measure(&weights, &labels);
        let (corrected, shifts) = remove(&weights, &before, 2..=27, 1);
        let after = measure(&corrected, &labels);
        for p in 0..PHASES {
            let (b, a) = (before[p], after[p]);
            if (2..=27).contains(&p) {
                assert!(shifts[p].is_some());
                assert!(a.lean(1).expect("both parities").abs() < 0.05, "phase {p}: {:?}", a.lean(1));
                let mean = |e: PhaseErrors| (e.even.mean().expect("even") + e.odd.mean().expect("odd")) / 2.0;
                assert!((mean(a) - mean(b)).abs() < 0.1, "phase {p}: {} then {}", mean(b), mean(a));
            } else {
                assert_eq!(shifts[p], None);
                assert_eq!(a, b, "phase {p} is left alone");
                assert_eq!(corrected.discs[p], weights.discs[p]);
            }
        }
        assert_eq!(corrected.patterns, weights.patterns, "only the disc-count table changes");
        assert_eq!(corrected.bias, weights.bias);
    }
}
