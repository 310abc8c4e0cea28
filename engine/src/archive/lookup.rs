//! [`Archive::lookup`]: what was played from a position, in which games.
//!
//! The position's row is found by its key (and the keys after it, for the rare positions whose key collided), and
//! checked by replaying one of its games. Then:
//! - with a player filter: the games of the matching players are taken from the `games` indexes and replayed to the
//!   position when they are fewer than the position's games; otherwise the position's list is read and kept to those
//!   games;
//! - a position of [`AGGREGATE_MIN`] games or more: the move statistics come from `position_moves` (one row per move
//!   and year), and the game list from the part of the posting list that holds the years asked for (the list is
//!   sorted newest first, and the per-year counts say where each year starts), read with incremental blob I/O;
//! - any other position: its posting list (a few kilobytes at most) is read whole.

use std::collections::BTreeMap;
use std::io::Read;

use rusqlite::{Connection, MAIN_DB, OptionalExtension};

use crate::position::Position;

use super::Archive;
use super::error::ArchiveError;
use super::key::{self, END, ENTRY_SIZE, Entry, PositionKey};
use super::store;
use super::types::{Filter, GameId, GameSummary, Lookup, MoveStats};
use super::write::{AGGREGATE_MIN, Sums, as_i64, next_key};

/// Keys tried after a position's own before giving up (collisions of 63-bit keys are one in billions).
const MAX_PROBES: usize = 64;

impl Archive {
    /// What was played from `position` (in any orientation: the moves come back in the caller's) in the games that
    /// pass `filter`, and the newest `game_limit` of those games.
    ///
    /// # Errors
    /// [`ArchiveError`] for a database error or damaged data.
    pub fn lookup(&self, position: &Position, filter: &Filter, game_limit: usize) -> Result<Lookup, ArchiveError> {
        let target = PositionKey::of(position);
        let Some(row) = find_row(&self.conn, &target)? else { return Ok(Lookup::default()) };
        let years = filter.years.map(|(lo, hi)| (key::year_code(Some(lo)).max(1), key::year_code(Some(hi))));
        if let Some(player) = filter.player.as_deref() {
            let entries = player_entries(&self.conn, &target, &row, player, filter.years)?;
            let entries: Vec<Entry> = entries.into_iter().filter(|e| in_years(e.year, years)).collect();
            return finish_from_entries(&self.conn, &target, &entries, filter, game_limit);
        }
        if row.count >= AGGREGATE_MIN {
            return aggregated(&self.conn, &target, &row, years, filter, game_limit);
        }
        let entries: Vec<Entry> =
            read_all(&self.conn, row.slot)?.into_iter().filter(|e| in_years(e.year, years)).collect();
        finish_from_entries(&self.conn, &target, &entries, filter, game_limit)
    }
}

/// A position's row: its key and the number of games in its list.
#[derive(Debug, Clone, Copy)]
struct Row {
    slot: u64,
    count: usize,
}

fn find_row(conn: &Connection, target: &PositionKey) -> Result<Option<Row>, ArchiveError> {
    let mut slot = target.key;
    for _ in 0..MAX_PROBES {
        let length: Option<i64> = conn
            .prepare_cached("SELECT length(postings) FROM positions WHERE key = ?1")?
            .query_row([as_i64(slot)], |row| row.get(0))
            .optional()?;
        let Some(length) = length else { return Ok(None) };
        let count = usize::try_from(length).unwrap_or(0) / ENTRY_SIZE;
        let first = read_range(conn, slot, 0, 1)?;
        if let Some(entry) = first.first() {
            let (start, moves) = store::game_moves(conn, entry.game)?;
            if store::find_in_game(start, &moves, target).is_some() {
                return Ok(Some(Row { slot, count }));
            }
        }
        slot = next_key(slot);
    }
    Ok(None)
}

fn in_years(code: u8, years: Option<(u8, u8)>) -> bool {
    years.is_none_or(|(lo, hi)| code != 0 && (lo..=hi).contains(&code))
}

/// Entries `from..from + count` of a posting list, read without loading the rest of it.
fn read_range(conn: &Connection, slot: u64, from: usize, count: usize) -> Result<Vec<Entry>, ArchiveError> {
    let blob = conn.blob_open(MAIN_DB, c"positions", c"postings", as_i64(slot), true)?;
    let size = blob.size();
    let start = from.saturating_mul(ENTRY_SIZE);
    let end = start.saturating_add(count.saturating_mul(ENTRY_SIZE)).min(usize::try_from(size).unwrap_or(0));
    if end <= start {
        return Ok(Vec::new());
    }
    let mut bytes = vec![0u8; end.saturating_sub(start)];
    blob.read_at_exact(&mut bytes, start).map_err(|e| store::corrupt(format!("posting list: {e}")))?;
    Ok(key::decode(&bytes))
}

