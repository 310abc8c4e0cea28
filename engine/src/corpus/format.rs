//! A batch file's bytes: a text header, then one binary record per game.
//!
//! The header is UTF-8 text, one `key: value` per line, after a first line naming the format
//! ([`MAGIC`]), and ends with an empty line. Keys a reader does not know are skipped. The keys read are `batch`,
//! `games`, `level`, `random-moves` (`MIN-MAX`), `base-seed`, `seed` (= base-seed + batch), `eval` (the weights
//! file's name), `eval-crc32` (8 hex digits), `engine`, `started` and `command`.
//!
//! Each game then takes `5 + n` bytes:
//!
//! | bytes | what |
//! |---|---|
//! | 4 | the game's index in the batch, little-endian |
//! | 1 | random moves played before the engine took over |
//! | 1 | Black's discs minus White's at the end (signed; empties not awarded) |
//! | 1 | `n`, the number of moves (at most 60) |
//! | n | the moves from the standard start, one byte each: `column + 8 × row` (a1 = 0, h1 = 7, h8 = 63); passes are not written (they are forced) |
//!
//! A reader replays every record: a move that is not legal, a game that is not over after its moves, or a result
//! that is not the final position's is an error ([`RecordError`]), so damage is found, not trusted.

use std::fmt::Write as _;

use crate::eval::weights;
use crate::level::Level;
use crate::tools::arena::SelfPlayGame;
use crate::{Move, Position, Square};

/// The first line of every batch file (its format and version).
pub const MAGIC: &str = "shirokuro self-play games, format 1";

/// The longest header read (a longer one is damage).
pub const MAX_HEADER: usize = 64 * 1024;

/// The most moves a game has.
const MAX_MOVES: usize = 60;

/// What every batch of a corpus shares: how its games are played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Series {
    /// The level both sides play at after the random moves.
    pub level: Level,
    /// The fewest and the most random opening moves (each game draws its number uniformly in between).
    pub random_moves: (u8, u8),
    /// Batch `k` is played with the seed `base_seed + k`.
    pub base_seed: u64,
    /// Games in each batch.
    pub games_per_batch: u32,
    /// The evaluation both sides use.
    pub eval: EvalId,
}

impl Series {
    /// The fields in which `self` and `other` differ: (key, self's value, other's value).
    #[must_use]
    pub fn differences(&self, other: &Series) -> Vec<(&'static str, String, String)> {
        let mut found = Vec::new();
        let mut compare = |key, a: String, b: String| {
            if a != b {
                found.push((key, a, b));
            }
        };
        compare("level", self.level.to_string(), other.level.to_string());
        compare("random-moves", range_text(self.random_moves), range_text(other.random_moves));
        compare("base-seed", self.base_seed.to_string(), other.base_seed.to_string());
        compare("games", self.games_per_batch.to_string(), other.games_per_batch.to_string());
        compare("eval", self.eval.to_string(), other.eval.to_string());
        found
    }
}

/// Which evaluation played: its file's name and the CRC-32 of its bytes.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct EvalId {
    /// The weights file's name (without its folder), or `zero weights`.
    pub name: String,
    /// CRC-32 of the file's bytes (0 for zero weights).
    pub crc32: u32,
}

impl EvalId {
    /// The flat evaluation (all weights zero).
    #[must_use]
    pub fn zero() -> EvalId {
        EvalId { name: "zero weights".to_owned(), crc32: 0 }
    }

    /// The shipped evaluation built into the engine.
    #[must_use]
    pub fn bundled() -> EvalId {
        EvalId { name: weights::SHIPPED_FILE.to_owned(), crc32: crc32fast::hash(weights::BUNDLED) }
    }

    /// A weights file, by its name and bytes.
    #[must_use]
    pub fn of_file(name: &str, bytes: &[u8]) -> EvalId {
        EvalId { name: name.to_owned(), crc32: crc32fast::hash(bytes) }
    }
}

impl std::fmt::Display for EvalId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (CRC-32 {:08x})", self.name, self.crc32)
    }
}

