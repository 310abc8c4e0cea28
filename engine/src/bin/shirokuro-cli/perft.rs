//! `shirokuro-cli perft N`.

use std::process::ExitCode;
use std::time::Instant;

use shirokuro_engine::{Backend, Board, perft};

/// Options of `perft`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Depth in plies (1–20).
    #[arg(value_parser = clap::value_parser!(u32).range(1..=20))]
    depth: u32,
    /// Print the count for every depth from 1 up to DEPTH.
    #[arg(long)]
    all: bool,
    /// Move generator to use (portable, avx2, avx512); default: the fastest this CPU supports.
    #[arg(long)]
    backend: Option<String>,
}

pub fn run(args: &Args) -> Result<ExitCode, String> {
    let backend = match args.backend.as_deref() {
        None => Backend::detect(),
        Some(name) => Backend::supported()
            .into_iter()
            .find(|b| b.name() == name)
            .ok_or_else(|| format!("backend {name:?} is unknown or not supported by this CPU"))?,
    };
    let first = if args.all { 1 } else { args.depth };
    outln!("backend: {}", backend.name());
    for depth in first..=args.depth {
        let start = Instant::now();
        let leaves = perft::perft_with(backend, &Board::INITIAL, depth);
        let secs = start.elapsed().as_secs_f64();
        outln!("perft({depth}) = {leaves}  time {secs:.3} s  {:.1} M leaves/s", leaves as f64 / secs.max(1e-9) / 1e6);
    }
    Ok(ExitCode::SUCCESS)
}
