//! The batch being played: an uncompressed file that games are appended to as they finish, synced to disk at least
//! once a second, turned into the finished (compressed) batch when its last game is in.

use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use flate2::Compression;
use flate2::write::GzEncoder;

use super::error::{CorpusError, FileStep};
use super::format::{GameRecord, Header};
use super::store::{check_series, decode_prefix, in_order};
use crate::fsutil::{self, Backup};

/// How often appended games are synced to disk at the least.
const SYNC_EVERY: Duration = Duration::from_secs(1);

/// The largest part file read back.
const MAX_PART_BYTES: u64 = 256 << 20;

/// What opening the batch's file found.
#[derive(Debug)]
pub enum Opened {
    /// A new file.
    New,
    /// An earlier run's file, with `games` complete games; `dropped` bytes at its end did not make a whole, valid
    /// game (`why`), and were cut off to be played again.
    Resumed {
        /// Complete games kept.
        games: usize,
        /// Bytes cut off.
        dropped: usize,
        /// Why they were.
        why: Option<CorpusError>,
    },
}

/// The batch being played.
#[derive(Debug)]
pub struct Part {
    path: PathBuf,
    header: Header,
    file: File,
    games: Vec<GameRecord>,
    have: Vec<bool>,
    last_sync: Instant,
    unsynced: bool,
}

impl Part {
    /// Opens the file of the batch `header` describes at `path`: resumes it if an earlier run left it, else creates
    /// it with the header.
    ///
    /// # Errors
    /// The file cannot be read or written; its header is damaged; it belongs to another series or batch.
    pub fn open(path: &Path, header: Header) -> Result<(Part, Opened), CorpusError> {
        if path.exists() {
            return Part::resume(path, header);
        }
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create_new(true)
            .open(path)
            .map_err(CorpusError::io(path, FileStep::Open))?;
        file.write_all(header.to_text().as_bytes())
            .and_then(|()| file.sync_all())
            .map_err(CorpusError::io(path, FileStep::Append))?;
        Ok((Part::with(path, header, file, Vec::new()), Opened::New))
    }

    fn with(path: &Path, header: Header, file: File, games: Vec<GameRecord>) -> Part {
        let mut have = vec![false; header.series.games_per_batch as usize];
        for game in &games {
            if let Some(slot) = have.get_mut(game.index as usize) {
                *slot = true;
            }
        }
        Part { path: path.to_owned(), header, file, games, have, last_sync: Instant::now(), unsynced: false }
    }

    fn resume(path: &Path, wanted: Header) -> Result<(Part, Opened), CorpusError> {
        let mut file =
            OpenOptions::new().read(true).append(true).open(path).map_err(CorpusError::io(path, FileStep::Open))?;
        let mut bytes = Vec::new();
        let _read =
            (&mut file).take(MAX_PART_BYTES).read_to_end(&mut bytes).map_err(CorpusError::io(path, FileStep::Read))?;
        let (header, start) =
            Header::parse(&bytes).map_err(|reason| CorpusError::Header { path: path.to_owned(), reason })?;
        check_series(path, &header.series, &wanted.series)?;
        if header.batch != wanted.batch {
            let (found, wanted) = (header.batch.to_string(), wanted.batch.to_string());
            return Err(CorpusError::Mismatch { path: path.to_owned(), key: "batch", found, wanted });
        }
        let body = bytes.get(start..).unwrap_or_default();
        let (games, kept, why) = decode_prefix(path, body);
        let games = in_order(path, games, header.series.games_per_batch)?;
        let dropped = body.len().saturating_sub(kept);
        if dropped > 0 {
            file.set_len(start.saturating_add(kept) as u64)
                .and_then(|()| file.sync_all())
                .map_err(CorpusError::io(path, FileStep::Truncate))?;
        }
        let opened = Opened::Resumed { games: games.len(), dropped, why };
        // The header as first written stays (its start time and command say when and how the batch began).
        Ok((Part::with(path, header, file, games), opened))
    }

    /// The batch's header.
    #[must_use]
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Games in the file.
    #[must_use]
    pub fn done(&self) -> usize {
        self.games.len()
    }

    /// The indices of the games still to play, in order.
    #[must_use]
    pub fn missing(&self) -> Vec<u32> {
        (0..self.header.series.games_per_batch)
            .filter(|&i| !self.have.get(i as usize).copied().unwrap_or(true))
            .collect()
    }

    /// Appends a finished game (synced within a second).
    ///
    /// # Errors
    /// [`FileStep::Append`] if it cannot be written or synced.
    pub fn append(&mut self, game: GameRecord) -> Result<(), CorpusError> {
        let mut bytes = Vec::with_capacity(67);
        game.encode(&mut bytes);
        self.file.write_all(&bytes).map_err(CorpusError::io(&self.path, FileStep::Append))?;
        if let Some(slot) = self.have.get_mut(game.index as usize) {
            *slot = true;
        }
        self.games.push(game);
        self.unsynced = true;
        if self.last_sync.elapsed() >= SYNC_EVERY {
            self.sync()?;
        }
        Ok(())
    }

    /// Syncs the appended games to disk.
    ///
    /// # Errors
    /// [`FileStep::Append`] if the system cannot.
    pub fn sync(&mut self) -> Result<(), CorpusError> {
        if self.unsynced {
            self.file.sync_data().map_err(CorpusError::io(&self.path, FileStep::Append))?;
            self.unsynced = false;
        }
        self.last_sync = Instant::now();
        Ok(())
    }

    /// Whether every game is in.
    #[must_use]
    pub fn is_complete(&self) -> bool {
        self.have.iter().all(|&have| have)
    }

    /// Writes the finished batch to `finished` (compressed, games in index order, atomically), then removes this
    /// file. Call it when [`Part::is_complete`].
    ///
    /// # Errors
    /// The finished file cannot be saved (this file then stays, and a later run finishes it).
    pub fn finish(mut self, finished: &Path) -> Result<(), CorpusError> {
        self.sync()?;
        let games = in_order(&self.path, std::mem::take(&mut self.games), self.header.series.games_per_batch)?;
        let mut body = Vec::with_capacity(games.len().saturating_mul(67));
        for game in &games {
            game.encode(&mut body);
        }
        let header = self.header.to_text();
        fsutil::save_atomically(finished, Backup::None, |out| {
            let mut encoder = GzEncoder::new(out, Compression::best());
            encoder.write_all(header.as_bytes())?;
            encoder.write_all(&body)?;
            encoder.finish().map(drop)
        })?;
        drop(self.file);
        std::fs::remove_file(&self.path).map_err(CorpusError::io(&self.path, FileStep::Remove))
    }
}
