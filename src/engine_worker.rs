//! The bridge between the synchronous engine and the app: one named thread owns the [`Thinker`] (so its
//! transposition tables survive between moves) and talks to the app over channels.
//!
//! - The app subscribes with [`subscription`]; the worker's first event is [`Event::Ready`] with a [`Handle`].
//! - Every [`Request`] carries a generation. Sending one (or [`Handle::cancel`]) records it as the latest and sets the
//!   engine's stop flag, so a running search returns within milliseconds; the worker skips work for older
//!   generations, and the app drops any event whose generation is not its current one.
//! - Hints and analysis report each value as soon as it is found.
//! - Random boards (Operate ▸ Generate Random Board) are made here too, with the same thinker, and stop like searches.
//! - Jobs may carry a book snapshot: the AI then plays a book move when the position has one (best at random among
//!   equals, as Egaroucid), hints give book values (labelled "book") for the moves in the book and search the others,
//!   and analysis takes a position's book value when it has one.
//!
//! The engine's `think` has no progress callback yet, so hint values stream per move and per level rather than per
//! search iteration (see docs/app-status.md).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use iced::Subscription;
use shirokuro_engine::arena::GameRng;
use shirokuro_engine::book::loss::LossCurves;
use shirokuro_engine::book::{ops, views};
use shirokuro_engine::eval::{Weights, weights};
use shirokuro_engine::level::{Level, SearchPlan};
use shirokuro_engine::random_board::{self, RandomBoard, RandomBoardError, RandomBoardSpec};
use shirokuro_engine::search::SolveOptions;
use shirokuro_engine::think::{ThinkProgress, Thinker, ThinkerStop, Thought};
use shirokuro_engine::{Color, Move, Position, Square};

use crate::book::SharedBook;
use crate::log::{LogLine, Search};
use crate::worker::{self, Outbox};

/// What the engine is asked to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Job {
    /// Choose a move.
    Think {
        /// The position.
        position: Position,
        /// The level.
        level: Level,
        /// The book to play from, if any.
        book: Option<SharedBook>,
        /// Settings ▸ Accept AI's Loss: the curves, when on.
        loss: Option<LossCurves>,
    },
    /// Evaluate every legal move, streaming values as they are found.
    Hints {
        /// The position.
        position: Position,
        /// The deepest level to reach.
        level: Level,
        /// The book whose values replace searches, if any.
        book: Option<SharedBook>,
    },
    /// Make a random mid-game position (Operate ▸ Generate Random Board).
    RandomBoard {
        /// Moves and score range.
        spec: RandomBoardSpec,
        /// The generator's seed.
        seed: u64,
    },
    /// Evaluate each position of a line, in the given order.
    Analyze {
        /// `(ply, position)` pairs.
        positions: Vec<(usize, Position)>,
        /// The level.
        level: Level,
        /// The book whose values replace searches, if any.
        book: Option<SharedBook>,
    },
}

/// A job with its generation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// The app's generation when it asked; results carry it back.
    pub generation: u64,
    /// The work.
    pub job: Job,
}

/// Search settings the worker applies by rebuilding its engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EngineOptions {
    /// Search threads.
    pub threads: u16,
    /// Table size exponent.
    pub hash_level: u8,
}

/// Commands on the worker's channel.
#[derive(Debug)]
enum Command {
    Run(Request),
    Configure(EngineOptions),
    ClearCache,
}

/// How a hint value was found, for the label under it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HintKind {
    /// A value from the book.
    Book,
    /// A midgame search of this level.
    Level(u8),
    /// An endgame search at this selectivity (percent, 100 = exact).
    Percent(u8),
}

/// What the worker reports.
#[derive(Debug, Clone)]
pub enum Event {
    /// The worker runs; send requests through this handle.
    Ready(Handle),
    /// The engine is configured and can search (sent after each [`Handle::configure`]).
    Configured,
    /// The AI's choice.
    Thought {
        /// The request's generation.
        generation: u64,
        /// The result.
        thought: Thought,
    },
    /// One move's hint value (for the side to move).
    Hint {
        /// The request's generation.
        generation: u64,
        /// The move.
        square: Square,
        /// Predicted final disc difference for the side to move after this move.
        value: i32,
        /// How it was found.
        kind: HintKind,
        /// The expected continuation after the move.
        pv: Vec<Move>,
    },
    /// One position's value from an analysis (Black's point of view).
    Analyzed {
        /// The request's generation.
        generation: u64,
        /// The ply.
        ply: usize,
        /// Predicted final disc difference, Black positive.
        value: i32,
    },
    /// A random board was made (or could not be).
    RandomBoard {
        /// The request's generation.
        generation: u64,
        /// The line from the initial position and its score, or why there is none.
        result: Result<RandomBoard, RandomBoardError>,
    },
    /// A job finished (not sent for stopped or superseded jobs).
    Done {
        /// The request's generation.
        generation: u64,
    },
    /// A line for the log panel.
    Log(LogLine),
    /// The weights could not be loaded; the engine plays with zero weights.
    WeightsFailed(String),
    /// The engine could not be created with the requested options.
    EngineFailed(String),
}

