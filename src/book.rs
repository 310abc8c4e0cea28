//! The Book feature: the book worker's handle, the read-only snapshot the game plays from, the running operation with
//! its progress and Stop, and the Book menu's commands turned into worker jobs.
//!
//! The root routes [`Message`]s here and carries out the returned [`Action`] (file dialogs, notices, log lines, the
//! Book Info box, telling the game that the book changed).

pub mod info;
pub mod operation;
pub mod problem;
mod shared;
pub mod worker;

use std::path::PathBuf;
use std::time::Instant;

use iced::widget::{button, container, progress_bar, row, text};
use iced::{Alignment, Element, Length};
use shirokuro_engine::book::learn::{DeviateSettings, LeafSettings};
use shirokuro_engine::book::ops::{Info, Walk};
use shirokuro_engine::book::views::MoveView;
use shirokuro_engine::{Board, Move, Position};

pub use operation::{EXTRA_CALC_LEVEL, ExtraCalc, Job, Operation, Outcome};
pub use problem::BookProblem;
pub use shared::SharedBook;
pub use worker::{Event, Handle};

use crate::i18n::{Strings, fill};
use crate::notice::{Notice, TextProblem};
use crate::settings::{self, Settings};

/// The running operation and how far it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Running {
    /// The operation.
    pub operation: Operation,
    /// Units done.
    pub done: u64,
    /// Units in all (0 when unknown).
    pub total: u64,
    /// When it started.
    pub since: Instant,
}

/// Messages of the Book feature.
#[derive(Debug, Clone)]
pub enum Message {
    /// A Book menu item (the ones that need a file ask for it first).
    Run(Operation),
    /// Stop the running operation (it keeps and saves what it did).
    Stop,
    /// The file for `operation` was chosen.
    FileChosen(Operation, PathBuf),
    /// Book Deviate with Transcripts: the lines typed in its box.
    DeviateTranscripts(Vec<Vec<Move>>),
    /// The right-click editor: set (`Some`) or delete (`None`) the value of `mv` from `board`.
    Edit {
        /// The position.
        board: Board,
        /// The move.
        mv: Move,
        /// The value for the side to move.
        value: Option<i32>,
    },
    /// An event from the book worker.
    Worker(Event),
}

/// The book the worker loads when it starts: the user's book file, and the shipped book when that file is the
/// default book (the shipped book is installed there at the first start).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StartFiles {
    /// The user's book file.
    pub file: PathBuf,
    /// The shipped book, when the default book is in use.
    pub shipped: Option<PathBuf>,
    /// The network file the searches add to the pattern weights (Settings ▸ Evaluation).
    pub network: Option<PathBuf>,
}

/// What the root must do after an update.
#[derive(Debug, Clone)]
pub enum Action {
    /// Nothing.
    None,
    /// Ask the user for the file of `operation`.
    PickFile(Operation),
    /// Ask the user whether the default book may replace the book in use.
    ConfirmReset,
    /// The book snapshot changed: the game plans again (book moves and values may differ).
    Changed,
    /// An operation the user sees started (the root logs it).
    Started(Operation),
    /// An operation ended (the root logs it when it is not quiet).
    Finished {
        /// The operation.
        operation: Operation,
        /// How it ended.
        outcome: Outcome,
    },
    /// Tell the user.
    Notice(Notice),
    /// Open the Book Info box.
    ShowInfo(Box<Info>),
    /// The overlay data (accuracy, umigame counts) of a position arrived.
    Views {
        /// The position.
        position: Position,
        /// Its book moves.
        views: Vec<MoveView>,
    },
    /// Book Reference chose this file: it becomes the settings' book file (and is loading).
    Referenced(PathBuf),
}

/// What the Book feature reads of the game: the position shown and the line that leads there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shown {
    /// The position shown.
    pub position: Position,
    /// The moves from the initial position to it.
    pub line: Vec<Move>,
}

/// The Book feature's state.
#[derive(Debug, Default)]
pub struct Books {
    worker: Option<Handle>,
    snapshot: Option<SharedBook>,
    running: Option<Running>,
    /// The position whose overlay data was last asked for.
    views_asked: Option<(Position, shirokuro_engine::book::views::UmigameSettings)>,
}

impl Books {
    /// The book snapshot loaded (whether or not it is in use).
    #[must_use]
    pub fn snapshot(&self) -> Option<&SharedBook> {
        self.snapshot.as_ref()
    }

    /// The running operation and its progress, if any.
    #[must_use]
    pub fn running(&self) -> Option<Running> {
        self.running
    }

    /// Stops the running operation, if any.
    pub fn stop(&self) {
        if let Some(worker) = &self.worker {
            worker.stop();
        }
    }

    fn send(&self, job: Job) {
        if let Some(worker) = &self.worker {
            worker.send(job);
        }
    }

