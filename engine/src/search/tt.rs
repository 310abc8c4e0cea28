//! The transposition table: 2^level entries shared by every search thread, lock-free.
//!
//! Each entry is three relaxed atomics: the player bitboard and the opponent bitboard, each XORed with the data word,
//! and the data word itself. A torn write (two threads storing at once) makes the XORs disagree with the data, so the
//! entry simply reads as a miss: no locks, and a stored bound is never attributed to the wrong position. Entries come
//! in buckets of `BUCKET`; a store replaces the matching entry, else the least valuable one (from an older search,
//! then the one searched to the smallest depth).
//!
//! Data word layout (bit 0 = least significant): lower bound `i8` (0–7), upper bound `i8` (8–15), best move (16–23,
//! Edax index, 64 = pass, 65 = none), depth in plies or empties (24–31), selectivity (32–39, 100 = exact), generation
//! (40–47), second move (48–55), clearing epoch (56–63).
//!
//! Clearing a table writes nothing: it moves the table to its next epoch, and an entry stored in an earlier epoch
//! reads as the empty entry a zeroed table holds, for probes and for the choice of the entry a store replaces alike.
//! So a cleared table searches exactly as a new one, and the labelling jobs, which clear before every position, no
//! longer spend a tenth of their time writing zeros. Only every 256th clear, when the epoch byte would come back to a
//! value that old entries may still hold, zeroes the entries.

use std::sync::atomic::{AtomicU64, Ordering};

/// Bytes of memory per entry.
pub const ENTRY_BYTES: usize = 24;

/// A pass in the best-move field (Edax's index).
pub const PASS: u8 = 64;
/// "No move" in the best-move field.
pub const NO_MOVE: u8 = 65;

#[derive(Default)]
struct Entry {
    key_player: AtomicU64,
    key_opponent: AtomicU64,
    data: AtomicU64,
}

/// Selectivity byte of exact endgame results (midgame estimates use 101–107, see `core::MIDGAME_BASE`).
pub(crate) const EXACT: u8 = 100;

/// What the table knows about a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TtData {
    /// The score is at least this.
    pub lower: i8,
    /// The score is at most this.
    pub upper: i8,
    /// Best move found (square index), or [`NO_MOVE`].
    pub best_move: u8,
    /// Depth (plies) of the search that produced the bounds; for exact endgame searches, the number of empties.
    pub depth: u8,
    /// Selectivity (percent confidence; 100 = no pruning).
    pub selectivity: u8,
    /// The best move this position had before the last store changed it, or [`NO_MOVE`]: a second candidate for move
    /// ordering. Kept by the table itself; what a store passes here is ignored.
    pub second_move: u8,
}

impl TtData {
    fn pack(self, generation: u8) -> u64 {
        u64::from(self.lower as u8)
            | u64::from(self.upper as u8) << 8
            | u64::from(self.best_move) << 16
            | u64::from(self.depth) << 24
            | u64::from(self.selectivity) << 32
            | u64::from(generation) << 40
            | u64::from(self.second_move) << 48
    }

    fn unpack(word: u64) -> TtData {
        TtData {
            lower: word as u8 as i8,
            upper: (word >> 8) as u8 as i8,
            best_move: (word >> 16) as u8,
            depth: (word >> 24) as u8,
            selectivity: (word >> 32) as u8,
            second_move: (word >> 48) as u8,
        }
    }
}

/// Entries per bucket: the places a position may occupy. Four against two, one thread, eval-1, FFO #53 / #54 in
/// G nodes: hash level 26 2.15 / 3.00 against 2.31 / 3.16, level 24 2.56 / 3.28 against 2.45 / 3.47 (eight:
/// level 26 2.20 / 3.01, level 22 2.76 / 3.44 against 3.08 / 3.59 for two).
const BUCKET: usize = 4;
// The bucket index is `hash & (size - BUCKET)`: that needs a power of two no larger than the smallest table.
const _: () = assert!(BUCKET.is_power_of_two() && BUCKET <= 1 << TranspositionTable::MIN_LEVEL);

/// The table size the app's AI uses unless its user changes it (Settings, 2^22 entries of 24 bytes: 96 MiB), and so
/// the default of the tools that measure the AI's play (`match`, `level-profile`). At level 15 a table of 2^18 entries
/// (the default of the tools that make data: `selfplay`, `corpus`, `label`, `book`) made the same two games visit 1.5
/// times the nodes.
pub const APP_HASH_LEVEL: u8 = 22;

