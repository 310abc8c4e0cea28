//! The self-play corpus: games of the engine against itself, kept for good in a compact, append-only form, from
//! which training labels are recomputed whenever they are needed (no positions are stored, only games).
//!
//! A corpus is a folder of **batches**. Batch `k` holds a fixed number of games (the series' `games`), each played
//! after a number of uniformly random opening moves by the engine at one level for both sides, to the end. Everything
//! a batch's games depend on is in its header: the level, the range of random moves, the seed, the evaluation (its
//! file name and CRC-32), the engine's version and the command that made it. Game `i` of batch `k` is
//! [`play_selfplay_game`](crate::tools::arena::play_selfplay_game)`(i, …)` with the seed `base-seed + k`: the same
//! game whichever thread plays it, and whenever, since each game's searches are single-threaded.
//!
//! Files (see [`format`] for the bytes):
//! - `batch-NNNNN.selfplay.gz`: a finished batch, its games in index order, gzip-compressed; written once,
//!   atomically, and never changed again;
//! - `batch-NNNNN.selfplay.part`: the batch being played, uncompressed, its games appended as they finish (in any
//!   order) and synced to disk at least once a second. A run stopped at any moment (a signal, a kill, a power cut)
//!   continues from it: games whose record is incomplete or does not replay are dropped and played again.
//!
//! [`grow`](grow::grow) plays batches until it is told to stop, [`Corpus`] lists and reads them.
//!
//! ```
//! use std::sync::Arc;
//! use std::sync::atomic::AtomicBool;
//! use shirokuro_engine::corpus::{Corpus, EvalId, GrowOptions, Series, grow};
//! use shirokuro_engine::eval::Weights;
//! use shirokuro_engine::level::Level;
//! # let dir = tempfile::tempdir().unwrap();
//! let series = Series {
//!     level: Level::new(1).unwrap(),
//!     random_moves: (8, 12),
//!     base_seed: 1,
//!     games_per_batch: 4,
//!     eval: EvalId::zero(),
//! };
//! let options = GrowOptions::new(Arc::new(Weights::zero()), series, "doc test".to_owned()).batches(2);
//! let report = grow(dir.path(), &options, &mut |_| {}, &AtomicBool::new(false)).unwrap();
//! assert_eq!(report.finished.len(), 2);
//! let corpus = Corpus::open(dir.path()).unwrap();
//! let (_header, games) = corpus.read_batch(0).unwrap();
//! assert_eq!(games.len(), 4);
//! assert!(games[0].random_moves >= 8);
//! ```
#![deny(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::cast_possible_truncation,
    reason = "reads files that may be damaged: every access is checked, every failure is an error value"
)]

mod error;
pub mod format;
mod grow;
mod labels;
mod part;
mod store;
#[cfg(test)]
mod tests;

pub use error::{CorpusError, FileStep, GamesProblem};
pub use format::{EvalId, GameRecord, Header, HeaderError, RecordError, Series};
pub use grow::{GrowEvent, GrowOptions, GrowReport, grow};
pub use labels::Labels;
pub use part::Opened;
pub use store::{BatchFile, Corpus, finished_name, part_name};
