//! Edax's `book.dat` (read and write).
//!
//! Little-endian. Boards are Edax bitboards: **a1 = bit 0** … h8 = bit 63, the same as ours; moves are Edax indices
//! (a1 = 0 … h8 = 63, 64 = pass, 65 = no move). Edax keys a position by the smallest (player, opponent) pair of its 8
//! symmetric images compared as unsigned integers in this bit order — not Egaroucid's order — and expects the stored
//! board, its links and its leaf in that orientation; the writer converts.
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `XADEKOOB` ("EDAX", "BOOK" stored as little-endian u32) |
//! | 8 | 1 | version (we write 4) |
//! | 9 | 1 | release (we write 4) |
//! | 10 | 2 | year |
//! | 12 | 5 | month, day, hour, minute, second (1 byte each) |
//! | 17 | 1 | padding |
//! | 18 | 4 | i32 level (we write the export level, or the highest level in the book) |
//! | 22 | 4 | i32 n_empties (we write 61 − the largest ply written, as Egaroucid) |
//! | 26 | 4 | i32 midgame error (we write 2, Edax's default, used for the bounds) |
//! | 30 | 4 | i32 endgame error (we write 1, Edax's default) |
//! | 34 | 4 | i32 verbosity (0) |
//! | 38 | 4 | i32 number of positions *n* |
//! | 42 | … | *n* positions |
//!
//! Position (42 + 2·*k* bytes): 0 u64 player, 8 u64 opponent, 16 u32 wins, 20 u32 draws, 24 u32 losses, 28 u32 lines,
//! 32 i16 value, 34 i16 lower bound, 36 i16 upper bound, 38 u8 *k* links, 39 u8 level, 40 *k* × (i8 value, u8 move),
//! then the leaf (i8 value, u8 move).
//!
//! Reading keeps value, level, lines and the leaf (in canonical orientation, at the position's level); links,
//! win/draw/loss counts and bounds are derived data and are not kept. Positions whose side to move cannot play (Edax
//! stores the pass positions) are skipped: our book keys the position after the pass. A value outside −64..=64 or
//! overlapping bitboards reject the file.
//!
//! Writing derives the links from the book, writes the leaf unless it became a link, adds a record for every pass
//! position (one pass link), and computes the win/draw/loss counts as Edax does: a leaf searched exactly counts as a win,
//! draw or loss for the side to move, and each link adds its child's counts with wins and losses swapped (merging
//! lines are counted twice, as in Edax). Bounds are Edax's negamaxed bounds (see `WdlCounter`): a leaf gives its
//! value exactly when solved, ± the endgame error for a selective search to the end, ± the midgame error (with
//! Edax's depth-parity bias) otherwise; links take the children's bounds negated. (Egaroucid writes −64/+64.)
#![deny(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::cast_possible_truncation,
    clippy::arithmetic_side_effects
)]

use std::io::{self, Write};

use super::error::{FormatError, RecordProblem};
use super::ops::{Control, REPORT_EVERY, Stage, Stopped};
use super::{Book, Entry, LEVEL_UNDEFINED, Leaf, MAX_LINES, book_child, legal_moves};
use crate::Symmetry;
use crate::board::{Board, Move};
use crate::format::reader::ByteReader;
use crate::level::Level;

/// Magic of Edax books.
pub const MAGIC: &[u8; 8] = b"XADEKOOB";
/// Bytes before the first position.
pub const HEADER_LEN: usize = 42;
/// Bytes of a position without links.
pub const MIN_POSITION_LEN: usize = 42;

/// The header fields of an Edax book.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Header {
    /// Edax version.
    pub version: u8,
    /// Edax release.
    pub release: u8,
    /// Date and time of the save: year, month, day, hour, minute, second.
    pub date: (u16, u8, u8, u8, u8, u8),
    /// Search level of the book.
    pub level: i32,
    /// Empties limit.
    pub n_empties: i32,
    /// Midgame error setting.
    pub midgame_error: i32,
    /// Endgame error setting.
    pub endgame_error: i32,
    /// Verbosity setting.
    pub verbosity: i32,
    /// Number of positions the file holds (pass positions included).
    pub positions: u32,
}

/// How to write an Edax book.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WriteOptions {
    /// Header level; `None` writes the highest level in the book.
    pub level: Option<u8>,
    /// Date written in the header (year, month, day, hour, minute, second).
    pub date: (u16, u8, u8, u8, u8, u8),
}

impl Default for WriteOptions {
    fn default() -> WriteOptions {
        WriteOptions { level: None, date: utc_now() }
    }
}

