//! `shirokuro-cli`: the engine from the command line — perft, endgame solving, the bench signature, the level table.

/// `print!` that never panics (see [`output`]).
macro_rules! out {
    ($($arg:tt)*) => { $crate::output::to_stdout(format_args!($($arg)*)) };
}

/// `println!` that never panics (see [`output`]).
macro_rules! outln {
    () => { $crate::output::to_stdout(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::output::to_stdout(format_args!("{}\n", format_args!($($arg)*))) };
}

/// `eprint!` that never panics (see [`output`]).
macro_rules! err {
    ($($arg:tt)*) => { $crate::output::to_stderr(format_args!($($arg)*)) };
}

/// `eprintln!` that never panics (see [`output`]).
macro_rules! errln {
    () => { $crate::output::to_stderr(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::output::to_stderr(format_args!("{}\n", format_args!($($arg)*))) };
}

mod archive;
mod bench;
mod book;
mod corpus;
mod evaluation;
mod gtp;
mod label;
mod level_profile;
mod levels;
mod limits;
mod match_cmd;
mod mpc_fit;
mod nboard;
mod output;
mod parity_lean;
mod perft;
mod play;
mod randboard;
mod review;
mod selfplay;
mod solve;
mod sparring;
mod stop_signals;
mod train;
mod train_net;
mod xot;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Shirokuro's Othello engine from the command line.
#[derive(Debug, Parser)]
#[command(name = "shirokuro-cli", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Count the leaves of the game tree from the initial position (a pass is a ply; a finished game is one leaf).
    Perft(perft::Args),
    /// Solve every position of an OBF file exactly and compare with the scores it lists.
    Solve(solve::Args),
    /// Solve a fixed set of positions single-threaded and print the node count (the signature for commits).
    Bench(bench::Args),
    /// Print the AI level table (search depth and selectivity by move) for all or some levels.
    Levels(levels::Args),
    /// Play a console game against the AI (or watch it play itself).
    Play(play::Args),
    /// Fit the pattern evaluation to game records and write a weights file.
    Train(train::Args),
    /// Train a small network over the pattern features on a pattern evaluation's residual (experiment).
    TrainNet(train_net::Args),
    /// Play engine A against engine B from a list of openings, each with both colours, and report the score.
    Match(match_cmd::Args),
    /// Play the engine against itself after random openings and write the games as `moves diff` records.
    Selfplay(selfplay::Args),
    /// The self-play corpus: grow it in batches (resumable at any moment), count it, export its games as records.
    Corpus(corpus::Args),
    /// Measure shallow-versus-deep search scores on positions from game records and fit the Multi-ProbCut model.
    MpcFit(mpc_fit::Args),
    /// Label positions sampled from game records with deep-search scores (exact near the end).
    Label(label::Args),
    /// Measure the static evaluation's mean absolute error against labelled positions, by move number.
    EvalError(label::ErrorArgs),
    /// Measure the evaluation's lean by the parity of the empties (in games: by colour) against labelled positions,
    /// and write weights with it removed.
    ParityLean(parity_lean::Args),
    /// Where a level's thinking time goes: self-play games timed move by move, by the search its plan runs
    /// (midgame, each selective endgame stage, the exact solve) and by empties.
    LevelProfile(level_profile::Args),
    /// Speak GTP on stdin/stdout for GoGui, Quarry and gogui-twogtp (Othello coordinates, row 1 at the top).
    Gtp(gtp::Args),
    /// Speak the NBoard protocol on stdin/stdout, so the NBoard GUI can use the engine.
    Nboard(nboard::Args),
    /// Opening books: info, show, merge, convert, fix, edit, reduce, deviate, import-games, generate, bench …
    Book(book::Args),
    /// Random mid-game positions whose score at the level lies in a range (quizzes, game starts).
    Randboard(randboard::Args),
    /// A game's moves graded by their loss against the best move (searched at a level, exact near the end).
    Review(review::Args),
    /// The game archive: import WTHOR, GGF and text game records, statistics, and what was played from a position.
    Archive(archive::Args),
    /// The human-like sparring partner measured: games against an AI, and human game records the same way.
    Sparring(sparring::Args),
    /// Our list of XOT openings: the balanced positions a few moves in, found by search (see docs/xot.md).
    Xot(xot::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Perft(args) => perft::run(&args),
        Command::Solve(args) => solve::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::Levels(args) => levels::run(&args),
        Command::Train(args) => train::run(&args),
        Command::TrainNet(args) => train_net::run(&args),
        Command::Match(args) => match_cmd::run(&args),
        Command::Selfplay(args) => selfplay::run(&args),
        Command::Corpus(args) => corpus::run(&args),
        Command::Play(args) => play::run(&args),
        Command::MpcFit(args) => mpc_fit::run(&args),
        Command::Label(args) => label::run(&args),
        Command::EvalError(args) => label::run_error(&args),
        Command::ParityLean(args) => parity_lean::run(&args),
        Command::LevelProfile(args) => level_profile::run(&args),
        Command::Gtp(args) => gtp::run(&args),
        Command::Nboard(args) => nboard::run(&args),
        Command::Book(args) => book::run(&args),
        Command::Randboard(args) => randboard::run(&args),
        Command::Xot(args) => xot::run(&args),
        Command::Archive(args) => archive::run(&args),
        Command::Review(args) => review::run(&args),
        Command::Sparring(args) => sparring::run(&args),
    };
    let code = match outcome {
        Ok(code) => code,
        Err(message) => {
            errln!("shirokuro-cli: {message}");
            ExitCode::from(2)
        }
    };
    // A closed pipe ends the program quietly, with the status of a program the pipe killed (after any saving).
    if output::closed() { ExitCode::from(output::EXIT_CLOSED) } else { code }
}
