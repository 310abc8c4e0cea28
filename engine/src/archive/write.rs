//! Writing the position index: posting lists (`positions`) and per-move aggregates (`position_moves`).
//!
//! An occurrence is a pair of `u64`: the position's 63-bit key, and `check (16) | year rank (8) | !game id (32) |
//! move code (8)`. Sorting the pairs puts each position's games together, newest first, as the posting lists want.
//!
//! A position's row key is its natural key unless another position took it: then the next free key (a collision of
//! 63-bit keys, which the 16-bit check tells apart). When the archive had no positions before the import, keys are
//! given in one ascending pass without reading the table; otherwise each position is looked up first, and a row found
//! at its key is checked (by replaying one of its games) before the new games are merged into it.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;
use rusqlite::{Connection, OptionalExtension, params};

use super::error::ArchiveError;
use super::key::{self, Entry, PositionKey};
use super::store;
use super::types::{ImportProgress, ImportStage};

/// Number of buckets the occurrences are gathered in before sorting (by the key's top 8 of 63 bits).
pub(crate) const BUCKETS: usize = 256;
/// Positions with at least this many games get per-move, per-year aggregates.
pub(crate) const AGGREGATE_MIN: usize = 1024;
/// Mask of the 63-bit keys.
pub(crate) const KEY_MASK: u64 = u64::MAX >> 1;

/// (key, check | year rank | !id | move code).
pub(crate) type Occurrence = (u64, u64);

/// A stored game's year code and outcome code, by index from the import's first id.
#[derive(Debug, Clone, Copy)]
pub(crate) struct GameInfo {
    pub year: u8,
    pub outcome: u8,
}

/// The occurrence of a game at a position.
#[must_use]
pub(crate) fn occurrence(position: &PositionKey, rank: u8, id: u32, code: u8) -> Occurrence {
    let aux = u64::from(position.check) << 48 | u64::from(rank) << 40 | u64::from(!id) << 8 | u64::from(code);
    (position.key, aux)
}

/// The bucket of a key.
#[must_use]
pub(crate) fn bucket_of(key: u64) -> usize {
    usize::try_from(key >> 55).unwrap_or(0)
}

fn check_of(aux: u64) -> u16 {
    u16::try_from(aux >> 48).unwrap_or(0)
}

fn id_of(aux: u64) -> u32 {
    !u32::try_from((aux >> 8) & u64::from(u32::MAX)).unwrap_or(0)
}

fn code_of(aux: u64) -> u8 {
    u8::try_from(aux & 0xff).unwrap_or(key::END)
}

/// The key after `key`, within 63 bits.
#[must_use]
pub(crate) fn next_key(key: u64) -> u64 {
    key.wrapping_add(1) & KEY_MASK
}

/// Sorts and writes the buckets; returns the number of new positions.
#[allow(clippy::too_many_arguments, reason = "one call site, in the import")]
pub(crate) fn positions(
    conn: &Connection,
    buckets: Vec<Vec<Occurrence>>,
    occurrences: u64,
    infos: &[GameInfo],
    first_id: u32,
    fresh: bool,
    progress: &mut impl FnMut(ImportProgress),
    stop: &AtomicBool,
) -> Result<u64, ArchiveError> {
    let mut writer = Writer { conn, infos, first_id, fresh, last_key: None, added: 0 };
    let mut done = 0u64;
    for mut bucket in buckets {
        if stop.load(Ordering::Relaxed) {
            return Err(ArchiveError::Stopped);
        }
        bucket.par_sort_unstable();
        let mut rest = bucket.as_slice();
        while let Some(&(key, aux)) = rest.first() {
            let check = check_of(aux);
            let length = rest.iter().take_while(|&&(k, a)| k == key && check_of(a) == check).count();
            let (group, tail) = rest.split_at(length);
            writer.group(key, check, group)?;
            rest = tail;
        }
        done = done.saturating_add(bucket.len() as u64);
        progress(ImportProgress { stage: ImportStage::Positions, done, total: occurrences, file: None });
    }
    Ok(writer.added)
}

struct Writer<'a> {
    conn: &'a Connection,
    infos: &'a [GameInfo],
    first_id: u32,
    fresh: bool,
    /// The last key given (fresh archives only).
    last_key: Option<u64>,
    added: u64,
}

