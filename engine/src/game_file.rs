//! Game files in Egaroucid's JSON form (inventory §7.2), so that games move between Egaroucid and Shirokuro.
//!
//! A file is one JSON object: `black_player`, `white_player`, `memo`, `date` (`YYYY-MM-DD`), `black_discs` and
//! `white_discs` (−1 while the game is not over), and one object per position of the line keyed by its number of
//! discs, `"4"` to `"64"`:
//!
//! | key | meaning |
//! |---|---|
//! | `board_player`, `board_opponent` | discs of the side to move and of the other side; bit 0 is h8, bit 63 is a1 (Egaroucid's order, the reverse of ours) |
//! | `player` | the side to move: 0 Black, 1 White |
//! | `value` | the position's value, Black's disc difference; [`NOT_CALCULATED`] when unknown |
//! | `level` | where the value came from (a search depth, 74–100 for an endgame probability, 1000 for the book) |
//! | `policy`, `next_policy` | the move that led here and the one played next, as a cell index (0 = h8 … 63 = a1), −1 for none |
//! | `black_time_msec`, `white_time_msec` | the time each player had used when the position was reached, in ms (0 without a clock) |
//! | `is_random_generated_position` | whether this is the position a random board was generated at |
//!
//! Reading is lenient in what Egaroucid is lenient about (a position object without the board keys is skipped, unknown
//! keys are ignored) and strict about the line: every position must follow from the one before by one legal move (a
//! forced pass is made by itself), or the file is rejected with an error naming the position.

#![deny(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::cast_possible_truncation,
    clippy::arithmetic_side_effects,
    reason = "reads untrusted input: every access is checked, every failure is an error value"
)]

use std::path::Path;

mod review;
pub use review::SavedReview;

use serde_json::{Map, Value};

use crate::board::{Board, Color, Move};
use crate::fsutil::{Backup, IoFailure, SaveStep, save_atomically};
use crate::position::Position;
use crate::square::Square;

/// The `value` of a position whose value is unknown.
pub const NOT_CALCULATED: i64 = 100_000_000;

/// One position of a saved line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameNode {
    /// The position (after the move and any forced pass).
    pub position: Position,
    /// The square played to reach it (`None` for the first position).
    pub played: Option<Square>,
    /// Its value, Black's disc difference, when known.
    pub value: Option<i32>,
    /// Where the value came from (Egaroucid's `level`).
    pub level: i32,
    /// The time Black and White had used when the position was reached, in milliseconds (0 without a clock).
    pub clock: [u64; 2],
}

/// A game as a file holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameFile {
    /// Black's name.
    pub black_player: String,
    /// White's name.
    pub white_player: String,
    /// Free text.
    pub memo: String,
    /// `YYYY-MM-DD`.
    pub date: String,
    /// The line, from its first position; each one move after the previous.
    pub nodes: Vec<GameNode>,
    /// Index in `nodes` of the position a random board was generated at.
    pub random_start: Option<usize>,
    /// Game ▸ Review's values, when the game was reviewed.
    pub review: Option<SavedReview>,
}

/// Why a game file could not be read or written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GameFileError {
    /// The text is not JSON.
    #[error("not a JSON game file: {message}")]
    Json {
        /// The line (1-based) where the JSON reader stopped.
        line: usize,
        /// The column (1-based) there.
        column: usize,
        /// The JSON reader's own message.
        message: String,
    },
    /// The JSON is not an object.
    #[error("not a game file: the JSON is not an object")]
    NotObject,
    /// No position object was found.
    #[error("the file holds no position (objects keyed \"4\" to \"64\")")]
    Empty,
    /// A position object is unusable.
    #[error("position \"{key}\": {problem}")]
    Node {
        /// Its key (the number of discs).
        key: String,
        /// What is wrong.
        problem: NodeProblem,
    },
    /// A position does not follow from the previous one.
    #[error("position \"{key}\" cannot be reached from position \"{previous}\" by one move")]
    Gap {
        /// Its key.
        key: String,
        /// The key of the position before it.
        previous: String,
    },
    /// The file was read but its content is not a game file.
    #[error("{path}: {error}")]
    InFile {
        /// The file.
        path: String,
        /// What is wrong with its content.
        error: Box<GameFileError>,
    },
    /// The file could not be read or written.
    #[error("{path}: {}{error}", step.map(|step| format!("{step} failed: ")).unwrap_or_default())]
    Io {
        /// The file.
        path: String,
        /// The step of the atomic save that failed (none when reading, or making the folder).
        step: Option<SaveStep>,
        /// What the system said.
        error: IoFailure,
    },
}

