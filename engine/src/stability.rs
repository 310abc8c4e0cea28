//! Stable discs: discs that no sequence of moves can flip.
//!
//! The computation is conservative (every disc it reports is truly stable; a few stable discs may be missed), which is
//! what both the display and the solver's stability cut-off need. Three sources:
//! 1. edges, from a table that solves every 8-square edge line exactly (an edge disc can only flip along its edge);
//! 2. discs whose four lines (row, column, both diagonals) are full;
//! 3. discs that, along each of the four axes, touch a stable disc of their own colour or lie on a full line —
//!    propagated until nothing changes.

use std::sync::OnceLock;

/// Stable discs of the line player `p` against `o`, for all 3^8 edge lines, indexed by `p * 256 + o`.
fn edge_table() -> &'static [u8; 65536] {
    static TABLE: OnceLock<Box<[u8; 65536]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = Box::new([0u8; 65536]);
        let mut known = vec![false; 65536];
        for p in 0..256u32 {
            for o in 0..256u32 {
                if p & o == 0 {
                    let _ = edge_stable(p as u8, o as u8, &mut table, &mut known);
                }
            }
        }
        table
    })
}

/// Discs of a line flipped when `p` plays at `x` (1D rules).
fn line_flips(x: u32, p: u8, o: u8) -> u8 {
    let mut flips = 0u8;
    for step in [-1i32, 1] {
        let mut run = 0u8;
        let mut i = x as i32 + step;
        while (0..8).contains(&i) {
            let bit = 1u8 << i;
            if o & bit != 0 {
                run |= bit;
            } else {
                if p & bit != 0 {
                    flips |= run;
                }
                break;
            }
            i += step;
        }
    }
    flips
}

fn edge_stable(p: u8, o: u8, table: &mut [u8; 65536], known: &mut [bool]) -> u8 {
    let index = usize::from(p) * 256 + usize::from(o);
    if known[index] {
        return table[index];
    }
    let mut stable = p;
    let empties = !(p | o);
    for x in 0..8u32 {
        if stable == 0 {
            break;
        }
        let bit = 1u8 << x;
        if empties & bit == 0 {
            continue;
        }
        // Either colour may fill the square (a move can be legal through another line), flipping along this line
        // whatever it brackets.
        let fp = line_flips(x, p, o);
        stable &= edge_stable(p | bit | fp, o & !fp, table, known);
        let fo = line_flips(x, o, p);
        stable &= edge_stable(p & !fo, o | bit | fo, table, known);
    }
    table[index] = stable;
    known[index] = true;
    stable
}

/// The a-file; the h-file is it shifted by 7.
const FILE_A: u64 = 0x0101_0101_0101_0101;

/// The squares of file a set in a byte (bit r = row r), for every byte: how a column's result goes back on the board.
static FILE_A_OF_BYTE: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut byte = 0;
    while byte < 256 {
        let mut row = 0;
        while row < 8 {
            if byte >> row & 1 == 1 {
                table[byte] |= 1 << (8 * row);
            }
            row += 1;
        }
        byte += 1;
    }
    table
};

/// Column `c` of `x` as a byte, bit r = row r. The multiplier sends the bit of row r (bit 8r of the a-file) to bit
/// 56 + r, and no two of its partial products share a bit, so nothing carries.
#[inline]
fn column_byte(x: u64, c: u32) -> usize {
    ((x >> c & FILE_A).wrapping_mul(0x0102_0408_1020_4080) >> 56) as usize
}

/// Stable discs along the four edges.
fn edge_stable_discs(p: u64, o: u64) -> u64 {
    let table = edge_table();
    let lookup = |pp: usize, oo: usize| table[pp << 8 | oo];
    let rows = u64::from(lookup((p & 0xff) as usize, (o & 0xff) as usize))
        | u64::from(lookup((p >> 56) as usize, (o >> 56) as usize)) << 56;
    let file_a = FILE_A_OF_BYTE[usize::from(lookup(column_byte(p, 0), column_byte(o, 0)))];
    let file_h = FILE_A_OF_BYTE[usize::from(lookup(column_byte(p, 7), column_byte(o, 7)))] << 7;
    rows | file_a | file_h
}

/// The squares of rows `r0..=r1` and of columns `c0..=c1`.
const fn rows_or_columns(r0: u32, r1: u32, c0: u32, c1: u32) -> u64 {
    let mut mask = 0;
    let mut sq = 0;
    while sq < 64 {
        let (r, c) = (sq / 8, sq % 8);
        if (r0 <= r && r <= r1) || (c0 <= c && c <= c1) {
            mask |= 1 << sq;
        }
        sq += 1;
    }
    mask
}

/// Squares whose diagonal ray in one direction is filled up to the board's edge. `shift_back(x, n)` moves the bit of
/// the square `n` squares further along the ray onto the square itself; `edge[k]` holds the squares whose ray leaves
/// the board within 2^k steps. Each round doubles the length checked (1, 2, then 4 more squares): enough for the
/// longest ray, 7 squares.
#[inline]
fn filled_ray(filled: u64, shift_back: impl Fn(u64, u32) -> u64, step: u32, edge: [u64; 3]) -> u64 {
    let mut f = filled & (edge[0] | shift_back(filled, step));
    f &= edge[1] | shift_back(f, 2 * step);
    f &= edge[2] | shift_back(f, 4 * step);
    f
}

