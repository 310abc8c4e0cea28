//! WTHOR, the game database of the Fédération Française d'Othello: `.wtb` game files and the `WTH.JOU` (players)
//! and `WTH.TRN` (tournaments) name indexes.
//!
//! Specification: the FFO's "Format des fichiers WTHOR" (<https://www.ffothello.org/informatique/la-base-wthor/>),
//! checked against the original files `WTH_1985.wtb`, `WTH_2024.wtb`, `WTH.JOU` and `WTH.TRN` (every game of both
//! `.wtb` files replays legally under the conventions below). The format is the FFO's, frozen since the 1990s; this
//! module reads and writes it as is, so there is no version field of ours to bump.
//!
//! # Header (16 bytes, all three kinds of file)
//!
//! | offset | size | type | endianness | meaning |
//! |---|---|---|---|---|
//! | 0 | 1 | u8 | — | century the file was written (e.g. 20) |
//! | 1 | 1 | u8 | — | year within the century |
//! | 2 | 1 | u8 | — | month (1-12) |
//! | 3 | 1 | u8 | — | day (1-31) |
//! | 4 | 4 | u32 | little | number of games (`.wtb`; 0 in `.JOU`/`.TRN`) |
//! | 8 | 2 | u16 | little | number of records (`.JOU`/`.TRN`; 0 in `.wtb`) |
//! | 10 | 2 | u16 | little | year of the games (`.wtb`; 0 otherwise) |
//! | 12 | 1 | u8 | — | board size: 0 or 8 for 8×8 (10×10 files are not supported) |
//! | 13 | 1 | u8 | — | game type (0 = normal), kept as read |
//! | 14 | 1 | u8 | — | depth of the theoretical score (empties solved exactly, e.g. 22 or 24) |
//! | 15 | 1 | u8 | — | reserved, kept as read |
//!
//! # Game record (68 bytes each, `.wtb`, right after the header)
//!
//! | offset | size | type | endianness | meaning |
//! |---|---|---|---|---|
//! | 0 | 2 | u16 | little | tournament number (index into `WTH.TRN`) |
//! | 2 | 2 | u16 | little | black player number (index into `WTH.JOU`) |
//! | 4 | 2 | u16 | little | white player number |
//! | 6 | 1 | u8 | — | black's disc count at the end of the real game (0-64) |
//! | 7 | 1 | u8 | — | black's theoretical disc count: perfect play from `depth` empties (0-64) |
//! | 8 | 60 | u8 × 60 | — | moves: `10 × row + column`, both 1-based (a1 = 11, h1 = 18, f5 = 56, h8 = 88); 0 = no more moves |
//!
//! Passes are not written: a replay from the standard start inserts them ([`Move::Pass`] in
//! [`WthorGame::moves`]). After the first 0 every move byte must be 0 too. A game may stop before its end (a
//! resignation or a lost record); [`WthorGame::is_finished`] tells.
//!
//! # Name records (`WTH.JOU`: 20 bytes, `WTH.TRN`: 26 bytes each, right after the header)
//!
//! One Latin-1 name per record, padded with zero bytes (a name filling the whole record has no terminator). Bytes after
//! the first zero are ignored when reading and written as zeros.
//!
//! # Errors
//! Parsing never panics. Every [`WthorError`] names the byte offset (0-based, from the start of the file) and, for
//! game data, the game's 0-based index (its record starts at `16 + 68 × game`).

use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::board::{IllegalMove, Move};
use crate::position::Position;
use crate::square::Square;

use super::reader::{ByteReader, UnexpectedEof};

/// Size of the header of every WTHOR file.
pub const HEADER_SIZE: usize = 16;
/// Size of one game record: 2 + 2 + 2 (ids) + 1 + 1 (scores) + 60 (moves).
pub const GAME_RECORD_SIZE: usize = 68;
/// Number of move bytes in a game record.
pub const MOVE_BYTES: usize = 60;

/// The date a WTHOR file was written, as stored (no calendar validation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct WthorDate {
    /// Century (e.g. 20).
    pub century: u8,
    /// Year within the century.
    pub year: u8,
    /// Month (1-12 in valid files).
    pub month: u8,
    /// Day (1-31 in valid files).
    pub day: u8,
}

