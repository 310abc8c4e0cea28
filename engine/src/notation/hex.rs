//! Hex bitboard pairs: the side to move's and the opponent's discs as two 64-bit hex numbers (`0x… 0x…`).

use std::iter::{Enumerate, Peekable};
use std::str::Chars;

use crate::board::Board;

/// Why a hex bitboard pair was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HexBoardError {
    /// The text holds no number.
    #[error("missing the bitboard of the side to move")]
    MissingPlayer,
    /// The text holds only one number.
    #[error("missing the bitboard of the opponent")]
    MissingOpponent,
    /// A character that is not a hex digit, `0x` prefix, separator or trailing whitespace.
    #[error("invalid character {found:?} at offset {offset}: expected a hex number, whitespace or ','")]
    InvalidChar {
        /// Offset of the character (0-based, in characters).
        offset: usize,
        /// The character.
        found: char,
    },
    /// A number that does not fit in 64 bits.
    #[error("the number at offset {offset} does not fit in 64 bits")]
    TooLarge {
        /// Offset of the number's first character.
        offset: usize,
    },
    /// The two bitboards share squares.
    #[error("the bitboards overlap on {squares:#018x}")]
    Overlap {
        /// The squares in both sets.
        squares: u64,
    },
}

/// (offset, character) pairs with one character of look-ahead.
type Cursor<'a> = Peekable<Enumerate<Chars<'a>>>;

/// Parses a pair of hex bitboards, side to move first: each an optional `0x`/`0X` then hex digits (any case, leading
/// zeros optional), separated by whitespace and/or one comma.
///
/// # Errors
/// [`HexBoardError`] for a missing number, a bad character (with its offset), a number over 64 bits, or overlapping
/// sets.
///
/// # Examples
/// ```
/// use shirokuro_engine::notation::parse_hex_board;
/// use shirokuro_engine::Board;
/// assert_eq!(parse_hex_board("0x0000000810000000\t0x0000001008000000"), Ok(Board::INITIAL));
/// assert_eq!(parse_hex_board("810000000, 1008000000"), Ok(Board::INITIAL));
/// ```
pub fn parse_hex_board(text: &str) -> Result<Board, HexBoardError> {
    let mut chars: Cursor<'_> = text.chars().enumerate().peekable();
    skip_whitespace(&mut chars);
    let player = read_number(&mut chars)?.ok_or(HexBoardError::MissingPlayer)?;
    let mut separated = false;
    let mut comma = false;
    while let Some(&(_, c)) = chars.peek() {
        if c.is_whitespace() || (c == ',' && !comma) {
            comma |= c == ',';
            separated = true;
            let _ = chars.next();
        } else {
            break;
        }
    }
    if let (false, Some(&(offset, found))) = (separated, chars.peek()) {
        return Err(HexBoardError::InvalidChar { offset, found });
    }
    let opponent = read_number(&mut chars)?.ok_or(HexBoardError::MissingOpponent)?;
    skip_whitespace(&mut chars);
    if let Some((offset, found)) = chars.next() {
        return Err(HexBoardError::InvalidChar { offset, found });
    }
    Board::new(player, opponent).ok_or(HexBoardError::Overlap { squares: player & opponent })
}

/// Skips whitespace.
fn skip_whitespace(chars: &mut Cursor<'_>) {
    while chars.next_if(|(_, c)| c.is_whitespace()).is_some() {}
}

/// Reads one hex number; `Ok(None)` at the end of the text.
fn read_number(chars: &mut Cursor<'_>) -> Result<Option<u64>, HexBoardError> {
    let Some(&(start, first)) = chars.peek() else {
        return Ok(None);
    };
    let mut digits = 0usize;
    let mut value = Some(0u64);
    if first == '0' {
        let _ = chars.next();
        digits = 1;
        if chars.next_if(|(_, c)| matches!(c, 'x' | 'X')).is_some() {
            digits = 0;
        }
    }
    while let Some((_, c)) = chars.next_if(|(_, c)| c.is_ascii_hexdigit()) {
        digits = digits.saturating_add(1);
        value = value.and_then(|v| v.checked_mul(16)).and_then(|v| v.checked_add(u64::from(c.to_digit(16)?)));
    }
    if digits == 0 {
        return match chars.next() {
            Some((offset, found)) => Err(HexBoardError::InvalidChar { offset, found }),
            None => Ok(None),
        };
    }
    value.map(Some).ok_or(HexBoardError::TooLarge { offset: start })
}

/// Writes `board` as `0x%016x<TAB>0x%016x` (side to move, then opponent), Egaroucid's "Output Bitboard" form.
///
/// # Examples
/// ```
/// use shirokuro_engine::notation::format_hex_board;
/// use shirokuro_engine::Board;
/// assert_eq!(format_hex_board(&Board::INITIAL), "0x0000000810000000\t0x0000001008000000");
/// ```
#[must_use]
pub fn format_hex_board(board: &Board) -> String {
    format!("{:#018x}\t{:#018x}", board.player.0, board.opponent.0)
}
