//! 65-character boards: 64 squares a1…h8 then the side to move, in any of the usual alphabets.

use crate::board::Color;
use crate::position::Position;

/// Why a board text was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BoardTextError {
    /// A character that is not a square (black `X x B b 0 *`, white `O o W w 1`, empty `- .`).
    #[error(
        "invalid character {found:?} at offset {offset} for square {square}: expected one of X x B b 0 * O o W w 1 - ."
    )]
    InvalidSquare {
        /// Offset of the character (0-based, in characters).
        offset: usize,
        /// The character.
        found: char,
        /// The 1-based number of the square it stands for (1 = a1, 64 = h8).
        square: usize,
    },
    /// The text ends before the 64th square.
    #[error("board ends after {squares} of 64 squares")]
    TooShort {
        /// Squares read.
        squares: usize,
    },
    /// The text ends after the 64 squares, without the side to move.
    #[error("board has no side to move after its 64 squares")]
    MissingSide,
    /// The side-to-move character is neither a black nor a white character.
    #[error(
        "invalid side to move {found:?} at offset {offset}: expected a black (X x B b 0 *) or white (O o W w 1) character"
    )]
    InvalidSide {
        /// Offset of the character.
        offset: usize,
        /// The character.
        found: char,
    },
    /// Something other than whitespace after the side to move.
    #[error("unexpected character {found:?} at offset {offset} after the side to move")]
    Trailing {
        /// Offset of the character.
        offset: usize,
        /// The character.
        found: char,
    },
}

/// The colour a board character stands for: `Some(Some(colour))` for a disc or a side, `Some(None)` for an empty
/// square, `None` for anything else.
fn square_char(c: char) -> Option<Option<Color>> {
    match c {
        'X' | 'x' | 'B' | 'b' | '0' | '*' => Some(Some(Color::Black)),
        'O' | 'o' | 'W' | 'w' | '1' => Some(Some(Color::White)),
        '-' | '.' => Some(None),
        _ => None,
    }
}

/// Reads a board (64 squares, an optional `;`, the side to move) from `chars`, which yields (offset, character)
/// pairs; whitespace is skipped. Stops right after the side character.
pub(super) fn read_board(chars: &mut impl Iterator<Item = (usize, char)>) -> Result<Position, BoardTextError> {
    let mut chars = chars.filter(|(_, c)| !c.is_whitespace());
    let (mut black, mut white) = (0u64, 0u64);
    for (index, bit) in (0..64).map(|i| 1u64 << i).enumerate() {
        let square = index.saturating_add(1);
        let (offset, found) = chars.next().ok_or(BoardTextError::TooShort { squares: index })?;
        match square_char(found) {
            Some(Some(Color::Black)) => black |= bit,
            Some(Some(Color::White)) => white |= bit,
            Some(None) => {}
            None => return Err(BoardTextError::InvalidSquare { offset, found, square }),
        }
    }
    let (mut offset, mut found) = chars.next().ok_or(BoardTextError::MissingSide)?;
    if found == ';' {
        (offset, found) = chars.next().ok_or(BoardTextError::MissingSide)?;
    }
    let Some(Some(side)) = square_char(found) else {
        return Err(BoardTextError::InvalidSide { offset, found });
    };
    // The two sets are disjoint by construction; `from_colors` only fails on overlap.
    Position::from_colors(black, white, side).ok_or(BoardTextError::InvalidSide { offset, found })
}

/// Parses a 65-character board: squares a1…h8 then the side to move, whitespace ignored, an optional `;` before the
/// side. See the [module docs](crate::notation) for the alphabets. No automatic pass is made.
///
/// # Errors
/// [`BoardTextError`] naming the offset and the bad character (or the number of squares read if the text is short).
///
/// # Examples
/// ```
/// use shirokuro_engine::notation::parse_board;
/// use shirokuro_engine::Position;
/// let text = "........ ........ ........ ...wb... ...bw... ........ ........ ........ b";
/// assert_eq!(parse_board(text), Ok(Position::INITIAL));
/// ```
pub fn parse_board(text: &str) -> Result<Position, BoardTextError> {
    let mut chars = text.chars().enumerate();
    let position = read_board(&mut chars)?;
    match chars.find(|(_, c)| !c.is_whitespace()) {
        Some((offset, found)) => Err(BoardTextError::Trailing { offset, found }),
        None => Ok(position),
    }
}

/// Writes `position` as 64 characters of `X` (black), `O` (white), `-` (empty), a space and `X` or `O` for the side
/// to move: Egaroucid's "Copy Board" form.
///
/// # Examples
/// ```
/// use shirokuro_engine::notation::format_board;
/// use shirokuro_engine::Position;
/// assert_eq!(
///     format_board(&Position::INITIAL),
///     "---------------------------OX------XO--------------------------- X"
/// );
/// ```
#[must_use]
pub fn format_board(position: &Position) -> String {
    let (black, white) = (position.black().0, position.white().0);
    let mut out = String::with_capacity(66);
    for bit in (0..64).map(|i| 1u64 << i) {
        out.push(if black & bit != 0 {
            'X'
        } else if white & bit != 0 {
            'O'
        } else {
            '-'
        });
    }
    out.push(' ');
    out.push(match position.side_to_move {
        Color::Black => 'X',
        Color::White => 'O',
    });
    out
}
