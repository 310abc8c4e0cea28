//! Pattern evaluation: feature extraction with incremental updates and the weighted sum, in disc-difference units.
//!
//! The pattern groups ([`pattern`]); [`Features`] (ternary indices of all 46 features from Black's point of view,
//! updated incrementally on each move); [`Weights`] (per phase: one table per pattern group, both sides' mobility, a
//! disc-count table that also knows the parity of the empty squares, and a bias), [`Weights::evaluate`] and the fast
//! [`Evaluator`]; the weights file format ([`weights`]).
//!
//! Phases: the 60 moves of a game cut into equal spans, one weight set per span. The shipped evaluation has
//! [`PHASES`] (30: two disc counts a phase); a weights file states its own count, up to [`MAX_PHASES`] (60: one
//! phase per move), and [`Weights::phases`] tells it.

mod evaluator;
pub mod net;
pub mod pattern;
pub mod weights;

pub use evaluator::Evaluator;

use crate::bitboard::Bitboard;
use crate::board::{Board, Color};
use crate::flip::portable;
use crate::square::Square;
use pattern::{Group, MAX_LENGTH, groups};

/// Number of phases (weight sets by number of discs) of the shipped evaluation and of [`Weights::zero`].
pub const PHASES: usize = 30;

/// The most phases an evaluation may have: one per move.
pub const MAX_PHASES: usize = 60;

/// The largest mobility count with its own weight (higher counts share the last one).
pub const MAX_MOBILITY: usize = 32;

/// Entries of the disc-count table of a phase: the side to move's discs (0–64), plus 65 when the number of empty
/// squares is odd (who is due to play the last move changes the endgame a lot, and a phase holds both parities).
pub const DISC_TABLE: usize = 130;

/// The disc-count table entry of a position with `own` discs of the side to move and `discs` discs in all.
#[must_use]
pub const fn disc_index(own: u32, discs: u32) -> usize {
    let own = if own > 64 { 64 } else { own as usize };
    own + 65 * ((64 - if discs > 64 { 64 } else { discs }) & 1) as usize
}

/// Weights are stored in 1/`SCALE` discs.
pub const SCALE: i32 = 256;

/// The phase of a position with `discs` discs on the board in an evaluation with `phases` phases (1 to
/// [`MAX_PHASES`]): `(discs − 4) · phases / 60`, so 30 phases give `(discs − 4) / 2` and 60 give one phase per disc
/// count; a full board belongs to the last phase.
#[must_use]
pub const fn phase(discs: u32, phases: usize) -> usize {
    let moves = if discs > 64 { 60 } else { discs.saturating_sub(4) as usize };
    let p = moves * phases / MAX_PHASES;
    if p >= phases { phases.saturating_sub(1) } else { p }
}

/// The fewest discs a position of phase `phase` (of `phases`) has: the inverse of [`phase`].
#[must_use]
pub const fn first_discs(phase: usize, phases: usize) -> u32 {
    // The smallest m with m · phases / 60 ≥ phase is ⌈60 · phase / phases⌉.
    let moves = (MAX_PHASES * phase).div_ceil(if phases == 0 { 1 } else { phases });
    4 + if moves > 60 { 60 } else { moves as u32 }
}

/// The most features one square belongs to.
const MAX_PER_SQUARE: usize = 16;

/// Where each square appears: (feature number, 3^(digits after it)) pairs.
struct SquareMap {
    /// `entries[sq][..counts[sq]]`.
    entries: [[(usize, u32); MAX_PER_SQUARE]; 64],
    counts: [usize; 64],
    /// First feature number of each group.
    offsets: Vec<usize>,
    /// Total number of features.
    count: usize,
}

impl SquareMap {
    #[inline]
    fn squares(&self, sq: Square) -> &[(usize, u32)] {
        let i = sq.index() as usize;
        &self.entries[i][..self.counts[i]]
    }
}

fn square_map() -> &'static SquareMap {
    static MAP: std::sync::OnceLock<SquareMap> = std::sync::OnceLock::new();
    MAP.get_or_init(|| {
        let mut entries = [[(0, 0); MAX_PER_SQUARE]; 64];
        let mut counts = [0; 64];
        let mut offsets = Vec::new();
        let mut number = 0;
        for group in groups() {
            offsets.push(number);
            for feature in &group.features {
                for (k, sq) in feature.iter().enumerate() {
                    let power = 3u32.pow((group.length - 1 - k) as u32);
                    let sq = sq.index() as usize;
                    assert!(counts[sq] < MAX_PER_SQUARE, "too many features on one square");
                    entries[sq][counts[sq]] = (number, power);
                    counts[sq] += 1;
                }
                number += 1;
            }
        }
        SquareMap { entries, counts, offsets, count: number }
    })
}