/// The 16-byte header shared by `.wtb`, `.JOU` and `.TRN` files. Fields are kept as read so that a file writes back
/// byte for byte; the writers fill the count fields from the data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct WthorHeader {
    /// When the file was written.
    pub created: WthorDate,
    /// Number of games (`.wtb`).
    pub game_count: u32,
    /// Number of name records (`.JOU`, `.TRN`).
    pub record_count: u16,
    /// Year of the games (`.wtb`).
    pub game_year: u16,
    /// Board size: 0 or 8 for 8×8.
    pub board_size: u8,
    /// Game type (0 = normal).
    pub game_type: u8,
    /// Number of empties from which the theoretical score was solved exactly.
    pub depth: u8,
    /// Reserved byte.
    pub reserved: u8,
}

/// One game of a `.wtb` file.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct WthorGame {
    /// Tournament number (index into `WTH.TRN`).
    pub tournament: u16,
    /// Black player's number (index into `WTH.JOU`).
    pub black_player: u16,
    /// White player's number.
    pub white_player: u16,
    /// Black's disc count at the end of the real game, as recorded (0-64).
    pub black_discs: u8,
    /// Black's disc count under perfect play from [`WthorHeader::depth`] empties, as recorded (0-64).
    pub theoretical_black_discs: u8,
    /// The moves from the standard start, with every (implicit) pass as [`Move::Pass`].
    pub moves: Vec<Move>,
    /// The position after the last move (and after a forced pass that follows it).
    pub end: Position,
}

impl WthorGame {
    /// A game from its ids, recorded scores and moves, replayed from the standard start to check the moves and to
    /// insert the passes (explicit passes in `moves` are accepted only where forced).
    ///
    /// # Errors
    /// [`WthorError::IllegalMove`] for the first illegal move, with `game` 0, `move_number` its 1-based number and
    /// `offset` its index in `moves`.
    pub fn new(
        tournament: u16,
        (black_player, white_player): (u16, u16),
        (black_discs, theoretical_black_discs): (u8, u8),
        moves: &[Move],
    ) -> Result<WthorGame, WthorError> {
        let mut replay = Replay::new();
        let mut number = 0usize;
        for (offset, &mv) in moves.iter().enumerate() {
            if mv == Move::Pass && replay.just_passed {
                replay.just_passed = false;
                continue;
            }
            number = number.saturating_add(1);
            replay.play(mv).map_err(|reason| WthorError::IllegalMove {
                game: 0,
                move_number: number,
                offset,
                mv,
                reason,
            })?;
        }
        Ok(WthorGame {
            tournament,
            black_player,
            white_player,
            black_discs,
            theoretical_black_discs,
            moves: replay.moves,
            end: replay.position,
        })
    }

    /// Whether the game was played to its end (neither side can move in [`WthorGame::end`]).
    #[must_use]
    pub fn is_finished(&self) -> bool {
        self.end.board.is_game_over()
    }

    /// Black's final disc difference in standard scoring (empties to the winner), from the replay; `None` if the
    /// game stopped before its end.
    #[must_use]
    pub fn final_black_disc_diff(&self) -> Option<i32> {
        self.is_finished().then(|| self.end.black_score())
    }

    /// Number of placements (passes not counted), at most 60.
    #[must_use]
    pub fn placement_count(&self) -> usize {
        self.moves.iter().filter(|mv| mv.square().is_some()).count()
    }
}

/// A parsed `.wtb` file.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct WthorFile {
    /// The header (its `game_count` equals `games.len()` after parsing).
    pub header: WthorHeader,
    /// The games in file order.
    pub games: Vec<WthorGame>,
}

/// Which name index a `.JOU`/`.TRN` file is; it fixes the record size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NameKind {
    /// `WTH.JOU`: players, 20-byte records.
    Players,
    /// `WTH.TRN`: tournaments, 26-byte records.
    Tournaments,
}

