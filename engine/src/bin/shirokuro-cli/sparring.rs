//! `shirokuro-cli sparring`: the human-like sparring partner measured (docs/sparring.md).
//!
//! - `sparring match`: the partner against an AI over many seeded games; its realised loss per game, the largest
//!   loss on one move, and its losses by phase and by size.
//! - `sparring human`: the same statistics for the players of game records (one transcript per line), so the two
//!   can be compared.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use rayon::prelude::*;
use shirokuro_engine::eval::{Weights, weights};
use shirokuro_engine::level::Level;
use shirokuro_engine::notation::parse_transcript;
use shirokuro_engine::review::Phase;
use shirokuro_engine::search::SolveOptions;
use shirokuro_engine::think::Thinker;
use shirokuro_engine::think::sparring::profile::LossProfile;
use shirokuro_engine::think::sparring::{SparringStyle, Strength};
use shirokuro_engine::tools::sparring::{SparringSetup, play_sparring_games, profile_line, profile_of};

/// Options of `sparring`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, clap::Subcommand)]
enum Command {
    /// The partner against an AI: realised loss per game, largest loss per move, losses by phase and size.
    Match(MatchArgs),
    /// The players of game records (one transcript per line), measured the same way.
    Human(HumanArgs),
}

/// What both subcommands share.
#[derive(Debug, clap::Args)]
struct Common {
    /// Level of the searches that value the moves (the partner's level).
    #[arg(long, default_value = "10")]
    level: Level,
    /// Games played or measured at once (default: all cores); each game's searches are single-threaded.
    #[arg(long, short = 't', value_parser = crate::limits::threads)]
    threads: Option<usize>,
    /// Each search table has 2^H entries (10-28).
    #[arg(long, default_value_t = 18, value_parser = crate::limits::hash_level)]
    hash_level: u8,
    /// Evaluation weights file (default: the shipped weights).
    #[arg(long)]
    weights: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
struct MatchArgs {
    /// Average loss per game the partner aims for (discs).
    #[arg(long, default_value_t = 10)]
    average: u8,
    /// Largest loss on one move (discs).
    #[arg(long, default_value_t = 16)]
    max: u8,
    /// The AI's level.
    #[arg(long, default_value = "10")]
    opponent: Level,
    /// Games (the partner is Black in every other one).
    #[arg(long, default_value_t = 200)]
    games: u64,
    /// Seed of the partner's draws.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    common: Common,
}

#[derive(Debug, clap::Args)]
struct HumanArgs {
    /// Game records: one transcript from the initial position per line (anything after the first word is ignored).
    file: PathBuf,
    /// Games to measure, spread evenly over the file.
    #[arg(long, default_value_t = 200)]
    games: usize,
    #[command(flatten)]
    common: Common,
}

/// Runs `sparring`.
pub fn run(args: &Args) -> Result<ExitCode, String> {
    match &args.command {
        Command::Match(args) => run_match(args),
        Command::Human(args) => run_human(args),
    }
}

fn weights_of(common: &Common) -> Result<Arc<Weights>, String> {
    let weights = match &common.weights {
        Some(path) => weights::load(path).map_err(|e| e.to_string())?,
        None => weights::bundled().map_err(|e| e.to_string())?,
    };
    Ok(Arc::new(weights))
}

fn pool(common: &Common) -> Result<rayon::ThreadPool, String> {
    let threads = common.threads.unwrap_or_else(crate::limits::max_threads);
    rayon::ThreadPoolBuilder::new().num_threads(threads).build().map_err(|e| e.to_string())
}

fn run_match(args: &MatchArgs) -> Result<ExitCode, String> {
    let weights = weights_of(&args.common)?;
    let hash_level = args.common.hash_level;
    let new_thinker =
        || Thinker::new(Arc::clone(&weights), SolveOptions::default().with_threads(1).with_hash_level(hash_level)).ok();
    let style = SparringStyle { average_loss: args.average, max_loss: args.max };
    let setup = SparringSetup { style, level: args.common.level, opponent: args.opponent };
    let start = Instant::now();
    let games = pool(&args.common)?.install(|| play_sparring_games(&new_thinker, setup, args.games, args.seed));
    let profile = profile_of(&games);
    let name = Strength::of(style).map_or_else(|| "custom".to_owned(), |s| format!("{s:?}").to_lowercase());
    outln!(
        "sparring partner ({name}: average {} max {}, level {}) against level {}: {} games in {:.1} s",
        args.average,
        args.max,
        args.common.level.get(),
        args.opponent.get(),
        games.len(),
        start.elapsed().as_secs_f64()
    );
    let wins = games.iter().filter(|g| g.result > 0).count();
    let draws = games.iter().filter(|g| g.result == 0).count();
    let mean_result = games.iter().map(|g| f64::from(g.result)).sum::<f64>() / games.len().max(1) as f64;
    outln!(
        "partner's results: {wins} won, {draws} drawn, {} lost; mean disc difference {mean_result:+.2}",
        games.len() - wins - draws
    );
    report(&profile, Some(f64::from(args.average)));
    Ok(ExitCode::SUCCESS)
}

fn run_human(args: &HumanArgs) -> Result<ExitCode, String> {
    let text = shirokuro_engine::bounded::read_to_string(&args.file, shirokuro_engine::bounded::RECORDS_BYTES)
        .map_err(|e| format!("cannot read {}: {e}", args.file.display()))?;
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let step = (lines.len() / args.games.max(1)).max(1);
    let games: Vec<(usize, Vec<shirokuro_engine::Move>)> = lines
        .iter()
        .enumerate()
        .step_by(step)
        .take(args.games)
        .filter_map(|(i, line)| {
            let word = line.split_whitespace().next()?;
            let transcript = parse_transcript(word).ok()?;
            transcript.end.board.is_game_over().then_some((i + 1, transcript.moves))
        })
        .collect();
    let weights = weights_of(&args.common)?;
    let (level, hash_level) = (args.common.level, args.common.hash_level);
    let start = Instant::now();
    let profiles: Vec<LossProfile> = pool(&args.common)?.install(|| {
        games
            .par_iter()
            .filter_map(|(_, moves)| {
                let options = SolveOptions::default().with_threads(1).with_hash_level(hash_level);
                let thinker = Thinker::new(Arc::clone(&weights), options).ok()?;
                let mut profile = LossProfile::new();
                profile_line(&thinker, moves, level, &mut profile).then_some(profile)
            })
            .collect()
    });
    let mut profile = LossProfile::new();
    for one in &profiles {
        profile.merge(one);
    }
    outln!(
        "{}: {} finished games of {} lines (every {step}th) measured at level {} in {:.1} s",
        args.file.display(),
        profile.games.len() / 2,
        lines.len(),
        level.get(),
        start.elapsed().as_secs_f64()
    );
    report(&profile, None);
    Ok(ExitCode::SUCCESS)
}

/// Prints a profile: per game, by phase, by size.
fn report(profile: &LossProfile, setting: Option<f64>) {
    let mean = profile.mean_per_game();
    let off = setting.map(|s| format!(" ({:+.1} % of the setting)", 100.0 * (mean - s) / s)).unwrap_or_default();
    outln!(
        "loss per player-game: mean {mean:.2}{off}, standard deviation {:.2}, over {} player-games; largest on one move {}",
        profile.deviation_per_game(),
        profile.games.len(),
        profile.largest
    );
    outln!("phase      moves  loss/move  share   sizes 0 / 1-2 / 3-5 / 6-9 / 10+ (% of moves)");
    let shares = profile.phase_percents();
    let rows =
        Phase::ALL.iter().map(|p| (format!("{p:?}").to_lowercase(), profile.phases[p.index()], shares[p.index()]));
    for (name, phase, share) in rows.chain(std::iter::once(("all".to_owned(), profile.overall(), 100.0))) {
        let sizes: Vec<String> = phase.size_percents().iter().map(|p| format!("{p:4.1}")).collect();
        outln!("{name:<9} {:>6}  {:>9.2}  {share:5.1}%  {}", phase.moves, phase.mean(), sizes.join(" / "));
    }
}
