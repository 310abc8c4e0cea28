//! Stable discs: discs that no sequence of moves can flip.
//!
//! The computation is conservative (every disc it reports is truly stable; a few stable discs may be missed), which is
//! what both the display and the solver's stability cut-off need. Three sources:
//! 1. edges, from a table that solves every 8-square edge line exactly (an edge disc can only flip along its edge);
//! 2. discs whose four lines (row, column, both diagonals) are full;
//! 3. discs that, along each of the four axes, touch a stable disc of their own colour or lie on a full line —
//!    propagated until nothing changes.

use std::sync::OnceLock;

use crate::bitboard::mirror_diagonal;

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

/// Stable discs along the four edges.
fn edge_stable_discs(p: u64, o: u64) -> u64 {
    let table = edge_table();
    let lookup = |pp: u64, oo: u64| u64::from(table[((pp & 0xff) as usize) << 8 | (oo & 0xff) as usize]);
    let rows = lookup(p, o) | lookup(p >> 56, o >> 56) << 56;
    let (tp, to) = (mirror_diagonal(p), mirror_diagonal(o));
    let columns = lookup(tp, to) | lookup(tp >> 56, to >> 56) << 56;
    rows | mirror_diagonal(columns)
}

/// The diagonals (a1–h8 direction, step 9) and anti-diagonals (step 7) of length at least 3 as masks.
static DIAGONALS: OnceLock<([u64; 11], [u64; 11])> = OnceLock::new();

fn diagonals() -> &'static ([u64; 11], [u64; 11]) {
    DIAGONALS.get_or_init(|| {
        let mut d9 = [0u64; 11];
        let mut d7 = [0u64; 11];
        for (k, offset) in (-5i32..=5).enumerate() {
            for c in 0..8i32 {
                let r = c + offset;
                if (0..8).contains(&r) {
                    d9[k] |= 1 << (r * 8 + c);
                }
                let r = 7 - c + offset;
                if (0..8).contains(&r) {
                    d7[k] |= 1 << (r * 8 + c);
                }
            }
        }
        (d9, d7)
    })
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
    // Short diagonals at the corners (length 1 and 2) only matter for edge squares, which the edge table covers.
    let (d9s, d7s) = diagonals();
    let mut d9 = 0;
    let mut d7 = 0;
    for (&a, &b) in d9s.iter().zip(d7s) {
        if filled & a == a {
            d9 |= a;
        }
        if filled & b == b {
            d7 |= b;
        }
    }
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
