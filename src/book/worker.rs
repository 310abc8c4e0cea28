//! The book worker: one named thread that owns the opening book, loads it at start, runs the Book menu's operations
//! (import, export, merge, info, fix, deviate, add a transcript) with progress and stop, and saves every change
//! atomically (with a `.bak`) to the book file.
//!
//! The app never waits for it: after a load or a change the worker sends a read-only snapshot ([`SharedBook`]) that the
//! app passes to the engine worker's jobs (book moves, book hint values). Lookups in a snapshot take microseconds.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use iced::Subscription;
use shirokuro_engine::book::file::ReadOptions;
use shirokuro_engine::book::learn::{self, DeviateSettings, Searcher, ThinkerSearcher};
use shirokuro_engine::book::ops::{self, Control, Progress};
use shirokuro_engine::book::views::{self, AccuracyCache, MoveView, UmigameCache};
use shirokuro_engine::book::{self, Book, BookError, BookFormat};
use shirokuro_engine::eval::Weights;
use shirokuro_engine::fsutil::{FileLock, LockError};
use shirokuro_engine::search::SearchError;
use shirokuro_engine::{Board, Move, Position};

use super::operation::{Job, Operation, Outcome};
use super::problem::BookProblem;
use super::shared::SharedBook;
use crate::failure::Shared;
use crate::settings::evaluation::{self, WeightsCache};
use crate::worker::{self, Outbox};

mod export;

/// What the book worker reports.
#[derive(Debug, Clone)]
pub enum Event {
    /// The worker runs; send jobs through this handle.
    Ready(Handle),
    /// An operation started.
    Started(Operation),
    /// Progress of the running operation (at most ten a second).
    Progress {
        /// The operation.
        operation: Operation,
        /// Units done.
        done: u64,
        /// Units in all (0 when unknown).
        total: u64,
    },
    /// A new book snapshot (after a load or a change).
    Book(SharedBook),
    /// The book file could not be read; the book is empty and nothing will be saved over the file.
    Unreadable {
        /// The file.
        file: PathBuf,
        /// Why.
        error: BookProblem,
    },
    /// Another run (`shirokuro-cli book …`) is writing the book file: the book is used read-only.
    Locked {
        /// The book file.
        file: PathBuf,
        /// The other run's process id, when known.
        holder: Option<u32>,
    },
    /// The default book was installed as `file`, with `positions` positions.
    Installed {
        /// The user's book file.
        file: PathBuf,
        /// Its positions.
        positions: usize,
    },
    /// Book Info's counts.
    Info(Box<ops::Info>),
    /// The overlay data of a position.
    Views {
        /// The position.
        position: Position,
        /// Every book move with its umigame counts and accuracy label.
        views: Vec<MoveView>,
    },
    /// An operation ended.
    Finished {
        /// The operation.
        operation: Operation,
        /// How.
        outcome: Outcome,
    },
}

/// The app's end of the worker.
#[derive(Debug, Clone)]
pub struct Handle {
    jobs: Sender<Job>,
    stop: Arc<AtomicBool>,
    network: Arc<Mutex<Option<PathBuf>>>,
}

impl Handle {
    /// Queues a job (jobs run one after the other).
    pub fn send(&self, job: Job) {
        // A closed channel means the worker is gone; the subscription ending tells the app.
        let _ignored = self.jobs.send(job);
    }

    /// Asks the running operation to stop as soon as it can (it keeps and saves what it did).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Settings ▸ Evaluation: the network file added to the pattern weights (`None`: the patterns alone) for the
    /// searches of the operations that start from now on.
    pub fn use_network(&self, network: Option<PathBuf>) {
        if let Ok(mut asked) = self.network.lock() {
            *asked = network;
        }
    }
}

/// The worker as an iced subscription keyed by the weights file (searching operations load the weights lazily).
pub fn subscription(weights_file: PathBuf) -> Subscription<Event> {
    worker::subscription(weights_file, spawn)
}

