//! Shards: the positions of a long book job split among several runs (machines, jobs of a scheduler) by a fixed hash
//! of the canonical position, so that every run agrees on who does what; their books are joined with `book merge`.

use crate::board::{Board, hash_pair};

/// One part of the positions, so that several machines (or jobs) can search them: shard `index` of `count`, 1-based.
/// A position belongs to shard `hash_pair(player, opponent) % count + 1` of its canonical board ([`hash_pair`], a fixed
/// multiply–xorshift mix of the two bitboards in our bit order, a1 = bit 0): every position is in exactly one shard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// Which shard, 1..=count.
    pub index: u32,
    /// How many shards.
    pub count: u32,
}

impl Shard {
    /// Everything in one shard.
    pub const ALL: Shard = Shard { index: 1, count: 1 };

    /// Reads `K/N` with 1 ≤ K ≤ N.
    ///
    /// # Errors
    /// A message saying what is wrong.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("{text:?} is not a shard K/N with 1 <= K <= N");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let (index, count) = (k.trim().parse::<u32>().map_err(|_| bad())?, n.trim().parse::<u32>().map_err(|_| bad())?);
        if index == 0 || index > count { Err(bad()) } else { Ok(Shard { index, count }) }
    }

    /// The shard (1-based) that `board` (any orientation) belongs to among `count`.
    #[must_use]
    pub fn of(board: &Board, count: u32) -> u32 {
        let (c, _) = board.canonical();
        let rest = hash_pair(c.player.0, c.opponent.0).checked_rem(u64::from(count)).unwrap_or(0);
        u32::try_from(rest).unwrap_or(0).saturating_add(1)
    }

    /// Whether `board` belongs to this shard.
    #[must_use]
    pub fn contains(self, board: &Board) -> bool {
        Shard::of(board, self.count) == self.index
    }
}
