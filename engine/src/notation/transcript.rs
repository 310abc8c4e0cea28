//! Transcripts: a game as concatenated coordinates (`f5d6c3…`), with implicit passes.

use std::fmt;

use crate::board::{IllegalMove, Move};
use crate::position::Position;
use crate::square::Square;

/// A parsed game: where it started, every move (passes included), and where it ended.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Transcript {
    /// The position before the first move.
    pub start: Position,
    /// The moves in order, with every pass (written or implicit) as [`Move::Pass`].
    pub moves: Vec<Move>,
    /// The position after the last move (and after a forced pass that follows it).
    pub end: Position,
}

/// Whether [`format_transcript`] writes passes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum PassStyle {
    /// Leave passes out, as transcripts usually do (they are implied by the rules).
    #[default]
    Omit,
    /// Write each pass as `ps`.
    Include,
}

/// Why a transcript was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TranscriptError {
    /// A character that cannot start a move (or continue one).
    #[error(
        "invalid character {found:?} at offset {offset} (move {move_number}): expected a coordinate a1-h8 or ps/pa"
    )]
    InvalidChar {
        /// The 1-based number of the move being read.
        move_number: usize,
        /// Offset of the character (0-based, in characters).
        offset: usize,
        /// The character.
        found: char,
    },
    /// The text ends in the middle of a move.
    #[error("move {move_number} at offset {offset} is incomplete")]
    Incomplete {
        /// The 1-based number of the unfinished move.
        move_number: usize,
        /// Offset of the move's first character.
        offset: usize,
    },
    /// A well-formed move that the rules forbid: the square is occupied, it flips nothing, the game is over, or a
    /// pass is written where none was forced.
    // The reason is lower-cased to match the transcript (`IllegalMove` names squares in upper case).
    #[error("move {move_number} ({mv}) at offset {offset}: {}", .reason.to_string().to_lowercase())]
    Illegal {
        /// The 1-based number of the move.
        move_number: usize,
        /// Offset of the move's first character.
        offset: usize,
        /// The move as read.
        mv: Move,
        /// Why the rules forbid it.
        reason: IllegalMove,
    },
}

/// Parses a transcript from the initial position. See the [module docs](crate::notation) for the grammar.
///
/// # Errors
/// [`TranscriptError`] naming the move number and offset of the first bad character or illegal move.
pub fn parse_transcript(text: &str) -> Result<Transcript, TranscriptError> {
    parse_transcript_from(Position::INITIAL, text)
}

/// Parses a transcript played from `start`. A forced pass at the start is made (and listed) automatically.
///
/// # Errors
/// [`TranscriptError`] naming the move number and offset of the first bad character or illegal move.
///
/// # Examples
/// ```
/// use shirokuro_engine::notation::{TranscriptError, parse_transcript_from};
/// use shirokuro_engine::{IllegalMove, Move, Position};
/// let err = parse_transcript_from(Position::INITIAL, "f5 ps").unwrap_err();
/// assert_eq!(
///     err,
///     TranscriptError::Illegal { move_number: 2, offset: 3, mv: Move::Pass, reason: IllegalMove::PassWithMoves }
/// );
/// ```
pub fn parse_transcript_from(start: Position, text: &str) -> Result<Transcript, TranscriptError> {
    let mut position = start;
    let mut moves = Vec::new();
    // Whether the last thing that happened was an automatic pass, which an explicit `ps`/`pa` may then confirm.
    let mut just_passed = auto_pass(&mut position, &mut moves);
    let mut chars = text.chars().enumerate().filter(|(_, c)| !c.is_whitespace());
    let mut move_number: usize = 0;
    while let Some((offset, first)) = chars.next() {
        move_number = move_number.saturating_add(1);
        let invalid = |(offset, found)| TranscriptError::InvalidChar { move_number, offset, found };
        let Some(second) = chars.next() else {
            return Err(if is_move_start(first) {
                TranscriptError::Incomplete { move_number, offset }
            } else {
                invalid((offset, first))
            });
        };
        let mv = match first.to_ascii_lowercase() {
            'a'..='h' => {
                let square = u8::try_from(first)
                    .ok()
                    .zip(u8::try_from(second.1).ok())
                    .and_then(|(column, row)| Square::from_chars(column, row))
                    .ok_or_else(|| invalid(second))?;
                Move::Place(square)
            }
            'p' if matches!(second.1.to_ascii_lowercase(), 's' | 'a') => Move::Pass,
            'p' => return Err(invalid(second)),
            _ => return Err(invalid((offset, first))),
        };
        let illegal = |reason| TranscriptError::Illegal { move_number, offset, mv, reason };
        match mv {
            Move::Pass if just_passed => just_passed = false,
            Move::Pass => {
                let reason =
                    if position.board.is_game_over() { IllegalMove::GameOver } else { IllegalMove::PassWithMoves };
                return Err(illegal(reason));
            }
            Move::Place(_) => {
                if position.board.is_game_over() {
                    return Err(illegal(IllegalMove::GameOver));
                }
                position = position.play(mv).map_err(illegal)?;
                moves.push(mv);
                just_passed = auto_pass(&mut position, &mut moves);
            }
        }
    }
    Ok(Transcript { start, moves, end: position })
}

/// Makes the pass if the side to move has to; returns whether it did.
fn auto_pass(position: &mut Position, moves: &mut Vec<Move>) -> bool {
    // `play(Pass)` succeeds exactly when the side to move has no move and the opponent has one.
    match position.play(Move::Pass) {
        Ok(next) => {
            *position = next;
            moves.push(Move::Pass);
            true
        }
        Err(_) => false,
    }
}

/// Whether `c` can begin a move token.
fn is_move_start(c: char) -> bool {
    matches!(c.to_ascii_lowercase(), 'a'..='h' | 'p')
}

/// Writes `moves` as a lower-case transcript (`f5d6c3`), with passes left out or written `ps`.
///
/// # Examples
/// ```
/// use shirokuro_engine::notation::{PassStyle, format_transcript};
/// use shirokuro_engine::{Move, Square};
/// let moves = [Move::Place(Square::F5), Move::Pass, Move::Place(Square::D6)];
/// assert_eq!(format_transcript(&moves, PassStyle::Omit), "f5d6");
/// assert_eq!(format_transcript(&moves, PassStyle::Include), "f5psd6");
/// ```
#[must_use]
pub fn format_transcript(moves: &[Move], passes: PassStyle) -> String {
    let mut out = String::with_capacity(moves.len().saturating_mul(2));
    for mv in moves {
        match (mv, passes) {
            (Move::Pass, PassStyle::Omit) => {}
            (Move::Pass, PassStyle::Include) => out.push_str("ps"),
            (Move::Place(square), _) => out.push_str(&square.to_lowercase()),
        }
    }
    out
}

/// The moves as a lower-case transcript without passes (see [`format_transcript`]).
impl fmt::Display for Transcript {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format_transcript(&self.moves, PassStyle::Omit))
    }
}
