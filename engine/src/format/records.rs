//! Text game records, one game (or one scored position) per line, in the layouts of the public training sets.
//!
//! | [`RecordFormat`] | line | recorded value ([`RecordedResult`]) | sources |
//! |---|---|---|---|
//! | [`Wthor`](RecordFormat::Wthor) | `moves black_discs theoretical_black_discs` | black's final disc count and black's count under perfect play from the WTHOR depth (both 0-64) | WTHOR text dumps, PlayOK |
//! | [`Logistello`](RecordFormat::Logistello) | `moves diff 10` | black minus white discs at the end, empties not awarded; the last field (always 10 in the logbook) is kept | Logistello's logbook |
//! | [`Egaroucid3`](RecordFormat::Egaroucid3) | `moves diff` | black minus white discs at the end, empties not awarded | Egaroucid 3 self-play |
//! | [`WinLoss`](RecordFormat::WinLoss) | `moves result` | +1 black won, 0 draw, −1 white won | early Egaroucid self-play |
//! | [`EOthelloCsv`](RecordFormat::EOthelloCsv) | `id,winner,moves` | winner 1 black, 0 draw, −1 white; an optional header line | eOthello (Kaggle) |
//! | [`ExactPosition`](RecordFormat::ExactPosition) | `board64 X score` | exact final disc difference for the side to move under perfect play (standard scoring) | solved positions |
//!
//! # Grammar
//! Fields are separated by white space (commas for the CSV). `moves` is a transcript from the standard start
//! ([`notation::parse_transcript`](crate::notation::parse_transcript): concatenated coordinates, passes implicit; an
//! empty game is written as nothing, so a PlayOK line ` 0 0` is a game without moves). `board64 X` is a board as
//! [`notation::parse_board`](crate::notation::parse_board) reads it (`X` = the side to move). Numbers are decimal
//! integers with an optional sign. Blank lines and lines whose first non-blank character is `#` are skipped, and so
//! is a CSV's first line when its first field holds no digit (the header `Othello_game_id,winner,game_moves`).
//!
//! # Results
//! Scores come in several conventions; [`GameRecord::recorded`] keeps the value as written and
//! [`GameRecord::final_black_disc_diff`] gives the one we train on: Black's final disc difference in standard scoring
//! (empties go to the winner), computed by replaying the game when it reached its end, `None` when it stopped early
//! (a resignation or a timeout), and for an exact position the recorded perfect-play score, turned to Black's side.
//! [`GameRecord::recorded_matches_replay`] tells whether the two agree.
//!
//! # Errors
//! A [`RecordError`] names the 1-based line and, in its [`RecordErrorKind`], the 0-based character offset within the
//! line (transcript and board errors are the notation errors with line-relative offsets). The strict
//! [`parse_records`] stops at the first bad line; [`parse_records_lenient`] skips bad lines and returns them.

use std::fmt;
use std::str::FromStr;

use crate::board::{Color, Move};
use crate::notation::{BoardTextError, TranscriptError, parse_board, parse_transcript};
use crate::position::Position;

use super::wthor::WthorGame;

/// A layout of text game records (see the [module docs](self)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RecordFormat {
    /// `moves black_discs theoretical_black_discs` (WTHOR text, PlayOK).
    Wthor,
    /// `moves diff 10` (Logistello's logbook): black minus white, empties not awarded.
    Logistello,
    /// `moves diff` (Egaroucid 3 self-play): black minus white, empties not awarded.
    Egaroucid3,
    /// `moves result` (early Egaroucid self-play): +1 black won, 0 draw, −1 white won.
    WinLoss,
    /// `id,winner,moves` (eOthello CSV): winner 1 black, 0 draw, −1 white.
    EOthelloCsv,
    /// `board64 X score`: a position and its exact score for the side to move.
    ExactPosition,
}

impl RecordFormat {
    /// Every format, in the order [`RecordFormat::detect`] tries them.
    pub const ALL: [RecordFormat; 6] = [
        RecordFormat::Wthor,
        RecordFormat::Logistello,
        RecordFormat::Egaroucid3,
        RecordFormat::WinLoss,
        RecordFormat::EOthelloCsv,
        RecordFormat::ExactPosition,
    ];

    /// Number of content lines [`RecordFormat::detect`] looks at.
    pub const DETECT_LINES: usize = 16;

