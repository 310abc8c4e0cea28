//! Egaroucid 5's text book (`resources/book.txt`, read only).
//!
//! One position per line, 67 characters:
//!
//! | columns | meaning |
//! |---|---|
//! | 1–64 | the squares a1, b1, … h1, a2, … h8: `0` Black, `1` White, `2` empty |
//! | 65 | side to move: `0` Black, `1` White |
//! | 66–67 | Black's value + 64 in base 16 with `!` as digit 0 (`!`…`)` for the high digit, `!`…`0` for the low one) |
//!
//! So `%!` is 4·16 + 0 − 64 = 0. Symmetric positions are stored once; the order is arbitrary. Lines may end in CRLF;
//! blank lines are ignored. The format has no level, leaf or line count: positions get the level the caller chooses.
#![deny(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::cast_possible_truncation,
    clippy::arithmetic_side_effects
)]

use super::error::{FormatError, RecordProblem};
use super::ops::{Control, REPORT_EVERY, Stage};
use super::{Book, Entry};
use crate::board::Board;

/// Characters per line.
pub const LINE_LEN: usize = 67;

/// A parsed line: the board for the side to move and the value for the side to move.
fn parse_line(line: &[u8]) -> Result<(Board, i8), RecordProblem> {
    if line.len() != LINE_LEN {
        return Err(RecordProblem::LineLength(line.len()));
    }
    let bad = |column: usize, byte: u8| RecordProblem::Character { column, found: char::from(byte) };
    let (mut black, mut white) = (0u64, 0u64);
    for (i, &c) in line.iter().take(64).enumerate() {
        match c {
            b'0' => black |= 1 << i,
            b'1' => white |= 1 << i,
            b'2' => {}
            _ => return Err(bad(i.saturating_add(1), c)),
        }
    }
    if black | white == 0 {
        return Err(RecordProblem::EmptyBoard);
    }
    let [side, high, low] = [64usize, 65, 66].map(|i| line.get(i).copied().unwrap_or(0));
    let digit = |column: usize, c: u8, max: u8| c.checked_sub(b'!').filter(|d| *d <= max).ok_or(bad(column, c));
    let high = digit(66, high, 8)?;
    let low = digit(67, low, 15)?;
    let raw = i32::from(high).saturating_mul(16).saturating_add(i32::from(low));
    if raw > 128 {
        return Err(RecordProblem::Value(raw.saturating_sub(64)));
    }
    let black_value = i8::try_from(raw.saturating_sub(64)).unwrap_or(0);
    match side {
        b'0' => Ok((Board::from_raw(black, white), black_value)),
        b'1' => Ok((Board::from_raw(white, black), black_value.saturating_neg())),
        other => Err(bad(65, other)),
    }
}

/// Lines of the text without their line ending.
fn lines(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    bytes.split(|&b| b == b'\n').map(|line| line.strip_suffix(b"\r").unwrap_or(line))
}

/// Parses a text book; every position gets `level`.
///
/// # Errors
/// [`FormatError::Line`] naming the first malformed line (1-based) and column.
pub fn parse(bytes: &[u8], level: u8) -> Result<Book, FormatError> {
    parse_with(bytes, level, &Control::none())
}

/// [`parse`] with progress ([`Stage::Load`], bytes of the text) and stop.
///
/// # Errors
/// [`FormatError::Line`] naming the first malformed line (1-based) and column, or [`FormatError::Stopped`].
pub fn parse_with(bytes: &[u8], level: u8, control: &Control<'_>) -> Result<Book, FormatError> {
    let mut book = Book::new();
    let total = bytes.len() as u64;
    let mut offset: u64 = 0;
    for (i, line) in lines(bytes).enumerate() {
        if (i as u64).is_multiple_of(REPORT_EVERY) {
            control.report(Stage::Load, offset.min(total), total);
            if control.is_stopped() {
                return Err(FormatError::Stopped);
            }
        }
        // Bytes up to the next line (a CRLF's '\r' is not counted, so the count may lag a little behind).
        offset = offset.saturating_add(line.len() as u64).saturating_add(1);
        if line.is_empty() {
            continue;
        }
        let (board, value) =
            parse_line(line).map_err(|problem| FormatError::Line { line: i.saturating_add(1), problem })?;
        book.merge_entry(&board, Entry::new(value, level));
    }
    control.report(Stage::Load, total, total);
    Ok(book)
}

/// Whether the first line of `bytes` is a text-book line.
#[must_use]
pub fn looks_like_text_book(bytes: &[u8]) -> bool {
    lines(bytes).next().is_some_and(|line| parse_line(line).is_ok())
}

/// Formats one line (for tests and tools that write the old format).
#[must_use]
pub fn format_line(black: u64, white: u64, black_to_move: bool, black_value: i8) -> String {
    let mut line = String::with_capacity(LINE_LEN);
    for i in 0..64 {
        line.push(if black >> i & 1 == 1 {
            '0'
        } else if white >> i & 1 == 1 {
            '1'
        } else {
            '2'
        });
    }
    line.push(if black_to_move { '0' } else { '1' });
    let raw = u8::try_from(i16::from(black_value).saturating_add(64).clamp(0, 128)).unwrap_or(64);
    line.push(char::from(b'!'.saturating_add(raw / 16)));
    line.push(char::from(b'!'.saturating_add(raw % 16)));
    line
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_manual_example() {
        // The example line of Egaroucid 5's manual: 29 discs, White to move, `%!` = 0.
        let line = "22222222222112222111122222100000200111022200100222200122221002221%!";
        let (board, value) = parse_line(line.as_bytes()).unwrap();
        assert_eq!(value, 0);
        assert_eq!(board.player.count() + board.opponent.count(), 64 - 35);
        assert_eq!(format_line(board.opponent.0, board.player.0, false, 0), line);
        assert!(looks_like_text_book(line.as_bytes()));
    }
}
