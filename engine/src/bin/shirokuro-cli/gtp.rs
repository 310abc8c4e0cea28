//! `shirokuro-cli gtp`: the engine as a GTP program for GoGui, Quarry and gogui-twogtp (see
//! `shirokuro_engine::protocol::gtp` and docs/protocols.md).

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use shirokuro_engine::eval::{Weights, weights};
use shirokuro_engine::level::Level;
use shirokuro_engine::protocol::gtp::GtpSession;
use shirokuro_engine::protocol::{Protocol, serve};
use shirokuro_engine::search::SolveOptions;
use shirokuro_engine::think::Thinker;

/// Engine options shared by `gtp` and `nboard`.
#[derive(Debug, clap::Args)]
pub struct EngineArgs {
    /// Evaluation weights file (default: the shipped weights, built into the program).
    #[arg(long)]
    weights: Option<PathBuf>,
    /// Play with an all-zero evaluation (no weights file).
    #[arg(long, conflicts_with = "weights")]
    zero_weights: bool,
    /// Level (1-60) until the GUI sets one.
    #[arg(long, default_value = "10")]
    pub level: Level,
    /// Search threads for the endgame solver (default: all cores).
    #[arg(long, short = 't')]
    threads: Option<usize>,
    /// Each transposition table has 2^H entries of 24 bytes (10-28).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u8).range(10..=28))]
    hash_level: u8,
}

impl EngineArgs {
    /// Loads the weights and builds the engine.
    pub fn thinker(&self) -> Result<Thinker, String> {
        let weights = if self.zero_weights {
            Weights::zero()
        } else {
            match &self.weights {
                Some(path) => weights::load(path),
                None => weights::bundled(),
            }
            .map_err(|e| e.to_string())?
        };
        let threads =
            self.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, std::num::NonZero::get));
        let options = SolveOptions::default().with_threads(threads).with_hash_level(self.hash_level);
        Thinker::new(Arc::new(weights), options).map_err(|e| e.to_string())
    }
}

/// Options of `gtp`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    engine: EngineArgs,
}

pub fn run(args: &Args) -> Result<ExitCode, String> {
    let thinker = Arc::new(args.engine.thinker()?);
    serve_stdio(&mut GtpSession::new(thinker, args.engine.level), "gtp")
}

/// Runs a protocol session on the standard streams until it ends.
pub fn serve_stdio<P: Protocol>(session: &mut P, name: &str) -> Result<ExitCode, String> {
    serve(session, std::io::BufReader::new(std::io::stdin()), &mut std::io::stdout().lock(), &mut std::io::stderr())
        .map_err(|e| format!("{name}: {e}"))?;
    Ok(ExitCode::SUCCESS)
}
