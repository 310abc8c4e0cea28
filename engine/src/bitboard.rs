//! `Bitboard`: a set of squares packed in a `u64`, plus the raw bit-twiddling helpers the engine is built on.
//!
//! Bit `i` is the square with index `i` (see [`crate::square`]): bit 0 = a1, bit 7 = h1, bit 56 = a8, bit 63 = h8.
//!
//! ```text
//!    a  b  c  d  e  f  g  h
//! 1  0  1  2  3  4  5  6  7
//! 2  8  9 10 11 12 13 14 15
//! …
//! 8 56 57 58 59 60 61 62 63
//! ```

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use crate::square::Square;

/// A set of squares.
///
/// ```
/// use shirokuro_engine::{Bitboard, Square};
/// let corners = Bitboard::CORNERS;
/// assert!(corners.contains(Square::H8));
/// assert_eq!(corners.count(), 4);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[repr(transparent)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// Every square.
    pub const FULL: Bitboard = Bitboard(u64::MAX);
    /// a1, h1, a8, h8.
    pub const CORNERS: Bitboard = Bitboard(0x8100_0000_0000_0081);

    /// Whether `square` is in the set.
    #[must_use]
    #[inline]
    pub const fn contains(self, square: Square) -> bool {
        self.0 >> square.index() & 1 != 0
    }

    /// The set with `square` added.
    #[must_use]
    #[inline]
    pub const fn with(self, square: Square) -> Bitboard {
        Bitboard(self.0 | 1 << square.index())
    }

    /// The set with `square` removed.
    #[must_use]
    #[inline]
    pub const fn without(self, square: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << square.index()))
    }

    /// Number of squares in the set.
    #[must_use]
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[must_use]
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set has at least one square.
    #[must_use]
    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// The lowest-index square of the set, if any.
    #[must_use]
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 { None } else { Square::new(self.0.trailing_zeros() as u8) }
    }

    /// The image of this set under `symmetry`.
    #[must_use]
    #[inline]
    pub const fn transform(self, symmetry: Symmetry) -> Bitboard {
        Bitboard(symmetry.apply(self.0))
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bitboard({:#018x})", self.0)
    }
}

/// Eight rows of `.`/`X`, row 1 first.
impl fmt::Display for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in 0..8 {
            for column in 0..8 {
                let bit = self.0 >> (row * 8 + column) & 1;
                f.write_str(if bit != 0 { "X" } else { "." })?;
            }
            f.write_str("\n")?;
        }
        Ok(())
    }
}

