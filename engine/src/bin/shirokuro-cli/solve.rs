//! `shirokuro-cli solve FILE.obf`: exact endgame solving of a test suite.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use shirokuro_engine::notation::parse_obf_file;
use shirokuro_engine::search::{SolveMode, SolveOptions, Solver};
use shirokuro_engine::{Backend, Move};

/// Options of `solve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// OBF file: one `board side; move:score; …` line per position.
    file: PathBuf,
    /// Search threads (default: all cores).
    #[arg(long, short = 't', value_parser = crate::limits::threads)]
    threads: Option<usize>,
    /// The transposition table has 2^H entries of 24 bytes (10–32).
    #[arg(long, default_value_t = 24, value_parser = crate::limits::hash_level)]
    hash_level: u8,
    /// Number of the file's first position (default: read from a name like `ffo-40-59.obf`, else 1).
    #[arg(long)]
    first_id: Option<usize>,
    /// Solve only positions with these ids, e.g. `40-44` or `45`.
    #[arg(long)]
    only: Option<String>,
    /// Only win/draw/loss instead of the exact score.
    #[arg(long)]
    wld: bool,
    /// Move generator (portable, avx2, avx512); default: the fastest this CPU supports.
    #[arg(long)]
    backend: Option<String>,
    /// Evaluation weights for the move ordering at many empties (default: the shipped weights, built into the program).
    #[arg(long)]
    weights: Option<PathBuf>,
    /// Order moves by mobility alone, without an evaluation (experiments).
    #[arg(long, conflicts_with = "weights")]
    zero_weights: bool,
}

/// The first number of a `…-A-B.obf` file name.
fn id_from_name(path: &std::path::Path) -> Option<usize> {
    let stem = path.file_stem()?.to_str()?;
    let mut parts = stem.rsplit('-');
    let _last = parts.next()?.parse::<usize>().ok()?;
    parts.next()?.parse().ok()
}

fn parse_range(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("--only {text:?}: expected N or N-M");
    match text.split_once('-') {
        Some((a, b)) => Ok((a.trim().parse().map_err(|_| bad())?, b.trim().parse().map_err(|_| bad())?)),
        None => {
            let n = text.trim().parse().map_err(|_| bad())?;
            Ok((n, n))
        }
    }
}

pub fn run(args: &Args) -> Result<ExitCode, String> {
    let text = shirokuro_engine::bounded::read_to_string(&args.file, shirokuro_engine::bounded::RECORDS_BYTES)
        .map_err(|e| format!("cannot read {}: {e}", args.file.display()))?;
    let entries = parse_obf_file(&text).map_err(|e| format!("{}: {e}", args.file.display()))?;
    let first_id = args.first_id.or_else(|| id_from_name(&args.file)).unwrap_or(1);
    let range = args.only.as_deref().map(parse_range).transpose()?;
    let threads = args.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from));
    let mut options = SolveOptions::default().with_threads(threads).with_hash_level(args.hash_level);
    if let Some(name) = &args.backend {
        let backend = Backend::supported()
            .into_iter()
            .find(|b| b.name() == name)
            .ok_or_else(|| format!("backend {name:?} is unknown or not supported by this CPU"))?;
        options = options.with_backend(backend);
    }
    let mut solver = Solver::new(options).map_err(|e| e.to_string())?;
    if !args.zero_weights {
        let weights = match &args.weights {
            Some(path) => shirokuro_engine::eval::weights::load(path),
            None => shirokuro_engine::eval::weights::bundled(),
        }
        .map_err(|e| e.to_string())?;
        solver.set_weights(Some(std::sync::Arc::new(weights)));
    }
    let mode = if args.wld { SolveMode::WinLossDraw } else { SolveMode::Exact };
    outln!(
        "solving {} ({} positions) with {} thread(s), hash level {} ({} MiB), backend {}, {}, {}",
        args.file.display(),
        entries.len(),
        solver.threads(),
        args.hash_level,
        solver.table_bytes() >> 20,
        solver.backend().name(),
        if args.wld { "win/draw/loss" } else { "exact" },
        match (&args.weights, args.zero_weights) {
            (_, true) => "mobility ordering (no weights)".to_owned(),
            (Some(path), false) => format!("weights {}", path.display()),
            (None, false) => "the shipped weights".to_owned(),
        }
    );
    outln!(
        "{:>4} {:>3} {:>6} {:>5} {:>8} {:>6} {:>14} {:>9} {:>8}  pv",
        "id",
        "emp",
        "score",
        "best",
        "expected",
        "",
        "nodes",
        "time",
        "Mn/s"
    );
    let (mut total_nodes, mut total_time, mut wrong, mut solved) = (0u64, Duration::ZERO, 0usize, 0usize);
    for (index, entry) in entries.iter().enumerate() {
        let id = first_id + index;
        if range.is_some_and(|(a, b)| id < a || id > b) {
            continue;
        }
        solver.clear();
        let board = entry.position.board;
        let result = solver.solve(&board, mode);
        let expected = entry.moves.iter().map(|&(_, s)| s).max();
        let expected = match (expected, mode) {
            (Some(s), SolveMode::WinLossDraw) => Some(s.signum()),
            (s, _) => s,
        };
        let verdict = match expected {
            Some(s) if s == result.score => "OK",
            Some(_) => {
                wrong += 1;
                "WRONG"
            }
            None => "-",
        };
        let best = result.best_move.map_or_else(|| "--".to_owned(), |m| m.to_string());
        let pv: String = result.pv.iter().map(Move::to_string).collect::<Vec<_>>().join(" ");
        outln!(
            "{id:>4} {:>3} {:>+6} {best:>5} {:>8} {verdict:>6} {:>14} {:>8.2}s {:>8.1}  {pv}",
            board.empty_count(),
            result.score,
            expected.map_or_else(|| "?".to_owned(), |s| format!("{s:+}")),
            result.nodes,
            result.elapsed.as_secs_f64(),
            result.nodes_per_second() / 1e6,
        );
        total_nodes += result.nodes;
        total_time += result.elapsed;
        solved += 1;
    }
    let secs = total_time.as_secs_f64();
    outln!(
        "total: {solved} positions, {wrong} wrong, {total_nodes} nodes, {secs:.2} s, {:.1} M nodes/s",
        total_nodes as f64 / secs.max(1e-9) / 1e6
    );
    Ok(if wrong > 0 { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}
