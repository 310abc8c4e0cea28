//! `shirokuro-cli level-profile`: where a level's thinking time goes, by the search its plan runs (midgame, each
//! selective endgame stage, the exact solve) and by empties, over self-play games
//! (`shirokuro_engine::tools::level_profile`).

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use shirokuro_engine::level::{Level, LevelPlan};
use shirokuro_engine::search::mpc::MpcModel;
use shirokuro_engine::tools::arena::SelfPlayOptions;
use shirokuro_engine::tools::level_profile::{Cost, profile};

/// Options of `level-profile`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The level to profile (1-60).
    #[arg(long, required_unless_present = "plan", conflicts_with = "plan")]
    level: Option<Level>,
    /// A search plan to profile instead of a level, as `match --plan-a` takes it (`15@74;27@98,24@99,22@100`).
    #[arg(long, value_parser = crate::limits::level_plan)]
    plan: Option<LevelPlan>,
    /// Self-play games.
    #[arg(long, default_value_t = 20)]
    games: usize,
    /// Random moves at the start of each game, `MIN-MAX` or `N`.
    #[arg(long, default_value = "10-19", value_parser = crate::selfplay::parse_random_moves)]
    random_moves: (usize, usize),
    /// Seed; game i's random moves depend only on the seed and i.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Weights file (default: the shipped evaluation).
    #[arg(long)]
    weights: Option<PathBuf>,
    /// A network (`train-net --out`) added to the evaluation.
    #[arg(long)]
    net: Option<PathBuf>,
    /// Multi-ProbCut model file (`mpc-fit`'s output; default: the bundled model).
    #[arg(long)]
    mpc: Option<PathBuf>,
    /// Width of the empties bands.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=60))]
    band: u32,
    /// Games played at once (default: all cores); each game's searches are single-threaded.
    #[arg(long, short = 't', value_parser = crate::limits::threads)]
    threads: Option<usize>,
    /// Each search table has 2^H entries of 24 bytes (10-28); the default is the app's.
    #[arg(long, default_value_t = shirokuro_engine::search::tt::APP_HASH_LEVEL, value_parser = crate::limits::hash_level)]
    hash_level: u8,
}

fn row(name: &str, cost: &Cost, total: &Cost) -> String {
    let seconds = cost.time.as_secs_f64();
    let share = 100.0 * seconds / total.time.as_secs_f64().max(1e-9);
    let per_move = seconds / cost.moves.max(1) as f64;
    let rate = cost.nodes as f64 / seconds.max(1e-9) / 1e6;
    format!("{name:<22} {:>6} {seconds:>9.1} {share:>6.1} % {per_move:>8.3} {:>14} {rate:>7.2}", cost.moves, cost.nodes)
}

pub fn run(args: &Args) -> Result<ExitCode, String> {
    let weights = crate::label::with_net(crate::label::load_weights(args.weights.as_ref())?, args.net.as_ref())?;
    let (level, about) = match (args.level, args.plan) {
        (_, Some(plan)) => (Level::clamped(plan.midgame_depth()), format!("plan {plan}")),
        (Some(level), None) => (level, format!("level {level}")),
        (None, None) => return Err("give --level or --plan".to_owned()),
    };
    let options = SelfPlayOptions {
        weights: Arc::new(weights),
        level,
        plan: args.plan,
        min_random_moves: args.random_moves.0,
        max_random_moves: args.random_moves.1,
        seed: args.seed,
        hash_level: args.hash_level,
    };
    let mpc = match &args.mpc {
        Some(path) => Some(MpcModel::load(path).map_err(|e| format!("{}: {e}", path.display()))?),
        None => None,
    };
    let (pool, threads) = crate::limits::pool(args.threads)?;
    let start = Instant::now();
    let done = AtomicUsize::new(0);
    let result = pool
        .install(|| {
            profile(args.games, &options, mpc.as_ref(), args.band, &|_| {
                let done = done.fetch_add(1, Ordering::Relaxed) + 1;
                errln!("{done}/{} games ({:.0} s)", args.games, start.elapsed().as_secs_f64());
            })
        })
        .map_err(|e| e.to_string())?;
    let total = result.total();
    outln!(
        "{about} ({}): {} games after {}-{} random moves (seed {}), {threads} at once, one thread each; {:.1} s",
        args.mpc.as_ref().map_or_else(|| "bundled MPC model".to_owned(), |p| p.display().to_string()),
        result.games,
        args.random_moves.0,
        args.random_moves.1,
        args.seed,
        start.elapsed().as_secs_f64()
    );
    let header = format!(
        "{:<22} {:>6} {:>9} {:>8} {:>8} {:>14} {:>7}",
        "", "moves", "seconds", "share", "s/move", "nodes", "Mn/s"
    );
    outln!("{header}");
    for (stage, (cost, (fewest, most))) in &result.by_stage {
        outln!("{}", row(&format!("{} ({fewest}-{most})", stage.name()), cost, &total));
    }
    outln!("{}", row("all", &total, &total));
    outln!("by empties:");
    for (first, cost) in result.by_empties.iter().rev() {
        let last = first.saturating_sub(result.band - 1);
        outln!("{}", row(&format!("{first}-{last} empties"), cost, &total));
    }
    Ok(ExitCode::SUCCESS)
}
