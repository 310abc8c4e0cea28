//! The values of the leaves a search evaluated with its network, kept for the leaves it meets again.
//!
//! With a network the forward pass is most of a leaf's cost, and a midgame search evaluates the same leaves many
//! times: a null-window child searched again with the full window, a Multi-ProbCut probe followed by the search it
//! did not cut, transpositions among the leaves, which the table does not hold. The cache is direct-mapped, one
//! entry a bucket, and keeps the whole position beside its value, so a value is only ever returned for its own
//! position: the searches' results and node counts are those of a search without it. It belongs to one thread
//! (no locks) and to one evaluator (a search's), so it is made anew for each search.

use crate::board::hash_pair;

/// log2 of the number of entries: 2^12 entries of 24 bytes, 96 KB a thread. The leaves met again are met soon
/// after (a re-search, the search after a probe), so a small table that stays in the core's own caches saves more
/// time than a large one, whose every look-up waits on memory as the forward pass does (docs/benchmarks.md "The
/// leaves' values kept").
const BITS: u32 = 12;

#[derive(Clone, Copy)]
struct Entry {
    player: u64,
    opponent: u64,
    value: i32,
}

/// An empty entry: no position has no discs at all, so it matches nothing.
const EMPTY: Entry = Entry { player: 0, opponent: 0, value: 0 };

/// Network evaluations by position, side to move's view.
pub(crate) struct LeafCache {
    entries: Box<[Entry]>,
}

impl LeafCache {
    pub(crate) fn new() -> LeafCache {
        LeafCache { entries: vec![EMPTY; 1 << BITS].into_boxed_slice() }
    }

    #[inline]
    fn index(p: u64, o: u64) -> usize {
        (hash_pair(p, o) >> (64 - BITS)) as usize
    }

    /// The value kept for the position (`p` to move against `o`), if it is this position's.
    #[inline]
    pub(crate) fn get(&self, p: u64, o: u64) -> Option<i32> {
        let e = &self.entries[Self::index(p, o)];
        (e.player == p && e.opponent == o).then_some(e.value)
    }

    /// Keeps `value` for the position, in place of whatever its bucket held.
    #[inline]
    pub(crate) fn put(&mut self, p: u64, o: u64, value: i32) {
        self.entries[Self::index(p, o)] = Entry { player: p, opponent: o, value };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_comes_back_for_its_own_position_only() {
        let mut cache = LeafCache::new();
        let (p, o) = (0x0000_0008_1000_0000, 0x0000_0010_0800_0000);
        assert_eq!(cache.get(p, o), None);
        cache.put(p, o, 7);
        assert_eq!(cache.get(p, o), Some(7));
        assert_eq!(cache.get(o, p), None, "the other side to move is another position");
        // Positions of the same bucket that share one side's discs are other positions too; one put takes the place
        // of the last.
        let same_bucket = |change: &dyn Fn(u64) -> (u64, u64)| {
            (1u64..1 << 20).map(change).find(|&(a, b)| LeafCache::index(a, b) == LeafCache::index(p, o)).unwrap()
        };
        for other in [same_bucket(&|k| (p, o ^ (k << 40))), same_bucket(&|k| (p ^ (k << 40), o))] {
            assert_eq!(cache.get(other.0, other.1), None);
            cache.put(other.0, other.1, -3);
            assert_eq!(cache.get(other.0, other.1), Some(-3));
            assert_eq!(cache.get(p, o), None);
            cache.put(p, o, 7);
        }
    }
}