    /// The format's name, as accepted by [`FromStr`]: `wthor`, `logistello`, `egaroucid3`, `win-loss`,
    /// `eothello-csv`, `exact-position`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            RecordFormat::Wthor => "wthor",
            RecordFormat::Logistello => "logistello",
            RecordFormat::Egaroucid3 => "egaroucid3",
            RecordFormat::WinLoss => "win-loss",
            RecordFormat::EOthelloCsv => "eothello-csv",
            RecordFormat::ExactPosition => "exact-position",
        }
    }

    /// The line layout, for messages.
    #[must_use]
    pub const fn layout(self) -> &'static str {
        match self {
            RecordFormat::Wthor => "moves black_discs theoretical_black_discs",
            RecordFormat::Logistello => "moves diff 10",
            RecordFormat::Egaroucid3 => "moves diff",
            RecordFormat::WinLoss => "moves result",
            RecordFormat::EOthelloCsv => "id,winner,moves",
            RecordFormat::ExactPosition => "board64 side score",
        }
    }

    /// Guesses the format from the first [`RecordFormat::DETECT_LINES`] content lines: a format qualifies when every
    /// one of those lines parses in it and every finished game's recorded result agrees with its replay (this is what
    /// tells `moves diff` from `moves result`, and WTHOR disc counts from Logistello differences). Returns `None`
    /// when no format or more than one qualifies, or the text has no content line.
    ///
    /// # Examples
    /// ```
    /// use shirokuro_engine::format::RecordFormat;
    /// let line = "f5d6c3f3f4d3c4g6f6e6c5c6d7d8e7g5e3d2g4h3f7b5h5g3b4b6c8b8c7e8f8g8h4h6e2d1c1a3a6a5e1f2g7c2a4h8a2b7f1b3b1b2h7a7a8a1g1g2h2h1 34 41";
    /// assert_eq!(RecordFormat::detect(line), Some(RecordFormat::Wthor));
    /// assert_eq!(RecordFormat::detect("not a record"), None);
    /// ```
    #[must_use]
    pub fn detect(text: &str) -> Option<RecordFormat> {
        let mut found = None;
        for format in RecordFormat::ALL {
            let mut sampled = 0usize;
            let fits = records(text, format).take(RecordFormat::DETECT_LINES).all(|record| {
                sampled = sampled.saturating_add(1);
                record.is_ok_and(|record| record.recorded_matches_replay() != Some(false))
            });
            if fits && sampled > 0 {
                if found.is_some() {
                    return None;
                }
                found = Some(format);
            }
        }
        found
    }
}

impl fmt::Display for RecordFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a [`RecordFormat`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown record format {0:?}: expected wthor, logistello, egaroucid3, win-loss, eothello-csv or exact-position"
)]
pub struct UnknownRecordFormat(pub String);

impl FromStr for RecordFormat {
    type Err = UnknownRecordFormat;

    fn from_str(s: &str) -> Result<RecordFormat, UnknownRecordFormat> {
        RecordFormat::ALL
            .into_iter()
            .find(|format| format.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownRecordFormat(s.to_owned()))
    }
}

/// Who won, as a win/loss record states it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Winner {
    /// Black won.
    Black,
    /// A draw.
    Draw,
    /// White won.
    White,
}

impl Winner {
    /// The winner of a game whose result for Black is `black_diff` (its sign is all that counts).
    #[must_use]
    pub const fn from_black_diff(black_diff: i32) -> Winner {
        match black_diff.signum() {
            1 => Winner::Black,
            -1 => Winner::White,
            _ => Winner::Draw,
        }
    }
}

/// A game's result as the record writes it, in the convention of its format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RecordedResult {
    /// [`RecordFormat::Wthor`]: black's disc count at the end of the real game (WTHOR gives the empties of a finished
    /// game to the winner and splits them on a draw), and black's disc count under perfect play from the database's
    /// depth.
    BlackDiscs {
        /// Black's final disc count (0-64).
        black: u8,
        /// Black's theoretical disc count (0-64).
        theoretical: u8,
    },
    /// [`RecordFormat::Logistello`]: black minus white discs, empties not awarded, and the last field as written.
    LogistelloDiff {
        /// Black minus white (−64..=64).
        diff: i32,
        /// The third field (10 throughout the logbook).
        extra: i32,
    },
    /// [`RecordFormat::Egaroucid3`]: black minus white discs, empties not awarded (−64..=64).
    DiscDiff(i32),
    /// [`RecordFormat::WinLoss`] and [`RecordFormat::EOthelloCsv`]: who won.
    Winner(Winner),
    /// [`RecordFormat::ExactPosition`]: the exact final disc difference for the side to move of
    /// [`GameRecord::start`] under perfect play, standard scoring (−64..=64).
    Exact(i32),
}

