//! `shirokuro-cli randboard`: random mid-game positions in a score range (Egaroucid's `-genrandboard`), for quizzes
//! and for starting games (see `shirokuro_engine::random_board`).

use std::io::Write;
use std::process::ExitCode;

use shirokuro_engine::board::Color;
use shirokuro_engine::notation::{PassStyle, format_board, format_transcript};
use shirokuro_engine::random_board::{self, RandomBoardSpec};
use shirokuro_engine::rng::GameRng;

use crate::gtp::EngineArgs;

/// How each position is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    /// The line from the initial position (`f5d6c3…`), as Egaroucid prints it.
    Transcript,
    /// The board (64 characters, `X` black, `O` white, `-` empty), the side to move and its score, as `label` writes
    /// positions.
    Board,
}

/// Options of `randboard`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    engine: EngineArgs,
    /// Positions to make.
    #[arg(long, short = 'n', default_value_t = 1)]
    count: u64,
    /// Moves from the initial position (1-60).
    #[arg(long, default_value_t = random_board::DEFAULT_MOVES)]
    moves: u8,
    /// Lowest score for Black at the level (-64..64).
    #[arg(long, default_value_t = -64, allow_negative_numbers = true)]
    min: i32,
    /// Highest score for Black at the level (-64..64).
    #[arg(long, default_value_t = 64, allow_negative_numbers = true)]
    max: i32,
    /// Seed: position i is drawn with the seed's i-th generator, so runs are reproducible (with one thread).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Transcript)]
    format: Format,
}

pub fn run(args: &Args) -> Result<ExitCode, String> {
    let spec = RandomBoardSpec::new(args.moves, args.min, args.max, args.engine.level).map_err(|e| e.to_string())?;
    let thinker = args.engine.thinker()?;
    let mut out = std::io::stdout().lock();
    for i in 0..args.count {
        let board = random_board::generate(&thinker, &spec, &mut GameRng::for_game(args.seed, i))
            .map_err(|e| format!("position {}: {e}", i + 1))?;
        let line = match args.format {
            Format::Transcript => format_transcript(&board.line, PassStyle::Omit),
            Format::Board => {
                let score = match board.position.side_to_move {
                    Color::Black => board.black_score,
                    Color::White => -board.black_score,
                };
                format!("{} {score}", format_board(&board.position))
            }
        };
        writeln!(out, "{line}").map_err(|e| format!("cannot write: {e}"))?;
    }
    Ok(ExitCode::SUCCESS)
}
