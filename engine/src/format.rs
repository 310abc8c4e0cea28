//! Game-record import for the training pipeline: WTHOR binary databases and the text record layouts of the public
//! game sets.
//!
//! - [`wthor`]: `.wtb` game files and the `WTH.JOU`/`WTH.TRN` name indexes (reader and writer).
//! - [`records`](mod@records): one game per line (`moves black_discs theoretical`, `moves diff 10`, `moves diff`,
//!   `moves result`, the eOthello CSV, and exact positions `board64 X score`), with format detection and a lenient
//!   mode for huge files.
//! - [`reader`]: the bounds-checked [`ByteReader`](reader::ByteReader) every binary parser reads through.
//!
//! Parsing is pure (`&[u8]` or `&str` in, a typed error naming the offset and record out) and never panics; the
//! `load*` functions are thin file wrappers. Every game is replayed from the standard start, so a parsed game is legal,
//! carries its passes as explicit [`Move::Pass`](crate::Move::Pass) entries, and knows whether it reached its end.
//!
//! # Examples
//! ```
//! use shirokuro_engine::format::{RecordFormat, parse_records};
//! let text = "f5d6c3f3f4d3c4g6f6e6c5c6d7d8e7g5e3d2g4h3f7b5h5g3b4b6c8b8c7e8f8g8h4h6e2d1c1a3a6a5e1f2g7c2a4h8a2b7f1b3b1b2h7a7a8a1g1g2h2h1 34 41\n";
//! let format = RecordFormat::detect(text).unwrap();
//! let games = parse_records(text, format).unwrap();
//! assert!(games[0].is_finished());
//! assert_eq!(games[0].final_black_disc_diff, Some(4));
//! ```
#![deny(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::cast_possible_truncation,
    clippy::arithmetic_side_effects
)]

pub mod reader;
pub mod records;
pub mod wthor;

pub use records::{
    GameRecord, LenientRecords, RecordError, RecordErrorKind, RecordFormat, RecordedResult, Records,
    UnknownRecordFormat, Winner, parse_records, parse_records_lenient, records,
};
pub use wthor::{NameFile, NameKind, WthorError, WthorFile, WthorGame, WthorHeader};
