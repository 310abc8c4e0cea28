//! Squares of the 8×8 board and their notations.
//!
//! Our bit order is row-major from a1: `a1 = 0`, `b1 = 1`, …, `h1 = 7`, `a2 = 8`, …, `h8 = 63` — the order Edax uses
//! for its move indices. Egaroucid numbers cells the other way round (`h8 = 0`, …, `a1 = 63`); see
//! [`Square::from_egaroucid_index`] and [`Square::egaroucid_index`].

use std::fmt;
use std::str::FromStr;

/// One of the 64 squares, named by column (`A`–`H`, left to right) and row (`1`–`8`, top to bottom).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum Square {
    A1 = 0,
    B1 = 1,
    C1 = 2,
    D1 = 3,
    E1 = 4,
    F1 = 5,
    G1 = 6,
    H1 = 7,
    A2 = 8,
    B2 = 9,
    C2 = 10,
    D2 = 11,
    E2 = 12,
    F2 = 13,
    G2 = 14,
    H2 = 15,
    A3 = 16,
    B3 = 17,
    C3 = 18,
    D3 = 19,
    E3 = 20,
    F3 = 21,
    G3 = 22,
    H3 = 23,
    A4 = 24,
    B4 = 25,
    C4 = 26,
    D4 = 27,
    E4 = 28,
    F4 = 29,
    G4 = 30,
    H4 = 31,
    A5 = 32,
    B5 = 33,
    C5 = 34,
    D5 = 35,
    E5 = 36,
    F5 = 37,
    G5 = 38,
    H5 = 39,
    A6 = 40,
    B6 = 41,
    C6 = 42,
    D6 = 43,
    E6 = 44,
    F6 = 45,
    G6 = 46,
    H6 = 47,
    A7 = 48,
    B7 = 49,
    C7 = 50,
    D7 = 51,
    E7 = 52,
    F7 = 53,
    G7 = 54,
    H7 = 55,
    A8 = 56,
    B8 = 57,
    C8 = 58,
    D8 = 59,
    E8 = 60,
    F8 = 61,
    G8 = 62,
    H8 = 63,
}

impl Square {
    /// All squares in index order (a1, b1, …, h8).
    pub const ALL: [Square; 64] = [
        Square::A1,
        Square::B1,
        Square::C1,
        Square::D1,
        Square::E1,
        Square::F1,
        Square::G1,
        Square::H1,
        Square::A2,
        Square::B2,
        Square::C2,
        Square::D2,
        Square::E2,
        Square::F2,
        Square::G2,
        Square::H2,
        Square::A3,
        Square::B3,
        Square::C3,
        Square::D3,
        Square::E3,
        Square::F3,
        Square::G3,
        Square::H3,
        Square::A4,
        Square::B4,
        Square::C4,
        Square::D4,
        Square::E4,
        Square::F4,
        Square::G4,
        Square::H4,
        Square::A5,
        Square::B5,
        Square::C5,
        Square::D5,
        Square::E5,
        Square::F5,
        Square::G5,
        Square::H5,
        Square::A6,
        Square::B6,
        Square::C6,
        Square::D6,
        Square::E6,
        Square::F6,
        Square::G6,
        Square::H6,
        Square::A7,
        Square::B7,
        Square::C7,
        Square::D7,
        Square::E7,
        Square::F7,
        Square::G7,
        Square::H7,
        Square::A8,
        Square::B8,
        Square::C8,
        Square::D8,
        Square::E8,
        Square::F8,
        Square::G8,
        Square::H8,
    ];