/// One line of a record file: a game (or, for [`RecordFormat::ExactPosition`], a position) and its result.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct GameRecord {
    /// The 1-based line it was read from (0 for a record made from a WTHOR binary game).
    pub line: usize,
    /// The record's id, where the format has one (eOthello's game id).
    pub id: Option<u64>,
    /// The position before the first move: the standard start, or the exact position.
    pub start: Position,
    /// The moves, with every (implicit) pass as [`Move::Pass`]; empty for an exact position.
    pub moves: Vec<Move>,
    /// The position after the last move (and after a forced pass that follows it).
    pub end: Position,
    /// The result as written.
    pub recorded: RecordedResult,
    /// Black's final disc difference in standard scoring (empties to the winner): from the replay when the game
    /// reached its end, the perfect-play score (for Black) of an exact position, `None` otherwise.
    pub final_black_disc_diff: Option<i32>,
}

impl GameRecord {
    /// Whether the game was played to its end (neither side can move in [`GameRecord::end`]).
    #[must_use]
    pub fn is_finished(&self) -> bool {
        self.end.board.is_game_over()
    }

    /// Whether the recorded result agrees with the replayed final position, in the format's convention; `None` when
    /// the game did not reach its end (for an exact position: unless it is already over).
    ///
    /// All 137,135 finished games of the WTHOR text dump agree; 2 of the 44,496 finished early-Egaroucid games do not
    /// (black wins by wipe-out, recorded as white wins), so check before trusting a result.
    #[must_use]
    pub fn recorded_matches_replay(&self) -> Option<bool> {
        if !self.is_finished() {
            return None;
        }
        let black = i32::try_from(self.end.black().count()).unwrap_or(0);
        let white = i32::try_from(self.end.white().count()).unwrap_or(0);
        let raw = black.saturating_sub(white);
        Some(match self.recorded {
            // WTHOR gives the empties to the winner and splits them on a draw.
            RecordedResult::BlackDiscs { black: recorded, .. } => {
                let empties = 64i32.saturating_sub(black).saturating_sub(white);
                let awarded = match raw.signum() {
                    1 => black.saturating_add(empties),
                    0 => black.saturating_add(empties.checked_div(2).unwrap_or(0)),
                    _ => black,
                };
                awarded == i32::from(recorded)
            }
            RecordedResult::LogistelloDiff { diff, .. } | RecordedResult::DiscDiff(diff) => diff == raw,
            RecordedResult::Winner(winner) => winner == Winner::from_black_diff(raw),
            RecordedResult::Exact(_) => self.final_black_disc_diff == Some(self.end.black_score()),
        })
    }
}

impl WthorGame {
    /// The game as a [`GameRecord`] (line 0, no id) with a [`RecordedResult::BlackDiscs`] result.
    #[must_use]
    pub fn to_game_record(&self) -> GameRecord {
        GameRecord {
            line: 0,
            id: None,
            start: Position::INITIAL,
            moves: self.moves.clone(),
            end: self.end,
            recorded: RecordedResult::BlackDiscs { black: self.black_discs, theoretical: self.theoretical_black_discs },
            final_black_disc_diff: self.final_black_disc_diff(),
        }
    }
}

/// A bad line: its 1-based number and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {kind}")]
pub struct RecordError {
    /// The 1-based line number.
    pub line: usize,
    /// What is wrong, with the character offset in the line.
    pub kind: RecordErrorKind,
}

/// What is wrong with a line. Offsets are 0-based, in characters, from the start of the line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RecordErrorKind {
    /// Too many or too few fields.
    #[error("expected {expected} fields ({layout}), found {found} (offset {offset})")]
    FieldCount {
        /// Fields the format has.
        expected: usize,
        /// Fields found.
        found: usize,
        /// The format's layout.
        layout: &'static str,
        /// Offset of the first extra field, or the end of the line if fields are missing.
        offset: usize,
    },
    /// A number field that is not an integer in its range.
    #[error("invalid {field} {text:?} at offset {offset}: expected an integer from {min} to {max}")]
    InvalidNumber {
        /// Which field.
        field: &'static str,
        /// Offset of the field.
        offset: usize,
        /// The field as written.
        text: String,
        /// Smallest value allowed.
        min: i64,
        /// Largest value allowed.
        max: i64,
    },
    /// The moves are not a legal transcript (offsets in the error are line-relative).
    #[error(transparent)]
    Transcript(TranscriptError),
    /// The board of an exact position is malformed (offsets in the error are line-relative).
    #[error(transparent)]
    Board(BoardTextError),
}

