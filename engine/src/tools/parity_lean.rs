//! The evaluation's lean by the parity of the empty squares, measured and removed.
//!
//! The evaluation cannot see whose colour is to move, only the side to move's discs and the parity of the empties.
//! In a game without passes that parity *is* the colour: an even number of empties means Black to move. So when the
//! labels a file was trained on lean to one colour (human games that White wins more often, self-play whose random
//! openings give Black one more bad move, depth-limited labels that inherit an earlier file's lean), the parity half
//! of the disc-count table learns it, and the evaluation over-values one colour's positions and under-values the
//! other's at the same stage of the game.
//!
//! [`measure`] gives, for each pair of disc counts `4 + 2p` and `5 + 2p` (p = 0–29: a *stage*, the phase of a
//! 30-phase evaluation), the mean error (evaluation − label) of its even-empties and its odd-empties positions. In a
//! 30-phase evaluation the two disc counts of a stage share everything but the disc-count table, so [`remove`] can
//! take half the difference off one and add it to the other: it moves the disc-count entries of each parity by a
//! constant, which shifts exactly the positions of that parity in that stage and leaves the stage's mean error where
//! it was. With 60 phases the two disc counts have a phase each and nothing is shared, but the labels' lean is
//! learnt the same way (one colour's positions over-valued, the other's under-valued), and moving each phase's
//! disc-count table by the same constants removes it the same way. Evaluations whose phases straddle two stages
//! (fewer than 30 phases, or a count that does not divide 60) are left alone.

use std::ops::RangeInclusive;

use crate::Board;
use crate::eval::{DISC_TABLE, Evaluator, SCALE, Weights, first_discs, phase};

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

/// Number of stages (pairs of disc counts) the lean is measured and removed by.
pub const STAGES: usize = 30;

/// The stage (0–29) of a position with `discs` discs: `(discs − 4) / 2`, a full board in the last one.
#[must_use]
pub fn stage(discs: u32) -> usize {
    phase(discs, STAGES)
}

/// The errors of `weights` against `labels` (side to move's view), by stage and parity.
#[must_use]
pub fn measure(weights: &Weights, labels: &[(Board, i32)]) -> Vec<PhaseErrors> {
    let evaluator = Evaluator::new(weights);
    let mut phases = vec![PhaseErrors::default(); STAGES];
    for (board, label) in labels {
        let empties = board.empty_count();
        let errors = &mut phases[stage(64 - empties)];
        let side = if empties.is_multiple_of(2) { &mut errors.even } else { &mut errors.odd };
        side.count += 1;
        side.sum += evaluate(&evaluator, board) - f64::from(*label);
    }
    phases
}

/// The phases of `weights` that evaluate stage `stage`'s positions, if none of them evaluates another stage's.
fn phases_of_stage(weights: &Weights, stage: usize) -> Option<Vec<usize>> {
    let (low, high) = (4 + 2 * stage as u32, 5 + 2 * stage as u32);
    let count = weights.phases();
    let mut phases = vec![weights.phase(low)];
    if weights.phase(high) != phases[0] {
        phases.push(weights.phase(high));
    }
    // A phase starts at or after the stage's first disc count and the next one starts by the next stage's (the last
    // phase, which also holds the full board, ends after the last stage).
    let limit = if stage + 1 == STAGES { 65 } else { high + 1 };
    let next = |q: usize| if q + 1 >= count { 65 } else { first_discs(q + 1, count) };
    let inside = |q: usize| first_discs(q, count) >= low && next(q) <= limit;
    phases.iter().all(|&q| inside(q)).then_some(phases)
}

/// `weights` with the lean of each stage in `stages` that has at least `min_positions` positions of each parity
/// taken off, and the shift applied to each stage (in 1/[`SCALE`] disc: even-empties positions move by minus it,
/// odd-empties ones by plus it; `None` where the stage was left alone, or where a phase of `weights` also
/// evaluates another stage).
#[must_use]
pub fn remove(
    weights: &Weights,
    errors: &[PhaseErrors],
    stages: RangeInclusive<usize>,
    min_positions: usize,
) -> (Weights, Vec<Option<i32>>) {
    let mut corrected = weights.clone();
    let mut shifts = vec![None; STAGES];
    for (p, errors) in errors.iter().enumerate().take(STAGES) {
        if !stages.contains(&p) {
            continue;
        }
        let Some(lean) = errors.lean(min_positions) else { continue };
        let Some(phases) = phases_of_stage(weights, p) else { continue };
        // Weights are i16 in 1/256 disc; a lean is a few discs at most.
        let shift = (lean * f64::from(SCALE)).round().clamp(-16_000.0, 16_000.0) as i32;
        let half = DISC_TABLE / 2;
        for q in phases {
            for (k, weight) in corrected.discs[q].iter_mut().enumerate() {
                let delta = if k < half { -shift } else { shift };
                *weight =
                    i16::try_from(i32::from(*weight) + delta).unwrap_or(if delta > 0 { i16::MAX } else { i16::MIN });
            }
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
        for p in 0..STAGES {
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

    /// With one disc count a phase, the lean is measured by pairs of disc counts and removed from both phases; an
    /// evaluation whose phases straddle two stages is left alone.
    #[test]
    fn sixty_phases_lose_their_lean_and_coarser_ones_are_left_alone() {
        let mut weights = Weights::zero_with_phases(60);
        for (p, b) in weights.bias.iter_mut().enumerate() {
            *b = (p as i16 - 30) * 40;
        }
        let leaning = labels(&weights, -3, 1);
        let before = measure(&weights, &leaning);
        assert_eq!(before.len(), STAGES);
        let (corrected, shifts) = remove(&weights, &before, 1..=27, 1);
        let after = measure(&corrected, &leaning);
        for p in 1..=27 {
            assert!(shifts[p].is_some(), "stage {p}");
            assert!(after[p].lean(1).expect("both parities").abs() < 0.05, "stage {p}: {:?}", after[p].lean(1));
        }
        assert!(corrected.discs[..2] == weights.discs[..2], "stage 0 is outside the range");
        assert!(corrected.discs[2..56] != weights.discs[2..56]);
        assert_eq!(corrected.bias, weights.bias);

        for phases in [1, 15, 20, 7] {
            let coarse = Weights::zero_with_phases(phases);
            let errors = measure(&coarse, &labels(&coarse, -3, 1));
            let (same, shifts) = remove(&coarse, &errors, 0..=29, 1);
            assert!(same == coarse, "{phases} phases: the weights changed");
            assert!(shifts.iter().all(Option::is_none));
        }
    }
}