/// `level`, lowered until a table of 2^level entries takes at most half of `available` bytes (never below
/// [`TranspositionTable::MIN_LEVEL`]); `level` itself when the available memory is unknown.
#[must_use]
pub fn fitting_level(level: u8, available: Option<u64>) -> u8 {
    let Some(available) = available else { return level };
    let mut level = level;
    while level > TranspositionTable::MIN_LEVEL
        && (TranspositionTable::ENTRY_BYTES as u64).saturating_mul(1u64 << level) > available / 2
    {
        level -= 1;
    }
    level
}

/// The memory the system says is available, in bytes (Linux: `MemAvailable` of `/proc/meminfo`; `None` elsewhere or
/// when it cannot be read).
#[must_use]
pub fn available_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|line| line.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// A shared transposition table.
pub struct TranspositionTable {
    entries: Box<[Entry]>,
    mask: usize,
    generation: AtomicU64,
    /// The clearing epoch, in the data word's place (bits 56–63): entries of other epochs are empty.
    epoch: AtomicU64,
}

/// Where the clearing epoch sits in a data word.
const EPOCH_SHIFT: u32 = 56;
/// The clearing epoch's bits of a data word.
const EPOCH_MASK: u64 = 0xff << EPOCH_SHIFT;

impl TranspositionTable {
    /// Smallest accepted hash level.
    pub const MIN_LEVEL: u8 = 10;
    /// Largest accepted hash level (2^32 entries, 96 GiB).
    pub const MAX_LEVEL: u8 = 32;

    /// Bytes of one entry.
    pub const ENTRY_BYTES: usize = std::mem::size_of::<Entry>();

    /// A table of `2^level` entries (`level` is clamped to [`Self::MIN_LEVEL`]..=[`Self::MAX_LEVEL`]), or smaller, as
    /// Egaroucid lowers its hash level: at most half of the memory the system says is available
    /// ([`fitting_level`]), and lower again while the allocation fails, so that a large level never aborts the
    /// process. [`Self::level`] tells the level made.
    #[must_use]
    pub fn new(level: u8) -> TranspositionTable {
        let mut level = fitting_level(level.clamp(Self::MIN_LEVEL, Self::MAX_LEVEL), available_memory());
        let entries = loop {
            let size = 1usize << level;
            let mut entries: Vec<Entry> = Vec::new();
            if entries.try_reserve_exact(size).is_ok() || level == Self::MIN_LEVEL {
                entries.resize_with(size, Entry::default);
                break entries.into_boxed_slice();
            }
            level -= 1;
        };
        let size = entries.len();
        TranspositionTable { entries, mask: size - BUCKET, generation: AtomicU64::new(0), epoch: AtomicU64::new(0) }
    }

    /// The table's level: 2^level entries.
    #[must_use]
    pub fn level(&self) -> u8 {
        self.entries.len().trailing_zeros() as u8
    }

