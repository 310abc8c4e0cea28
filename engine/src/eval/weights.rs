//! The evaluation weights file (`resources/eval/*.skw`): our own format, magic `SHKREVAL`, version 2 (version 1 is
//! still read).
//!
//! A file holds one [`Weights`] value: a fixed-size header that states the evaluation's shape and two checksums,
//! then the weights as one raw DEFLATE stream ([RFC 1951](https://www.rfc-editor.org/rfc/rfc1951)). Every integer
//! is little-endian. The offsets below are for the current 11 pattern groups (`G` = 11, header = 100 bytes).
//!
//! | offset   | size  | type      | meaning                                                                      |
//! |----------|-------|-----------|------------------------------------------------------------------------------|
//! | 0        | 8     | `[u8; 8]` | magic `SHKREVAL`                                                             |
//! | 8        | 4     | `u32` LE  | format version, 2 (or 1)                                                     |
//! | 12       | 4     | `u32` LE  | phases `P`, 1 to [`MAX_PHASES`] (60); the shipped file has [`PHASES`] (30)   |
//! | 16       | 4     | `u32` LE  | weight unit: 1/`scale` disc, [`SCALE`] (256)                                 |
//! | 20       | 4     | `u32` LE  | mobility table length, [`MAX_MOBILITY`] + 1 (33)                             |
//! | 24       | 4     | `u32` LE  | number of pattern groups `G`, [`GROUP_COUNT`](pattern::GROUP_COUNT) (11)     |
//! | 28       | 4·G   | `u32` LE  | each group's pattern length (squares), in [`pattern::groups`] order          |
//! | 28+4G    | 4     | `u32` LE  | pattern-squares fingerprint: CRC-32 of every group's length byte followed by  |
//! |          |       |           | its base shape's square indices (0 = a1 … 63 = h8, one byte each)             |
//! | 32+4G    | 8     | `u64` LE  | payload length in bytes (uncompressed), see below                            |
//! | 40+4G    | 4     | `u32` LE  | CRC-32 (IEEE, as in zlib/PNG) of the uncompressed payload                     |
//! | 44+4G    | 8     | `u64` LE  | compressed payload length in bytes, `C`                                      |
//! | 52+4G    | 4     | `u32` LE  | CRC-32 of the compressed payload                                             |
//! | 56+4G    | C     | bytes     | the payload, compressed as one raw DEFLATE stream; the file ends after it    |
//!
//! The uncompressed payload is a sequence of `i16` LE weights in 1/`scale` discs, in this order:
//! 1. `patterns[phase][group][index]` for phase 0 to `P` − 1, group in [`pattern::groups`] order, index 0..3^length;
//! 2. `mobility[phase][n]` for each phase, n 0–32;
//! 3. `opponent_mobility[phase][n]`, same order;
//! 4. `bias[phase]` for each phase;
//! 5. version 2 only: `discs[phase][k]` for each phase, k 0–129 (the side to move's discs, plus 65 when the number
//!    of empty squares is odd; [`super::disc_index`]).
//!
//! That is 167 462 weights per phase: 5 023 860 in all and 10 047 720 bytes before compression for 30 phases,
//! 20 095 440 bytes for 60 (version 1: 167 332 per phase, 10 039 920 bytes for 30; its files read with a zero
//! disc-count table). A position with `d` discs on the board is evaluated by phase `(d − 4) · P / 60`
//! ([`super::phase`]), the last phase for a full board.
//!
//! # Checks
//! [`parse`] checks the magic, the version, the phase count (1 to [`MAX_PHASES`], else
//! [`WeightsError::UnsupportedPhases`]), every other shape field against this build's evaluation (a file made for
//! another pattern set is rejected with [`WeightsError::ShapeMismatch`] naming the field), and that the
//! stated payload length equals the one the shape implies, all before allocating anything. It then checks the
//! compressed CRC (so every byte of the file is covered by a check and a flipped bit anywhere is detected), inflates
//! at most the expected payload length plus one byte (a decompression bomb costs nothing), and checks the payload CRC.
//! It never panics and never returns partly filled or zero weights on error.
//!
//! # Stability
//! Versions 1 and 2 are frozen: their files stay readable by later builds with the same evaluation shape. Any change to the layout or to the meaning of a field (order of the weights, units, checksum) bumps the version.
//! The shape fields are not a version: a new pattern set keeps version 1 but cannot read files made for the old one,
//! and the shape mismatch says so. The phase count is read from the header (builds before the 60-phase support
//! reject any count but 30, naming the field). The compressed bytes are not canonical (another DEFLATE encoder or level may give
//! other bytes); the decoded weights are.
#![deny(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::cast_possible_truncation,
    clippy::arithmetic_side_effects
)]

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use flate2::Compression;
use flate2::bufread::DeflateDecoder;
use flate2::write::DeflateEncoder;

