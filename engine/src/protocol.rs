//! Engine protocols that let other programs use Shirokuro: [GTP](gtp) (GoGui, Quarry, gogui-twogtp and the GTP modes of
//! Edax and Egaroucid) and [NBoard](nboard), plus the [GGF](ggf) game records NBoard sends.
//!
//! Each protocol is a state machine ([`Protocol`]) that takes one input line at a time and writes its response lines
//! through an [`Io`]. The engine sits behind the small [`Engine`] trait ([`Thinker`] implements it, and
//! [`PolicyEngine`] adds the AI's policy: a book and accepted losses), so tests can drive a session with any engine.
//! [`run_script`] feeds lines one after the other (no concurrency); [`serve`] is the real loop: a reader thread reads
//! the input while the session works, and when a line arrives that the protocol says must
//! interrupt a search ([`Protocol::interrupts`]: NBoard's `ping`, `move`, `set game`, … or GoGui's `# interrupt`), the
//! running search is stopped; the line itself is then handled after the interrupted command has answered, so a `ping`
//! is always answered after the search it interrupted.
//!
//! Coordinates are Othello notation in both protocols: columns `A`–`H` from left to right and rows `1`–`8` from top to
//! bottom (`A1` is the top-left corner, Black's first moves are `D3`, `C4`, `F5`, `E6`).

#![deny(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::cast_possible_truncation,
    clippy::arithmetic_side_effects,
    reason = "reads untrusted input: every access is checked, every failure is an error value"
)]

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError, mpsc};
use std::thread;
use std::time::Duration;

use crate::board::Move;
use crate::level::{Level, Selectivity};
use crate::position::Position;
use crate::think::{ThinkProgress, Thinker, Thought};

mod ai;
pub mod ggf;
pub mod gtp;
pub mod nboard;

pub use ai::PolicyEngine;

/// What the engine decided, as the protocols use it (the fields of [`Thought`] they need, so that a fake engine in a
/// test, or a change to `Thought`, stays independent of the protocols).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decision {
    /// The move (`Move::Pass` when forced); `None` when the game is over or the search was stopped before it had one.
    pub best_move: Option<Move>,
    /// Score for the side to move, in discs.
    pub score: i32,
    /// Whether the score is exact.
    pub exact: bool,
    /// Plies searched (the number of empties for an exact search).
    pub depth: u8,
    /// Nodes visited.
    pub nodes: u64,
    /// Whether the search was stopped.
    pub stopped: bool,
}

impl From<&Thought> for Decision {
    fn from(t: &Thought) -> Decision {
        Decision {
            best_move: t.best_move,
            score: t.score,
            exact: t.exact,
            depth: t.depth,
            nodes: t.nodes,
            stopped: t.stopped,
        }
    }
}

/// One finished iteration of a search, as [`Engine::think_with_progress`] reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Iteration {
    /// The best move so far, the score, the depth and the nodes so far (`stopped` is false).
    pub decision: Decision,
    /// The iteration's selectivity ([`Selectivity::Exact`] for a full-width or an exact search).
    pub selectivity: Selectivity,
    /// The principal variation, starting with the best move.
    pub pv: Vec<Move>,
    /// Time since the search started.
    pub elapsed: Duration,
}

impl Iteration {
    /// The most moves of the principal variation [`summary`](Self::summary) shows.
    pub const SUMMARY_PV: usize = 8;

    /// One line for a status bar or a log, e.g. `depth 14@93% score +3 pv F5 D6 C3 nodes 1234567 (2.47 Mn/s)`;
    /// an exact score reads `depth 20 exact score -2 …`. A pass in the variation is `PA`.
    #[must_use]
    pub fn summary(&self) -> String {
        let d = &self.decision;
        let depth = if d.exact && self.selectivity == Selectivity::Exact {
            format!("{} exact", d.depth)
        } else {
            format!("{}@{}", d.depth, self.selectivity)
        };
        let mut pv: Vec<String> = self.pv.iter().take(Self::SUMMARY_PV).map(|&mv| move_text(mv, "PA")).collect();
        if self.pv.len() > Self::SUMMARY_PV {
            pv.push("…".to_owned());
        }
        let pv = if pv.is_empty() { String::new() } else { format!(" pv {}", pv.join(" ")) };
        let rate = d.nodes as f64 / self.elapsed.as_secs_f64().max(1e-3) / 1e6;
        format!("depth {depth} score {:+}{pv} nodes {} ({rate:.2} Mn/s)", d.score, d.nodes)
    }
}

