//! Egaroucid's binary books: `.egbk3` (read and write), `.egbk2` and `.egbk` (read).
//!
//! All little-endian; boards are Egaroucid bitboards (**a1 = bit 63** … h8 = bit 0, the reverse of ours), the side to
//! move first. Layouts (the code of Egaroucid 7, not its documentation, is authoritative; see `docs/book-format.md`):
//!
//! egbk3:
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 9 | magic `DICUORAGE` ("EGAROUCID" reversed) |
//! | 9 | 1 | version = 3 |
//! | 10 | 4 | i32 number of positions *n* |
//! | 14 | 25·*n* | records |
//!
//! egbk3 record (25 bytes): 0 u64 player, 8 u64 opponent, 16 i8 value, 17 i8 level, 18 u32 lines, 22 i8 leaf value,
//! 23 i8 leaf move (Egaroucid index, h8 = 0), 24 i8 leaf level.
//!
//! egbk2: the same magic, version = 2, i32 *n*, then records of 19 + 2·*k* bytes: u64 player, u64 opponent, i8 value,
//! i8 level, u8 *k* links, *k* × (i8 value, i8 move). Links are derived, so they are skipped.
//!
//! egbk: i32 *n*, then 17-byte records: u64 player, u64 opponent, u8 raw with value = 64 − raw. No level.
//!
//! Readers canonicalise every board, merge duplicates with the level rule, and reject the file (nothing partial) on
//! overlapping bitboards, values outside −64..=64, a count the data cannot hold, or bytes after the last record.
//! The writer orders the positions by the hash of their canonical key (then by key), so equal books give identical
//! files, and reading such a file back fills the table with sequential memory accesses.
#![deny(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::cast_possible_truncation,
    clippy::arithmetic_side_effects
)]

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use super::error::{FormatError, RecordProblem};
use super::ops::{Control, REPORT_EVERY, Stage};
use super::table::{Key, Packed, hash_of, sort_by_hash};
use super::{Book, Entry, Leaf};
use crate::format::reader::ByteReader;

/// Magic of egbk3 and egbk2 files.
pub const MAGIC: &[u8; 9] = b"DICUORAGE";
/// Bytes before the first egbk3/egbk2 record.
pub const HEADER_LEN: usize = 14;
/// Bytes of an egbk3 record.
pub const EGBK3_RECORD_LEN: usize = 25;
/// Bytes of an egbk record.
pub const EGBK_RECORD_LEN: usize = 17;
/// Smallest egbk2 record (no links).
const EGBK2_MIN_RECORD_LEN: usize = 19;

/// Checks a stored board and value and returns the canonical key with the symmetry used.
fn canonical_record(
    index: u64,
    offset: usize,
    player: u64,
    opponent: u64,
    value: i32,
) -> Result<(Key, crate::Symmetry), FormatError> {
    let record_error = |problem| FormatError::Record { index, offset, problem };
    if player & opponent != 0 {
        return Err(record_error(RecordProblem::Overlap { player, opponent }));
    }
    if player | opponent == 0 {
        return Err(record_error(RecordProblem::EmptyBoard));
    }
    if !(-64..=64).contains(&value) {
        return Err(record_error(RecordProblem::Value(value)));
    }
    // Egaroucid's a1 = bit 63 is our bit 0: the canonical key reversed gives our bitboards.
    let ([p, o], symmetry) = super::canonical_egaroucid(player, opponent);
    Ok(([p.reverse_bits(), o.reverse_bits()], symmetry))
}

/// Reads the i32 count at the reader's position and checks that `min_record_len` bytes per record follow.
fn read_count(reader: &mut ByteReader<'_>, min_record_len: usize) -> Result<usize, FormatError> {
    let offset = reader.offset();
    let raw = i32::from_le_bytes(reader.read_array()?);
    let available = reader.remaining();
    let count = usize::try_from(raw).ok().filter(|n| n.checked_mul(min_record_len).is_some_and(|b| b <= available));
    count.ok_or(FormatError::Count {
        offset,
        count: i64::from(raw),
        needed: u64::try_from(raw.max(0)).unwrap_or(0).saturating_mul(min_record_len as u64),
        available,
    })
}

fn read_header(reader: &mut ByteReader<'_>, version: u8) -> Result<(), FormatError> {
    if let Some(found) = reader.expect_magic(MAGIC)? {
        return Err(FormatError::Magic { expected: "DICUORAGE", found: String::from_utf8_lossy(found).into_owned() });
    }
    let offset = reader.offset();
    let found = reader.read_u8()?;
    if found != version {
        return Err(FormatError::Version { offset, found });
    }
    Ok(())
}

fn trailing(reader: &ByteReader<'_>) -> Result<(), FormatError> {
    if reader.is_empty() {
        Ok(())
    } else {
        Err(FormatError::Trailing { offset: reader.offset(), extra: reader.remaining() })
    }
}

