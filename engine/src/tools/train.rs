//! Training the pattern evaluation: labelled positions in, [`Weights`] out.
//!
//! Each phase has its own weights, so each phase is fitted on its own positions (in parallel over the rayon pool):
//! full-batch Adam on the mean squared error between the evaluation (in discs) and the label, with a small L2
//! penalty. Indices that a pattern's own symmetries make equivalent share one weight, so the result is exactly
//! symmetric. A deterministic hash of each position sends about 1/`validation_every` of them to a held-out set, on
//! which MSE and MAE are reported per phase. Everything is deterministic for a given input and options.

use rayon::prelude::*;

use crate::board::Board;
use crate::eval::pattern::groups;
use crate::eval::{
    DISC_TABLE, Features, MAX_MOBILITY, MAX_PHASES, PHASES, SCALE, Weights, disc_index, first_discs, phase,
};
use crate::flip::portable;

/// How game records become labelled positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LabelOptions {
    /// Positions with at most this many empties are solved exactly and labelled with the exact score.
    pub solve_empties: u32,
    /// Positions with more than this many empties take WTHOR's theoretical score (perfect play from the database's
    /// depth, usually 24 empties) where the record has one; the final result otherwise.
    pub theoretical_empties: u32,
}

impl Default for LabelOptions {
    fn default() -> LabelOptions {
        LabelOptions { solve_empties: 12, theoretical_empties: 12 }
    }
}

/// Turns finished game records into labelled positions: every position before a move (positions where the side to
/// move must pass are skipped), labelled from the side to move's point of view with, by number of empties `e`:
/// the exact score if `e ≤ solve_empties`, else WTHOR's theoretical score if `e > theoretical_empties` and the record
/// has one, else the game's final result. Unfinished games are skipped. Runs on the rayon pool it is called from;
/// the result is in record order (deterministic).
#[must_use]
pub fn label_records(records: &[crate::format::records::GameRecord], options: &LabelOptions) -> Vec<Sample> {
    use crate::format::records::RecordedResult;
    use crate::search::{SolveMode, SolveOptions, Solver};

    let chunks: Vec<Vec<Sample>> = records
        .par_chunks(256)
        .map(|chunk| {
            let solver = Solver::new(SolveOptions::default().with_threads(1).with_hash_level(16)).ok();
            let mut out = Vec::new();
            for record in chunk {
                let Some(final_black) = record.final_black_disc_diff else { continue };
                let theoretical_black = match record.recorded {
                    RecordedResult::BlackDiscs { theoretical, .. } if record.moves.len() > 1 => {
                        Some(2 * i32::from(theoretical) - 64)
                    }
                    _ => None,
                };
                let mut position = record.start;
                let mut steps = record.moves.iter();
                loop {
                    let e = position.board.empty_count();
                    let black_to_move = position.side_to_move == crate::board::Color::Black;
                    let from_black = |v: i32| if black_to_move { v } else { -v };
                    if position.board.has_moves() {
                        let label = if e <= options.solve_empties {
                            solver.as_ref().map(|s| s.solve(&position.board, SolveMode::Exact).score)
                        } else if e > options.theoretical_empties {
                            Some(from_black(theoretical_black.unwrap_or(final_black)))
                        } else {
                            Some(from_black(final_black))
                        };
                        if let Some(score) = label {
                            out.push(Sample { board: position.board, score: score.clamp(-64, 64) as i8 });
                        }
                    }
                    let Some(&mv) = steps.next() else { break };
                    match position.play(mv) {
                        Ok(next) => position = next,
                        Err(_) => break,
                    }
                }
            }
            out
        })
        .collect();
    chunks.concat()
}

/// A position with its label.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sample {
    /// The position, side to move's point of view.
    pub board: Board,
    /// Final disc difference for the side to move (exact solve, search value or game result).
    pub score: i8,
}