fn read_all(conn: &Connection, slot: u64) -> Result<Vec<Entry>, ArchiveError> {
    let mut blob = conn.blob_open(MAIN_DB, c"positions", c"postings", as_i64(slot), true)?;
    let mut bytes = Vec::new();
    let _read = blob.read_to_end(&mut bytes).map_err(|e| store::corrupt(format!("posting list: {e}")))?;
    Ok(key::decode(&bytes))
}

/// How many times cheaper reading a posting entry is than replaying a game: with a player filter, the position's
/// list is read when it holds at most this many times as many games as the players have.
const LIST_OVER_REPLAY: usize = 64;

/// The games through the position of players whose name contains `needle` (games of other years left out).
fn player_entries(
    conn: &Connection,
    target: &PositionKey,
    row: &Row,
    needle: &str,
    years: Option<(u16, u16)>,
) -> Result<Vec<Entry>, ArchiveError> {
    let needle = needle.to_lowercase();
    let mut players = Vec::new();
    {
        let mut statement = conn.prepare_cached("SELECT id, name FROM players")?;
        let mut rows = statement.query([])?;
        while let Some(r) = rows.next()? {
            let name: String = r.get(1)?;
            if name.to_lowercase().contains(&needle) {
                players.push(r.get::<_, i64>(0)?.to_string());
            }
        }
    }
    if players.is_empty() {
        return Ok(Vec::new());
    }
    // The ids come from the database as integers, so the list is plain SQL.
    let list = players.join(",");
    let year_clause = years.map_or_else(String::new, |(lo, hi)| format!(" AND year BETWEEN {lo} AND {hi}"));
    let which = format!("(black IN ({list}) OR white IN ({list})){year_clause}");
    let mut ids = conn.prepare(&format!("SELECT id FROM games WHERE {which}"))?;
    let games: Vec<u32> = ids
        .query_map([], |r| r.get::<_, i64>(0))?
        .map(|id| Ok(u32::try_from(id?).unwrap_or(0)))
        .collect::<Result<_, ArchiveError>>()?;
    if row.count <= games.len().saturating_mul(LIST_OVER_REPLAY) {
        let mut member =
            vec![0u64; games.iter().max().map_or(0, |&max| usize::try_from(max / 64).unwrap_or(0).saturating_add(1))];
        for &game in &games {
            if let Some(word) = member.get_mut(usize::try_from(game / 64).unwrap_or(usize::MAX)) {
                *word |= 1 << (game % 64);
            }
        }
        let has = |game: u32| {
            member
                .get(usize::try_from(game / 64).unwrap_or(usize::MAX))
                .is_some_and(|word| word & (1 << (game % 64)) != 0)
        };
        return Ok(read_all(conn, row.slot)?.into_iter().filter(|e| has(e.game)).collect());
    }
    let mut statement =
        conn.prepare(&format!("SELECT id, start, moves, year, black_diff, winner FROM games WHERE {which}"))?;
    let mut rows = statement.query([])?;
    let mut entries = Vec::new();
    while let Some(r) = rows.next()? {
        let id = u32::try_from(r.get::<_, i64>(0)?).unwrap_or(0);
        let start: Option<Vec<u8>> = r.get(1)?;
        let moves = store::decode_moves(&r.get::<_, Vec<u8>>(2)?)?;
        let start = store::decode_start(start.as_deref())?;
        if let Some((_, code)) = store::find_in_game(start, &moves, target) {
            let year = r.get::<_, Option<i64>>(3)?.and_then(|y| u16::try_from(y).ok());
            let diff = r.get::<_, Option<i64>>(4)?.and_then(|d| i32::try_from(d).ok());
            entries.push(store::entry(id, code, year, diff, store::winner_of_value(r.get(5)?)));
        }
    }
    entries.sort_by_key(|e| e.order());
    Ok(entries)
}

/// The lookup from a list of entries (already filtered by year and player, newest first).
fn finish_from_entries(
    conn: &Connection,
    target: &PositionKey,
    entries: &[Entry],
    filter: &Filter,
    game_limit: usize,
) -> Result<Lookup, ArchiveError> {
    let mut sums: BTreeMap<u8, Sums> = BTreeMap::new();
    for entry in entries {
        sums.entry(entry.mv).or_default().add_outcome(entry.outcome);
    }
    let games = summaries(conn, target, entries.iter().take(game_limit))?;
    Ok(Lookup { total_games: count(entries.len()), moves: move_stats(target, &sums, filter), games })
}