/// Number of features (pattern placements) over all groups.
pub const FEATURE_COUNT: usize = 46;

/// [`FEATURE_COUNT`] rounded up to a whole number of 128-bit lanes of `u16`: the width of [`Features`]' update.
const FEATURE_LANES: usize = 48;
// Every feature has a lane, and every index (below 3^MAX_LENGTH) fits one.
const _: () = assert!(FEATURE_COUNT <= FEATURE_LANES && 3u32.pow(MAX_LENGTH as u32) <= 1 << 16);

/// `square_deltas()[sq][f]`: one step of `sq`'s digit in feature `f`'s index (3^(digits after `sq`) if `f` holds `sq`,
/// else 0). The lanes from [`FEATURE_COUNT`] on stay 0.
fn square_deltas() -> &'static [[u16; FEATURE_LANES]; 64] {
    static DELTAS: std::sync::OnceLock<[[u16; FEATURE_LANES]; 64]> = std::sync::OnceLock::new();
    DELTAS.get_or_init(|| {
        let map = square_map();
        let mut deltas = [[0u16; FEATURE_LANES]; 64];
        for (i, row) in deltas.iter_mut().enumerate() {
            for &(f, power) in map.squares(Square::from_index(i as u8)) {
                // 3^9 at most (MAX_LENGTH = 10).
                row[f] = u16::try_from(power).unwrap_or(u16::MAX);
            }
        }
        deltas
    })
}

/// Adds `delta` to `to`, lane by lane (modulo 2^16; the caller keeps every lane's final value in range). A loop of a
/// fixed length the compiler turns into whole-vector additions.
#[inline(always)]
fn add_lanes(to: &mut [u16; FEATURE_LANES], delta: &[u16; FEATURE_LANES]) {
    for (a, &d) in to.iter_mut().zip(delta) {
        *a = a.wrapping_add(d);
    }
}

/// Ternary indices of every feature in the search's reading: 0 = black, 1 = empty, 2 = white (each below 3^10, so a
/// `u16`).
///
/// In this reading the same discs seen with the colours swapped spell `3^length − 1 − index` (every digit `d` becomes
/// `2 − d`), so one table per phase serves both colours to move: White to move reads its feature's table from the
/// end. The weights files, the trainers and [`Weights`] use the other reading (0 = empty, 1 = black, 2 = white):
/// [`Features::pattern_indices`] gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Features {
    /// The [`FEATURE_COUNT`] indices, then lanes that stay 0.
    indices: [u16; FEATURE_LANES],
}

impl Features {
    /// Computes every index from scratch.
    #[must_use]
    pub fn new(black: Bitboard, white: Bitboard) -> Features {
        let map = square_map();
        debug_assert_eq!(map.count, FEATURE_COUNT);
        let mut indices = [0u16; FEATURE_LANES];
        for i in 0..64u8 {
            let sq = Square::from_index(i);
            let digit = if black.contains(sq) {
                0
            } else if white.contains(sq) {
                2
            } else {
                1
            };
            for &(f, power) in map.squares(sq) {
                // Each index stays below 3^10.
                indices[f] += digit * power as u16;
            }
        }
        Features { indices }
    }

    /// The indices in the search's reading (0 = black, 1 = empty, 2 = white), feature by feature (groups in
    /// [`pattern::groups`] order).
    #[must_use]
    pub fn indices(&self) -> &[u16] {
        &self.indices[..FEATURE_COUNT]
    }

    /// The indices in the weights' reading (0 = empty, 1 = black, 2 = white), feature by feature: what a group's
    /// table in [`Weights`] is indexed by.
    #[must_use]
    pub fn pattern_indices(&self) -> [u16; FEATURE_COUNT] {
        let recode = recode_table();
        let lengths = feature_lengths();
        // Both readings of an index are below 3^10.
        std::array::from_fn(|f| recode[lengths[f]][usize::from(self.indices[f])] as u16)
    }