impl From<&ThinkProgress> for Iteration {
    fn from(p: &ThinkProgress) -> Iteration {
        Iteration {
            decision: Decision {
                best_move: p.pv.first().copied(),
                score: p.score,
                exact: p.exact,
                depth: p.depth,
                nodes: p.nodes,
                stopped: false,
            },
            selectivity: p.selectivity,
            pv: p.pv.clone(),
            elapsed: p.elapsed,
        }
    }
}

/// The engine a protocol session asks for moves.
pub trait Engine: Send + Sync {
    /// Picks a move for `position` at `level` (see [`Thinker::think`]).
    fn think(&self, position: &Position, level: Level) -> Decision;
    /// Like [`think`](Self::think), reporting each finished iteration to `progress`. The default reports nothing.
    fn think_with_progress(&self, position: &Position, level: Level, progress: &mut dyn FnMut(&Iteration)) -> Decision {
        let _ = progress;
        self.think(position, level)
    }
    /// The move the engine plays for `position` at `level` (GTP's `genmove`, NBoard's `go`): the engine's own policy
    /// (a book, accepted losses: see [`PolicyEngine`]). The default is a plain
    /// [`think_with_progress`](Self::think_with_progress); evaluations (hints, analysis) keep using `think`.
    fn choose(&self, position: &Position, level: Level, progress: &mut dyn FnMut(&Iteration)) -> Decision {
        self.think_with_progress(position, level, progress)
    }
    /// Asks a running [`think`](Self::think) (on another thread) to return as soon as it can; harmless when idle.
    fn stop(&self);
    /// Forgets what was learnt about earlier positions (a new game).
    fn new_game(&self);
}

impl Engine for Thinker {
    fn think(&self, position: &Position, level: Level) -> Decision {
        Decision::from(&Thinker::think(self, position, level))
    }

    fn think_with_progress(&self, position: &Position, level: Level, progress: &mut dyn FnMut(&Iteration)) -> Decision {
        let thought = Thinker::think_with_progress(self, position, level, &mut |p| progress(&Iteration::from(p)));
        Decision::from(&thought)
    }

    fn stop(&self) {
        self.stop_handle().stop();
    }

    fn new_game(&self) {
        self.clear();
    }
}

/// Stops the running search of a session (see [`Protocol::stopper`]).
pub type Stopper = Arc<dyn Fn() + Send + Sync>;

/// A stopper for a shared engine.
#[must_use]
pub fn engine_stopper<E: Engine + 'static>(engine: &Arc<E>) -> Stopper {
    let engine = Arc::clone(engine);
    Arc::new(move || engine.stop())
}

/// What the session loop does after a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// Read the next line.
    Continue,
    /// End the session.
    Quit,
}

/// A line-based engine protocol.
pub trait Protocol {
    /// Whether `line`, arriving while a command is being handled, must stop that command's search. Called on the
    /// reader thread, before the line is handled.
    fn interrupts(line: &str) -> bool;

    /// A handle that stops the session's running search from another thread.
    fn stopper(&self) -> Stopper;

    /// Handles one input line (without its line ending), writing the responses through `io`.
    fn handle(&mut self, line: &str, io: &mut Io<'_>) -> Flow;
}

/// Where a session writes: response lines to the protocol's output, diagnostics to the error stream; and whether
/// an interrupting line is waiting.
pub struct Io<'a> {
    out: &'a mut dyn Write,
    err: &'a mut dyn Write,
    pending: &'a AtomicUsize,
    failure: Option<io::Error>,
}