/// The current UTC date and time (year, month, day, hour, minute, second).
#[must_use]
pub fn utc_now() -> (u16, u8, u8, u8, u8, u8) {
    let now = crate::calendar::UtcDateTime::of(std::time::SystemTime::now());
    let small = |v: u64| u8::try_from(v).unwrap_or(0);
    (
        u16::try_from(now.year).unwrap_or(0),
        small(now.month),
        small(now.day),
        small(now.hour),
        small(now.minute),
        small(now.second),
    )
}

/// Edax's key of a board: the smallest (player, opponent) of its images as unsigned integers (a1 = bit 0), and the
/// symmetry that maps the board onto it.
#[must_use]
pub fn edax_unique(board: &Board) -> (Board, Symmetry) {
    let mut best = (*board, Symmetry::Identity);
    for symmetry in Symmetry::ALL.into_iter().skip(1) {
        let image = board.transform(symmetry);
        if (image.player.0, image.opponent.0) < (best.0.player.0, best.0.opponent.0) {
            best = (image, symmetry);
        }
    }
    best
}

fn read_header(reader: &mut ByteReader<'_>) -> Result<Header, FormatError> {
    if let Some(found) = reader.expect_magic(MAGIC)? {
        return Err(FormatError::Magic { expected: "XADEKOOB", found: String::from_utf8_lossy(found).into_owned() });
    }
    let version = reader.read_u8()?;
    let release = reader.read_u8()?;
    let year = reader.read_u16_le()?;
    let [month, day, hour, minute, second, _pad] = reader.read_array::<6>()?;
    let mut int = || reader.read_array().map(i32::from_le_bytes);
    let level = int()?;
    let n_empties = int()?;
    let midgame_error = int()?;
    let endgame_error = int()?;
    let verbosity = int()?;
    Ok(Header {
        version,
        release,
        date: (year, month, day, hour, minute, second),
        level,
        n_empties,
        midgame_error,
        endgame_error,
        verbosity,
        positions: 0,
    })
}

/// Parses an Edax book; returns it with the header.
///
/// # Errors
/// [`FormatError`] naming the offset (and record) of the first problem.
pub fn parse(bytes: &[u8]) -> Result<(Book, Header), FormatError> {
    parse_with(bytes, &Control::none())
}

/// [`parse`] with progress ([`Stage::Load`], records) and stop.
///
/// # Errors
/// [`FormatError`] naming the offset (and record) of the first problem, or [`FormatError::Stopped`].
pub fn parse_with(bytes: &[u8], control: &Control<'_>) -> Result<(Book, Header), FormatError> {
    let mut reader = ByteReader::new(bytes);
    let mut header = read_header(&mut reader)?;
    let count_offset = reader.offset();
    let raw = i32::from_le_bytes(reader.read_array()?);
    let available = reader.remaining();
    let count = usize::try_from(raw)
        .ok()
        .filter(|n| n.checked_mul(MIN_POSITION_LEN).is_some_and(|b| b <= available))
        .ok_or(FormatError::Count {
        offset: count_offset,
        count: i64::from(raw),
        needed: u64::try_from(raw.max(0)).unwrap_or(0).saturating_mul(MIN_POSITION_LEN as u64),
        available,
    })?;
    header.positions = u32::try_from(count).unwrap_or(0);
    let mut book = Book::with_capacity(count);
    let total = count as u64;
    for index in 0..total {
        if index.is_multiple_of(REPORT_EVERY) {
            control.report(Stage::Load, index, total);
            if control.is_stopped() {
                return Err(FormatError::Stopped);
            }
        }
        let offset = reader.offset();
        let record_error = |problem| FormatError::Record { index, offset, problem };
        let player = u64::from_le_bytes(reader.read_array()?);
        let opponent = u64::from_le_bytes(reader.read_array()?);
        let _wins_draws_losses = reader.read_array::<12>()?;
        let lines = reader.read_u32_le()?;
        let value = reader.read_i16_le()?;
        let _bounds = reader.read_array::<4>()?;
        let n_links = reader.read_u8()?;
        let level = reader.read_u8()?;
        let _links = reader.read_bytes(usize::from(n_links).saturating_mul(2))?;
        let [leaf_value, leaf_move] = reader.read_array::<2>()?;
        let board = Board::new(player, opponent).ok_or(record_error(RecordProblem::Overlap { player, opponent }))?;
        let value = i8::try_from(value)
            .ok()
            .filter(|v| (-64..=64).contains(v))
            .ok_or(record_error(RecordProblem::Value(i32::from(value))))?;
        if !board.has_moves() {
            continue; // a pass position (or a finished game): the book keys the position after the pass
        }
        let leaf_value = leaf_value as i8;
        let leaf = match Move::from_edax_index(leaf_move) {
            Some(mv) if board.is_legal(mv) && (-64..=64).contains(&leaf_value) => Leaf::new(mv, leaf_value, level),
            _ => Leaf::NONE,
        };
        book.merge_entry(&board, Entry { value, level, lines, leaf });
    }
    if !reader.is_empty() {
        return Err(FormatError::Trailing { offset: reader.offset(), extra: reader.remaining() });
    }
    control.report(Stage::Load, total, total);
    Ok((book, header))
}

