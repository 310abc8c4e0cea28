//! [`Archive::import`]: files → games → the archive, in one transaction.
//!
//! 1. The files are read and parsed (text records in parallel chunks).
//! 2. In one SQLite transaction: games already in the archive or earlier in the import (same moves, start and
//!    metadata) are skipped; the others are stored with new ids.
//! 3. The games are replayed in parallel; every position becomes an occurrence `(key, check | rank | id | move)`,
//!    gathered in 256 buckets by the key's top bits.
//! 4. Bucket by bucket in key order, the occurrences are sorted (in parallel) and written as posting lists, with the
//!    per-move aggregates of the positions of many games ([`super::write`]).
//! 5. The counters are updated and the transaction committed.
//!
//! The stop flag is read between batches of a few thousand games or lines, and between buckets; a stop or an error
//! drops the transaction, so the archive is left exactly as it was.

use std::collections::HashMap;
use std::hash::Hasher;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use rayon::prelude::*;
use rusqlite::{Connection, TransactionBehavior, params};

use super::Archive;
use super::error::ArchiveError;
use super::key::{self, PositionKey};
use super::new_game::NewGame;
use super::schema::Meta;
use super::source;
use super::store::{self, Names};
use super::types::{ImportProgress, ImportReport, ImportStage};
use super::write::{self, BUCKETS, GameInfo, Occurrence};

/// Games handled between two looks at the stop flag.
const BATCH: usize = 4096;

impl Archive {
    /// Imports game files: WTHOR `.wtb` (with the `WTH.JOU` and `WTH.TRN` beside them, names matched ignoring case),
    /// GGF files (one or several games) and text records (one game per line, see [`crate::format::records`]).
    ///
    /// The whole import is one transaction: when it fails or `stop` is raised, nothing of it is kept. Games the
    /// archive already has (same moves and metadata) are counted as duplicates; malformed or illegal games are
    /// skipped and described in the report.
    ///
    /// # Errors
    /// [`ArchiveError`] naming the file that could not be read or recognised; [`ArchiveError::Stopped`] when `stop`
    /// was raised; database errors.
    pub fn import(
        &mut self,
        files: &[PathBuf],
        mut progress: impl FnMut(ImportProgress),
        stop: &AtomicBool,
    ) -> Result<ImportReport, ArchiveError> {
        let started = Instant::now();
        let mut report = ImportReport { files: files.len(), ..ImportReport::default() };
        let games = read_files(files, &mut report, &mut progress, stop)?;
        let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        store_games(&tx, files, games, &mut report, &mut progress, stop)?;
        if stop.load(Ordering::Relaxed) {
            return Err(ArchiveError::Stopped);
        }
        progress(ImportProgress { stage: ImportStage::Committing, done: 0, total: 1, file: None });
        tx.commit()?;
        progress(ImportProgress { stage: ImportStage::Committing, done: 1, total: 1, file: None });
        report.seconds = started.elapsed().as_secs_f64();
        Ok(report)
    }
}

fn read_files(
    files: &[PathBuf],
    report: &mut ImportReport,
    progress: &mut impl FnMut(ImportProgress),
    stop: &AtomicBool,
) -> Result<Vec<NewGame>, ArchiveError> {
    let sizes: Vec<u64> = files.iter().map(|f| std::fs::metadata(f).map_or(0, |m| m.len())).collect();
    let total: u64 = sizes.iter().sum();
    let mut done = 0u64;
    let mut games = Vec::new();
    for (index, (path, size)) in files.iter().zip(&sizes).enumerate() {
        if stop.load(Ordering::Relaxed) {
            return Err(ArchiveError::Stopped);
        }
        let file = Some(path.clone());
        progress(ImportProgress { stage: ImportStage::Reading, done, total, file: file.clone() });
        let mut tell = |bytes: u64| {
            let done = done.saturating_add(bytes.min(*size));
            progress(ImportProgress { stage: ImportStage::Reading, done, total, file: file.clone() });
        };
        let read = source::read_file(path, index, stop, &mut tell)?;
        report.games_read = report.games_read.saturating_add((read.games.len() + read.skipped.len()) as u64);
        for skipped in read.skipped {
            report.skip(skipped);
        }
        report.warnings.extend(read.warnings);
        games.extend(read.games);
        done = done.saturating_add(*size);
    }
    progress(ImportProgress { stage: ImportStage::Reading, done: total, total, file: None });
    Ok(games)
}

/// Where a digest was seen: a game of the archive, or one kept earlier in this import.
#[derive(Debug, Clone, Copy)]
enum Seen {
    Stored(u32),
    Kept(usize),
}

