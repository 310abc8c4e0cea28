//! The Archive Explorer (issue #30 item 3): a panel, toggled from the Display menu, that shows for the position on
//! the board what the game archive (`<data folder>/archive.sqlite`, [`shirokuro_engine::archive`]) holds: each move
//! played from it with its number of games, Black's win/draw/loss share and mean final score, the book's or the
//! hints' value of the move beside it, and the newest games through it. A click on a move plays it; a click on a
//! game loads it with the cursor at this position. Filters: years and a player's name. There is no rating filter:
//! WTHOR, the main source, records no ratings.
//!
//! The archive is not shipped (docs/archive.md: the data terms do not allow it), so without one the panel offers
//! the import; In/Out has the same item. An import runs on its own thread with progress and Stop, and is all or
//! nothing. Lookups, game reads and the import are [`job`]s run off the UI thread; the module doc of [`job`] says why
//! each runs on a short-lived thread of its own rather than on a worker that keeps the archive open.

pub mod job;
pub mod load;
mod view;

use std::path::PathBuf;
use std::sync::atomic::Ordering;

use iced::Task;
use shirokuro_engine::archive::{Filter, GameId, ImportProgress};
use shirokuro_engine::{Move, Position};

pub use job::{Answer, Found, GameJob, GameRead, ImportEvent, ImportJob, LookupJob};
pub use load::Aligned;

use crate::failure::Shared;
use crate::notice::Notice;

/// The archive's file name in the data folder.
pub const ARCHIVE_FILE: &str = "archive.sqlite";

/// The extensions the import's file dialog offers (without the dot): WTHOR, GGF and text records.
pub const EXTENSIONS: &[&str] = &["wtb", "ggf", "txt", "csv"];

/// Messages of the explorer.
#[derive(Debug, Clone)]
pub enum Message {
    /// The first year of the year filter was edited.
    YearFrom(String),
    /// The last year of the year filter was edited.
    YearTo(String),
    /// The player filter was edited.
    Player(String),
    /// A move of the table was clicked: play it.
    MovePicked(Move),
    /// A game of the list was clicked: load it at this position.
    GamePicked(GameId),
    /// A lookup answered.
    Looked(Answer),
    /// A game was read.
    GameRead(GameRead),
    /// "Import games into the archive…": choose the files.
    Import,
    /// The files to import were chosen.
    FilesChosen(Vec<PathBuf>),
    /// Stop the running import.
    Stop,
    /// The running import reported.
    Importing(ImportEvent),
}

/// What the root must do for the explorer.
#[derive(Debug)]
pub enum Action {
    /// Nothing.
    None,
    /// Run this task.
    Run(Task<Message>),
    /// Play this move on the board.
    Play(Move),
    /// Load this game, with the cursor at its ply.
    Load(Aligned),
    /// Ask for the files to import.
    PickFiles,
    /// Tell the user.
    Notice(Notice),
}

/// The value of a move from the position shown, for the side to move: the book's, else the hints'.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Value {
    /// The move.
    pub mv: Move,
    /// Its value in discs.
    pub value: i32,
}

/// The position and filter a lookup is wanted for.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Wanted {
    id: u64,
    position: Position,
    filter: Filter,
}

/// An import under way.
#[derive(Debug)]
struct Importing {
    job: ImportJob,
    progress: Option<ImportProgress>,
}

/// The explorer's state.
#[derive(Debug)]
pub struct Explorer {
    file: PathBuf,
    year_from: String,
    year_to: String,
    player: String,
    /// The newest position and filter asked about.
    wanted: Option<Wanted>,
    /// The lookup asked and not answered yet (one at a time).
    in_flight: Option<LookupJob>,
    /// The last answer, with the id of the lookup it answers.
    shown: Option<Answer>,
    /// The game being read.
    reading: Option<GameJob>,
    /// Why the last game could not be read.
    read_failed: Option<job::Failure>,
    importing: Option<Importing>,
}

impl Explorer {
    /// The explorer of the archive in `data_dir`.
    #[must_use]
    pub fn new(data_dir: &std::path::Path) -> Explorer {
        Explorer {
            file: data_dir.join(ARCHIVE_FILE),
            year_from: String::new(),
            year_to: String::new(),
            player: String::new(),
            wanted: None,
            in_flight: None,
            shown: None,
            reading: None,
            read_failed: None,
            importing: None,
        }
    }

    /// The archive file.
    #[must_use]
    pub fn file(&self) -> &std::path::Path {
        &self.file
    }

    /// The lookup in flight, if any (tests run it by hand).
    #[must_use]
    pub fn lookup_in_flight(&self) -> Option<&LookupJob> {
        self.in_flight.as_ref()
    }

    /// The game being read, if any (tests run it by hand).
    #[must_use]
    pub fn game_in_flight(&self) -> Option<&GameJob> {
        self.reading.as_ref()
    }

