//! Training the network of [`crate::eval::net`] on the residual of a pattern evaluation (experiment, #32): minibatch
//! Adam, lazily on the embedding rows a minibatch touches; one thread.

use crate::board::Board;
use crate::eval::net::{Inputs, Net, NetParams, NetShape, OUT_SCALE, Scratch, bucket, layout};
use crate::eval::{Evaluator, FEATURE_COUNT, Features, SCALE};
use crate::rng::GameRng as Rng;
use crate::tools::label::MaeReport;

/// Settings of a training run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NetOptions {
    /// The network's shape.
    pub shape: NetShape,
    /// Passes over the training positions (shuffled before each).
    pub epochs: usize,
    /// Positions per Adam step.
    pub batch: usize,
    /// Adam step size at the start.
    pub learning_rate: f32,
    /// The step size at the last step as a fraction of `learning_rate`, reached along a half cosine (1: constant).
    pub final_rate: f32,
    /// Huber loss with this bound in discs: errors beyond it pull with a constant force (0: squared error).
    pub huber: f32,
    /// L2 penalty on the embedding rows (applied to the rows a minibatch touches).
    pub l2: f32,
    /// Where the returned parameters' average starts, as a fraction of the steps (0–1): `Some(f)` returns the mean
    /// of the parameters after every [`AVERAGE_SNAPSHOTS`]-th part of the steps from there to the last (the last
    /// included), rather than the last step's (stochastic weight averaging); `None` returns the last step's.
    pub average_from: Option<f32>,
    /// Seed of the initial weights and of the shuffles.
    pub seed: u64,
}

/// A labelled position reduced to what the network reads.
#[derive(Debug, Clone, Copy)]
pub struct NetSample {
    /// The rows it reads (absolute, bucket included): the patterns', then its extra rows.
    rows: [u32; FEATURE_COUNT + 3],
    /// How many of `rows` it reads.
    len: u8,
    bucket: u8,
    /// Moves played (discs − 4).
    pub moves: u8,
    /// The pattern evaluation's value, discs.
    pub base: f32,
    /// The label, discs.
    pub target: f32,
    /// How much its error counts against the others' (1 for most labels; less for noisy ones, such as a game's
    /// final result standing for an earlier position).
    weight: f32,
}

impl NetSample {
    /// The same sample with its error counted `weight` times (default 1).
    #[must_use]
    pub fn weighted(self, weight: f32) -> NetSample {
        NetSample { weight, ..self }
    }

    /// The rows it reads.
    fn rows(&self) -> &[u32] {
        &self.rows[..usize::from(self.len)]
    }
}

/// Turns labelled positions into samples for a network of shape `shape` (its buckets and inputs), with the pattern
/// evaluation `evaluator`'s value as the base.
#[must_use]
pub fn encode(labels: &[(Board, i32)], evaluator: &Evaluator, shape: NetShape) -> Vec<NetSample> {
    let off = layout();
    let per_bucket = shape.rows_per_bucket() as u32;
    labels
        .iter()
        .map(|&(board, label)| {
            let features = Features::new(board.player, board.opponent);
            let moves = (60 - board.empty_count()) as usize;
            let b = bucket(moves, shape.buckets);
            let first = b as u32 * per_bucket;
            let mut rows = [0u32; FEATURE_COUNT + 3];
            for (k, (&index, &g)) in features.pattern_indices().iter().zip(&off.feature_group).enumerate() {
                rows[k] = first + off.group_start[g] + off.canonical[g][index as usize];
            }
            let mobility = (board.moves().count(), board.pass().moves().count());
            let extras = Inputs::extras(moves, mobility.0, mobility.1);
            for (slot, &e) in rows[FEATURE_COUNT..].iter_mut().zip(&extras[..shape.inputs.extra_features()]) {
                *slot = first + (off.total + e) as u32;
            }
            let base = crate::tools::label::evaluate_scaled(evaluator, &board) as f32 / SCALE as f32;
            let len = shape.features() as u8;
            NetSample { rows, len, bucket: b as u8, moves: moves as u8, base, target: label as f32, weight: 1.0 }
        })
        .collect()
}

