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

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use iced::Subscription;
use shirokuro_engine::eval::Weights;
use shirokuro_engine::eval::weights::WeightsError;
use shirokuro_engine::level::Level;
use shirokuro_engine::random_board::{self, RandomBoard, RandomBoardError, RandomBoardProgress, RandomBoardSpec};
use shirokuro_engine::rng::GameRng;
use shirokuro_engine::search::{SearchError, SolveOptions};
pub use shirokuro_engine::think::HintKind;
use shirokuro_engine::think::loss_curves::LossCurves;
use shirokuro_engine::think::{
    HintsEnd, Policy, Source, Sparring, ThinkProgress, Thinker, ThinkerStop, Thought, book_hints,
};
use shirokuro_engine::{Color, Move, Position, Square};

use crate::book::SharedBook;
use crate::failure::Shared;
use crate::log::{LogLine, Search};
use crate::settings::evaluation::{self, WeightsCache};
use crate::worker::{self, Outbox};

mod line_jobs;

/// How often the random board generator's progress is sent (its searches are many and short).
const PROGRESS_EVERY: std::time::Duration = std::time::Duration::from_millis(100);

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
        /// The time the move may take when the AI plays by its clock.
        time: Option<Duration>,
        /// Settings ▸ AI Style: the human-like sparring partner, when on.
        sparring: Option<Sparring>,
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
    /// Display ▸ AI's Focus: each disc's worth, level by level.
    Focus {
        /// The position.
        position: Position,
        /// The deepest level.
        level: Level,
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
    /// Game ▸ Review: each position's value and best line, in the given order.
    Review {
        /// `(ply, position)` pairs.
        positions: Vec<(usize, Position)>,
        /// The level and the exact range.
        options: shirokuro_engine::review::ReviewOptions,
        /// The book whose positions take its values, if any.
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
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineOptions {
    /// Search threads.
    pub threads: u16,
    /// Table size exponent.
    pub hash_level: u8,
    /// The network file added to the pattern weights (Settings ▸ Evaluation); `None`: the patterns alone.
    pub network: Option<PathBuf>,
}

/// Commands on the worker's channel.
#[derive(Debug)]
enum Command {
    Run(Request),
    Configure(EngineOptions),
    ClearCache,
    Seed(u64),
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
    /// The human-like sparring partner's loss with the move the next [`Event::Thought`] brings.
    SparringLoss {
        /// The request's generation.
        generation: u64,
        /// Discs lost against its best move.
        loss: i32,
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
    /// One position's review value.
    Reviewed {
        /// The request's generation.
        generation: u64,
        /// The ply.
        ply: usize,
        /// Its value (Black's view), best move and line.
        value: shirokuro_engine::review::PositionValue,
    },
    /// AI's Focus at one level: each disc's square and worth for Black, in tenths of a disc.
    Focus {
        /// The request's generation.
        generation: u64,
        /// The position.
        position: Position,
        /// The level.
        level: u8,
        /// The values.
        values: Vec<(Square, i32)>,
    },
    /// A random board was made (or could not be).
    RandomBoard {
        /// The request's generation.
        generation: u64,
        /// The line from the initial position and its score, or why there is none.
        result: Result<RandomBoard, RandomBoardError>,
    },
    /// Where the random board generator is (at most ten a second).
    RandomProgress {
        /// The request's generation.
        generation: u64,
        /// The try, the move being chosen and the search of one candidate.
        progress: RandomBoardProgress,
    },
    /// A job finished (not sent for stopped or superseded jobs).
    Done {
        /// The request's generation.
        generation: u64,
    },
    /// A line for the log panel.
    Log(LogLine),
    /// The weights could not be loaded; the engine plays with zero weights.
    WeightsFailed(Shared<WeightsError>),
    /// The network file of Settings ▸ Evaluation could not be read; the patterns play alone.
    NetworkFailed(Shared<WeightsError>),
    /// The engine could not be created with the requested options.
    EngineFailed(SearchError),
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

    /// Seeds the AI's random choices (book moves, accepted losses); the same seed, position and book give the same
    /// move as `shirokuro-cli play --seed`, GTP and NBoard.
    pub fn seed(&self, seed: u64) {
        let _ignored = self.commands.send(Command::Seed(seed));
    }
}

/// The worker as an iced subscription keyed by the weights file.
pub fn subscription(weights_file: PathBuf) -> Subscription<Event> {
    worker::subscription(weights_file, spawn)
}

/// Starts the worker thread (what [`subscription`] runs; tests and tools call it directly); its events form the
/// returned stream, which ends when the thread does.
#[allow(clippy::ptr_arg, reason = "Subscription::run_with hands its key over by reference")]
pub fn spawn(weights_file: &PathBuf) -> impl iced::futures::Stream<Item = Event> + use<> {
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
    /// The pattern weights (read at start) and the weights the thinker searches with.
    weights: Option<WeightsCache>,
    thinker: Option<Thinker>,
    rng: GameRng,
}

/// A seed for the book move choice from the clock.
fn seed() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64 | 1)
}

impl Worker {
    fn run(mut self, weights_file: &Path, handle: Handle) {
        let weights = WeightsCache::open(weights_file).unwrap_or_else(|error| {
            let _sent = self.emit(Event::WeightsFailed(Shared::new(error)));
            WeightsCache::new(Weights::zero())
        });
        self.weights = Some(weights);
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
                Command::Seed(seed) => {
                    self.rng = GameRng::new(seed);
                    true
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
        emit(&self.events, event)
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
        // Free the old tables before building the new ones.
        self.thinker = None;
        let Some(cache) = &mut self.weights else { return true };
        let (weights, failed) = cache.get_or_patterns(options.network.as_deref());
        if let Some(error) = failed
            && !self.emit(Event::NetworkFailed(Shared::new(error)))
        {
            return false;
        }
        let mpc = evaluation::mpc_model(&weights);
        let solve =
            SolveOptions::default().with_threads(usize::from(options.threads)).with_hash_level(options.hash_level);
        match Thinker::new(weights, solve) {
            Ok(mut thinker) => {
                if let Some(model) = &mpc {
                    thinker.set_mpc_model(model);
                }
                if let Ok(mut stop) = self.stop.lock() {
                    *stop = Some(thinker.stop_handle());
                }
                self.thinker = Some(thinker);
                self.emit(Event::Log(LogLine::EngineReady {
                    threads: options.threads,
                    hash_level: options.hash_level,
                    network: mpc.is_some(),
                })) && self.emit(Event::Configured)
            }
            Err(error) => self.emit(Event::EngineFailed(error)),
        }
    }

    fn is_current(&self, generation: u64) -> bool {
        self.latest.load(Ordering::SeqCst) == generation
    }

    fn run_job(&mut self, request: Request) -> bool {
        let generation = request.generation;
        if !self.is_current(generation) {
            return true;
        }
        let Some(thinker) = self.thinker.take() else { return true };
        let alive = match request.job {
            Job::Think { position, level, book, loss, time, sparring } => {
                let policy = Policy::new(level).with_loss(loss).with_time(time).with_sparring(sparring);
                self.think(&thinker, generation, &position, &policy, book.as_ref())
            }
            Job::Hints { position, level, book } => self.hints(&thinker, generation, position, level, book.as_ref()),
            Job::RandomBoard { spec, seed } => self.random_board(&thinker, generation, &spec, seed),
            Job::Focus { position, level } => self.focus(&thinker, generation, &position, level),
            Job::Analyze { positions, level, book } => {
                self.analyze(&thinker, generation, positions, level, book.as_ref())
            }
            Job::Review { positions, options, book } => {
                self.review(&thinker, generation, positions, options, book.as_ref())
            }
        };
        self.thinker = Some(thinker);
        alive
    }

    /// The AI's move through the engine's policy: a book move when the book has one (the book is lent for that step
    /// only, so a book change never waits for a search), otherwise a search.
    fn think(
        &mut self,
        thinker: &Thinker,
        generation: u64,
        position: &Position,
        policy: &Policy,
        book: Option<&SharedBook>,
    ) -> bool {
        let level = policy.level;
        let from_book = book
            .and_then(SharedBook::read)
            .and_then(|book| thinker.choose_from_book(position, policy, &book, &mut self.rng));
        let choice = match from_book {
            Some(choice) => choice,
            None => {
                let events = self.events.clone();
                thinker.choose_by_search(position, policy, &mut self.rng, &mut |p| {
                    let _sent = emit(&events, Event::Log(describe_progress(p)));
                })
            }
        };
        if choice.thought.stopped {
            return self.log_stop(Search::Move);
        }
        let line = match (choice.source, choice.mv) {
            (Source::Book, Some(mv)) => LogLine::BookMove { mv, value: choice.value },
            _ => describe(level, &choice.thought),
        };
        let alive = self.emit(Event::Log(line));
        if !self.is_current(generation) {
            return alive;
        }
        let counted = choice.loss.is_none_or(|loss| self.emit(Event::SparringLoss { generation, loss }));
        alive
            && counted
            && self.emit(Event::Thought { generation, thought: choice.thought })
            && self.emit(Event::Done { generation })
    }

    fn random_board(&mut self, thinker: &Thinker, generation: u64, spec: &RandomBoardSpec, seed: u64) -> bool {
        let mut shown: Option<Instant> = None;
        let mut report = |progress: &RandomBoardProgress| {
            if shown.is_none_or(|at| at.elapsed() >= PROGRESS_EVERY) && self.is_current(generation) {
                shown = Some(Instant::now());
                let _sent = self.emit(Event::RandomProgress { generation, progress: progress.clone() });
            }
        };
        let result = random_board::generate_with(thinker, spec, &mut GameRng::new(seed), &mut report);
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

    /// AI's Focus, each level's values sent as it ends.
    fn focus(&self, thinker: &Thinker, generation: u64, position: &Position, level: Level) -> bool {
        let mut alive = true;
        let finished = thinker.focus(position, level, &mut |focus| {
            if alive && self.is_current(generation) {
                let values = focus.values.iter().map(|(square, v)| (*square, (v * 10.0).round() as i32)).collect();
                let level = focus.level.get();
                alive = self.emit(Event::Focus { generation, position: *position, level, values });
            }
        });
        if !finished {
            return self.log_stop(Search::Focus);
        }
        alive && self.emit(Event::Done { generation })
    }

    /// Values for every legal move through the engine's hint schedule: the book's values first (the book is lent
    /// for that step only), then the other moves deepened level by level, each value sent as soon as it is found.
    fn hints(
        &self,
        thinker: &Thinker,
        generation: u64,
        position: Position,
        level: Level,
        book: Option<&SharedBook>,
    ) -> bool {
        let in_book = book.and_then(SharedBook::read).map(|book| book_hints(&book, &position)).unwrap_or_default();
        let mut skip = Vec::with_capacity(in_book.len());
        for hint in in_book {
            skip.push(hint.square);
            if !self.emit(Event::Hint {
                generation,
                square: hint.square,
                value: hint.value,
                kind: hint.kind,
                pv: hint.pv,
            }) {
                return false;
            }
        }
        let mut alive = true;
        let end = thinker.search_hints(&position, level, &skip, &mut |hint| {
            if !self.is_current(generation) {
                return ControlFlow::Break(());
            }
            alive = self.emit(Event::Hint {
                generation,
                square: hint.square,
                value: hint.value,
                kind: hint.kind,
                pv: hint.pv,
            });
            if alive { ControlFlow::Continue(()) } else { ControlFlow::Break(()) }
        });
        match end {
            HintsEnd::Stopped => self.log_stop(Search::Hints),
            HintsEnd::Interrupted => alive,
            HintsEnd::Finished => self.emit(Event::Done { generation }),
        }
    }
}

/// Sends an event; `false` once the app has gone. Log lines also go to the process log.
fn emit(events: &Outbox<Event>, event: Event) -> bool {
    if let Event::Log(line) = &event {
        tracing::info!(target: "shirokuro::engine", "{}", line.text(crate::i18n::Language::English.strings()));
    }
    events.emit(event)
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
