//! Cross-checks of every backend against the portable reference on seeded random positions.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::{Backend, portable};

/// Positions from random play (realistic) and random disjoint bit patterns (adversarial), 50/50.
fn random_positions(count: usize, seed: u64) -> Vec<(u64, u64)> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        if out.len() % 2 == 0 {
            let (mut p, mut o) = (0x0000_0008_1000_0000_u64, 0x0000_0010_0800_0000_u64);
            let plies = rng.random_range(0..60);
            for _ in 0..plies {
                let m = portable::moves(p, o);
                if m == 0 {
                    if portable::moves(o, p) == 0 {
                        break;
                    }
                    std::mem::swap(&mut p, &mut o);
                    continue;
                }
                let pick = rng.random_range(0..m.count_ones());
                let mut mm = m;
                for _ in 0..pick {
                    mm &= mm - 1;
                }
                let sq = mm.trailing_zeros();
                let f = portable::flip(sq, p, o);
                (p, o) = (o ^ f, p ^ f ^ (1 << sq));
            }
            out.push((p, o));
        } else {
            let a: u64 = rng.random();
            let b: u64 = rng.random();
            let density: u64 = rng.random();
            out.push((a & density, !a & b & density | !a & b & rng.random::<u64>()));
        }
    }
    out
}

#[test]
fn portable_moves_match_flip_definition() {
    for (p, o) in random_positions(20_000, 1) {
        assert_eq!(portable::moves(p, o), portable::moves_by_flip(p, o), "p={p:#x} o={o:#x}");
    }
}

#[test]
fn portable_flip_matches_naive_walk() {
    fn naive(sq: u32, p: u64, o: u64) -> u64 {
        let (c0, r0) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut total = 0;
        for (dc, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)] {
            let (mut c, mut r, mut line) = (c0 + dc, r0 + dr, 0u64);
            while (0..8).contains(&c) && (0..8).contains(&r) {
                let bit = 1u64 << (r * 8 + c);
                if o & bit != 0 {
                    line |= bit;
                } else {
                    if p & bit != 0 {
                        total |= line;
                    }
                    break;
                }
                c += dc;
                r += dr;
            }
        }
        total
    }
    for (p, o) in random_positions(20_000, 2) {
        for sq in 0..64 {
            if (p | o) >> sq & 1 == 0 {
                assert_eq!(portable::flip(sq, p, o), naive(sq, p, o), "sq={sq} p={p:#x} o={o:#x}");
            }
        }
    }
}

#[test]
fn every_backend_matches_portable_on_100k_positions() {
    let positions = random_positions(100_000, 3);
    let backends = Backend::supported();
    for backend in &backends {
        for &(p, o) in &positions {
            assert_eq!(backend.moves(p, o), portable::moves(p, o), "{backend:?} moves p={p:#x} o={o:#x}");
            let empty = !(p | o);
            for sq in 0..64 {
                if empty >> sq & 1 != 0 {
                    assert_eq!(
                        backend.flip(sq, p, o),
                        portable::flip(sq, p, o),
                        "{backend:?} flip {sq} p={p:#x} o={o:#x}"
                    );
                }
            }
        }
    }
    if !backends.contains(&Backend::Avx512) {
        eprintln!("note: this CPU has no AVX-512; the AVX-512 path was not exercised (backends tested: {backends:?})");
    }
}
