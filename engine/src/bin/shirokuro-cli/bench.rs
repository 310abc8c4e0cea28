//! `shirokuro-cli bench`: the endgame signature, the midgame bench with `--midgame`, or the selective-endgame bench
//! with `--selective-end`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use shirokuro_engine::eval::Weights;
use shirokuro_engine::format::records::{RecordFormat, RecordedResult, parse_records};
use shirokuro_engine::level::Selectivity;
use shirokuro_engine::search::mpc::MpcModel;
use shirokuro_engine::tools::bench;

/// Options of `bench` (the endgame signature has none: it is fixed by design).
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("search").args(["midgame", "selective_end"])))]
pub struct Args {
    /// Run the midgame bench instead: 18 positions (52, 40 and 28 empties) searched to `--depth`.
    #[arg(long)]
    midgame: bool,
    /// Run the selective-endgame bench instead: FFO #40-#49 (20-26 empties) searched to the end at `--selectivity`
    /// by the midgame search, as the AI levels' selective endgame stages do; prints each score against the exact one.
    #[arg(long)]
    selective_end: bool,
    /// Midgame bench depth.
    #[arg(long, default_value_t = 12, requires = "midgame")]
    depth: u8,
    /// Selectivity index (0 = 74 % … 6 = 100 %, Egaroucid's numbering); default 6 for the midgame bench, 3 (98 %)
    /// for the selective-endgame bench.
    #[arg(long, requires = "search", value_parser = crate::limits::selectivity)]
    selectivity: Option<Selectivity>,
    /// Search threads.
    #[arg(long, short, default_value_t = 1, requires = "search", value_parser = crate::limits::threads)]
    threads: usize,
    /// Weights (default: the shipped weights).
    #[arg(long, requires = "search")]
    weights: Option<PathBuf>,
    /// Positions for the selective-endgame bench instead of FFO #40-#49: `board64 X score` lines with exact scores
    /// (as `label` writes them; positions with fewer than 14 empties are skipped).
    #[arg(long, requires = "selective_end")]
    positions: Option<PathBuf>,
    /// A network added to the weights (`train-net --out`; `resources/eval/shirokuro-net-5.net` is the app's default
    /// AI): the benches then time the network's searches.
    #[arg(long, requires = "search")]
    net: Option<PathBuf>,
    /// Multi-ProbCut model file (`mpc-fit`'s output; default: the bundled model, or with --net the one fitted to the
    /// shipped network).
    #[arg(long, requires = "search")]
    mpc: Option<PathBuf>,
}

pub fn run(args: &Args) -> Result<ExitCode, String> {
    let result = if args.midgame || args.selective_end {
        let selectivity = args.selectivity.unwrap_or(if args.midgame { Selectivity::Exact } else { Selectivity::P98 });
        let patterns = crate::label::load_weights(args.weights.as_ref())?;
        let weights = Arc::new(crate::label::with_net(patterns, args.net.as_ref())?);
        let mpc = crate::evaluation::mpc_model(args.mpc.as_deref(), args.net.is_some())?;
        if args.midgame {
            outln!("midgame bench: depth {}, selectivity {selectivity}, {} threads", args.depth, args.threads);
            bench::run_midgame(weights, mpc.as_ref(), args.depth, selectivity, args.threads)
        } else {
            let source = args.positions.as_ref().map_or_else(|| "FFO #40-#49".to_owned(), |p| p.display().to_string());
            outln!("selective-endgame bench: {source} to the end at {selectivity}, {} threads", args.threads);
            match &args.positions {
                None => selective_end(weights, mpc.as_ref(), selectivity, args.threads),
                Some(path) => selective_end_on(path, weights, mpc.as_ref(), selectivity, args.threads)?,
            }
        }
    } else {
        bench::run().map_err(|e| e.to_string())?
    };
    let secs = result.elapsed.as_secs_f64();
    outln!(
        "bench: {} positions, {} nodes, {:.3} s, {:.1} M nodes/s",
        result.positions,
        result.nodes,
        secs,
        result.nodes as f64 / secs.max(1e-9) / 1e6
    );
    outln!("Bench: {}", result.nodes);
    Ok(ExitCode::SUCCESS)
}

/// Runs the selective-endgame bench, printing a line per position and the error against the exact scores.
fn selective_end(
    weights: Arc<Weights>,
    mpc: Option<&MpcModel>,
    selectivity: Selectivity,
    threads: usize,
) -> bench::BenchResult {
    let results = bench::run_selective_end(weights, mpc, selectivity, threads);
    outln!("  FFO  score  exact  error        nodes       s");
    for (i, r) in results.iter().enumerate() {
        outln!(
            "  #{:<3} {:+5}  {:+5}  {:5}  {:11}  {:6.2}",
            40 + i,
            r.score,
            r.exact,
            (r.score - r.exact).abs(),
            r.nodes,
            r.elapsed.as_secs_f64()
        );
    }
    let wrong = results.iter().filter(|r| r.score != r.exact).count();
    let error: i32 = results.iter().map(|r| (r.score - r.exact).abs()).sum();
    outln!("scores off the exact one: {wrong} of {} (total error {error} discs)", results.len());
    bench::BenchResult::from_selective_end(&results)
}

/// Runs the selective-endgame bench on the exactly scored positions of `path`, printing the error distribution.
fn selective_end_on(
    path: &Path,
    weights: Arc<Weights>,
    mpc: Option<&MpcModel>,
    selectivity: Selectivity,
    threads: usize,
) -> Result<bench::BenchResult, String> {
    let text = shirokuro_engine::bounded::read_to_string(path, shirokuro_engine::bounded::RECORDS_BYTES)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let records = parse_records(&text, RecordFormat::ExactPosition).map_err(|e| format!("{}: {e}", path.display()))?;
    let positions: Vec<_> = records
        .iter()
        .filter_map(|r| match r.recorded {
            RecordedResult::Exact(score) if r.start.board.empty_count() >= 14 => Some((r.start, score)),
            _ => None,
        })
        .collect();
    if positions.is_empty() {
        return Err(format!("{}: no position with 14 or more empties", path.display()));
    }
    outln!("{} positions from {}", positions.len(), path.display());
    let results = bench::run_selective_end_on(&positions, weights, mpc, selectivity, threads);
    let errors: Vec<i32> = results.iter().map(|r| (r.score - r.exact).abs()).collect();
    let n = errors.len();
    let count = |f: &dyn Fn(i32) -> bool| errors.iter().filter(|&&e| f(e)).count();
    let percent = |k: usize| 100.0 * k as f64 / n as f64;
    let exact = count(&|e| e == 0);
    let small = count(&|e| e > 0 && e <= 2);
    let large = count(&|e| e > 2);
    outln!(
        "exact score: {exact} ({:.1} %), off by 1-2: {small} ({:.1} %), off by more: {large} ({:.1} %); \
         mean error {:.3} discs",
        percent(exact),
        percent(small),
        percent(large),
        f64::from(errors.iter().sum::<i32>()) / n as f64
    );
    Ok(bench::BenchResult::from_selective_end(&results))
}
