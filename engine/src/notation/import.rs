//! "Input any format": a game or a position from text whose form is not known in advance, as Egaroucid's clipboard and
//! text-box input read it (inventory §7.5). The forms are tried in this order:
//!
//! 1. a GGF game (`(;GM[Othello]…BO[8 …]…B[F5]W[D6]…;)`), from its `BO` position;
//! 2. an Othello Quest game (JSON): every `"m":"xx"` move in order, from the initial position;
//! 3. a transcript from the initial position (`f5d6c3…`, any case, spaces ignored);
//! 4. the same transcript continuing from the current position;
//! 5. a board: 64 squares and the side to move (see [`parse_board`]);
//! 6. anything else holding coordinates: the first run of 65 board characters (white space aside), if any, is the start
//!    (else the initial position), then every coordinate pair found in the text, in order (other text such as move
//!    numbers is ignored).
//!
//! Text longer than [`MAX_IMPORT_CHARS`] is refused.

use super::{TranscriptError, parse_board, parse_transcript, parse_transcript_from};
use crate::board::Move;
use crate::position::Position;
use crate::protocol::ggf::parse_ggf;

/// The longest text read (Egaroucid's limit).
pub const MAX_IMPORT_CHARS: usize = 100_000;

/// Which form the text was read as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImportKind {
    /// A GGF game.
    Ggf,
    /// An Othello Quest game.
    OthelloQuest,
    /// A transcript from the initial position.
    Transcript,
    /// A transcript continuing from the current position.
    Continuation,
    /// A board.
    Board,
    /// Coordinates found in other text (after a board, if one was found).
    Coordinates,
}

/// A game read from text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Imported {
    /// How the text was read.
    pub kind: ImportKind,
    /// The position before the first move (the current position for [`ImportKind::Continuation`]).
    pub start: Position,
    /// The moves, passes included.
    pub moves: Vec<Move>,
}

/// Why text could not be read as a game or a position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ImportError {
    /// Nothing but white space.
    #[error("the text is empty")]
    Empty,
    /// Longer than [`MAX_IMPORT_CHARS`].
    #[error("the text has {0} characters; at most {MAX_IMPORT_CHARS} are read")]
    TooLong(usize),
    /// No form fits; the transcript reading's error says where it failed.
    #[error("not a game, transcript or board ({0})")]
    Unrecognised(TranscriptError),
}

/// Reads `text` as the first form that fits (see the module documentation); `current` is the position a continuation
/// starts from.
///
/// # Errors
/// See [`ImportError`].
pub fn import_any(text: &str, current: Position) -> Result<Imported, ImportError> {
    let count = text.chars().count();
    if count > MAX_IMPORT_CHARS {
        return Err(ImportError::TooLong(count));
    }
    if text.trim().is_empty() {
        return Err(ImportError::Empty);
    }
    if text.contains("(;")
        && let Ok(game) = parse_ggf(text)
        && game.replay().is_ok()
    {
        let moves = game.moves.iter().map(|m| m.mv).collect();
        return Ok(Imported { kind: ImportKind::Ggf, start: game.start, moves });
    }
    if let Some(moves) = othello_quest_moves(text)
        && let Ok(t) = parse_transcript(&moves)
    {
        return Ok(Imported { kind: ImportKind::OthelloQuest, start: t.start, moves: t.moves });
    }
    let first_error = match parse_transcript(text) {
        Ok(t) => return Ok(Imported { kind: ImportKind::Transcript, start: t.start, moves: t.moves }),
        Err(error) => error,
    };
    if let Ok(t) = parse_transcript_from(current, text) {
        return Ok(Imported { kind: ImportKind::Continuation, start: t.start, moves: t.moves });
    }
    if let Ok(position) = parse_board(text.trim()) {
        return Ok(Imported { kind: ImportKind::Board, start: position, moves: Vec::new() });
    }
    if let Some(imported) = coordinates(text) {
        return Ok(imported);
    }
    Err(ImportError::Unrecognised(first_error))
}