/// Win, draw and loss counts for the side to move.
type Wdl = [u32; 3];

/// Whether a value found at `level` for a position with `empties` empty squares is exact.
fn is_exact(level: u8, empties: u32) -> bool {
    Level::new(level).is_ok_and(|level| u32::from(level.exact_from()) >= empties)
}

/// Edax's error on a midgame leaf value, written into the header (Edax's default).
pub const MIDGAME_ERROR: i32 = 2;
/// Edax's error on a selective endgame leaf value, written into the header (Edax's default).
pub const ENDCUT_ERROR: i32 = 1;

/// What the writer derives for a position: Edax's win/draw/loss counts and its bounds (side to move's view).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Derived {
    wdl: Wdl,
    lower: i32,
    upper: i32,
}

/// The bounds of a leaf worth `value`, found at `level` by searching the child (`empties` − 1 empty squares):
/// exact for a solve, ± [`ENDCUT_ERROR`] for a selective search to the end, else ± [`MIDGAME_ERROR`] shifted by
/// Edax's parity bias ((search depth from the position & 1) − (empties & 1)).
fn leaf_bounds(value: i32, level: u8, empties: u32) -> (i32, i32) {
    let child_empties = empties.saturating_sub(1);
    if is_exact(level, child_empties) {
        return (value, value);
    }
    let level = Level::clamped(level);
    if level.plan(u8::try_from(child_empties).unwrap_or(u8::MAX)).is_endgame() {
        return (value.saturating_sub(ENDCUT_ERROR), value.saturating_add(ENDCUT_ERROR));
    }
    let depth = u32::from(level.midgame_depth()).saturating_add(1);
    let bias = i32::from(depth % 2 == 1).saturating_sub(i32::from(empties % 2 == 1));
    (value.saturating_sub(MIDGAME_ERROR).saturating_sub(bias), value.saturating_add(MIDGAME_ERROR).saturating_sub(bias))
}

/// Computes the Edax win/draw/loss counts and bounds of every position (memoised by slot).
///
/// Bounds as Edax's negamax: from the leaf ([`leaf_bounds`]), then over the links lower = max(lower, −child upper)
/// and upper = max(upper, −child lower) (not negated through a pass); −64/+64 without leaf and links, and a finished
/// game's value exactly.
///
/// The counter reports each [`REPORT_EVERY`] positions derived and stops deriving (giving placeholder values, which
/// the writer never writes) once its control is stopped.
struct WdlCounter<'a, 'c> {
    book: &'a Book,
    memo: Vec<Option<Derived>>,
    control: &'a Control<'c>,
    /// Positions derived so far (every position of the book once).
    derived: u64,
    stopped: bool,
}

/// Bounds of a position nothing is known about.
const UNKNOWN: Derived = Derived { wdl: [0; 3], lower: -64, upper: 64 };