/// The app's end of the worker.
#[derive(Debug, Clone)]
pub struct Handle {
    commands: Sender<Command>,
    latest: Arc<AtomicU64>,
    stop: Arc<Mutex<Option<ThinkerStop>>>,
    cancelled_at: Arc<Mutex<Option<Instant>>>,
}

impl Handle {
    /// Supersedes any running job and starts `request`.
    pub fn send(&self, request: Request) {
        self.cancel(request.generation);
        // A closed channel means the worker is gone; the app notices through the subscription ending.
        let _ignored = self.commands.send(Command::Run(request));
    }

    /// Stops whatever runs: everything older than `generation` is abandoned.
    pub fn cancel(&self, generation: u64) {
        self.latest.store(generation, Ordering::SeqCst);
        if let Ok(mut at) = self.cancelled_at.lock() {
            *at = Some(Instant::now());
        }
        if let Ok(stop) = self.stop.lock()
            && let Some(stop) = stop.as_ref()
        {
            stop.stop();
        }
    }

    /// Rebuilds the engine with these options (after the running job).
    pub fn configure(&self, options: EngineOptions) {
        let _ignored = self.commands.send(Command::Configure(options));
    }

    /// Forgets the transposition tables.
    pub fn clear_cache(&self) {
        let _ignored = self.commands.send(Command::ClearCache);
    }
}

/// The worker as an iced subscription keyed by the weights file.
pub fn subscription(weights_file: PathBuf) -> Subscription<Event> {
    worker::subscription(weights_file, start)
}

/// Starts a worker outside iced (tests, tools): the same thread and events as [`subscription`].
pub fn spawn(weights_file: &Path) -> impl iced::futures::Stream<Item = Event> + use<> {
    start(&weights_file.to_path_buf())
}

/// Starts the worker thread; its events form the returned stream, which ends when the thread does.
#[allow(clippy::ptr_arg, reason = "Subscription::run_with hands its key over by reference")]
fn start(weights_file: &PathBuf) -> impl iced::futures::Stream<Item = Event> + use<> {
    let file = weights_file.clone();
    worker::spawn("shirokuro-engine", move |events, commands, inbox| {
        let handle = Handle {
            commands,
            latest: Arc::new(AtomicU64::new(0)),
            stop: Arc::new(Mutex::new(None)),
            cancelled_at: Arc::new(Mutex::new(None)),
        };
        let worker = Worker {
            events,
            inbox,
            latest: Arc::clone(&handle.latest),
            stop: Arc::clone(&handle.stop),
            cancelled_at: Arc::clone(&handle.cancelled_at),
            weights: None,
            thinker: None,
            rng: GameRng::new(seed()),
        };
        worker.run(&file, handle);
    })
}

struct Worker {
    events: Outbox<Event>,
    inbox: Receiver<Command>,
    latest: Arc<AtomicU64>,
    stop: Arc<Mutex<Option<ThinkerStop>>>,
    cancelled_at: Arc<Mutex<Option<Instant>>>,
    weights: Option<Arc<Weights>>,
    thinker: Option<Thinker>,
    rng: GameRng,
}

/// A seed for the book move choice from the clock.
fn seed() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64 | 1)
}

impl Worker {
    fn run(mut self, weights_file: &Path, handle: Handle) {
        let weights = match weights::load(weights_file) {
            Ok(weights) => weights,
            Err(error) => {
                let _sent = self.emit(Event::WeightsFailed(error.to_string()));
                Weights::zero()
            }
        };
        self.weights = Some(Arc::new(weights));
        if !self.emit(Event::Ready(handle)) {
            return;
        }
        while let Ok(command) = self.inbox.recv() {
            let alive = match command {
                Command::Configure(options) => self.configure(options),
                Command::ClearCache => {
                    if let Some(thinker) = &self.thinker {
                        thinker.clear();
                    }
                    self.emit(Event::Log(LogLine::CacheCleared))
                }
                Command::Run(request) => self.run_job(request),
            };
            if !alive {
                return;
            }
        }
    }

    /// Sends an event; `false` once the app has gone. Log lines also go to the process log.
    fn emit(&self, event: Event) -> bool {
        if let Event::Log(line) = &event {
            tracing::info!(target: "shirokuro::engine", "{}", line.text(crate::i18n::Language::English.strings()));
        }
        self.events.emit(event)
    }

