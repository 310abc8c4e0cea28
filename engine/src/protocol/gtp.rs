//! The Go Text Protocol (GTP version 2) for Othello, as GoGui, Quarry, gogui-twogtp and the GTP modes of Edax and
//! Egaroucid use it.
//!
//! # Lines
//! A command is `[id] name [arguments]`. Before parsing, control characters other than tab and newline are removed,
//! tabs become spaces and everything from `#` on is a comment; a line left empty is ignored. A success is
//! `=[id] result`, a failure `?[id] message`, each followed by an empty line. The engine never writes anything else to
//! its standard output.
//!
//! # Coordinates
//! Vertices are Othello coordinates, case-insensitive: column `A`–`H` left to right, row `1`–`8` **top to bottom** (Edax
//! and Egaroucid use the same names, so gogui-twogtp can pair Shirokuro with them). Go programs count rows from the
//! bottom, so GoGui draws the board upside down compared with an Othello diagram: a reflection, which changes nothing
//! in the game. `pass` is a pass.
//!
//! # Turns
//! `play COLOR VERTEX` and `genmove COLOR` must name the colour on turn. When they name the other colour and the colour
//! on turn has no move, its pass is made first (controllers that do not send Othello passes keep working); the pass
//! is taken back together with the move by `undo`. `play c pass` is legal only when `c` has no move, or after the end
//! of the game, where it changes nothing (as `genmove`, which then answers `pass`).
//!
//! # Commands
//! - Standard: `protocol_version`, `name`, `version`, `known_command`, `list_commands`, `quit`, `boardsize` (8
//!   only), `clear_board`, `komi` (accepted and ignored: Othello has no komi), `play`, `genmove`, `reg_genmove`,
//!   `undo`, `showboard`, `final_score` (`B+n`, `W+n` or `0`, empty squares to the winner; an error before the
//!   end), `time_settings` and `time_left` (checked and acknowledged; the engine plays at its set level whatever
//!   the clock: choose a level that fits the time control).
//! - Quarry's game selection: `list_games` (`Othello`) and `set_game Othello` (`Reversi` is accepted too).
//! - Shirokuro: `shirokuro-level [N]` sets the level 1–60 or, without an argument, prints it (`level` is an alias);
//!   `shirokuro-hint` lists every legal move with its score, best first (`F5 +2 D6 +0 …`).
//! - GoGui: `gogui-interrupt` (listed, so GoGui sends `# interrupt` to stop a search; the move found so far is
//!   played), `gogui-analyze_commands`, and the rule-engine commands `gogui-rules_game_id` (`othello`),
//!   `gogui-rules_board_size`, `gogui-rules_board` (the board as GoGui draws it, row 8 first, `X` black, `O`
//!   white, `.` empty), `gogui-rules_legal_moves` (the moves, `pass` when the side to move must pass, empty when
//!   the game is over), `gogui-rules_side_to_move` and `gogui-rules_final_result`, so GoGui can use Shirokuro as its
//!   Othello rule engine (Game ▸ Rules).
//!
//! # Progress
//! While `genmove` and `reg_genmove` search, every finished iteration is written to the error stream, e.g.
//! `shirokuro: depth 14@93% score +3 pv F5 D6 C3 nodes 1234567 (2.47 Mn/s)` (see
//! [`Iteration::summary`](super::Iteration::summary)); GoGui shows these lines in its GTP shell. Standard output
//! carries only the protocol's answers.

use std::sync::Arc;

use crate::board::{Color, Move};
use crate::level::Level;
use crate::position::Position;
use crate::square::Square;

use super::{Engine, Flow, Io, Protocol, Stopper, engine_stopper, evaluate_moves, move_text, playable_move};