fn store_games(
    conn: &Connection,
    files: &[PathBuf],
    games: Vec<NewGame>,
    report: &mut ImportReport,
    progress: &mut impl FnMut(ImportProgress),
    stop: &AtomicBool,
) -> Result<(), ArchiveError> {
    let mut meta = Meta::read(conn)?;
    let kept = drop_duplicates(conn, &meta, games, report, stop)?;
    let first_id: i64 = conn.query_row("SELECT coalesce(max(id), 0) + 1 FROM games", [], |row| row.get(0))?;
    let first_id = u32::try_from(first_id).map_err(|_| store::corrupt("game ids are exhausted".to_owned()))?;
    if u32::try_from(kept.len()).ok().and_then(|n| first_id.checked_add(n)).is_none() {
        return Err(store::corrupt("too many games for one archive (2^32)".to_owned()));
    }
    insert_games(conn, files, &kept, first_id, &mut meta, progress, stop)?;
    report.added = kept.len() as u64;
    let infos: Vec<GameInfo> = kept
        .iter()
        .map(|g| GameInfo { year: key::year_code(g.year), outcome: key::outcome_code(g.black_diff, g.winner) })
        .collect();
    let (buckets, occurrences) = replay(&kept, first_id, &infos, progress, stop)?;
    drop(kept);
    let fresh = meta.positions == 0;
    let added = write::positions(conn, buckets, occurrences, &infos, first_id, fresh, progress, stop)?;
    report.positions_added = added;
    meta.positions = meta.positions.saturating_add(added);
    meta.games = meta.games.saturating_add(report.added);
    meta.write(conn)
}

fn drop_duplicates(
    conn: &Connection,
    meta: &Meta,
    games: Vec<NewGame>,
    report: &mut ImportReport,
    stop: &AtomicBool,
) -> Result<Vec<NewGame>, ArchiveError> {
    let digests: Vec<i64> = games.par_iter().map(digest).collect();
    let mut seen: HashMap<i64, Vec<Seen>> = HashMap::new();
    if meta.games > 0 {
        let mut statement = conn.prepare("SELECT id, digest FROM games")?;
        let mut rows = statement.query([])?;
        while let Some(row) = rows.next()? {
            let id = u32::try_from(row.get::<_, i64>(0)?).unwrap_or(0);
            seen.entry(row.get(1)?).or_default().push(Seen::Stored(id));
        }
    }
    let mut kept: Vec<NewGame> = Vec::with_capacity(games.len());
    for (index, (game, digest)) in games.into_iter().zip(digests).enumerate() {
        if index % BATCH == 0 && stop.load(Ordering::Relaxed) {
            return Err(ArchiveError::Stopped);
        }
        let earlier = seen.entry(digest).or_default();
        let mut duplicate = false;
        for &place in earlier.iter() {
            duplicate = match place {
                Seen::Kept(i) => kept.get(i).is_some_and(|other| other.same_game(&game)),
                Seen::Stored(id) => store::load_game(conn, id)?.is_some_and(|stored| {
                    game.same_game(&NewGame {
                        black: stored.black,
                        white: stored.white,
                        tournament: stored.tournament,
                        year: stored.year,
                        recorded_black_discs: stored.recorded_black_discs,
                        theoretical_black_discs: stored.theoretical_black_discs,
                        black_diff: stored.black_diff,
                        winner: stored.winner,
                        start: stored.start,
                        moves: stored.moves,
                        source: game.source,
                    })
                }),
            };
            if duplicate {
                break;
            }
        }
        if duplicate {
            report.duplicates = report.duplicates.saturating_add(1);
        } else {
            earlier.push(Seen::Kept(kept.len()));
            kept.push(game);
        }
    }
    Ok(kept)
}

/// A 64-bit digest of what makes a game itself (its file aside), FNV-1a over a fixed encoding.
fn digest(game: &NewGame) -> i64 {
    let mut hasher = Fnv(0xcbf2_9ce4_8422_2325);
    let text = |hasher: &mut Fnv, value: &Option<String>| {
        match value {
            Some(text) => {
                hasher.write_u8(1);
                hasher.write(text.as_bytes());
            }
            None => hasher.write_u8(0),
        }
        hasher.write_u8(0xff);
    };
    text(&mut hasher, &game.black);
    text(&mut hasher, &game.white);
    text(&mut hasher, &game.tournament);
    hasher.write_u16(game.year.unwrap_or(0));
    hasher.write_u16(game.recorded_black_discs.map_or(999, u16::from));
    hasher.write_u16(game.theoretical_black_discs.map_or(999, u16::from));
    hasher.write_u64(game.start.black().0);
    hasher.write_u64(game.start.white().0);
    for &mv in &game.moves {
        hasher.write_u8(store::move_byte(mv));
    }
    i64::from_ne_bytes(hasher.finish().to_ne_bytes())
}