impl WdlCounter<'_, '_> {
    fn count(&mut self, canonical: &Board, entry: &Entry) -> Derived {
        let Some(slot) = self.book.table.slot_of([canonical.player.0, canonical.opponent.0]) else {
            return UNKNOWN;
        };
        if let Some(Some(done)) = self.memo.get(slot) {
            return *done;
        }
        if self.stopped {
            return UNKNOWN;
        }
        self.derived = self.derived.saturating_add(1);
        if self.derived.is_multiple_of(REPORT_EVERY) {
            // Units of the save: each position derived, then written.
            self.control.report(Stage::Save, self.derived, (self.book.len() as u64).saturating_mul(2));
            self.stopped = self.control.is_stopped();
        }
        let mut wdl: Wdl = [0; 3];
        let add = |wdl: &mut Wdl, value: i32| {
            let i = if value > 0 {
                0
            } else if value == 0 {
                1
            } else {
                2
            };
            if let Some(c) = wdl.get_mut(i) {
                *c = c.saturating_add(1);
            }
        };
        let mut bounds: Option<(i32, i32)> = None;
        let widen = |bounds: &mut Option<(i32, i32)>, (lower, upper): (i32, i32)| {
            *bounds = Some(bounds.map_or((lower, upper), |(l, u)| (l.max(lower), u.max(upper))));
        };
        if canonical.is_game_over() {
            add(&mut wdl, i32::from(entry.value));
            widen(&mut bounds, (i32::from(entry.value), i32::from(entry.value)));
        } else {
            let empties = canonical.empty_count();
            if let Some(mv) = entry.leaf.mv()
                && book_child(canonical, mv).is_some_and(|(child, _)| !self.book.contains(&child))
            {
                let value = i32::from(entry.leaf.value);
                if is_exact(entry.leaf.level, empties.saturating_sub(1)) {
                    add(&mut wdl, value);
                }
                widen(&mut bounds, leaf_bounds(value, entry.leaf.level, empties));
            }
            for mv in legal_moves(canonical) {
                let Some((child, negate)) = book_child(canonical, mv) else { continue };
                let (child_canonical, _) = child.canonical();
                let Some(child_entry) = self.book.get_canonical(&child_canonical) else { continue };
                let derived = self.count(&child_canonical, &child_entry);
                let [w, d, l] = derived.wdl;
                let (w, l) = if negate { (l, w) } else { (w, l) };
                wdl = [wdl[0].saturating_add(w), wdl[1].saturating_add(d), wdl[2].saturating_add(l)];
                let child_bounds = if negate {
                    (derived.upper.saturating_neg(), derived.lower.saturating_neg())
                } else {
                    (derived.lower, derived.upper)
                };
                widen(&mut bounds, child_bounds);
            }
        }
        let (lower, upper) = bounds.map_or((-64, 64), |(l, u)| (l.clamp(-64, 64), u.clamp(-64, 64)));
        let derived = Derived { wdl, lower, upper };
        if let Some(memo) = self.memo.get_mut(slot) {
            *memo = Some(derived);
        }
        derived
    }
}

/// One position record in Edax orientation.
struct Record {
    board: Board,
    wdl: Wdl,
    bounds: (i16, i16),
    lines: u32,
    value: i8,
    level: u8,
    links: Vec<(i8, u8)>,
    leaf: (i8, u8),
}

impl Record {
    fn write(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.board.player.0.to_le_bytes());
        out.extend_from_slice(&self.board.opponent.0.to_le_bytes());
        for c in self.wdl {
            out.extend_from_slice(&c.to_le_bytes());
        }
        out.extend_from_slice(&self.lines.to_le_bytes());
        out.extend_from_slice(&i16::from(self.value).to_le_bytes());
        out.extend_from_slice(&self.bounds.0.to_le_bytes());
        out.extend_from_slice(&self.bounds.1.to_le_bytes());
        out.push(u8::try_from(self.links.len()).unwrap_or(u8::MAX));
        out.push(self.level);
        for (value, mv) in self.links.iter().take(usize::from(u8::MAX)) {
            out.push(*value as u8);
            out.push(*mv);
        }
        out.push(self.leaf.0 as u8);
        out.push(self.leaf.1);
    }
}

/// Writes `book` as an Edax book (see the [module docs](self) for what is derived).
///
/// # Errors
/// The writer's I/O error; more than `i32::MAX` records is [`io::ErrorKind::InvalidInput`].
pub fn write(book: &Book, options: &WriteOptions, out: &mut dyn Write) -> io::Result<()> {
    write_with(book, options, out, &Control::none())
}

