//! The explorer's file work as plain data: a lookup of one position, the reading of one game and an import, each
//! run off the UI thread. Tests run them by hand ([`LookupJob::run`], [`GameJob::run`], [`ImportJob::run`]) and hand
//! the answer back as a message, as the app does when they finish.
//!
//! Why a short-lived thread per request rather than a worker thread that keeps the archive open: the `Archive` (an
//! SQLite connection) is `Send` but not `Sync`, so it may live on one thread only, and every request here is short
//! and rare: one lookup per position shown (0.3 ms warm, docs/archive.md), one game read per click. Opening the
//! archive is a file open and a header check (not timed apart), and the system's page cache keeps the file warm
//! between opens, so there is little to keep. One lookup at a time is in flight (the newest wanted position follows
//! when it answers), so requests never overlap; an import, which runs for seconds, gets its own thread and
//! connection, and lookups wait until it ends, so readers and the writer never meet. And a job that is plain data
//! can be run by a test without timing.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use iced::futures::channel::mpsc::{UnboundedReceiver, unbounded};
use iced::futures::{Stream, StreamExt, stream};
use shirokuro_engine::Position;
use shirokuro_engine::archive::{
    Archive, ArchiveError, ArchivedGame, Filter, GameId, ImportProgress, ImportReport, ImportStage, Lookup,
};

use crate::failure::Shared;

/// The games a lookup lists, newest first.
pub const GAME_LIMIT: usize = 50;

/// Progress reports of an import, at most this often (the last stage always).
const PROGRESS_EVERY: Duration = Duration::from_millis(100);

/// A failure of the archive, shared so that messages carrying it can be cloned.
pub type Failure = Shared<ArchiveError>;

/// What a lookup found.
#[derive(Debug, Clone)]
pub enum Found {
    /// There is no archive file yet (the first start): the panel offers the import.
    NoArchive,
    /// The moves and games of the position.
    Games(Lookup),
    /// The archive could not be read.
    Failed(Failure),
}

/// The answer to a [`LookupJob`].
#[derive(Debug, Clone)]
pub struct Answer {
    /// The job's id (answers to older jobs are dropped).
    pub id: u64,
    /// What was found.
    pub found: Found,
}

/// A lookup of one position in the archive file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LookupJob {
    /// Its id: one more for each position or filter asked about.
    pub id: u64,
    /// The archive file.
    pub file: PathBuf,
    /// The position.
    pub position: Position,
    /// Which games count.
    pub filter: Filter,
}

impl LookupJob {
    /// Does the lookup (blocking: call it off the UI thread).
    #[must_use]
    pub fn run(self) -> Answer {
        let found = if self.file.exists() {
            match Archive::open(&self.file).and_then(|a| a.lookup(&self.position, &self.filter, GAME_LIMIT)) {
                Ok(lookup) => Found::Games(lookup),
                Err(error) => Found::Failed(Shared::new(error)),
            }
        } else {
            Found::NoArchive
        };
        Answer { id: self.id, found }
    }

    /// The lookup on a thread of its own.
    pub async fn answer(self) -> Answer {
        let (id, file) = (self.id, self.file.clone());
        crate::worker::off_thread("archive", move || self.run())
            .await
            .unwrap_or_else(|error| Answer { id, found: Found::Failed(thread_failed(file, error)) })
    }
}

/// The reading of one game, to load it at the position it was picked from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameJob {
    /// The archive file.
    pub file: PathBuf,
    /// The game.
    pub id: GameId,
    /// The position the game was picked at (it is loaded with the cursor there).
    pub at: Position,
}

/// A game read from the archive.
#[derive(Debug, Clone)]
pub struct GameRead {
    /// The position the game was picked at.
    pub at: Position,
    /// The game (`None` if the archive no longer has it).
    pub game: Result<Option<ArchivedGame>, Failure>,
}

impl GameJob {
    /// Reads the game (blocking: call it off the UI thread).
    #[must_use]
    pub fn run(self) -> GameRead {
        let game = Archive::open(&self.file).and_then(|a| a.game(self.id)).map_err(Shared::new);
        GameRead { at: self.at, game }
    }

    /// The reading on a thread of its own.
    pub async fn read(self) -> GameRead {
        let (at, file) = (self.at, self.file.clone());
        crate::worker::off_thread("archive", move || self.run())
            .await
            .unwrap_or_else(|error| GameRead { at, game: Err(thread_failed(file, error)) })
    }
}