/// The moves of an Othello Quest JSON game as a transcript (`"m":"f5"` entries in order, `"-"` skipped), if the text
/// has any.
fn othello_quest_moves(text: &str) -> Option<String> {
    let mut moves = String::new();
    for piece in text.split("\"m\":\"").skip(1) {
        let mv = piece.split('"').next().unwrap_or_default();
        if mv != "-" {
            moves.push_str(mv);
        }
    }
    (!moves.is_empty()).then_some(moves)
}

/// Characters of a board: squares of either colour or empty, and the side to move.
fn is_board_char(c: char) -> bool {
    matches!(c, 'B' | 'b' | 'X' | 'x' | '0' | '*' | 'W' | 'w' | 'O' | 'o' | '1' | '-' | '.')
}

/// Characters of a board and its side to move.
const BOARD_CHARS: usize = 65;

/// Form 6: an optional board, then every coordinate pair in the text.
fn coordinates(text: &str) -> Option<Imported> {
    // White space is dropped first, so a board written as 64 squares, a space and the side counts as one run.
    let chars: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    let mut start = Position::INITIAL;
    let mut rest: &[char] = &chars;
    for (i, window) in chars.windows(BOARD_CHARS).enumerate() {
        if window.iter().all(|c| is_board_char(*c))
            && let Ok(position) = parse_board(&window.iter().collect::<String>())
        {
            start = position;
            rest = chars.get(i.saturating_add(BOARD_CHARS)..).unwrap_or_default();
            break;
        }
    }
    let found_board = rest.len() != chars.len();
    let pairs: String = rest
        .windows(2)
        .filter_map(|pair| match *pair {
            [column, row] if ('a'..='h').contains(&column.to_ascii_lowercase()) && ('1'..='8').contains(&row) => {
                Some(format!("{column}{row}"))
            }
            _ => None,
        })
        .collect();
    if pairs.is_empty() && !found_board {
        return None;
    }
    let t = parse_transcript_from(start, &pairs).ok()?;
    Some(Imported { kind: ImportKind::Coordinates, start: t.start, moves: t.moves })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::notation::format_board;

    #[test]
    fn each_form_is_recognised() {
        let after = |t: &str| parse_transcript(t).unwrap().end;
        let read = |text: &str| import_any(text, after("f5d6")).unwrap();

        let ggf = "(;GM[Othello]PC[NBoard]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6];)";
        let g = read(ggf);
        assert_eq!((g.kind, g.moves.len()), (ImportKind::Ggf, 2));

        let quest = r#"{"players":[{"id":"a","name":"x"}],"moves":[{"m":"f5"},{"m":"-"},{"m":"d6"}]}"#;
        let q = read(quest);
        assert_eq!((q.kind, q.moves.len()), (ImportKind::OthelloQuest, 2));

        let t = read("F5 d6\nc3");
        assert_eq!((t.kind, t.start, t.moves.len()), (ImportKind::Transcript, Position::INITIAL, 3));

        // c3 is not a first move, but it continues f5 d6.
        let c = read("c3d3");
        assert_eq!((c.kind, c.start, c.moves.len()), (ImportKind::Continuation, after("f5d6"), 2));

        let board = format_board(&after("f5d6c3"));
        let b = read(&board);
        assert_eq!((b.kind, b.start, b.moves.len()), (ImportKind::Board, after("f5d6c3"), 0));

        let playok = "1. F5 d6 2. C3 d3 3. C4";
        let p = read(playok);
        assert_eq!((p.kind, p.moves.len()), (ImportKind::Coordinates, 5));

        let with_board = format!("position: {board} then d3 and c4");
        let w = read(&with_board);
        assert_eq!((w.kind, w.start, w.moves.len()), (ImportKind::Coordinates, after("f5d6c3"), 2));
    }

    #[test]
    fn what_fits_no_form_is_rejected_with_a_reason() {
        let start = Position::INITIAL;
        assert_eq!(import_any("  \n", start), Err(ImportError::Empty));
        assert_eq!(import_any(&"f5".repeat(50_001), start), Err(ImportError::TooLong(100_002)));
        let error = import_any("hello world", start).unwrap_err();
        assert!(matches!(error, ImportError::Unrecognised(_)), "{error}");
        // Coordinates that are not a legal line are not a game either.
        assert!(import_any("a1 a2 a3", start).is_err());
        assert!(error.to_string().starts_with("not a game, transcript or board"), "{error}");
    }
}
