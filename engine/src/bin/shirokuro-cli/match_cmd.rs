//! `shirokuro-cli match`: engine A against engine B from a list of openings, each played with both colours.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use shirokuro_engine::eval::{Weights, weights};
use shirokuro_engine::level::{Level, LevelPlan};
use shirokuro_engine::search::mpc::MpcModel;
use shirokuro_engine::tools::arena::{Effort, MatchEngine, MatchGame, MatchSummary, parse_openings, play_match};

/// Openings used without `--openings`: 8 uniformly random legal moves from the start (seed 20240601), distinct.
const BUILT_IN_OPENINGS: &str = "\
d3e3f2c5f4g1e2d2
e6f4f3f2c4b4g3f5
e6f4c3d6g4e7c7c5
e6f4d3e7f3e3f6c4
e6f4g3g4f3f6c4c5
e6f6c4c3g6g7f5g5
c4c5e6c3b5c6b4f3
f5f4c3g6e3c4c5e6
d3c5c6c7e6f3f5e3
e6f6d3c3c4c5d6c7
c4c3c2c5c6b2e3b5
f5d6c5f6e6b6d7e7
d3c5c6c3e6c7b7d2
f5f4e3d6g5g4g3f6
e6f4f3f6d3f2f5c4
d3c3e6f4f5d6f3g3
";

/// Options of `match`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Level of engine A (1-60).
    #[arg(long, required_unless_present = "plan_a", conflicts_with = "plan_a")]
    level_a: Option<Level>,
    /// Level of engine B (1-60).
    #[arg(long, required_unless_present = "plan_b", conflicts_with = "plan_b")]
    level_b: Option<Level>,
    /// Engine A's search plan instead of a level, for tuning: midgame DEPTH@PERCENT, then the endgame stages
    /// EMPTIES@PERCENT from the most empties down, the last at 100 (level 15 is `15@74;27@98,24@99,22@100`; `levels`
    /// shows every level's).
    #[arg(long, value_parser = crate::limits::level_plan)]
    plan_a: Option<LevelPlan>,
    /// Engine B's search plan instead of a level (as --plan-a).
    #[arg(long, value_parser = crate::limits::level_plan)]
    plan_b: Option<LevelPlan>,
    /// Weights file for both engines (overridden by --weights-a / --weights-b).
    #[arg(long)]
    weights: Option<PathBuf>,
    /// Weights file for engine A.
    #[arg(long)]
    weights_a: Option<PathBuf>,
    /// Weights file for engine B.
    #[arg(long)]
    weights_b: Option<PathBuf>,
    /// A network (`train-net --out`) added to engine A's evaluation.
    #[arg(long)]
    net_a: Option<PathBuf>,
    /// A network added to engine B's evaluation.
    #[arg(long)]
    net_b: Option<PathBuf>,
    /// Multi-ProbCut model file (`mpc-fit`'s output) for both engines (overridden by --mpc-a / --mpc-b); default:
    /// the bundled model.
    #[arg(long)]
    mpc: Option<PathBuf>,
    /// Multi-ProbCut model file for engine A.
    #[arg(long)]
    mpc_a: Option<PathBuf>,
    /// Multi-ProbCut model file for engine B.
    #[arg(long)]
    mpc_b: Option<PathBuf>,
    /// Let an engine without a weights file play with all-zero weights (a flat evaluation) instead of the shipped ones.
    #[arg(long)]
    zero_weights: bool,
    /// Openings file: one transcript from the start per line (`f5d6c4d3c2b3b4b5`); default: 16 built-in random
    /// 8-move openings.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Use only the first N openings (2N games).
    #[arg(long)]
    games: Option<usize>,
    /// Games played at once (default: all cores); each game's searches are single-threaded.
    #[arg(long, short = 't', value_parser = crate::limits::threads)]
    threads: Option<usize>,
    /// Each search table has 2^H entries of 24 bytes (10-28); the default is the app's. Each game thread keeps four.
    #[arg(long, default_value_t = shirokuro_engine::search::tt::APP_HASH_LEVEL, value_parser = crate::limits::hash_level)]
    hash_level: u8,
    /// Print a line per finished game.
    #[arg(long, short = 'v')]
    verbose: bool,
}