/// The records of a lenient parse, and the lines it skipped.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LenientRecords {
    /// The records of the good lines, in order.
    pub records: Vec<GameRecord>,
    /// One error per skipped line, in order (each names its line).
    pub skipped: Vec<RecordError>,
}

/// Parses every line of `text` in `format`, stopping at the first bad line.
///
/// # Errors
/// [`RecordError`] naming the line, the character offset and the reason.
///
/// # Examples
/// ```
/// use shirokuro_engine::format::{RecordFormat, parse_records};
/// let records = parse_records("f5d6c3 1\n\nf5f6e6 -1\n", RecordFormat::WinLoss).unwrap();
/// assert_eq!(records.len(), 2);
/// assert_eq!(records[1].line, 3);
/// assert_eq!(records[1].final_black_disc_diff, None); // not played to the end
/// let err = parse_records("f5d6c3 1\nf5f5 0\n", RecordFormat::WinLoss).unwrap_err();
/// assert_eq!(err.to_string(), "line 2: move 2 (f5) at offset 2: f5 is occupied");
/// ```
pub fn parse_records(text: &str, format: RecordFormat) -> Result<Vec<GameRecord>, RecordError> {
    records(text, format).collect()
}

/// Parses every line of `text` in `format`, skipping bad lines (huge public files hold a few) and returning their
/// errors.
#[must_use]
pub fn parse_records_lenient(text: &str, format: RecordFormat) -> LenientRecords {
    let mut out = LenientRecords::default();
    for record in records(text, format) {
        match record {
            Ok(record) => out.records.push(record),
            Err(error) => out.skipped.push(error),
        }
    }
    out
}

/// The records of `text` one by one, without collecting them (for huge files): one item per content line.
#[must_use]
pub fn records(text: &str, format: RecordFormat) -> Records<'_> {
    Records { lines: text.lines().enumerate(), format, seen_content: false }
}

/// Iterator over the records of a text; see [`records`].
#[derive(Debug, Clone)]
pub struct Records<'a> {
    lines: std::iter::Enumerate<std::str::Lines<'a>>,
    format: RecordFormat,
    seen_content: bool,
}

impl Iterator for Records<'_> {
    type Item = Result<GameRecord, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        for (index, line) in self.lines.by_ref() {
            let trimmed = line.trim_start();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            let first = !self.seen_content;
            self.seen_content = true;
            if first && self.format == RecordFormat::EOthelloCsv && is_csv_header(line) {
                continue;
            }
            let line_number = index.saturating_add(1);
            return Some(
                parse_line(line, line_number, self.format).map_err(|kind| RecordError { line: line_number, kind }),
            );
        }
        None
    }
}

fn is_csv_header(line: &str) -> bool {
    !line.split(',').next().unwrap_or("").chars().any(|c| c.is_ascii_digit())
}

/// A field of a line: its offset in characters and in bytes, and its text.
#[derive(Debug, Clone, Copy)]
struct Field<'a> {
    offset: usize,
    end_byte: usize,
    text: &'a str,
}

/// Splits a line into fields at white space (or at commas), with character offsets.
fn split(line: &str, comma: bool) -> (Vec<Field<'_>>, usize) {
    let mut fields = Vec::new();
    let mut current: Option<(usize, usize)> = None; // (char offset, byte start)
    let mut chars = 0usize;
    let is_separator = |c: char| if comma { c == ',' } else { c.is_whitespace() };
    if comma {
        current = Some((0, 0));
    }
    for (byte, c) in line.char_indices() {
        if is_separator(c) {
            if let Some((offset, start)) = current.take() {
                fields.push(Field { offset, end_byte: byte, text: line.get(start..byte).unwrap_or("") });
            }
            if comma {
                current = Some((chars.saturating_add(1), byte.saturating_add(c.len_utf8())));
            }
        } else if current.is_none() {
            current = Some((chars, byte));
        }
        chars = chars.saturating_add(1);
    }
    if let Some((offset, start)) = current {
        fields.push(Field { offset, end_byte: line.len(), text: line.get(start..).unwrap_or("") });
    }
    (fields, chars)
}

fn number(field: Field<'_>, name: &'static str, min: i64, max: i64) -> Result<i64, RecordErrorKind> {
    let text = field.text.trim();
    text.parse::<i64>().ok().filter(|value| (min..=max).contains(value)).ok_or_else(|| RecordErrorKind::InvalidNumber {
        field: name,
        offset: field.offset,
        text: field.text.to_owned(),
        min,
        max,
    })
}

/// A value already checked to lie in a range that fits `T`.
fn narrow<T: TryFrom<i64> + Default>(value: i64) -> T {
    T::try_from(value).unwrap_or_default()
}