    /// Logs how long a stopped search took to return after the app cancelled it (the stop latency).
    fn log_stop(&self, search: Search) -> bool {
        let since = self.cancelled_at.lock().ok().and_then(|at| *at).map(|at| at.elapsed());
        match since {
            Some(elapsed) => self.emit(Event::Log(LogLine::Stopped {
                search,
                micros: u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX),
            })),
            None => true,
        }
    }

    fn configure(&mut self, options: EngineOptions) -> bool {
        let Some(weights) = self.weights.clone() else { return true };
        // Free the old tables before allocating the new ones.
        self.thinker = None;
        let solve =
            SolveOptions::default().with_threads(usize::from(options.threads)).with_hash_level(options.hash_level);
        match Thinker::new(weights, solve) {
            Ok(thinker) => {
                if let Ok(mut stop) = self.stop.lock() {
                    *stop = Some(thinker.stop_handle());
                }
                self.thinker = Some(thinker);
                self.emit(Event::Log(LogLine::EngineReady { threads: options.threads, hash_level: options.hash_level }))
                    && self.emit(Event::Configured)
            }
            Err(error) => self.emit(Event::EngineFailed(error.to_string())),
        }
    }

    fn is_current(&self, generation: u64) -> bool {
        self.latest.load(Ordering::SeqCst) == generation
    }

    fn run_job(&mut self, request: Request) -> bool {
        let generation = request.generation;
        if self.thinker.is_none() || !self.is_current(generation) {
            return true;
        }
        if let Job::Think { position, book: Some(book), .. } = &request.job
            && let Some(thought) = book.read().and_then(|book| book_thought(&book, position, &mut self.rng))
        {
            let value = thought.score;
            let Some(mv) = thought.best_move else { return true };
            return self.emit(Event::Log(LogLine::BookMove { mv, value }))
                && self.emit(Event::Thought { generation, thought })
                && self.emit(Event::Done { generation });
        }
        let Some(thinker) = &self.thinker else { return true };
        match request.job {
            Job::Think { position, level, loss, .. } => {
                let thought = match loss {
                    // The loss choice runs several searches; only its result is logged.
                    Some(curves) => thinker.think_with_loss(&position, level, &curves, &mut self.rng),
                    None => thinker.think_with_progress(&position, level, &mut |p| {
                        let _sent = self.emit(Event::Log(describe_progress(p)));
                    }),
                };
                if thought.stopped {
                    return self.log_stop(Search::Move);
                }
                let alive = self.emit(Event::Log(describe(level, &thought)));
                if !self.is_current(generation) {
                    return alive;
                }
                alive && self.emit(Event::Thought { generation, thought }) && self.emit(Event::Done { generation })
            }
            Job::Hints { position, level, book } => self.hints(thinker, generation, position, level, book.as_ref()),
            Job::RandomBoard { spec, seed } => {
                let result = random_board::generate(thinker, &spec, &mut GameRng::new(seed));
                if result == Err(RandomBoardError::Stopped) {
                    return self.log_stop(Search::RandomBoard);
                }
                if !self.is_current(generation) {
                    return true;
                }
                let logged = match &result {
                    Ok(board) => self.emit(Event::Log(LogLine::RandomBoard {
                        moves: spec.moves(),
                        black_score: board.black_score,
                        tries: board.tries,
                    })),
                    Err(_) => true,
                };
                logged && self.emit(Event::RandomBoard { generation, result }) && self.emit(Event::Done { generation })
            }
            Job::Analyze { positions, level, book } => {
                for (ply, position) in positions {
                    if !self.is_current(generation) {
                        return true;
                    }
                    let in_book = book.as_ref().and_then(|book| book.read().and_then(|book| book_value(&book, &position)));
                    let score = match in_book {
                        Some(value) => value,
                        None => {
                            let thought = thinker.think(&position, level);
                            if thought.stopped {
                                return self.log_stop(Search::Analysis);
                            }
                            thought.score
                        }
                    };
                    if !self.is_current(generation) {
                        return true;
                    }
                    let value = black_value(position.side_to_move, score);
                    if !self.emit(Event::Analyzed { generation, ply, value }) {
                        return false;
                    }
                }
                self.emit(Event::Log(LogLine::AnalysisDone { level: level.get() }))
                    && self.emit(Event::Done { generation })
            }
        }
    }

    /// Values for every legal move, deepening level by level so early values appear at once.
    fn hints(
        &self,
        thinker: &Thinker,
        generation: u64,
        position: Position,
        level: Level,
        book: Option<&SharedBook>,
    ) -> bool {
        let mut moves: Vec<Square> = position.board.moves().into_iter().collect();
        // Book values first, for the moves in the book; only the others are searched.
        if let Some(book) = book.and_then(SharedBook::read) {
            for value in views::book_moves(&book, &position.board) {
                let Move::Place(square) = value.mv else { continue };
                let pv = match shirokuro_engine::book::book_child(&position.board, value.mv) {
                    Some((child, _)) => ops::principal_line(&book, &child),
                    None => Vec::new(),
                };
                let hint = Event::Hint { generation, square, value: i32::from(value.value), kind: HintKind::Book, pv };
                if !self.emit(hint) {
                    return false;
                }
                moves.retain(|&m| m != square);
            }
        }
        if moves.is_empty() {
            return self.emit(Event::Done { generation });
        }
        let root_empties = u8::try_from(position.board.empty_count()).unwrap_or(60);
        let mut steps: Vec<u8> = (1..=level.get()).filter(|l| *l <= 2 || l % 2 == 0).collect();
        if steps.last() != Some(&level.get()) {
            steps.push(level.get());
        }
        for step in steps {
            let root_level = Level::clamped(step);
            // A midgame plan searches each child one ply shallower; an endgame plan (decided by the empties) keeps
            // the level, so an exact root plan means exact children.
            let (kind, child_level) = match root_level.plan(root_empties) {
                SearchPlan::Midgame { depth, .. } => {
                    (HintKind::Level(depth), Level::clamped(step.saturating_sub(1).max(1)))
                }
                SearchPlan::Endgame { selectivity } if selectivity.is_exact() => (HintKind::Percent(100), root_level),
                // 99.9 % shows as 99 %: only an exact result may read 100 %.
                SearchPlan::Endgame { selectivity } => {
                    (HintKind::Percent(selectivity.percent().floor() as u8), root_level)
                }
            };
            for &square in &moves {
                if !self.is_current(generation) {
                    return true;
                }
                let Ok(child) = position.play(Move::Place(square)) else { continue };
                let thought = thinker.think(&child, child_level);
                if thought.stopped {
                    return self.log_stop(Search::Hints);
                }
                if !self.is_current(generation) {
                    return true;
                }
                if !self.emit(Event::Hint { generation, square, value: -thought.score, kind, pv: thought.pv }) {
                    return false;
                }
            }
            // An exact result cannot improve: stop deepening.
            if kind == HintKind::Percent(100) {
                break;
            }
        }
        self.emit(Event::Done { generation })
    }
}