/// One engine's plan (its `--plan-*`, else its level's) and how to describe it.
fn engine_plan(level: Option<Level>, plan: Option<LevelPlan>) -> Result<(LevelPlan, String), String> {
    match (level, plan) {
        (_, Some(plan)) => Ok((plan, format!("plan {plan}"))),
        (Some(level), None) => Ok((level.into(), format!("level {level}"))),
        (None, None) => Err("each engine needs a level or a plan".to_owned()),
    }
}

/// The weights of one engine and how to describe them.
fn engine_weights(
    own: Option<&Path>,
    common: Option<&Path>,
    zero: bool,
    loaded: &mut Vec<(PathBuf, Arc<Weights>)>,
) -> Result<(Arc<Weights>, String), String> {
    let Some(path) = own.or(common) else {
        if zero {
            return Ok((Arc::new(Weights::zero()), "zero weights".to_owned()));
        }
        if let Some((_, weights)) = loaded.iter().find(|(p, _)| p.as_os_str().is_empty()) {
            return Ok((Arc::clone(weights), "shipped weights".to_owned()));
        }
        let weights = Arc::new(weights::bundled().map_err(|e| e.to_string())?);
        loaded.push((PathBuf::new(), Arc::clone(&weights)));
        return Ok((weights, "shipped weights".to_owned()));
    };
    if let Some((_, weights)) = loaded.iter().find(|(p, _)| p == path) {
        return Ok((Arc::clone(weights), path.display().to_string()));
    }
    let weights = Arc::new(weights::load(path).map_err(|e| e.to_string())?);
    loaded.push((path.to_owned(), Arc::clone(&weights)));
    Ok((weights, path.display().to_string()))
}

/// The Multi-ProbCut model of one engine (`None`: the bundled one) and how to describe it.
fn engine_mpc(own: Option<&Path>, both: Option<&Path>) -> Result<(Option<MpcModel>, String), String> {
    match own.or(both) {
        None => Ok((None, "bundled MPC model".to_owned())),
        Some(path) => {
            let model = MpcModel::load(path).map_err(|e| format!("MPC model {}: {e}", path.display()))?;
            Ok((Some(model), format!("MPC model {}", path.display())))
        }
    }
}

/// What engine A and engine B spent over the games.
fn effort_totals(games: &[MatchGame]) -> (Effort, Effort) {
    let add = |total: Effort, game: Effort| Effort {
        nodes: total.nodes.saturating_add(game.nodes),
        time: total.time.saturating_add(game.time),
    };
    games.iter().fold((Effort::default(), Effort::default()), |(a, b), g| (add(a, g.a_effort), add(b, g.b_effort)))
}