/// [`write`](fn@write) with progress ([`Stage::Save`]: each position counted twice, when derived and when written)
/// and stop.
///
/// # Errors
/// As [`write`](fn@write); a stop is an [`io::ErrorKind::Interrupted`] error carrying [`Stopped`] (the
/// output is then incomplete).
pub fn write_with(book: &Book, options: &WriteOptions, out: &mut dyn Write, control: &Control<'_>) -> io::Result<()> {
    let positions = book.len() as u64;
    let total = positions.saturating_mul(2);
    control.report(Stage::Save, 0, total);
    control.check_io()?;
    let mut counter = WdlCounter { book, memo: vec![None; book.table.capacity()], control, derived: 0, stopped: false };
    let mut records = Vec::with_capacity(book.len());
    let mut max_level = 0u8;
    let mut max_discs = 4u32;
    for (i, (canonical, entry)) in book.iter().enumerate() {
        if (i as u64).is_multiple_of(REPORT_EVERY) {
            control.report(Stage::Save, counter.derived, total);
            control.check_io()?;
        }
        let Derived { wdl, lower, upper } = counter.count(&canonical, &entry);
        if counter.stopped {
            return Err(io::Error::new(io::ErrorKind::Interrupted, Stopped));
        }
        let bounds = (i16::try_from(lower).unwrap_or(-64), i16::try_from(upper).unwrap_or(64));
        let (board, symmetry) = edax_unique(&canonical);
        let level = entry.level.clamp(1, 60);
        if entry.level != LEVEL_UNDEFINED {
            max_level = max_level.max(level);
        }
        let mut links = Vec::new();
        for mv in legal_moves(&board) {
            if let Some(m) = book.move_value(&board, mv) {
                links.push((m.value, mv.edax_index()));
            }
        }
        let leaf = match entry.leaf.transform(symmetry).mv() {
            Some(mv) if book_child(&board, mv).is_some_and(|(child, _)| !book.contains(&child)) => {
                (entry.leaf.value, mv.edax_index())
            }
            _ => (-64, 65),
        };
        max_discs = max_discs.max(64u32.saturating_sub(board.empty_count()));
        records.push(Record { board, wdl, bounds, lines: entry.lines, value: entry.value, level, links, leaf });
        // The position before a pass into this one: Edax stores it with a single pass link.
        let before = canonical.pass();
        if canonical.has_moves() && !before.has_moves() {
            let (board, _) = edax_unique(&before);
            let [w, d, l] = wdl;
            records.push(Record {
                board,
                wdl: [l, d, w],
                bounds: (bounds.1.saturating_neg(), bounds.0.saturating_neg()),
                lines: entry.lines.saturating_add(1).min(MAX_LINES),
                value: entry.value.saturating_neg(),
                level,
                links: vec![(entry.value.saturating_neg(), 64)],
                leaf: (-64, 65),
            });
        }
    }
    records.sort_unstable_by_key(|r| (r.board.player.0, r.board.opponent.0));
    let count = i32::try_from(records.len())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "more than 2^31 - 1 positions"))?;
    let level = options.level.map_or(i32::from(max_level.max(1)), i32::from);
    let ply = max_discs.saturating_sub(4);
    let n_empties = 61i32.saturating_sub(i32::try_from(ply).unwrap_or(0));
    let (year, month, day, hour, minute, second) = options.date;
    let mut header = Vec::with_capacity(HEADER_LEN);
    header.extend_from_slice(MAGIC);
    header.extend_from_slice(&[4, 4]);
    header.extend_from_slice(&year.to_le_bytes());
    header.extend_from_slice(&[month, day, hour, minute, second, 0]);
    for field in [level, n_empties, MIDGAME_ERROR, ENDCUT_ERROR, 0, count] {
        header.extend_from_slice(&field.to_le_bytes());
    }
    out.write_all(&header)?;
    control.report(Stage::Save, positions, total);
    control.check_io()?;
    let mut buffer = Vec::with_capacity(1 << 20);
    let records_len = records.len() as u64;
    for (i, record) in records.iter().enumerate() {
        record.write(&mut buffer);
        if buffer.len() >= 1 << 20 {
            out.write_all(&buffer)?;
            buffer.clear();
            // Records include the pass positions: scale to the book's positions.
            let written = (i as u64).saturating_mul(positions).checked_div(records_len).unwrap_or(0);
            control.report(Stage::Save, positions.saturating_add(written), total);
            control.check_io()?;
        }
    }
    out.write_all(&buffer)?;
    control.report(Stage::Save, total, total);
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::arithmetic_side_effects)]
mod tests {
    use super::*;

    #[test]
    fn leaf_bounds_follow_the_kind_of_search() {
        // Midgame: ± 2, shifted by (depth from the position & 1) − (empties & 1); level 20 searches the child 20
        // plies deep, 21 from the position.
        assert_eq!(leaf_bounds(5, 20, 59), (3, 7));
        assert_eq!(leaf_bounds(5, 20, 58), (2, 6));
        assert_eq!(leaf_bounds(5, 21, 59), (4, 8));
        // A selective search to the end: ± 1; a solve: exact.
        let level = Level::clamped(21);
        let child_empties = level.endgame_start();
        let plan = level.plan(child_empties);
        assert!(plan.is_endgame() && !plan.is_exact(), "{plan:?}");
        let empties = u32::from(child_empties) + 1;
        assert!(!is_exact(21, empties - 1));
        assert_eq!(leaf_bounds(-4, 21, empties), (-5, -3));
        assert!(is_exact(21, 4));
        assert_eq!(leaf_bounds(-4, 21, 5), (-4, -4));
    }
}
