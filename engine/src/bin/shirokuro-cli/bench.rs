//! `shirokuro-cli bench`: the endgame signature, or the midgame bench with `--midgame`.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use shirokuro_engine::bench;
use shirokuro_engine::eval::weights;
use shirokuro_engine::level::Selectivity;

/// Options of `bench` (the endgame signature has none: it is fixed by design).
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Run the midgame bench instead: 18 positions (52, 40 and 28 empties) searched to `--depth`.
    #[arg(long)]
    midgame: bool,
    /// Midgame bench depth.
    #[arg(long, default_value_t = 12, requires = "midgame")]
    depth: u8,
    /// Midgame bench selectivity index (0 = 74 % … 6 = 100 %, Egaroucid's numbering).
    #[arg(long, default_value_t = 6, requires = "midgame")]
    selectivity: u8,
    /// Midgame bench threads.
    #[arg(long, short, default_value_t = 1, requires = "midgame")]
    threads: usize,
    /// Weights for the midgame bench (default: the shipped weights).
    #[arg(long, requires = "midgame")]
    weights: Option<PathBuf>,
}

pub fn run(args: &Args) -> Result<ExitCode, String> {
    let result = if args.midgame {
        let selectivity = Selectivity::from_index(args.selectivity)
            .ok_or_else(|| format!("--selectivity {} is not 0–6", args.selectivity))?;
        let weights = match &args.weights {
            Some(path) => weights::load(path),
            None => weights::bundled(),
        }
        .map_err(|e| e.to_string())?;
        println!("midgame bench: depth {}, selectivity {selectivity}, {} threads", args.depth, args.threads);
        bench::run_midgame(Arc::new(weights), args.depth, selectivity, args.threads)
    } else {
        bench::run().map_err(|e| e.to_string())?
    };
    let secs = result.elapsed.as_secs_f64();
    println!(
        "bench: {} positions, {} nodes, {:.3} s, {:.1} M nodes/s",
        result.positions,
        result.nodes,
        secs,
        result.nodes as f64 / secs.max(1e-9) / 1e6
    );
    println!("Bench: {}", result.nodes);
    Ok(ExitCode::SUCCESS)
}
