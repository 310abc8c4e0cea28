//! `shirokuro-cli label` (deep-search labels for positions sampled from game records) and `shirokuro-cli
//! eval-error` (the static evaluation's error against such labels).

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use shirokuro_engine::Board;
use shirokuro_engine::eval::net::Net;
use shirokuro_engine::eval::{Evaluator, Weights, weights};
use shirokuro_engine::format::records::{RecordFormat, RecordedResult, parse_records_lenient};
use shirokuro_engine::level::Selectivity;
use shirokuro_engine::position::Position;
use shirokuro_engine::tools::label::{
    LabelSpec, Labelled, evaluation_error, label_boards, result_labels, sample, search_error,
};
use shirokuro_engine::tools::label_checkpoint::Checkpoint;
use shirokuro_engine::tools::net::{encode, net_error};

/// Options of `label`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Game records to sample positions from (any format `train` reads).
    #[arg(long = "records", required = true)]
    records: Vec<PathBuf>,
    /// Output file (`board64 X score` lines, readable by `train` and `eval-error`). Until it is written, the labels
    /// finished so far are kept in OUT.resume: a run stopped at any moment (Ctrl-C, a signal, a kill) goes on from
    /// there when the same command is run again.
    #[arg(long, short)]
    out: PathBuf,
    /// Use only the first N games of each file (0 = all).
    #[arg(long, default_value_t = 0)]
    max_games: usize,
    /// Positions per game.
    #[arg(long, default_value_t = 4)]
    per_game: usize,
    /// Fewest discs of a sampled position.
    #[arg(long, default_value_t = 8)]
    min_discs: u32,
    /// Most discs of a sampled position.
    #[arg(long, default_value_t = 60)]
    max_discs: u32,
    /// Midgame search depth of the labels.
    #[arg(long, default_value_t = 10)]
    depth: u8,
    /// Selectivity index of the labelling search (0 = 74 % … 6 = 100 %).
    #[arg(long, default_value = "2", value_parser = crate::limits::selectivity)]
    selectivity: Selectivity,
    /// Positions with at most this many empties are solved exactly.
    #[arg(long, default_value_t = 16)]
    exact_empties: u32,
    /// Sampling seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Pass over the first N positions of each game that the seed picks (those a run with `--per-game N` and the
    /// same seed labelled), so that this run labels new positions of the same games.
    #[arg(long, default_value_t = 0)]
    skip: usize,
    /// Move each sampled position on by 0 to N random legal moves before labelling it (positions off the beaten
    /// track, as searches meet them).
    #[arg(long, default_value_t = 0)]
    random_moves: u32,
    /// Evaluation weights of the labelling search (default: the shipped weights).
    #[arg(long)]
    weights: Option<PathBuf>,
    /// A network (from `train-net`) added to the labelling search's evaluation: labels searched with it.
    #[arg(long)]
    net: Option<PathBuf>,
    /// Worker threads (default: all cores).
    #[arg(long, short, value_parser = crate::limits::threads)]
    threads: Option<usize>,
    /// Positions labelled between two writes of OUT.resume (the most a killed run loses).
    #[arg(long, default_value_t = 500, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    checkpoint_every: u32,
    /// Label every position in the disc range (not a sample) with its game's final result for the side to move
    /// (empty squares to the winner) instead of a search; games that do not reach their end are left out.
    #[arg(long, conflicts_with_all = [
        "weights", "net", "random_moves", "skip", "per_game", "seed", "depth", "selectivity", "exact_empties",
        "checkpoint_every",
    ])]
    results: bool,
}

pub fn load_weights(path: Option<&PathBuf>) -> Result<Weights, String> {
    match path {
        Some(path) => weights::load(path),
        None => weights::bundled(),
    }
    .map_err(|e| e.to_string())
}

/// `weights` with the network of `net` (`train-net --out`) added to its evaluation, if one is given.
pub fn with_net(mut weights: Weights, net: Option<&PathBuf>) -> Result<Weights, String> {
    if let Some(path) = net {
        weights.net = Some(Arc::new(shirokuro_engine::eval::net::Net::load(path).map_err(|e| e.to_string())?));
    }
    Ok(weights)
}

/// The progress line of a long labelling or searching run: every 5,000 positions and at the end, on stderr.
fn progress(done_verb: &'static str, start: Instant) -> impl Fn(usize, usize) + Sync {
    move |done, total| {
        if done % 5000 == 0 || done == total {
            errln!("{done}/{total} positions {done_verb} ({:.0} s)", start.elapsed().as_secs_f64());
        }
    }
}

