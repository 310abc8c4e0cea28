//! AVX2 move generation and flips: the four directions of one sense are handled in the four 64-bit lanes of a vector.
#![allow(unsafe_code)]

use std::arch::x86_64::{
    __m256i, _mm_cvtsi128_si64, _mm_or_si128, _mm_unpackhi_epi64, _mm256_and_si256, _mm256_andnot_si256,
    _mm256_castsi256_si128, _mm256_cmpeq_epi64, _mm256_extracti128_si256, _mm256_load_si256, _mm256_or_si256,
    _mm256_set1_epi64x, _mm256_setr_epi64x, _mm256_setzero_si256, _mm256_slli_epi64, _mm256_sllv_epi64,
    _mm256_srlv_epi64, _mm256_sub_epi64,
};

use super::RAYS;

/// The target features every function of this module is compiled with.
pub const FEATURES: &str = "avx2,bmi1,bmi2,popcnt,lzcnt";

/// Whether this CPU can run this module.
#[must_use]
pub fn is_supported() -> bool {
    is_x86_feature_detected!("avx2")
        && is_x86_feature_detected!("bmi1")
        && is_x86_feature_detected!("bmi2")
        && is_x86_feature_detected!("popcnt")
        && is_x86_feature_detected!("lzcnt")
}

/// ORs the four lanes together.
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
pub(crate) fn or_lanes(v: __m256i) -> u64 {
    let half = _mm_or_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
    _mm_cvtsi128_si64(_mm_or_si128(half, _mm_unpackhi_epi64(half, half))) as u64
}

/// Legal moves of `p` against `o`; same result as [`super::portable::moves`].
///
/// # Safety
/// Calling it from code not compiled with [`FEATURES`] requires a CPU that has them ([`is_supported`]).
#[inline]
#[must_use]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
pub fn moves(p: u64, o: u64) -> u64 {
    let shift = _mm256_setr_epi64x(1, 8, 7, 9);
    let double = _mm256_setr_epi64x(2, 16, 14, 18);
    let inner = 0x7e7e_7e7e_7e7e_7e7e_u64 as i64;
    let mask = _mm256_setr_epi64x(inner, -1, inner, inner);
    let pp = _mm256_set1_epi64x(p as i64);
    let oo = _mm256_and_si256(_mm256_set1_epi64x(o as i64), mask);

    let mut up = _mm256_and_si256(oo, _mm256_sllv_epi64(pp, shift));
    let mut down = _mm256_and_si256(oo, _mm256_srlv_epi64(pp, shift));
    up = _mm256_or_si256(up, _mm256_and_si256(oo, _mm256_sllv_epi64(up, shift)));
    down = _mm256_or_si256(down, _mm256_and_si256(oo, _mm256_srlv_epi64(down, shift)));
    let pair_up = _mm256_and_si256(oo, _mm256_sllv_epi64(oo, shift));
    let pair_down = _mm256_srlv_epi64(pair_up, shift);
    up = _mm256_or_si256(up, _mm256_and_si256(pair_up, _mm256_sllv_epi64(up, double)));
    down = _mm256_or_si256(down, _mm256_and_si256(pair_down, _mm256_srlv_epi64(down, double)));
    up = _mm256_or_si256(up, _mm256_and_si256(pair_up, _mm256_sllv_epi64(up, double)));
    down = _mm256_or_si256(down, _mm256_and_si256(pair_down, _mm256_srlv_epi64(down, double)));
    let m = _mm256_or_si256(_mm256_sllv_epi64(up, shift), _mm256_srlv_epi64(down, shift));
    or_lanes(m) & !(p | o)
}

/// Flips along the four rays towards higher indices: the first non-opponent square is the lowest set bit.
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
pub(crate) fn flip_up(ray: __m256i, pp: __m256i, oo: __m256i) -> __m256i {
    let blockers = _mm256_andnot_si256(oo, ray);
    let lowest = _mm256_and_si256(blockers, _mm256_sub_epi64(_mm256_setzero_si256(), blockers));
    let outflank = _mm256_and_si256(lowest, pp);
    // All ones where there is no outflank (nothing flips), otherwise the bits from the outflank upwards.
    let eraser = _mm256_sub_epi64(_mm256_cmpeq_epi64(outflank, _mm256_setzero_si256()), outflank);
    _mm256_andnot_si256(eraser, ray)
}

/// Discs flipped when `p` plays on `sq`; same result as [`super::portable::flip`].
///
/// # Safety
/// `sq` must be below 64 (it indexes the ray table without a bounds check in release builds).
#[inline]
#[must_use]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
pub unsafe fn flip(sq: u32, p: u64, o: u64) -> u64 {
    debug_assert!(sq < 64);
    // SAFETY: the caller guarantees sq < 64, the length of RAYS.
    let rays = unsafe { RAYS.get_unchecked(sq as usize) };
    let pp = _mm256_set1_epi64x(p as i64);
    let oo = _mm256_set1_epi64x(o as i64);
    // SAFETY: `Rays` is 32-byte aligned and `up`/`down` are its two 32-byte halves.
    let (up, down) =
        unsafe { (_mm256_load_si256(rays.up.as_ptr().cast()), _mm256_load_si256(rays.down.as_ptr().cast())) };
    let mut flipped = flip_up(up, pp, oo);

    // Towards lower indices the first non-opponent square is the highest set bit: smear every blocker down its ray
    // (shifts of 1 to 8 steps) and keep the one blocker that nothing above covers.
    let shift = _mm256_setr_epi64x(1, 8, 7, 9);
    let blockers = _mm256_andnot_si256(oo, down);
    let mut below = _mm256_srlv_epi64(blockers, shift);
    below = _mm256_or_si256(below, _mm256_srlv_epi64(below, shift));
    below = _mm256_or_si256(below, _mm256_srlv_epi64(below, _mm256_setr_epi64x(2, 16, 14, 18)));
    below = _mm256_or_si256(below, _mm256_srlv_epi64(below, _mm256_setr_epi64x(4, 32, 28, 36)));
    let outflank = _mm256_and_si256(_mm256_andnot_si256(below, blockers), pp);
    let above = _mm256_sub_epi64(_mm256_setzero_si256(), _mm256_slli_epi64::<1>(outflank));
    flipped = _mm256_or_si256(flipped, _mm256_and_si256(above, down));
    or_lanes(flipped)
}
