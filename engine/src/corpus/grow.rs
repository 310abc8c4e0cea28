//! Growing a corpus: batches played one after another on a pool of threads, each game appended as it finishes, until
//! the batches asked for are done, the time is up, or the caller says stop. Stopped at any moment, it continues where
//! it stopped the next time it is run on the same folder.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use rayon::prelude::*;

use super::error::{CorpusError, FileStep};
use super::format::{GameRecord, Header, Series};
use super::part::{Opened, Part};
use super::store::{Corpus, check_series};
use crate::eval::Weights;
use crate::tools::arena::{ArenaError, SelfPlayGame, SelfPlayOptions, play_selfplay_game};

/// How [`grow`] plays.
#[derive(Debug, Clone)]
pub struct GrowOptions {
    weights: Arc<Weights>,
    series: Series,
    command: String,
    threads: usize,
    hash_level: u8,
    batches: Option<u32>,
    deadline: Option<Instant>,
    first_batch: u32,
}

impl GrowOptions {
    /// Batches of `series`, played with `weights` (which must be the evaluation `series.eval` names), recording
    /// `command` in each new batch's header; on all cores, search tables of 2^18 entries, until stopped.
    #[must_use]
    pub fn new(weights: Arc<Weights>, series: Series, command: String) -> GrowOptions {
        let threads = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        GrowOptions { weights, series, command, threads, hash_level: 18, batches: None, deadline: None, first_batch: 0 }
    }

    /// Games played at once (each game's searches are single-threaded); at least 1.
    #[must_use]
    pub fn threads(mut self, threads: usize) -> GrowOptions {
        self.threads = threads.max(1);
        self
    }

    /// Each game's search tables have 2^`level` entries.
    #[must_use]
    pub fn hash_level(mut self, level: u8) -> GrowOptions {
        self.hash_level = level;
        self
    }

    /// Stop after finishing `batches` batches (a batch an earlier run began counts as one).
    #[must_use]
    pub fn batches(mut self, batches: u32) -> GrowOptions {
        self.batches = Some(batches);
        self
    }

    /// Start no game after `deadline` (the games under way are finished and kept).
    #[must_use]
    pub fn until(mut self, deadline: Instant) -> GrowOptions {
        self.deadline = Some(deadline);
        self
    }

    /// Play only batches numbered `batch` or above: a new batch takes the lowest free number from there, and
    /// unfinished batches below it are left as they are. Two machines can then grow one series apart (each batch's
    /// seed is the series' base seed plus its number) and their batch files be put together in one folder.
    #[must_use]
    pub fn first_batch(mut self, batch: u32) -> GrowOptions {
        self.first_batch = batch;
        self
    }

    /// The series played.
    #[must_use]
    pub fn series(&self) -> &Series {
        &self.series
    }

    fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|deadline| Instant::now() >= deadline)
    }
}

/// What [`grow`] is doing, for progress reports.
#[derive(Debug)]
pub enum GrowEvent {
    /// A batch's file was opened (new, or resumed from an earlier run).
    Batch {
        /// The batch.
        batch: u32,
        /// What was found.
        opened: Opened,
    },
    /// A game was added to the batch.
    Game {
        /// The batch.
        batch: u32,
        /// Games now in it.
        done: usize,
        /// Its size.
        of: u32,
    },
    /// A batch was finished and written compressed.
    Finished {
        /// The batch.
        batch: u32,
        /// Its file.
        path: PathBuf,
    },
    /// A batch being played had been finished already (a run stopped between writing it and removing its
    /// uncompressed file); that file was removed.
    StaleRemoved {
        /// Its path.
        path: PathBuf,
    },
}

/// What [`grow`] did.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GrowReport {
    /// The batches it finished.
    pub finished: Vec<u32>,
    /// Games it played (and kept).
    pub games: usize,
    /// Whether it ended because of the stop flag or the deadline (rather than the number of batches).
    pub stopped: bool,
}