#[cfg(doc)]
use super::PHASES;
use super::{DISC_TABLE, MAX_MOBILITY, MAX_PHASES, SCALE, Weights, pattern};
use crate::format::reader::ByteReader;

/// The first 8 bytes of every weights file.
pub const MAGIC: [u8; 8] = *b"SHKREVAL";

/// The format version this build writes (it also reads version 1, which has no disc-count table).
pub const VERSION: u32 = 2;

/// The largest file [`load`] reads (the current shape needs about 20 MB at 60 phases even for incompressible
/// weights).
pub const MAX_FILE_SIZE: u64 = 64 << 20;

/// Why weights could not be read, parsed or written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WeightsError {
    /// The file could not be read.
    #[error("cannot read weights file {}: {source}", .path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: io::Error,
    },
    /// The file is larger than [`MAX_FILE_SIZE`].
    #[error("weights file {} is larger than {limit} bytes: not a weights file", .path.display())]
    FileTooLarge {
        /// The file.
        path: PathBuf,
        /// [`MAX_FILE_SIZE`].
        limit: u64,
    },
    /// The file was read but its contents are invalid.
    #[error("weights file {}: {source}", .path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// What is wrong with it (never another `Parse`, `Read` or `Save`).
        #[source]
        source: Box<WeightsError>,
    },
    /// [`save`] failed; the previous file, if any, is untouched.
    #[error("cannot save weights file {} ({step}): {source}", .path.display())]
    Save {
        /// The file being saved.
        path: PathBuf,
        /// The step that failed.
        step: crate::fsutil::SaveStep,
        /// The I/O error.
        #[source]
        source: io::Error,
    },
    /// The network file that corrects the weights ([`with_network`]) could not be read or is not a network of
    /// this build's pattern layout.
    #[error("cannot read network file {}: {source}", .path.display())]
    Network {
        /// The file.
        path: PathBuf,
        /// What went wrong (`InvalidData` for a file that is not a network).
        #[source]
        source: io::Error,
    },
    /// [`write()`]'s output failed.
    #[error("cannot write weights: {0}")]
    Write(#[source] io::Error),
    /// The [`Weights`] given to [`write()`] do not have this build's shape.
    #[error("cannot write weights: {what} has {found} entries, expected {expected}")]
    BadWeights {
        /// The table, e.g. `patterns[3][2]`.
        what: String,
        /// Its length.
        found: usize,
        /// The length it should have.
        expected: usize,
    },
    /// The data ends before a field or the payload does.
    #[error("truncated at offset {offset}: {what} needs {needed} bytes, {available} left")]
    Truncated {
        /// Offset (0-based, in bytes) where the field starts.
        offset: usize,
        /// The field, e.g. `compressed payload`.
        what: &'static str,
        /// Bytes the field needs.
        needed: u64,
        /// Bytes left from `offset`.
        available: usize,
    },
    /// The file does not start with [`MAGIC`].
    #[error("not a weights file: magic at offset 0 is \"{}\", expected \"SHKREVAL\"", .found.escape_ascii())]
    BadMagic {
        /// The bytes found (up to 8).
        found: Vec<u8>,
    },
    /// The version is neither 1 nor [`VERSION`].
    #[error("unsupported weights format version {found} at offset 8: this build reads versions 1 and {VERSION}")]
    UnsupportedVersion {
        /// The version in the file.
        found: u32,
    },
    /// The header states a phase count this build cannot use (0, or more than [`MAX_PHASES`]).
    #[error(
        "weights for a different evaluation: phases at offset {offset} is {found}, this build reads 1 to {MAX_PHASES}"
    )]
    UnsupportedPhases {
        /// Offset of the field.
        offset: usize,
        /// The value in the file.
        found: u32,
    },
    /// The file was made for another evaluation shape (pattern groups, mobility tables), or its stated payload
    /// length does not fit the shape.
    #[error("weights for a different evaluation: {what} at offset {offset} is {found}, this build expects {expected}")]
    ShapeMismatch {
        /// The field, e.g. `pattern length of group 4 (row 2)`.
        what: String,
        /// Offset of the field.
        offset: usize,
        /// The value in the file.
        found: u64,
        /// The value this build needs.
        expected: u64,
    },
    /// Bytes follow the compressed payload.
    #[error("{count} unexpected bytes at offset {offset} after the compressed payload")]
    TrailingBytes {
        /// Offset of the first extra byte.
        offset: usize,
        /// Number of extra bytes.
        count: usize,
    },
    /// A checksum does not match its data.
    #[error("{what} checksum mismatch: the header at offset {offset} says {expected:08x}, the data gives {found:08x}")]
    ChecksumMismatch {
        /// `compressed payload` or `payload`.
        what: &'static str,
        /// Offset of the checksum field.
        offset: usize,
        /// The CRC-32 stored in the header.
        expected: u32,
        /// The CRC-32 of the data.
        found: u32,
    },
    /// The compressed payload is not a valid DEFLATE stream.
    #[error("cannot decompress the payload at offset {offset}: {source}")]
    Decompress {
        /// Offset of the compressed payload.
        offset: usize,
        /// The decoder's error.
        #[source]
        source: io::Error,
    },
    /// The DEFLATE stream ends before the compressed payload does.
    #[error("{count} bytes at offset {offset} inside the compressed payload follow the end of the deflate stream")]
    UnusedCompressedBytes {
        /// Offset of the first unused byte.
        offset: usize,
        /// Number of unused bytes.
        count: usize,
    },
    /// The payload inflates to fewer bytes than the header states.
    #[error("the payload inflates to {found} bytes, expected {expected}")]
    PayloadTooShort {
        /// Bytes produced.
        found: usize,
        /// Bytes expected.
        expected: usize,
    },
    /// The payload inflates to more bytes than the header states (decompression stops there).
    #[error("the payload inflates to more than the expected {expected} bytes")]
    PayloadTooLong {
        /// Bytes expected.
        expected: usize,
    },
}

