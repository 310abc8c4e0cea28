//! The sparring partner's draw: how much to lose on this move, and which move loses about that much.
//!
//! 1. **The move's share.** What is left of the game's loss budget (the style's average minus what was already lost
//!    this game) is spread over the partner's remaining moves in proportion to [`phase_weight`] — people lose more
//!    per move in the midgame and the endgame than in the opening, and the weights follow the human games measured in
//!    docs/sparring.md. The move's target is its share: `left × w(e) / (w(e) + w(e − 2) + …)`.
//! 2. **The move.** Among the moves that lose at most the style's maximum, move i with loss lᵢ is drawn with
//!    probability ∝ exp(−lᵢ / T), with the temperature T chosen (by bisection) so that the expected loss is the
//!    target. Small losses are thus much likelier than large ones, as in people's games, and a target of zero plays a
//!    best move.

/// The weight of a move played with `empties` empty squares: the mean loss per move of the human games in that
/// phase (docs/sparring.md), relative to the midgame's.
#[must_use]
pub fn phase_weight(empties: u32) -> f64 {
    match empties {
        51.. => 0.35,
        41..=50 => 0.75,
        31..=40 => 1.0,
        21..=30 => 1.0,
        11..=20 => 0.9,
        _ => 0.6,
    }
}

/// The loss to aim for on a move played with `empties` empty squares when `left` discs of the game's budget are
/// left: the move's share of `left` among the partner's remaining moves (one every other ply).
#[must_use]
pub fn move_target(left: f64, empties: u32) -> f64 {
    if left <= 0.0 || empties == 0 {
        return 0.0;
    }
    let ahead: f64 = (1..=empties).rev().step_by(2).map(phase_weight).sum();
    left * phase_weight(empties) / ahead
}

/// The probability of each move, given each move's loss (`None` for a move beyond the maximum, never drawn), so that
/// the expected loss is as close to `target` as the allowed moves permit (see the module documentation). The best
/// moves (loss 0) share all the probability when `target` is 0; the allowed moves share it evenly when `target` is
/// at least their mean loss.
#[must_use]
pub fn probabilities(losses: &[Option<i32>], target: f64) -> Vec<f64> {
    let allowed: Vec<f64> = losses.iter().flatten().map(|&l| f64::from(l.max(0))).collect();
    if allowed.is_empty() {
        return vec![0.0; losses.len()];
    }
    let least = allowed.iter().copied().fold(f64::INFINITY, f64::min);
    let mean = allowed.iter().sum::<f64>() / allowed.len() as f64;
    let weights = |temperature: Option<f64>| -> Vec<f64> {
        losses
            .iter()
            .map(|loss| match (loss, temperature) {
                (None, _) => 0.0,
                (Some(l), None) => f64::from(u8::from(f64::from((*l).max(0)) <= least)),
                (Some(l), Some(t)) => (-(f64::from((*l).max(0)) - least) / t).exp(),
            })
            .collect()
    };
    let temperature = if target <= least {
        None
    } else if target >= mean {
        Some(f64::INFINITY)
    } else {
        Some(solve_temperature(&allowed, least, target))
    };
    let raw = weights(temperature);
    let total: f64 = raw.iter().sum();
    raw.into_iter().map(|w| w / total).collect()
}

/// The temperature whose expected loss over `allowed` is `target` (between the least loss and the mean).
fn solve_temperature(allowed: &[f64], least: f64, target: f64) -> f64 {
    let expected = |t: f64| {
        let (mut sum, mut weighted) = (0.0, 0.0);
        for &l in allowed {
            let w = (-(l - least) / t).exp();
            sum += w;
            weighted += w * l;
        }
        weighted / sum
    };
    // The expected loss grows with the temperature; bisect on its logarithm.
    let (mut low, mut high) = (-8.0_f64, 12.0_f64);
    for _ in 0..80 {
        let mid = 0.5 * (low + high);
        if expected(mid.exp()) < target {
            low = mid;
        } else {
            high = mid;
        }
    }
    (0.5 * (low + high)).exp()
}

/// The index drawn from `probabilities` with a uniform number `u` in [0, 1); the last move with a non-zero
/// probability when rounding leaves `u` past the end.
#[must_use]
pub fn pick(probabilities: &[f64], u: f64) -> Option<usize> {
    let mut acc = 0.0;
    let mut last = None;
    for (i, &p) in probabilities.iter().enumerate() {
        if p <= 0.0 {
            continue;
        }
        acc += p;
        last = Some(i);
        if u < acc {
            return Some(i);
        }
    }
    last
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expected(losses: &[Option<i32>], probabilities: &[f64]) -> f64 {
        losses.iter().zip(probabilities).map(|(l, p)| f64::from(l.unwrap_or(0)) * p).sum()
    }

    #[test]
    fn the_expected_loss_meets_the_target() {
        let losses = [Some(0), Some(1), Some(3), Some(6), Some(12), None];
        for target in [0.5, 1.0, 2.0, 4.0] {
            let p = probabilities(&losses, target);
            assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-9);
            assert!((expected(&losses, &p) - target).abs() < 1e-6, "target {target}: {p:?}");
            assert_eq!(p[5], 0.0, "beyond the maximum");
            // Smaller losses are likelier.
            assert!(p.windows(2).take(4).all(|w| w[0] > w[1]), "{p:?}");
        }
    }

    #[test]
    fn no_target_plays_a_best_move_and_a_large_one_spreads_evenly() {
        let losses = [Some(2), Some(0), Some(0), Some(9)];
        assert_eq!(probabilities(&losses, 0.0), vec![0.0, 0.5, 0.5, 0.0]);
        assert_eq!(probabilities(&losses, 50.0), vec![0.25; 4]);
        assert_eq!(probabilities(&[None, None], 3.0), vec![0.0, 0.0]);
    }

    #[test]
    fn the_budget_is_spread_by_phase() {
        // The last move takes what is left.
        assert!((move_target(5.0, 1) - 5.0).abs() < 1e-12);
        assert_eq!(move_target(0.0, 30), 0.0);
        assert_eq!(move_target(-3.0, 30), 0.0);
        // From the start, the shares of all 30 moves add up to the budget.
        let weights: f64 = (1..=59).rev().step_by(2).map(phase_weight).sum();
        assert!((move_target(10.0, 59) - 10.0 * phase_weight(59) / weights).abs() < 1e-9);
        assert!(move_target(10.0, 59) < move_target(10.0, 35) / 2.0, "opening moves lose less");
    }

    #[test]
    fn pick_follows_the_cumulative_probabilities() {
        let p = [0.0, 0.25, 0.75, 0.0];
        assert_eq!(pick(&p, 0.0), Some(1));
        assert_eq!(pick(&p, 0.2499), Some(1));
        assert_eq!(pick(&p, 0.25), Some(2));
        assert_eq!(pick(&p, 0.99999), Some(2));
        assert_eq!(pick(&p, 1.0), Some(2), "rounding past the end");
        assert_eq!(pick(&[0.0], 0.5), None);
    }
}