/// `score` (for `side`) from Black's point of view.
#[must_use]
pub fn black_value(side: Color, score: i32) -> i32 {
    match side {
        Color::Black => score,
        Color::White => -score,
    }
}

/// A log line for one finished iteration of a search.
fn describe_progress(p: &ThinkProgress) -> LogLine {
    LogLine::Iteration {
        depth: p.depth,
        percent: (!p.exact).then(|| p.selectivity.percent().to_string()),
        score: p.score,
        pv: p.pv.iter().take(12).copied().collect(),
        nodes: p.nodes,
        nps: p.nodes_per_second() as u64,
    }
}

/// A log line for a finished move search.
fn describe(level: Level, thought: &Thought) -> LogLine {
    let secs = thought.elapsed.as_secs_f64();
    let nps = if secs > 0.0 { thought.nodes as f64 / secs } else { 0.0 };
    LogLine::MoveSearched {
        level: level.get(),
        best: thought.best_move,
        score: thought.score,
        exact: thought.exact,
        depth: thought.depth,
        nodes: thought.nodes,
        millis: u64::try_from(thought.elapsed.as_millis()).unwrap_or(u64::MAX),
        nps: nps as u64,
    }
}

/// The AI's book move in `position`, chosen at random among the best (Egaroucid's default), as a [`Thought`] whose
/// line follows the book; `None` when the book has no usable move here.
#[must_use]
pub fn book_thought(book: &shirokuro_engine::book::Book, position: &Position, rng: &mut GameRng) -> Option<Thought> {
    let moves = views::book_moves(book, &position.board);
    let mv = views::choose_book_move(&moves, 0, rng)?;
    let value = moves.iter().find(|m| m.mv == mv).map(|m| i32::from(m.value))?;
    let mut pv = vec![mv];
    if let Some((child, _)) = shirokuro_engine::book::book_child(&position.board, mv) {
        pv.extend(ops::principal_line(book, &child));
    }
    Some(Thought {
        best_move: Some(mv),
        score: value,
        exact: false,
        depth: 0,
        nodes: 0,
        elapsed: std::time::Duration::ZERO,
        stopped: false,
        selectivity: shirokuro_engine::level::Selectivity::Exact,
        pv,
    })
}

/// The book's value of `position` for its side to move, if the position is in the book.
fn book_value(book: &shirokuro_engine::book::Book, position: &Position) -> Option<i32> {
    book.get(&position.board).map(|entry| i32::from(entry.value))
}