/// Every command this session knows, as `list_commands` prints them.
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "reg_genmove",
    "undo",
    "showboard",
    "final_score",
    "time_settings",
    "time_left",
    "list_games",
    "set_game",
    "shirokuro-level",
    "level",
    "shirokuro-hint",
    "gogui-interrupt",
    "gogui-analyze_commands",
    "gogui-rules_game_id",
    "gogui-rules_board_size",
    "gogui-rules_board",
    "gogui-rules_legal_moves",
    "gogui-rules_side_to_move",
    "gogui-rules_final_result",
];

/// The analyze commands offered to GoGui.
const ANALYZE_COMMANDS: &str = "\
string/Shirokuro level/shirokuro-level %o
pspairs/Shirokuro move scores/shirokuro-hint
string/Legal moves/gogui-rules_legal_moves
string/Side to move/gogui-rules_side_to_move
string/Final result/gogui-rules_final_result";

/// One position of the game line.
#[derive(Debug, Clone, Copy)]
struct Step {
    position: Position,
    /// Made by the session (a pass the controller did not send); undone with the move after it.
    automatic: bool,
}

/// The clock as the controller described it (kept for `showboard`; it does not change the search).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Clock {
    main_time: u64,
    byo_yomi_time: u64,
    byo_yomi_stones: u64,
    left: [Option<(f64, u64)>; 2],
}

/// A GTP session: the game, the level and the engine.
pub struct GtpSession<E: Engine> {
    engine: Arc<E>,
    level: Level,
    steps: Vec<Step>,
    clock: Clock,
}

/// What went wrong with a command: the text after `? `.
type CommandResult = Result<String, String>;