/// FNV-1a, 64 bits: stable across runs and platforms (the digests are stored).
struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

fn insert_games(
    conn: &Connection,
    files: &[PathBuf],
    games: &[NewGame],
    first_id: u32,
    meta: &mut Meta,
    progress: &mut impl FnMut(ImportProgress),
    stop: &AtomicBool,
) -> Result<(), ArchiveError> {
    let mut sources = Names::new("sources");
    let source_ids: Vec<i64> =
        files.iter().map(|path| sources.id(conn, &file_name(path))).collect::<Result<_, ArchiveError>>()?;
    let (mut players, mut tournaments) = (Names::new("players"), Names::new("tournaments"));
    let mut insert = conn.prepare_cached(
        "INSERT INTO games (id, black, white, tournament, year, black_diff, winner, recorded_black_discs, \
         theoretical_black_discs, source, start, moves, digest) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
    )?;
    let total = games.len() as u64;
    for (index, (game, id)) in games.iter().zip(first_id..).enumerate() {
        if index % BATCH == 0 {
            if stop.load(Ordering::Relaxed) {
                return Err(ArchiveError::Stopped);
            }
            progress(ImportProgress { stage: ImportStage::Games, done: index as u64, total, file: None });
        }
        let name = |names: &mut Names, name: &Option<String>| name.as_deref().map(|n| names.id(conn, n)).transpose();
        let black = name(&mut players, &game.black)?;
        let white = name(&mut players, &game.white)?;
        let tournament = name(&mut tournaments, &game.tournament)?;
        let moves: Vec<u8> = game.moves.iter().map(|&mv| store::move_byte(mv)).collect();
        let _added = insert.execute(params![
            i64::from(id),
            black,
            white,
            tournament,
            game.year,
            game.black_diff,
            store::winner_value(game.winner),
            game.recorded_black_discs,
            game.theoretical_black_discs,
            source_ids.get(game.source).copied().unwrap_or(0),
            store::encode_start(&game.start),
            moves,
            digest(game),
        ])?;
        if let Some(year) = game.year {
            meta.add_year(year);
        }
    }
    progress(ImportProgress { stage: ImportStage::Games, done: total, total, file: None });
    Ok(())
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(|| path.display().to_string(), |name| name.to_string_lossy().into_owned())
}

/// Replays the games into occurrences, gathered by the top bits of their keys. Returns the buckets and the number
/// of occurrences.
fn replay(
    games: &[NewGame],
    first_id: u32,
    infos: &[GameInfo],
    progress: &mut impl FnMut(ImportProgress),
    stop: &AtomicBool,
) -> Result<(Vec<Vec<Occurrence>>, u64), ArchiveError> {
    let mut buckets: Vec<Vec<Occurrence>> = (0..BUCKETS).map(|_| Vec::new()).collect();
    let total = games.len() as u64;
    let mut count = 0u64;
    for (batch_index, batch) in games.chunks(BATCH).enumerate() {
        if stop.load(Ordering::Relaxed) {
            return Err(ArchiveError::Stopped);
        }
        let base = batch_index.saturating_mul(BATCH);
        let lists: Vec<Vec<Occurrence>> = batch
            .par_iter()
            .enumerate()
            .map(|(offset, game)| {
                let index = base.saturating_add(offset);
                let id = u32::try_from(index).ok().and_then(|i| first_id.checked_add(i)).unwrap_or(u32::MAX);
                let rank = infos.get(index).map_or(u8::MAX, |info| key::year_rank(info.year));
                occurrences(game, id, rank)
            })
            .collect();
        for occurrence in lists.into_iter().flatten() {
            count = count.saturating_add(1);
            if let Some(bucket) = buckets.get_mut(write::bucket_of(occurrence.0)) {
                bucket.push(occurrence);
            }
        }
        let done = base.saturating_add(batch.len()) as u64;
        progress(ImportProgress { stage: ImportStage::Replaying, done, total, file: None });
    }
    Ok((buckets, count))
}

/// The occurrences of one game: one per position, the final one included.
fn occurrences(game: &NewGame, id: u32, rank: u8) -> Vec<Occurrence> {
    let mut out = Vec::with_capacity(game.moves.len().saturating_add(1));
    let mut position = game.start;
    for index in 0..=game.moves.len() {
        let here = PositionKey::of(&position);
        let next = game.moves.get(index).copied();
        let code = next.map_or(key::END, |mv| here.canonical_move(mv));
        out.push(write::occurrence(&here, rank, id, code));
        match next.map(|mv| position.play(mv)) {
            Some(Ok(after)) => position = after,
            _ => break,
        }
    }
    out
}