/// Squares on full lines, per axis: (horizontal, vertical, step-7 diagonal, step-9 diagonal).
fn full_lines(filled: u64) -> (u64, u64, u64, u64) {
    let mut t = filled & (filled >> 4);
    t &= t >> 2;
    t &= t >> 1;
    let horizontal = (t & 0x0101_0101_0101_0101) * 0xff;
    let mut t = filled & (filled >> 32);
    t &= t >> 16;
    t &= t >> 8;
    let vertical = (t & 0xff) * 0x0101_0101_0101_0101;
    // Step 9 runs towards row 8 and file h, step 7 towards row 8 and file a; a square is on a full diagonal when its
    // rays both ways are filled up to the edge.
    const UP9: [u64; 3] = [rows_or_columns(7, 7, 7, 7), rows_or_columns(6, 7, 6, 7), rows_or_columns(4, 7, 4, 7)];
    const DOWN9: [u64; 3] = [rows_or_columns(0, 0, 0, 0), rows_or_columns(0, 1, 0, 1), rows_or_columns(0, 3, 0, 3)];
    const UP7: [u64; 3] = [rows_or_columns(7, 7, 0, 0), rows_or_columns(6, 7, 0, 1), rows_or_columns(4, 7, 0, 3)];
    const DOWN7: [u64; 3] = [rows_or_columns(0, 0, 7, 7), rows_or_columns(0, 1, 6, 7), rows_or_columns(0, 3, 4, 7)];
    let up = |x: u64, n: u32| x >> n;
    let down = |x: u64, n: u32| x << n;
    let d9 = filled_ray(filled, up, 9, UP9) & filled_ray(filled, down, 9, DOWN9);
    let d7 = filled_ray(filled, up, 7, UP7) & filled_ray(filled, down, 7, DOWN7);
    (horizontal, vertical, d7, d9)
}

/// Stable discs of `p` (the side whose stability is wanted) against `o`.
#[must_use]
pub fn stable_discs(p: u64, o: u64) -> u64 {
    const INNER: u64 = 0x007e_7e7e_7e7e_7e00;
    let (h, v, d7, d9) = full_lines(p | o);
    let inner = p & INNER;
    let mut stable = edge_stable_discs(p, o) | (inner & h & v & d7 & d9);
    if stable == 0 {
        return 0;
    }
    loop {
        let old = stable;
        let sh = (stable >> 1) | (stable << 1) | h;
        let sv = (stable >> 8) | (stable << 8) | v;
        let s7 = (stable >> 7) | (stable << 7) | d7;
        let s9 = (stable >> 9) | (stable << 9) | d9;
        stable |= inner & sh & sv & s7 & s9;
        if stable == old {
            return stable;
        }
    }
}

/// Number of stable discs of `p` against `o`.
#[must_use]
pub fn stable_count(p: u64, o: u64) -> u32 {
    stable_discs(p, o).count_ones()
}

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    use super::*;
    use crate::bitboard::mirror_diagonal;

    /// The edges by transposing the board: the columns become rows 1 and 8.
    fn edge_stable_discs_by_transposing(p: u64, o: u64) -> u64 {
        let table = edge_table();
        let lookup = |pp: u64, oo: u64| u64::from(table[((pp & 0xff) as usize) << 8 | (oo & 0xff) as usize]);
        let rows = lookup(p, o) | lookup(p >> 56, o >> 56) << 56;
        let (tp, to) = (mirror_diagonal(p), mirror_diagonal(o));
        rows | mirror_diagonal(lookup(tp, to) | lookup(tp >> 56, to >> 56) << 56)
    }

    /// The full diagonals of length 3 or more, one line at a time.
    fn full_diagonals_one_by_one(filled: u64) -> (u64, u64) {
        let (mut d7, mut d9) = (0, 0);
        for offset in -5i32..=5 {
            let (mut a, mut b) = (0u64, 0u64);
            for c in 0..8i32 {
                if (0..8).contains(&(c + offset)) {
                    a |= 1 << ((c + offset) * 8 + c);
                }
                if (0..8).contains(&(7 - c + offset)) {
                    b |= 1 << ((7 - c + offset) * 8 + c);
                }
            }
            if filled & a == a {
                d9 |= a;
            }
            if filled & b == b {
                d7 |= b;
            }
        }
        (d7, d9)
    }

    /// The shift-based edges and diagonals agree with the straightforward computations (on the squares the
    /// propagation reads: inner squares for the diagonals), on boards from empty to full.
    #[test]
    fn fast_edges_and_diagonals_match_the_plain_ones() {
        const INNER: u64 = 0x007e_7e7e_7e7e_7e00;
        let mut rng = StdRng::seed_from_u64(5);
        for i in 0..20_000 {
            // Fill each square with probability i / 20,000, so sparse and nearly full boards both occur.
            let mut filled = 0u64;
            for sq in 0..64 {
                if rng.random_range(0..20_000) < i {
                    filled |= 1 << sq;
                }
            }
            let p = filled & rng.random::<u64>();
            let o = filled & !p;
            assert_eq!(edge_stable_discs(p, o), edge_stable_discs_by_transposing(p, o), "{p:#x} {o:#x}");
            let (_, _, d7, d9) = full_lines(filled);
            let (d7_plain, d9_plain) = full_diagonals_one_by_one(filled);
            assert_eq!((d7 & INNER, d9 & INNER), (d7_plain & INNER, d9_plain & INNER), "{filled:#x}");
        }
    }
}
