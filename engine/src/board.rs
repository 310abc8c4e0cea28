//! `Board`: the position as (side to move, opponent) bitboards, with the rules of play.

use std::fmt;

use crate::bitboard::{Bitboard, Symmetry};
use crate::flip::portable;
use crate::square::Square;
use crate::stability;

/// A move: a disc placed on a square, or a pass (only legal when the side to move has no square to play).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    /// Place a disc.
    Place(Square),
    /// Pass the turn.
    Pass,
}

impl Move {
    /// The square, if this is a placement.
    #[must_use]
    pub const fn square(self) -> Option<Square> {
        match self {
            Move::Place(sq) => Some(sq),
            Move::Pass => None,
        }
    }

    /// Edax's move index: `a1 = 0` … `h8 = 63`, pass = 64.
    #[must_use]
    pub const fn edax_index(self) -> u8 {
        match self {
            Move::Place(sq) => sq.index(),
            Move::Pass => 64,
        }
    }

    /// Egaroucid's move index: `h8 = 0` … `a1 = 63`, pass = 64.
    #[must_use]
    pub const fn egaroucid_index(self) -> u8 {
        match self {
            Move::Place(sq) => sq.egaroucid_index(),
            Move::Pass => 64,
        }
    }

    /// The move for an Edax index (`a1 = 0` … `h8 = 63`, 64 = pass), or `None` for anything else.
    #[must_use]
    pub const fn from_edax_index(index: u8) -> Option<Move> {
        if index == 64 {
            Some(Move::Pass)
        } else {
            match Square::new(index) {
                Some(sq) => Some(Move::Place(sq)),
                None => None,
            }
        }
    }

    /// The move for an Egaroucid index (`h8 = 0` … `a1 = 63`, 64 = pass), or `None` for anything else.
    #[must_use]
    pub const fn from_egaroucid_index(index: u8) -> Option<Move> {
        if index == 64 {
            Some(Move::Pass)
        } else {
            match Square::from_egaroucid_index(index) {
                Some(sq) => Some(Move::Place(sq)),
                None => None,
            }
        }
    }

    /// The image of the move under a symmetry (a pass stays a pass).
    #[must_use]
    pub const fn transform(self, symmetry: Symmetry) -> Move {
        match self {
            Move::Place(sq) => Move::Place(symmetry.apply_square(sq)),
            Move::Pass => Move::Pass,
        }
    }
}

/// Lower-case coordinate (`f5`) or `ps` for a pass.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Place(sq) => f.write_str(&sq.to_lowercase()),
            Move::Pass => f.write_str("ps"),
        }
    }
}

/// A disc colour; Black moves first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Color {
    /// The first player.
    Black,
    /// The second player.
    White,
}

impl Color {
    /// The other colour.
    #[must_use]
    pub const fn opposite(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    fn not(self) -> Color {
        self.opposite()
    }
}

/// A move that the rules do not allow here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    /// The square already holds a disc.
    #[error("{0} is occupied")]
    Occupied(Square),
    /// The square is empty but flips nothing.
    #[error("{0} flips no disc")]
    NoFlip(Square),
    /// A pass while a move exists.
    #[error("cannot pass: a move is available")]
    PassWithMoves,
    /// A move after the game has ended.
    #[error("the game is over")]
    GameOver,
}

/// A position seen from the side to move: `player` holds its discs, `opponent` the other side's.
///
/// The two sets are disjoint for every board made through this API. `Board` does not know which colour is to move;
/// [`crate::Position`] adds that.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Board {
    /// Discs of the side to move.
    pub player: Bitboard,
    /// Discs of the other side.
    pub opponent: Bitboard,
}

impl Board {
    /// The starting position, Black to move: Black on d5 and e4, White on d4 and e5.
    pub const INITIAL: Board =
        Board { player: Bitboard(0x0000_0008_1000_0000), opponent: Bitboard(0x0000_0010_0800_0000) };

