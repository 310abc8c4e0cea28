//! Position keys and posting entries: how a position of a game is named in the archive, whatever its orientation.
//!
//! A position is folded over the 8 symmetries of the board: its canonical image ([`Board::canonical`]'s order) and
//! the colour to move name it. Its row key is a 63-bit hash of that (non-negative, so SQLite's signed rowid order is
//! the hash order); a second, independent 16-bit hash (the *check*) tells apart the rare positions whose keys collide,
//! and those are moved to the next free key (see [`super::write`]).
//!
//! A move is stored in the canonical orientation. When the position is symmetric in itself, the moves that its own
//! symmetries exchange are one move there: the smallest square index among them is stored.
//!
//! # Posting entry (7 bytes, one per game through the position)
//!
//! | offset | size | type | meaning |
//! |---|---|---|---|
//! | 0 | 4 | u32 little-endian | game id |
//! | 4 | 1 | u8 | next move in the canonical orientation: square 0-63 (a1 = 0), 64 = pass, 255 = the game ended here |
//! | 5 | 1 | u8 | year − 1900 (1-255), 0 = unknown |
//! | 6 | 1 | u8 | outcome: Black's final disc difference + 64 (0-128) for a finished game; 129/130/131 = Black won / draw / White won as recorded for a game that stopped early; 255 = unknown |
//!
//! Entries are sorted newest first: by year descending (unknown years last), then by game id descending.

use crate::bitboard::Symmetry;
use crate::board::{Board, Color, Move};
use crate::format::Winner;
use crate::position::Position;
use crate::square::Square;

/// Size of one posting entry.
pub(crate) const ENTRY_SIZE: usize = 7;
/// Move code of a pass.
pub(crate) const PASS: u8 = 64;
/// Move code of "the game ended in this position".
pub(crate) const END: u8 = 255;
/// Outcome code of an unknown result.
pub(crate) const UNKNOWN: u8 = 255;

const KEY_MASK: u64 = u64::MAX >> 1;
const WHITE_SALT: u64 = 0x5851_f42d_4c95_7f2d;
const CHECK_SALT: u64 = 0x2545_f491_4f6c_dd1d;

/// A position's name in the archive, with what is needed to map moves in and out of its canonical orientation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PositionKey {
    /// 63-bit hash of the canonical board and the colour to move (the natural row key).
    pub key: u64,
    /// Independent 16-bit hash that tells colliding positions apart.
    pub check: u16,
    /// The canonical board.
    pub canonical: Board,
    /// The colour to move.
    pub color: Color,
    /// The symmetries (bits by index in [`Symmetry::ALL`]) that map the position onto its canonical board.
    pub onto: u8,
}

impl PositionKey {
    /// The key of a position.
    #[must_use]
    pub fn of(position: &Position) -> PositionKey {
        let board = position.board;
        let mut best = board;
        let mut best_order = board.egaroucid_key();
        let mut onto = 1u8;
        for (index, symmetry) in Symmetry::ALL.into_iter().enumerate().skip(1) {
            let image = board.transform(symmetry);
            let order = image.egaroucid_key();
            let bit = 1u8 << index;
            if order < best_order {
                best = image;
                best_order = order;
                onto = bit;
            } else if order == best_order {
                onto |= bit;
            }
        }
        let (player, opponent) = (best.player.0, best.opponent.0);
        let salt = match position.side_to_move {
            Color::Black => 0,
            Color::White => WHITE_SALT,
        };
        let key = (crate::board::hash_pair(player, opponent) ^ salt) & KEY_MASK;
        let check = crate::board::hash_pair(opponent ^ CHECK_SALT, player.rotate_left(23) ^ salt) >> 48;
        PositionKey {
            key,
            check: u16::try_from(check).unwrap_or(0),
            canonical: best,
            color: position.side_to_move,
            onto,
        }
    }

    /// Whether two keys name the same position (exactly: the canonical boards and colours are compared).
    #[must_use]
    pub fn same_position(&self, other: &PositionKey) -> bool {
        self.canonical == other.canonical && self.color == other.color
    }

    /// The symmetries mapping the position onto its canonical board.
    fn symmetries(&self) -> impl Iterator<Item = Symmetry> + '_ {
        Symmetry::ALL.into_iter().enumerate().filter(|(index, _)| self.onto & (1 << index) != 0).map(|(_, s)| s)
    }

    /// The code of a move played from this position, in the canonical orientation (the smallest of the equivalent
    /// squares when the position is symmetric in itself).
    #[must_use]
    pub fn canonical_move(&self, mv: Move) -> u8 {
        match mv {
            Move::Pass => PASS,
            Move::Place(square) => {
                self.symmetries().map(|s| s.apply_square(square).index()).min().unwrap_or(square.index())
            }
        }
    }

    /// The moves in this position's orientation that a stored move code stands for: the first is the image through
    /// the first symmetry onto the canonical board, the rest the other squares equivalent to it (empty unless the
    /// position is symmetric in itself). `None` for [`END`] and bad codes.
    #[must_use]
    pub fn moves_of_code(&self, code: u8) -> Option<Vec<Move>> {
        if code == PASS {
            return Some(vec![Move::Pass]);
        }
        let square = Square::new(code)?;
        let mut moves: Vec<Move> = Vec::with_capacity(1);
        for symmetry in self.symmetries() {
            let mv = Move::Place(symmetry.inverse().apply_square(square));
            if !moves.contains(&mv) {
                moves.push(mv);
            }
        }
        Some(moves)
    }
}