fn parse_line(line: &str, line_number: usize, format: RecordFormat) -> Result<GameRecord, RecordErrorKind> {
    let (mut fields, length) = split(line, format == RecordFormat::EOthelloCsv);
    let expected = match format {
        RecordFormat::Wthor | RecordFormat::Logistello | RecordFormat::EOthelloCsv | RecordFormat::ExactPosition => 3,
        RecordFormat::Egaroucid3 | RecordFormat::WinLoss => 2,
    };
    // A game without moves leaves the transcript field empty: ` 0 0`.
    let moves_first = !matches!(format, RecordFormat::EOthelloCsv | RecordFormat::ExactPosition);
    if moves_first && fields.len().checked_add(1) == Some(expected) && line.starts_with(char::is_whitespace) {
        fields.insert(0, Field { offset: 0, end_byte: 0, text: "" });
    }
    let field_count =
        |offset| RecordErrorKind::FieldCount { expected, found: fields.len(), layout: format.layout(), offset };
    if fields.len() != expected {
        return Err(field_count(fields.get(expected).map_or(length, |extra| extra.offset)));
    }
    let (Some(&first), Some(&second)) = (fields.first(), fields.get(1)) else {
        return Err(field_count(length));
    };
    let third = fields.get(2).copied();
    let (id, moves_field, recorded) = match format {
        RecordFormat::Wthor => {
            let third = third.ok_or_else(|| field_count(length))?;
            let black = narrow(number(second, "black disc count", 0, 64)?);
            let theoretical = narrow(number(third, "theoretical black disc count", 0, 64)?);
            (None, first, RecordedResult::BlackDiscs { black, theoretical })
        }
        RecordFormat::Logistello => {
            let third = third.ok_or_else(|| field_count(length))?;
            let diff = narrow(number(second, "disc difference", -64, 64)?);
            let extra = narrow(number(third, "third field", i64::from(i32::MIN), i64::from(i32::MAX))?);
            (None, first, RecordedResult::LogistelloDiff { diff, extra })
        }
        RecordFormat::Egaroucid3 => {
            (None, first, RecordedResult::DiscDiff(narrow(number(second, "disc difference", -64, 64)?)))
        }
        RecordFormat::WinLoss => (None, first, RecordedResult::Winner(winner(second)?)),
        RecordFormat::EOthelloCsv => {
            let third = third.ok_or_else(|| field_count(length))?;
            let id = narrow::<u64>(number(first, "game id", 0, i64::MAX)?);
            (Some(id), third, RecordedResult::Winner(winner(second)?))
        }
        RecordFormat::ExactPosition => {
            let third = third.ok_or_else(|| field_count(length))?;
            let score = narrow::<i32>(number(third, "score", -64, 64)?);
            let position = parse_board(line.get(..second.end_byte).unwrap_or("")).map_err(RecordErrorKind::Board)?;
            let black_diff = match position.side_to_move {
                Color::Black => score,
                Color::White => score.saturating_neg(),
            };
            return Ok(GameRecord {
                line: line_number,
                id: None,
                start: position,
                moves: Vec::new(),
                end: position,
                recorded: RecordedResult::Exact(score),
                final_black_disc_diff: Some(black_diff),
            });
        }
    };
    let game = parse_transcript(moves_field.text)
        .map_err(|error| RecordErrorKind::Transcript(shift(error, moves_field.offset)))?;
    let finished = game.end.board.is_game_over();
    Ok(GameRecord {
        line: line_number,
        id,
        start: game.start,
        final_black_disc_diff: finished.then(|| game.end.black_score()),
        moves: game.moves,
        end: game.end,
        recorded,
    })
}

fn winner(field: Field<'_>) -> Result<Winner, RecordErrorKind> {
    Ok(match number(field, "result", -1, 1)? {
        1 => Winner::Black,
        0 => Winner::Draw,
        _ => Winner::White,
    })
}

/// The transcript error with its offsets moved from the field to the line.
fn shift(error: TranscriptError, by: usize) -> TranscriptError {
    match error {
        TranscriptError::InvalidChar { move_number, offset, found } => {
            TranscriptError::InvalidChar { move_number, offset: offset.saturating_add(by), found }
        }
        TranscriptError::Incomplete { move_number, offset } => {
            TranscriptError::Incomplete { move_number, offset: offset.saturating_add(by) }
        }
        TranscriptError::Illegal { move_number, offset, mv, reason } => {
            TranscriptError::Illegal { move_number, offset: offset.saturating_add(by), mv, reason }
        }
    }
}