/// What the header states about the evaluation.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Shape {
    phases: u32,
    scale: u32,
    mobility_length: u32,
    group_lengths: Vec<u32>,
    squares_fingerprint: u32,
    /// Bytes of the uncompressed payload.
    payload_length: usize,
}

/// Converts a build constant; a value that does not fit (never the case) becomes `u32::MAX`, which no file matches.
fn small(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

/// Number of weights in one phase in a file of `version`.
fn weights_per_phase(version: u32) -> usize {
    let patterns: usize = pattern::groups().iter().map(pattern::Group::size).sum();
    // MAX_MOBILITY + 1 for each mobility table, 1 for the bias, the disc table from version 2; constants.
    let v1 = patterns.saturating_add(MAX_MOBILITY.saturating_add(1).saturating_mul(2)).saturating_add(1);
    if version >= 2 { v1.saturating_add(DISC_TABLE) } else { v1 }
}

/// The shape of this build's evaluation with `phases` phases, as a file of [`VERSION`] states it.
fn expected_shape(phases: usize) -> Shape {
    shape_of_version(VERSION, phases)
}

/// The shape of this build's evaluation with `phases` phases, as a file of `version` states it.
fn shape_of_version(version: u32, phases: usize) -> Shape {
    let groups = pattern::groups();
    let mut hasher = crc32fast::Hasher::new();
    for group in groups {
        hasher.update(&[u8::try_from(group.length).unwrap_or(u8::MAX)]);
        for square in group.features.first().into_iter().flatten() {
            hasher.update(&[square.index()]);
        }
    }
    Shape {
        phases: small(phases),
        scale: u32::try_from(SCALE).unwrap_or(u32::MAX),
        mobility_length: small(MAX_MOBILITY.saturating_add(1)),
        group_lengths: groups.iter().map(|g| small(g.length)).collect(),
        squares_fingerprint: hasher.finalize(),
        payload_length: weights_per_phase(version).saturating_mul(phases).saturating_mul(2),
    }
}

/// Size of the header for the current shape.
#[must_use]
pub fn header_len() -> usize {
    // 28 fixed bytes, 4 per group, 28 after the lengths; constants.
    pattern::GROUP_COUNT.saturating_mul(4).saturating_add(56)
}

/// The shared [`ByteReader`] with this format's error: every failed read names the field it was reading.
struct Cursor<'a> {
    reader: ByteReader<'a>,
}

