//! Text notations: transcripts, 65-character boards, OBF lines, hex bitboard pairs, move tokens and move indices.
//!
//! Every parser takes a `&str` (use [`String::from_utf8_lossy`] for bytes), never panics, and returns a typed error
//! that names the character offset (0-based, counted in Unicode scalar values) and, for transcripts, the move number.
//! Every printer's output parses back to the same value.
//!
//! # Grammar
//!
//! Whitespace means any Unicode white space (space, tab, CR, LF, …). Letters are case-insensitive unless stated.
//!
//! ## Move tokens ([`parse_move`])
//! `a1`…`h8` (either case) for a placement; `ps`, `pa`, `pass` or `--` for a pass. Surrounding whitespace is ignored.
//! Printed by [`Move`](crate::Move)'s `Display`: `f5`, `ps`.
//!
//! ## Move indices ([`parse_move_index`])
//! Decimal digits only (no sign, leading zeros allowed), surrounding whitespace ignored, value `0..=64` where 64 is a
//! pass. [`IndexConvention::Edax`] numbers `a1 = 0 … h8 = 63`, [`IndexConvention::Egaroucid`] `h8 = 0 … a1 = 63`.
//!
//! ## Transcripts ([`parse_transcript`], [`parse_transcript_from`])
//! ```text
//! transcript = { coordinate | pass }        (whitespace anywhere, even inside a token, is ignored)
//! coordinate = column row                   column = a-h | A-H, row = 1-8
//! pass       = ("p" | "P") ("s" | "a" | "S" | "A")
//! ```
//! Passes are implicit: when a placement leaves the opponent without a move (but the game is not over), the pass is
//! made automatically, and likewise when the starting position has to pass. An explicit `ps`/`pa` is accepted only
//! right after such a forced pass (it is then simply consumed); anywhere else it is an error. The returned move list
//! holds every pass as [`Move::Pass`](crate::Move::Pass). Errors give the move number (1-based, counting the tokens of the text,
//! explicit passes included) and the offset of the token's first character. Printing ([`format_transcript`]) writes
//! lower-case coordinates with passes omitted, or as `ps` with [`PassStyle::Include`].
//!
//! ## Boards ([`parse_board`])
//! ```text
//! board = 64 × square [";"] side            (whitespace anywhere is ignored, so an 8-line paste works)
//! square = black | white | empty            black = X x B b 0 *   white = O o W w 1   empty = - .
//! side   = black | white                    the colour to move
//! ```
//! Squares run a1, b1, …, h1, a2, …, h8. The alphabets may be mixed. No automatic pass is made.
//! [`format_board`] prints Egaroucid's "Copy Board" form: 64 characters of `X`/`O`/`-`, a space, then `X` or `O`.
//!
//! ## OBF lines ([`parse_obf_line`], [`parse_obf_file`])
//! ```text
//! line  = board [";" { entry? ";" } [entry]] ["%" comment]
//! entry = move ":" score                    move = a move token (as above), score = ["+" | "-"] digits (an i32)
//! ```
//! This is the form of the FFO test suite (`…OOX X; A2:+38; C7:+36;`). Whitespace around tokens is ignored, empty
//! entries (a trailing `;`) are skipped, and every move must be legal in the position (a pass only where the side to
//! move has to pass). A file is a sequence of lines; blank lines and lines whose first non-blank character is `%` or
//! `#` are skipped, and errors name the line (1-based). [`format_obf_line`] prints `board side;` then ` MOVE:±score;`
//! per entry, moves in upper case and passes as `PS`, which reproduces the FFO files byte for byte.
//!
//! ## Hex bitboard pairs ([`parse_hex_board`])
//! ```text
//! pair   = number separator number          (surrounding whitespace ignored)
//! number = ["0x" | "0X"] hexdigit+          (either case, leading zeros optional, value below 2^64)
//! separator = whitespace and/or one ","     (at least one character)
//! ```
//! The first number holds the discs of the side to move, the second the opponent's; overlapping sets are rejected.
//! [`format_hex_board`] prints `0x%016x<TAB>0x%016x`, Egaroucid's "Output Bitboard" form.
//!
//! # Examples
//! ```
//! use shirokuro_engine::notation::{self, PassStyle};
//! use shirokuro_engine::{Color, Move, Square};
//!
//! let game = notation::parse_transcript("F5 d6 C3").unwrap();
//! assert_eq!(game.moves, [Move::Place(Square::F5), Move::Place(Square::D6), Move::Place(Square::C3)]);
//! assert_eq!(game.end.side_to_move, Color::White);
//! assert_eq!(notation::format_transcript(&game.moves, PassStyle::Omit), "f5d6c3");
//!
//! let err = notation::parse_transcript("f5d6f5").unwrap_err();
//! assert_eq!(err.to_string(), "move 3 (f5) at offset 4: f5 is occupied");
//! ```
#![deny(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::cast_possible_truncation,
    clippy::arithmetic_side_effects
)]

mod board_text;
mod hex;
mod import;
mod obf;
mod token;
mod transcript;

#[cfg(test)]
mod tests;

pub use board_text::{BoardTextError, format_board, parse_board};
pub use hex::{HexBoardError, format_hex_board, parse_hex_board};
pub use import::{ImportError, ImportKind, Imported, MAX_IMPORT_CHARS, import_any};
pub use obf::{Obf, ObfError, ObfFileError, format_obf_line, parse_obf_file, parse_obf_line};
pub use token::{IndexConvention, ParseIndexError, ParseMoveError, parse_move, parse_move_index};
pub use transcript::{
    PassStyle, Transcript, TranscriptError, format_transcript, parse_transcript, parse_transcript_from,
};