    /// Settings ▸ Evaluation changed: the searches of the operations started from now on add `network`.
    pub fn use_network(&self, network: Option<PathBuf>) {
        if let Some(worker) = &self.worker {
            worker.use_network(network);
        }
    }

    /// Loads `file` as the book (a missing file is an empty book).
    pub fn load(&self, file: PathBuf) {
        self.send(Job::Load { file });
    }

    /// Stops the running operation and asks the worker to end its queue (the save of a stopped change included): its
    /// `Finished` for [`Operation::Flush`] says that the book is safe on disk.
    /// `false` when there is no worker (nothing to wait for).
    pub fn flush(&self) -> bool {
        self.stop();
        self.send(Job::Flush);
        self.worker.is_some()
    }

    /// Reset to the Default Book (once the user has agreed): `shipped` replaces the book and is saved as `file`.
    pub fn reset_to_default(&self, file: PathBuf, shipped: PathBuf) {
        self.send(Job::Install { file, shipped, only_if_missing: false });
    }

    /// Handles a message; `start` names the book loaded when the worker starts.
    pub fn update(&mut self, message: Message, settings: &Settings, shown: &Shown, start: StartFiles) -> Action {
        match message {
            Message::Run(operation) => self.run(operation, settings, shown),
            Message::Stop => {
                self.stop();
                Action::None
            }
            Message::FileChosen(operation, path) => self.file_chosen(operation, path, settings),
            Message::DeviateTranscripts(lines) => {
                let job = Job::DeviateTranscripts {
                    lines,
                    settings: deviate_settings(settings),
                    hash_level: book_hash_level(settings),
                };
                self.send(job);
                Action::None
            }
            Message::Edit { board, mv, value } => {
                self.send(Job::Edit { board, mv, value });
                Action::None
            }
            Message::Worker(event) => self.worker_event(event, start),
        }
    }

    fn run(&mut self, operation: Operation, settings: &Settings, shown: &Shown) -> Action {
        if operation.needs_file() {
            return Action::PickFile(operation);
        }
        let root = shown.position.board;
        let hash_level = book_hash_level(settings);
        let job = match operation {
            Operation::Info => Job::Info,
            Operation::Fix => Job::Fix { edax_like: false },
            Operation::FixEdax => Job::Fix { edax_like: true },
            Operation::Lines => Job::Lines,
            Operation::Reduce => Job::Reduce { root, walk: book_walk(settings) },
            Operation::Leaves => {
                let settings = LeafSettings {
                    walk: book_walk(settings),
                    level: settings.level,
                    only_invalid: false,
                    threads: usize::from(settings.threads),
                };
                Job::Leaves { root, settings, hash_level }
            }
            Operation::Deviate => Job::Deviate { root, settings: deviate_settings(settings), hash_level },
            Operation::Store => Job::Store {
                start: Position::INITIAL.board,
                moves: shown.line.clone(),
                depth: settings.book.depth,
                level: settings.level,
                hash_level,
            },
            // The root asks first.
            Operation::ResetDefault => return Action::ConfirmReset,
            // Asked through their own boxes or files, or internal.
            Operation::Load
            | Operation::Import
            | Operation::Export
            | Operation::ExportLevel
            | Operation::ExportEdax
            | Operation::Merge
            | Operation::Reference
            | Operation::Edit
            | Operation::Views
            | Operation::Flush
            | Operation::Save
            | Operation::DeviateTranscripts => return Action::None,
        };
        self.send(job);
        Action::None
    }

    fn file_chosen(&mut self, operation: Operation, path: PathBuf, settings: &Settings) -> Action {
        let level = settings.level;
        let job = match operation {
            Operation::Import => Job::Import { from: path, level },
            Operation::Export => Job::Export { to: path, level: None, extra: None },
            Operation::ExportLevel => Job::Export { to: path, level: Some(level), extra: None },
            Operation::ExportEdax => {
                let extra = ExtraCalc {
                    leaf_level: EXTRA_CALC_LEVEL,
                    hash_level: book_hash_level(settings),
                    threads: usize::from(settings.threads),
                };
                Job::Export { to: path, level: None, extra: Some(extra) }
            }
            Operation::Merge => Job::Merge { from: path },
            Operation::Reference => {
                self.load(path.clone());
                return Action::Referenced(path);
            }
            _ => return Action::None,
        };
        self.send(job);
        Action::None
    }