    /// The import under way, if any (tests run it by hand).
    #[must_use]
    pub fn import_running(&self) -> Option<&ImportJob> {
        self.importing.as_ref().map(|importing| &importing.job)
    }

    /// What the panel shows for the newest position asked about: `None` while its lookup runs.
    #[must_use]
    pub fn found(&self) -> Option<&Found> {
        match (&self.shown, &self.wanted) {
            (Some(answer), Some(wanted)) if answer.id == wanted.id => Some(&answer.found),
            _ => None,
        }
    }

    /// The filter of the inputs: a year that is not a number is left out.
    #[must_use]
    pub fn filter(&self) -> Filter {
        let year = |text: &str| text.trim().parse::<u16>().ok();
        let years = match (year(&self.year_from), year(&self.year_to)) {
            (None, None) => None,
            (from, to) => Some((from.unwrap_or(0), to.unwrap_or(u16::MAX))),
        };
        let player = Some(self.player.trim().to_owned()).filter(|p| !p.is_empty());
        Filter { years, player, min_games: 0 }
    }

    /// Follows the board: when the panel is shown and the position or the filter changed, a lookup of the new one
    /// (after the one in flight, if any, answers). Nothing while an import runs.
    pub fn follow(&mut self, position: Position, shown: bool) -> Task<Message> {
        if !shown || self.importing.is_some() {
            return Task::none();
        }
        let filter = self.filter();
        if self.wanted.as_ref().is_some_and(|w| w.position == position && w.filter == filter) {
            return Task::none();
        }
        let id = self.wanted.as_ref().map_or(1, |w| w.id + 1);
        self.wanted = Some(Wanted { id, position, filter });
        self.ask()
    }

    /// Starts the lookup wanted, unless one is in flight or it is answered already.
    fn ask(&mut self) -> Task<Message> {
        let Some(wanted) = &self.wanted else { return Task::none() };
        if self.in_flight.is_some() || self.importing.is_some() || self.found().is_some() {
            return Task::none();
        }
        let job = LookupJob {
            id: wanted.id,
            file: self.file.clone(),
            position: wanted.position,
            filter: wanted.filter.clone(),
        };
        self.in_flight = Some(job.clone());
        Task::perform(job.answer(), Message::Looked)
    }

    /// Handles a message.
    pub fn update(&mut self, message: Message) -> Action {
        match message {
            Message::YearFrom(text) => self.year_from = text,
            Message::YearTo(text) => self.year_to = text,
            Message::Player(text) => self.player = text,
            Message::MovePicked(mv) => return Action::Play(mv),
            Message::GamePicked(id) => return self.read_game(id),
            Message::Looked(answer) => {
                self.in_flight = None;
                self.shown = Some(answer);
                return Action::Run(self.ask());
            }
            Message::GameRead(read) => {
                self.reading = None;
                match read.game {
                    Ok(Some(game)) => return load::aligned(&game, &read.at).map_or(Action::None, Action::Load),
                    Ok(None) => {}
                    Err(error) => self.read_failed = Some(error),
                }
            }
            Message::Import if self.importing.is_none() => return Action::PickFiles,
            Message::Import => {}
            Message::FilesChosen(files) => return self.start_import(files),
            Message::Stop => {
                if let Some(importing) = &self.importing {
                    importing.job.stop.store(true, Ordering::Relaxed);
                }
            }
            Message::Importing(ImportEvent::Progress(progress)) => {
                if let Some(importing) = &mut self.importing {
                    importing.progress = Some(progress);
                }
            }
            Message::Importing(ImportEvent::Done(result)) => return self.imported(result),
        }
        Action::None
    }

    fn read_game(&mut self, id: GameId) -> Action {
        let Some(wanted) = &self.wanted else { return Action::None };
        if self.reading.is_some() {
            return Action::None;
        }
        let job = GameJob { file: self.file.clone(), id, at: wanted.position };
        self.reading = Some(job.clone());
        self.read_failed = None;
        Action::Run(Task::perform(job.read(), Message::GameRead))
    }

    fn start_import(&mut self, files: Vec<PathBuf>) -> Action {
        if self.importing.is_some() || files.is_empty() {
            return Action::None;
        }
        let job = ImportJob::new(self.file.clone(), files);
        self.importing = Some(Importing { job: job.clone(), progress: None });
        Action::Run(Task::run(job.events(), Message::Importing))
    }

    fn imported(&mut self, result: Result<shirokuro_engine::archive::ImportReport, job::Failure>) -> Action {
        self.importing = None;
        // The archive changed (or was made): ask again.
        self.wanted = None;
        self.shown = None;
        Action::Notice(match result {
            Ok(report) => {
                Notice::ArchiveImported { added: report.added, duplicates: report.duplicates, skipped: report.skipped }
            }
            Err(error) => Notice::ArchiveImportFailed { error: Shared::clone(&error) },
        })
    }
}
