//! A small, fast, seedable random number generator for everything the engine draws at random: self-play openings,
//! book move choices, the AI's accepted losses and random boards. The same seed gives the same numbers on every
//! platform, so games and tests are reproducible.

/// A small, fast, seedable random number generator (SplitMix64) for self-play: the same seed gives the same numbers
/// on every platform.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRng {
    state: u64,
}

impl GameRng {
    /// A generator starting from `seed`.
    #[must_use]
    pub const fn new(seed: u64) -> GameRng {
        GameRng { state: seed }
    }

    /// The generator of game `index` of a run seeded with `seed` (independent of which thread plays the game).
    #[must_use]
    pub fn for_game(seed: u64, index: u64) -> GameRng {
        let mut mixer = GameRng::new(seed);
        let base = mixer.next_u64();
        GameRng::new(base ^ GameRng::new(index).next_u64().rotate_left(17))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (0 when `n` is 0), by multiply-shift: the bias is at most n / 2^64.
    pub fn below(&mut self, n: usize) -> usize {
        let wide = u128::from(self.next_u64()) * n as u128;
        usize::try_from(wide >> 64).unwrap_or(0)
    }

    /// A number in `min..=max` (`min` when `max < min`).
    pub fn in_range(&mut self, min: usize, max: usize) -> usize {
        min.saturating_add(self.below(max.saturating_sub(min).saturating_add(1)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rng_is_reproducible_and_in_range() {
        let mut a = GameRng::for_game(7, 3);
        let mut b = GameRng::for_game(7, 3);
        let xs: Vec<u64> = (0..8).map(|_| a.next_u64()).collect();
        assert_eq!(xs, (0..8).map(|_| b.next_u64()).collect::<Vec<_>>());
        assert_ne!(GameRng::for_game(7, 4).next_u64(), xs[0]);
        assert_ne!(GameRng::for_game(8, 3).next_u64(), xs[0]);
        let mut rng = GameRng::new(1);
        let mut seen = [false; 5];
        for _ in 0..200 {
            let x = rng.in_range(4, 8);
            assert!((4..=8).contains(&x));
            seen[x - 4] = true;
        }
        assert!(seen.iter().all(|&s| s));
        assert_eq!(rng.below(0), 0);
        assert_eq!(rng.in_range(5, 5), 5);
    }
}