    /// A board from raw bitboards, or `None` if they overlap.
    #[must_use]
    pub const fn new(player: u64, opponent: u64) -> Option<Board> {
        if player & opponent != 0 {
            None
        } else {
            Some(Board { player: Bitboard(player), opponent: Bitboard(opponent) })
        }
    }

    /// A board from raw bitboards that the caller knows to be disjoint (checked in debug builds).
    #[must_use]
    #[inline]
    pub const fn from_raw(player: u64, opponent: u64) -> Board {
        debug_assert!(player & opponent == 0);
        Board { player: Bitboard(player), opponent: Bitboard(opponent) }
    }

    /// Empty squares.
    #[must_use]
    #[inline]
    pub const fn empties(&self) -> Bitboard {
        Bitboard(!(self.player.0 | self.opponent.0))
    }

    /// Number of empty squares.
    #[must_use]
    #[inline]
    pub const fn empty_count(&self) -> u32 {
        64 - (self.player.0 | self.opponent.0).count_ones()
    }

    /// Squares where the side to move may play.
    #[must_use]
    #[inline]
    pub fn moves(&self) -> Bitboard {
        Bitboard(portable::moves(self.player.0, self.opponent.0))
    }

    /// Whether the side to move has a square to play.
    #[must_use]
    pub fn has_moves(&self) -> bool {
        self.moves().any()
    }

    /// The board after `plies` random plies from here, each move chosen by `pick(n)` (an index below `n`); a ply where
    /// the side to move has no move is a pass, and the playout stops where the game ends. For tests.
    #[cfg(test)]
    pub(crate) fn after_random_moves(mut self, plies: usize, mut pick: impl FnMut(usize) -> usize) -> Board {
        for _ in 0..plies {
            let moves: Vec<_> = self.moves().into_iter().collect();
            if moves.is_empty() {
                self = self.pass();
                if !self.has_moves() {
                    break;
                }
                continue;
            }
            let sq = moves[pick(moves.len())];
            self = self.play_unchecked(sq, self.flips(sq));
        }
        self
    }

    /// Whether neither side can move (the game is over).
    #[must_use]
    pub fn is_game_over(&self) -> bool {
        !self.has_moves() && !self.pass().has_moves()
    }

    /// Whether the side to move must pass (it has no move but the opponent has one).
    #[must_use]
    pub fn must_pass(&self) -> bool {
        !self.has_moves() && self.pass().has_moves()
    }

    /// Discs flipped by playing `square` (empty set if the move is illegal or the square occupied).
    #[must_use]
    pub fn flips(&self, square: Square) -> Bitboard {
        if self.empties().contains(square) {
            Bitboard(portable::flip(u32::from(square.index()), self.player.0, self.opponent.0))
        } else {
            Bitboard::EMPTY
        }
    }

    /// Whether `mv` is legal here.
    #[must_use]
    pub fn is_legal(&self, mv: Move) -> bool {
        match mv {
            Move::Place(sq) => self.moves().contains(sq),
            Move::Pass => self.must_pass(),
        }
    }

    /// The board after the side to move plays `mv`, seen from the new side to move.
    ///
    /// # Errors
    /// [`IllegalMove`] if the rules forbid the move.
    pub fn play(&self, mv: Move) -> Result<Board, IllegalMove> {
        match mv {
            Move::Place(sq) => {
                if !self.empties().contains(sq) {
                    return Err(IllegalMove::Occupied(sq));
                }
                let flips = self.flips(sq);
                if flips.is_empty() {
                    return Err(if self.is_game_over() { IllegalMove::GameOver } else { IllegalMove::NoFlip(sq) });
                }
                Ok(self.play_unchecked(sq, flips))
            }
            Move::Pass => {
                if self.has_moves() {
                    Err(IllegalMove::PassWithMoves)
                } else if !self.pass().has_moves() {
                    Err(IllegalMove::GameOver)
                } else {
                    Ok(self.pass())
                }
            }
        }
    }