impl NameKind {
    /// Size of one record in bytes.
    #[must_use]
    pub const fn record_size(self) -> usize {
        match self {
            NameKind::Players => 20,
            NameKind::Tournaments => 26,
        }
    }
}

/// A parsed `WTH.JOU` or `WTH.TRN` file: the names, indexed by the numbers in the game records.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct NameFile {
    /// The header (its `record_count` equals `names.len()` after parsing).
    pub header: WthorHeader,
    /// The names, decoded from Latin-1.
    pub names: Vec<String>,
}

impl NameFile {
    /// The name with this number, if there is one.
    #[must_use]
    pub fn get(&self, number: u16) -> Option<&str> {
        self.names.get(usize::from(number)).map(String::as_str)
    }
}

/// Why WTHOR data was rejected. Offsets are 0-based byte offsets from the start of the file; `game` is the 0-based
/// index of the game record.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WthorError {
    /// The header is cut short.
    #[error("truncated header: {0}")]
    TruncatedHeader(UnexpectedEof),
    /// A board size other than 0 or 8.
    #[error("unsupported board size {found} at offset 12: expected 0 or 8 (8x8)")]
    UnsupportedBoardSize {
        /// The board-size byte.
        found: u8,
    },
    /// The data ends inside a record: fewer records than the header declares.
    #[error("data ends at offset {offset} inside record {record} of the {declared} declared in the header")]
    Truncated {
        /// Length of the data (where it ends).
        offset: usize,
        /// 0-based index of the incomplete or missing record.
        record: usize,
        /// Number of records the header declares.
        declared: usize,
    },
    /// Bytes after the last record the header declares.
    #[error("{count} unexpected bytes at offset {offset} after the {declared} records declared in the header")]
    TrailingBytes {
        /// Offset of the first extra byte.
        offset: usize,
        /// Number of extra bytes.
        count: usize,
        /// Number of records the header declares.
        declared: usize,
    },
    /// A recorded disc count above 64.
    #[error("game {game}: {field} {value} at offset {offset} is above 64")]
    BadScore {
        /// 0-based game index.
        game: usize,
        /// Offset of the byte.
        offset: usize,
        /// Which score: `"black disc count"` or `"theoretical black disc count"`.
        field: &'static str,
        /// The byte.
        value: u8,
    },
    /// A move byte that is not `10 × row + column` with row and column in 1-8 (nor 0).
    #[error("game {game}: bad move byte {byte} at offset {offset} (move {move_number}): expected 11-88 or 0")]
    BadMoveByte {
        /// 0-based game index.
        game: usize,
        /// 1-based number of the move byte (1-60).
        move_number: usize,
        /// Offset of the byte.
        offset: usize,
        /// The byte.
        byte: u8,
    },
    /// A move after the 0 that ends the move list.
    #[error("game {game}: move byte {byte} at offset {offset} (move {move_number}) follows the end of the moves")]
    MoveAfterEnd {
        /// 0-based game index.
        game: usize,
        /// 1-based number of the move byte.
        move_number: usize,
        /// Offset of the byte.
        offset: usize,
        /// The byte.
        byte: u8,
    },
    /// A move that the rules forbid.
    #[error("game {game}: illegal move {move_number} ({mv}) at offset {offset}: {}", .reason.to_string().to_lowercase())]
    IllegalMove {
        /// 0-based game index.
        game: usize,
        /// 1-based number of the move (passes not counted).
        move_number: usize,
        /// Offset of the move byte.
        offset: usize,
        /// The move.
        mv: Move,
        /// Why the rules forbid it.
        reason: IllegalMove,
    },
}

/// Reading a WTHOR file from disk failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WthorLoadError {
    /// The file could not be read.
    #[error("cannot read {}: {source}", .path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: io::Error,
    },
    /// The file is not valid WTHOR data.
    #[error("{}: {source}", .path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        source: WthorError,
    },
}

