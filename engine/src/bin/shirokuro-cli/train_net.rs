//! `shirokuro-cli train-net`: a small network over the pattern features, trained on a pattern evaluation's residual
//! (experiment; see `shirokuro_engine::tools::net`).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use shirokuro_engine::eval::Evaluator;
use shirokuro_engine::eval::net::{Inputs, MAX_DIM, MAX_HIDDEN, Net, NetParams, NetShape};
use shirokuro_engine::tools::net::{NetOptions, distil, encode, mae_20_50, train_net};

/// Options of `train-net`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Labelled positions to train on (`board64 X score` lines, e.g. from `label`). Repeat for several files.
    #[arg(long, required = true)]
    labels: Vec<PathBuf>,
    /// Labelled positions whose error counts --soft-weight times as much as the others' (noisy labels, such as a
    /// game's final result for an earlier position). Repeatable.
    #[arg(long)]
    soft_labels: Vec<PathBuf>,
    /// How much a --soft-labels position's error counts (0-1).
    #[arg(long, default_value_t = 0.5)]
    soft_weight: f32,
    /// Labelled positions to measure on after each epoch (MAE over moves 20-50, as `eval-error`). Repeatable.
    #[arg(long)]
    validation: Vec<PathBuf>,
    /// The pattern evaluation the network adds to (default: the shipped weights).
    #[arg(long)]
    weights: Option<PathBuf>,
    /// One training position in this many is held out.
    #[arg(long, default_value_t = 10)]
    holdout_every: usize,
    #[arg(long, default_value_t = 16)]
    dim: usize,
    #[arg(long, default_value_t = 32)]
    hidden: usize,
    #[arg(long, default_value_t = 4)]
    buckets: usize,
    /// The network also reads a row for the number of moves played and one for each side's mobility.
    #[arg(long)]
    moves_and_mobility: bool,
    #[arg(long, default_value_t = 10)]
    epochs: usize,
    #[arg(long, default_value_t = 256)]
    batch: usize,
    #[arg(long, default_value_t = 0.001)]
    learning_rate: f32,
    /// The step size at the end as a fraction of --learning-rate, reached along a half cosine (1: constant).
    #[arg(long, default_value_t = 1.0)]
    final_rate: f32,
    /// Huber loss with this bound in discs (0: squared error).
    #[arg(long, default_value_t = 0.0)]
    huber: f32,
    #[arg(long, default_value_t = 0.0)]
    l2: f32,
    /// Return the mean of the parameters from this fraction of the steps (0-1) to the end, taken a thousand times
    /// over the run (stochastic weight averaging), rather than the last step's.
    #[arg(long)]
    average_from: Option<f32>,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Start from this network (fine-tuning) instead of random parameters; its shape replaces --dim, --hidden,
    /// --buckets and --moves-and-mobility.
    #[arg(long)]
    init: Option<PathBuf>,
    /// A network whose output (averaged with the other --teacher networks') the training labels are moved towards
    /// by --teacher-share (knowledge distillation). Repeatable; each must have this network's buckets and inputs.
    #[arg(long)]
    teacher: Vec<PathBuf>,
    /// How far each training label moves towards the teachers' value (0: not at all, 1: the teachers' value alone).
    /// The held-out tenth and the validation sets keep their own labels.
    #[arg(long, default_value_t = 0.5)]
    teacher_share: f32,
    /// Positions trained on with the teachers' value alone as their label (whatever the file says): more positions
    /// for the teachers to teach on than the labelled ones. Repeatable; needs --teacher. All go to training.
    #[arg(long)]
    teacher_labels: Vec<PathBuf>,
    /// Labelled positions whose labels are exact (the solver's scores): trained on as --labels are, but never moved
    /// towards the teachers, whatever --teacher-share says. Repeatable.
    #[arg(long)]
    exact_labels: Vec<PathBuf>,
    /// Where to write the network.
    #[arg(long)]
    out: Option<PathBuf>,
}

