//! `shirokuro-cli parity-lean`: the evaluation's lean by the parity of the empties, phase by phase, against
//! labelled positions (`shirokuro_engine::tools::parity_lean`), and optionally the weights with it removed.

use std::ops::RangeInclusive;
use std::path::PathBuf;
use std::process::ExitCode;

use shirokuro_engine::eval::{SCALE, weights};
use shirokuro_engine::tools::parity_lean::{self, ErrorSum, STAGES};

/// Options of `parity-lean`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Labelled positions (`board64 X score` lines: `label`, `corpus export --positions`). Repeat for several files.
    #[arg(long, required = true)]
    labels: Vec<PathBuf>,
    /// The weights to measure (default: the shipped weights).
    #[arg(long)]
    weights: Option<PathBuf>,
    /// Write the weights with the lean of the chosen phases removed here (atomically; an existing file is kept as
    /// .bak). Only the parity half of each phase's disc-count table moves. Weights with fewer than 30 phases (or a
    /// count that does not divide 60) have phases that straddle stages and are left as they are.
    #[arg(long)]
    out: Option<PathBuf>,
    /// The stages to correct, `A-B` (stage = (discs - 4) / 2, 0-29: the phase of a 30-phase evaluation; with 60
    /// phases a stage is two phases, both corrected).
    #[arg(long, default_value = "0-29", value_parser = parse_phases)]
    phases: RangeInclusive<usize>,
    /// Correct a stage only when each parity has at least this many positions.
    #[arg(long, default_value_t = 100)]
    min_positions: usize,
}

fn parse_phases(text: &str) -> Result<RangeInclusive<usize>, String> {
    let bad = || format!("{text:?}: expected stages as A-B between 0 and {}", STAGES - 1);
    let (low, high) = text.split_once('-').ok_or_else(bad)?;
    let (low, high): (usize, usize) = (low.trim().parse().map_err(|_| bad())?, high.trim().parse().map_err(|_| bad())?);
    if low > high || high >= STAGES { Err(bad()) } else { Ok(low..=high) }
}

fn mean(errors: &ErrorSum) -> String {
    errors.mean().map_or_else(|| "-".to_owned(), |m| format!("{m:+.2}"))
}

pub fn run(args: &Args) -> Result<ExitCode, String> {
    let weights = crate::label::load_weights(args.weights.as_ref())?;
    let labels = crate::label::read_labels(&args.labels)?;
    let errors = parity_lean::measure(&weights, &labels);
    let (corrected, shifts) = parity_lean::remove(&weights, &errors, args.phases.clone(), args.min_positions);
    outln!("{} positions; error = evaluation - label, discs; lean = (even - odd) / 2", labels.len());
    outln!("stage  moves   even-empties      odd-empties      lean  removed");
    for (p, phase) in errors.iter().enumerate() {
        if phase.even.count + phase.odd.count == 0 {
            continue;
        }
        let lean = phase.lean(1).map_or_else(|| "-".to_owned(), |l| format!("{l:+.2}"));
        let removed = shifts[p].map_or_else(String::new, |s| format!("{:+.2}", f64::from(s) / f64::from(SCALE)));
        outln!(
            "{p:>5}  {:>2}-{:<2} {:>8} {:>6}  {:>8} {:>6}  {lean:>6}  {removed:>6}",
            2 * p,
            2 * p + 1,
            phase.even.count,
            mean(&phase.even),
            phase.odd.count,
            mean(&phase.odd)
        );
    }
    if let Some(out) = &args.out {
        weights::save(&corrected, out).map_err(|e| e.to_string())?;
        let changed = shifts.iter().flatten().count();
        outln!("{changed} stages corrected; weights written to {}", out.display());
    }
    Ok(ExitCode::SUCCESS)
}
