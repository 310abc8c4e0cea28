//! `shirokuro-cli gtp`: the engine as a GTP program for GoGui, Quarry and gogui-twogtp (see
//! `shirokuro_engine::protocol::gtp` and docs/protocols.md).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use shirokuro_engine::book::{self, Book, file::ReadOptions};
use shirokuro_engine::level::Level;
use shirokuro_engine::protocol::gtp::GtpSession;
use shirokuro_engine::protocol::{PolicyEngine, Protocol, serve};
use shirokuro_engine::rng::GameRng;
use shirokuro_engine::search::SolveOptions;
use shirokuro_engine::think::{Policy, Thinker};

use crate::evaluation::EvalArgs;

/// Engine options shared by `gtp` and `nboard`.
#[derive(Debug, clap::Args)]
pub struct EngineArgs {
    #[command(flatten)]
    evaluation: EvalArgs,
    /// Level (1-60) until the GUI sets one.
    #[arg(long, default_value = "10")]
    pub level: Level,
    /// Search threads for the endgame solver (default: all cores).
    #[arg(long, short = 't', value_parser = crate::limits::threads)]
    threads: Option<usize>,
    /// Each transposition table has 2^H entries of 24 bytes (10-28).
    #[arg(long, default_value_t = 20, value_parser = crate::limits::hash_level)]
    hash_level: u8,
}

/// The AI's policy options shared by `gtp` and `nboard`.
#[derive(Debug, clap::Args)]
pub struct PolicyArgs {
    /// Opening book to play from (any format the engine reads: egbk3, egbk2, egbk, Edax .dat, Egaroucid text).
    #[arg(long)]
    book: Option<PathBuf>,
    /// Seed of the random choices (book moves among equals); default: from the clock.
    #[arg(long)]
    seed: Option<u64>,
}

impl EngineArgs {
    /// Loads the evaluation and builds the engine.
    pub fn thinker(&self) -> Result<Thinker, String> {
        let threads =
            self.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, std::num::NonZero::get));
        self.evaluation.thinker(SolveOptions::default().with_threads(threads).with_hash_level(self.hash_level))
    }

    /// The engine with the AI's policy: the thinker, the book if any, the seed.
    pub fn engine(&self, policy: &PolicyArgs) -> Result<PolicyEngine, String> {
        let thinker = self.thinker()?;
        let book = load_book(policy.book.as_deref())?;
        let rng = GameRng::new(policy.seed.unwrap_or_else(clock_seed));
        Ok(PolicyEngine::new(thinker, Policy::new(self.level), book, rng))
    }
}

/// The book of `--book`, if given.
pub fn load_book(path: Option<&Path>) -> Result<Option<Arc<Book>>, String> {
    let Some(path) = path else { return Ok(None) };
    let (book, _format) = book::load(path, None, ReadOptions::default()).map_err(|e| e.to_string())?;
    Ok(Some(Arc::new(book)))
}

/// A seed from the clock, for runs without `--seed`.
pub fn clock_seed() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64 | 1)
}

/// Options of `gtp`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    engine: EngineArgs,
    #[command(flatten)]
    policy: PolicyArgs,
}

pub fn run(args: &Args) -> Result<ExitCode, String> {
    let engine = Arc::new(args.engine.engine(&args.policy)?);
    serve_stdio(&mut GtpSession::new(engine, args.engine.level), "gtp")
}

/// Runs a protocol session on the standard streams until it ends.
pub fn serve_stdio<P: Protocol>(session: &mut P, name: &str) -> Result<ExitCode, String> {
    serve(session, std::io::BufReader::new(std::io::stdin()), &mut std::io::stdout().lock(), &mut std::io::stderr())
        .map_err(|e| format!("{name}: {e}"))?;
    Ok(ExitCode::SUCCESS)
}