pub fn run(args: &Args) -> Result<ExitCode, String> {
    let start = Instant::now();
    let weights = crate::label::load_weights(args.weights.as_ref())?;
    let evaluator = Evaluator::new(&weights);
    if !(1..=MAX_DIM).contains(&args.dim)
        || !(1..=MAX_HIDDEN).contains(&args.hidden)
        || !(1..=60).contains(&args.buckets)
    {
        return Err(format!("--dim must be 1-{MAX_DIM}, --hidden 1-{MAX_HIDDEN} and --buckets 1-60"));
    }
    if !(0.0..=1.0).contains(&args.final_rate) || args.huber.is_nan() || args.huber < 0.0 {
        return Err("--final-rate must be 0-1 and --huber 0 or more".to_string());
    }
    if args.average_from.is_some_and(|f| !(0.0..=1.0).contains(&f)) {
        return Err("--average-from must be 0-1".to_string());
    }
    if !(0.0..=1.0).contains(&args.teacher_share) {
        return Err("--teacher-share must be 0-1".to_string());
    }
    if !args.teacher_labels.is_empty() && args.teacher.is_empty() {
        return Err("--teacher-labels needs --teacher".to_string());
    }
    if !(0.0..=1.0).contains(&args.soft_weight) {
        return Err("--soft-weight must be 0-1".to_string());
    }
    let init = args.init.as_deref().map(Net::load).transpose().map_err(|e| format!("cannot read the network: {e}"))?;
    let inputs = if args.moves_and_mobility { Inputs::MovesAndMobility } else { Inputs::Patterns };
    let shape = init
        .as_ref()
        .map_or(NetShape { dim: args.dim, hidden: args.hidden, buckets: args.buckets, inputs }, Net::shape);
    let labels = crate::label::read_labels(&args.labels)?;
    let mut all = encode(&labels, &evaluator, shape);
    if !args.soft_labels.is_empty() {
        let soft = crate::label::read_labels(&args.soft_labels)?;
        all.extend(encode(&soft, &evaluator, shape).into_iter().map(|s| s.weighted(args.soft_weight)));
    }
    let every = args.holdout_every.max(2);
    let (mut train, mut held) = (Vec::new(), Vec::new());
    hold_out(all, every, &mut train, &mut held);
    let teachers = args
        .teacher
        .iter()
        .map(|p| Net::load(p).map(|n| n.params()).map_err(|e| format!("cannot read the teacher {}: {e}", p.display())))
        .collect::<Result<Vec<_>, _>>()?;
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    distil(&mut train, &teachers, shape, args.teacher_share, threads)?;
    if !args.exact_labels.is_empty() {
        let exact = encode(&crate::label::read_labels(&args.exact_labels)?, &evaluator, shape);
        hold_out(exact, every, &mut train, &mut held);
    }
    if !args.teacher_labels.is_empty() {
        let mut taught = encode(&crate::label::read_labels(&args.teacher_labels)?, &evaluator, shape);
        distil(&mut taught, &teachers, shape, 1.0, threads)?;
        train.extend(taught);
    }
    let mut sets = Vec::new();
    for path in &args.validation {
        let labels = crate::label::read_labels(std::slice::from_ref(path))?;
        sets.push((path.display().to_string(), encode(&labels, &evaluator, shape)));
    }
    outln!("{} training, {} held out, encoded in {:.1} s", train.len(), held.len(), start.elapsed().as_secs_f64());
    let options = NetOptions {
        shape,
        epochs: args.epochs,
        batch: args.batch.max(1),
        learning_rate: args.learning_rate,
        final_rate: args.final_rate,
        huber: args.huber,
        l2: args.l2,
        seed: args.seed,
        average_from: args.average_from,
    };
    let mut report = |epoch: usize, mse: f64, net: &NetParams| {
        let (b, n) = mae_20_50(net, &held);
        let mut line = format!(
            "epoch {:>3} {:>7.1} s  train RMS {:.3}  held-out MAE {b:.3} -> {n:.3}",
            epoch + 1,
            start.elapsed().as_secs_f64(),
            mse.sqrt()
        );
        for (_, set) in &sets {
            let (b, n) = mae_20_50(net, set);
            line.push_str(&format!("  | {b:.3} -> {n:.3}"));
        }
        outln!("{line}");
    };
    let net = train_net(&mut train, &options, init.as_ref(), &mut report);
    if let Some(out) = &args.out {
        net.save(out).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
        outln!("network written to {}", out.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// Every `every`-th sample (the last of each run of `every`) goes to `held`, the rest to `train`.
fn hold_out<T>(samples: Vec<T>, every: usize, train: &mut Vec<T>, held: &mut Vec<T>) {
    for (i, s) in samples.into_iter().enumerate() {
        if i % every == every - 1 { held.push(s) } else { train.push(s) }
    }
}