/// Settings of a training run.
#[derive(Debug, Clone, PartialEq)]
pub struct TrainOptions {
    /// Full-batch Adam steps per phase.
    pub epochs: usize,
    /// Adam step size, in discs.
    pub learning_rate: f32,
    /// L2 penalty on the weights.
    pub l2: f32,
    /// One position in this many goes to the held-out set (0 = none).
    pub validation_every: u64,
    /// Weights to start from (fine-tuning); the L2 penalty then pulls towards them instead of towards zero. They may
    /// have another phase count than [`phases`](Self::phases): each phase then starts from the init's phase that
    /// holds its first disc count.
    pub init: Option<std::sync::Arc<Weights>>,
    /// Number of phases of the weights made, 1 to [`MAX_PHASES`] ([`PHASES`] by default; counts out of range are
    /// brought into it).
    pub phases: usize,
    /// Each phase also learns from the training positions of the phases up to this many away, weighted
    /// 1 / (1 + distance): neighbouring phases look alike, and the rarer pattern configurations get more examples.
    /// The held-out positions of a phase are always its own.
    pub phase_window: usize,
    /// Keep the pattern tables as `init` has them and fit only the small tables (mobility, disc count, bias): a
    /// few thousand positions can set those, where the ~167,000 pattern weights of a phase would only memorise them.
    pub freeze_patterns: bool,
}

impl Default for TrainOptions {
    fn default() -> TrainOptions {
        TrainOptions {
            epochs: 300,
            learning_rate: 0.05,
            l2: 1e-4,
            validation_every: 10,
            init: None,
            phases: PHASES,
            phase_window: 0,
            freeze_patterns: false,
        }
    }
}

/// How well one phase fits.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PhaseReport {
    /// The phase (0 to the phase count − 1; [`first_discs`] gives its fewest discs on the board).
    pub phase: usize,
    /// Training positions.
    pub train_count: usize,
    /// Held-out positions.
    pub validation_count: usize,
    /// Mean squared error on the training set, in discs².
    pub train_mse: f64,
    /// Mean squared error on the held-out set.
    pub validation_mse: f64,
    /// Mean absolute error on the held-out set, in discs.
    pub validation_mae: f64,
}

/// A phase's positions reduced to the parameters they touch.
struct Encoded {
    /// `FEATURES` parameter numbers per position (pattern weights, symmetric indices folded).
    params: Vec<u32>,
    /// The other parameters of each position: own mobility, opponent mobility, disc count.
    mobility: Vec<[u32; 3]>,
    targets: Vec<f32>,
    /// Weight of each position in the loss.
    weights: Vec<f32>,
}

/// Parameter layout of one phase: the group tables back to back, then own and opponent mobility, the disc-count
/// table, then the bias.
struct Layout {
    group_offsets: Vec<usize>,
    /// For each group, index → canonical index (symmetric tying).
    canonical: Vec<Vec<u32>>,
    mobility_offset: usize,
    opponent_mobility_offset: usize,
    disc_offset: usize,
    bias: usize,
    len: usize,
}

fn layout() -> Layout {
    let mut offset = 0;
    let mut group_offsets = Vec::new();
    let mut canonical = Vec::new();
    for group in groups() {
        group_offsets.push(offset);
        canonical.push((0..group.size()).map(|i| group.canonical_index(i) as u32).collect());
        offset += group.size();
    }
    let mobility_offset = offset;
    let opponent_mobility_offset = offset + MAX_MOBILITY + 1;
    let disc_offset = opponent_mobility_offset + MAX_MOBILITY + 1;
    let bias = disc_offset + DISC_TABLE;
    Layout { group_offsets, canonical, mobility_offset, opponent_mobility_offset, disc_offset, bias, len: bias + 1 }
}