impl Writer<'_> {
    fn entries(&self, group: &[Occurrence]) -> Vec<Entry> {
        group
            .iter()
            .map(|&(_, aux)| {
                let game = id_of(aux);
                let info = usize::try_from(game.saturating_sub(self.first_id)).ok().and_then(|i| self.infos.get(i));
                Entry {
                    game,
                    mv: code_of(aux),
                    year: info.map_or(0, |i| i.year),
                    outcome: info.map_or(key::UNKNOWN, |i| i.outcome),
                }
            })
            .collect()
    }

    fn group(&mut self, key: u64, check: u16, group: &[Occurrence]) -> Result<(), ArchiveError> {
        let entries = self.entries(group);
        if self.fresh {
            let slot = match self.last_key {
                Some(last) if key <= last => next_key(last),
                _ => key,
            };
            self.last_key = Some(slot);
            return self.insert(slot, &entries);
        }
        let mut slot = key;
        loop {
            let found: Option<Vec<u8>> = self
                .conn
                .prepare_cached("SELECT postings FROM positions WHERE key = ?1")?
                .query_row([as_i64(slot)], |row| row.get(0))
                .optional()?;
            let Some(blob) = found else { return self.insert(slot, &entries) };
            let old = key::decode(&blob);
            let first = old.first().ok_or_else(|| store::corrupt(format!("position {slot} has no games")))?;
            let (start, moves) = store::game_moves(self.conn, first.game)?;
            if store::game_has_key(start, &moves, key, check) {
                return self.merge(slot, old, entries);
            }
            slot = next_key(slot);
        }
    }

    fn insert(&mut self, slot: u64, entries: &[Entry]) -> Result<(), ArchiveError> {
        let blob: Vec<u8> = entries.iter().flat_map(|e| e.to_bytes()).collect();
        let _added = self
            .conn
            .prepare_cached("INSERT INTO positions (key, postings) VALUES (?1, ?2)")?
            .execute(params![as_i64(slot), blob])?;
        self.added = self.added.saturating_add(1);
        if entries.len() >= AGGREGATE_MIN {
            add_aggregates(self.conn, slot, entries)?;
        }
        Ok(())
    }

    fn merge(&mut self, slot: u64, old: Vec<Entry>, new: Vec<Entry>) -> Result<(), ArchiveError> {
        let had_aggregates = old.len() >= AGGREGATE_MIN;
        let mut all = old;
        all.extend_from_slice(&new);
        all.sort_by_key(|e| e.order());
        let blob: Vec<u8> = all.iter().flat_map(|e| e.to_bytes()).collect();
        let _changed = self
            .conn
            .prepare_cached("UPDATE positions SET postings = ?2 WHERE key = ?1")?
            .execute(params![as_i64(slot), blob])?;
        if had_aggregates {
            add_aggregates(self.conn, slot, &new)?;
        } else if all.len() >= AGGREGATE_MIN {
            add_aggregates(self.conn, slot, &all)?;
        }
        Ok(())
    }
}

/// Sums of games by (move code, year code).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Sums {
    pub games: u64,
    pub black_wins: u64,
    pub draws: u64,
    pub white_wins: u64,
    pub diff_sum: i64,
    pub diff_games: u64,
}

impl Sums {
    /// Adds one game's outcome code.
    pub fn add_outcome(&mut self, outcome: u8) {
        self.games = self.games.saturating_add(1);
        let (diff, winner) = key::outcome_of_code(outcome);
        match winner {
            Some(crate::format::Winner::Black) => self.black_wins = self.black_wins.saturating_add(1),
            Some(crate::format::Winner::Draw) => self.draws = self.draws.saturating_add(1),
            Some(crate::format::Winner::White) => self.white_wins = self.white_wins.saturating_add(1),
            None => {}
        }
        if let Some(diff) = diff {
            self.diff_sum = self.diff_sum.saturating_add(i64::from(diff));
            self.diff_games = self.diff_games.saturating_add(1);
        }
    }

    /// Adds other sums.
    pub fn add(&mut self, other: &Sums) {
        self.games = self.games.saturating_add(other.games);
        self.black_wins = self.black_wins.saturating_add(other.black_wins);
        self.draws = self.draws.saturating_add(other.draws);
        self.white_wins = self.white_wins.saturating_add(other.white_wins);
        self.diff_sum = self.diff_sum.saturating_add(other.diff_sum);
        self.diff_games = self.diff_games.saturating_add(other.diff_games);
    }
}

/// Adds the entries' sums to a position's aggregates.
fn add_aggregates(conn: &Connection, slot: u64, entries: &[Entry]) -> Result<(), ArchiveError> {
    let mut sums: BTreeMap<(u8, u8), Sums> = BTreeMap::new();
    for entry in entries {
        sums.entry((entry.mv, entry.year)).or_default().add_outcome(entry.outcome);
    }
    let mut statement = conn.prepare_cached(
        "INSERT INTO position_moves (key, mv, year, games, black_wins, draws, white_wins, diff_sum, diff_games) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) ON CONFLICT (key, mv, year) DO UPDATE SET \
         games = games + excluded.games, black_wins = black_wins + excluded.black_wins, \
         draws = draws + excluded.draws, white_wins = white_wins + excluded.white_wins, \
         diff_sum = diff_sum + excluded.diff_sum, diff_games = diff_games + excluded.diff_games",
    )?;
    let big = |v: u64| i64::try_from(v).unwrap_or(i64::MAX);
    for ((mv, year), s) in sums {
        let _changed = statement.execute(params![
            as_i64(slot),
            mv,
            year,
            big(s.games),
            big(s.black_wins),
            big(s.draws),
            big(s.white_wins),
            s.diff_sum,
            big(s.diff_games)
        ])?;
    }
    Ok(())
}

/// A 63-bit key as SQLite's signed integer.
#[must_use]
pub(crate) fn as_i64(key: u64) -> i64 {
    i64::try_from(key & KEY_MASK).unwrap_or(0)
}
