//! Move generation and flip computation: a portable implementation and x86-64 SIMD paths chosen at run time.
//!
//! Every function takes raw bitboards `p` (side to move) and `o` (opponent). The portable module is always compiled: it is
//! the reference the SIMD paths are tested against, and the path used on other architectures and older CPUs.
//!
//! Searches do not call through [`Backend`] per move; they are compiled once per backend (see
//! [`crate::search`]) and dispatched once per search, so the SIMD code inlines into the search loops.

pub mod portable;

#[cfg(target_arch = "x86_64")]
pub mod avx2;
#[cfg(target_arch = "x86_64")]
pub mod avx512;

use std::sync::OnceLock;

/// The eight rays from every square, grouped as (+1, +8, +7, +9) towards higher indices and (−1, −8, −7, −9) towards
/// lower ones. A ray excludes its starting square and stops at the board edge.
#[derive(Clone, Copy)]
#[repr(C, align(32))]
pub(crate) struct Rays {
    /// Rays towards higher bit indices: east, south, south-west, south-east.
    pub(crate) up: [u64; 4],
    /// Rays towards lower bit indices: west, north, north-east, north-west.
    pub(crate) down: [u64; 4],
}

const fn ray(square: usize, dc: i32, dr: i32) -> u64 {
    let mut bits = 0u64;
    let mut c = (square % 8) as i32 + dc;
    let mut r = (square / 8) as i32 + dr;
    while c >= 0 && c < 8 && r >= 0 && r < 8 {
        bits |= 1u64 << (r * 8 + c);
        c += dc;
        r += dr;
    }
    bits
}

const fn build_rays() -> [Rays; 64] {
    let mut table = [Rays { up: [0; 4], down: [0; 4] }; 64];
    let mut sq = 0;
    while sq < 64 {
        table[sq] = Rays {
            up: [ray(sq, 1, 0), ray(sq, 0, 1), ray(sq, -1, 1), ray(sq, 1, 1)],
            down: [ray(sq, -1, 0), ray(sq, 0, -1), ray(sq, 1, -1), ray(sq, -1, -1)],
        };
        sq += 1;
    }
    table
}

/// Ray masks for every square (2 KiB).
pub(crate) static RAYS: [Rays; 64] = build_rays();

/// Which implementation of the primitives this CPU runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// Plain Rust, any CPU.
    Portable,
    /// x86-64 with AVX2, BMI1/2, POPCNT and LZCNT (x86-64-v3).
    Avx2,
    /// x86-64-v3 plus AVX-512 F, VL and CD (per-lane leading-zero count).
    Avx512,
}

impl Backend {
    /// The fastest backend this CPU supports, detected once per process.
    ///
    /// Setting the environment variable `SHIROKURO_BACKEND` to `portable` or `avx2` caps the choice (for benchmarks and
    /// tests); an unknown value is ignored.
    #[must_use]
    pub fn detect() -> Backend {
        static DETECTED: OnceLock<Backend> = OnceLock::new();
        *DETECTED.get_or_init(|| {
            let best = Self::supported().into_iter().last().unwrap_or(Backend::Portable);
            match std::env::var("SHIROKURO_BACKEND").as_deref() {
                Ok("portable") => Backend::Portable,
                Ok("avx2") if best == Backend::Avx512 => Backend::Avx2,
                _ => best,
            }
        })
    }

    /// Every backend this CPU can run, slowest first (always starts with [`Backend::Portable`]).
    #[must_use]
    pub fn supported() -> Vec<Backend> {
        let mut list = vec![Backend::Portable];
        #[cfg(target_arch = "x86_64")]
        {
            if avx2::is_supported() {
                list.push(Backend::Avx2);
                if avx512::is_supported() {
                    list.push(Backend::Avx512);
                }
            }
        }
        list
    }

    /// Short lower-case name (`portable`, `avx2`, `avx512`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Backend::Portable => "portable",
            Backend::Avx2 => "avx2",
            Backend::Avx512 => "avx512",
        }
    }

    /// Legal moves of `p` against `o` with this backend.
    ///
    /// # Panics
    /// Panics if the CPU lacks the backend's features (use [`Backend::supported`]).
    #[must_use]
    pub fn moves(self, p: u64, o: u64) -> u64 {
        match self {
            Backend::Portable => portable::moves(p, o),
            #[cfg(target_arch = "x86_64")]
            #[allow(unsafe_code)]
            Backend::Avx2 => {
                assert!(avx2::is_supported(), "AVX2 backend used on a CPU without AVX2");
                // SAFETY: the CPU supports the features avx2::moves is compiled with (checked just above).
                unsafe { avx2::moves(p, o) }
            }
            #[cfg(target_arch = "x86_64")]
            #[allow(unsafe_code)]
            Backend::Avx512 => {
                assert!(avx512::is_supported(), "AVX-512 backend used on a CPU without AVX-512");
                // SAFETY: the CPU supports the features avx512::moves is compiled with (checked just above).
                unsafe { avx512::moves(p, o) }
            }
            #[cfg(not(target_arch = "x86_64"))]
            _ => portable::moves(p, o),
        }
    }

    /// Discs flipped when `p` plays on square index `sq` (which must be empty) with this backend.
    ///
    /// # Panics
    /// Panics if `sq > 63` or the CPU lacks the backend's features.
    #[must_use]
    pub fn flip(self, sq: u32, p: u64, o: u64) -> u64 {
        assert!(sq < 64, "square index out of range");
        match self {
            Backend::Portable => portable::flip(sq, p, o),
            #[cfg(target_arch = "x86_64")]
            #[allow(unsafe_code)]
            Backend::Avx2 => {
                assert!(avx2::is_supported(), "AVX2 backend used on a CPU without AVX2");
                // SAFETY: features checked just above; sq < 64 checked above.
                unsafe { avx2::flip(sq, p, o) }
            }
            #[cfg(target_arch = "x86_64")]
            #[allow(unsafe_code)]
            Backend::Avx512 => {
                assert!(avx512::is_supported(), "AVX-512 backend used on a CPU without AVX-512");
                // SAFETY: features checked just above; sq < 64 checked above.
                unsafe { avx512::flip(sq, p, o) }
            }
            #[cfg(not(target_arch = "x86_64"))]
            _ => portable::flip(sq, p, o),
        }
    }
}

#[cfg(test)]
mod tests;