/// A batch's header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// How the games are played.
    pub series: Series,
    /// The batch's number in its corpus.
    pub batch: u32,
    /// The engine that played (`shirokuro-engine VERSION`).
    pub engine: String,
    /// When the batch was started (UTC, ISO 8601).
    pub started: String,
    /// The command line that started it.
    pub command: String,
}

impl Header {
    /// The seed the batch's games are drawn from: the series' base seed plus the batch number.
    #[must_use]
    pub fn seed(&self) -> u64 {
        self.series.base_seed.wrapping_add(u64::from(self.batch))
    }

    /// The header as written at the start of the file, the empty line that ends it included.
    #[must_use]
    pub fn to_text(&self) -> String {
        let series = &self.series;
        let mut text = format!("{MAGIC}\n");
        let mut line = |key: &str, value: &dyn std::fmt::Display| {
            // A value is one line: line breaks (only a command could hold one) become spaces.
            let value = value.to_string().replace(['\n', '\r'], " ");
            let _infallible = writeln!(text, "{key}: {value}");
        };
        line("batch", &self.batch);
        line("games", &series.games_per_batch);
        line("level", &series.level);
        line("random-moves", &range_text(series.random_moves));
        line("base-seed", &series.base_seed);
        line("seed", &self.seed());
        line("eval", &series.eval.name);
        line("eval-crc32", &format_args!("{:08x}", series.eval.crc32));
        line("engine", &self.engine);
        line("started", &self.started);
        line("command", &self.command);
        line(
            "records",
            &"index u32 LE, random moves u8, Black's discs minus White's i8, moves u8, one byte per move \
              (column + 8 x row, a1 = 0), no passes",
        );
        text.push('\n');
        text
    }

    /// Reads the header at the start of `bytes`; returns it and its length in bytes (the records start there).
    ///
    /// # Errors
    /// [`HeaderError`] saying what is wrong, with the line.
    pub fn parse(bytes: &[u8]) -> Result<(Header, usize), HeaderError> {
        let window = bytes.get(..bytes.len().min(MAX_HEADER)).unwrap_or(bytes);
        let end = window.windows(2).position(|pair| pair == b"\n\n").ok_or(HeaderError::NoEnd)?;
        let text = std::str::from_utf8(window.get(..end).unwrap_or_default()).map_err(|_| HeaderError::NotText)?;
        let mut lines = text.lines();
        match lines.next() {
            Some(MAGIC) => {}
            Some(first) if first.starts_with("shirokuro self-play games") => {
                return Err(HeaderError::UnknownVersion(first.to_owned()));
            }
            _ => return Err(HeaderError::NotACorpusFile),
        }
        let mut fields = std::collections::HashMap::new();
        for (number, line) in lines.enumerate() {
            let (key, value) =
                line.split_once(": ").ok_or_else(|| HeaderError::BadLine { line: number.saturating_add(2) })?;
            let _earlier = fields.insert(key, value);
        }
        let get = |key: &'static str| fields.get(key).copied().ok_or(HeaderError::Missing(key));
        let number = |key: &'static str| {
            get(key).and_then(|value| {
                value.parse::<u64>().map_err(|_| HeaderError::BadValue { key, value: value.to_owned() })
            })
        };
        let bad = |key: &'static str| HeaderError::BadValue {
            key,
            value: fields.get(key).map_or_else(String::new, |v| (*v).to_owned()),
        };
        let level = get("level")?.parse::<Level>().map_err(|_| bad("level"))?;
        let random_moves = parse_range(get("random-moves")?).ok_or_else(|| bad("random-moves"))?;
        let crc32 = u32::from_str_radix(get("eval-crc32")?, 16).map_err(|_| bad("eval-crc32"))?;
        let series = Series {
            level,
            random_moves,
            base_seed: number("base-seed")?,
            games_per_batch: u32::try_from(number("games")?).map_err(|_| bad("games"))?,
            eval: EvalId { name: get("eval")?.to_owned(), crc32 },
        };
        let header = Header {
            series,
            batch: u32::try_from(number("batch")?).map_err(|_| bad("batch"))?,
            engine: get("engine")?.to_owned(),
            started: get("started")?.to_owned(),
            command: get("command")?.to_owned(),
        };
        if number("seed")? != header.seed() {
            return Err(bad("seed"));
        }
        Ok((header, end.saturating_add(2)))
    }
}