/// What is wrong with one position object of a game file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NodeProblem {
    /// The named field is missing or is not a 64-bit board.
    #[error("{0} is not a board")]
    NotABoard(&'static str),
    /// A square holds discs of both sides.
    #[error("the two sides' discs overlap")]
    Overlap,
    /// `player` is neither 0 nor 1.
    #[error("player is not 0 (Black) or 1 (White)")]
    Player,
}

/// Our square index to Egaroucid's cell index (0 = h8 … 63 = a1).
fn cell(square: Square) -> i64 {
    63_i64.saturating_sub(i64::from(square.index()))
}

/// Egaroucid's cell index to our square.
fn square_of_cell(cell: i64) -> Option<Square> {
    u8::try_from(63_i64.saturating_sub(cell)).ok().filter(|i| *i < 64).map(Square::from_index)
}

/// Plays `mv` from `position`, then the opponent's forced pass, as the line stores positions.
fn step(position: &Position, mv: Move) -> Option<Position> {
    let next = position.play(mv).ok()?;
    if next.board.must_pass() && !next.board.is_game_over() { next.play(Move::Pass).ok() } else { Some(next) }
}

impl GameFile {
    /// A game along `nodes` with empty names and memo, dated `date`.
    #[must_use]
    pub fn new(nodes: Vec<GameNode>, date: String) -> GameFile {
        GameFile {
            black_player: String::new(),
            white_player: String::new(),
            memo: String::new(),
            date,
            nodes,
            random_start: None,
            review: None,
        }
    }

    /// The JSON text (pretty-printed).
    #[must_use]
    pub fn to_json(&self) -> String {
        let mut top = Map::new();
        let _ = top.insert("black_player".into(), self.black_player.clone().into());
        let _ = top.insert("white_player".into(), self.white_player.clone().into());
        let _ = top.insert("memo".into(), self.memo.clone().into());
        let _ = top.insert("date".into(), self.date.clone().into());
        let (black, white) = match self.nodes.last() {
            Some(last) if last.position.board.is_game_over() => {
                (i64::from(last.position.black().count()), i64::from(last.position.white().count()))
            }
            _ => (-1, -1),
        };
        let _ = top.insert("black_discs".into(), black.into());
        let _ = top.insert("white_discs".into(), white.into());
        for (i, node) in self.nodes.iter().enumerate() {
            let board = node.position.board;
            let policy = |n: Option<&GameNode>| n.and_then(|n| n.played).map_or(-1, cell);
            let mut object = Map::new();
            let _ = object.insert("board_player".into(), board.player.0.reverse_bits().into());
            let _ = object.insert("board_opponent".into(), board.opponent.0.reverse_bits().into());
            let player = i64::from(node.position.side_to_move == Color::White);
            let _ = object.insert("player".into(), player.into());
            let _ = object.insert("value".into(), node.value.map_or(NOT_CALCULATED, i64::from).into());
            let _ = object.insert("level".into(), node.level.into());
            let _ = object.insert("policy".into(), policy(Some(node)).into());
            let _ = object.insert("next_policy".into(), policy(self.nodes.get(i.saturating_add(1))).into());
            let [black_ms, white_ms] = node.clock;
            let _ = object.insert("black_time_msec".into(), black_ms.into());
            let _ = object.insert("white_time_msec".into(), white_ms.into());
            let _ = object.insert("is_random_generated_position".into(), (self.random_start == Some(i)).into());
            let discs = 64_u32.saturating_sub(board.empty_count());
            let _ = top.insert(discs.to_string(), Value::Object(object));
        }
        if let Some(review) = &self.review {
            let _ = top.insert(review::KEY.into(), review.to_json());
        }
        serde_json::to_string_pretty(&Value::Object(top)).unwrap_or_default()
    }

