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
//! The writer sorts the positions by their Egaroucid key, so equal books give identical files.
#![deny(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::cast_possible_truncation,
    clippy::arithmetic_side_effects
)]

use std::io::{self, Write};

use rayon::prelude::*;

use super::file::{FormatError, RecordProblem};
use super::table::Key;
use super::{Book, Entry, Leaf};
use crate::board::Board;
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
/// Records parsed per parallel task.
const CHUNK: usize = 1 << 17;

/// Checks a stored board and value and returns the canonical key with the symmetry used.
fn canonical_record(
    index: u64,
    offset: usize,
    player: u64,
    opponent: u64,
    value: i32,
) -> Result<(Key, crate::Symmetry), FormatError> {
    let record_error = |problem| FormatError::Record { index, offset, problem };
    // Egaroucid's a1 = bit 63 is our bit 0: reversing the bits gives our bitboards.
    let board = Board::new(player.reverse_bits(), opponent.reverse_bits())
        .ok_or_else(|| record_error(RecordProblem::Overlap { player, opponent }))?;
    if !(-64..=64).contains(&value) {
        return Err(record_error(RecordProblem::Value(value)));
    }
    let (canonical, symmetry) = board.canonical();
    Ok(([canonical.player.0, canonical.opponent.0], symmetry))
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

/// Builds a book from canonical records, merging duplicates with the level rule.
fn collect(records: Vec<Vec<(Key, Entry)>>) -> Book {
    let total = records.iter().map(Vec::len).sum();
    let mut book = Book::with_capacity(total);
    for chunk in records {
        for (key, entry) in chunk {
            book.merge_canonical(key, entry);
        }
    }
    book
}

/// Parses an egbk3 file.
///
/// # Errors
/// [`FormatError`] naming the offset (and record) of the first problem.
pub fn parse_egbk3(bytes: &[u8]) -> Result<Book, FormatError> {
    let mut reader = ByteReader::new(bytes);
    read_header(&mut reader, 3)?;
    let count = read_count(&mut reader, EGBK3_RECORD_LEN)?;
    let start = reader.offset();
    let body = reader.read_bytes(count.saturating_mul(EGBK3_RECORD_LEN))?;
    trailing(&reader)?;
    let chunks: Vec<Result<Vec<(Key, Entry)>, FormatError>> = body
        .par_chunks(CHUNK.saturating_mul(EGBK3_RECORD_LEN))
        .enumerate()
        .map(|(chunk_index, chunk)| {
            let first = chunk_index.saturating_mul(CHUNK);
            chunk
                .chunks_exact(EGBK3_RECORD_LEN)
                .enumerate()
                .map(|(i, record)| {
                    let index = first.saturating_add(i);
                    let offset = start.saturating_add(index.saturating_mul(EGBK3_RECORD_LEN));
                    parse_egbk3_record(index as u64, offset, record)
                })
                .collect()
        })
        .collect();
    let records = chunks.into_iter().collect::<Result<Vec<_>, _>>()?;
    Ok(collect(records))
}

fn parse_egbk3_record(index: u64, offset: usize, record: &[u8]) -> Result<(Key, Entry), FormatError> {
    let mut r = ByteReader::new(record);
    let player = u64::from_le_bytes(r.read_array()?);
    let opponent = u64::from_le_bytes(r.read_array()?);
    let packed: [u8; 9] = r.read_array()?;
    let entry = Entry::unpack(&packed);
    let (key, symmetry) = canonical_record(index, offset, player, opponent, i32::from(entry.value))?;
    Ok((key, Entry { leaf: entry.leaf.transform(symmetry), ..entry }))
}

/// Writes `book` as egbk3, positions sorted by their Egaroucid key.
///
/// # Errors
/// The writer's I/O error; a book of more than `i32::MAX` positions is [`io::ErrorKind::InvalidInput`].
pub fn write_egbk3(book: &Book, out: &mut dyn Write) -> io::Result<()> {
    let count = i32::try_from(book.len())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "more than 2^31 - 1 positions"))?;
    let mut records = sorted_records(book);
    out.write_all(MAGIC)?;
    out.write_all(&[3])?;
    out.write_all(&count.to_le_bytes())?;
    let mut buffer = Vec::with_capacity(CHUNK.saturating_mul(EGBK3_RECORD_LEN));
    for chunk in records.chunks_mut(CHUNK) {
        buffer.clear();
        for (key, packed) in chunk.iter() {
            buffer.extend_from_slice(&key[0].to_le_bytes());
            buffer.extend_from_slice(&key[1].to_le_bytes());
            buffer.extend_from_slice(packed);
        }
        out.write_all(&buffer)?;
    }
    Ok(())
}

/// Every position as (Egaroucid key, packed entry), sorted by key.
fn sorted_records(book: &Book) -> Vec<(Key, [u8; 9])> {
    let (keys, values) = book.slots();
    let mut records: Vec<(Key, [u8; 9])> = keys
        .par_iter()
        .zip(values.par_iter())
        .filter(|(k, _)| **k != [0, 0])
        .map(|(k, v)| ([k[0].reverse_bits(), k[1].reverse_bits()], *v))
        .collect();
    records.par_sort_unstable_by_key(|(k, _)| *k);
    records
}

/// Parses an egbk2 file (links are skipped; leaves are undefined; lines are 1).
///
/// # Errors
/// [`FormatError`] naming the offset (and record) of the first problem.
pub fn parse_egbk2(bytes: &[u8]) -> Result<Book, FormatError> {
    let mut reader = ByteReader::new(bytes);
    read_header(&mut reader, 2)?;
    let count = read_count(&mut reader, EGBK2_MIN_RECORD_LEN)?;
    let mut records = Vec::with_capacity(count);
    for index in 0..count as u64 {
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
    Ok(collect(vec![records]))
}

/// Parses an egbk file; every position gets `level` (the format has none).
///
/// # Errors
/// [`FormatError`] naming the offset (and record) of the first problem.
pub fn parse_egbk(bytes: &[u8], level: u8) -> Result<Book, FormatError> {
    let mut reader = ByteReader::new(bytes);
    let count = read_count(&mut reader, EGBK_RECORD_LEN)?;
    let mut records = Vec::with_capacity(count);
    for index in 0..count as u64 {
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
    Ok(collect(vec![records]))
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
