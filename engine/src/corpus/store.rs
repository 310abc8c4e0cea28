//! The corpus folder: which batches it holds, and reading them back (every game replayed and checked).

use std::collections::BTreeMap;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};

use flate2::read::MultiGzDecoder;

use super::error::{CorpusError, FileStep, GamesProblem};
use super::format::{GameRecord, Header, MAX_HEADER, Series};

/// The name of finished batch `batch`.
#[must_use]
pub fn finished_name(batch: u32) -> String {
    format!("batch-{batch:05}.selfplay.gz")
}

/// The name of batch `batch` while it is being played.
#[must_use]
pub fn part_name(batch: u32) -> String {
    format!("batch-{batch:05}.selfplay.part")
}

/// The batch number and whether it is finished, from a file name this module writes.
fn parse_name(name: &str) -> Option<(u32, bool)> {
    let rest = name.strip_prefix("batch-")?;
    let (number, finished) = if let Some(number) = rest.strip_suffix(".selfplay.gz") {
        (number, true)
    } else {
        (rest.strip_suffix(".selfplay.part")?, false)
    };
    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((number.parse().ok()?, finished))
}

/// A batch file in a corpus folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BatchFile {
    /// Its number.
    pub batch: u32,
    /// Where it is.
    pub path: PathBuf,
}

/// A corpus folder, as listed when it was opened.
#[derive(Debug, Clone)]
pub struct Corpus {
    dir: PathBuf,
    finished: BTreeMap<u32, PathBuf>,
    parts: BTreeMap<u32, PathBuf>,
}

impl Corpus {
    /// Lists the batches of the corpus in `dir` (files of other names are left alone).
    ///
    /// # Errors
    /// [`CorpusError::Io`] if the folder cannot be listed.
    pub fn open(dir: &Path) -> Result<Corpus, CorpusError> {
        let mut corpus = Corpus { dir: dir.to_owned(), finished: BTreeMap::new(), parts: BTreeMap::new() };
        let entries = std::fs::read_dir(dir).map_err(CorpusError::io(dir, FileStep::List))?;
        for entry in entries {
            let entry = entry.map_err(CorpusError::io(dir, FileStep::List))?;
            let name = entry.file_name();
            let Some((batch, finished)) = name.to_str().and_then(parse_name) else { continue };
            let list = if finished { &mut corpus.finished } else { &mut corpus.parts };
            let _none = list.insert(batch, entry.path());
        }
        Ok(corpus)
    }

    /// [`Corpus::open`], creating the folder (and its parents) first if it is missing.
    ///
    /// # Errors
    /// As [`Corpus::open`], or [`FileStep::CreateFolder`].
    pub fn open_or_create(dir: &Path) -> Result<Corpus, CorpusError> {
        std::fs::create_dir_all(dir).map_err(CorpusError::io(dir, FileStep::CreateFolder))?;
        Corpus::open(dir)
    }

    /// The folder.
    #[must_use]
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The finished batches, by number.
    #[must_use]
    pub fn finished(&self) -> Vec<BatchFile> {
        self.finished.iter().map(|(&batch, path)| BatchFile { batch, path: path.clone() }).collect()
    }

    /// The batches being played (normally at most one), by number.
    #[must_use]
    pub fn parts(&self) -> Vec<BatchFile> {
        self.parts.iter().map(|(&batch, path)| BatchFile { batch, path: path.clone() }).collect()
    }

    /// Whether batch `batch` is finished.
    #[must_use]
    pub fn is_finished(&self, batch: u32) -> bool {
        self.finished.contains_key(&batch)
    }

    /// The path of batch `batch` once finished.
    #[must_use]
    pub fn finished_path(&self, batch: u32) -> PathBuf {
        self.dir.join(finished_name(batch))
    }

    /// The path of batch `batch` while it is played.
    #[must_use]
    pub fn part_path(&self, batch: u32) -> PathBuf {
        self.dir.join(part_name(batch))
    }

    /// The series of the corpus and the file it was read from: that of its first batch (finished or not), after
    /// checking that every other batch's header agrees; `None` for an empty corpus.
    ///
    /// # Errors
    /// A header that cannot be read, or [`CorpusError::Mismatch`] naming the first batch played another way.
    pub fn series(&self) -> Result<Option<(Series, PathBuf)>, CorpusError> {
        let finished = self.finished.values().map(|path| (path, read_finished_header(path)));
        let parts = self.parts.values().map(|path| (path, read_part_header(path)));
        let mut series: Option<(Series, PathBuf)> = None;
        for (path, header) in finished.chain(parts) {
            let header = header?;
            match &series {
                None => series = Some((header.series, path.clone())),
                Some((first, _)) => check_series(path, &header.series, first)?,
            }
        }
        Ok(series)
    }

    /// The header of finished batch `batch`.
    ///
    /// # Errors
    /// The file cannot be read or its header is damaged.
    pub fn read_header(&self, batch: u32) -> Result<Header, CorpusError> {
        read_finished_header(&self.finished_path(batch))
    }

    /// Finished batch `batch`: its header and its games in index order, every game replayed.
    ///
    /// # Errors
    /// The file cannot be read, its header or a game is damaged, or it does not hold each of its games once.
    pub fn read_batch(&self, batch: u32) -> Result<(Header, Vec<GameRecord>), CorpusError> {
        read_finished(&self.finished_path(batch), Some(batch))
    }
}