    /// Updates the indices for `mover` placing a disc on `square` and flipping `flips`.
    #[inline(always)]
    pub fn play(&mut self, mover: Color, square: Square, flips: Bitboard) {
        let deltas = square_deltas();
        // The flipped discs' deltas summed first, in registers, then one update of the indices.
        let mut flipped = [0u16; FEATURE_LANES];
        for sq in flips {
            add_lanes(&mut flipped, &deltas[sq.index() as usize]);
        }
        // The new disc's digit moves one step (from 1, empty), each flipped disc's two (between 0 and 2).
        let mut change = deltas[square.index() as usize];
        add_lanes(&mut change, &flipped);
        add_lanes(&mut change, &flipped);
        match mover {
            // Towards 0 (black).
            Color::Black => {
                for (a, &d) in self.indices.iter_mut().zip(&change) {
                    *a = a.wrapping_sub(d);
                }
            }
            // Towards 2 (white).
            Color::White => add_lanes(&mut self.indices, &change),
        }
    }
}

/// The length of each feature's group, feature by feature.
fn feature_lengths() -> &'static [usize; FEATURE_COUNT] {
    static LENGTHS: std::sync::OnceLock<[usize; FEATURE_COUNT]> = std::sync::OnceLock::new();
    LENGTHS.get_or_init(|| {
        let mut lengths = [0; FEATURE_COUNT];
        let all = groups().iter().flat_map(|g| std::iter::repeat_n(g.length, g.features.len()));
        for (to, length) in lengths.iter_mut().zip(all) {
            *to = length;
        }
        lengths
    })
}

/// Where each feature's group table starts and where it ends (its last index) when the groups' tables lie back to
/// back in [`pattern::groups`] order, feature by feature: Black to move reads `starts[f] + index`, White to move
/// `ends[f] − index` (search's reading; computed once).
fn feature_spans() -> &'static ([u32; FEATURE_COUNT], [u32; FEATURE_COUNT]) {
    static SPANS: std::sync::OnceLock<([u32; FEATURE_COUNT], [u32; FEATURE_COUNT])> = std::sync::OnceLock::new();
    SPANS.get_or_init(|| {
        let (mut starts, mut ends) = ([0u32; FEATURE_COUNT], [0u32; FEATURE_COUNT]);
        let (mut feature, mut start) = (0, 0u32);
        for group in groups() {
            for _ in &group.features {
                starts[feature] = start;
                ends[feature] = start + group.size() as u32 - 1;
                feature += 1;
            }
            start += group.size() as u32;
        }
        (starts, ends)
    })
}

/// A ternary index of `length` digits with each digit `d` replaced by `map[d]`.
fn map_digits(index: u32, length: usize, map: [u32; 3]) -> u32 {
    let mut digits = [0u32; MAX_LENGTH];
    let mut rest = index;
    for k in (0..length).rev() {
        digits[k] = rest % 3;
        rest /= 3;
    }
    digits[..length].iter().fold(0, |acc, &d| acc * 3 + map[d as usize])
}

/// Swaps the digits 1 and 2 of a ternary index in the weights' reading: the same discs seen from the other colour.
fn swap_colors(index: u32, length: usize) -> u32 {
    map_digits(index, length, [0, 2, 1])
}

/// Swaps the digits 0 and 1 of a ternary index: from the search's reading to the weights' and back.
fn recode(index: u32, length: usize) -> u32 {
    map_digits(index, length, [1, 0, 2])
}

/// `table[length][index] = f(index, length)` for every pattern length in use (empty for the others).
fn digit_table(f: fn(u32, usize) -> u32) -> Vec<Vec<u32>> {
    (0..=MAX_LENGTH)
        .map(|length| {
            let used = groups().iter().any(|g| g.length == length);
            if used { (0..3u32.pow(length as u32)).map(|i| f(i, length)).collect() } else { Vec::new() }
        })
        .collect()
}

/// `swap_table()[length][index]` = [`swap_colors`]`(index, length)` for every pattern length in use.
fn swap_table() -> &'static [Vec<u32>] {
    static TABLE: std::sync::OnceLock<Vec<Vec<u32>>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| digit_table(swap_colors))
}

/// `recode_table()[length][index]` = [`recode`]`(index, length)` for every pattern length in use.
fn recode_table() -> &'static [Vec<u32>] {
    static TABLE: std::sync::OnceLock<Vec<Vec<u32>>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| digit_table(recode))
}

