//! AVX-512 (F, VL, CD) flips: like the AVX2 path, but the highest blocker of the downward rays comes from the per-lane
//! leading-zero count instead of a smear. Move generation is the AVX2 one.
#![allow(unsafe_code)]

use std::arch::x86_64::{
    _mm256_and_si256, _mm256_andnot_si256, _mm256_load_si256, _mm256_lzcnt_epi64, _mm256_or_si256, _mm256_set1_epi64x,
    _mm256_setzero_si256, _mm256_slli_epi64, _mm256_srlv_epi64, _mm256_sub_epi64,
};

use super::RAYS;
use super::avx2::{flip_up, or_lanes};

/// The target features every function of this module is compiled with.
pub const FEATURES: &str = "avx2,bmi1,bmi2,popcnt,lzcnt,avx512f,avx512vl,avx512cd";

/// Whether this CPU can run this module.
#[must_use]
pub fn is_supported() -> bool {
    super::avx2::is_supported()
        && is_x86_feature_detected!("avx512f")
        && is_x86_feature_detected!("avx512vl")
        && is_x86_feature_detected!("avx512cd")
}

/// Legal moves of `p` against `o` (the AVX2 routine, compiled with this module's features so it inlines here).
///
/// # Safety
/// Calling it from code not compiled with [`FEATURES`] requires a CPU that has them ([`is_supported`]).
#[inline]
#[must_use]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt,avx512f,avx512vl,avx512cd")]
pub fn moves(p: u64, o: u64) -> u64 {
    super::avx2::moves(p, o)
}

/// Discs flipped when `p` plays on `sq`; same result as [`super::portable::flip`].
///
/// # Safety
/// `sq` must be below 64.
#[inline]
#[must_use]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt,avx512f,avx512vl,avx512cd")]
pub unsafe fn flip(sq: u32, p: u64, o: u64) -> u64 {
    debug_assert!(sq < 64);
    // SAFETY: the caller guarantees sq < 64, the length of RAYS.
    let rays = unsafe { RAYS.get_unchecked(sq as usize) };
    let pp = _mm256_set1_epi64x(p as i64);
    let oo = _mm256_set1_epi64x(o as i64);
    // SAFETY: `Rays` is 32-byte aligned and `up`/`down` are its two 32-byte halves.
    let (up, down) =
        unsafe { (_mm256_load_si256(rays.up.as_ptr().cast()), _mm256_load_si256(rays.down.as_ptr().cast())) };
    let flipped = flip_up(up, pp, oo);
    let blockers = _mm256_andnot_si256(oo, down);
    // 0x8000… shifted right by the leading-zero count is the highest set bit; a count of 64 shifts it out (no blocker).
    let highest = _mm256_srlv_epi64(_mm256_set1_epi64x(i64::MIN), _mm256_lzcnt_epi64(blockers));
    let outflank = _mm256_and_si256(highest, pp);
    let above = _mm256_sub_epi64(_mm256_setzero_si256(), _mm256_slli_epi64::<1>(outflank));
    or_lanes(_mm256_or_si256(flipped, _mm256_and_si256(above, down)))
}