/// `MIN-MAX`.
fn range_text((min, max): (u8, u8)) -> String {
    format!("{min}-{max}")
}

/// `MIN-MAX` with MIN ≤ MAX ≤ 60.
fn parse_range(text: &str) -> Option<(u8, u8)> {
    let (min, max) = text.split_once('-')?;
    let (min, max) = (min.trim().parse::<u8>().ok()?, max.trim().parse::<u8>().ok()?);
    (min <= max && usize::from(max) <= MAX_MOVES).then_some((min, max))
}

/// What is wrong with a header.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HeaderError {
    /// The file does not start with [`MAGIC`] (nor any version of it).
    #[error("not a self-play batch (its first line is not \"{MAGIC}\")")]
    NotACorpusFile,
    /// A later version of the format.
    #[error("a format this program does not know: {0:?}")]
    UnknownVersion(String),
    /// No empty line ends the header within its first 64 KiB.
    #[error("the header has no end (no empty line in its first 64 KiB)")]
    NoEnd,
    /// The header is not UTF-8 text.
    #[error("the header is not text")]
    NotText,
    /// A line that is not `key: value`.
    #[error("header line {line} is not \"key: value\"")]
    BadLine {
        /// The 1-based line.
        line: usize,
    },
    /// A key is missing.
    #[error("the header has no {0:?} line")]
    Missing(&'static str),
    /// A value cannot be read.
    #[error("the header's {key:?} is {value:?}, which is not a valid value")]
    BadValue {
        /// The key.
        key: &'static str,
        /// Its value as written.
        value: String,
    },
}

/// One game of a batch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    /// The game's index in its batch.
    pub index: u32,
    /// Random moves played before the engine took over.
    pub random_moves: u8,
    /// The moves from the standard start, passes left out.
    pub moves: Vec<Square>,
    /// Black's discs minus White's at the end (empty squares not awarded).
    pub black_disc_diff: i8,
}

impl GameRecord {
    /// A finished self-play game as record `index`.
    ///
    /// # Errors
    /// [`RecordError::TooManyMoves`] for a game of more than 60 moves (there is none).
    pub fn from_game(index: u32, game: &SelfPlayGame) -> Result<GameRecord, RecordError> {
        let moves: Vec<Square> = game
            .result
            .moves
            .iter()
            .filter_map(|mv| match mv {
                Move::Place(square) => Some(*square),
                Move::Pass => None,
            })
            .collect();
        let too_many = || RecordError::TooManyMoves(moves.len());
        let random_moves = u8::try_from(game.random_moves).map_err(|_| too_many())?;
        let black_disc_diff = i8::try_from(game.result.black_disc_diff).map_err(|_| too_many())?;
        if moves.len() > MAX_MOVES {
            return Err(too_many());
        }
        Ok(GameRecord { index, random_moves, moves, black_disc_diff })
    }