/// Evaluation weights, from the side to move's point of view ("1" digits = side to move after the colour swap).
#[derive(Debug, Clone, PartialEq)]
pub struct Weights {
    /// `patterns[phase][group][index]`, in 1/[`SCALE`] discs.
    pub patterns: Vec<Vec<Vec<i16>>>,
    /// `mobility[phase][n]`: the side to move has `n` moves (capped at [`MAX_MOBILITY`]).
    pub mobility: Vec<Vec<i16>>,
    /// `opponent_mobility[phase][n]`: the opponent has `n` moves.
    pub opponent_mobility: Vec<Vec<i16>>,
    /// `bias[phase]`.
    pub bias: Vec<i16>,
    /// `discs[phase][`[`disc_index`]`]`: the side to move's disc count and the parity of the empty squares.
    pub discs: Vec<Vec<i16>>,
    /// A network whose output is added (experiment; not part of the weights file).
    pub net: Option<std::sync::Arc<net::Net>>,
}

impl Weights {
    /// All-zero weights with [`PHASES`] phases (evaluation 0 everywhere).
    #[must_use]
    pub fn zero() -> Weights {
        Weights::zero_with_phases(PHASES)
    }

    /// All-zero weights with `phases` phases (1 to [`MAX_PHASES`]; other counts are brought into that range).
    #[must_use]
    pub fn zero_with_phases(phases: usize) -> Weights {
        let phases = phases.clamp(1, MAX_PHASES);
        let groups = groups();
        Weights {
            patterns: (0..phases).map(|_| groups.iter().map(|g| vec![0; g.size()]).collect()).collect(),
            mobility: vec![vec![0; MAX_MOBILITY + 1]; phases],
            opponent_mobility: vec![vec![0; MAX_MOBILITY + 1]; phases],
            bias: vec![0; phases],
            discs: vec![vec![0; DISC_TABLE]; phases],
            net: None,
        }
    }

    /// Number of phases (weight sets by number of discs).
    #[must_use]
    pub fn phases(&self) -> usize {
        self.bias.len()
    }

    /// The phase of these weights that evaluates a position with `discs` discs on the board.
    #[must_use]
    pub fn phase(&self, discs: u32) -> usize {
        phase(discs, self.phases())
    }

    /// Makes every table give one weight to indices its group's self-symmetries make equivalent (the value at the
    /// canonical index wins), which the symmetry of the evaluation requires.
    pub fn tie_symmetric_indices(&mut self) {
        let groups = groups();
        for phase in &mut self.patterns {
            for (table, group) in phase.iter_mut().zip(groups) {
                tie_table(table, group);
            }
        }
    }

    /// The evaluation of `board` (side to move's view) whose features (Black's view) are `features` and whose side to
    /// move is `side`, in discs.
    #[must_use]
    pub fn evaluate(&self, board: &Board, features: &Features, side: Color) -> i32 {
        let discs = 64 - board.empty_count();
        let phase = self.phase(discs);
        let map = square_map();
        let mut sum = i32::from(self.bias[phase]);
        let swap = swap_table();
        let indices = features.pattern_indices();
        for (g, group) in groups().iter().enumerate() {
            let table = &self.patterns[phase][g];
            let first = map.offsets[g];
            for &index in &indices[first..first + group.features.len()] {
                let index = match side {
                    Color::Black => u32::from(index),
                    Color::White => swap[group.length][index as usize],
                };
                sum += i32::from(table[index as usize]);
            }
        }
        let mobility = portable::moves(board.player.0, board.opponent.0).count_ones() as usize;
        let opponent = portable::moves(board.opponent.0, board.player.0).count_ones() as usize;
        sum += i32::from(self.mobility[phase][mobility.min(MAX_MOBILITY)]);
        sum += i32::from(self.opponent_mobility[phase][opponent.min(MAX_MOBILITY)]);
        sum += i32::from(self.discs[phase][disc_index(board.player.0.count_ones(), discs)]);
        (sum + SCALE / 2).div_euclid(SCALE).clamp(-64, 64)
    }
}

fn tie_table(table: &mut [i16], group: &Group) {
    for index in 0..table.len() {
        let canonical = group.canonical_index(index);
        if canonical != index {
            table[index] = table[canonical];
        }
    }
}

#[cfg(test)]
mod tests;