impl<'a> Io<'a> {
    /// An `Io` over two writers; `pending` counts the interrupting lines read but not yet handled.
    pub fn new(out: &'a mut dyn Write, err: &'a mut dyn Write, pending: &'a AtomicUsize) -> Io<'a> {
        Io { out, err, pending, failure: None }
    }

    /// Writes one response line (a newline is added) and flushes it. A write error is kept and reported by
    /// [`finish`](Self::finish); later writes are skipped.
    pub fn send(&mut self, line: &str) {
        if self.failure.is_none()
            && let Err(e) = writeln!(self.out, "{line}").and_then(|()| self.out.flush())
        {
            self.failure = Some(e);
        }
    }

    /// Writes a diagnostic line to the error stream (never part of the protocol).
    pub fn warn(&mut self, message: &str) {
        // A broken error stream must not end the session.
        let _ = writeln!(self.err, "shirokuro: {message}").and_then(|()| self.err.flush());
    }

    /// Whether a line that interrupts searches has arrived and waits to be handled: a command doing several
    /// searches should stop starting new ones.
    #[must_use]
    pub fn interrupted(&self) -> bool {
        self.pending.load(Ordering::SeqCst) > 0
    }

    /// The first write error, if any.
    ///
    /// # Errors
    /// The error of the first failed [`send`](Self::send).
    pub fn finish(self) -> io::Result<()> {
        match self.failure {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

/// What a scripted session wrote.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ScriptOutput {
    /// Response lines, in order.
    pub out: Vec<String>,
    /// Diagnostic lines, in order.
    pub err: Vec<String>,
    /// Whether a line asked to quit (the lines after it were not handled).
    pub quit: bool,
}

/// Feeds the lines of `script` to `session` one after the other, as a GUI that waits for each answer would, and
/// returns everything written. Nothing is ever interrupted.
pub fn run_script<P: Protocol>(session: &mut P, script: &str) -> ScriptOutput {
    let pending = AtomicUsize::new(0);
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let mut quit = false;
    for line in script.lines() {
        let mut io = Io::new(&mut out, &mut err, &pending);
        let flow = session.handle(line, &mut io);
        // Writing to a Vec cannot fail.
        let _ = io.finish();
        if flow == Flow::Quit {
            quit = true;
            break;
        }
    }
    let lines = |bytes: Vec<u8>| String::from_utf8_lossy(&bytes).lines().map(str::to_owned).collect();
    ScriptOutput { out: lines(out), err: lines(err), quit }
}

/// Runs `session` on `input` until it quits or the input ends, writing responses to `out` (flushed line by line) and
/// diagnostics to `err`.
///
/// The input is read on its own thread, so a line that [interrupts](Protocol::interrupts) stops the running search
/// right away; it is handled in its turn once the interrupted command has answered. The reader thread is left behind
/// blocked on the input if the session quits first (the process is about to exit).
///
/// # Errors
/// An input read error, a failed write to `out`, or a thread that cannot be started.
pub fn serve<P: Protocol>(
    session: &mut P,
    input: impl BufRead + Send + 'static,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> io::Result<()> {
    let pending = Arc::new(AtomicUsize::new(0));
    // Held while the watcher stops a search and while the main loop takes an interrupting line off the queue, so that
    // once a line is taken no stop meant for it can reach the search that the line starts.
    let gate = Arc::new(Mutex::new(()));
    let (line_tx, line_rx) = mpsc::channel::<io::Result<Line>>();
    let (wake_tx, wake_rx) = mpsc::channel::<()>();
    let interrupts: fn(&str) -> bool = P::interrupts;

    let stopper = session.stopper();
    let (watch_pending, watch_gate) = (Arc::clone(&pending), Arc::clone(&gate));
    let _watcher = thread::Builder::new().name("shirokuro-protocol-watcher".to_owned()).spawn(move || {
        // Each wake-up means an interrupting line arrived: keep stopping whatever runs until it is taken. A search
        // resets its stop flag when it starts, so one stop call could be lost if it came just before.
        while wake_rx.recv().is_ok() {
            loop {
                {
                    let _gate = watch_gate.lock().unwrap_or_else(PoisonError::into_inner);
                    if watch_pending.load(Ordering::SeqCst) == 0 {
                        break;
                    }
                    stopper();
                }
                thread::sleep(Duration::from_millis(2));
            }
        }
    })?;

    let read_pending = Arc::clone(&pending);
    let _reader = thread::Builder::new().name("shirokuro-protocol-reader".to_owned()).spawn(move || {
        let mut input = input;
        loop {
            let line = read_line(&mut input);
            let end = !matches!(line, Ok(Some(_)));
            if let Ok(Some(Line::Text(text))) = &line
                && interrupts(text)
            {
                let _ = read_pending.fetch_add(1, Ordering::SeqCst);
                let _ = wake_tx.send(());
            }
            let message = match line {
                Ok(Some(text)) => Ok(text),
                Ok(None) => return,
                Err(e) => Err(e),
            };
            if line_tx.send(message).is_err() || end {
                return;
            }
        }
    })?;

    for line in line_rx {
        let line = match line? {
            Line::Text(text) => text,
            Line::TooLong(length) => {
                let mut io = Io::new(out, err, &pending);
                io.warn(&format!("a line of {length} bytes was ignored (lines are limited to {MAX_LINE} bytes)"));
                io.finish()?;
                continue;
            }
        };
        if interrupts(&line) {
            let _gate = gate.lock().unwrap_or_else(PoisonError::into_inner);
            let _ = pending.fetch_sub(1, Ordering::SeqCst);
        }
        let mut io = Io::new(out, err, &pending);
        let flow = session.handle(&line, &mut io);
        io.finish()?;
        if flow == Flow::Quit {
            break;
        }
    }
    Ok(())
}

/// The longest input line taken (1 MiB): no command of the protocols or of `play` comes near it, and a longer line is
/// refused (read to its end and dropped) instead of filling the memory.
pub const MAX_LINE: usize = 1 << 20;

/// One line of input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    /// The line without its ending (`\n` or `\r\n`), bytes that are not UTF-8 replaced (GUIs on some systems write
    /// player names in a legacy encoding).
    Text(String),
    /// A line longer than [`MAX_LINE`] bytes, read to its end and dropped; its length in bytes.
    TooLong(usize),
}

/// Reads one line of at most [`MAX_LINE`] bytes (see [`Line`]); `None` at the end of the input. Never holds more than
/// [`MAX_LINE`] bytes of a line, however long it is.
///
/// # Errors
/// The input's read error.
pub fn read_line(input: &mut impl BufRead) -> io::Result<Option<Line>> {
    let mut bytes = Vec::new();
    let mut length = 0usize;
    loop {
        let available = input.fill_buf()?;
        if available.is_empty() {
            if length == 0 {
                return Ok(None);
            }
            break;
        }
        let end = available.iter().position(|&b| b == b'\n');
        let chunk = end.and_then(|i| available.get(..=i)).unwrap_or(available);
        let taken = chunk.len();
        // Keep up to two bytes past the limit, so that a line of exactly MAX_LINE bytes plus "\r\n" still fits.
        let room = (MAX_LINE + 2).saturating_sub(bytes.len()).min(taken);
        bytes.extend_from_slice(chunk.get(..room).unwrap_or(chunk));
        length = length.saturating_add(taken);
        input.consume(taken);
        if end.is_some() {
            break;
        }
    }
    if bytes.last() == Some(&b'\n') {
        let _ = bytes.pop();
        if bytes.last() == Some(&b'\r') {
            let _ = bytes.pop();
        }
    }
    if bytes.len() > MAX_LINE {
        return Ok(Some(Line::TooLong(length)));
    }
    Ok(Some(Line::Text(String::from_utf8_lossy(&bytes).into_owned())))
}

/// `text` as a diagnostic quotes it: at most 40 characters, then "…".
#[must_use]
pub fn quoted(text: &str) -> String {
    match text.char_indices().nth(40) {
        Some((cut, _)) => format!("{:?}…", &text[..cut]),
        None => format!("{text:?}"),
    }
}

/// The move to play after `thought`: its best move when legal (a search stopped very early may have none), else a
/// forced pass or the first legal move; `None` when the game is over.
#[must_use]
pub fn playable_move(position: &Position, thought: &Decision) -> Option<Move> {
    let board = &position.board;
    if board.is_game_over() {
        return None;
    }
    match thought.best_move {
        Some(mv) if board.is_legal(mv) => Some(mv),
        _ if board.must_pass() => Some(Move::Pass),
        _ => board.moves().first().map(Move::Place),
    }
}

/// The evaluation of one move by [`evaluate_moves`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveEval {
    /// The move.
    pub mv: Move,
    /// Score for the side that plays it, in discs.
    pub score: i32,
    /// Whether the score is exact (solved to the end).
    pub exact: bool,
    /// Plies searched, this move included.
    pub depth: u8,
    /// Nodes visited.
    pub nodes: u64,
}

/// Evaluates every legal move of `position` (or the forced pass) by searching the position after it at `level`, best
/// first (ties in square order). Stops early, returning what it has, when `stop` says so; empty when the game is over.
pub fn evaluate_moves(
    engine: &dyn Engine,
    position: &Position,
    level: Level,
    stop: &mut dyn FnMut() -> bool,
) -> Vec<MoveEval> {
    let board = &position.board;
    let moves: Vec<Move> = if board.is_game_over() {
        Vec::new()
    } else if board.must_pass() {
        vec![Move::Pass]
    } else {
        board.moves().into_iter().map(Move::Place).collect()
    };
    let mut evals = Vec::with_capacity(moves.len());
    for mv in moves {
        if stop() {
            break;
        }
        let Ok(child) = position.play(mv) else { continue };
        let thought = engine.think(&child, level);
        if thought.stopped && !evals.is_empty() {
            break;
        }
        evals.push(MoveEval {
            mv,
            score: thought.score.saturating_neg(),
            exact: thought.exact,
            depth: thought.depth.saturating_add(1),
            nodes: thought.nodes,
        });
    }
    evals.sort_by_key(|e| std::cmp::Reverse(e.score));
    evals
}

/// A move as both protocols print it: `F5`, or `pass`/`PA` as the caller chooses for a pass.
pub(crate) fn move_text(mv: Move, pass: &str) -> String {
    match mv {
        Move::Place(sq) => sq.to_string(),
        Move::Pass => pass.to_owned(),
    }
}