impl<'a> Cursor<'a> {
    fn offset(&self) -> usize {
        self.reader.offset()
    }

    fn remaining(&self) -> usize {
        self.reader.remaining()
    }

    fn bytes(&mut self, len: usize, what: &'static str) -> Result<&'a [u8], WeightsError> {
        self.reader.read_bytes(len).map_err(|e| WeightsError::Truncated {
            offset: e.offset,
            what,
            needed: e.needed as u64,
            available: e.available,
        })
    }

    fn array<const N: usize>(&mut self, what: &'static str) -> Result<[u8; N], WeightsError> {
        let mut array = [0; N];
        array.copy_from_slice(self.bytes(N, what)?);
        Ok(array)
    }

    fn u32(&mut self, what: &'static str) -> Result<u32, WeightsError> {
        self.array(what).map(u32::from_le_bytes)
    }

    fn u64(&mut self, what: &'static str) -> Result<u64, WeightsError> {
        self.array(what).map(u64::from_le_bytes)
    }
}

/// Reads the `u32` shape field `label` (of the given group) and compares it with the expected value.
fn check_u32(
    cursor: &mut Cursor<'_>,
    label: &'static str,
    group: Option<(usize, &pattern::Group)>,
    expected: u32,
) -> Result<(), WeightsError> {
    let offset = cursor.offset();
    let found = cursor.u32(label)?;
    if found == expected {
        return Ok(());
    }
    let what = match group {
        Some((index, group)) => format!("{label} of group {} ({})", index.saturating_add(1), group.name),
        None => label.to_owned(),
    };
    Err(WeightsError::ShapeMismatch { what, offset, found: found.into(), expected: expected.into() })
}

/// Parses a weights file.
///
/// # Errors
/// Any [`WeightsError`] variant except `Read`, `FileTooLarge`, `Parse`, `Save`, `Write` and `BadWeights`; see the
/// module documentation for the order of the checks.
///
/// # Examples
/// ```
/// use shirokuro_engine::eval::Weights;
/// use shirokuro_engine::eval::weights::{parse, write};
/// let mut bytes = Vec::new();
/// write(&Weights::zero(), &mut bytes).unwrap();
/// assert_eq!(parse(&bytes).unwrap(), Weights::zero());
/// assert!(parse(&bytes[..bytes.len() - 1]).is_err());
/// ```
pub fn parse(bytes: &[u8]) -> Result<Weights, WeightsError> {
    let mut cursor = Cursor { reader: ByteReader::new(bytes) };

    // Magic: a prefix of the magic is a truncated file, anything else is not a weights file.
    let head = bytes.get(..MAGIC.len()).unwrap_or(bytes);
    if !MAGIC.starts_with(head) {
        return Err(WeightsError::BadMagic { found: head.to_vec() });
    }
    let _magic: [u8; 8] = cursor.array("magic")?;

    let version = cursor.u32("format version")?;
    if version != VERSION && version != 1 {
        return Err(WeightsError::UnsupportedVersion { found: version });
    }
    let offset = cursor.offset();
    let phases = cursor.u32("phases")?;
    if phases == 0 || phases > small(MAX_PHASES) {
        return Err(WeightsError::UnsupportedPhases { offset, found: phases });
    }
    // At most 60.
    let phases = phases as usize;
    let shape = shape_of_version(version, phases);

    check_u32(&mut cursor, "weight scale (1/scale disc)", None, shape.scale)?;
    check_u32(&mut cursor, "mobility table length", None, shape.mobility_length)?;
    check_u32(&mut cursor, "number of pattern groups", None, small(shape.group_lengths.len()))?;
    for (index, (&length, group)) in shape.group_lengths.iter().zip(pattern::groups()).enumerate() {
        check_u32(&mut cursor, "pattern length", Some((index, group)), length)?;
    }
    check_u32(&mut cursor, "pattern-squares fingerprint", None, shape.squares_fingerprint)?;

    let offset = cursor.offset();
    let payload_length = cursor.u64("payload length")?;
    if payload_length != shape.payload_length as u64 {
        return Err(WeightsError::ShapeMismatch {
            what: "payload length".to_owned(),
            offset,
            found: payload_length,
            expected: shape.payload_length as u64,
        });
    }
    let payload_crc_offset = cursor.offset();
    let payload_crc = cursor.u32("payload checksum")?;
    let compressed_length = cursor.u64("compressed payload length")?;
    let compressed_crc_offset = cursor.offset();
    let compressed_crc = cursor.u32("compressed payload checksum")?;

    // The compressed payload must end exactly at the end of the data.
    let start = cursor.offset();
    let remaining = cursor.remaining();
    let length = usize::try_from(compressed_length).unwrap_or(usize::MAX);
    if length < remaining {
        return Err(WeightsError::TrailingBytes {
            offset: start.saturating_add(length),
            count: remaining.saturating_sub(length),
        });
    }
    let compressed = match cursor.bytes(length, "compressed payload") {
        Ok(compressed) => compressed,
        Err(WeightsError::Truncated { offset, what, available, .. }) => {
            return Err(WeightsError::Truncated { offset, what, needed: compressed_length, available });
        }
        Err(other) => return Err(other),
    };
    let found = crc32fast::hash(compressed);
    if found != compressed_crc {
        return Err(WeightsError::ChecksumMismatch {
            what: "compressed payload",
            offset: compressed_crc_offset,
            expected: compressed_crc,
            found,
        });
    }

    let payload = inflate(compressed, start, shape.payload_length)?;
    let found = crc32fast::hash(&payload);
    if found != payload_crc {
        return Err(WeightsError::ChecksumMismatch {
            what: "payload",
            offset: payload_crc_offset,
            expected: payload_crc,
            found,
        });
    }
    decode(&payload, version, phases)
}

/// Inflates `compressed` (which starts at `offset` in the file) into exactly `expected` bytes, reading at most one
/// byte more to tell a longer stream.
fn inflate(compressed: &[u8], offset: usize, expected: usize) -> Result<Vec<u8>, WeightsError> {
    let limit = expected.checked_add(1).ok_or(WeightsError::PayloadTooLong { expected })?;
    let mut payload = Vec::with_capacity(limit);
    let mut decoder = DeflateDecoder::new(compressed);
    let _read = (&mut decoder)
        .take(limit as u64)
        .read_to_end(&mut payload)
        .map_err(|source| WeightsError::Decompress { offset, source })?;
    if payload.len() > expected {
        return Err(WeightsError::PayloadTooLong { expected });
    }
    if payload.len() < expected {
        return Err(WeightsError::PayloadTooShort { found: payload.len(), expected });
    }
    // The stream has ended (read_to_end stopped below the limit); what the decoder left unread is extra.
    let unused = decoder.get_ref().len();
    if unused > 0 {
        return Err(WeightsError::UnusedCompressedBytes {
            offset: offset.saturating_add(compressed.len().saturating_sub(unused)),
            count: unused,
        });
    }
    Ok(payload)
}

/// Splits a payload of the expected length for `version` and `phases` into the tables.
fn decode(payload: &[u8], version: u32, phases: usize) -> Result<Weights, WeightsError> {
    let (pairs, _odd) = payload.as_chunks::<2>();
    let mut values = pairs.iter().map(|&pair| i16::from_le_bytes(pair));
    let mut take = |count: usize| -> Result<Vec<i16>, WeightsError> {
        let table: Vec<i16> = values.by_ref().take(count).collect();
        if table.len() == count {
            Ok(table)
        } else {
            Err(WeightsError::PayloadTooShort {
                found: payload.len(),
                expected: shape_of_version(version, phases).payload_length,
            })
        }
    };
    let groups = pattern::groups();
    let mobility_length = MAX_MOBILITY.saturating_add(1);
    let patterns = (0..phases)
        .map(|_| groups.iter().map(|group| take(group.size())).collect::<Result<Vec<_>, _>>())
        .collect::<Result<Vec<_>, _>>()?;
    let mobility = (0..phases).map(|_| take(mobility_length)).collect::<Result<Vec<_>, _>>()?;
    let opponent_mobility = (0..phases).map(|_| take(mobility_length)).collect::<Result<Vec<_>, _>>()?;
    let bias = take(phases)?;
    let discs = if version >= 2 {
        (0..phases).map(|_| take(DISC_TABLE)).collect::<Result<Vec<_>, _>>()?
    } else {
        vec![vec![0; DISC_TABLE]; phases]
    };
    Ok(Weights { patterns, mobility, opponent_mobility, bias, discs, net: None })
}

/// Checks that `table` has `expected` entries.
fn check_table(table: &[i16], expected: usize, what: impl FnOnce() -> String) -> Result<(), WeightsError> {
    if table.len() == expected {
        Ok(())
    } else {
        Err(WeightsError::BadWeights { what: what(), found: table.len(), expected })
    }
}

/// The uncompressed payload of `weights`, after checking every table's length: `bias` sets the phase count (1 to
/// [`MAX_PHASES`]), which every other table must have.
fn encode(weights: &Weights, shape: &Shape) -> Result<Vec<u8>, WeightsError> {
    let groups = pattern::groups();
    let mobility_length = MAX_MOBILITY.saturating_add(1);
    let phases = weights.phases();
    if phases == 0 || phases > MAX_PHASES {
        return Err(WeightsError::BadWeights { what: "bias".to_owned(), found: phases, expected: MAX_PHASES });
    }
    let outer = |what: &str, found: usize| -> Result<(), WeightsError> {
        if found == phases {
            Ok(())
        } else {
            Err(WeightsError::BadWeights { what: what.to_owned(), found, expected: phases })
        }
    };
    outer("patterns", weights.patterns.len())?;
    outer("mobility", weights.mobility.len())?;
    outer("opponent_mobility", weights.opponent_mobility.len())?;
    outer("discs", weights.discs.len())?;

    let mut payload = Vec::with_capacity(shape.payload_length);
    let mut push = |table: &[i16]| payload.extend(table.iter().flat_map(|v| v.to_le_bytes()));
    for (phase, tables) in weights.patterns.iter().enumerate() {
        if tables.len() != groups.len() {
            return Err(WeightsError::BadWeights {
                what: format!("patterns[{phase}]"),
                found: tables.len(),
                expected: groups.len(),
            });
        }
        for (g, (table, group)) in tables.iter().zip(groups).enumerate() {
            check_table(table, group.size(), || format!("patterns[{phase}][{g}]"))?;
            push(table);
        }
    }
    for (name, tables) in [("mobility", &weights.mobility), ("opponent_mobility", &weights.opponent_mobility)] {
        for (phase, table) in tables.iter().enumerate() {
            check_table(table, mobility_length, || format!("{name}[{phase}]"))?;
            push(table);
        }
    }
    push(&weights.bias);
    for (phase, table) in weights.discs.iter().enumerate() {
        check_table(table, DISC_TABLE, || format!("discs[{phase}]"))?;
        push(table);
    }
    Ok(payload)
}

/// Writes the header for `shape`, the checksums and `compressed`.
fn write_file(out: &mut impl Write, shape: &Shape, payload_crc: u32, compressed: &[u8]) -> Result<(), WeightsError> {
    let mut header = Vec::with_capacity(header_len());
    header.extend_from_slice(&MAGIC);
    for field in [VERSION, shape.phases, shape.scale, shape.mobility_length, small(shape.group_lengths.len())] {
        header.extend_from_slice(&field.to_le_bytes());
    }
    for length in &shape.group_lengths {
        header.extend_from_slice(&length.to_le_bytes());
    }
    header.extend_from_slice(&shape.squares_fingerprint.to_le_bytes());
    header.extend_from_slice(&(shape.payload_length as u64).to_le_bytes());
    header.extend_from_slice(&payload_crc.to_le_bytes());
    header.extend_from_slice(&(compressed.len() as u64).to_le_bytes());
    header.extend_from_slice(&crc32fast::hash(compressed).to_le_bytes());
    out.write_all(&header).map_err(WeightsError::Write)?;
    out.write_all(compressed).map_err(WeightsError::Write)
}

/// Writes `weights` in the weights file format (DEFLATE at the default level, 6: within 1 % of level 9's size for
/// sparse weights, three times faster).
///
/// # Errors
/// [`WeightsError::BadWeights`] if a table does not have this build's size (nothing is written then), or
/// [`WeightsError::Write`] if `out` fails.
pub fn write(weights: &Weights, out: &mut impl Write) -> Result<(), WeightsError> {
    let shape = expected_shape(weights.phases());
    let payload = encode(weights, &shape)?;
    let mut encoder = DeflateEncoder::new(Vec::new(), Compression::default());
    encoder.write_all(&payload).map_err(WeightsError::Write)?;
    let compressed = encoder.finish().map_err(WeightsError::Write)?;
    write_file(out, &shape, crc32fast::hash(&payload), &compressed)
}

/// The shipped weights file's name; a macro so that [`BUNDLED`]'s `include_bytes!` and [`SHIPPED_FILE`] share one
/// literal.
macro_rules! shipped_file {
    () => {
        "shirokuro-eval-2.skw"
    };
}

/// Name of the shipped weights file in `resources/eval/` (the file [`BUNDLED`] holds).
pub const SHIPPED_FILE: &str = shipped_file!();

/// The shipped weights file (`resources/eval/`[`SHIPPED_FILE`]), compiled into the engine.
pub const BUNDLED: &[u8] = include_bytes!(concat!("../../../resources/eval/", shipped_file!()));

/// The shipped evaluation weights, parsed from [`BUNDLED`] (about 50 ms).
///
/// # Errors
/// [`WeightsError`] only if the bundled file were damaged (a test checks that it parses).
pub fn bundled() -> Result<Weights, WeightsError> {
    parse(BUNDLED)
}

/// Reads and parses the weights file at `path`.
///
/// # Errors
/// [`WeightsError::Read`] (missing or unreadable file), [`WeightsError::FileTooLarge`], or
/// [`WeightsError::Parse`] wrapping the [`parse`] error; every variant names `path`.
pub fn load(path: &Path) -> Result<Weights, WeightsError> {
    let read_error = |source| WeightsError::Read { path: path.to_owned(), source };
    // Only a regular file: a FIFO would block for ever, a device never end.
    let _size = crate::bounded::regular_file_size(path).map_err(read_error)?;
    let file = File::open(path).map_err(read_error)?;
    let mut bytes = Vec::new();
    let _read = file.take(MAX_FILE_SIZE.saturating_add(1)).read_to_end(&mut bytes).map_err(read_error)?;
    if bytes.len() as u64 > MAX_FILE_SIZE {
        return Err(WeightsError::FileTooLarge { path: path.to_owned(), limit: MAX_FILE_SIZE });
    }
    parse(&bytes).map_err(|source| WeightsError::Parse { path: path.to_owned(), source: Box::new(source) })
}

/// Name of the shipped network file in `resources/eval/`: a small network over the pattern features whose output is
/// added to [`SHIPPED_FILE`]'s evaluation (`data/nets/kd80ts1.net`, docs/training.md "Seventy-first session"). Its
/// Multi-ProbCut model is compiled in (`search::mpc::MpcModel::bundled_network`).
pub const SHIPPED_NETWORK_FILE: &str = "shirokuro-net-5.net";

/// Name of the shipped network's Multi-ProbCut model in `resources/eval/`. `search::mpc` compiles this file in
/// (`include_str!` needs the name written out there; a test checks the two agree).
pub const SHIPPED_NETWORK_MPC_FILE: &str = "shirokuro-mpc-net-5.txt";

/// `weights` with the network file `network` added: its output is added to their evaluation.
///
/// # Errors
/// [`WeightsError::Network`] naming the file (missing, unreadable, or not a network of this build's layout).
pub fn with_network(mut weights: Weights, network: &Path) -> Result<Weights, WeightsError> {
    let net =
        super::net::Net::read(network).map_err(|source| WeightsError::Network { path: network.to_owned(), source })?;
    weights.net = Some(std::sync::Arc::new(net));
    Ok(weights)
}

/// Saves `weights` to `path` atomically: writes a temporary file in the same directory, syncs it, keeps the previous
/// file (if any) as `<name>.bak` (replacing an older backup), then renames the temporary file over `path`. Readers
/// see either the old or the new file, never a partial one; on error the temporary file is removed.
///
/// # Errors
/// [`WeightsError::BadWeights`] for a malformed value, or [`WeightsError::Save`] naming the step that failed.
pub fn save(weights: &Weights, path: &Path) -> Result<(), WeightsError> {
    let mut bytes = Vec::new();
    write(weights, &mut bytes)?;
    crate::fsutil::save_atomically(path, crate::fsutil::Backup::Keep, |out| out.write_all(&bytes))
        .map_err(|e| WeightsError::Save { path: e.path, step: e.step, source: e.source })
}

// The no-panic lints are for the parser; tests index and unwrap freely.
#[cfg(test)]
#[allow(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::cast_possible_truncation,
    clippy::arithmetic_side_effects
)]
mod tests;