/// Every game of the record files (the first `max_games` of each, 0 = all) as its sequence of positions.
pub fn read_games(paths: &[PathBuf], max_games: usize) -> Result<Vec<Vec<Position>>, String> {
    let mut games = Vec::new();
    for path in paths {
        let text = shirokuro_engine::bounded::read_to_string(path, shirokuro_engine::bounded::RECORDS_BYTES)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let format = RecordFormat::detect(&text)
            .ok_or_else(|| format!("{}: cannot tell which record format this is", path.display()))?;
        let mut parsed = parse_records_lenient(&text, format);
        if max_games > 0 {
            parsed.records.truncate(max_games);
        }
        for record in parsed.records {
            let mut line = vec![record.start];
            let mut p = record.start;
            for &mv in &record.moves {
                match p.play(mv) {
                    Ok(next) => p = next,
                    Err(_) => break,
                }
                line.push(p);
            }
            games.push(line);
        }
    }
    Ok(games)
}

pub fn run(args: &Args) -> Result<ExitCode, String> {
    let start = Instant::now();
    let games = read_games(&args.records, args.max_games)?;
    outln!("{} games read in {:.1} s", games.len(), start.elapsed().as_secs_f64());
    if args.results {
        let labelled = result_labels(&games, &(args.min_discs..=args.max_discs));
        save_labels(&args.out, &labelled)?;
        outln!("{} positions labelled with their games' results, written to {}", labelled.len(), args.out.display());
        return Ok(ExitCode::SUCCESS);
    }
    let weights = Arc::new(with_net(load_weights(args.weights.as_ref())?, args.net.as_ref())?);
    let spec = LabelSpec {
        per_game: args.per_game,
        discs: args.min_discs..=args.max_discs,
        depth: args.depth,
        selectivity: args.selectivity,
        exact_empties: args.exact_empties,
        seed: args.seed,
        skip: args.skip,
        random_moves: args.random_moves,
        ..LabelSpec::default()
    };
    // A destination the labels could not be saved to (a folder, a device, a read-only file) is refused now, not after
    // hours of searches, and before its checkpoint is made beside it.
    shirokuro_engine::fsutil::check_writable(&args.out).map_err(|e| e.to_string())?;
    let boards = sample(&games, &spec);
    let run = describe_run(args, &boards)?;
    let resume = resume_path(&args.out);
    let mut checkpoint = Checkpoint::open(&resume, &run, &boards).map_err(|e| e.to_string())?;
    let total = boards.len();
    if !checkpoint.labels().is_empty() {
        outln!(
            "going on after the {} of {total} positions labelled in {}",
            checkpoint.labels().len(),
            resume.display()
        );
    }
    let stop = Arc::new(AtomicBool::new(false));
    let signal = crate::stop_signals::stop_on_signals(Arc::clone(&stop), "the labelling run");
    let (pool, _) = crate::limits::pool(args.threads)?;
    let done = AtomicUsize::new(checkpoint.labels().len());
    let report = progress("labelled", start);
    let count = || report(done.fetch_add(1, Ordering::Relaxed) + 1, total);
    while checkpoint.labels().len() < total && !stop.load(Ordering::SeqCst) {
        let from = checkpoint.labels().len();
        let chunk = &boards[from..(from + args.checkpoint_every as usize).min(total)];
        let labelled = pool.install(|| label_boards(chunk, &weights, &spec, &stop, &count));
        let finished: Vec<Labelled> = labelled.into_iter().map_while(|l| l).collect();
        checkpoint.append(&finished).map_err(|e| e.to_string())?;
    }
    if checkpoint.labels().len() < total {
        errln!(
            "stopped after {} of {total} positions; they are kept in {}: run the same command to go on",
            checkpoint.labels().len(),
            resume.display()
        );
        return Ok(ExitCode::from(crate::stop_signals::exit_status(signal.load(Ordering::SeqCst))));
    }
    save_labels(&args.out, checkpoint.labels())?;
    let labelled = checkpoint.remove().map_err(|e| e.to_string())?;
    let exact = labelled.iter().filter(|l| l.exact).count();
    outln!(
        "{} positions ({exact} solved exactly) written to {} in {:.1} s",
        labelled.len(),
        args.out.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

/// Where a run writing `out` keeps its finished labels until it is done: `out` with `.resume` added.
fn resume_path(out: &std::path::Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".resume");
    PathBuf::from(name)
}

/// One line naming everything that decides a run's labels, for its checkpoint: the sampled positions (their number
/// and a CRC-32 of their squares), the search, the evaluation files' CRC-32 and the engine's version.
fn describe_run(args: &Args, boards: &[shirokuro_engine::Board]) -> Result<String, String> {
    let mut squares = crc32fast::Hasher::new();
    for board in boards {
        squares.update(&board.player.0.to_le_bytes());
        squares.update(&board.opponent.0.to_le_bytes());
    }
    let file_crc = |path: Option<&PathBuf>| -> Result<String, String> {
        Ok(match path {
            Some(path) => {
                let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
                format!("{:08x}", crc32fast::hash(&bytes))
            }
            None => "none".to_owned(),
        })
    };
    Ok(format!(
        "{} positions (CRC-32 {:08x}), depth {}, selectivity {}, exact from {} empties, weights {}, network {}, \
         shirokuro-engine {}",
        boards.len(),
        squares.finalize(),
        args.depth,
        args.selectivity,
        args.exact_empties,
        args.weights.as_ref().map_or(Ok("bundled".to_owned()), |p| file_crc(Some(p)))?,
        file_crc(args.net.as_ref())?,
        env!("CARGO_PKG_VERSION"),
    ))
}

/// Writes `labelled` to `out` (atomically, the file before kept as a backup), one `board64 X score` line each.
fn save_labels(out: &std::path::Path, labelled: &[Labelled]) -> Result<(), String> {
    let mut text = String::with_capacity(labelled.len() * 72);
    for l in labelled {
        text.push_str(&l.to_line());
        text.push('\n');
    }
    shirokuro_engine::fsutil::save_atomically(out, shirokuro_engine::fsutil::Backup::Keep, |w| {
        w.write_all(text.as_bytes())
    })
    .map_err(|e| e.to_string())
}

/// Options of `eval-error`.
#[derive(Debug, clap::Args)]
pub struct ErrorArgs {
    /// Labelled positions (`board64 X score` lines, e.g. from `label`).
    #[arg(long, required = true)]
    labels: Vec<PathBuf>,
    /// Evaluation weights (default: the shipped weights).
    #[arg(long)]
    weights: Option<PathBuf>,
    /// A network (from `train-net`) added to the weights' evaluation; its values are not rounded. Repeat it to
    /// measure the average of several networks' outputs (of one bucket count).
    #[arg(long)]
    net: Vec<PathBuf>,
    /// Measure a midgame search of each position at this depth instead of the static evaluation (one network at
    /// most): how much of an evaluation's gain survives a search. 0 = the static evaluation.
    #[arg(long, default_value_t = 0)]
    depth: u8,
    /// Selectivity index of that search (0 = 74 % … 6 = 100 %).
    #[arg(long, default_value = "2", value_parser = crate::limits::selectivity)]
    selectivity: Selectivity,
    /// Worker threads of that search (default: all cores).
    #[arg(long, short, value_parser = crate::limits::threads)]
    threads: Option<usize>,
}

/// Every labelled position of the files (`board64 X score` lines), side to move's view; the first bad line is an
/// error that names its file.
pub fn read_labels(paths: &[PathBuf]) -> Result<Vec<(Board, i32)>, String> {
    let mut labels = Vec::new();
    for path in paths {
        let text = shirokuro_engine::bounded::read_to_string(path, shirokuro_engine::bounded::RECORDS_BYTES)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let parsed = parse_records_lenient(&text, RecordFormat::ExactPosition);
        if let Some(first) = parsed.skipped.first() {
            return Err(format!("{}: {first}", path.display()));
        }
        for record in parsed.records {
            if let RecordedResult::Exact(score) = record.recorded {
                labels.push((record.start.board, score));
            }
        }
    }
    Ok(labels)
}

pub fn run_error(args: &ErrorArgs) -> Result<ExitCode, String> {
    let weights = load_weights(args.weights.as_ref())?;
    let labels = read_labels(&args.labels)?;
    let report = if args.depth > 0 {
        if args.net.len() > 1 {
            return Err("a search takes one network (--net once)".to_string());
        }
        let weights = Arc::new(with_net(weights, args.net.first())?);
        let start = Instant::now();
        let (pool, _) = crate::limits::pool(args.threads)?;
        pool.install(|| search_error(&weights, &labels, args.depth, args.selectivity, &progress("searched", start)))
    } else if args.net.is_empty() {
        evaluation_error(&weights, &labels)
    } else {
        let nets = args
            .net
            .iter()
            .map(|path| Net::load(path).map_err(|e| format!("cannot read the network: {e}")))
            .collect::<Result<Vec<_>, _>>()?;
        let shape = nets[0].shape();
        if nets.iter().any(|n| (n.shape().buckets, n.shape().inputs) != (shape.buckets, shape.inputs)) {
            return Err("the networks must have the same number of buckets and the same inputs".to_string());
        }
        net_error(&nets, &encode(&labels, &Evaluator::new(&weights), shape))
    };
    outln!("{} positions", labels.len());
    outln!("move  positions   MAE   bias");
    for m in 0..=60 {
        if let (Some(mae), Some(bias)) = (report.mae(m), report.bias(m)) {
            outln!("{m:>4} {:>10} {mae:>6.2} {bias:>+6.2}", report.by_move[m].0);
        }
    }
    match (report.average(20..=50), report.mean_bias(20..=50)) {
        (Some(avg), Some(bias)) => outln!("mean MAE over moves 20-50: {avg:.2} discs (mean bias {bias:+.2})"),
        _ => outln!("no positions between moves 20 and 50"),
    }
    Ok(ExitCode::SUCCESS)
}
