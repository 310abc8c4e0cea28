//! `shirokuro-cli bench`.

use std::process::ExitCode;

use shirokuro_engine::bench;

/// Options of `bench` (none yet: the bench is fixed by design).
#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_args: &Args) -> Result<ExitCode, String> {
    let result = bench::run().map_err(|e| e.to_string())?;
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