/// Starts the worker thread (what [`subscription`] runs; tests and tools call it directly); its events form the
/// returned stream, which ends when the thread does.
#[allow(clippy::ptr_arg, reason = "Subscription::run_with hands its key over by reference")]
pub fn spawn(weights_file: &PathBuf) -> impl iced::futures::Stream<Item = Event> + use<> {
    let weights_file = weights_file.clone();
    worker::spawn("shirokuro-book", move |events, jobs, inbox| {
        let handle = Handle { jobs, stop: Arc::new(AtomicBool::new(false)), network: Arc::default() };
        let worker = Worker {
            events,
            stop: Arc::clone(&handle.stop),
            network: Arc::clone(&handle.network),
            weights_file,
            weights: None,
            book: SharedBook::new(Book::new()),
            file: None,
            umigame: UmigameCache::new(),
            accuracy: AccuracyCache::new(),
            save_pending: false,
            lock: None,
        };
        worker.run(&inbox, handle);
    })
}

/// The saves of a long learning run (deviate): a failed save is remembered and the run goes on, the work in memory,
/// and the next save point tries again; only a failure of the last save is reported (the book in memory keeps
/// everything, and the next change saves it).
struct Autosave<'a> {
    file: &'a Path,
    failed: Option<BookError>,
}

impl Autosave<'_> {
    fn save(&mut self, book: &Book) -> Result<(), std::convert::Infallible> {
        match book::save(book, self.file, BookFormat::Egbk3) {
            Ok(()) => self.failed = None,
            Err(error) => {
                tracing::warn!("autosave failed, the work stays in memory and is saved again later: {error}");
                self.failed = Some(error);
            }
        }
        Ok(())
    }

    fn result(self) -> Result<(), BookProblem> {
        self.failed.map_or(Ok(()), |error| Err(error.into()))
    }
}

struct Worker {
    events: Outbox<Event>,
    stop: Arc<AtomicBool>,
    /// The network the app asks for ([`Handle::use_network`]).
    network: Arc<Mutex<Option<PathBuf>>>,
    weights_file: PathBuf,
    /// The pattern weights (read at the first search) and the weights searches use.
    weights: Option<WeightsCache>,
    book: SharedBook,
    /// Where changes are saved; `None` until a load succeeded (so a damaged file is never overwritten).
    file: Option<PathBuf>,
    umigame: UmigameCache,
    accuracy: AccuracyCache,
    /// A stopped operation changed the book; its save runs once the operation has ended.
    save_pending: bool,
    /// The lock on `file` against other writers, held while it is the book's file.
    lock: Option<FileLock>,
}

/// How often the running operation's progress is sent at most.
const PROGRESS_EVERY: Duration = Duration::from_millis(100);

/// Why a job failed: a message (from the engine: file, offset, step), or no usable book file.
#[derive(Debug)]
enum Failure {
    Problem(BookProblem),
    NoFile,
}

impl From<BookProblem> for Failure {
    fn from(problem: BookProblem) -> Failure {
        Failure::Problem(problem)
    }
}

impl From<BookError> for Failure {
    fn from(error: BookError) -> Failure {
        Failure::Problem(error.into())
    }
}

/// The outcome of one job body: `Ok((added, stopped, changed))` or why it failed.
type JobResult = Result<(u64, bool, bool), Failure>;

impl Worker {
    fn run(mut self, inbox: &Receiver<Job>, handle: Handle) {
        if !self.emit(Event::Ready(handle)) {
            return;
        }
        while let Ok(job) = inbox.recv() {
            self.stop.store(false, Ordering::SeqCst);
            let operation = job.operation();
            if !self.emit(Event::Started(operation)) {
                return;
            }
            let result = self.run_job(job);
            let positions = self.positions();
            let outcome = match result {
                Ok((added, stopped, changed)) => {
                    if changed {
                        self.umigame.clear();
                        self.accuracy.clear();
                    }
                    if changed && !self.emit(Event::Book(self.book.clone())) {
                        return;
                    }
                    if stopped { Outcome::Stopped { positions, added } } else { Outcome::Done { positions, added } }
                }
                Err(Failure::Problem(problem)) => Outcome::Failed(problem),
                Err(Failure::NoFile) => Outcome::NoFile,
            };
            if !self.emit(Event::Finished { operation, outcome }) {
                return;
            }
            if std::mem::take(&mut self.save_pending) && !self.save_after_stop() {
                return;
            }
        }
    }

