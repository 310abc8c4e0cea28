//! The NBoard protocol (version 2, engine side), so the NBoard GUI can load Shirokuro.
//!
//! NBoard starts the engine, sends `nboard 2`, then describes the game with `set game <GGF>` (see [`ggf`](super::ggf)) and
//! follows it with `move` commands; before each request it sends `ping N`, and it ignores every answer that comes
//! before the matching `pong N`.
//!
//! | command | what Shirokuro does |
//! |---|---|
//! | `nboard <version>` | answers `set myname Shirokuro` |
//! | `set depth <N>` | plays at level N (1–60; smaller or larger values are clamped): the level's midgame depth is N, and the endgame is searched exactly, or selectively, from the level's number of empties, as in [`Level`]; answers `set myname Shirokuro<N>` |
//! | `set game <GGF>` | the position after the game's last move becomes current (a bad game is reported on the error stream and ignored) |
//! | `set contempt <n>` | accepted and kept; the search has no draw contempt, so it changes nothing |
//! | `move <mv>[/<eval>[/<time>]]` | plays the move (`F5`, `PA` for a pass; a bare `F5` line, as NBoard 1.1 sends, works too) |
//! | `go` | sends a `status` line after every finished iteration (depth@selectivity, score, principal variation, nodes, speed; see [`Iteration::summary`](super::Iteration::summary)), then answers `=== <mv>/<eval>/<time>` (eval in discs for the side to move, time in seconds) without playing it; a forced pass is `=== PA` at once |
//! | `hint <n>` | `hint 1` searches the position once and sends its best move after every finished iteration; more searches every legal move and sends the best `n`, each as `search <mv> <eval> 0 <depth>`, where depth is the plies searched or `100%` when solved exactly |
//! | `analyze` | scores every position of the game from the last to the first, one `analysis <k> <eval>` line each (`k` moves played, eval for the side to move) |
//! | `learn` | answers `learned` (Shirokuro keeps no book yet, so nothing is stored) |
//! | `ping <n>` | answers `pong <n>` once the running search has stopped |
//! | `quit` | ends the session |
//!
//! `go`, `hint` and `analyze` are framed by `status Shirokuro is thinking…` and an empty `status`, and followed by
//! `nodestats <nodes> <seconds>`. Lines that are not understood are reported on the error stream and otherwise
//! ignored, as the protocol asks. A `ping`, `move`, `set game` or `quit` arriving while the engine thinks stops the
//! search (see [`super::serve`]); NBoard sends a `ping` before every new request, so requests need not interrupt.

use std::sync::Arc;
use std::time::Instant;

use crate::board::Move;
use crate::level::Level;
use crate::position::Position;
use crate::square::Square;

use super::ggf::parse_ggf;
use super::{Decision, Engine, Flow, Io, Protocol, Stopper, engine_stopper, evaluate_moves, move_text, playable_move};

/// An NBoard session: the game line, the level and the engine.
pub struct NboardSession<E: Engine> {
    engine: Arc<E>,
    level: Level,
    contempt: f64,
    version: Option<u32>,
    /// Positions of the game line; the last one is current.
    positions: Vec<Position>,
}