/// Parses a `.wtb` game file. See the [module docs](self) for the layout.
///
/// # Errors
/// [`WthorError`] naming the offset (and game) of the first problem.
///
/// # Examples
/// ```
/// use shirokuro_engine::format::wthor;
/// let mut bytes = vec![20, 25, 1, 1, 1, 0, 0, 0, 0, 0, 0xe9, 0x07, 8, 0, 24, 0];
/// bytes.extend([1, 0, 2, 0, 3, 0, 33, 33, 56, 66]); // f5 d6
/// bytes.resize(16 + 68, 0);
/// let file = wthor::parse(&bytes).unwrap();
/// assert_eq!(file.header.game_year, 2025);
/// assert_eq!(file.games[0].moves.len(), 2);
/// assert_eq!(wthor::to_bytes(&file).unwrap(), bytes);
/// assert_eq!(
///     wthor::parse(&bytes[..50]).unwrap_err().to_string(),
///     "data ends at offset 50 inside record 0 of the 1 declared in the header"
/// );
/// ```
pub fn parse(data: &[u8]) -> Result<WthorFile, WthorError> {
    let mut reader = ByteReader::new(data);
    let header = read_header(&mut reader)?;
    if !matches!(header.board_size, 0 | 8) {
        return Err(WthorError::UnsupportedBoardSize { found: header.board_size });
    }
    let declared = usize::try_from(header.game_count).unwrap_or(usize::MAX);
    check_length(&reader, declared, GAME_RECORD_SIZE)?;
    // `check_length` proved that `declared` records are present, so this allocation is bounded by the input size.
    let mut games = Vec::with_capacity(declared);
    for game in 0..declared {
        games.push(read_game(&mut reader, game, declared)?);
    }
    Ok(WthorFile { header, games })
}

/// Reads and parses a `.wtb` file.
///
/// # Errors
/// [`WthorLoadError`] with the path, wrapping the I/O or parse error.
pub fn load(path: impl AsRef<Path>) -> Result<WthorFile, WthorLoadError> {
    let path = path.as_ref();
    let data = crate::bounded::read(path, crate::bounded::SMALL_BYTES)
        .map_err(|source| WthorLoadError::Io { path: path.to_owned(), source })?;
    parse(&data).map_err(|source| WthorLoadError::Parse { path: path.to_owned(), source })
}

/// Parses a `WTH.JOU` or `WTH.TRN` name file.
///
/// # Errors
/// [`WthorError`] naming the offset of the first problem (a short header, or a length that does not match the
/// record count).
pub fn parse_names(data: &[u8], kind: NameKind) -> Result<NameFile, WthorError> {
    let mut reader = ByteReader::new(data);
    let header = read_header(&mut reader)?;
    let declared = usize::from(header.record_count);
    check_length(&reader, declared, kind.record_size())?;
    let mut names = Vec::with_capacity(declared);
    for record in 0..declared {
        let bytes = reader.read_bytes(kind.record_size()).map_err(|eof| truncated(eof, record, declared))?;
        names.push(bytes.iter().take_while(|&&b| b != 0).map(|&b| char::from(b)).collect());
    }
    Ok(NameFile { header, names })
}

/// Reads and parses a `WTH.JOU` or `WTH.TRN` file.
///
/// # Errors
/// [`WthorLoadError`] with the path, wrapping the I/O or parse error.
pub fn load_names(path: impl AsRef<Path>, kind: NameKind) -> Result<NameFile, WthorLoadError> {
    let path = path.as_ref();
    let data = crate::bounded::read(path, crate::bounded::SMALL_BYTES)
        .map_err(|source| WthorLoadError::Io { path: path.to_owned(), source })?;
    parse_names(&data, kind).map_err(|source| WthorLoadError::Parse { path: path.to_owned(), source })
}