/// Checks that `found` (the series of the batch at `path`) is `wanted`.
///
/// # Errors
/// [`CorpusError::Mismatch`] with the first difference.
pub(super) fn check_series(path: &Path, found: &Series, wanted: &Series) -> Result<(), CorpusError> {
    match found.differences(wanted).into_iter().next() {
        None => Ok(()),
        Some((key, found, wanted)) => Err(CorpusError::Mismatch { path: path.to_owned(), key, found, wanted }),
    }
}

/// The largest decompressed batch read: a header and 2^20 games of 67 bytes, far above any real batch.
const MAX_BATCH_BYTES: u64 = MAX_HEADER as u64 + (1 << 20) * 67;

/// Reads at most `limit` decompressed bytes of the gzip file at `path`.
fn read_gz(path: &Path, limit: u64) -> Result<Vec<u8>, CorpusError> {
    let file = File::open(path).map_err(CorpusError::io(path, FileStep::Read))?;
    let mut bytes = Vec::new();
    let _read =
        MultiGzDecoder::new(file).take(limit).read_to_end(&mut bytes).map_err(CorpusError::io(path, FileStep::Read))?;
    Ok(bytes)
}

fn header_error(path: &Path) -> impl FnOnce(super::format::HeaderError) -> CorpusError {
    let path = path.to_owned();
    move |reason| CorpusError::Header { path, reason }
}

fn read_finished_header(path: &Path) -> Result<Header, CorpusError> {
    let bytes = read_gz(path, MAX_HEADER as u64)?;
    Header::parse(&bytes).map(|(header, _)| header).map_err(header_error(path))
}

fn read_part_header(path: &Path) -> Result<Header, CorpusError> {
    let file = File::open(path).map_err(CorpusError::io(path, FileStep::Read))?;
    let mut bytes = Vec::new();
    let _read = file.take(MAX_HEADER as u64).read_to_end(&mut bytes).map_err(CorpusError::io(path, FileStep::Read))?;
    Header::parse(&bytes).map(|(header, _)| header).map_err(header_error(path))
}

/// A finished batch file, checked: its number (when known from its name), each game replayed, each index once.
pub(super) fn read_finished(path: &Path, batch: Option<u32>) -> Result<(Header, Vec<GameRecord>), CorpusError> {
    let bytes = read_gz(path, MAX_BATCH_BYTES)?;
    let (header, start) = Header::parse(&bytes).map_err(header_error(path))?;
    if let Some(batch) = batch.filter(|&b| b != header.batch) {
        return Err(CorpusError::Mismatch {
            path: path.to_owned(),
            key: "batch",
            found: header.batch.to_string(),
            wanted: batch.to_string(),
        });
    }
    let body = bytes.get(start..).unwrap_or_default();
    let games = match decode_prefix(path, body) {
        (games, _, None) => games,
        (_, _, Some(error)) => return Err(error),
    };
    let games = in_order(path, games, header.series.games_per_batch)?;
    let found = games.len();
    if found != header.series.games_per_batch as usize {
        let problem = GamesProblem::Missing { found, games: header.series.games_per_batch };
        return Err(CorpusError::Games { path: path.to_owned(), problem });
    }
    Ok((header, games))
}

/// The records of `body` up to the first bad one: the good games, the length in bytes of the records they came
/// from, and the error that stopped the reading (`None` when every byte made a good record).
pub(super) fn decode_prefix(path: &Path, body: &[u8]) -> (Vec<GameRecord>, usize, Option<CorpusError>) {
    let mut games = Vec::new();
    let mut offset = 0;
    while let Some(rest) = body.get(offset..).filter(|rest| !rest.is_empty()) {
        match GameRecord::decode(rest) {
            Ok((game, length)) => {
                games.push(game);
                offset = offset.saturating_add(length);
            }
            Err(reason) => {
                let ordinal = games.len().saturating_add(1);
                let error = CorpusError::Record { path: path.to_owned(), ordinal, offset, reason };
                return (games, offset, Some(error));
            }
        }
    }
    (games, offset, None)
}

/// The games sorted by index, each index below `games` and present once.
pub(super) fn in_order(path: &Path, mut list: Vec<GameRecord>, games: u32) -> Result<Vec<GameRecord>, CorpusError> {
    let problem = |problem| CorpusError::Games { path: path.to_owned(), problem };
    list.sort_by_key(|game| game.index);
    if let Some(game) = list.iter().find(|game| game.index >= games) {
        return Err(problem(GamesProblem::OutOfRange { index: game.index, games }));
    }
    if let Some(pair) = list.windows(2).find(|pair| pair.first().map(|g| g.index) == pair.get(1).map(|g| g.index)) {
        let index = pair.first().map_or(0, |game| game.index);
        return Err(problem(GamesProblem::Repeated(index)));
    }
    Ok(list)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_others_are_ignored() {
        assert_eq!(parse_name(&finished_name(7)), Some((7, true)));
        assert_eq!(parse_name(&part_name(123_456)), Some((123_456, false)));
        for other in ["README.md", "batch-.selfplay.gz", "batch-x1.selfplay.gz", "batch-00001.selfplay.gz.tmp"] {
            assert_eq!(parse_name(other), None, "{other}");
        }
    }
}