/// What an import reports.
#[derive(Debug, Clone)]
pub enum ImportEvent {
    /// Where it is.
    Progress(ImportProgress),
    /// It ended: what it did, or why nothing of it was kept.
    Done(Result<ImportReport, Failure>),
}

/// An import of game files into the archive file (created when missing).
#[derive(Debug, Clone)]
pub struct ImportJob {
    /// The archive file.
    pub file: PathBuf,
    /// The files chosen.
    pub chosen: Vec<PathBuf>,
    /// Raised to stop the import (nothing of it is then kept).
    pub stop: Arc<AtomicBool>,
}

impl ImportJob {
    /// An import of `chosen` into `file`.
    #[must_use]
    pub fn new(file: PathBuf, chosen: Vec<PathBuf>) -> ImportJob {
        ImportJob { file, chosen, stop: Arc::new(AtomicBool::new(false)) }
    }

    /// Imports (blocking: call it off the UI thread). A chosen WTHOR `.wtb` file brings every `.wtb` file of its
    /// folder (the FFO publishes one file a year). An archive the import created is removed again when the import
    /// fails or is stopped, so a failed first import leaves no empty archive behind.
    ///
    /// # Errors
    /// The archive's error; [`ArchiveError::Stopped`] when stopped. The archive is then as it was.
    pub fn run(self, progress: impl FnMut(ImportProgress)) -> Result<ImportReport, Failure> {
        let files = with_wthor_neighbours(&self.chosen);
        let created = !self.file.exists();
        if let Some(folder) = self.file.parent() {
            let _ = std::fs::create_dir_all(folder);
        }
        let result =
            Archive::open_or_create(&self.file).and_then(|mut archive| archive.import(&files, progress, &self.stop));
        if result.is_err() && created {
            for path in [self.file.clone(), journal(&self.file)] {
                let _ = std::fs::remove_file(path);
            }
        }
        result.map_err(Shared::new)
    }

    /// The import on a thread of its own, started when the stream is first polled: progress (at most ten a second),
    /// then the end.
    pub fn events(self) -> impl Stream<Item = ImportEvent> + Send + 'static {
        stream::once(async move { self.start() }).flatten()
    }

    fn start(self) -> UnboundedReceiver<ImportEvent> {
        let (events, receiver) = unbounded();
        let file = self.file.clone();
        let outbox = events.clone();
        let spawned = std::thread::Builder::new().name("archive-import".to_owned()).spawn(move || {
            let mut last: Option<Instant> = None;
            let result = self.run(|progress| {
                let due = last.is_none_or(|at| at.elapsed() >= PROGRESS_EVERY);
                if due || progress.stage == ImportStage::Committing {
                    last = Some(Instant::now());
                    let _ = outbox.unbounded_send(ImportEvent::Progress(progress));
                }
            });
            let _ = outbox.unbounded_send(ImportEvent::Done(result));
        });
        if let Err(error) = spawned {
            let _ = events.unbounded_send(ImportEvent::Done(Err(thread_failed(file, error))));
        }
        receiver
    }
}

/// The files to import: those chosen, with every `.wtb` file of the folder of a chosen `.wtb` file (in name order,
/// each once).
#[must_use]
pub fn with_wthor_neighbours(chosen: &[PathBuf]) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for path in chosen {
        let folder = path.parent().filter(|_| is_wtb(path));
        let mut group: Vec<PathBuf> = match folder.map(std::fs::read_dir) {
            Some(Ok(entries)) => entries.flatten().map(|e| e.path()).filter(|p| is_wtb(p) && p.is_file()).collect(),
            _ => vec![path.clone()],
        };
        group.sort();
        for file in group {
            if !files.contains(&file) {
                files.push(file);
            }
        }
    }
    files
}

fn is_wtb(path: &Path) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case("wtb"))
}

/// SQLite's rollback journal of `file`.
fn journal(file: &Path) -> PathBuf {
    let mut name = file.as_os_str().to_owned();
    name.push("-journal");
    PathBuf::from(name)
}

fn thread_failed(file: PathBuf, error: io::Error) -> Failure {
    Shared::new(ArchiveError::Read { path: file, source: error })
}
