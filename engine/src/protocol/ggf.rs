//! GGF (Generic Game Format, the format of the Generic Game Server): the game records NBoard sends with `set game`.
//!
//! A game is `(;` properties `;)`, each property an upper-case name followed by a bracketed value:
//!
//! ```text
//! (;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[me]PW[you]RE[?]TI[15:00]TY[8]
//!   BO[8 ---------------------------O*------*O--------------------------- *]
//!   B[F5]W[F6/-1.50/2.01]B[D3//0.5]W[PA];)
//! ```
//!
//! - `BO[8 <64 squares> <side>]` is the starting board: the size (only 8 is accepted), then the squares a1…h8 row by
//!   row (`-` or `.` empty, `*` black, `O` white; whitespace between them is ignored), then the colour to move (`*` or
//!   `O`). Without `BO` the game starts from the standard position.
//! - `B[...]` and `W[...]` are moves: a coordinate (`F5`, either case) or a pass (`PA`, `PASS`, `PS`, `--`),
//!   optionally followed by `/eval` and `/eval/time` (either may be empty: `B[F5//1.2]`).
//! - `TY` is the game type: `8` (optionally with the letters `r` (random start), `k` (komi) or `s` (synchro); anything
//!   played on another size, and anti-Othello (`a`), are rejected).
//! - Every other property (`GM`, `PC`, `DT`, `PB`, `PW`, `RB`, `RW`, `TI`, `TB`, `TW`, `RE`, `KM`, `KB`, `KW`, …) is
//!   kept as text in [`GgfGame::properties`].
//!
//! A value may contain `\]` (an escaped bracket). Text before `(;` is skipped; only the first game is read.
//!
//! [`GgfGame::replay`] plays the moves out. A pass that the record leaves out (a move by the colour not on turn while
//! the side to move has no move) is made automatically, as most programs write such records.

use std::fmt;

use crate::board::{Color, Move};
use crate::position::Position;
use crate::square::Square;

/// Why a GGF text was rejected; offsets are 0-based character offsets into the text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GgfError {
    /// No `(;` that starts a game.
    #[error("no game found (a GGF game starts with \"(;\")")]
    NoGame,
    /// The text ends inside the game (before `;)`) or inside a property value.
    #[error("the game is not terminated: expected \";)\" or a property before the end of the text (offset {offset})")]
    Unterminated {
        /// Where the text ended.
        offset: usize,
    },
    /// Something that is neither a property name nor the end of the game.
    #[error("unexpected character {found:?} at offset {offset} (expected a property name like B, W or BO, or \";)\")")]
    Unexpected {
        /// The character.
        found: char,
        /// Its offset.
        offset: usize,
    },
    /// A property name without its `[value]`.
    #[error("property {name} at offset {offset} has no [value]")]
    MissingValue {
        /// The property.
        name: String,
        /// Offset of its name.
        offset: usize,
    },
    /// A `BO` or `TY` describing a game other than 8×8 Othello.
    #[error("unsupported game type {value:?} in {name} at offset {offset} (only 8x8 Othello is supported)")]
    UnsupportedGame {
        /// `BO` or `TY`.
        name: String,
        /// The value.
        value: String,
        /// Offset of the property.
        offset: usize,
    },
    /// A malformed `BO` value.
    #[error("invalid board at offset {offset}: {reason}")]
    InvalidBoard {
        /// Offset of the `BO` property.
        offset: usize,
        /// What is wrong.
        reason: String,
    },
    /// A malformed move value.
    #[error("invalid move {value:?} at offset {offset}: {reason}")]
    InvalidMove {
        /// The value as written.
        value: String,
        /// Offset of the property.
        offset: usize,
        /// What is wrong.
        reason: String,
    },
    /// A move the rules do not allow, found while replaying.
    #[error("move {number} ({color} {mv}) at offset {offset} is illegal: {reason}")]
    IllegalMove {
        /// 1-based move number in the record.
        number: usize,
        /// The colour the record gives it.
        color: ColorName,
        /// The move.
        mv: Move,
        /// Offset of the property.
        offset: usize,
        /// Why.
        reason: String,
    },
}

/// A colour printed as `Black`/`White` in messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ColorName(pub Color);

impl fmt::Display for ColorName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.0 {
            Color::Black => "Black",
            Color::White => "White",
        })
    }
}