/// Small random parameters whose output starts near zero.
fn initial(shape: NetShape, seed: u64) -> NetParams {
    let rows = shape.rows_per_bucket();
    let mut rng = Rng::new(seed);
    let mut uniform = |scale: f32| (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 * scale - scale;
    let embed = (0..shape.buckets * rows * shape.dim).map(|_| uniform(0.02)).collect();
    let per = Net::dense_len(shape);
    let mut dense = vec![0f32; shape.buckets * per];
    for d in dense.chunks_exact_mut(per) {
        d[..shape.dim].fill(0.3);
        let scale = 1.0 / (shape.dim as f32).sqrt();
        for x in &mut d[shape.dim..shape.dim + shape.hidden * shape.dim] {
            *x = uniform(scale);
        }
        let b1 = shape.dim + shape.hidden * shape.dim;
        d[b1..b1 + shape.hidden].fill(0.2);
        for x in &mut d[b1 + shape.hidden..b1 + 2 * shape.hidden] {
            *x = uniform(0.01);
        }
    }
    NetParams::from_parts(shape, embed, dense)
}

/// The network's output for a sample, in discs.
#[must_use]
pub fn forward(net: &NetParams, s: &NetSample) -> f32 {
    net.run(s.rows(), s.bucket as usize, &mut Scratch::new(net.shape()))
}

/// How many parts the steps are cut into for [`NetOptions::average_from`]: the parameters are taken into the
/// average at the end of each part that lies inside the averaged span.
pub const AVERAGE_SNAPSHOTS: usize = 1000;

/// The running mean of parameter snapshots (stochastic weight averaging).
struct Average {
    embed: Vec<f32>,
    dense: Vec<f32>,
    count: u32,
}

impl Average {
    fn new() -> Average {
        Average { embed: Vec::new(), dense: Vec::new(), count: 0 }
    }

    /// Takes `net`'s parameters into the mean.
    fn add(&mut self, net: &NetParams) {
        self.count += 1;
        if self.count == 1 {
            self.embed.clone_from(&net.embed);
            self.dense.clone_from(&net.dense);
            return;
        }
        let share = 1.0 / self.count as f32;
        for (a, &x) in self.embed.iter_mut().zip(&net.embed).chain(self.dense.iter_mut().zip(&net.dense)) {
            *a += (x - *a) * share;
        }
    }

    /// The mean as parameters of `shape`, or `None` before any snapshot.
    fn params(&self, shape: NetShape) -> Option<NetParams> {
        (self.count > 0).then(|| NetParams::from_parts(shape, self.embed.clone(), self.dense.clone()))
    }
}

/// Whether the parameters after step `step` (counted from 1) of `steps` go into the average that starts at
/// fraction `from` of the steps: the ends of the [`AVERAGE_SNAPSHOTS`] equal parts inside the span, and the last.
fn snapshot_at(from: f32, step: usize, steps: usize) -> bool {
    let first = (f64::from(from.clamp(0.0, 1.0)) * steps as f64).ceil() as usize;
    let every = steps.div_ceil(AVERAGE_SNAPSHOTS).max(1);
    step >= first.max(1) && (step == steps || (steps - step).is_multiple_of(every))
}

/// Adam moments for one parameter vector.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
}

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;

impl Adam {
    fn new(n: usize) -> Adam {
        Adam { m: vec![0.0; n], v: vec![0.0; n] }
    }

    #[inline]
    fn step(&mut self, i: usize, w: &mut f32, g: f32, lr: f32, c1: f32, c2: f32) {
        let m = &mut self.m[i];
        let v = &mut self.v[i];
        *m = BETA1 * *m + (1.0 - BETA1) * g;
        *v = BETA2 * *v + (1.0 - BETA2) * g * g;
        *w -= lr * (*m / c1) / ((*v / c2).sqrt() + 1e-8);
    }
}