/// Builds a book from canonical records, merging duplicates with the level rule (in the order given); `count` is the
/// record count of the file, reported as done after each chunk while the stop flag is checked.
fn collect(records: Vec<(Key, Entry)>, count: u64, control: &Control<'_>) -> Result<Book, FormatError> {
    let hashed: Vec<(u64, Key, Packed)> =
        records.into_par_iter().map(|(key, entry)| (hash_of(key), key, entry.pack())).collect();
    let mut filler = Filler::new(hashed.len());
    for chunk in hashed.chunks(FILL_CHUNK) {
        if control.is_stopped() {
            return Err(FormatError::Stopped);
        }
        filler.add(chunk);
        control.report(Stage::Load, count, count);
    }
    Ok(filler.finish())
}

/// Records per parallel insert into the table: large enough to keep the table's regions busy, small enough (about
/// 25 ms of parsing and filling on a 2-core machine) for the load to report and check its stop flag after each.
const FILL_CHUNK: usize = 1 << 18;

/// Reports the progress of a sequential record loop and checks its stop flag every [`REPORT_EVERY`] records.
fn tick(index: u64, count: u64, control: &Control<'_>) -> Result<(), FormatError> {
    if index.is_multiple_of(REPORT_EVERY) {
        control.report(Stage::Load, index, count);
        if control.is_stopped() {
            return Err(FormatError::Stopped);
        }
    }
    Ok(())
}

/// Fills a book presized for a known number of records, a chunk of records at a time, in parallel by table region
/// whatever the order of the records (see `Table::par_bulk_merge`).
struct Filler {
    book: Book,
    scratch: Vec<(u64, Key, Packed)>,
    spills: Vec<(u64, Key, Packed)>,
}

impl Filler {
    fn new(count: usize) -> Filler {
        Filler { book: Book::with_capacity(count), scratch: Vec::new(), spills: Vec::new() }
    }

    fn add(&mut self, records: &[(u64, Key, Packed)]) {
        self.book.table.par_bulk_merge(records, &mut self.scratch, &mut self.spills, merge_packed);
    }

    fn finish(mut self) -> Book {
        self.book.table.bulk_merge(&self.spills, merge_packed);
        self.book
    }
}

/// Parses an egbk3 file.
///
/// # Errors
/// [`FormatError`] naming the offset (and record) of the first problem.
pub fn parse_egbk3(bytes: &[u8]) -> Result<Book, FormatError> {
    parse_egbk3_with(bytes, &Control::none())
}

/// [`parse_egbk3`] with progress ([`Stage::Load`], records) and stop.
///
/// # Errors
/// [`FormatError`] naming the offset (and record) of the first problem, or [`FormatError::Stopped`].
pub fn parse_egbk3_with(bytes: &[u8], control: &Control<'_>) -> Result<Book, FormatError> {
    let mut reader = ByteReader::new(bytes);
    read_header(&mut reader, 3)?;
    let count = read_count(&mut reader, EGBK3_RECORD_LEN)?;
    let start = reader.offset();
    let body = reader.read_bytes(count.saturating_mul(EGBK3_RECORD_LEN))?;
    trailing(&reader)?;
    let record_at = |(index, record): (usize, &[u8])| {
        let offset = start.saturating_add(index.saturating_mul(EGBK3_RECORD_LEN));
        parse_egbk3_record(index as u64, offset, record)
    };
    // Parses the records of `chunk` (starting at record `first`) in parallel into `out`, in place; after a bad
    // record the chunk is scanned again, in order, for the first error.
    let parse_chunk = |first: usize, chunk: &[u8], out: &mut Vec<(u64, Key, Packed)>| -> Result<(), FormatError> {
        let bad = AtomicBool::new(false);
        chunk
            .par_chunks_exact(EGBK3_RECORD_LEN)
            .enumerate()
            .map(|(i, record)| {
                record_at((first.saturating_add(i), record)).unwrap_or_else(|_| {
                    bad.store(true, Ordering::Relaxed);
                    (0, [0, 0], [0; 9])
                })
            })
            .collect_into_vec(out);
        if bad.load(Ordering::Relaxed) {
            let mut records = chunk.chunks_exact(EGBK3_RECORD_LEN).enumerate();
            if let Some(error) = records.find_map(|(i, record)| record_at((first.saturating_add(i), record)).err()) {
                return Err(error);
            }
        }
        Ok(())
    };
    // The records go into the table a chunk at a time (no copy of the whole book), in parallel by table region, so
    // a file in any order (ours is in hash order, Egaroucid's in its hash map's order) loads at the same speed.
    let mut filler = Filler::new(count);
    let mut chunk_records = Vec::with_capacity(FILL_CHUNK);
    let total = count as u64;
    control.report(Stage::Load, 0, total);
    for (chunk_index, chunk) in body.chunks(FILL_CHUNK.saturating_mul(EGBK3_RECORD_LEN)).enumerate() {
        if control.is_stopped() {
            return Err(FormatError::Stopped);
        }
        let first = chunk_index.saturating_mul(FILL_CHUNK);
        parse_chunk(first, chunk, &mut chunk_records)?;
        filler.add(&chunk_records);
        let done = first.saturating_add(chunk_records.len()) as u64;
        control.report(Stage::Load, done, total);
    }
    let book = filler.finish();
    control.report(Stage::Load, total, total);
    Ok(book)
}