    /// Plays `square` with the precomputed `flips`, without checking legality.
    ///
    /// The caller must pass the result of [`Board::flips`] for an empty square; otherwise the result is meaningless
    /// (but memory-safe).
    #[must_use]
    #[inline]
    pub const fn play_unchecked(&self, square: Square, flips: Bitboard) -> Board {
        Board {
            player: Bitboard(self.opponent.0 ^ flips.0),
            opponent: Bitboard(self.player.0 ^ flips.0 ^ square.bitboard().0),
        }
    }

    /// The board with the turn handed to the opponent.
    #[must_use]
    #[inline]
    pub const fn pass(&self) -> Board {
        Board { player: self.opponent, opponent: self.player }
    }

    /// (discs of the side to move, discs of the opponent).
    #[must_use]
    pub const fn disc_counts(&self) -> (u32, u32) {
        (self.player.count(), self.opponent.count())
    }

    /// Final score for the side to move under the usual rule: the disc difference, with the empty squares given to
    /// the winner (none to either side on a draw).
    #[must_use]
    pub const fn final_score(&self) -> i32 {
        let p = self.player.count() as i32;
        let o = self.opponent.count() as i32;
        let e = 64 - p - o;
        let diff = p - o;
        if diff > 0 {
            diff + e
        } else if diff < 0 {
            diff - e
        } else {
            0
        }
    }

    /// The board transformed by a symmetry.
    #[must_use]
    pub const fn transform(&self, symmetry: Symmetry) -> Board {
        Board { player: self.player.transform(symmetry), opponent: self.opponent.transform(symmetry) }
    }

    /// The canonical representative of the board's symmetry class, as opening books key positions, and the symmetry
    /// that maps `self` onto it.
    ///
    /// The order is Egaroucid's: boards are compared as (player, opponent) in its bit order (a1 = bit 63, so our
    /// bitboards reversed), and the smallest wins. Ties (symmetric boards) resolve to the first symmetry in
    /// [`Symmetry::ALL`].
    #[must_use]
    pub fn canonical(&self) -> (Board, Symmetry) {
        let mut best = (*self, Symmetry::Identity);
        let mut best_key = self.egaroucid_key();
        for symmetry in Symmetry::ALL.into_iter().skip(1) {
            let image = self.transform(symmetry);
            let key = image.egaroucid_key();
            if key < best_key {
                best = (image, symmetry);
                best_key = key;
            }
        }
        best
    }

    /// (player, opponent) in Egaroucid's bit order (a1 = bit 63 … h8 = bit 0).
    #[must_use]
    pub const fn egaroucid_key(&self) -> (u64, u64) {
        (self.player.0.reverse_bits(), self.opponent.0.reverse_bits())
    }

    /// A 64-bit hash of the position (player and opponent), well mixed in every bit.
    #[must_use]
    #[inline]
    pub const fn hash(&self) -> u64 {
        hash_pair(self.player.0, self.opponent.0)
    }

    /// Discs that can never be flipped again, of both colours.
    #[must_use]
    pub fn stable_discs(&self) -> Bitboard {
        Bitboard(
            stability::stable_discs(self.player.0, self.opponent.0)
                | stability::stable_discs(self.opponent.0, self.player.0),
        )
    }
}

/// Mixes two bitboards into a 64-bit hash (multiply–xorshift, the finaliser of a well-known 64-bit mixer).
#[must_use]
#[inline]
pub const fn hash_pair(p: u64, o: u64) -> u64 {
    let mut h = p.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ o.rotate_left(29).wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
    h ^= h >> 32;
    h = h.wrapping_mul(0xd6e8_feb8_6659_fd93);
    h ^ (h >> 32)
}

impl Default for Board {
    fn default() -> Board {
        Board::INITIAL
    }
}

/// Eight rows of `X` (side to move), `O` (opponent), `-` (empty), row 1 first.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in 0..8 {
            for column in 0..8 {
                let bit = 1u64 << (row * 8 + column);
                let c = if self.player.0 & bit != 0 {
                    'X'
                } else if self.opponent.0 & bit != 0 {
                    'O'
                } else {
                    '-'
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({:#018x}, {:#018x})", self.player.0, self.opponent.0)
    }
}

#[cfg(test)]
mod tests;