/// Writes a `.wtb` file: the header as given but with `game_count = games.len()`, then one record per game with its
/// placements (passes are left out, as the format wants).
///
/// # Errors
/// [`io::ErrorKind::InvalidInput`] if there are more than `u32::MAX` games or a game has more than 60 placements;
/// otherwise any error of `out`.
pub fn write(file: &WthorFile, out: &mut impl Write) -> io::Result<()> {
    let count = u32::try_from(file.games.len()).map_err(|_| invalid_input("more than 4294967295 games"))?;
    write_header(&WthorHeader { game_count: count, ..file.header }, out)?;
    for game in &file.games {
        let mut record = [0u8; GAME_RECORD_SIZE];
        let mut fields = record.iter_mut();
        let ids = [game.tournament, game.black_player, game.white_player];
        let head = ids.iter().flat_map(|id| id.to_le_bytes()).chain([game.black_discs, game.theoretical_black_discs]);
        let placements = game.moves.iter().filter_map(|mv| mv.square()).map(move_byte);
        for (slot, byte) in fields.by_ref().zip(head.chain(placements.clone().take(MOVE_BYTES))) {
            *slot = byte;
        }
        if placements.count() > MOVE_BYTES {
            return Err(invalid_input("a game has more than 60 placements"));
        }
        out.write_all(&record)?;
    }
    Ok(())
}

/// The bytes of a `.wtb` file (see [`write`](fn@write)).
///
/// # Errors
/// As [`write`](fn@write).
pub fn to_bytes(file: &WthorFile) -> io::Result<Vec<u8>> {
    let mut out = Vec::new();
    write(file, &mut out)?;
    Ok(out)
}

/// Writes a `WTH.JOU` or `WTH.TRN` file: the header as given but with `record_count = names.len()`, then each name in
/// Latin-1, zero-padded to the record size.
///
/// # Errors
/// [`io::ErrorKind::InvalidInput`] if there are more than 65535 names, or a name holds a zero byte, a character
/// outside Latin-1, or more bytes than the record; otherwise any error of `out`.
pub fn write_names(file: &NameFile, kind: NameKind, out: &mut impl Write) -> io::Result<()> {
    let count = u16::try_from(file.names.len()).map_err(|_| invalid_input("more than 65535 names"))?;
    write_header(&WthorHeader { record_count: count, ..file.header }, out)?;
    let mut record = vec![0u8; kind.record_size()];
    for name in &file.names {
        record.fill(0);
        if name.chars().count() > record.len() {
            return Err(invalid_input("a name is longer than its record"));
        }
        for (slot, c) in record.iter_mut().zip(name.chars()) {
            *slot = u8::try_from(c).ok().filter(|&b| b != 0).ok_or_else(|| invalid_input("a name is not Latin-1"))?;
        }
        out.write_all(&record)?;
    }
    Ok(())
}

/// The bytes of a `WTH.JOU` or `WTH.TRN` file (see [`write_names`]).
///
/// # Errors
/// As [`write_names`].
pub fn names_to_bytes(file: &NameFile, kind: NameKind) -> io::Result<Vec<u8>> {
    let mut out = Vec::new();
    write_names(file, kind, &mut out)?;
    Ok(out)
}

/// The move byte of a square: `10 × row + column`, both 1-based.
#[must_use]
pub const fn move_byte(square: Square) -> u8 {
    // Row and column are below 8, so the value is at most 88: wrapping arithmetic never wraps.
    square.row().wrapping_add(1).wrapping_mul(10).wrapping_add(square.column().wrapping_add(1))
}

/// The square of a move byte, or `None` if it is not `10 × row + column` with row and column in 1-8.
#[must_use]
pub const fn square_of_byte(byte: u8) -> Option<Square> {
    let (row, column) = (byte / 10, byte % 10);
    match (row.checked_sub(1), column.checked_sub(1)) {
        (Some(row), Some(column)) => Square::from_coords(column, row),
        _ => None,
    }
}

fn read_header(reader: &mut ByteReader<'_>) -> Result<WthorHeader, WthorError> {
    let [century, year, month, day] = reader.read_array().map_err(WthorError::TruncatedHeader)?;
    Ok(WthorHeader {
        created: WthorDate { century, year, month, day },
        game_count: reader.read_u32_le().map_err(WthorError::TruncatedHeader)?,
        record_count: reader.read_u16_le().map_err(WthorError::TruncatedHeader)?,
        game_year: reader.read_u16_le().map_err(WthorError::TruncatedHeader)?,
        board_size: reader.read_u8().map_err(WthorError::TruncatedHeader)?,
        game_type: reader.read_u8().map_err(WthorError::TruncatedHeader)?,
        depth: reader.read_u8().map_err(WthorError::TruncatedHeader)?,
        reserved: reader.read_u8().map_err(WthorError::TruncatedHeader)?,
    })
}