/// Moves each sample's label `share` (0–1) of the way towards what `teachers` say of it (base + their outputs
/// averaged): knowledge distillation, so that one network learns what an ensemble of networks trained on the same
/// labels agrees on, rather than each label's noise. `threads` share the forward passes.
///
/// # Errors
/// When a teacher reads other rows than the samples were encoded for (another bucket count or other inputs).
pub fn distil(
    samples: &mut [NetSample],
    teachers: &[NetParams],
    shape: NetShape,
    share: f32,
    threads: usize,
) -> Result<(), String> {
    if let Some(t) = teachers.iter().find(|t| t.shape().buckets != shape.buckets || t.shape().inputs != shape.inputs) {
        return Err(format!(
            "a teacher has {} bucket(s) and reads {:?}; the network being trained has {} and reads {:?}",
            t.shape().buckets,
            t.shape().inputs,
            shape.buckets,
            shape.inputs
        ));
    }
    if teachers.is_empty() {
        return Ok(());
    }
    let mean = 1.0 / teachers.len() as f32;
    let chunk = samples.len().div_ceil(threads.max(1)).max(1);
    let move_towards_teachers = |part: &mut [NetSample]| {
        // Each teacher's own working memory: a teacher may be wider than the network being trained.
        let mut scratch: Vec<Scratch> = teachers.iter().map(|n| Scratch::new(n.shape())).collect();
        for s in part {
            let outputs = teachers.iter().zip(&mut scratch).map(|(n, t)| n.run(s.rows(), s.bucket as usize, t));
            let said = s.base + outputs.sum::<f32>() * mean;
            s.target += (said - s.target) * share;
        }
    };
    std::thread::scope(|scope| {
        let parts: Vec<_> =
            samples.chunks_mut(chunk).map(|part| scope.spawn(move || move_towards_teachers(part))).collect();
        parts
            .into_iter()
            .try_for_each(std::thread::ScopedJoinHandle::join)
            .map_err(|_| "a distillation thread failed".to_string())
    })
}

/// Mean absolute error of base + network on `samples`, averaged over moves 20–50 move by move (as `eval-error`),
/// for the base alone and with the network.
#[must_use]
pub fn mae_20_50(net: &NetParams, samples: &[NetSample]) -> (f64, f64) {
    let base = MaeReport::from_errors(samples.iter().map(|s| (usize::from(s.moves), f64::from(s.base - s.target))));
    let with = params_error(std::slice::from_ref(net), samples);
    (base.average(20..=50).unwrap_or(0.0), with.average(20..=50).unwrap_or(0.0))
}

/// The error of base + network against each sample's label by move number (unrounded values, as
/// [`mae_20_50`]), with its sign: `eval-error --net`. With several networks (of one bucket count, the samples'),
/// their outputs are averaged: an ensemble, to see how much of the error is the training's own noise.
#[must_use]
pub fn net_error(nets: &[Net], samples: &[NetSample]) -> MaeReport {
    params_error(&nets.iter().map(Net::params).collect::<Vec<_>>(), samples)
}

/// [`net_error`] of parameters.
fn params_error(nets: &[NetParams], samples: &[NetSample]) -> MaeReport {
    let share = 1.0 / nets.len().max(1) as f32;
    MaeReport::from_errors(samples.iter().map(|s| {
        let out: f32 = nets.iter().map(|net| forward(net, s)).sum::<f32>() * share;
        (usize::from(s.moves), f64::from(s.base + out - s.target))
    }))
}

/// The step size at step `step` of `steps` (from 0): a half cosine from `learning_rate` down to
/// `learning_rate × final_rate`.
fn rate(options: &NetOptions, step: usize, steps: usize) -> f32 {
    let progress = step as f32 / steps.saturating_sub(1).max(1) as f32;
    let fall = 0.5 * (1.0 + (std::f32::consts::PI * progress.min(1.0)).cos());
    options.learning_rate * (options.final_rate + (1.0 - options.final_rate) * fall)
}