impl<E: Engine + 'static> GtpSession<E> {
    /// A session at the initial position, playing at `level`.
    pub fn new(engine: Arc<E>, level: Level) -> GtpSession<E> {
        GtpSession {
            engine,
            level,
            steps: vec![Step { position: Position::INITIAL, automatic: false }],
            clock: Clock::default(),
        }
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> Position {
        self.steps.last().map_or(Position::INITIAL, |s| s.position)
    }

    /// The current level.
    #[must_use]
    pub fn level(&self) -> Level {
        self.level
    }

    fn push(&mut self, position: Position, automatic: bool) {
        self.steps.push(Step { position, automatic });
    }

    /// Makes the pass of the colour on turn when `color` is the other colour and the colour on turn has no move.
    fn pass_for_turn(&mut self, color: Color) -> Result<(), String> {
        let position = self.position();
        if color == position.side_to_move {
            return Ok(());
        }
        if position.board.must_pass() {
            let passed = position.play(Move::Pass).map_err(|e| e.to_string())?;
            self.push(passed, true);
            Ok(())
        } else if position.board.is_game_over() {
            Err("illegal move: the game is over".to_owned())
        } else {
            Err(format!("illegal move: it is {}'s turn", color_word(position.side_to_move)))
        }
    }

    fn execute(&mut self, name: &str, args: &[&str], io: &mut Io<'_>) -> (CommandResult, Flow) {
        let result = match name {
            "protocol_version" => Ok("2".to_owned()),
            "name" => Ok("Shirokuro".to_owned()),
            "version" => Ok(env!("CARGO_PKG_VERSION").to_owned()),
            "known_command" => match args {
                [command] => Ok(COMMANDS.contains(command).to_string()),
                _ => Err("syntax error: known_command takes one command name".to_owned()),
            },
            "list_commands" => Ok(COMMANDS.join("\n")),
            "quit" => return (Ok(String::new()), Flow::Quit),
            "boardsize" => match args {
                [size] => match size.parse::<u32>() {
                    Ok(8) => Ok(String::new()),
                    Ok(_) => Err("unacceptable size (Othello is played on 8x8)".to_owned()),
                    Err(_) => Err(format!("syntax error: board size {size:?} is not a number")),
                },
                _ => Err("syntax error: boardsize takes one number".to_owned()),
            },
            "clear_board" => {
                self.steps = vec![Step { position: Position::INITIAL, automatic: false }];
                self.engine.new_game();
                Ok(String::new())
            }
            "komi" => match args {
                [value] if value.parse::<f64>().is_ok_and(f64::is_finite) => Ok(String::new()),
                _ => Err("syntax error: komi takes one number".to_owned()),
            },
            "play" => self.play(args),
            "genmove" => self.genmove(args, true, io),
            "reg_genmove" => self.genmove(args, false, io),
            "undo" => self.undo(),
            "showboard" => Ok(format!("\n{}", self.board_diagram())),
            "final_score" => self.final_score(),
            "time_settings" => self.time_settings(args),
            "time_left" => self.time_left(args),
            "list_games" => Ok("Othello".to_owned()),
            "set_game" => match args {
                [game] if game.eq_ignore_ascii_case("othello") || game.eq_ignore_ascii_case("reversi") => {
                    Ok(String::new())
                }
                [game] => Err(format!("unsupported game {game:?} (only Othello)")),
                _ => Err("syntax error: set_game takes one game name".to_owned()),
            },
            "shirokuro-level" | "level" => match args {
                [] => Ok(self.level.get().to_string()),
                [n] => n
                    .parse::<Level>()
                    .map(|level| self.level = level)
                    .map(|()| String::new())
                    .map_err(|e| e.to_string()),
                _ => Err("syntax error: shirokuro-level takes a level from 1 to 60".to_owned()),
            },
            "shirokuro-hint" => Ok(self.hint(io)),
            "gogui-interrupt" => Ok(String::new()),
            "gogui-analyze_commands" => Ok(ANALYZE_COMMANDS.to_owned()),
            "gogui-rules_game_id" => Ok("othello".to_owned()),
            "gogui-rules_board_size" => Ok("8".to_owned()),
            "gogui-rules_board" => Ok(self.gogui_board()),
            "gogui-rules_legal_moves" => Ok(self.legal_moves()),
            "gogui-rules_side_to_move" => Ok(color_word(self.position().side_to_move).to_owned()),
            "gogui-rules_final_result" => Ok(self.final_result()),
            _ => Err(format!("unknown command {}", super::quoted(name))),
        };
        (result, Flow::Continue)
    }

    fn play(&mut self, args: &[&str]) -> CommandResult {
        let [color, vertex] = args else {
            return Err("syntax error: play takes a colour and a vertex (play black f5)".to_owned());
        };
        let color = parse_color(color)?;
        let mv = parse_vertex(vertex)?;
        if mv == Move::Pass && self.position().board.is_game_over() {
            // A Go controller ends the game with two passes; after the end they change nothing.
            return Ok(String::new());
        }
        let before = self.steps.len();
        self.pass_for_turn(color)?;
        match self.position().play(mv) {
            Ok(next) => {
                self.push(next, false);
                Ok(String::new())
            }
            Err(e) => {
                self.steps.truncate(before);
                Err(format!("illegal move: {e}"))
            }
        }
    }

    fn genmove(&mut self, args: &[&str], commit: bool, io: &mut Io<'_>) -> CommandResult {
        let [color] = args else {
            return Err("syntax error: genmove takes a colour (genmove black)".to_owned());
        };
        let color = parse_color(color)?;
        let before = self.steps.len();
        if self.position().board.is_game_over() {
            return Ok("pass".to_owned());
        }
        self.pass_for_turn(color)?;
        let position = self.position();
        // Each finished iteration goes to the error stream, which GoGui shows in its GTP shell.
        let thought = self.engine.choose(&position, self.level, &mut |it| io.warn(&it.summary()));
        let Some(mv) = playable_move(&position, &thought) else {
            self.steps.truncate(before);
            return Ok("pass".to_owned());
        };
        if thought.stopped {
            io.warn(&format!("search interrupted at depth {}; playing {}", thought.depth, move_text(mv, "pass")));
        }
        match position.play(mv) {
            Ok(next) if commit => self.push(next, false),
            Ok(_) => self.steps.truncate(before),
            Err(e) => {
                self.steps.truncate(before);
                return Err(format!("internal error: the engine chose {mv}: {e}"));
            }
        }
        Ok(move_text(mv, "pass"))
    }

    fn undo(&mut self) -> CommandResult {
        if self.steps.len() <= 1 {
            return Err("cannot undo".to_owned());
        }
        let _ = self.steps.pop();
        while self.steps.len() > 1 && self.steps.last().is_some_and(|s| s.automatic) {
            let _ = self.steps.pop();
        }
        Ok(String::new())
    }

    fn final_score(&self) -> CommandResult {
        let position = self.position();
        if !position.board.is_game_over() {
            return Err("the game is not over".to_owned());
        }
        Ok(match position.black_score() {
            0 => "0".to_owned(),
            s if s > 0 => format!("B+{s}"),
            s => format!("W+{}", s.saturating_neg()),
        })
    }

    fn final_result(&self) -> String {
        let position = self.position();
        let (black, white) = (position.black().count(), position.white().count());
        if !position.board.is_game_over() {
            return format!("The game is not over (black {black}, white {white})");
        }
        match position.black_score() {
            0 => format!("Draw ({black}-{white})"),
            s if s > 0 => format!("Black wins by {s} ({black}-{white})"),
            s => format!("White wins by {} ({black}-{white})", s.saturating_neg()),
        }
    }

    fn time_settings(&mut self, args: &[&str]) -> CommandResult {
        let numbers: Option<Vec<u64>> = args.iter().map(|a| a.parse::<u64>().ok()).collect();
        match numbers.as_deref() {
            Some(&[main_time, byo_yomi_time, byo_yomi_stones]) => {
                self.clock = Clock { main_time, byo_yomi_time, byo_yomi_stones, left: [None, None] };
                Ok(String::new())
            }
            _ => {
                Err("syntax error: time_settings takes main time, byo-yomi time and stones (whole numbers)".to_owned())
            }
        }
    }

    fn time_left(&mut self, args: &[&str]) -> CommandResult {
        let [color, time, stones] = args else {
            return Err("syntax error: time_left takes a colour, a time and a number of stones".to_owned());
        };
        let color = parse_color(color)?;
        let time = time.parse::<f64>().ok().filter(|t| t.is_finite() && *t >= 0.0);
        let stones = stones.parse::<u64>().ok();
        let (Some(time), Some(stones)) = (time, stones) else {
            return Err("syntax error: time_left takes a colour, a time in seconds and a number of stones".to_owned());
        };
        if let Some(left) = self.clock.left.get_mut(color_index(color)) {
            *left = Some((time, stones));
        }
        Ok(String::new())
    }

    fn hint(&self, io: &mut Io<'_>) -> String {
        let position = self.position();
        let evals = evaluate_moves(self.engine.as_ref(), &position, self.level, &mut || io.interrupted());
        evals.iter().map(|e| format!("{} {:+}", move_text(e.mv, "pass"), e.score)).collect::<Vec<_>>().join(" ")
    }

    fn legal_moves(&self) -> String {
        let board = self.position().board;
        if board.is_game_over() {
            String::new()
        } else if board.must_pass() {
            "pass".to_owned()
        } else {
            board.moves().into_iter().map(|sq| sq.to_string()).collect::<Vec<_>>().join(" ")
        }
    }

    /// The board for GoGui: row 8 first (GoGui's top row), `X` black, `O` white, `.` empty.
    fn gogui_board(&self) -> String {
        let position = self.position();
        (0..8u8)
            .rev()
            .map(|row| (0..8u8).map(|column| square_char(&position, column, row)).collect::<String>())
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The board as an Othello diagram (row 1 at the top), with the side to move, the disc counts and the clock.
    fn board_diagram(&self) -> String {
        let position = self.position();
        let mut lines = vec!["   A B C D E F G H".to_owned()];
        for row in 0..8u8 {
            let cells: Vec<String> = (0..8u8).map(|column| square_char(&position, column, row).to_string()).collect();
            let number = row.saturating_add(1);
            lines.push(format!(" {number} {} {number}", cells.join(" ")));
        }
        lines.push("   A B C D E F G H".to_owned());
        let (black, white) = (position.black().count(), position.white().count());
        let status = if position.board.is_game_over() {
            "game over".to_owned()
        } else {
            format!("{} to move", color_word(position.side_to_move))
        };
        lines.push(format!("black (X) {black}, white (O) {white}, {status}, level {}", self.level.get()));
        if self.clock != Clock::default() {
            let left = |c: Color| match self.clock.left.get(color_index(c)).copied().flatten() {
                Some((t, s)) => format!("{t:.0} s/{s} stones"),
                None => "-".to_owned(),
            };
            lines.push(format!(
                "clock {} s + {} s/{} stones; left: black {}, white {}",
                self.clock.main_time,
                self.clock.byo_yomi_time,
                self.clock.byo_yomi_stones,
                left(Color::Black),
                left(Color::White)
            ));
        }
        lines.join("\n")
    }
}

impl<E: Engine + 'static> Protocol for GtpSession<E> {
    fn interrupts(line: &str) -> bool {
        line.trim().eq_ignore_ascii_case("# interrupt")
    }

    fn stopper(&self) -> Stopper {
        engine_stopper(&self.engine)
    }

    fn handle(&mut self, line: &str, io: &mut Io<'_>) -> Flow {
        let cleaned = preprocess(line);
        let mut words: Vec<&str> = cleaned.split_whitespace().collect();
        if words.is_empty() {
            return Flow::Continue;
        }
        let id = words.first().and_then(|word| word.parse::<u64>().ok());
        if id.is_some() {
            let _ = words.remove(0);
        }
        let id_text = id.map(|n| n.to_string()).unwrap_or_default();
        let Some((&name, args)) = words.split_first() else {
            io.send(&format!("?{id_text} syntax error: no command after the id"));
            io.send("");
            return Flow::Continue;
        };
        let (result, flow) = self.execute(name, args, io);
        match result {
            Ok(text) => io.send(&format!("={id_text} {text}")),
            Err(message) => io.send(&format!("?{id_text} {message}")),
        }
        io.send("");
        flow
    }
}