/// One game through a position, as stored in a posting list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Entry {
    /// The game's id.
    pub game: u32,
    /// The next move's code (canonical orientation, [`PASS`], or [`END`]).
    pub mv: u8,
    /// Year − 1900, 0 = unknown.
    pub year: u8,
    /// The outcome code.
    pub outcome: u8,
}

impl Entry {
    /// The 7 stored bytes.
    #[must_use]
    pub fn to_bytes(self) -> [u8; ENTRY_SIZE] {
        let [a, b, c, d] = self.game.to_le_bytes();
        [a, b, c, d, self.mv, self.year, self.outcome]
    }

    /// An entry from its 7 stored bytes.
    #[must_use]
    pub fn from_bytes(bytes: [u8; ENTRY_SIZE]) -> Entry {
        let [a, b, c, d, mv, year, outcome] = bytes;
        Entry { game: u32::from_le_bytes([a, b, c, d]), mv, year, outcome }
    }

    /// The sort order of posting lists: newest first (year descending, unknown last, then id descending).
    #[must_use]
    pub fn order(self) -> (u8, u32) {
        (year_rank(self.year), u32::MAX.saturating_sub(self.game))
    }
}

/// Decodes a whole posting blob (a trailing partial entry is ignored).
#[must_use]
pub(crate) fn decode(blob: &[u8]) -> Vec<Entry> {
    blob.chunks_exact(ENTRY_SIZE)
        .filter_map(|chunk| <[u8; ENTRY_SIZE]>::try_from(chunk).ok())
        .map(Entry::from_bytes)
        .collect()
}

/// Rank of a year code in the newest-first order (0 first).
#[must_use]
pub(crate) const fn year_rank(code: u8) -> u8 {
    if code == 0 { u8::MAX } else { u8::MAX - code }
}

/// The year code of a year (0 for unknown or outside 1901-2155).
#[must_use]
pub(crate) fn year_code(year: Option<u16>) -> u8 {
    year.and_then(|y| y.checked_sub(1900)).and_then(|y| u8::try_from(y).ok()).unwrap_or(0)
}

/// The outcome code of a game: its final difference when it finished, else the recorded winner.
#[must_use]
pub(crate) fn outcome_code(black_diff: Option<i32>, winner: Option<Winner>) -> u8 {
    match (black_diff, winner) {
        (Some(diff), _) => u8::try_from(diff.clamp(-64, 64).saturating_add(64)).unwrap_or(UNKNOWN),
        (None, Some(Winner::Black)) => 129,
        (None, Some(Winner::Draw)) => 130,
        (None, Some(Winner::White)) => 131,
        (None, None) => UNKNOWN,
    }
}

/// Black's final difference and the winner of an outcome code.
#[must_use]
pub(crate) fn outcome_of_code(code: u8) -> (Option<i32>, Option<Winner>) {
    match code {
        0..=128 => {
            let diff = i32::from(code).saturating_sub(64);
            (Some(diff), Some(Winner::from_black_diff(diff)))
        }
        129 => (None, Some(Winner::Black)),
        130 => (None, Some(Winner::Draw)),
        131 => (None, Some(Winner::White)),
        _ => (None, None),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing, reason = "tests")]
mod tests {
    use super::*;

    #[test]
    fn symmetric_positions_share_a_key_and_fold_their_moves() {
        let after_f5 = Position::INITIAL.play(Move::Place(Square::F5)).unwrap();
        let after_c4 = Position::INITIAL.play(Move::Place(Square::C4)).unwrap();
        let (a, b) = (PositionKey::of(&after_f5), PositionKey::of(&after_c4));
        assert_eq!((a.key, a.check), (b.key, b.check));
        assert!(a.same_position(&b));
        // f6 after f5 is c3 after c4 (rotation by 180 degrees).
        assert_eq!(a.canonical_move(Move::Place(Square::F6)), b.canonical_move(Move::Place(Square::C3)));
        let code = a.canonical_move(Move::Place(Square::F6));
        assert_eq!(b.moves_of_code(code), Some(vec![Move::Place(Square::C3)]));
        // The four first moves are one move in the initial position, which is symmetric in itself.
        let start = PositionKey::of(&Position::INITIAL);
        let codes: Vec<u8> =
            [Square::F5, Square::E6, Square::D3, Square::C4].map(|s| start.canonical_move(Move::Place(s))).to_vec();
        assert!(codes.iter().all(|&c| c == codes[0]));
        assert_eq!(start.moves_of_code(codes[0]).unwrap().len(), 4);
    }

    #[test]
    fn entries_round_trip_and_sort_newest_first() {
        let entry = Entry { game: 70_000, mv: 37, year: year_code(Some(2024)), outcome: outcome_code(Some(-6), None) };
        assert_eq!(Entry::from_bytes(entry.to_bytes()), entry);
        assert_eq!(entry.year, 124);
        assert_eq!(outcome_of_code(entry.outcome), (Some(-6), Some(Winner::White)));
        let old = Entry { year: year_code(Some(1990)), ..entry };
        let unknown = Entry { year: 0, game: 90_000, ..entry };
        let newer_id = Entry { game: 70_001, ..entry };
        let mut list = vec![unknown, old, entry, newer_id];
        list.sort_by_key(|e| e.order());
        assert_eq!(list, vec![newer_id, entry, old, unknown]);
    }
}