/// Trains a network on `train` (shuffled each epoch), calling `report(epoch, train_mse, &params)` after each epoch.
///
/// `start` is where the parameters begin (a network of `options.shape`, e.g. one read from a file, to fine-tune it);
/// `None` starts from random parameters drawn with `options.seed`.
///
/// # Panics
/// When `start`'s shape is not `options.shape`.
pub fn train_net(
    train: &mut [NetSample],
    options: &NetOptions,
    start: Option<&Net>,
    report: &mut dyn FnMut(usize, f64, &NetParams),
) -> Net {
    let shape = options.shape;
    let NetShape { dim, hidden, .. } = shape;
    let mut net = match start {
        Some(net) => {
            assert_eq!(net.shape(), shape, "the starting network's shape");
            net.params()
        }
        None => initial(shape, options.seed),
    };
    let per = Net::dense_len(shape);
    let mut adam_e = Adam::new(net.embed.len());
    let mut adam_d = Adam::new(net.dense.len());
    let mut grad_e = vec![0f32; net.embed.len()];
    let mut grad_d = vec![0f32; net.dense.len()];
    let mut touched: Vec<u32> = Vec::new();
    let mut mark = vec![false; shape.buckets * shape.rows_per_bucket()];
    let mut t = Scratch::new(shape);
    let mut dh = vec![0f32; hidden];
    let mut ds = vec![0f32; dim];
    let mut rng = Rng::new(options.seed ^ 0x9e37_79b9);
    let mut step = 0i32;
    let steps = (options.epochs * train.len().div_ceil(options.batch.max(1))).max(1);
    let mut average = Average::new();
    for epoch in 0..options.epochs {
        for i in (1..train.len()).rev() {
            let j = (rng.next_u64() % (i as u64 + 1)) as usize;
            train.swap(i, j);
        }
        let mut se = 0f64;
        for batch in train.chunks(options.batch) {
            for s in batch {
                let out = net.run(s.rows(), s.bucket as usize, &mut t);
                let err = s.base + out - s.target;
                se += f64::from(err * err);
                let pull = if options.huber > 0.0 { err.clamp(-options.huber, options.huber) } else { err };
                let dout = pull * s.weight * OUT_SCALE / batch.len() as f32;
                let b = s.bucket as usize;
                let d = &net.dense[b * per..(b + 1) * per];
                let g = &mut grad_d[b * per..(b + 1) * per];
                let b1 = dim + hidden * dim;
                g[b1 + 2 * hidden] += dout;
                ds.fill(0.0);
                for j in 0..hidden {
                    g[b1 + hidden + j] += dout * t.hid[j];
                    let pre = t.pre[j];
                    dh[j] = if pre > 0.0 && pre < 1.0 { dout * d[b1 + hidden + j] } else { 0.0 };
                    if dh[j] != 0.0 {
                        g[b1 + j] += dh[j];
                        for k in 0..dim {
                            g[dim + j * dim + k] += dh[j] * t.act[k];
                            ds[k] += dh[j] * d[dim + j * dim + k];
                        }
                    }
                }
                for k in 0..dim {
                    if !(t.sum[k] > 0.0 && t.sum[k] < 1.0) {
                        ds[k] = 0.0;
                    }
                    g[k] += ds[k];
                }
                for &r in s.rows() {
                    let r = r as usize;
                    if !mark[r] {
                        mark[r] = true;
                        touched.push(r as u32);
                    }
                    for (ge, &x) in grad_e[r * dim..(r + 1) * dim].iter_mut().zip(&ds) {
                        *ge += x;
                    }
                }
            }
            step += 1;
            let c1 = 1.0 - BETA1.powi(step);
            let c2 = 1.0 - BETA2.powi(step);
            let lr = rate(options, step as usize - 1, steps);
            if lr != 0.0 {
                // The parameters change: the search's unit is chosen for them again.
                net.unit = None;
            }
            for (i, (w, g)) in net.dense.iter_mut().zip(grad_d.iter_mut()).enumerate() {
                adam_d.step(i, w, *g, lr, c1, c2);
                *g = 0.0;
            }
            for &r in &touched {
                let r = r as usize;
                mark[r] = false;
                let rows = r * dim..(r + 1) * dim;
                for ((i, w), g) in rows.clone().zip(&mut net.embed[rows.clone()]).zip(&mut grad_e[rows]) {
                    adam_e.step(i, w, *g + options.l2 * *w, lr, c1, c2);
                    *g = 0.0;
                }
            }
            touched.clear();
            if options.average_from.is_some_and(|from| snapshot_at(from, step as usize, steps)) {
                average.add(&net);
            }
        }
        let mse = se / train.len().max(1) as f64;
        match average.params(shape) {
            // The last epoch reports what is returned: the average.
            Some(mean) if epoch + 1 == options.epochs => report(epoch, mse, &mean),
            _ => report(epoch, mse, &net),
        }
    }
    // Training changed the parameters in place: the search's tables are made from the final ones (or their mean).
    average.params(shape).unwrap_or(net).into_net()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::eval::Weights;

    /// Random positions labelled 12 when the side to move holds both c1 and f8, −12 when the opponent does, else 0:
    /// an AND of two squares that no pattern holds together, which a pattern evaluation cannot express and the
    /// network can.
    fn samples(seed: u64, count: usize) -> Vec<(Board, i32)> {
        let mut rng = Rng::new(seed);
        let mut out = Vec::new();
        while out.len() < count {
            // A few moves only, so the patterns' contents recur and the held-out positions can be generalised to.
            let plies = rng.below(4);
            let mut board = Board::INITIAL.after_random_moves(plies, |n| rng.below(n));
            // Random discs on the two squares, so the AND is common.
            let corners = [crate::square::Square::parse("c1").unwrap(), crate::square::Square::parse("f8").unwrap()]
                .map(|s| s.bitboard().0);
            for c in corners {
                board.player.0 &= !c;
                board.opponent.0 &= !c;
                match rng.below(3) {
                    0 => board.player.0 |= c,
                    1 => board.opponent.0 |= c,
                    _ => {}
                }
            }
            let both = |b: u64| corners.iter().all(|&c| b & c != 0);
            let label = if both(board.player.0) {
                12
            } else if both(board.opponent.0) {
                -12
            } else {
                0
            };
            out.push((board, label));
        }
        out
    }

    /// The plain mean absolute error on `set` of the base with the network's output added (`None`: the base alone).
    fn plain_mae(params: Option<&NetParams>, set: &[NetSample]) -> f64 {
        let output = |s: &NetSample| params.map_or(0.0, |p| forward(p, s));
        set.iter().map(|s| f64::from((s.base + output(s) - s.target).abs())).sum::<f64>() / set.len() as f64
    }

    /// The AND task's training and held-out samples, and the settings the tests train on them with.
    fn and_task(epochs: usize) -> (Vec<NetSample>, Vec<NetSample>, NetOptions) {
        let evaluator = Evaluator::new(&Weights::zero());
        let shape = NetShape { dim: 8, hidden: 16, buckets: 1, inputs: Inputs::Patterns };
        let train = encode(&samples(1, 6_000), &evaluator, shape);
        let held = encode(&samples(2, 1_000), &evaluator, shape);
        let options = NetOptions {
            shape,
            epochs,
            batch: 32,
            learning_rate: 0.003,
            final_rate: 1.0,
            huber: 0.0,
            l2: 0.0,
            seed: 3,
            average_from: None,
        };
        (train, held, options)
    }

    #[test]
    fn the_network_learns_what_the_patterns_cannot() {
        let (c1, f8) = (crate::square::Square::parse("c1").unwrap(), crate::square::Square::parse("f8").unwrap());
        for group in crate::eval::pattern::groups() {
            assert!(group.features.iter().all(|f| !(f.contains(&c1) && f.contains(&f8))), "{}", group.name);
        }
        let (mut train, held, options) = and_task(12);
        let mut last = f64::INFINITY;
        let net = train_net(&mut train, &options, None, &mut |_, mse, _| last = mse);
        let params = net.params();
        let mae = |set: &[NetSample]| plain_mae(Some(&params), set);
        let base = plain_mae(None, &held);
        assert!(base > 2.0, "the target should not be trivial: {base}");
        assert!(last.sqrt() < 3.0, "training RMS {}", last.sqrt());
        assert!(mae(&held) < 0.5 * base, "held-out MAE {} against {base} without the network", mae(&held));
        // `eval-error --net`'s report agrees with the trainer's measure, and its sign shows.
        let report = net_error(std::slice::from_ref(&net), &held);
        // An ensemble averages its networks' outputs: two copies of one network are that network.
        assert_eq!(net_error(&[net.clone(), net.clone()], &held), report);
        let average = report.average(0..=60).unwrap();
        let by_move: Vec<_> = (0..=60).filter_map(|m| report.mae(m)).collect();
        assert!(!by_move.is_empty());
        let plain = |f: &dyn Fn(&NetSample) -> f32| {
            let mut sums = vec![(0usize, 0f64); 61];
            for s in &held {
                sums[s.moves as usize].0 += 1;
                sums[s.moves as usize].1 += f64::from(f(s));
            }
            let used: Vec<_> = sums.iter().filter(|e| e.0 > 0).map(|e| e.1 / e.0 as f64).collect();
            used.iter().sum::<f64>() / used.len() as f64
        };
        assert!((average - plain(&|s| (s.base + forward(&params, s) - s.target).abs())).abs() < 1e-9);
        let mean_bias = report.mean_bias(0..=60).unwrap();
        assert!((mean_bias - plain(&|s| s.base + forward(&params, s) - s.target)).abs() < 1e-9);
    }

    #[test]
    fn a_samples_weight_sets_how_much_its_error_counts() {
        let (train, held, options) = and_task(12);
        // Each position twice: once with its label, once with the label's opposite (a noisy copy).
        let trained_with = |noise: f32| {
            let mut set: Vec<NetSample> = train.clone();
            set.extend(train.iter().map(|s| NetSample { target: -s.target, ..*s }.weighted(noise)));
            plain_mae(Some(&train_net(&mut set, &options, None, &mut |_, _, _| {}).params()), &held)
        };
        let base = plain_mae(None, &held);
        let (even, light) = (trained_with(1.0), trained_with(0.05));
        // Counted as much as the true labels, the opposite ones cancel them; counted a twentieth, they barely pull.
        assert!(even > 0.8 * base, "equal weights: {even} against {base}");
        assert!(light < 0.5 * base, "the noisy copy at 0.05: {light} against {base}");
        // A weight of zero is no sample at all: a set of them leaves the starting parameters as they were.
        let mut none: Vec<NetSample> = train.iter().map(|s| s.weighted(0.0)).collect();
        let untouched = train_net(&mut none, &options, None, &mut |_, _, _| {});
        let start = train_net(&mut none, &NetOptions { epochs: 0, ..options }, None, &mut |_, _, _| {});
        assert_eq!(untouched, start);
    }

    #[test]
    fn the_step_size_falls_along_a_half_cosine_to_its_final_fraction() {
        let shape = NetShape { dim: 8, hidden: 8, buckets: 1, inputs: Inputs::Patterns };
        let options = NetOptions {
            shape,
            epochs: 1,
            batch: 1,
            learning_rate: 0.01,
            final_rate: 0.1,
            huber: 0.0,
            l2: 0.0,
            seed: 1,
            average_from: None,
        };
        let close = |a: f32, b: f32| (a - b).abs() < 1e-7;
        assert!(close(rate(&options, 0, 101), 0.01));
        assert!(close(rate(&options, 50, 101), 0.0055), "half-way: {}", rate(&options, 50, 101));
        assert!(close(rate(&options, 100, 101), 0.001));
        let steps: Vec<f32> = (0..101).map(|t| rate(&options, t, 101)).collect();
        assert!(steps.windows(2).all(|w| w[1] <= w[0]), "never rises");
        let constant = NetOptions { final_rate: 1.0, ..options };
        assert!((0..101).all(|t| close(rate(&constant, t, 101), 0.01)));
    }

    #[test]
    fn the_average_takes_evenly_spaced_snapshots_to_the_last_step() {
        let taken = |from: f32, steps: usize| (1..=steps).filter(|&t| snapshot_at(from, t, steps)).collect::<Vec<_>>();
        // From the end: the last step alone.
        assert_eq!(taken(1.0, 5_000), vec![5_000]);
        // Over the whole run: a thousand parts of five steps each, ending at the last.
        let all = taken(0.0, 5_000);
        assert_eq!(all.len(), AVERAGE_SNAPSHOTS);
        assert_eq!((all[0], *all.last().unwrap()), (5, 5_000));
        assert!(all.windows(2).all(|w| w[1] - w[0] == 5));
        // Over the second half: the half of them from step 2,500 on.
        let half = taken(0.5, 5_000);
        assert_eq!((half.len(), half[0]), (501, 2_500));
        // Fewer steps than parts: every step of the span.
        assert_eq!(taken(0.5, 10), vec![5, 6, 7, 8, 9, 10]);
        assert_eq!(taken(0.0, 1), vec![1]);
    }

    #[test]
    fn averaged_parameters_are_the_mean_of_the_runs_last_steps() {
        // A step size large enough that the last steps wander around the minimum.
        let (mut train, held, options) = and_task(4);
        let options = NetOptions { learning_rate: 0.02, ..options };
        let plain = train_net(&mut train.clone(), &options, None, &mut |_, _, _| {});
        // Averaged from the last step: that step's parameters, bit for bit.
        let last = NetOptions { average_from: Some(1.0), ..options };
        assert_eq!(train_net(&mut train.clone(), &last, None, &mut |_, _, _| {}), plain);
        // Averaged over the last epoch: other parameters, which generalise better than the last step's.
        let mut reported = None;
        let swa = NetOptions { average_from: Some(0.75), ..options };
        let mean = train_net(&mut train, &swa, None, &mut |epoch, _, p| reported = Some((epoch, p.clone())));
        assert_ne!(mean, plain);
        // The last epoch's report is of the average, the network returned.
        let (epoch, params) = reported.unwrap();
        assert_eq!(epoch, 3);
        assert_eq!(params.into_net(), mean);
        let (p, m) = (plain_mae(Some(&plain.params()), &held), plain_mae(Some(&mean.params()), &held));
        assert!(m < p, "averaged {m}, last step {p}");
    }

    #[test]
    fn distillation_moves_the_labels_towards_the_teachers_mean() {
        let (mut train, held, options) = and_task(2);
        let one = train_net(&mut train, &options, None, &mut |_, _, _| {}).params();
        let other = train_net(&mut train, &NetOptions { seed: 9, ..options }, None, &mut |_, _, _| {}).params();
        let teachers = [one.clone(), other.clone()];
        let said = |s: &NetSample| s.base + 0.5 * (forward(&one, s) + forward(&other, s));
        for threads in [1, 3] {
            // No share: the labels stay; the whole share: the teachers' mean; a quarter: a quarter of the way.
            for share in [0.0, 1.0, 0.25] {
                let mut moved = held.clone();
                distil(&mut moved, &teachers, options.shape, share, threads).unwrap();
                for (m, s) in moved.iter().zip(&held) {
                    let want = s.target + (said(s) - s.target) * share;
                    assert!((m.target - want).abs() < 1e-4, "share {share}: {} against {want}", m.target);
                    assert_eq!((m.rows(), m.weight, m.base), (s.rows(), s.weight, s.base));
                }
            }
        }
        // No teacher: nothing moves.
        let mut same = held.clone();
        distil(&mut same, &[], options.shape, 1.0, 2).unwrap();
        assert!(same.iter().zip(&held).all(|(a, b)| a.target == b.target));
        // A teacher that reads other rows is refused, and nothing moves.
        let wide = NetShape { buckets: 2, ..options.shape };
        let other_rows = train_net(
            &mut encode(&samples(4, 500), &Evaluator::new(&crate::eval::Weights::zero()), wide),
            &NetOptions { shape: wide, ..options },
            None,
            &mut |_, _, _| {},
        );
        let mut kept = held.clone();
        let error = distil(&mut kept, &[other_rows.params()], options.shape, 1.0, 1).unwrap_err();
        assert!(error.contains("2 bucket(s)"), "{error}");
        assert!(kept.iter().zip(&held).all(|(a, b)| a.target == b.target));
    }

    #[test]
    fn training_can_go_on_from_a_network() {
        let (mut train, held, options) = and_task(3);
        let mae = |net: &Net| plain_mae(Some(&net.params()), &held);
        let first = train_net(&mut train, &options, None, &mut |_, _, _| {});
        // A step size of zero leaves the starting network as it was, bit for bit.
        let frozen = NetOptions { epochs: 1, learning_rate: 0.0, ..options };
        let same = train_net(&mut train, &frozen, Some(&first), &mut |_, _, _| {});
        assert_eq!(same, first);
        // Going on from it does better than as many epochs from random parameters.
        let more = NetOptions { epochs: 1, ..options };
        let on = train_net(&mut train, &more, Some(&first), &mut |_, _, _| {});
        let fresh = train_net(&mut train, &more, None, &mut |_, _, _| {});
        assert!(mae(&on) < mae(&fresh), "went on: {}, from random: {}", mae(&on), mae(&fresh));
        // It keeps what it had learnt (a fresh Adam's first steps may shake it a little).
        assert!(mae(&on) < mae(&first) + 0.05, "went on: {}, before: {}", mae(&on), mae(&first));
    }
}