impl<E: Engine + 'static> NboardSession<E> {
    /// A session at the initial position, playing at `level` until NBoard sends `set depth`.
    pub fn new(engine: Arc<E>, level: Level) -> NboardSession<E> {
        NboardSession { engine, level, contempt: 0.0, version: None, positions: vec![Position::INITIAL] }
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> Position {
        self.positions.last().copied().unwrap_or(Position::INITIAL)
    }

    /// The current level.
    #[must_use]
    pub fn level(&self) -> Level {
        self.level
    }

    /// The last contempt NBoard set (kept, not used by the search).
    #[must_use]
    pub fn contempt(&self) -> f64 {
        self.contempt
    }

    /// The protocol version NBoard announced.
    #[must_use]
    pub fn version(&self) -> Option<u32> {
        self.version
    }

    fn set(&mut self, rest: &str, io: &mut Io<'_>) {
        let (what, value) = split_word(rest);
        match what {
            "depth" => match value.trim().parse::<i64>() {
                Ok(n) => {
                    self.level = Level::clamped(u8::try_from(n.clamp(0, 255)).unwrap_or(u8::MAX));
                    io.send(&format!("set myname Shirokuro{}", self.level.get()));
                }
                Err(_) => io.warn(&format!("set depth: {:?} is not a number", value.trim())),
            },
            "game" => match parse_ggf(value).and_then(|game| game.replay()) {
                Ok(positions) => self.positions = positions,
                Err(e) => io.warn(&format!("set game: {e}")),
            },
            "contempt" => match value.trim().parse::<f64>() {
                Ok(c) if c.is_finite() => self.contempt = c,
                _ => io.warn(&format!("set contempt: {:?} is not a number", value.trim())),
            },
            _ => io.warn(&format!("unknown setting {} (ignored)", super::quoted(what))),
        }
    }

    fn play(&mut self, text: &str, io: &mut Io<'_>) {
        let token = text.trim().split('/').next().unwrap_or("").trim();
        let Some(mv) = parse_nboard_move(token) else {
            io.warn(&format!("move: {token:?} is not a move (expected a square like F5, or PA)"));
            return;
        };
        let mut position = self.position();
        if mv != Move::Pass && position.board.must_pass() {
            // NBoard sends passes, but a GUI that leaves them out still means the move of the other side.
            if let Ok(passed) = position.play(Move::Pass) {
                position = passed;
            }
        }
        match position.play(mv) {
            Ok(next) => self.positions.push(next),
            Err(e) => io.warn(&format!("move {token}: {e} (position unchanged)")),
        }
    }

    fn go(&self, io: &mut Io<'_>) {
        let position = self.position();
        if position.board.is_game_over() {
            io.warn("go: the game is over");
            io.send("status The game is over");
            return;
        }
        if position.board.must_pass() {
            io.send("=== PA");
            return;
        }
        io.send(&format!("status Shirokuro is thinking (level {})", self.level.get()));
        let start = Instant::now();
        // Each finished iteration goes to the status bar, so the user sees the search deepen.
        let thought = self.engine.choose(&position, self.level, &mut |it| {
            io.send(&format!("status Shirokuro (level {}): {}", self.level.get(), it.summary()));
        });
        let seconds = start.elapsed().as_secs_f64();
        io.send(&format!("nodestats {} {seconds:.2}", thought.nodes));
        if let Some(mv) = playable_move(&position, &thought) {
            io.send(&format!("=== {}/{:.2}/{seconds:.2}", move_text(mv, "PA"), f64::from(thought.score)));
        }
        io.send("status");
    }

    fn hint(&self, count: &str, io: &mut Io<'_>) {
        let count = match count.trim() {
            "" => 1,
            text => match text.parse::<usize>() {
                Ok(n) if n >= 1 => n,
                _ => {
                    io.warn(&format!("hint: {text:?} is not a number of moves (using 1)"));
                    1
                }
            },
        };
        let position = self.position();
        if position.board.is_game_over() {
            io.send("status The game is over");
            return;
        }
        io.send(&format!("status Shirokuro is thinking (level {})", self.level.get()));
        let start = Instant::now();
        let mut nodes = 0;
        if count == 1 {
            // Every finished iteration is sent as it comes, so the GUI shows the search deepening.
            let search_line = |d: &Decision| {
                let depth = if d.exact { "100%".to_owned() } else { d.depth.to_string() };
                playable_move(&position, d)
                    .map(|mv| format!("search {} {:.2} 0 {depth}", move_text(mv, "PA"), f64::from(d.score)))
            };
            let mut last = None;
            let thought = self.engine.think_with_progress(&position, self.level, &mut |it| {
                if let Some(line) = search_line(&it.decision) {
                    io.send(&line);
                    last = Some(line);
                }
            });
            nodes = thought.nodes;
            if let Some(line) = search_line(&thought).filter(|line| last.as_ref() != Some(line)) {
                io.send(&line);
            }
        } else {
            let evals = evaluate_moves(self.engine.as_ref(), &position, self.level, &mut || io.interrupted());
            for e in evals.iter().take(count) {
                let depth = if e.exact { "100%".to_owned() } else { e.depth.to_string() };
                io.send(&format!("search {} {:.2} 0 {depth}", move_text(e.mv, "PA"), f64::from(e.score)));
            }
            nodes = evals.iter().map(|e| e.nodes).sum::<u64>().max(nodes);
        }
        io.send(&format!("nodestats {nodes} {:.2}", start.elapsed().as_secs_f64()));
        io.send("status");
    }

    fn analyze(&self, io: &mut Io<'_>) {
        io.send(&format!("status Shirokuro is analysing the game (level {})", self.level.get()));
        let start = Instant::now();
        let mut nodes = 0_u64;
        for (k, position) in self.positions.iter().enumerate().rev() {
            if io.interrupted() {
                break;
            }
            let thought = self.engine.think(position, self.level);
            if thought.stopped {
                break;
            }
            nodes = nodes.saturating_add(thought.nodes);
            io.send(&format!("analysis {k} {:.2}", f64::from(thought.score)));
        }
        io.send(&format!("nodestats {nodes} {:.2}", start.elapsed().as_secs_f64()));
        io.send("status");
    }
}

