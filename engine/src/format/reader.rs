//! [`ByteReader`]: the bounds-checked little-endian cursor that every binary format parser reads through.
//!
//! Every read is a `slice::get` followed by `from_le_bytes`, so malformed input yields [`UnexpectedEof`] and never a
//! panic or an out-of-bounds access.

/// A read ran past the end of the data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
#[error("unexpected end of data at offset {offset}: {needed} bytes needed, {available} available")]
pub struct UnexpectedEof {
    /// Offset (0-based, in bytes) where the failed read started.
    pub offset: usize,
    /// Bytes the read needed.
    pub needed: usize,
    /// Bytes that were left.
    pub available: usize,
}

/// A cursor over a byte slice with bounds-checked little-endian reads.
///
/// # Examples
/// ```
/// use shirokuro_engine::format::reader::{ByteReader, UnexpectedEof};
/// let mut reader = ByteReader::new(&[0x34, 0x12, 0xff]);
/// assert_eq!(reader.read_u16_le(), Ok(0x1234));
/// assert_eq!(reader.offset(), 2);
/// assert_eq!(reader.read_u16_le(), Err(UnexpectedEof { offset: 2, needed: 2, available: 1 }));
/// assert_eq!(reader.read_u8(), Ok(0xff)); // a failed read consumes nothing
/// ```
#[derive(Debug, Clone)]
pub struct ByteReader<'a> {
    data: &'a [u8],
    offset: usize,
}

impl<'a> ByteReader<'a> {
    /// A reader at the start of `data`.
    #[must_use]
    pub const fn new(data: &'a [u8]) -> ByteReader<'a> {
        ByteReader { data, offset: 0 }
    }

    /// Offset of the next byte to read (0-based, from the start of the data).
    #[must_use]
    pub const fn offset(&self) -> usize {
        self.offset
    }

    /// Bytes left to read.
    #[must_use]
    pub const fn remaining(&self) -> usize {
        self.data.len().saturating_sub(self.offset)
    }

    /// Whether every byte has been read.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.remaining() == 0
    }

    /// The next `len` bytes.
    ///
    /// # Errors
    /// [`UnexpectedEof`] if fewer than `len` bytes are left (nothing is consumed then).
    pub fn read_bytes(&mut self, len: usize) -> Result<&'a [u8], UnexpectedEof> {
        let eof = UnexpectedEof { offset: self.offset, needed: len, available: self.remaining() };
        let end = self.offset.checked_add(len).ok_or(eof)?;
        let bytes = self.data.get(self.offset..end).ok_or(eof)?;
        self.offset = end;
        Ok(bytes)
    }

    /// The next `N` bytes as an array.
    ///
    /// # Errors
    /// [`UnexpectedEof`] if fewer than `N` bytes are left.
    pub fn read_array<const N: usize>(&mut self) -> Result<[u8; N], UnexpectedEof> {
        let bytes = self.read_bytes(N)?;
        let mut array = [0; N];
        array.copy_from_slice(bytes);
        Ok(array)
    }

    /// One byte.
    ///
    /// # Errors
    /// [`UnexpectedEof`] at the end of the data.
    pub fn read_u8(&mut self) -> Result<u8, UnexpectedEof> {
        self.read_array::<1>().map(u8::from_le_bytes)
    }

    /// A little-endian `u16`.
    ///
    /// # Errors
    /// [`UnexpectedEof`] if fewer than 2 bytes are left.
    pub fn read_u16_le(&mut self) -> Result<u16, UnexpectedEof> {
        self.read_array().map(u16::from_le_bytes)
    }

    /// A little-endian `i16`.
    ///
    /// # Errors
    /// [`UnexpectedEof`] if fewer than 2 bytes are left.
    pub fn read_i16_le(&mut self) -> Result<i16, UnexpectedEof> {
        self.read_array().map(i16::from_le_bytes)
    }

    /// A little-endian `u32`.
    ///
    /// # Errors
    /// [`UnexpectedEof`] if fewer than 4 bytes are left.
    pub fn read_u32_le(&mut self) -> Result<u32, UnexpectedEof> {
        self.read_array().map(u32::from_le_bytes)
    }

    /// Reads `magic.len()` bytes and returns them if they differ from `magic` (`Ok(None)` when they match).
    ///
    /// The caller turns a mismatch into its own typed error that shows the bytes found.
    ///
    /// # Errors
    /// [`UnexpectedEof`] if fewer than `magic.len()` bytes are left.
    pub fn expect_magic(&mut self, magic: &[u8]) -> Result<Option<&'a [u8]>, UnexpectedEof> {
        let found = self.read_bytes(magic.len())?;
        Ok(if found == magic { None } else { Some(found) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_little_endian_and_stops_at_the_end() {
        let mut reader = ByteReader::new(&[1, 2, 3, 4, 5, 6, 0xfe, 0xff]);
        assert_eq!(reader.read_u32_le(), Ok(0x0403_0201));
        assert_eq!(reader.expect_magic(b"\x05\x06"), Ok(None));
        assert_eq!(reader.read_i16_le(), Ok(-2));
        assert!(reader.is_empty());
        assert_eq!(reader.read_u8(), Err(UnexpectedEof { offset: 8, needed: 1, available: 0 }));
        assert_eq!(reader.read_bytes(usize::MAX), Err(UnexpectedEof { offset: 8, needed: usize::MAX, available: 0 }));
    }

    #[test]
    fn magic_mismatch_shows_the_bytes() {
        let mut reader = ByteReader::new(b"WTHx");
        assert_eq!(reader.expect_magic(b"WTHO"), Ok(Some(&b"WTHx"[..])));
    }
}