macro_rules! bit_op {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign_method:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $method(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $assign_trait for Bitboard {
            #[inline]
            fn $assign_method(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

/// Squares know their bitboard here, so that `square` does not depend on `bitboard` (one direction only).
impl Square {
    /// The one-square bitboard of this square.
    #[must_use]
    #[inline]
    pub const fn bitboard(self) -> Bitboard {
        Bitboard(1u64 << self as u8)
    }
}

impl From<Square> for Bitboard {
    fn from(square: Square) -> Bitboard {
        square.bitboard()
    }
}

/// Iterates over the squares of a set, lowest index first.
#[derive(Debug, Clone)]
pub struct Squares(u64);

impl Iterator for Squares {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Square::new(index)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Squares {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = Squares;
    fn into_iter(self) -> Squares {
        Squares(self.0)
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

/// One of the eight symmetries of the square board (the dihedral group of order 8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// Leaves the board as it is.
    Identity,
    /// Mirror left–right (a ↔ h).
    MirrorHorizontal,
    /// Mirror top–bottom (row 1 ↔ row 8).
    MirrorVertical,
    /// Rotate 180°.
    Rotate180,
    /// Mirror in the a1–h8 diagonal.
    MirrorDiagonal,
    /// Mirror in the h1–a8 anti-diagonal.
    MirrorAntiDiagonal,
    /// Rotate 90° clockwise.
    Rotate90,
    /// Rotate 90° counter-clockwise.
    Rotate270,
}

impl Symmetry {
    /// All eight symmetries, identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::MirrorHorizontal,
        Symmetry::MirrorVertical,
        Symmetry::Rotate180,
        Symmetry::MirrorDiagonal,
        Symmetry::MirrorAntiDiagonal,
        Symmetry::Rotate90,
        Symmetry::Rotate270,
    ];

    /// Applies the symmetry to a raw bitboard.
    #[must_use]
    #[inline]
    pub const fn apply(self, bits: u64) -> u64 {
        match self {
            Symmetry::Identity => bits,
            Symmetry::MirrorHorizontal => mirror_horizontal(bits),
            Symmetry::MirrorVertical => bits.swap_bytes(),
            Symmetry::Rotate180 => bits.reverse_bits(),
            Symmetry::MirrorDiagonal => mirror_diagonal(bits),
            Symmetry::MirrorAntiDiagonal => mirror_diagonal(bits).reverse_bits(),
            Symmetry::Rotate90 => mirror_horizontal(mirror_diagonal(bits)),
            Symmetry::Rotate270 => mirror_diagonal(bits).swap_bytes(),
        }
    }

    /// The symmetry that undoes this one.
    #[must_use]
    pub const fn inverse(self) -> Symmetry {
        match self {
            Symmetry::Rotate90 => Symmetry::Rotate270,
            Symmetry::Rotate270 => Symmetry::Rotate90,
            other => other,
        }
    }

    /// The image of a square.
    #[must_use]
    #[inline]
    pub const fn apply_square(self, square: Square) -> Square {
        Square::from_index(self.apply(1u64 << square.index()).trailing_zeros() as u8)
    }
}

/// Reverses the bit order inside each byte: column a ↔ h.
#[must_use]
#[inline]
pub const fn mirror_horizontal(mut x: u64) -> u64 {
    x = (x >> 1) & 0x5555_5555_5555_5555 | (x & 0x5555_5555_5555_5555) << 1;
    x = (x >> 2) & 0x3333_3333_3333_3333 | (x & 0x3333_3333_3333_3333) << 2;
    (x >> 4) & 0x0f0f_0f0f_0f0f_0f0f | (x & 0x0f0f_0f0f_0f0f_0f0f) << 4
}

/// Transposes the board: the square (column c, row r) goes to (column r, row c); a1 and h8 stay.
#[must_use]
#[inline]
pub const fn mirror_diagonal(mut x: u64) -> u64 {
    // Three delta swaps: 1×1 blocks inside 2×2, then 2×2 inside 4×4, then 4×4 quadrants.
    let mut t = (x ^ (x >> 7)) & 0x00aa_00aa_00aa_00aa;
    x ^= t ^ (t << 7);
    t = (x ^ (x >> 14)) & 0x0000_cccc_0000_cccc;
    x ^= t ^ (t << 14);
    t = (x ^ (x >> 28)) & 0x0000_0000_f0f0_f0f0;
    x ^ t ^ (t << 28)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive(symmetry: Symmetry, square: Square) -> Square {
        let (c, r) = (square.column(), square.row());
        let (c2, r2) = match symmetry {
            Symmetry::Identity => (c, r),
            Symmetry::MirrorHorizontal => (7 - c, r),
            Symmetry::MirrorVertical => (c, 7 - r),
            Symmetry::Rotate180 => (7 - c, 7 - r),
            Symmetry::MirrorDiagonal => (r, c),
            Symmetry::MirrorAntiDiagonal => (7 - r, 7 - c),
            // Row 1 is the top: turning clockwise sends the top-left corner a1 to the top-right corner h1.
            Symmetry::Rotate90 => (7 - r, c),
            Symmetry::Rotate270 => (r, 7 - c),
        };
        Square::from_coords(c2, r2).unwrap()
    }

    #[test]
    fn symmetries_match_coordinates() {
        for symmetry in Symmetry::ALL {
            for square in Square::ALL {
                assert_eq!(symmetry.apply_square(square), naive(symmetry, square), "{symmetry:?} {square}");
                let back = symmetry.inverse().apply_square(symmetry.apply_square(square));
                assert_eq!(back, square);
            }
        }
    }

    #[test]
    fn iteration() {
        let set: Bitboard = [Square::A1, Square::D4, Square::H8].into_iter().collect();
        assert_eq!(set.count(), 3);
        assert_eq!(set.into_iter().collect::<Vec<_>>(), vec![Square::A1, Square::D4, Square::H8]);
        assert_eq!(set.first(), Some(Square::A1));
        assert!(!set.without(Square::A1).contains(Square::A1));
    }
}