/// GTP 2 preprocessing: drop control characters but tab and newline, tabs to spaces, cut the comment.
fn preprocess(line: &str) -> String {
    let without_comment = line.split('#').next().unwrap_or("");
    without_comment
        .chars()
        .filter_map(|c| {
            if c == '\t' {
                Some(' ')
            } else if c.is_control() {
                None
            } else {
                Some(c)
            }
        })
        .collect()
}

fn parse_color(text: &str) -> Result<Color, String> {
    match text.to_ascii_lowercase().as_str() {
        "b" | "black" => Ok(Color::Black),
        "w" | "white" => Ok(Color::White),
        _ => Err(format!("syntax error: {text:?} is not a colour (black, white, b or w)")),
    }
}

fn parse_vertex(text: &str) -> Result<Move, String> {
    if text.eq_ignore_ascii_case("pass") {
        return Ok(Move::Pass);
    }
    match text.as_bytes() {
        [c, r] => Square::from_chars(*c, *r).map(Move::Place),
        _ => None,
    }
    .ok_or_else(|| format!("syntax error: {text:?} is not a vertex (A1-H8 or pass)"))
}

fn color_word(color: Color) -> &'static str {
    match color {
        Color::Black => "black",
        Color::White => "white",
    }
}

fn color_index(color: Color) -> usize {
    match color {
        Color::Black => 0,
        Color::White => 1,
    }
}

fn square_char(position: &Position, column: u8, row: u8) -> char {
    match Square::from_coords(column, row) {
        Some(sq) if position.black().contains(sq) => 'X',
        Some(sq) if position.white().contains(sq) => 'O',
        _ => '.',
    }
}
