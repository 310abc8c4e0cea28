//! Games in the `games` table: how their moves, start and results are stored, and reading them back.
//!
//! `moves` holds one byte per move (square 0-63 with a1 = 0, 64 = pass). `start` is NULL for the standard start,
//! else 17 bytes: Black's discs (u64 little-endian), White's discs (u64 little-endian), the colour to move (0 Black,
//! 1 White). `winner` is 1 (Black), 0 (draw), −1 (White) or NULL.

use std::collections::HashMap;

use rusqlite::{Connection, OptionalExtension, Row};

use crate::board::{Color, Move};
use crate::format::Winner;
use crate::position::Position;
use crate::square::Square;

use super::error::ArchiveError;
use super::key::{self, END, Entry, PositionKey};
use super::types::{ArchivedGame, GameId};

/// The byte of a move.
#[must_use]
pub(crate) fn move_byte(mv: Move) -> u8 {
    match mv {
        Move::Place(square) => square.index(),
        Move::Pass => key::PASS,
    }
}

/// The moves of a `moves` blob.
///
/// # Errors
/// [`ArchiveError::Corrupt`] for a byte that is no move.
pub(crate) fn decode_moves(bytes: &[u8]) -> Result<Vec<Move>, ArchiveError> {
    bytes
        .iter()
        .map(|&byte| match byte {
            key::PASS => Ok(Move::Pass),
            _ => Square::new(byte).map(Move::Place).ok_or_else(|| corrupt(format!("bad move byte {byte}"))),
        })
        .collect()
}

/// The `start` blob of a position (`None` for the standard start).
#[must_use]
pub(crate) fn encode_start(start: &Position) -> Option<Vec<u8>> {
    if *start == Position::INITIAL {
        return None;
    }
    let mut bytes = Vec::with_capacity(17);
    bytes.extend_from_slice(&start.black().0.to_le_bytes());
    bytes.extend_from_slice(&start.white().0.to_le_bytes());
    bytes.push(u8::from(start.side_to_move == Color::White));
    Some(bytes)
}

/// The position of a `start` blob.
///
/// # Errors
/// [`ArchiveError::Corrupt`] for a blob that is no position.
pub(crate) fn decode_start(bytes: Option<&[u8]>) -> Result<Position, ArchiveError> {
    let Some(bytes) = bytes else { return Ok(Position::INITIAL) };
    let word = |range: std::ops::Range<usize>| {
        bytes.get(range).and_then(|b| <[u8; 8]>::try_from(b).ok()).map(u64::from_le_bytes)
    };
    let (Some(black), Some(white), Some(&side), 17) = (word(0..8), word(8..16), bytes.get(16), bytes.len()) else {
        return Err(corrupt("bad start position".to_owned()));
    };
    let side = if side == 0 { Color::Black } else { Color::White };
    Position::from_colors(black, white, side).ok_or_else(|| corrupt("overlapping start position".to_owned()))
}

/// The `winner` column of a winner.
#[must_use]
pub(crate) fn winner_value(winner: Option<Winner>) -> Option<i64> {
    winner.map(|w| match w {
        Winner::Black => 1,
        Winner::Draw => 0,
        Winner::White => -1,
    })
}

/// The winner of a `winner` column.
#[must_use]
pub(crate) fn winner_of_value(value: Option<i64>) -> Option<Winner> {
    value.map(|v| Winner::from_black_diff(i32::try_from(v).unwrap_or(0)))
}

pub(crate) fn corrupt(message: String) -> ArchiveError {
    ArchiveError::Corrupt(message)
}

/// The columns [`archived_game`] reads, joined with the names.
pub(crate) const GAME_SELECT: &str = "SELECT g.id, pb.name, pw.name, t.name, g.year, g.black_diff, g.winner, \
    g.recorded_black_discs, g.theoretical_black_discs, s.name, g.start, g.moves FROM games g \
    LEFT JOIN players pb ON pb.id = g.black LEFT JOIN players pw ON pw.id = g.white \
    LEFT JOIN tournaments t ON t.id = g.tournament LEFT JOIN sources s ON s.id = g.source WHERE g.id = ?1";

/// A game read with [`GAME_SELECT`].
///
/// # Errors
/// [`ArchiveError`] for a bad row.
pub(crate) fn archived_game(row: &Row<'_>) -> Result<ArchivedGame, ArchiveError> {
    let small = |v: Option<i64>| v.and_then(|v| u8::try_from(v).ok());
    let start: Option<Vec<u8>> = row.get(10)?;
    let moves: Vec<u8> = row.get(11)?;
    Ok(ArchivedGame {
        id: GameId(u32::try_from(row.get::<_, i64>(0)?).map_err(|_| corrupt("bad game id".to_owned()))?),
        black: row.get(1)?,
        white: row.get(2)?,
        tournament: row.get(3)?,
        year: row.get::<_, Option<i64>>(4)?.and_then(|y| u16::try_from(y).ok()),
        black_diff: row.get::<_, Option<i64>>(5)?.and_then(|d| i32::try_from(d).ok()),
        winner: winner_of_value(row.get(6)?),
        recorded_black_discs: small(row.get(7)?),
        theoretical_black_discs: small(row.get(8)?),
        source: row.get::<_, Option<String>>(9)?.unwrap_or_default(),
        start: decode_start(start.as_deref())?,
        moves: decode_moves(&moves)?,
    })
}

