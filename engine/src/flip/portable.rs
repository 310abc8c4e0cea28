//! Portable move generation and flips: the reference implementation.

use super::RAYS;

/// Opponent discs that can be inside a horizontal or diagonal line (not on columns a or h).
const INNER_COLUMNS: u64 = 0x7e7e_7e7e_7e7e_7e7e;

/// Squares where `p` can play against `o` along one axis (`shift` is 1, 7, 8 or 9), both senses.
#[inline(always)]
fn moves_axis(p: u64, o: u64, shift: u32) -> u64 {
    let double = shift * 2;
    let mut up = o & (p << shift);
    let mut down = o & (p >> shift);
    up |= o & (up << shift);
    down |= o & (down >> shift);
    let pair_up = o & (o << shift);
    let pair_down = pair_up >> shift;
    up |= pair_up & (up << double);
    down |= pair_down & (down >> double);
    up |= pair_up & (up << double);
    down |= pair_down & (down >> double);
    (up << shift) | (down >> shift)
}

/// Legal moves of `p` against `o` (empty squares that flip at least one disc).
#[inline]
#[must_use]
pub fn moves(p: u64, o: u64) -> u64 {
    let inner = o & INNER_COLUMNS;
    let m = moves_axis(p, inner, 1) | moves_axis(p, o, 8) | moves_axis(p, inner, 7) | moves_axis(p, inner, 9);
    m & !(p | o)
}

/// Discs flipped when `p` plays on square `sq` (an empty square, `sq < 64`). Zero means the move is illegal.
///
/// Along each ray, the first square that is not an opponent disc must be one of ours for the opponent discs before it
/// to flip.
#[inline]
#[must_use]
pub fn flip(sq: u32, p: u64, o: u64) -> u64 {
    let rays = &RAYS[sq as usize];
    let mut flipped = 0;
    for ray in rays.up {
        // Towards higher indices the first blocker is the lowest set bit.
        let blockers = !o & ray;
        let outflank = blockers & blockers.wrapping_neg() & p;
        if outflank != 0 {
            flipped |= (outflank - 1) & ray;
        }
    }
    for ray in rays.down {
        // Towards lower indices the first blocker is the highest set bit.
        let blockers = !o & ray;
        if blockers != 0 {
            let outflank = (1u64 << (63 - blockers.leading_zeros())) & p;
            flipped |= (outflank << 1).wrapping_neg() & ray;
        }
    }
    flipped
}

/// Legal moves computed the slow, obvious way: try every empty square. Used by tests only.
#[cfg(test)]
#[must_use]
pub fn moves_by_flip(p: u64, o: u64) -> u64 {
    let mut m = 0;
    for sq in 0..64 {
        if (p | o) >> sq & 1 == 0 && flip(sq, p, o) != 0 {
            m |= 1 << sq;
        }
    }
    m
}
