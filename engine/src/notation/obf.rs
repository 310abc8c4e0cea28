//! OBF lines (`board side; MOVE:SCORE; …`), the form of the FFO endgame suite, and whole `.obf` files.

use std::fmt;
use std::str::FromStr;

use crate::board::{IllegalMove, Move};
use crate::position::Position;

use super::board_text::{BoardTextError, format_board, read_board};
use super::token::{ParseMoveError, parse_move};

/// One OBF line: a position and (possibly no) scored moves.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Obf {
    /// The position.
    pub position: Position,
    /// The moves with their scores (disc difference for the side to move), in the order written.
    pub moves: Vec<(Move, i32)>,
}

/// Why an OBF line was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ObfError {
    /// The board part is malformed.
    #[error(transparent)]
    Board(#[from] BoardTextError),
    /// Something other than `;` after the side to move.
    #[error("unexpected character {found:?} at offset {offset}: expected ';' after the side to move")]
    MissingSemicolon {
        /// Offset of the character (0-based, in characters, from the start of the line).
        offset: usize,
        /// The character.
        found: char,
    },
    /// An entry without the `:` between move and score.
    #[error("entry {text:?} at offset {offset} is not MOVE:SCORE")]
    MissingColon {
        /// Offset of the entry's first character.
        offset: usize,
        /// The entry as written (without surrounding whitespace).
        text: String,
    },
    /// The move of an entry is not a move token.
    #[error("invalid move at offset {offset}: {error}")]
    InvalidMove {
        /// Offset of the move's first character.
        offset: usize,
        /// What is wrong with it.
        error: ParseMoveError,
    },
    /// The score of an entry is not a signed 32-bit decimal number.
    #[error("invalid score {text:?} at offset {offset}: expected an integer such as +38 or -4")]
    InvalidScore {
        /// Offset of the score's first character (or of the `:` if the score is empty).
        offset: usize,
        /// The score as written.
        text: String,
    },
    /// A move that is not legal in the position.
    #[error("move {} at offset {offset}: {reason}", .mv.to_string().to_uppercase())]
    IllegalMove {
        /// Offset of the move's first character.
        offset: usize,
        /// The move.
        mv: Move,
        /// Why the rules forbid it.
        reason: IllegalMove,
    },
}

/// An error in an `.obf` file: the line (1-based) and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {error}")]
pub struct ObfFileError {
    /// The 1-based line number.
    pub line: usize,
    /// The error in that line.
    pub error: ObfError,
}

/// Parses one OBF line. See the [module docs](crate::notation) for the grammar.
///
/// # Errors
/// [`ObfError`] naming the offset in the line of the first problem.
///
/// # Examples
/// ```
/// use shirokuro_engine::notation::parse_obf_line;
/// use shirokuro_engine::{Move, Square};
/// let line = "--XXXXX---XXXX---OOOXX---OOXXXX--OOXXXO-OOOOXOO----XOX----XXXXX- O; G3:-12; C7:-12;";
/// let obf = parse_obf_line(line).unwrap();
/// assert_eq!(obf.moves, [(Move::Place(Square::G3), -12), (Move::Place(Square::C7), -12)]);
/// ```
pub fn parse_obf_line(line: &str) -> Result<Obf, ObfError> {
    let content = line.split('%').next().unwrap_or_default();
    let mut chars = content.chars().enumerate();
    let position = read_board(&mut chars)?;
    let mut moves = Vec::new();
    match chars.find(|(_, c)| !c.is_whitespace()) {
        None => return Ok(Obf { position, moves }),
        Some((_, ';')) => {}
        Some((offset, found)) => return Err(ObfError::MissingSemicolon { offset, found }),
    }
    let rest: Vec<(usize, char)> = chars.collect();
    for entry in rest.split(|&(_, c)| c == ';') {
        let Some(&(offset, _)) = entry.iter().find(|(_, c)| !c.is_whitespace()) else {
            continue; // empty entry, e.g. after the trailing `;`
        };
        let text: String = entry.iter().map(|&(_, c)| c).collect();
        let text = text.trim();
        let Some((move_text, score_text)) = text.split_once(':') else {
            return Err(ObfError::MissingColon { offset, text: text.to_owned() });
        };
        let mv = parse_move(move_text).map_err(|error| ObfError::InvalidMove { offset, error })?;
        if let Err(reason) = position.board.play(mv) {
            return Err(ObfError::IllegalMove { offset, mv, reason });
        }
        let score_offset = offset
            .saturating_add(move_text.chars().count())
            .saturating_add(1)
            .saturating_add(score_text.chars().take_while(|c| c.is_whitespace()).count());
        let score_text = score_text.trim();
        let score = score_text
            .parse::<i32>()
            .map_err(|_| ObfError::InvalidScore { offset: score_offset, text: score_text.to_owned() })?;
        moves.push((mv, score));
    }
    Ok(Obf { position, moves })
}

/// Parses a whole `.obf` file: one position per line; blank lines and lines whose first non-blank character is `%`
/// or `#` are skipped.
///
/// # Errors
/// [`ObfFileError`] with the 1-based number of the first bad line.
pub fn parse_obf_file(text: &str) -> Result<Vec<Obf>, ObfFileError> {
    let mut entries = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('%') || trimmed.starts_with('#') {
            continue;
        }
        let obf = parse_obf_line(line).map_err(|error| ObfFileError { line: index.saturating_add(1), error })?;
        entries.push(obf);
    }
    Ok(entries)
}

/// Writes `obf` in the FFO form: the board as [`format_board`] prints it, `;`, then ` MOVE:SCORE;` per entry with
/// upper-case moves, passes as `PS` and signed scores (`+0`).
///
/// # Examples
/// ```
/// use shirokuro_engine::notation::{Obf, format_obf_line};
/// use shirokuro_engine::{Move, Position, Square};
/// let obf = Obf { position: Position::INITIAL, moves: vec![(Move::Place(Square::F5), 0), (Move::Place(Square::D3), -2)] };
/// assert!(format_obf_line(&obf).ends_with(" X; F5:+0; D3:-2;"));
/// ```
#[must_use]
pub fn format_obf_line(obf: &Obf) -> String {
    obf.to_string()
}

/// The FFO form (see [`format_obf_line`]).
impl fmt::Display for Obf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{};", format_board(&self.position))?;
        for (mv, score) in &self.moves {
            match mv {
                Move::Place(square) => write!(f, " {square}:{score:+};")?,
                Move::Pass => write!(f, " PS:{score:+};")?,
            }
        }
        Ok(())
    }
}

/// Parses one OBF line (see [`parse_obf_line`]).
impl FromStr for Obf {
    type Err = ObfError;

    fn from_str(s: &str) -> Result<Obf, ObfError> {
        parse_obf_line(s)
    }
}