fn write_header(header: &WthorHeader, out: &mut impl Write) -> io::Result<()> {
    let WthorDate { century, year, month, day } = header.created;
    out.write_all(&[century, year, month, day])?;
    out.write_all(&header.game_count.to_le_bytes())?;
    out.write_all(&header.record_count.to_le_bytes())?;
    out.write_all(&header.game_year.to_le_bytes())?;
    out.write_all(&[header.board_size, header.game_type, header.depth, header.reserved])
}

/// Checks, before anything is allocated, that exactly `declared` records of `size` bytes follow.
fn check_length(reader: &ByteReader<'_>, declared: usize, size: usize) -> Result<(), WthorError> {
    let start = reader.offset();
    let available = reader.remaining();
    match declared.checked_mul(size) {
        Some(needed) if needed == available => Ok(()),
        Some(needed) if needed < available => Err(WthorError::TrailingBytes {
            offset: start.saturating_add(needed),
            count: available.saturating_sub(needed),
            declared,
        }),
        _ => Err(WthorError::Truncated {
            offset: start.saturating_add(available),
            record: available.checked_div(size).unwrap_or(0),
            declared,
        }),
    }
}

fn truncated(eof: UnexpectedEof, record: usize, declared: usize) -> WthorError {
    WthorError::Truncated { offset: eof.offset.saturating_add(eof.available), record, declared }
}

fn read_game(reader: &mut ByteReader<'_>, game: usize, declared: usize) -> Result<WthorGame, WthorError> {
    let eof = |eof| truncated(eof, game, declared);
    let tournament = reader.read_u16_le().map_err(eof)?;
    let black_player = reader.read_u16_le().map_err(eof)?;
    let white_player = reader.read_u16_le().map_err(eof)?;
    let mut score = |field| {
        let offset = reader.offset();
        let value = reader.read_u8().map_err(eof)?;
        if value > 64 { Err(WthorError::BadScore { game, offset, field, value }) } else { Ok(value) }
    };
    let black_discs = score("black disc count")?;
    let theoretical_black_discs = score("theoretical black disc count")?;
    let start = reader.offset();
    let bytes: [u8; MOVE_BYTES] = reader.read_array().map_err(eof)?;
    let mut replay = Replay::new();
    let mut ended = false;
    for (index, &byte) in bytes.iter().enumerate() {
        let offset = start.saturating_add(index);
        let move_number = index.saturating_add(1);
        if byte == 0 {
            ended = true;
            continue;
        }
        if ended {
            return Err(WthorError::MoveAfterEnd { game, move_number, offset, byte });
        }
        let square = square_of_byte(byte).ok_or(WthorError::BadMoveByte { game, move_number, offset, byte })?;
        let mv = Move::Place(square);
        replay.play(mv).map_err(|reason| WthorError::IllegalMove { game, move_number, offset, mv, reason })?;
    }
    Ok(WthorGame {
        tournament,
        black_player,
        white_player,
        black_discs,
        theoretical_black_discs,
        moves: replay.moves,
        end: replay.position,
    })
}

/// A game being replayed from the standard start, passes inserted as the rules force them.
struct Replay {
    position: Position,
    moves: Vec<Move>,
    just_passed: bool,
}

impl Replay {
    fn new() -> Replay {
        Replay { position: Position::INITIAL, moves: Vec::new(), just_passed: false }
    }

    fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        if self.position.board.is_game_over() {
            return Err(IllegalMove::GameOver);
        }
        self.position = self.position.play(mv)?;
        self.moves.push(mv);
        self.just_passed = false;
        if let Ok(next) = self.position.play(Move::Pass) {
            self.position = next;
            self.moves.push(Move::Pass);
            self.just_passed = true;
        }
        Ok(())
    }
}

fn invalid_input(message: &'static str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, message)
}

/// `YYYY-MM-DD` (century and year joined).
impl fmt::Display for WthorDate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{:02}-{:02}-{:02}", self.century, self.year, self.month, self.day)
    }
}