    /// The save a stopped operation left to do, as its own step with its own progress (Stop does not stop it: it keeps
    /// the work); `false` once the app is gone.
    fn save_after_stop(&mut self) -> bool {
        if !self.emit(Event::Started(Operation::Save)) {
            return false;
        }
        let outcome = match self.write_book(Operation::Save, false) {
            Ok(()) => Outcome::Done { positions: self.positions(), added: 0 },
            Err(Failure::Problem(problem)) => Outcome::Failed(problem),
            Err(Failure::NoFile) => Outcome::NoFile,
        };
        self.emit(Event::Finished { operation: Operation::Save, outcome })
    }

    /// Positions in the book now (and the count the readers see brought up to date).
    fn positions(&self) -> usize {
        self.book.count();
        self.book.len()
    }

    fn emit(&self, event: Event) -> bool {
        self.events.emit(event)
    }

    fn run_job(&mut self, job: Job) -> JobResult {
        let operation = job.operation();
        let changes_book = !matches!(
            job,
            Job::Load { .. } | Job::Install { .. } | Job::Export { .. } | Job::Info | Job::Flush | Job::Views { .. }
        );
        if changes_book && self.file.is_none() {
            // Refuse before changing anything, so the book in memory stays the one the app shows.
            return Err(Failure::NoFile);
        }
        match job {
            Job::Load { file } => self.load(file),
            Job::Install { file, shipped, only_if_missing } => {
                if only_if_missing && file.try_exists().unwrap_or(true) {
                    self.load(file)
                } else {
                    self.install(operation, file, &shipped)
                }
            }
            Job::Import { from, level } => {
                // Read without holding the book: the AI and the hints keep it until the new one replaces it.
                let loaded = self
                    .with_progress(operation, |control| book::load_with(&from, None, ReadOptions { level }, control));
                let book = match loaded {
                    Ok((book, _)) => book,
                    Err(BookError::Stopped { .. }) => return Ok((0, true, false)),
                    Err(error) => return Err(error.into()),
                };
                let added = book.len() as u64;
                *self.book.write() = book;
                self.save(operation)?;
                Ok((added, false, true))
            }
            Job::Export { to, level, extra } => self.export(operation, &to, level, extra),
            Job::Merge { from } => {
                let loaded = self
                    .with_progress(operation, |control| book::load_with(&from, None, ReadOptions::default(), control));
                let other = match loaded {
                    Ok((other, _)) => other,
                    Err(BookError::Stopped { .. }) => return Ok((0, true, false)),
                    Err(error) => return Err(error.into()),
                };
                // A stopped merge keeps what it merged so far, and that is saved.
                let report = self.with_control(operation, |book, control| book.merge_with(&other, control));
                self.save_unless_stopped(operation, report.stopped)?;
                Ok((report.added, report.stopped, true))
            }
            Job::Flush => Ok((0, false, false)),
            Job::Info => {
                let info = ops::info(&self.book.wait_read(), false);
                let _sent = self.emit(Event::Info(Box::new(info)));
                Ok((0, false, false))
            }
            Job::Views { position, umigame } => {
                let book = self.book.wait_read();
                let views = views::move_views(&book, &position, umigame, &mut self.umigame, &mut self.accuracy);
                drop(book);
                let _sent = self.emit(Event::Views { position, views });
                Ok((0, false, false))
            }
            Job::Edit { board, mv, value } => {
                let old = self.book.write().edit(&board, mv, value).map_err(BookProblem::Edit)?;
                // The change is in the shared book now: tell the app before the (slower) save.
                self.umigame.clear();
                self.accuracy.clear();
                self.book.count();
                if !self.emit(Event::Book(self.book.clone())) {
                    return Ok((0, false, false));
                }
                self.save(operation)?;
                Ok((u64::from(value.is_some() || old.is_some()), false, false))
            }
            Job::Fix { edax_like } => {
                let report =
                    self.with_control(operation, |book, control| ops::fix(book, &Board::INITIAL, edax_like, control));
                self.save_unless_stopped(operation, report.stopped)?;
                Ok((report.values_changed, report.stopped, true))
            }
            Job::Lines => {
                let report =
                    self.with_control(operation, |book, control| ops::recount_lines(book, &Board::INITIAL, control));
                self.save_unless_stopped(operation, report.stopped)?;
                Ok((report.lines_changed, report.stopped, true))
            }
            Job::Reduce { root, walk } => {
                // A stopped reduce leaves the book as it was.
                let report = self.with_control(operation, |book, control| ops::reduce_with(book, &root, walk, control));
                if report.stopped {
                    return Ok((0, true, false));
                }
                self.save(operation)?;
                Ok((report.deleted, false, true))
            }
            Job::Leaves { root, settings, hash_level } => {
                let make = self.searchers(hash_level)?;
                let report = self.with_control(operation, |book, control| {
                    learn::recalculate_leaves(book, &root, settings, &make, control)
                });
                let stopped = self.stop.load(Ordering::SeqCst);
                self.save_unless_stopped(operation, stopped)?;
                Ok((report.set, stopped, true))
            }
            Job::Deviate { root, settings, hash_level } => self.deviate(&root, &settings, hash_level),
            Job::DeviateTranscripts { lines, settings, hash_level } => {
                let file = self.file.clone().ok_or(Failure::NoFile)?;
                let make = self.searchers(hash_level)?;
                let before = self.positions();
                let mut autosave = Autosave { file: &file, failed: None };
                let report = self.with_control(operation, |book, control| {
                    let mut save = |book: &Book| autosave.save(book);
                    learn::deviate_transcripts(book, &lines, &settings, &make, &mut save, control)
                });
                let Ok(report) = report;
                autosave.result()?;
                let added = (self.positions().saturating_sub(before)) as u64;
                Ok((added.max(report.added), report.stopped, true))
            }
            Job::Store { start, moves, depth, level, hash_level } => {
                let weights = self.weights()?;
                let mut searcher = Self::searcher(&weights, hash_level).map_err(BookProblem::Search)?;
                let report = self.with_control(operation, |book, control| {
                    learn::store(book, &start, &moves, depth, level, &mut searcher, control)
                });
                let stopped = self.stop.load(Ordering::SeqCst);
                self.save_unless_stopped(operation, stopped)?;
                Ok((report.added + report.updated, stopped, true))
            }
        }
    }