    /// The square with the given index (`a1 = 0` … `h8 = 63`), or `None` if `index > 63`.
    #[must_use]
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 { Some(Self::ALL[index as usize]) } else { None }
    }

    /// The square with the given index, which must be below 64.
    ///
    /// # Panics
    /// Panics if `index > 63` (a caller bug, never input data).
    #[must_use]
    #[track_caller]
    #[inline]
    pub const fn from_index(index: u8) -> Square {
        Self::ALL[index as usize]
    }

    /// The square at `column` (0 = a) and `row` (0 = row 1), or `None` outside the board.
    #[must_use]
    pub const fn from_coords(column: u8, row: u8) -> Option<Square> {
        if column < 8 && row < 8 { Some(Self::ALL[(row * 8 + column) as usize]) } else { None }
    }

    /// The square's index: `a1 = 0`, `h1 = 7`, `h8 = 63` (Edax's move index).
    #[must_use]
    #[inline]
    pub const fn index(self) -> u8 {
        self as u8
    }

    /// Column, 0 (a) to 7 (h).
    #[must_use]
    #[inline]
    pub const fn column(self) -> u8 {
        self as u8 & 7
    }

    /// Row, 0 (row 1) to 7 (row 8).
    #[must_use]
    #[inline]
    pub const fn row(self) -> u8 {
        self as u8 >> 3
    }

    /// Egaroucid's cell index for this square (`h8 = 0` … `a1 = 63`), used in its book and record files.
    #[must_use]
    pub const fn egaroucid_index(self) -> u8 {
        63 - self as u8
    }

    /// The square for an Egaroucid cell index (`h8 = 0` … `a1 = 63`), or `None` if `index > 63`.
    #[must_use]
    pub const fn from_egaroucid_index(index: u8) -> Option<Square> {
        if index < 64 { Some(Self::ALL[63 - index as usize]) } else { None }
    }

    /// Lower-case coordinate, e.g. `"f5"`.
    #[must_use]
    pub fn to_lowercase(self) -> String {
        self.to_string().to_ascii_lowercase()
    }

    /// Parses a two-character coordinate such as `f5` or `F5`.
    ///
    /// # Errors
    /// [`ParseSquareError`] when the text is not a column letter `a`–`h` followed by a row digit `1`–`8`.
    pub fn parse(text: &str) -> Result<Square, ParseSquareError> {
        let bytes = text.as_bytes();
        match bytes {
            [c, r] => Self::from_chars(*c, *r).ok_or_else(|| ParseSquareError { text: text.to_owned() }),
            _ => Err(ParseSquareError { text: text.to_owned() }),
        }
    }

    /// The square named by a column byte (`a`–`h`, either case) and a row byte (`1`–`8`).
    #[must_use]
    pub const fn from_chars(column: u8, row: u8) -> Option<Square> {
        let c = column.to_ascii_lowercase();
        if c >= b'a' && c <= b'h' && row >= b'1' && row <= b'8' {
            Self::from_coords(c - b'a', row - b'1')
        } else {
            None
        }
    }
}

/// Upper-case coordinate, e.g. `F5` (the form Edax and GTP print).
impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let column = char::from(b'A' + self.column());
        let row = char::from(b'1' + self.row());
        write!(f, "{column}{row}")
    }
}

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Square::parse(s)
    }
}

/// A text that is not a square coordinate.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{text:?} is not a square (expected a column a-h then a row 1-8, e.g. f5)")]
pub struct ParseSquareError {
    /// The rejected text.
    pub text: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_and_names_agree() {
        for (i, sq) in Square::ALL.iter().enumerate() {
            assert_eq!(sq.index() as usize, i);
            assert_eq!(Square::parse(&sq.to_string()), Ok(*sq));
            assert_eq!(Square::parse(&sq.to_lowercase()), Ok(*sq));
            assert_eq!(Square::from_egaroucid_index(sq.egaroucid_index()), Some(*sq));
        }
        assert_eq!(Square::A1.egaroucid_index(), 63);
        assert_eq!(Square::H8.egaroucid_index(), 0);
        assert_eq!(Square::parse("f5"), Ok(Square::F5));
        assert_eq!(Square::F5.index(), 37);
        assert!(Square::parse("i1").is_err());
        assert!(Square::parse("a9").is_err());
        assert!(Square::parse("a").is_err());
        assert!(Square::parse("a1 ").is_err());
    }
}
