//! `shirokuro-cli mpc-fit`: measure shallow-versus-deep search scores and fit the Multi-ProbCut model.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use shirokuro_engine::search::mpc::MAX_ENDGAME_REDUCTION;
use shirokuro_engine::tools::mpc_fit::{FitOptions, measure};

/// Options of `mpc-fit`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Game records to sample positions from (any format `train` reads).
    #[arg(long = "records", required = true)]
    records: Vec<PathBuf>,
    /// Evaluation weights (default: the shipped weights).
    #[arg(long)]
    weights: Option<PathBuf>,
    /// A network (`train-net --out`) added to the evaluation.
    #[arg(long)]
    net: Option<PathBuf>,
    /// Where to write the model (default: print it only).
    #[arg(long, short)]
    out: Option<PathBuf>,
    /// Midgame positions to measure.
    #[arg(long, default_value_t = 600)]
    midgame_positions: usize,
    /// Deepest midgame search.
    #[arg(long, default_value_t = 10)]
    max_depth: u8,
    /// Endgame positions to measure (13–22 empties).
    #[arg(long, default_value_t = 300)]
    endgame_positions: usize,
    /// Also fit a probe of the searches to the end this many plies shallower than half the empties (even, 2–8;
    /// 0 = none), for the levels' selective endgame stages (`endgame-reduced` line of the model).
    #[arg(long, default_value_t = 0)]
    endgame_reduction: u32,
    /// Sampling seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long, short, value_parser = crate::limits::threads)]
    threads: Option<usize>,
}

pub fn run(args: &Args) -> Result<ExitCode, String> {
    let start = Instant::now();
    let weights = crate::label::with_net(crate::label::load_weights(args.weights.as_ref())?, args.net.as_ref())?;
    if !args.endgame_reduction.is_multiple_of(2) || args.endgame_reduction > MAX_ENDGAME_REDUCTION {
        return Err(format!(
            "--endgame-reduction {} must be an even number of plies from 0 to {MAX_ENDGAME_REDUCTION}",
            args.endgame_reduction
        ));
    }
    let games = crate::label::read_games(&args.records, 0)?;
    outln!("{} games read in {:.1} s", games.len(), start.elapsed().as_secs_f64());
    let options = FitOptions {
        midgame_positions: args.midgame_positions,
        max_depth: args.max_depth,
        endgame_positions: args.endgame_positions,
        endgame_reduction: args.endgame_reduction,
        seed: args.seed,
        ..FitOptions::default()
    };
    let (pool, _) = crate::limits::pool(args.threads)?;
    let report = pool
        .install(|| {
            measure(&games, &Arc::new(weights), &options, &|done, total| {
                if done % 50 == 0 || done == total {
                    errln!("{done}/{total} positions measured ({:.0} s)", start.elapsed().as_secs_f64());
                }
            })
        })
        .map_err(|e| e.to_string())?;
    out!("{}", report.table());
    let mut comment = format!(
        "fitted by `shirokuro-cli mpc-fit` on {} midgame positions (depth ≤ {}) and {} endgame positions, seed {}",
        args.midgame_positions, args.max_depth, args.endgame_positions, args.seed
    );
    if let Some(net) = &args.net {
        comment.push_str(&format!(", with the network {}", net.display()));
    }
    if args.endgame_reduction > 0 {
        comment.push_str(&format!(", reduced endgame probe {} plies shallower", args.endgame_reduction));
    }
    let text = report.model.to_text(&comment);
    out!("{text}");
    if let Some(path) = &args.out {
        shirokuro_engine::fsutil::save_atomically(path, shirokuro_engine::fsutil::Backup::Keep, |w| {
            w.write_all(text.as_bytes())
        })
        .map_err(|e| e.to_string())?;
        outln!("written to {}", path.display());
    }
    outln!("{:.1} s", start.elapsed().as_secs_f64());
    Ok(ExitCode::SUCCESS)
}