    /// Makes the shipped book the book saved to `file` (the previous file, if any, is kept as `.bak`). When the
    /// shipped book cannot be read, says so and loads `file` as it is.
    fn install(&mut self, operation: Operation, file: PathBuf, shipped: &Path) -> JobResult {
        let loaded =
            self.with_progress(operation, |control| book::load_with(shipped, None, ReadOptions::default(), control));
        let book = match loaded {
            Ok((book, _)) => book,
            Err(BookError::Stopped { .. }) => return Ok((0, true, false)),
            // An installation without the default book (a package that leaves it out): the user's book as it is.
            Err(BookError::Read { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {
                tracing::info!("no default book at {}", shipped.display());
                return self.load(file);
            }
            Err(error) => {
                let _sent = self.emit(Event::Unreadable { file: shipped.to_path_buf(), error: error.into() });
                return self.load(file);
            }
        };
        let positions = book.len();
        *self.book.write() = book;
        self.take_file(file.clone());
        if self.file.is_none() {
            // Another run writes that file: the shipped book is in use, unsaved, and the app was told why.
            return Ok((positions as u64, false, true));
        }
        self.write_book(operation, false)?;
        let _sent = self.emit(Event::Installed { file, positions });
        Ok((positions as u64, false, true))
    }

    /// Loads `file`: missing is an empty book; a damaged file leaves the book empty and is never saved over, and so
    /// does a load that is stopped.
    fn load(&mut self, file: PathBuf) -> JobResult {
        *self.book.write() = Book::new();
        self.file = None;
        let loaded = self
            .with_progress(Operation::Load, |control| book::load_with(&file, None, ReadOptions::default(), control));
        match loaded {
            Ok((book, _)) => *self.book.write() = book,
            Err(BookError::Stopped { .. }) => return Ok((0, true, true)),
            Err(BookError::Read { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => {}
            Err(error) => {
                let _sent = self.emit(Event::Unreadable { file, error: error.into() });
                return Ok((0, false, true));
            }
        }
        self.take_file(file);
        Ok((self.positions() as u64, false, true))
    }

    /// Makes `file` the book's file, locked against other writers (`shirokuro-cli book deviate` and the like take the
    /// same lock). When another run holds it, the book is used read-only (changes are refused, so neither run drops
    /// the other's work) and the app is told.
    fn take_file(&mut self, file: PathBuf) {
        self.lock = None;
        // The lock file lives beside the book: at the first start its folder does not exist yet.
        if let Some(dir) = file.parent().filter(|dir| !dir.as_os_str().is_empty()) {
            let _made = std::fs::create_dir_all(dir);
        }
        match FileLock::try_lock(&file) {
            Ok(lock) => self.lock = Some(lock),
            Err(LockError::Held { holder, .. }) => {
                let _sent = self.emit(Event::Locked { file, holder });
                self.file = None;
                return;
            }
            // A file system without locks: the book is still the user's to change.
            Err(error) => tracing::warn!("the book file is not locked: {error}"),
        }
        self.file = Some(file);
    }

    /// Saves the book after `operation` (egbk3, atomically, keeping a `.bak`), reporting progress under it. A Stop
    /// during the save ends the operation at once, the file untouched; the save then runs again as a step of its own
    /// once the operation has ended (see [`Worker::save_after_stop`]), so the work is kept.
    fn save(&mut self, operation: Operation) -> Result<(), Failure> {
        match self.write_book(operation, true) {
            Err(Failure::Problem(BookProblem::File(error))) if matches!(*error, BookError::Stopped { .. }) => {
                self.save_pending = true;
                Ok(())
            }
            result => result,
        }
    }

    /// Saves after `operation`, or, when it was stopped, leaves the save to run as its own step once the stopped
    /// operation has ended (so that Stop gives control back at once; the save, which keeps the work, follows).
    fn save_unless_stopped(&mut self, operation: Operation, stopped: bool) -> Result<(), Failure> {
        if stopped {
            self.save_pending = true;
            Ok(())
        } else {
            self.save(operation)
        }
    }

    /// Writes the book to its file with progress under `operation`; only a `stoppable` write heeds Stop.
    fn write_book(&self, operation: Operation, stoppable: bool) -> Result<(), Failure> {
        let Some(file) = &self.file else { return Err(Failure::NoFile) };
        if let Some(dir) = file.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| BookProblem::Folder { path: dir.to_path_buf(), error: e.into() })?;
        }
        let never = AtomicBool::new(false);
        self.with_progress(operation, |control| {
            let control = Control { stop: if stoppable { control.stop } else { &never }, progress: control.progress };
            Ok(book::save_with(&self.book.wait_read(), file, BookFormat::Egbk3, &control)?)
        })
    }

    /// The weights searches use now: the patterns, with the network the app asks for (each read once).
    fn weights(&mut self) -> Result<Arc<Weights>, BookProblem> {
        let network = self.network.lock().map(|asked| asked.clone()).unwrap_or_default();
        let failed = |e| BookProblem::Weights(Shared::new(e));
        let cache = match &mut self.weights {
            Some(cache) => cache,
            None => self.weights.insert(WeightsCache::open(&self.weights_file).map_err(failed)?),
        };
        cache.get(network.as_deref()).map_err(failed)
    }

    /// A searcher with `weights` (and the Multi-ProbCut model fitted to them).
    fn searcher(weights: &Arc<Weights>, hash_level: u8) -> Result<ThinkerSearcher, SearchError> {
        let searcher = ThinkerSearcher::new(Arc::clone(weights), hash_level)?;
        Ok(match evaluation::mpc_model(weights) {
            Some(model) => searcher.with_mpc_model(&model),
            None => searcher,
        })
    }

    /// Runs `work` on the book with a [`Control`] whose progress goes to the app (at most 10 reports a second).
    fn with_control<R>(&mut self, operation: Operation, work: impl FnOnce(&mut Book, &Control<'_>) -> R) -> R {
        let shared = self.book.clone();
        self.with_progress(operation, |control| {
            let mut book = shared.write();
            work(&mut book, control)
        })
    }

    /// Runs `work` with a [`Control`] whose progress goes to the app (at most 10 reports a second) and which the app's
    /// Stop stops.
    fn with_progress<R>(&self, operation: Operation, work: impl FnOnce(&Control<'_>) -> R) -> R {
        let events = self.events.clone();
        let last = Mutex::new(Instant::now() - Duration::from_secs(1));
        let progress = move |p: Progress| {
            if let Ok(mut last) = last.lock()
                && last.elapsed() >= PROGRESS_EVERY
            {
                *last = Instant::now();
                let _sent = events.emit(Event::Progress { operation, done: p.done, total: p.total });
            }
        };
        let stop = Arc::clone(&self.stop);
        let control = Control { stop: &stop, progress: &progress };
        work(&control)
    }

    fn deviate(&mut self, root: &Board, settings: &DeviateSettings, hash_level: u8) -> JobResult {
        let file = self.file.clone().ok_or(Failure::NoFile)?;
        let make = self.searchers(hash_level)?;
        let before = self.positions();
        let mut autosave = Autosave { file: &file, failed: None };
        let report = self.with_control(Operation::Deviate, |book, control| {
            let mut save = |book: &Book| autosave.save(book);
            learn::deviate(book, root, settings, &make, &mut save, control)
        });
        let Ok(report) = report;
        autosave.result()?;
        let added = (self.positions().saturating_sub(before)) as u64;
        Ok((added.max(report.added), report.stopped, true))
    }

    /// A factory of AI searchers for worker threads (each with a table of 2^`hash_level` entries).
    fn searchers(&mut self, hash_level: u8) -> Result<impl Fn() -> Box<dyn Searcher> + Sync + use<>, BookProblem> {
        let weights = self.weights()?;
        // The options are the same for every searcher, so one made here proves they all can be.
        drop(Self::searcher(&weights, hash_level).map_err(BookProblem::Search)?);
        let stop = Arc::clone(&self.stop);
        let make = move || -> Box<dyn Searcher> {
            match Self::searcher(&weights, hash_level) {
                Ok(searcher) => Box::new(searcher),
                Err(error) => {
                    // Not expected after the check above; stop the run rather than learn from no search.
                    tracing::error!("book searcher: {error}");
                    stop.store(true, Ordering::SeqCst);
                    Box::new(NoSearch)
                }
            }
        };
        Ok(make)
    }
}

/// A searcher that finds nothing, used only when a real one cannot be created; the run is stopped at the same time.
struct NoSearch;

impl Searcher for NoSearch {
    fn search(&mut self, _board: &Board, _level: u8) -> (Option<Move>, i8) {
        (None, 0)
    }
}
