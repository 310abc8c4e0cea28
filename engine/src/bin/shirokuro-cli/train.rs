//! `shirokuro-cli train`: fit the pattern evaluation to game records.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use shirokuro_engine::eval::{MAX_PHASES, PHASES, first_discs, phase, weights};
use shirokuro_engine::format::records::{RecordFormat, parse_records_lenient};
use shirokuro_engine::tools::train::{LabelOptions, TrainOptions, label_records, train};

/// Options of `train`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Game-record files (one game per line; the format is detected from the content). Repeat for several files.
    #[arg(long = "records", required = true)]
    records: Vec<PathBuf>,
    /// Use at most this many games from each file (0 = all).
    #[arg(long, default_value_t = 0)]
    max_games: usize,
    /// Label positions with at most this many empties by solving them exactly.
    #[arg(long, default_value_t = 12)]
    solve_empties: u32,
    /// Full-batch Adam steps per phase.
    #[arg(long, default_value_t = 300)]
    epochs: usize,
    /// Adam step size (discs).
    #[arg(long, default_value_t = 0.05)]
    learning_rate: f32,
    /// L2 penalty.
    #[arg(long, default_value_t = 1e-4)]
    l2: f32,
    /// One position in this many is held out for validation.
    #[arg(long, default_value_t = 10)]
    validation_every: u64,
    /// Worker threads (default: all cores).
    #[arg(long, short = 't', value_parser = crate::limits::threads)]
    threads: Option<usize>,
    /// Each phase also learns from the phases up to this many away (weighted 1 / (1 + distance)).
    #[arg(long, default_value_t = 0)]
    phase_window: usize,
    /// Start from these weights (fine-tuning); the L2 penalty then pulls towards them. They may have another phase
    /// count: each phase then starts from the one of --init that holds its first disc count.
    #[arg(long)]
    init: Option<PathBuf>,
    /// Number of phases (weight sets by disc count), 1 to 60: 30 gives two disc counts a phase (as the shipped
    /// evaluation), 60 one per move. Default: the phase count of --init, else 30.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=MAX_PHASES as i64))]
    phases: Option<u16>,
    /// Keep the pattern tables as --init has them and fit only the mobility, disc-count and bias tables (for
    /// fine-tuning on a few thousand positions, too few for the pattern tables).
    #[arg(long, requires = "init")]
    freeze_patterns: bool,
    /// Where to write the weights (written atomically; an existing file is kept as .bak).
    #[arg(long)]
    out: PathBuf,
}

pub fn run(args: &Args) -> Result<ExitCode, String> {
    let (pool, _) = crate::limits::pool(args.threads)?;
    pool.install(|| run_in_pool(args))
}

fn run_in_pool(args: &Args) -> Result<ExitCode, String> {
    let start = Instant::now();
    let mut records = Vec::new();
    for path in &args.records {
        let text = shirokuro_engine::bounded::read_to_string(path, shirokuro_engine::bounded::RECORDS_BYTES)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let format = RecordFormat::detect(&text)
            .ok_or_else(|| format!("{}: cannot tell which record format this is", path.display()))?;
        let mut parsed = parse_records_lenient(&text, format);
        if args.max_games > 0 {
            parsed.records.truncate(args.max_games);
        }
        outln!(
            "{}: {} format, {} records, {} lines skipped",
            path.display(),
            format.name(),
            parsed.records.len(),
            parsed.skipped.len()
        );
        for error in parsed.skipped.iter().take(5) {
            outln!("  skipped: {error}");
        }
        records.extend(parsed.records);
    }
    let labels = LabelOptions { solve_empties: args.solve_empties, ..LabelOptions::default() };
    let samples = label_records(&records, &labels);
    outln!("{} positions labelled in {:.1} s", samples.len(), start.elapsed().as_secs_f64());
    let init = match &args.init {
        Some(path) => Some(std::sync::Arc::new(weights::load(path).map_err(|e| e.to_string())?)),
        None => None,
    };
    let phases = args.phases.map_or_else(|| init.as_ref().map_or(PHASES, |w| w.phases()), usize::from);
    let options = TrainOptions {
        epochs: args.epochs,
        learning_rate: args.learning_rate,
        l2: args.l2,
        validation_every: args.validation_every,
        phase_window: args.phase_window,
        freeze_patterns: args.freeze_patterns,
        init,
        phases,
    };
    let (weights, reports) = train(&samples, &options, &|_| {});
    outln!("{:>5} {:>9} {:>9} {:>9} {:>9} {:>8}", "phase", "discs", "train", "held-out", "train MSE", "MAE");
    for r in &reports {
        outln!(
            "{:>5} {:>4}-{:<4} {:>9} {:>9} {:>9.2} {:>8.2}",
            r.phase,
            first_discs(r.phase, phases),
            first_discs(r.phase + 1, phases) - 1,
            r.train_count,
            r.validation_count,
            r.train_mse,
            r.validation_mae
        );
    }
    // Moves 20-50 have 24-54 discs on the board (with 30 phases: phases 10-25).
    let (low, high) = (phase(24, phases), phase(55, phases));
    let middle: Vec<f64> = reports[low..=high].iter().map(|r| r.validation_mae).collect();
    outln!(
        "held-out MAE averaged over moves 20-50 (phases {low}-{high}): {:.2} discs",
        middle.iter().sum::<f64>() / middle.len() as f64
    );
    weights::save(&weights, &args.out).map_err(|e| e.to_string())?;
    outln!("weights written to {} ({:.1} s in all)", args.out.display(), start.elapsed().as_secs_f64());
    Ok(ExitCode::SUCCESS)
}