    /// Appends the record's bytes to `out`.
    pub fn encode(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.index.to_le_bytes());
        out.push(self.random_moves);
        out.extend_from_slice(&self.black_disc_diff.to_le_bytes());
        // At most 60 moves (from_game and decode check it).
        out.push(u8::try_from(self.moves.len()).unwrap_or(u8::MAX));
        out.extend(self.moves.iter().map(|square| square.index()));
    }

    /// Reads the record at the start of `bytes` and replays it; returns it and its length in bytes.
    ///
    /// # Errors
    /// [`RecordError`]: too few bytes, or a game that does not replay to its recorded result.
    pub fn decode(bytes: &[u8]) -> Result<(GameRecord, usize), RecordError> {
        let truncated = || RecordError::Truncated { left: bytes.len() };
        let fixed = bytes.get(..7).ok_or_else(truncated)?;
        let [i0, i1, i2, i3, random_moves, diff, count] = <[u8; 7]>::try_from(fixed).map_err(|_| truncated())?;
        let count = usize::from(count);
        if count > MAX_MOVES {
            return Err(RecordError::TooManyMoves(count));
        }
        let length = 7usize.saturating_add(count);
        let move_bytes = bytes.get(7..length).ok_or_else(truncated)?;
        let mut moves = Vec::with_capacity(count);
        for (number, &byte) in move_bytes.iter().enumerate() {
            let square = Square::new(byte).ok_or(RecordError::BadSquare { number: number.saturating_add(1), byte })?;
            moves.push(square);
        }
        let record = GameRecord {
            index: u32::from_le_bytes([i0, i1, i2, i3]),
            random_moves,
            moves,
            black_disc_diff: i8::from_le_bytes([diff]),
        };
        let _moves = record.replay()?;
        Ok((record, length))
    }

    /// The game's moves with its forced passes, checked: every move legal, the game over after the last one, the
    /// result the final position's, the random moves no more than the moves.
    ///
    /// # Errors
    /// The first [`RecordError`] found.
    pub fn replay(&self) -> Result<Vec<Move>, RecordError> {
        if usize::from(self.random_moves) > self.moves.len() {
            return Err(RecordError::RandomBeyondMoves { random: self.random_moves, moves: self.moves.len() });
        }
        let mut position = Position::INITIAL;
        let mut moves = Vec::with_capacity(self.moves.len().saturating_add(2));
        for (number, &square) in self.moves.iter().enumerate() {
            let illegal = || RecordError::Illegal { number: number.saturating_add(1), square };
            if !position.board.has_moves() {
                position = position.play(Move::Pass).map_err(|_| illegal())?;
                moves.push(Move::Pass);
            }
            position = position.play(Move::Place(square)).map_err(|_| illegal())?;
            moves.push(Move::Place(square));
        }
        if !position.board.is_game_over() {
            return Err(RecordError::NotOver { moves: self.moves.len() });
        }
        let black = i32::try_from(position.black().count()).unwrap_or(0);
        let white = i32::try_from(position.white().count()).unwrap_or(0);
        let actual = black.saturating_sub(white);
        if actual != i32::from(self.black_disc_diff) {
            return Err(RecordError::WrongResult { recorded: self.black_disc_diff, actual });
        }
        Ok(moves)
    }

    /// The game as a record line of the `egaroucid3` layout that `train` and `label` read: the transcript without
    /// passes, a space, Black's discs minus White's.
    #[must_use]
    pub fn record_line(&self) -> String {
        let mut line: String = self.moves.iter().map(|square| square.to_lowercase()).collect();
        let _infallible = write!(line, " {}", self.black_disc_diff);
        line
    }
}

/// What is wrong with a game record.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// The bytes end inside the record.
    #[error("the record is cut short ({left} bytes left)")]
    Truncated {
        /// Bytes there were.
        left: usize,
    },
    /// More than 60 moves.
    #[error("{0} moves: a game has at most 60")]
    TooManyMoves(usize),
    /// A move byte that is no square.
    #[error("move {number} is byte {byte}, which is no square (0-63)")]
    BadSquare {
        /// The 1-based move.
        number: usize,
        /// The byte.
        byte: u8,
    },
    /// A move the rules do not allow there.
    #[error("move {number} ({square}) is not legal there")]
    Illegal {
        /// The 1-based move (passes not counted).
        number: usize,
        /// The move.
        square: Square,
    },
    /// The game is not over after its moves.
    #[error("the game is not over after its {moves} moves")]
    NotOver {
        /// The number of moves.
        moves: usize,
    },
    /// The recorded result is not the final position's.
    #[error("the result says {recorded} but the final position is {actual}")]
    WrongResult {
        /// As written.
        recorded: i8,
        /// As replayed.
        actual: i32,
    },
    /// More random moves than moves.
    #[error("{random} random moves in a game of {moves} moves")]
    RandomBeyondMoves {
        /// As written.
        random: u8,
        /// The game's moves.
        moves: usize,
    },
}