    /// Reads the JSON text of a game file.
    ///
    /// # Errors
    /// See [`GameFileError`]; the error names the position at fault.
    pub fn parse(text: &str) -> Result<GameFile, GameFileError> {
        let value: Value = serde_json::from_str(text).map_err(|e| GameFileError::Json {
            line: e.line(),
            column: e.column(),
            message: e.to_string(),
        })?;
        let Value::Object(top) = value else { return Err(GameFileError::NotObject) };
        let text_of = |key: &str| top.get(key).and_then(Value::as_str).unwrap_or_default().to_owned();
        let mut keyed: Vec<(u32, &str, &Map<String, Value>)> = top
            .iter()
            .filter_map(|(key, value)| {
                let discs = key.parse::<u32>().ok().filter(|d| (4..=64).contains(d))?;
                let object = value.as_object()?;
                // Egaroucid skips nodes without the board keys; so do we.
                (object.contains_key("board_player") && object.contains_key("board_opponent")).then_some((
                    discs,
                    key.as_str(),
                    object,
                ))
            })
            .collect();
        keyed.sort_by_key(|(discs, _, _)| *discs);
        let mut nodes: Vec<GameNode> = Vec::with_capacity(keyed.len());
        let mut random_start = None;
        let mut previous_key = "";
        for (_, key, object) in keyed {
            let node_error = |problem: NodeProblem| GameFileError::Node { key: key.to_owned(), problem };
            let bits = |name: &'static str| {
                object.get(name).and_then(Value::as_u64).ok_or_else(|| node_error(NodeProblem::NotABoard(name)))
            };
            let (player, opponent) = (bits("board_player")?.reverse_bits(), bits("board_opponent")?.reverse_bits());
            let board = Board::new(player, opponent).ok_or_else(|| node_error(NodeProblem::Overlap))?;
            let side = match object.get("player").and_then(Value::as_i64) {
                Some(0) => Color::Black,
                Some(1) => Color::White,
                _ => return Err(node_error(NodeProblem::Player)),
            };
            let position = Position { board, side_to_move: side };
            let value = object
                .get("value")
                .and_then(Value::as_i64)
                .filter(|v| (-64..=64).contains(v))
                .and_then(|v| i32::try_from(v).ok());
            let level = object.get("level").and_then(Value::as_i64).and_then(|l| i32::try_from(l).ok()).unwrap_or(0);
            let played = match nodes.last() {
                None => None,
                Some(before) => {
                    let hinted = object.get("policy").and_then(Value::as_i64).and_then(square_of_cell);
                    let candidates = hinted.into_iter().chain(before.position.board.moves());
                    let found = candidates
                        .into_iter()
                        .find(|&sq| {
                            let mv = Move::Place(sq);
                            // Our lines make a forced pass at once; a file may keep the position before it.
                            step(&before.position, mv) == Some(position)
                                || before.position.play(mv).ok() == Some(position)
                        })
                        .ok_or_else(|| GameFileError::Gap { key: key.to_owned(), previous: previous_key.to_owned() })?;
                    Some(found)
                }
            };
            if object.get("is_random_generated_position").and_then(Value::as_bool) == Some(true) {
                random_start = Some(nodes.len());
            }
            // A clock reading that is missing or not a count of milliseconds is no reading.
            let ms = |name: &str| object.get(name).and_then(Value::as_u64).unwrap_or(0);
            let clock = [ms("black_time_msec"), ms("white_time_msec")];
            nodes.push(GameNode { position, played, value, level, clock });
            previous_key = key;
        }
        if nodes.is_empty() {
            return Err(GameFileError::Empty);
        }
        let positions: Vec<Position> = nodes.iter().map(|n| n.position).collect();
        let review = top.get(review::KEY).and_then(|value| SavedReview::from_json(value, &positions));
        Ok(GameFile {
            review,
            black_player: text_of("black_player"),
            white_player: text_of("white_player"),
            memo: text_of("memo"),
            date: text_of("date"),
            nodes,
            random_start,
        })
    }

    /// Reads a game file.
    ///
    /// # Errors
    /// [`GameFileError::Io`] when the file cannot be read, else [`GameFileError::InFile`] with the path and the error
    /// of [`parse`](Self::parse).
    pub fn load(path: &Path) -> Result<GameFile, GameFileError> {
        let io = |error: std::io::Error| GameFileError::Io {
            path: path.display().to_string(),
            step: None,
            error: IoFailure::from(error),
        };
        let bytes = crate::bounded::read(path, crate::bounded::SMALL_BYTES).map_err(io)?;
        let text = String::from_utf8_lossy(&bytes);
        GameFile::parse(&text)
            .map_err(|error| GameFileError::InFile { path: path.display().to_string(), error: Box::new(error) })
    }

    /// Writes the game to `path` atomically (a file it replaces is kept as `<name>.bak`); missing folders are made.
    ///
    /// # Errors
    /// [`GameFileError::Io`] naming the file and the failed step.
    pub fn save(&self, path: &Path) -> Result<(), GameFileError> {
        let io = |step: Option<SaveStep>, error: &std::io::Error| GameFileError::Io {
            path: path.display().to_string(),
            step,
            error: IoFailure::from(error),
        };
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| io(None, &e))?;
        }
        let json = self.to_json();
        save_atomically(path, Backup::Keep, |out| out.write_all(json.as_bytes()))
            .map_err(|e| io(Some(e.step), &e.source))
    }
}

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::cast_possible_truncation,
    clippy::arithmetic_side_effects,
    reason = "tests"
)]
mod tests;