fn encode(samples: &[(&Sample, f32)], layout: &Layout) -> Encoded {
    let per = crate::eval::pattern::feature_count();
    let mut params = Vec::with_capacity(samples.len() * per);
    let mut mobility = Vec::with_capacity(samples.len());
    let mut targets = Vec::with_capacity(samples.len());
    let mut weights = Vec::with_capacity(samples.len());
    let feature_groups: Vec<usize> =
        groups().iter().enumerate().flat_map(|(g, group)| std::iter::repeat_n(g, group.features.len())).collect();
    for &(s, weight) in samples {
        // Features read with the side to move as "black": the weights are from the side to move's point of view.
        let features = Features::new(s.board.player, s.board.opponent);
        for (&index, &g) in features.pattern_indices().iter().zip(&feature_groups) {
            params.push((layout.group_offsets[g] as u32) + layout.canonical[g][index as usize]);
        }
        let own = portable::moves(s.board.player.0, s.board.opponent.0).count_ones() as usize;
        let opp = portable::moves(s.board.opponent.0, s.board.player.0).count_ones() as usize;
        mobility.push([
            (layout.mobility_offset + own.min(MAX_MOBILITY)) as u32,
            (layout.opponent_mobility_offset + opp.min(MAX_MOBILITY)) as u32,
            (layout.disc_offset + disc_index(s.board.player.0.count_ones(), 64 - s.board.empty_count())) as u32,
        ]);
        targets.push(f32::from(s.score));
        weights.push(weight);
    }
    Encoded { params, mobility, targets, weights }
}

fn predict(w: &[f32], e: &Encoded, i: usize, per: usize, bias: usize) -> f32 {
    let mut sum = w[bias];
    for &p in &e.params[i * per..(i + 1) * per] {
        sum += w[p as usize];
    }
    let [a, b, c] = e.mobility[i];
    sum + w[a as usize] + w[b as usize] + w[c as usize]
}

fn errors(w: &[f32], e: &Encoded, per: usize, bias: usize) -> (f64, f64) {
    let n = e.targets.len();
    if n == 0 {
        return (0.0, 0.0);
    }
    let (mut se, mut ae) = (0.0f64, 0.0f64);
    for i in 0..n {
        let d = f64::from(predict(w, e, i, per, bias) - e.targets[i]);
        se += d * d;
        ae += d.abs();
    }
    (se / n as f64, ae / n as f64)
}

/// The starting parameters of `phase` (of `phases`): zero, or the values (at each group's canonical indices) of the
/// phase of `init` that evaluates the phase's first disc count.
fn initial(phase: usize, phases: usize, init: Option<&Weights>, layout: &Layout) -> Vec<f32> {
    let mut w = vec![0f32; layout.len];
    let Some(init) = init else { return w };
    let phase = init.phase(first_discs(phase, phases));
    let from = |v: i16| f32::from(v) / SCALE as f32;
    for (g, table) in init.patterns[phase].iter().enumerate() {
        for (i, &value) in table.iter().enumerate() {
            if layout.canonical[g][i] as usize == i {
                w[layout.group_offsets[g] + i] = from(value);
            }
        }
    }
    for n in 0..=MAX_MOBILITY {
        w[layout.mobility_offset + n] = from(init.mobility[phase][n]);
        w[layout.opponent_mobility_offset + n] = from(init.opponent_mobility[phase][n]);
    }
    for (k, &value) in init.discs[phase].iter().enumerate() {
        w[layout.disc_offset + k] = from(value);
    }
    w[layout.bias] = from(init.bias[phase]);
    w
}

/// Deterministic split: a hash of the position decides.
fn is_validation(sample: &Sample, every: u64) -> bool {
    every != 0 && (sample.board.hash().wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32).is_multiple_of(every)
}