/// One move of a GGF record.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GgfMove {
    /// Who played it (`B` or `W`).
    pub color: Color,
    /// The move.
    pub mv: Move,
    /// The evaluation written with it, if any.
    pub eval: Option<f64>,
    /// The time written with it (seconds), if any.
    pub time: Option<f64>,
    /// Offset of the property in the text.
    pub offset: usize,
}

/// A parsed GGF game.
#[derive(Debug, Clone, PartialEq)]
pub struct GgfGame {
    /// The starting position (`BO`, or the standard one).
    pub start: Position,
    /// The moves in order.
    pub moves: Vec<GgfMove>,
    /// Every other property, in order: name and value.
    pub properties: Vec<(String, String)>,
}

impl GgfGame {
    /// The value of a property other than `BO`, `B` and `W` (the first one with this name).
    #[must_use]
    pub fn property(&self, name: &str) -> Option<&str> {
        self.properties.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// The positions of the game: element `k` is the position after the first `k` moves of the record (element 0 is
    /// the start). A pass the record leaves out is made before the move that needs it.
    ///
    /// # Errors
    /// [`GgfError::IllegalMove`] for the first move the rules reject.
    pub fn replay(&self) -> Result<Vec<Position>, GgfError> {
        let mut positions = Vec::with_capacity(self.moves.len().saturating_add(1));
        let mut position = self.start;
        positions.push(position);
        for (i, m) in self.moves.iter().enumerate() {
            let illegal = |reason: String| GgfError::IllegalMove {
                number: i.saturating_add(1),
                color: ColorName(m.color),
                mv: m.mv,
                offset: m.offset,
                reason,
            };
            if m.color != position.side_to_move {
                if position.board.must_pass() && m.mv != Move::Pass {
                    position = position.play(Move::Pass).map_err(|e| illegal(e.to_string()))?;
                } else {
                    return Err(illegal(format!("it is {}'s turn", ColorName(position.side_to_move))));
                }
            }
            position = position.play(m.mv).map_err(|e| illegal(e.to_string()))?;
            positions.push(position);
        }
        Ok(positions)
    }
}

/// Parses the first game of a GGF text.
///
/// # Errors
/// [`GgfError`] naming what is wrong and where.
///
/// # Examples
/// ```
/// use shirokuro_engine::protocol::ggf::parse_ggf;
/// use shirokuro_engine::{Color, Move, Square};
/// let game = parse_ggf("(;GM[Othello]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]\
///                       B[F5]W[d6/-1.00/0.5];)")?;
/// assert_eq!(game.moves[1].mv, Move::Place(Square::D6));
/// assert_eq!(game.moves[1].eval, Some(-1.0));
/// assert_eq!(game.replay()?.last().unwrap().side_to_move, Color::Black);
/// # Ok::<(), shirokuro_engine::protocol::ggf::GgfError>(())
/// ```
pub fn parse_ggf(text: &str) -> Result<GgfGame, GgfError> {
    let chars: Vec<char> = text.chars().collect();
    let start = chars.windows(2).position(|w| w == ['(', ';']).ok_or(GgfError::NoGame)?;
    let mut game = GgfGame { start: Position::INITIAL, moves: Vec::new(), properties: Vec::new() };
    let mut i = start.saturating_add(2);
    loop {
        while chars.get(i).is_some_and(|c| c.is_whitespace()) {
            i = i.saturating_add(1);
        }
        let Some(&c) = chars.get(i) else {
            return Err(GgfError::Unterminated { offset: chars.len() });
        };
        if c == ';' {
            // `;)` ends the game; a lone `;` (a node separator some writers add) is skipped.
            i = i.saturating_add(1);
            while chars.get(i).is_some_and(|c| c.is_whitespace()) {
                i = i.saturating_add(1);
            }
            if chars.get(i) == Some(&')') {
                return Ok(game);
            }
            continue;
        }
        if c == ')' {
            return Ok(game);
        }
        if !c.is_ascii_uppercase() {
            return Err(GgfError::Unexpected { found: c, offset: i });
        }
        let name_start = i;
        while chars.get(i).is_some_and(char::is_ascii_uppercase) {
            i = i.saturating_add(1);
        }
        let name: String = chars.get(name_start..i).unwrap_or_default().iter().collect();
        while chars.get(i).is_some_and(|c| c.is_whitespace()) {
            i = i.saturating_add(1);
        }
        if chars.get(i) != Some(&'[') {
            return Err(GgfError::MissingValue { name, offset: name_start });
        }
        i = i.saturating_add(1);
        let mut value = String::new();
        loop {
            match chars.get(i) {
                None => return Err(GgfError::Unterminated { offset: chars.len() }),
                Some(']') => break,
                Some('\\') if let Some(&escaped) = chars.get(i.saturating_add(1)) => {
                    value.push(escaped);
                    i = i.saturating_add(2);
                }
                Some(&ch) => {
                    value.push(ch);
                    i = i.saturating_add(1);
                }
            }
        }
        i = i.saturating_add(1);
        match name.as_str() {
            "B" | "W" => {
                let color = if name == "B" { Color::Black } else { Color::White };
                game.moves.push(parse_move_value(&value, color, name_start)?);
            }
            "BO" => game.start = parse_board_value(&value, name_start)?,
            "TY" => {
                check_type(&value, name_start)?;
                game.properties.push((name, value));
            }
            _ => game.properties.push((name, value)),
        }
    }
}

/// Accepts `8` with the flags `r`, `k`, `s` (any case); rejects other sizes and anti-Othello.
fn check_type(value: &str, offset: usize) -> Result<(), GgfError> {
    let v = value.trim();
    let digits: String = v.chars().take_while(char::is_ascii_digit).collect();
    let flags = &v[digits.len()..];
    if digits == "8" && flags.chars().all(|c| matches!(c.to_ascii_lowercase(), 'r' | 'k' | 's')) {
        Ok(())
    } else {
        Err(GgfError::UnsupportedGame { name: "TY".to_owned(), value: value.to_owned(), offset })
    }
}

fn parse_move_value(value: &str, color: Color, offset: usize) -> Result<GgfMove, GgfError> {
    let invalid = |reason: &str| GgfError::InvalidMove { value: value.to_owned(), offset, reason: reason.to_owned() };
    let mut parts = value.split('/');
    let token = parts.next().unwrap_or("").trim();
    let mv = if ["PA", "PASS", "PS", "--"].iter().any(|p| token.eq_ignore_ascii_case(p)) {
        Move::Pass
    } else {
        match token.as_bytes() {
            [c, r] => Square::from_chars(*c, *r).map(Move::Place).ok_or_else(|| invalid("not a square a1-h8"))?,
            _ => return Err(invalid("expected a square a1-h8 or PA")),
        }
    };
    let number = |part: Option<&str>, what: &str| -> Result<Option<f64>, GgfError> {
        match part.map(str::trim) {
            None | Some("") => Ok(None),
            Some(text) => match text.parse::<f64>() {
                Ok(v) if v.is_finite() => Ok(Some(v)),
                _ => Err(invalid(&format!("the {what} {text:?} is not a number"))),
            },
        }
    };
    let eval = number(parts.next(), "evaluation")?;
    let time = number(parts.next(), "time")?;
    if parts.next().is_some() {
        return Err(invalid("expected at most move/eval/time"));
    }
    Ok(GgfMove { color, mv, eval, time, offset })
}

fn parse_board_value(value: &str, offset: usize) -> Result<Position, GgfError> {
    let invalid = |reason: String| GgfError::InvalidBoard { offset, reason };
    let trimmed = value.trim_start();
    let size: String = trimmed.chars().take_while(char::is_ascii_digit).collect();
    if size != "8" {
        return Err(GgfError::UnsupportedGame { name: "BO".to_owned(), value: value.to_owned(), offset });
    }
    let mut cells = trimmed[size.len()..].chars().filter(|c| !c.is_whitespace());
    let (mut black, mut white) = (0u64, 0u64);
    for index in 0..64u32 {
        match cells.next() {
            Some('-' | '.') => {}
            Some('*' | 'X' | 'x') => black |= 1 << index,
            Some('O' | 'o') => white |= 1 << index,
            Some(other) => {
                return Err(invalid(format!("square {} is {other:?} (expected -, * or O)", index.saturating_add(1))));
            }
            None => return Err(invalid(format!("only {index} of 64 squares"))),
        }
    }
    let side = match cells.next() {
        Some('*' | 'X' | 'x') => Color::Black,
        Some('O' | 'o') => Color::White,
        Some(other) => return Err(invalid(format!("side to move is {other:?} (expected * or O)"))),
        None => return Err(invalid("no side to move after the 64 squares".to_owned())),
    };
    if let Some(extra) = cells.next() {
        return Err(invalid(format!("unexpected {extra:?} after the side to move")));
    }
    Position::from_colors(black, white, side).ok_or_else(|| invalid("overlapping discs".to_owned()))
}
