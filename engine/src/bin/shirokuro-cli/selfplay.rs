//! `shirokuro-cli selfplay`: games of the engine against itself after random openings, written as training records.

use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use shirokuro_engine::eval::{Weights, weights};
use shirokuro_engine::level::Level;
use shirokuro_engine::tools::arena::{SelfPlayGame, SelfPlayOptions, play_selfplay};

/// Options of `selfplay`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Number of games.
    #[arg(long)]
    games: usize,
    /// Level for both sides after the random moves (1-60).
    #[arg(long)]
    level: Level,
    /// Random moves at the start of each game, `MIN-MAX` (each game draws uniformly in MIN..=MAX) or `N`.
    #[arg(long, value_parser = parse_random_moves)]
    random_moves: (usize, usize),
    /// Seed; game i's random moves depend only on the seed and i.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Where to write the games, one `moves diff` line each (the egaroucid3 record layout; written atomically).
    #[arg(long)]
    out: PathBuf,
    /// Weights file.
    #[arg(long, conflicts_with = "zero_weights")]
    weights: Option<PathBuf>,
    /// Play with all-zero weights (a flat evaluation) instead of a weights file.
    #[arg(long)]
    zero_weights: bool,
    /// Games played at once (default: all cores); each game's searches are single-threaded.
    #[arg(long, short = 't', value_parser = crate::limits::threads)]
    threads: Option<usize>,
    /// Each search table has 2^H entries of 24 bytes (10-28).
    #[arg(long, default_value_t = 18, value_parser = crate::limits::hash_level)]
    hash_level: u8,
}

/// `MIN-MAX` or `N`, with MIN ≤ MAX ≤ 60.
pub(crate) fn parse_random_moves(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("{text:?}: expected MIN-MAX or N, with MIN <= MAX <= 60");
    let (min, max) = match text.split_once('-') {
        Some((a, b)) => (a.trim().parse().map_err(|_| bad())?, b.trim().parse().map_err(|_| bad())?),
        None => {
            let n = text.trim().parse().map_err(|_| bad())?;
            (n, n)
        }
    };
    if min > max || max > 60 {
        return Err(bad());
    }
    Ok((min, max))
}

/// Writes `text` to `path` through a temporary file in the same directory, renamed over `path` once synced.
fn write_atomically(path: &Path, text: &str) -> Result<(), String> {
    let fail = |e: std::io::Error| format!("cannot write {}: {e}", path.display());
    let name = path.file_name().ok_or_else(|| format!("{}: not a file name", path.display()))?;
    let temp = path.with_file_name(format!(".{}.tmp-{}", name.to_string_lossy(), std::process::id()));
    let written = File::create(&temp).and_then(|mut file| {
        file.write_all(text.as_bytes())?;
        file.sync_all()
    });
    match written.and_then(|()| fs::rename(&temp, path)) {
        Ok(()) => Ok(()),
        Err(e) => {
            let _ = fs::remove_file(&temp);
            Err(fail(e))
        }
    }
}

pub fn run(args: &Args) -> Result<ExitCode, String> {
    let (weights, about) = match (&args.weights, args.zero_weights) {
        (Some(path), _) => (weights::load(path).map_err(|e| e.to_string())?, path.display().to_string()),
        (None, true) => (Weights::zero(), "zero weights".to_owned()),
        (None, false) => {
            return Err("no weights: pass --weights FILE, or --zero-weights to play with a flat evaluation".to_owned());
        }
    };
    // Fail before playing if the output cannot be written there.
    let dir = args.out.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if !dir.is_dir() {
        return Err(format!("cannot write {}: {} is not a directory", args.out.display(), dir.display()));
    }
    let (pool, threads) = crate::limits::pool(args.threads)?;
    let (min, max) = args.random_moves;
    let options = SelfPlayOptions {
        weights: Arc::new(weights),
        level: args.level,
        plan: None,
        min_random_moves: min,
        max_random_moves: max,
        seed: args.seed,
        hash_level: args.hash_level,
    };
    outln!(
        "{} games at level {} ({about}) after {min}-{max} random moves, seed {}, on {threads} thread(s)",
        args.games,
        args.level.get(),
        args.seed
    );

    let start = Instant::now();
    let done = AtomicUsize::new(0);
    let every = (args.games / 20).max(1);
    let on_game = |_: &SelfPlayGame| {
        let n = done.fetch_add(1, Ordering::Relaxed) + 1;
        if n.is_multiple_of(every) || n == args.games {
            outln!("  {n}/{} games ({:.1} s)", args.games, start.elapsed().as_secs_f64());
        }
    };
    let games = pool.install(|| play_selfplay(args.games, &options, &on_game)).map_err(|e| e.to_string())?;
    let text: String = games.iter().map(|game| game.record_line() + "\n").collect();
    write_atomically(&args.out, &text)?;

    let count = games.len().max(1) as f64;
    let random = games.iter().map(|g| g.random_moves).sum::<usize>() as f64 / count;
    let sign = |s: i32| games.iter().filter(|g| g.result.black_disc_diff.signum() == s).count();
    outln!("games: {}, written to {}", games.len(), args.out.display());
    outln!("average random moves: {random:.2}");
    outln!("Black: {} wins, {} draws, {} losses", sign(1), sign(0), sign(-1));
    outln!("time: {:.1} s", start.elapsed().as_secs_f64());
    Ok(ExitCode::SUCCESS)
}