/// Fits one phase; `by_phase` holds every phase's positions.
fn fit_phase(
    phase: usize,
    by_phase: &[Vec<&Sample>],
    options: &TrainOptions,
    layout: &Layout,
) -> (Vec<f32>, PhaseReport) {
    let valid: Vec<(&Sample, f32)> =
        by_phase[phase].iter().filter(|s| is_validation(s, options.validation_every)).map(|&s| (s, 1.0)).collect();
    let near = phase.saturating_sub(options.phase_window)..=(phase + options.phase_window).min(by_phase.len() - 1);
    let train: Vec<(&Sample, f32)> = near
        .flat_map(|p| {
            let weight = 1.0 / (1.0 + p.abs_diff(phase) as f32);
            by_phase[p].iter().filter(|s| !is_validation(s, options.validation_every)).map(move |&s| (s, weight))
        })
        .collect();
    let per = crate::eval::pattern::feature_count();
    let train_set = encode(&train, layout);
    let valid_set = encode(&valid, layout);
    let w0 = initial(phase, by_phase.len(), options.init.as_deref(), layout);
    let mut w = w0.clone();
    let mut m = vec![0f32; layout.len];
    let mut v = vec![0f32; layout.len];
    let mut grad = vec![0f32; layout.len];
    let n = train_set.targets.len();
    let total_weight: f32 = train_set.weights.iter().sum();
    let (beta1, beta2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    // The pattern tables come first in the layout, the small tables after them.
    let fitted = if options.freeze_patterns { layout.mobility_offset..layout.len } else { 0..layout.len };
    if n > 0 {
        for epoch in 1..=options.epochs {
            grad.iter_mut().for_each(|g| *g = 0.0);
            for i in 0..n {
                let err = (predict(&w, &train_set, i, per, layout.bias) - train_set.targets[i]) * train_set.weights[i];
                for &p in &train_set.params[i * per..(i + 1) * per] {
                    grad[p as usize] += err;
                }
                let [a, b, c] = train_set.mobility[i];
                grad[a as usize] += err;
                grad[b as usize] += err;
                grad[c as usize] += err;
                grad[layout.bias] += err;
            }
            let scale = 2.0 / total_weight;
            let correction1 = 1.0 - beta1.powi(epoch as i32);
            let correction2 = 1.0 - beta2.powi(epoch as i32);
            for k in fitted.clone() {
                let g = grad[k] * scale + options.l2 * (w[k] - w0[k]);
                if g == 0.0 && m[k] == 0.0 {
                    continue;
                }
                m[k] = beta1 * m[k] + (1.0 - beta1) * g;
                v[k] = beta2 * v[k] + (1.0 - beta2) * g * g;
                let step = options.learning_rate * (m[k] / correction1) / ((v[k] / correction2).sqrt() + eps);
                w[k] -= step;
            }
        }
    }
    let (train_mse, _) = errors(&w, &train_set, per, layout.bias);
    let (validation_mse, validation_mae) = errors(&w, &valid_set, per, layout.bias);
    let report = PhaseReport {
        phase,
        train_count: n,
        validation_count: valid_set.targets.len(),
        train_mse,
        validation_mse,
        validation_mae,
    };
    (w, report)
}

/// Fits weights to `samples`. `progress` is called once per finished phase (from the worker threads).
pub fn train(
    samples: &[Sample],
    options: &TrainOptions,
    progress: &(dyn Fn(&PhaseReport) + Sync),
) -> (Weights, Vec<PhaseReport>) {
    let layout = layout();
    let phases = options.phases.clamp(1, MAX_PHASES);
    let mut by_phase: Vec<Vec<&Sample>> = vec![Vec::new(); phases];
    for s in samples {
        let discs = 64 - s.board.empty_count();
        by_phase[phase(discs, phases)].push(s);
    }
    let fitted: Vec<(Vec<f32>, PhaseReport)> = by_phase
        .par_iter()
        .enumerate()
        .map(|(p, _)| {
            let out = fit_phase(p, &by_phase, options, &layout);
            progress(&out.1);
            out
        })
        .collect();
    let mut weights = Weights::zero_with_phases(phases);
    let mut reports = Vec::with_capacity(phases);
    let to_i16 = |x: f32| (x * SCALE as f32).round().clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16;
    for (p, (w, report)) in fitted.into_iter().enumerate() {
        for (g, table) in weights.patterns[p].iter_mut().enumerate() {
            let offset = layout.group_offsets[g];
            for (i, value) in table.iter_mut().enumerate() {
                *value = to_i16(w[offset + layout.canonical[g][i] as usize]);
            }
        }
        for n in 0..=MAX_MOBILITY {
            weights.mobility[p][n] = to_i16(w[layout.mobility_offset + n]);
            weights.opponent_mobility[p][n] = to_i16(w[layout.opponent_mobility_offset + n]);
        }
        for k in 0..DISC_TABLE {
            weights.discs[p][k] = to_i16(w[layout.disc_offset + k]);
        }
        weights.bias[p] = to_i16(w[layout.bias]);
        reports.push(report);
    }
    (weights, reports)
}

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    use super::*;
    use crate::board::Color;

    /// `count` positions after a random number of random moves (in `plies`), labelled 8 × the corner difference: a
    /// target the features can express.
    fn corner_samples(seed: u64, count: usize, plies: std::ops::Range<u32>) -> Vec<Sample> {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut samples = Vec::new();
        for _ in 0..count {
            let n = rng.random_range(plies.clone()) as usize;
            let board = Board::INITIAL.after_random_moves(n, |k| rng.random_range(0..k));
            let corners = 0x8100_0000_0000_0081u64;
            let label =
                8 * ((board.player.0 & corners).count_ones() as i32 - (board.opponent.0 & corners).count_ones() as i32);
            samples.push(Sample { board, score: label as i8 });
        }
        samples
    }

    /// Random positions labelled by a simple known function the features can express (the mobility difference):
    /// training must fit the training set and bring the held-out error clearly below that of predicting zero (with
    /// this little data the sparse pattern tables memorise a lot, so the held-out bar is modest).
    #[test]
    fn learns_a_simple_target_and_reports_held_out_errors() {
        let samples = corner_samples(5, 24_000, 30..34);
        let options = TrainOptions {
            epochs: 200,
            learning_rate: 0.1,
            l2: 1e-3,
            validation_every: 5,
            init: None,
            phases: PHASES,
            phase_window: 0,
            freeze_patterns: false,
        };
        let (weights, reports) = train(&samples, &options, &|_| {});
        let with_data: Vec<_> = reports.iter().filter(|r| r.validation_count > 50).collect();
        assert!(with_data.len() >= 2);
        for r in &with_data {
            // Predicting 0 would err by the mean absolute label of the phase's held-out positions.
            let held_out: Vec<f64> = samples
                .iter()
                .filter(|s| {
                    phase(64 - s.board.empty_count(), PHASES) == r.phase && is_validation(s, options.validation_every)
                })
                .map(|s| f64::from(s.score).abs())
                .collect();
            let baseline = held_out.iter().sum::<f64>() / held_out.len() as f64;
            assert!(
                r.validation_mae < baseline * 0.6,
                "phase {} mae {} (baseline {baseline})",
                r.phase,
                r.validation_mae
            );
            assert!(r.train_mse < 1.0, "the training set is fitted: {r:?}");
        }
        // The evaluation with the exported weights agrees with the label on a training position.
        let s = samples.iter().find(|s| s.score != 0).unwrap();
        let features = Features::new(s.board.player, s.board.opponent);
        let value = weights.evaluate(&s.board, &features, Color::Black);
        assert!((value - i32::from(s.score)).abs() <= 3, "{value} vs {}", s.score);

        // Zero steps from those weights give them back, and fine-tuning does not undo the fit.
        let init = std::sync::Arc::new(weights.clone());
        let again = TrainOptions { epochs: 0, init: Some(std::sync::Arc::clone(&init)), ..options.clone() };
        let (same, _) = train(&samples, &again, &|_| {});
        assert_eq!(same, weights);
        let tuned = TrainOptions { epochs: 20, learning_rate: 0.01, init: Some(init), ..options };
        let (_, tuned_reports) = train(&samples, &tuned, &|_| {});
        for (a, b) in reports.iter().zip(&tuned_reports) {
            if a.validation_count > 50 {
                assert!(b.validation_mae <= a.validation_mae + 0.5, "{a:?} -> {b:?}");
            }
        }
    }

    /// With the patterns frozen, fine-tuning leaves every pattern weight where `init` has it and moves the small
    /// tables: here the target is the start's own evaluation plus six discs, which they can learn without the patterns.
    #[test]
    fn frozen_patterns_stay_and_the_small_tables_learn() {
        let samples = corner_samples(11, 6_000, 20..24);
        let first =
            TrainOptions { epochs: 60, learning_rate: 0.1, l2: 1e-3, validation_every: 5, ..Default::default() };
        let (start, _) = train(&samples, &first, &|_| {});
        let shifted: Vec<Sample> = samples
            .iter()
            .map(|s| {
                let features = Features::new(s.board.player, s.board.opponent);
                let own = start.evaluate(&s.board, &features, Color::Black);
                Sample { board: s.board, score: (own + 6) as i8 }
            })
            .collect();
        let init = std::sync::Arc::new(start.clone());
        let frozen =
            TrainOptions { epochs: 100, learning_rate: 0.05, init: Some(init), freeze_patterns: true, ..first.clone() };
        let (tuned, reports) = train(&shifted, &frozen, &|_| {});
        assert_eq!(tuned.patterns, start.patterns, "pattern tables are not touched");
        let busy: Vec<_> = reports.iter().filter(|r| r.validation_count > 100).collect();
        assert!(!busy.is_empty());
        for r in &busy {
            assert!(r.validation_mae < 1.5, "the shift is learnt: {r:?}");
        }
        // Spread over the bias, mobility and disc-count tables, the whole shift is there.
        let shift: i32 = samples
            .iter()
            .map(|s| {
                let features = Features::new(s.board.player, s.board.opponent);
                tuned.evaluate(&s.board, &features, Color::Black) - start.evaluate(&s.board, &features, Color::Black)
            })
            .sum();
        let mean = f64::from(shift) / samples.len() as f64;
        assert!((5.0..=7.0).contains(&mean), "mean shift {mean}");
    }

    /// With a phase window, each phase also trains on its neighbours' training positions (never on held-out ones),
    /// and still learns a target that is the same in every phase.
    #[test]
    fn a_phase_window_borrows_the_neighbours_training_positions() {
        let samples = corner_samples(9, 6_000, 20..26);
        let alone =
            TrainOptions { epochs: 100, learning_rate: 0.1, l2: 1e-3, validation_every: 5, ..Default::default() };
        let wide = TrainOptions { phase_window: 2, ..alone.clone() };
        let (_, a) = train(&samples, &alone, &|_| {});
        let (_, b) = train(&samples, &wide, &|_| {});
        for (p, (x, y)) in a.iter().zip(&b).enumerate() {
            assert_eq!(x.validation_count, y.validation_count, "held-out positions stay the phase's own");
            // The phase's own training positions plus those of the phases within two.
            let near: usize = a[p.saturating_sub(2)..=(p + 2).min(PHASES - 1)].iter().map(|r| r.train_count).sum();
            assert_eq!(y.train_count, near, "phase {p}");
        }
        let mae = |r: &[PhaseReport]| {
            let with: Vec<_> = r.iter().filter(|r| r.validation_count > 30).collect();
            with.iter().map(|r| r.validation_mae).sum::<f64>() / with.len() as f64
        };
        assert!(mae(&b) <= mae(&a) + 0.25, "window {} vs alone {}", mae(&b), mae(&a));
    }

    /// Sixty phases: one weight set per disc count, each fitted on its own positions; started from 30-phase weights
    /// with no steps, they evaluate every position as those weights do.
    #[test]
    fn sixty_phases_train_and_start_from_thirty() {
        let samples = corner_samples(13, 6_000, 20..26);
        let options = TrainOptions {
            epochs: 60,
            learning_rate: 0.1,
            l2: 1e-3,
            validation_every: 5,
            phases: 60,
            ..Default::default()
        };
        let (sixty, reports) = train(&samples, &options, &|_| {});
        assert_eq!(sixty.phases(), 60);
        assert_eq!(reports.len(), 60);
        for (p, r) in reports.iter().enumerate() {
            let own = samples.iter().filter(|s| phase(64 - s.board.empty_count(), 60) == p).count();
            assert_eq!(r.train_count + r.validation_count, own, "phase {p}: its own disc count only");
        }
        assert!(reports.iter().filter(|r| r.validation_count > 50).all(|r| r.train_mse < 1.0), "{reports:?}");

        let thirty = TrainOptions { phases: PHASES, ..options.clone() };
        let (start, _) = train(&samples, &thirty, &|_| {});
        let from = TrainOptions { epochs: 0, init: Some(std::sync::Arc::new(start.clone())), ..options };
        let (copied, _) = train(&samples, &from, &|_| {});
        assert_eq!(copied.phases(), 60);
        for s in &samples {
            let features = Features::new(s.board.player, s.board.opponent);
            assert_eq!(
                copied.evaluate(&s.board, &features, Color::Black),
                start.evaluate(&s.board, &features, Color::Black)
            );
        }
    }
}