/// Plays the corpus in `dir` on (created if missing): the batch an earlier run left unfinished first, then new ones,
/// until `options`' number of batches is finished, its deadline passes or `stop` is raised. The games under way when
/// it stops are finished and kept; the batch file is synced before it returns.
///
/// # Errors
/// A file that cannot be read or written, a damaged batch file, a folder holding another series than
/// `options.series` ([`CorpusError::Mismatch`]), or a game that cannot be played. The games kept before the error
/// stay on disk.
pub fn grow(
    dir: &Path,
    options: &GrowOptions,
    on_event: &mut dyn FnMut(GrowEvent),
    stop: &AtomicBool,
) -> Result<GrowReport, CorpusError> {
    let corpus = Corpus::open_or_create(dir)?;
    if let Some((series, path)) = corpus.series()? {
        check_series(&path, &series, &options.series)?;
    }
    let mut finished: BTreeSet<u32> = corpus.finished().into_iter().map(|file| file.batch).collect();
    let mut parts: BTreeSet<u32> = BTreeSet::new();
    for part in corpus.parts() {
        if part.batch < options.first_batch {
            continue;
        }
        if finished.contains(&part.batch) {
            std::fs::remove_file(&part.path).map_err(CorpusError::io(&part.path, FileStep::Remove))?;
            on_event(GrowEvent::StaleRemoved { path: part.path });
        } else {
            let _new = parts.insert(part.batch);
        }
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads)
        .build()
        .map_err(|error| CorpusError::Threads(error.to_string()))?;
    let mut report = GrowReport::default();
    loop {
        if options.batches.is_some_and(|n| report.finished.len() >= n as usize) {
            break;
        }
        if stop.load(Ordering::SeqCst) || options.out_of_time() {
            report.stopped = true;
            break;
        }
        let batch = match parts.pop_first() {
            Some(batch) => batch,
            None => (options.first_batch..=u32::MAX).find(|b| !finished.contains(b)).ok_or(CorpusError::Full)?,
        };
        let header = Header {
            series: options.series.clone(),
            batch,
            engine: format!("shirokuro-engine {}", env!("CARGO_PKG_VERSION")),
            started: chrono::Utc::now().format("%Y-%m-%dT%H:%M:%SZ").to_string(),
            command: options.command.clone(),
        };
        let (mut part, opened) = Part::open(&corpus.part_path(batch), header)?;
        on_event(GrowEvent::Batch { batch, opened });
        let played = play_batch(&pool, &mut part, options, on_event, stop);
        report.games = report.games.saturating_add(played.games);
        part.sync()?;
        if let Some(error) = played.error {
            return Err(error);
        }
        if !part.is_complete() {
            report.stopped = true;
            break;
        }
        let path = corpus.finished_path(batch);
        part.finish(&path)?;
        let _new = finished.insert(batch);
        report.finished.push(batch);
        on_event(GrowEvent::Finished { batch, path });
    }
    Ok(report)
}

/// What [`play_batch`] did.
struct Played {
    games: usize,
    error: Option<CorpusError>,
}

/// Plays the batch's missing games on `pool`, appending each as it finishes; starts no game once `stop` is raised,
/// the deadline has passed or a game could not be kept.
fn play_batch(
    pool: &rayon::ThreadPool,
    part: &mut Part,
    options: &GrowOptions,
    on_event: &mut dyn FnMut(GrowEvent),
    stop: &AtomicBool,
) -> Played {
    let header = part.header().clone();
    let (min, max) = header.series.random_moves;
    let selfplay = SelfPlayOptions {
        weights: Arc::clone(&options.weights),
        level: header.series.level,
        plan: None,
        min_random_moves: usize::from(min),
        max_random_moves: usize::from(max),
        seed: header.seed(),
        hash_level: options.hash_level,
    };
    let missing = part.missing();
    let halt = AtomicBool::new(false);
    let (sender, receiver) = mpsc::channel::<(u32, Result<SelfPlayGame, ArenaError>)>();
    let mut played = Played { games: 0, error: None };
    std::thread::scope(|scope| {
        let (missing, halt, selfplay) = (&missing, &halt, &selfplay);
        let _workers = scope.spawn(move || {
            pool.install(|| {
                missing.par_iter().for_each_with(sender, |sender, &index| {
                    if stop.load(Ordering::SeqCst) || halt.load(Ordering::SeqCst) || options.out_of_time() {
                        return;
                    }
                    let game = play_selfplay_game(u64::from(index), selfplay);
                    // The receiver lives until every sender is dropped.
                    let _sent = sender.send((index, game));
                });
            });
        });
        for (index, game) in receiver {
            if played.error.is_some() {
                continue;
            }
            let kept = game
                .map_err(|source| CorpusError::Play { batch: header.batch, index, source })
                .and_then(|game| {
                    GameRecord::from_game(index, &game).map_err(|reason| CorpusError::Record {
                        path: PathBuf::from(super::store::part_name(header.batch)),
                        ordinal: part.done().saturating_add(1),
                        offset: 0,
                        reason,
                    })
                })
                .and_then(|record| part.append(record));
            match kept {
                Ok(()) => {
                    played.games = played.games.saturating_add(1);
                    let of = header.series.games_per_batch;
                    on_event(GrowEvent::Game { batch: header.batch, done: part.done(), of });
                }
                Err(error) => {
                    halt.store(true, Ordering::SeqCst);
                    played.error = Some(error);
                }
            }
        }
    });
    played
}