pub fn run(args: &Args) -> Result<ExitCode, String> {
    let mut loaded = Vec::new();
    let (weights_a, about_a) =
        engine_weights(args.weights_a.as_deref(), args.weights.as_deref(), args.zero_weights, &mut loaded)?;
    let (weights_b, about_b) =
        engine_weights(args.weights_b.as_deref(), args.weights.as_deref(), args.zero_weights, &mut loaded)?;
    let with_net =
        |weights: Arc<Weights>, about: String, net: Option<&PathBuf>| -> Result<(Arc<Weights>, String), String> {
            let Some(path) = net else { return Ok((weights, about)) };
            let with = crate::label::with_net((*weights).clone(), Some(path))?;
            Ok((Arc::new(with), format!("{about} + {}", path.display())))
        };
    let (weights_a, about_a) = with_net(weights_a, about_a, args.net_a.as_ref())?;
    let (weights_b, about_b) = with_net(weights_b, about_b, args.net_b.as_ref())?;
    let (mpc_a, mpc_about_a) = engine_mpc(args.mpc_a.as_deref(), args.mpc.as_deref())?;
    let (mpc_b, mpc_about_b) = engine_mpc(args.mpc_b.as_deref(), args.mpc.as_deref())?;
    let (text, source) = match &args.openings {
        Some(path) => (
            shirokuro_engine::bounded::read_to_string(path, shirokuro_engine::bounded::RECORDS_BYTES)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?,
            path.display().to_string(),
        ),
        None => (BUILT_IN_OPENINGS.to_owned(), "built-in openings".to_owned()),
    };
    let mut openings = parse_openings(&text).map_err(|e| format!("{source}: {e}"))?;
    if let Some(limit) = args.games {
        openings.truncate(limit);
    }
    if openings.is_empty() {
        return Err(format!("{source}: no openings to play"));
    }
    let (pool, threads) = crate::limits::pool(args.threads)?;
    let (plan_a, plan_about_a) = engine_plan(args.level_a, args.plan_a)?;
    let (plan_b, plan_about_b) = engine_plan(args.level_b, args.plan_b)?;
    let a = MatchEngine { weights: weights_a, mpc: mpc_a, plan: plan_a };
    let b = MatchEngine { weights: weights_b, mpc: mpc_b, plan: plan_b };
    let total = openings.len() * 2;
    outln!("A: {plan_about_a} ({about_a}, {mpc_about_a})");
    outln!("B: {plan_about_b} ({about_b}, {mpc_about_b})");
    outln!(
        "{} openings from {source}, each played with A as Black then as White: {total} games on {threads} thread(s)",
        openings.len()
    );

    let start = Instant::now();
    let done = AtomicUsize::new(0);
    let verbose = args.verbose;
    let on_game = |game: &MatchGame| {
        let n = done.fetch_add(1, Ordering::Relaxed) + 1;
        if verbose {
            outln!(
                "[{n}/{total}] opening {} A as {}: A {:+} ({})",
                game.opening + 1,
                if game.a_is_black { "Black" } else { "White" },
                game.a_score(),
                game.result.transcript()
            );
        }
    };
    let games = pool.install(|| play_match(&openings, &a, &b, args.hash_level, &on_game)).map_err(|e| e.to_string())?;
    let elapsed = start.elapsed().as_secs_f64();

    let summary = MatchSummary::from_games(&games);
    let ci = |half_width: Option<f64>, scale: f64, unit: &str| {
        half_width.map_or_else(String::new, |h| format!(" ± {:.1}{unit}", h * scale))
    };
    outln!("games: {}", summary.games);
    outln!("A: {} wins, {} draws, {} losses", summary.wins, summary.draws, summary.losses);
    // `+ 0.0` turns a rounded -0 into 0.
    let elo = summary.elo().map_or_else(String::new, |elo| format!(", about {:+.0} Elo", elo.round() + 0.0));
    outln!(
        "A's score: {:.1} %{} (95 % CI, normal approximation){elo}",
        summary.score * 100.0,
        ci(summary.score_ci, 100.0, " %")
    );
    outln!(
        "A's average disc difference: {:+.2}{} (95 % CI, normal approximation; empties to the winner)",
        summary.mean_disc_diff,
        ci(summary.disc_diff_ci, 1.0, "")
    );
    let (a_effort, b_effort) = effort_totals(&games);
    let (a_nodes, b_nodes) = (a_effort.nodes, b_effort.nodes);
    let per_game = |amount: f64| amount / summary.games.max(1) as f64;
    outln!(
        "nodes: A {a_nodes} ({:.0} per game), B {b_nodes} ({:.0} per game), A/B {:.3}",
        per_game(a_nodes as f64),
        per_game(b_nodes as f64),
        a_nodes as f64 / b_nodes.max(1) as f64
    );
    let (a_time, b_time) = (a_effort.time.as_secs_f64(), b_effort.time.as_secs_f64());
    outln!(
        "thinking: A {a_time:.1} s ({:.2} s per game), B {b_time:.1} s ({:.2} s per game), A/B {:.3}",
        per_game(a_time),
        per_game(b_time),
        a_time / b_time.max(1e-9)
    );
    outln!("time: {elapsed:.1} s ({:.2} s per game)", elapsed / summary.games.max(1) as f64);
    Ok(ExitCode::SUCCESS)
}
