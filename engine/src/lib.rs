//! # shirokuro-engine
//!
//! The Othello (Reversi) core of Shirokuro: bitboard rules with SIMD move generation chosen at run time, notation
//! (transcripts, boards, OBF), perft, and an exact, multi-threaded endgame solver.
//!
//! The API has three layers:
//! - raw `u64` primitives in [`flip`] (moves and flips of a side to move `p` against an opponent `o`);
//! - [`Board`] (side to move / opponent), the fast value type the search uses;
//! - [`Position`] (adds the colour to move) and [`notation`], for programs that talk to people.
//!
//! ```
//! use shirokuro_engine::{Board, Move, Square};
//! let board = Board::INITIAL;
//! assert_eq!(board.moves().count(), 4);
//! let next = board.play(Move::Place(Square::F5)).unwrap();
//! assert_eq!(next.disc_counts(), (1, 4)); // White to move: 1 white disc, 4 black
//! ```
#![warn(missing_docs)]

pub mod archive;
pub mod bitboard;
pub mod board;
pub mod book;
pub mod bounded;
pub mod calendar;
pub mod corpus;
pub mod eval;
pub mod flip;
pub mod format;
pub mod fsutil;
pub mod game_file;
pub mod level;
pub mod notation;
pub mod perft;
pub mod position;
pub mod protocol;
pub mod random_board;
pub mod review;
pub mod rng;
pub mod search;
pub mod square;
pub mod stability;
pub mod study;
pub mod think;
pub mod tools;

pub use bitboard::{Bitboard, Symmetry};
pub use board::{Board, Color, IllegalMove, Move};
pub use flip::Backend;
pub use position::Position;
pub use square::Square;