impl<E: Engine + 'static> Protocol for NboardSession<E> {
    fn interrupts(line: &str) -> bool {
        let (command, rest) = split_word(line.trim());
        match command {
            "ping" | "move" | "quit" => true,
            "set" => split_word(rest).0 == "game",
            _ => parse_nboard_move(command.split('/').next().unwrap_or("")).is_some() && rest.is_empty(),
        }
    }

    fn stopper(&self) -> Stopper {
        engine_stopper(&self.engine)
    }

    fn handle(&mut self, line: &str, io: &mut Io<'_>) -> Flow {
        let (command, rest) = split_word(line.trim());
        match command {
            "" => {}
            "nboard" => match rest.trim().parse::<u32>() {
                Ok(version) => {
                    if !(1..=2).contains(&version) {
                        io.warn(&format!("NBoard protocol version {version}; Shirokuro speaks version 2"));
                    }
                    self.version = Some(version);
                    io.send("set myname Shirokuro");
                }
                Err(_) => io.warn(&format!("nboard: {:?} is not a version number", rest.trim())),
            },
            "set" => self.set(rest, io),
            "move" => self.play(rest, io),
            "go" => self.go(io),
            "hint" => self.hint(rest, io),
            "analyze" => self.analyze(io),
            "learn" => io.send("learned"),
            "ping" => io.send(&format!("pong {}", rest.trim())),
            "quit" => return Flow::Quit,
            other if parse_nboard_move(other.split('/').next().unwrap_or("")).is_some() && rest.is_empty() => {
                self.play(other, io);
            }
            other => io.warn(&format!("unknown command {} (ignored)", super::quoted(other))),
        }
        Flow::Continue
    }
}

/// The first word and the rest (leading whitespace removed from the rest).
fn split_word(text: &str) -> (&str, &str) {
    let text = text.trim_start();
    match text.find(char::is_whitespace) {
        Some(i) => (&text[..i], text[i..].trim_start()),
        None => (text, ""),
    }
}

/// `F5` (either case) or a pass (`PA`, `PS`, `PASS`, `--`).
fn parse_nboard_move(token: &str) -> Option<Move> {
    if ["PA", "PS", "PASS", "--"].iter().any(|p| token.eq_ignore_ascii_case(p)) {
        return Some(Move::Pass);
    }
    match token.as_bytes() {
        [c, r] => Square::from_chars(*c, *r).map(Move::Place),
        _ => None,
    }
}