/// The level rule on packed entries.
fn merge_packed(stored: &mut Packed, incoming: &Packed) {
    let mut merged = Entry::unpack(stored);
    merged.merge_from(&Entry::unpack(incoming));
    *stored = merged.pack();
}

fn parse_egbk3_record(index: u64, offset: usize, record: &[u8]) -> Result<(u64, Key, Packed), FormatError> {
    let mut r = ByteReader::new(record);
    let player = u64::from_le_bytes(r.read_array()?);
    let opponent = u64::from_le_bytes(r.read_array()?);
    let packed: [u8; 9] = r.read_array()?;
    let entry = Entry::unpack(&packed);
    let (key, symmetry) = canonical_record(index, offset, player, opponent, i32::from(entry.value))?;
    let packed = if symmetry == crate::Symmetry::Identity {
        packed
    } else {
        Entry { leaf: entry.leaf.transform(symmetry), ..entry }.pack()
    };
    Ok((hash_of(key), key, packed))
}

/// Writes `book` as egbk3 (positions in canonical hash order).
///
/// # Errors
/// The writer's I/O error; a book of more than `i32::MAX` positions is [`io::ErrorKind::InvalidInput`].
pub fn write_egbk3(book: &Book, out: &mut dyn Write) -> io::Result<()> {
    write_egbk3_with(book, out, &Control::none())
}

/// [`write_egbk3`] with progress ([`Stage::Save`], positions) and stop.
///
/// # Errors
/// As [`write_egbk3`]; a stop is an [`io::ErrorKind::Interrupted`] error carrying
/// [`Stopped`](super::ops::Stopped) (the output is then incomplete).
pub fn write_egbk3_with(book: &Book, out: &mut dyn Write, control: &Control<'_>) -> io::Result<()> {
    let total = book.len() as u64;
    control.report(Stage::Save, 0, total);
    control.check_io()?;
    let count = i32::try_from(book.len())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "more than 2^31 - 1 positions"))?;
    let records = sorted_records(book, control)?;
    out.write_all(MAGIC)?;
    out.write_all(&[3])?;
    out.write_all(&count.to_le_bytes())?;
    // Encoded in parallel a chunk at a time into one reused buffer, so no second copy of the whole book is made.
    const WRITE_CHUNK: usize = 1 << 16;
    let mut buffer = vec![0u8; WRITE_CHUNK.saturating_mul(EGBK3_RECORD_LEN)];
    let mut done: u64 = 0;
    for chunk in records.chunks(WRITE_CHUNK) {
        control.report(Stage::Save, done, total);
        control.check_io()?;
        done = done.saturating_add(chunk.len() as u64);
        let used = chunk.len().saturating_mul(EGBK3_RECORD_LEN);
        let Some(bytes) = buffer.get_mut(..used) else {
            return Err(io::Error::other("a chunk is larger than the write buffer"));
        };
        bytes.par_chunks_exact_mut(EGBK3_RECORD_LEN).zip(chunk.par_iter()).for_each(|(record, (_, key, packed))| {
            let (player, rest) = record.split_at_mut(8);
            let (opponent, tail) = rest.split_at_mut(8);
            player.copy_from_slice(&key[0].reverse_bits().to_le_bytes());
            opponent.copy_from_slice(&key[1].reverse_bits().to_le_bytes());
            tail.copy_from_slice(packed);
        });
        out.write_all(bytes)?;
    }
    control.report(Stage::Save, total, total);
    Ok(())
}

/// Every position as (canonical key, packed entry), in a canonical order: by the table hash of the key, then by key.
/// The table's slots are nearly in that order already, so the sort is cheap. Reports (no record written yet) and checks
/// the stop flag between the collection and the sort.
fn sorted_records(book: &Book, control: &Control<'_>) -> io::Result<Vec<(u64, Key, Packed)>> {
    let (keys, values) = book.slots();
    let records: Vec<(u64, Key, [u8; 9])> = keys
        .par_iter()
        .zip(values.par_iter())
        .filter(|(k, _)| **k != [0, 0])
        .map(|(k, v)| (hash_of(*k), *k, *v))
        .collect();
    control.report(Stage::Save, 0, book.len() as u64);
    control.check_io()?;
    Ok(sort_by_hash(records, |r| r.0, |a, b| a.1.cmp(&b.1)))
}

