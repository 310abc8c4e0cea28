//! Single moves: coordinate tokens (`f5`, `PS`, `--`) and numeric move indices in Edax's or Egaroucid's numbering.

use crate::board::Move;
use crate::square::Square;

/// Which numbering a move index uses. Both give 64 to a pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum IndexConvention {
    /// Edax (and our [`Square`] order): `a1 = 0`, `h1 = 7`, `h8 = 63`.
    #[default]
    Edax,
    /// Egaroucid: `h8 = 0`, `a1 = 63`.
    Egaroucid,
}

impl IndexConvention {
    /// The index of `mv` in this numbering (`0..=64`).
    #[must_use]
    pub const fn index_of(self, mv: Move) -> u8 {
        match self {
            IndexConvention::Edax => mv.edax_index(),
            IndexConvention::Egaroucid => mv.egaroucid_index(),
        }
    }

    /// The move with this index, or `None` if `index > 64`.
    #[must_use]
    pub const fn move_at(self, index: u8) -> Option<Move> {
        match self {
            IndexConvention::Edax => Move::from_edax_index(index),
            IndexConvention::Egaroucid => Move::from_egaroucid_index(index),
        }
    }
}

/// A text that is not a move token.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseMoveError {
    /// Nothing but whitespace.
    #[error("empty move")]
    Empty,
    /// Neither a coordinate nor a pass token.
    #[error("{text:?} is not a move (expected a coordinate a1-h8, or ps, pa, pass, --)")]
    Invalid {
        /// The rejected text, without surrounding whitespace.
        text: String,
    },
}

/// A text that is not a move index.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseIndexError {
    /// Nothing but whitespace.
    #[error("empty move index")]
    Empty,
    /// A character that is not a decimal digit.
    #[error("invalid character {found:?} at offset {offset} in a move index (expected a decimal digit)")]
    InvalidChar {
        /// Offset of the character in the text (0-based, in characters).
        offset: usize,
        /// The character.
        found: char,
    },
    /// A number above 64.
    #[error("move index {text} is out of range (expected 0-63, or 64 for a pass)")]
    OutOfRange {
        /// The digits as written.
        text: String,
    },
}

/// Parses one move token: a coordinate `a1`…`h8` in either case, or a pass written `ps`, `pa`, `pass` or `--` (any
/// case). Surrounding whitespace is ignored.
///
/// # Errors
/// [`ParseMoveError`] when the text is empty or not one of those tokens.
///
/// # Examples
/// ```
/// use shirokuro_engine::notation::parse_move;
/// use shirokuro_engine::{Move, Square};
/// assert_eq!(parse_move("F5"), Ok(Move::Place(Square::F5)));
/// assert_eq!(parse_move(" Pass "), Ok(Move::Pass));
/// assert!(parse_move("i9").is_err());
/// ```
pub fn parse_move(text: &str) -> Result<Move, ParseMoveError> {
    let token = text.trim();
    if token.is_empty() {
        return Err(ParseMoveError::Empty);
    }
    if ["ps", "pa", "pass", "--"].iter().any(|pass| token.eq_ignore_ascii_case(pass)) {
        return Ok(Move::Pass);
    }
    match token.as_bytes() {
        [column, row] => Square::from_chars(*column, *row).map(Move::Place),
        _ => None,
    }
    .ok_or_else(|| ParseMoveError::Invalid { text: token.to_owned() })
}

/// Parses a decimal move index (`"37"`) in the given numbering; 64 is a pass. Surrounding whitespace is ignored and
/// leading zeros are allowed; signs are not.
///
/// # Errors
/// [`ParseIndexError`] when the text is empty, holds a non-digit, or the value is above 64.
///
/// # Examples
/// ```
/// use shirokuro_engine::notation::{IndexConvention, parse_move_index};
/// use shirokuro_engine::{Move, Square};
/// assert_eq!(parse_move_index("37", IndexConvention::Edax), Ok(Move::Place(Square::F5)));
/// assert_eq!(parse_move_index("26", IndexConvention::Egaroucid), Ok(Move::Place(Square::F5)));
/// assert_eq!(parse_move_index("64", IndexConvention::Edax), Ok(Move::Pass));
/// ```
pub fn parse_move_index(text: &str, convention: IndexConvention) -> Result<Move, ParseIndexError> {
    let mut value: u8 = 0;
    let mut out_of_range = false;
    let mut digits = String::new();
    let mut seen_end = false;
    for (offset, c) in text.chars().enumerate() {
        if c.is_whitespace() {
            seen_end = !digits.is_empty();
            continue;
        }
        let digit = match c.to_digit(10) {
            Some(d) if !seen_end && c.is_ascii_digit() => d,
            _ => return Err(ParseIndexError::InvalidChar { offset, found: c }),
        };
        digits.push(c);
        match value.checked_mul(10).and_then(|v| v.checked_add(u8::try_from(digit).unwrap_or(u8::MAX))) {
            Some(v) if !out_of_range => value = v,
            _ => out_of_range = true,
        }
    }
    if digits.is_empty() {
        return Err(ParseIndexError::Empty);
    }
    match convention.move_at(value) {
        Some(mv) if !out_of_range => Ok(mv),
        _ => Err(ParseIndexError::OutOfRange { text: digits }),
    }
}