/// The lookup of a position of many games, from its aggregates.
fn aggregated(
    conn: &Connection,
    target: &PositionKey,
    row: &Row,
    years: Option<(u8, u8)>,
    filter: &Filter,
    game_limit: usize,
) -> Result<Lookup, ArchiveError> {
    let mut sums: BTreeMap<u8, Sums> = BTreeMap::new();
    let (mut before, mut inside) = (0u64, 0u64);
    let mut statement = conn.prepare_cached(
        "SELECT mv, year, games, black_wins, draws, white_wins, diff_sum, diff_games FROM position_moves WHERE key = ?1",
    )?;
    let mut rows = statement.query([as_i64(row.slot)])?;
    while let Some(r) = rows.next()? {
        let small = |i: usize| -> rusqlite::Result<u8> { Ok(u8::try_from(r.get::<_, i64>(i)?).unwrap_or(0)) };
        let big = |i: usize| -> rusqlite::Result<u64> { Ok(u64::try_from(r.get::<_, i64>(i)?).unwrap_or(0)) };
        let (mv, year) = (small(0)?, small(1)?);
        let s = Sums {
            games: big(2)?,
            black_wins: big(3)?,
            draws: big(4)?,
            white_wins: big(5)?,
            diff_sum: r.get(6)?,
            diff_games: big(7)?,
        };
        if in_years(year, years) {
            inside = inside.saturating_add(s.games);
            sums.entry(mv).or_default().add(&s);
        } else if years.is_some_and(|(_, hi)| year > hi) {
            before = before.saturating_add(s.games);
        }
    }
    let take = usize::try_from(inside).unwrap_or(usize::MAX).min(game_limit);
    let from = usize::try_from(before).unwrap_or(usize::MAX);
    let listed = if take == 0 { Vec::new() } else { read_range(conn, row.slot, from, take)? };
    let games = summaries(conn, target, listed.iter())?;
    Ok(Lookup {
        total_games: u32::try_from(inside).unwrap_or(u32::MAX),
        moves: move_stats(target, &sums, filter),
        games,
    })
}

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The move statistics, in the caller's orientation, most played first.
fn move_stats(target: &PositionKey, sums: &BTreeMap<u8, Sums>, filter: &Filter) -> Vec<MoveStats> {
    let mut moves: Vec<(u8, MoveStats)> = sums
        .iter()
        .filter(|&(&code, s)| code != END && s.games >= u64::from(filter.min_games))
        .filter_map(|(&code, s)| {
            let mut images = target.moves_of_code(code)?.into_iter();
            let mv = images.next()?;
            let mean = (s.diff_games > 0).then(|| {
                #[allow(clippy::cast_precision_loss, reason = "a mean for display")]
                let mean = s.diff_sum as f64 / s.diff_games as f64;
                #[allow(clippy::cast_possible_truncation, reason = "a disc difference fits an f32")]
                let mean = mean as f32;
                mean
            });
            let stats = MoveStats {
                mv,
                equivalent: images.collect(),
                games: u32::try_from(s.games).unwrap_or(u32::MAX),
                black_wins: u32::try_from(s.black_wins).unwrap_or(u32::MAX),
                draws: u32::try_from(s.draws).unwrap_or(u32::MAX),
                white_wins: u32::try_from(s.white_wins).unwrap_or(u32::MAX),
                mean_black_diff: mean,
            };
            Some((code, stats))
        })
        .collect();
    moves.sort_by(|(a_code, a), (b_code, b)| b.games.cmp(&a.games).then(a_code.cmp(b_code)));
    moves.into_iter().map(|(_, stats)| stats).collect()
}

/// The listed games, with their names and where they met the position.
fn summaries<'a>(
    conn: &Connection,
    target: &PositionKey,
    entries: impl Iterator<Item = &'a Entry>,
) -> Result<Vec<GameSummary>, ArchiveError> {
    let mut out = Vec::new();
    for entry in entries {
        let Some(game) = store::load_game(conn, entry.game)? else {
            return Err(store::corrupt(format!("game {} of a position list is missing", entry.game)));
        };
        let ply = store::find_in_game(game.start, &game.moves, target).map_or(0, |(ply, _)| ply);
        let next = target.moves_of_code(entry.mv).and_then(|moves| moves.into_iter().next());
        out.push(GameSummary {
            id: GameId(entry.game),
            black: game.black,
            white: game.white,
            tournament: game.tournament,
            year: game.year,
            black_diff: game.black_diff,
            winner: game.winner,
            ply,
            next,
        });
    }
    Ok(out)
}