    /// Number of entries.
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Always false: a table has at least 2^10 entries.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Memory used by the entries, in bytes.
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.entries.len() * ENTRY_BYTES
    }

    /// Forgets everything. The generation restarts too, so a cleared table behaves exactly like a new one. Usually
    /// only the epoch moves on (see the module's notes); every 256th time the entries are zeroed, in parallel over the
    /// rayon pool this is called from.
    pub fn clear(&self) {
        self.generation.store(0, Ordering::Relaxed);
        let epoch = self.epoch.load(Ordering::Relaxed);
        if epoch < 0xff {
            self.epoch.store(epoch + 1, Ordering::Relaxed);
            return;
        }
        self.epoch.store(0, Ordering::Relaxed);
        self.zero();
    }

    /// Writes zeros over every entry.
    fn zero(&self) {
        use rayon::prelude::*;
        self.entries.par_chunks(1 << 16).for_each(|chunk| {
            for e in chunk {
                e.key_player.store(0, Ordering::Relaxed);
                e.key_opponent.store(0, Ordering::Relaxed);
                e.data.store(0, Ordering::Relaxed);
            }
        });
    }

    /// The epoch's bits as they stand in the data word of an entry stored now.
    #[inline]
    fn epoch_bits(&self) -> u64 {
        self.epoch.load(Ordering::Relaxed) << EPOCH_SHIFT
    }

    /// Starts a new search generation: older entries become the first to be replaced.
    pub fn new_generation(&self) {
        let _ = self.generation.fetch_add(1, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, hash: u64) -> usize {
        hash as usize & self.mask
    }

    /// Asks the processor to start loading the bucket of `hash` into its cache, so that a probe of it a little later
    /// does not wait for memory. A hint only: it changes nothing the table holds.
    #[inline]
    #[allow(unsafe_code)]
    pub fn prefetch(&self, hash: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let i = self.bucket(hash);
            let bucket = &self.entries[i..i + BUCKET];
            let first = bucket.as_ptr().cast::<i8>();
            // SAFETY: `_mm_prefetch` only hints the cache (SSE, which every x86-64 processor has) and never faults;
            // both addresses are inside `bucket`, whose first and last bytes they are.
            #[allow(unused_unsafe)]
            unsafe {
                use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
                _mm_prefetch::<_MM_HINT_T0>(first);
                _mm_prefetch::<_MM_HINT_T0>(first.add(std::mem::size_of_val(bucket) - 1));
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = hash;
    }

    /// Looks a position up.
    #[inline(always)]
    #[must_use]
    pub fn probe(&self, hash: u64, player: u64, opponent: u64) -> Option<TtData> {
        let i = self.bucket(hash);
        let epoch = self.epoch_bits();
        for e in &self.entries[i..i + BUCKET] {
            let data = e.data.load(Ordering::Relaxed);
            if e.key_player.load(Ordering::Relaxed) ^ data == player
                && e.key_opponent.load(Ordering::Relaxed) ^ data == opponent
                && data != 0
                && data & EPOCH_MASK == epoch
            {
                return Some(TtData::unpack(data));
            }
        }
        None
    }

    /// Records what a search learnt about a position.
    #[inline]
    pub fn store(&self, hash: u64, player: u64, opponent: u64, mut data: TtData) {
        let generation = self.generation.load(Ordering::Relaxed) as u8;
        let epoch = self.epoch_bits();
        data.second_move = NO_MOVE;
        let mut word = data.pack(generation) | epoch;
        let i = self.bucket(hash);
        let bucket = &self.entries[i..i + BUCKET];
        let mut victim = &bucket[0];
        let mut victim_cost = u32::MAX;
        for e in bucket {
            let old = e.data.load(Ordering::Relaxed);
            // An entry of an earlier epoch is what a zeroed table holds: no position's, generation 0, depth 0.
            let live = old & EPOCH_MASK == epoch;
            let old = if live { old } else { 0 };
            if live
                && e.key_player.load(Ordering::Relaxed) ^ old == player
                && e.key_opponent.load(Ordering::Relaxed) ^ old == opponent
            {
                // An exact result is worth more than any estimate of the same position: an estimate never replaces
                // it (the midgame searches that order the endgame visit the same positions).
                if (old >> 32) as u8 == EXACT && data.selectivity != EXACT {
                    return;
                }
                let previous = TtData::unpack(old);
                if data.best_move == NO_MOVE {
                    // A store without a move (a fail-low) keeps the moves already known.
                    data.best_move = previous.best_move;
                    data.second_move = previous.second_move;
                } else {
                    data.second_move =
                        if previous.best_move != data.best_move { previous.best_move } else { previous.second_move };
                }
                word = data.pack(generation) | epoch;
                victim = e;
                break;
            }
            // Prefer to evict entries from old generations, then shallow ones.
            let old_generation = (old >> 40) as u8;
            let cost = u32::from(old_generation == generation) << 8 | (old >> 24 & 0xff) as u32;
            if cost < victim_cost {
                victim = e;
                victim_cost = cost;
            }
        }
        victim.key_player.store(player ^ word, Ordering::Relaxed);
        victim.key_opponent.store(opponent ^ word, Ordering::Relaxed);
        victim.data.store(word, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_level_too_large_for_the_memory_is_lowered_to_half_of_it() {
        let gib = 1u64 << 30;
        // 24-byte entries: 2^26 of them take 1.5 GiB, 2^27 take 3 GiB.
        assert_eq!(TranspositionTable::ENTRY_BYTES, 24);
        assert_eq!(fitting_level(32, Some(4 * gib)), 26);
        assert_eq!(fitting_level(26, Some(4 * gib)), 26);
        assert_eq!(fitting_level(20, Some(4 * gib)), 20);
        assert_eq!(fitting_level(32, Some(0)), TranspositionTable::MIN_LEVEL);
        assert_eq!(fitting_level(32, None), 32);
        // On this machine: a level-32 table (96 GiB) is made smaller instead of aborting.
        if let Some(available) = available_memory()
            && available < 96 * gib
        {
            let expected = fitting_level(32, Some(available)).min(24);
            // Ask only for what fits a test (at most 2^24 entries, 384 MiB) when memory allows that much.
            let table = TranspositionTable::new(expected);
            assert_eq!(table.level(), expected);
        }
    }

    #[test]
    fn store_and_probe() {
        let tt = TranspositionTable::new(12);
        let data = TtData { lower: -4, upper: 10, best_move: 37, depth: 20, selectivity: 100, second_move: NO_MOVE };
        tt.store(12345, 7, 8, data);
        assert_eq!(tt.probe(12345, 7, 8), Some(data));
        assert_eq!(tt.probe(12345, 7, 9), None);
        tt.clear();
        assert_eq!(tt.probe(12345, 7, 8), None);
    }

    #[test]
    fn an_estimate_never_replaces_an_exact_result() {
        let tt = TranspositionTable::new(12);
        let exact = TtData { lower: 6, upper: 6, best_move: 20, depth: 24, selectivity: 100, second_move: NO_MOVE };
        tt.store(99, 1, 2, exact);
        let estimate = TtData { lower: -8, upper: 64, best_move: 30, depth: 8, selectivity: 102, second_move: NO_MOVE };
        tt.store(99, 1, 2, estimate);
        assert_eq!(tt.probe(99, 1, 2), Some(exact));
        // An estimate of another position sharing the bucket still goes in.
        tt.store(99, 3, 4, estimate);
        assert_eq!(tt.probe(99, 3, 4).map(|d| d.best_move), Some(30));
    }

    #[test]
    fn the_previous_best_move_becomes_the_second() {
        let tt = TranspositionTable::new(12);
        let first = TtData { lower: -64, upper: 2, best_move: 20, depth: 14, selectivity: 100, second_move: 44 };
        tt.store(5, 1, 2, first);
        // What a store passes as the second move is ignored: a new entry has none.
        assert_eq!(tt.probe(5, 1, 2).map(|d| d.second_move), Some(NO_MOVE));
        tt.store(5, 1, 2, TtData { best_move: 33, ..first });
        assert_eq!(tt.probe(5, 1, 2).map(|d| (d.best_move, d.second_move)), Some((33, 20)));
        // Storing the same best move again keeps the second.
        tt.store(5, 1, 2, TtData { best_move: 33, lower: 4, upper: 64, ..first });
        assert_eq!(tt.probe(5, 1, 2).map(|d| (d.best_move, d.second_move)), Some((33, 20)));
    }

    #[test]
    fn a_store_without_a_move_keeps_the_known_moves() {
        let tt = TranspositionTable::new(12);
        let cut = TtData { lower: 6, upper: 64, best_move: 20, depth: 14, selectivity: 100, second_move: NO_MOVE };
        tt.store(5, 1, 2, cut);
        tt.store(5, 1, 2, TtData { best_move: 33, ..cut });
        // A fail-low: new bounds, no move.
        let fail_low = TtData { lower: -64, upper: 2, best_move: NO_MOVE, ..cut };
        tt.store(5, 1, 2, fail_low);
        let d = tt.probe(5, 1, 2).expect("stored");
        assert_eq!((d.lower, d.upper), (-64, 2));
        assert_eq!((d.best_move, d.second_move), (33, 20));
        // A new position stored without a move has none.
        tt.store(7, 3, 4, fail_low);
        assert_eq!(tt.probe(7, 3, 4).map(|d| d.best_move), Some(NO_MOVE));
    }

    /// Stores and probes many positions that share few buckets, and returns every probe's answer.
    fn workout(tt: &TranspositionTable, seed: u64) -> Vec<Option<TtData>> {
        use rand::rngs::StdRng;
        use rand::{Rng, SeedableRng};
        let mut rng = StdRng::seed_from_u64(seed);
        let mut answers = Vec::new();
        for round in 0..4000u32 {
            // 64 positions over 16 buckets of a 2^10 table: replacements happen all the time.
            let k: u64 = rng.random_range(1..=64);
            let hash = k % 16 * 4;
            if round % 500 == 0 {
                tt.new_generation();
            }
            if rng.random_bool(0.5) {
                let best_move = if rng.random_bool(0.2) { NO_MOVE } else { rng.random_range(0..64) };
                let data = TtData {
                    lower: rng.random_range(-64..=0),
                    upper: rng.random_range(0..=64),
                    best_move,
                    depth: rng.random_range(1..30),
                    selectivity: if rng.random_bool(0.3) { EXACT } else { 102 },
                    second_move: NO_MOVE,
                };
                tt.store(hash, k, k << 20, data);
            } else {
                answers.push(tt.probe(hash, k, k << 20));
            }
        }
        answers
    }

    #[test]
    fn a_cleared_table_behaves_as_a_new_one() {
        let fresh = workout(&TranspositionTable::new(10), 2);
        assert!(fresh.iter().filter(|a| a.is_some()).count() > 500, "the workout finds what it stored");
        let tt = TranspositionTable::new(10);
        // Around the epoch byte's wrap (the 256th clear zeroes the entries) and well past it.
        for clears in 1..=300u32 {
            let _ = workout(&tt, u64::from(clears) + 100);
            tt.clear();
            if clears <= 3 || (254..=258).contains(&clears) || clears == 300 {
                assert_eq!(workout(&tt, 2), fresh, "after {clears} clears");
                tt.clear();
            }
        }
    }
}