/// Parses an egbk2 file (links are skipped; leaves are undefined; lines are 1).
///
/// # Errors
/// [`FormatError`] naming the offset (and record) of the first problem.
pub fn parse_egbk2(bytes: &[u8]) -> Result<Book, FormatError> {
    parse_egbk2_with(bytes, &Control::none())
}

/// [`parse_egbk2`] with progress ([`Stage::Load`], records) and stop.
///
/// # Errors
/// [`FormatError`] naming the offset (and record) of the first problem, or [`FormatError::Stopped`].
pub fn parse_egbk2_with(bytes: &[u8], control: &Control<'_>) -> Result<Book, FormatError> {
    let mut reader = ByteReader::new(bytes);
    read_header(&mut reader, 2)?;
    let count = read_count(&mut reader, EGBK2_MIN_RECORD_LEN)?;
    let mut records = Vec::with_capacity(count);
    for index in 0..count as u64 {
        tick(index, count as u64, control)?;
        let offset = reader.offset();
        let player = u64::from_le_bytes(reader.read_array()?);
        let opponent = u64::from_le_bytes(reader.read_array()?);
        let value = reader.read_u8()? as i8;
        let level = reader.read_u8()?;
        let links = reader.read_u8()?;
        let _links = reader.read_bytes(usize::from(links).saturating_mul(2))?;
        let (key, _) = canonical_record(index, offset, player, opponent, i32::from(value))?;
        records.push((key, Entry { value, level, lines: 1, leaf: Leaf::NONE }));
    }
    trailing(&reader)?;
    collect(records, count as u64, control)
}

/// Parses an egbk file; every position gets `level` (the format has none).
///
/// # Errors
/// [`FormatError`] naming the offset (and record) of the first problem.
pub fn parse_egbk(bytes: &[u8], level: u8) -> Result<Book, FormatError> {
    parse_egbk_with(bytes, level, &Control::none())
}

/// [`parse_egbk`] with progress ([`Stage::Load`], records) and stop.
///
/// # Errors
/// [`FormatError`] naming the offset (and record) of the first problem, or [`FormatError::Stopped`].
pub fn parse_egbk_with(bytes: &[u8], level: u8, control: &Control<'_>) -> Result<Book, FormatError> {
    let mut reader = ByteReader::new(bytes);
    let count = read_count(&mut reader, EGBK_RECORD_LEN)?;
    let mut records = Vec::with_capacity(count);
    for index in 0..count as u64 {
        tick(index, count as u64, control)?;
        let offset = reader.offset();
        let player = u64::from_le_bytes(reader.read_array()?);
        let opponent = u64::from_le_bytes(reader.read_array()?);
        let raw = reader.read_u8()?;
        // Egaroucid 7 reads the byte as signed and takes value = 64 - raw.
        let value = 64i32.saturating_sub(i32::from(raw as i8));
        let (key, _) = canonical_record(index, offset, player, opponent, value)?;
        let value = i8::try_from(value).unwrap_or(0);
        records.push((key, Entry { value, level, lines: 1, leaf: Leaf::NONE }));
    }
    trailing(&reader)?;
    collect(records, count as u64, control)
}

/// Whether `bytes` has the shape of an egbk file: a non-negative count and exactly that many 17-byte records.
#[must_use]
pub fn looks_like_egbk(bytes: &[u8]) -> bool {
    let Some(head) = bytes.first_chunk::<4>() else { return false };
    let Ok(count) = usize::try_from(i32::from_le_bytes(*head)) else { return false };
    count.checked_mul(EGBK_RECORD_LEN).and_then(|n| n.checked_add(4)) == Some(bytes.len())
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::*;
    use crate::board::Board;

    #[test]
    fn egbk_value_is_64_minus_the_byte() {
        let mut bytes = 1i32.to_le_bytes().to_vec();
        let board = Board::INITIAL;
        bytes.extend_from_slice(&board.player.0.reverse_bits().to_le_bytes());
        bytes.extend_from_slice(&board.opponent.0.reverse_bits().to_le_bytes());
        bytes.push(60);
        assert!(looks_like_egbk(&bytes));
        let book = parse_egbk(&bytes, 7).unwrap();
        let entry = book.get(&board).unwrap();
        assert_eq!((entry.value, entry.level), (4, 7));
        bytes[20] = 200; // -56 as a signed byte: value 120
        assert!(matches!(
            parse_egbk(&bytes, 7),
            Err(FormatError::Record { index: 0, offset: 4, problem: RecordProblem::Value(120) })
        ));
    }
}