/// A game by id.
///
/// # Errors
/// [`ArchiveError`] for a database error or a bad row.
pub(crate) fn load_game(conn: &Connection, id: u32) -> Result<Option<ArchivedGame>, ArchiveError> {
    let mut statement = conn.prepare_cached(GAME_SELECT)?;
    let mut rows = statement.query([i64::from(id)])?;
    match rows.next()? {
        Some(row) => archived_game(row).map(Some),
        None => Ok(None),
    }
}

/// Where a game passes through a position: the number of moves played before it, and the next move's code in the
/// canonical orientation ([`END`] when the game ended there).
pub(crate) fn find_in_game(start: Position, moves: &[Move], target: &PositionKey) -> Option<(u16, u8)> {
    let discs = target.canonical.player.count().saturating_add(target.canonical.opponent.count());
    let mut position = start;
    for ply in 0..=moves.len() {
        let count = position.board.player.count().saturating_add(position.board.opponent.count());
        if count > discs {
            return None;
        }
        let next = moves.get(ply).copied();
        if count == discs && position.side_to_move == target.color {
            let here = PositionKey::of(&position);
            if here.same_position(target) {
                let code = next.map_or(END, |mv| here.canonical_move(mv));
                return Some((u16::try_from(ply).unwrap_or(u16::MAX), code));
            }
        }
        position = position.play(next?).ok()?;
    }
    None
}

/// Whether a game passes through the position named by (`key`, `check`) (used to tell colliding keys apart).
pub(crate) fn game_has_key(start: Position, moves: &[Move], key: u64, check: u16) -> bool {
    let mut position = start;
    for ply in 0..=moves.len() {
        let here = PositionKey::of(&position);
        if here.key == key && here.check == check {
            return true;
        }
        match moves.get(ply).map(|&mv| position.play(mv)) {
            Some(Ok(next)) => position = next,
            _ => return false,
        }
    }
    false
}

/// A game's start and moves.
///
/// # Errors
/// [`ArchiveError`] for a database error, a missing game or a bad row.
pub(crate) fn game_moves(conn: &Connection, id: u32) -> Result<(Position, Vec<Move>), ArchiveError> {
    let mut statement = conn.prepare_cached("SELECT start, moves FROM games WHERE id = ?1")?;
    let row: Option<(Option<Vec<u8>>, Vec<u8>)> =
        statement.query_row([i64::from(id)], |row| Ok((row.get(0)?, row.get(1)?))).optional()?;
    let (start, moves) = row.ok_or_else(|| corrupt(format!("game {id} of a position list is missing")))?;
    Ok((decode_start(start.as_deref())?, decode_moves(&moves)?))
}

/// The posting entry of a game through a position: its id, the move code and its year and outcome.
#[must_use]
pub(crate) fn entry(id: u32, code: u8, year: Option<u16>, black_diff: Option<i32>, winner: Option<Winner>) -> Entry {
    Entry { game: id, mv: code, year: key::year_code(year), outcome: key::outcome_code(black_diff, winner) }
}

/// Ids of names (players, tournaments or sources), added as they are first met.
#[derive(Debug)]
pub(crate) struct Names {
    table: &'static str,
    ids: HashMap<String, i64>,
}

impl Names {
    /// The names of a table: `players`, `tournaments` or `sources`.
    #[must_use]
    pub fn new(table: &'static str) -> Names {
        Names { table, ids: HashMap::new() }
    }

    /// The id of a name, added to the table if it is new.
    ///
    /// # Errors
    /// [`ArchiveError::Database`].
    pub fn id(&mut self, conn: &Connection, name: &str) -> Result<i64, ArchiveError> {
        if let Some(&id) = self.ids.get(name) {
            return Ok(id);
        }
        let select = format!("SELECT id FROM {} WHERE name = ?1", self.table);
        let found: Option<i64> = conn.prepare_cached(&select)?.query_row([name], |row| row.get(0)).optional()?;
        let id = match found {
            Some(id) => id,
            None => {
                let insert = format!("INSERT INTO {} (name) VALUES (?1)", self.table);
                let _added = conn.prepare_cached(&insert)?.execute([name])?;
                conn.last_insert_rowid()
            }
        };
        let _old = self.ids.insert(name.to_owned(), id);
        Ok(id)
    }
}