    fn worker_event(&mut self, event: Event, start: StartFiles) -> Action {
        match event {
            Event::Ready(handle) => {
                handle.use_network(start.network);
                handle.send(match start.shipped {
                    // The default book in use: installed from the shipped one at the first start.
                    Some(shipped) => Job::Install { file: start.file, shipped, only_if_missing: true },
                    None => Job::Load { file: start.file },
                });
                self.worker = Some(handle);
                Action::None
            }
            Event::Started(operation) => {
                if operation.is_quiet() {
                    return Action::None;
                }
                self.running = Some(Running { operation, done: 0, total: 0, since: Instant::now() });
                Action::Started(operation)
            }
            Event::Progress { operation, done, total } => {
                if let Some(running) = &mut self.running
                    && running.operation == operation
                {
                    (running.done, running.total) = (done, total);
                }
                Action::None
            }
            Event::Book(book) => {
                self.snapshot = Some(book);
                self.views_asked = None;
                Action::Changed
            }
            Event::Unreadable { file, error } => Action::Notice(Notice::BookUnreadable { file, error }),
            Event::Installed { file, positions } => Action::Notice(Notice::DefaultBookInstalled { file, positions }),
            Event::Locked { file, holder } => Action::Notice(Notice::BookLocked { file, holder }),
            Event::Info(info) => Action::ShowInfo(info),
            Event::Views { position, views } => Action::Views { position, views },
            Event::Finished { operation, outcome } => {
                if !operation.is_quiet() {
                    self.running = None;
                }
                Action::Finished { operation, outcome }
            }
        }
    }

    /// Asks the worker for the overlay data of `position` when an overlay is on and the position changed.
    pub fn ask_for_views(&mut self, settings: &Settings, position: Position) {
        let display = &settings.display;
        let wanted =
            (display.show_book_accuracy || display.show_umigame) && settings.use_book && self.snapshot.is_some();
        let umigame = display.umigame();
        if !wanted || self.views_asked == Some((position, umigame)) {
            return;
        }
        if let Some(worker) = &self.worker {
            worker.send(Job::Views { position, umigame });
            self.views_asked = Some((position, umigame));
        }
    }

    /// The progress line of the running operation: its name, a bar that moves, the counts and Stop.
    #[must_use]
    pub fn progress_view<'a>(&self, s: &Strings) -> Option<Element<'a, Message>> {
        let running = self.running?;
        let name = running.operation.name(s);
        let seconds = running.since.elapsed().as_secs();
        let (label, fraction) = if running.total > 0 {
            let fraction = running.done as f32 / running.total as f32;
            (fill(&s.book_progress, &[&name, &running.done, &running.total]), fraction)
        } else {
            // No total known: the bar sweeps so that it still shows that work goes on.
            let phase = (running.since.elapsed().as_millis() % 2000) as f32 / 2000.0;
            (fill(&s.book_progress_open, &[&name, &running.done]), phase)
        };
        let line = row![
            text(label).size(13).width(Length::FillPortion(3)),
            text(format!("{seconds} s")).size(13),
            progress_bar(0.0..=1.0, fraction.clamp(0.0, 1.0)).length(Length::FillPortion(2)).girth(10),
            container(button(text(s.book_stop.clone()).size(13)).on_press(Message::Stop)).id("book-stop"),
        ]
        .spacing(10)
        .align_y(Alignment::Center);
        Some(container(line).id("book-progress").width(Length::Fill).into())
    }
}

/// The walk limits of the Book Settings (depth, error per move, accumulated error).
fn book_walk(settings: &Settings) -> Walk {
    let b = settings.book;
    Walk {
        depth: b.depth,
        error_per_move: settings::BookSettings::per_move_limit(b.error_per_move),
        error_sum: settings::BookSettings::sum_limit(b.error_sum),
    }
}

/// Table size of each book searcher: the game's, at most 2^20 (one table per worker thread).
fn book_hash_level(settings: &Settings) -> u8 {
    settings.hash_level.min(20)
}

/// Book Deviate's settings from the Book Settings, the level and the threads.
fn deviate_settings(settings: &Settings) -> DeviateSettings {
    let b = &settings.book;
    DeviateSettings {
        level: settings.level,
        depth: b.depth,
        error_per_move: settings::BookSettings::per_move_limit(b.error_per_move),
        error_sum: settings::BookSettings::sum_limit(b.error_sum),
        error_leaf: settings::BookSettings::per_move_limit(b.error_leaf),
        max_loops: usize::MAX,
        threads: usize::from(settings.threads),
        // Egaroucid autosaves hourly; the end of the run (or a stop) always saves.
        save_every: std::time::Duration::from_secs(3600),
        shard: shirokuro_engine::book::import::Shard::ALL,
    }
}

/// The transcripts of Book Deviate with Transcripts: one per non-empty line, each from the initial position.
///
/// # Errors
/// The first bad line's number and what is wrong with it, or that there is no transcript at all.
pub fn parse_transcript_lines(text: &str) -> Result<Vec<Vec<Move>>, TextProblem> {
    let mut lines = Vec::new();
    for (number, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let transcript = shirokuro_engine::notation::parse_transcript(line.trim())
            .map_err(|error| TextProblem::Line { line: number + 1, error })?;
        lines.push(transcript.moves);
    }
    if lines.is_empty() {
        return Err(TextProblem::NoTranscript);
    }
    Ok(lines)
}
