//! The book's storage: an open-addressing hash table of canonical boards with linear probing and backward-shift
//! deletion (no tombstones).
//!
//! A slot is 25 bytes: the key (player, opponent) as two `u64` (16 bytes, in one vector) and the packed
//! [`Entry`](super::Entry) (9 bytes, in a parallel vector, laid out like the tail of an egbk3 record). The key
//! `(0, 0)` marks an empty slot (no real board is empty). The capacity is not a power of two: a hash maps to a slot by
//! multiply-shift, so the table can grow by small steps. It grows when it is more than 80 % full, to 65 % full, so
//! it uses 31–39 bytes per position (25 / 0.8 … 25 / 0.65).

use crate::board::hash_pair;

/// Load factor above which the table grows.
const MAX_LOAD_NUM: usize = 4;
const MAX_LOAD_DEN: usize = 5;
/// Load factor right after growing (13 / 20 = 65 %).
const TARGET_LOAD_NUM: usize = 13;
const TARGET_LOAD_DEN: usize = 20;
/// Slots per region of a parallel bulk insert (400 kB: a region's slots stay in the cache).
const REGION_SLOTS: usize = 1 << 14;
/// Smallest capacity.
const MIN_CAPACITY: usize = 16;

/// A key: canonical (player, opponent).
pub(crate) type Key = [u64; 2];
/// A packed entry (see [`super::Entry::pack`]).
pub(crate) type Packed = [u8; 9];
/// A record for the bulk inserts: the [`hash_of`] the key, the key, the packed entry.
pub(crate) type Record = (u64, Key, Packed);

const EMPTY: Key = [0, 0];

/// Open-addressing table from canonical boards to packed entries.
#[derive(Clone, Default)]
pub(crate) struct Table {
    keys: Vec<Key>,
    values: Vec<Packed>,
    len: usize,
}

impl Table {
    /// A table sized for `n` positions without growing.
    pub(crate) fn with_positions(n: usize) -> Table {
        let capacity = capacity_for(n);
        Table { keys: vec![EMPTY; capacity], values: vec![[0; 9]; capacity], len: 0 }
    }

    /// Number of positions.
    pub(crate) const fn len(&self) -> usize {
        self.len
    }

    /// Number of slots.
    pub(crate) fn capacity(&self) -> usize {
        self.keys.len()
    }

    /// Bytes held by the slots.
    pub(crate) fn memory_bytes(&self) -> usize {
        self.capacity() * (size_of::<Key>() + size_of::<Packed>())
    }

    #[inline]
    fn home(&self, key: Key) -> usize {
        self.home_of_hash(hash_of(key))
    }

    /// Multiply-shift maps the hash uniformly onto 0..capacity, and monotonically: slots in increasing order hold
    /// keys in (nearly) increasing hash order, which bulk inserts and saves use for locality.
    #[inline]
    fn home_of_hash(&self, hash: u64) -> usize {
        ((u128::from(hash) * self.keys.len() as u128) >> 64) as usize
    }

    #[inline]
    fn next(&self, slot: usize) -> usize {
        if slot + 1 == self.keys.len() { 0 } else { slot + 1 }
    }

    /// The slot holding `key`, if present.
    #[inline]
    fn find(&self, key: Key) -> Option<usize> {
        if self.keys.is_empty() {
            return None;
        }
        let mut slot = self.home(key);
        loop {
            let k = self.keys[slot];
            if k == key {
                return Some(slot);
            }
            if k == EMPTY {
                return None;
            }
            slot = self.next(slot);
        }
    }

    /// The slot index of `key`, stable while the table is not modified.
    #[inline]
    pub(crate) fn slot_of(&self, key: Key) -> Option<usize> {
        self.find(key)
    }

    /// The packed entry in `slot` (from [`slot_of`](Self::slot_of)).
    pub(crate) fn value_at(&self, slot: usize) -> Option<&Packed> {
        self.values.get(slot)
    }

    /// The packed entry in `slot`, mutable.
    pub(crate) fn value_at_mut(&mut self, slot: usize) -> Option<&mut Packed> {
        self.values.get_mut(slot)
    }

    /// The packed entry of `key`.
    #[inline]
    pub(crate) fn get(&self, key: Key) -> Option<&Packed> {
        self.find(key).map(|slot| &self.values[slot])
    }

    /// The packed entry of `key`, mutable.
    #[inline]
    pub(crate) fn get_mut(&mut self, key: Key) -> Option<&mut Packed> {
        self.find(key).map(|slot| &mut self.values[slot])
    }

    /// Makes room for `additional` more positions.
    pub(crate) fn reserve(&mut self, additional: usize) {
        let needed = self.len.saturating_add(additional);
        if needed * MAX_LOAD_DEN > self.keys.len() * MAX_LOAD_NUM {
            self.rehash(capacity_for(needed));
        }
    }

    /// Inserts or replaces; returns the previous entry.
    pub(crate) fn insert(&mut self, key: Key, value: Packed) -> Option<Packed> {
        debug_assert!(key != EMPTY);
        self.reserve(1);
        let mut slot = self.home(key);
        loop {
            let k = self.keys[slot];
            if k == key {
                return Some(std::mem::replace(&mut self.values[slot], value));
            }
            if k == EMPTY {
                self.keys[slot] = key;
                self.values[slot] = value;
                self.len += 1;
                return None;
            }
            slot = self.next(slot);
        }
    }

    /// The entry of `key`, inserting `make()` first if absent; the flag says whether it was inserted.
    pub(crate) fn get_or_insert_with(&mut self, key: Key, make: impl FnOnce() -> Packed) -> (&mut Packed, bool) {
        debug_assert!(key != EMPTY);
        self.reserve(1);
        let mut slot = self.home(key);
        loop {
            let k = self.keys[slot];
            if k == key {
                return (&mut self.values[slot], false);
            }
            if k == EMPTY {
                self.keys[slot] = key;
                self.values[slot] = make();
                self.len += 1;
                return (&mut self.values[slot], true);
            }
            slot = self.next(slot);
        }
    }

    /// Inserts records given with their [`hash_of`], merging into existing entries with `merge(stored, incoming)`.
    /// Records sorted by hash are inserted with sequential memory access.
    pub(crate) fn bulk_merge(&mut self, records: &[(u64, Key, Packed)], merge: impl Fn(&mut Packed, &Packed)) {
        self.reserve(records.len());
        for (hash, key, value) in records {
            let mut slot = self.home_of_hash(*hash);
            loop {
                let k = self.keys[slot];
                if k == *key {
                    merge(&mut self.values[slot], value);
                    break;
                }
                if k == EMPTY {
                    self.keys[slot] = *key;
                    self.values[slot] = *value;
                    self.len += 1;
                    break;
                }
                slot = self.next(slot);
            }
        }
    }

    /// Inserts records given with their [`hash_of`], in any order, merging into existing entries with
    /// `merge(stored, incoming)`, in parallel by table region; records with the same key are merged in the order
    /// given (within and across calls).
    ///
    /// The slots are cut into regions of about [`REGION_SLOTS`] by hash (multiply-shift keeps hash order), the
    /// records are grouped by region (stable) and each region is filled by one task on its own slice of the table.
    /// A record whose probe run reaches the end of its region goes to `spills`; the caller inserts those with
    /// [`bulk_merge`](Self::bulk_merge) after the last call. That keeps linear probing valid: the slots a spilled
    /// record probes past stay occupied (nothing is removed during a load), and a later record with the same key
    /// probes to the region's end as well, so it spills too, after the first.
    ///
    /// The table must already have room for the records (see [`reserve`](Self::reserve)): it does not grow here.
    pub(crate) fn par_bulk_merge(
        &mut self,
        records: &[Record],
        scratch: &mut Vec<Record>,
        spills: &mut Vec<Record>,
        merge: impl Fn(&mut Packed, &Packed) + Sync,
    ) {
        use rayon::prelude::*;
        let capacity = self.keys.len();
        if records.is_empty() || capacity == 0 {
            return;
        }
        // Region r holds the homes of the hashes r << shift .. (r + 1) << shift.
        let bits = (usize::BITS - (capacity / REGION_SLOTS).leading_zeros()).min(16);
        let regions = 1usize << bits;
        let region_of = |hash: u64| if bits == 0 { 0 } else { (hash >> (64 - bits)) as usize };
        // Group the records by region, keeping their order (counting sort; records already grouped, as in files
        // written in hash order, are used as they are).
        let mut starts = vec![0usize; regions + 1];
        let mut grouped_already = true;
        let mut previous = 0;
        for record in records {
            let r = region_of(record.0);
            grouped_already &= r >= previous;
            previous = r;
            starts[r + 1] += 1;
        }
        for i in 1..starts.len() {
            starts[i] += starts[i - 1];
        }
        if !grouped_already {
            let mut next = starts.clone();
            scratch.clear();
            scratch.resize(records.len(), (0, EMPTY, [0; 9]));
            for record in records {
                let r = region_of(record.0);
                scratch[next[r]] = *record;
                next[r] += 1;
            }
        }
        // Cut the table and the grouped records into regions.
        let bounds: Vec<usize> = (0..=regions)
            .map(|r| match r {
                0 => 0,
                r if r == regions => capacity,
                r => self.home_of_hash((r as u64) << (64 - bits)),
            })
            .collect();
        let mut tasks = Vec::with_capacity(regions);
        let (mut keys, mut values): (&mut [Key], &mut [Packed]) = (&mut self.keys, &mut self.values);
        let mut grouped: &[Record] = if grouped_already { records } else { scratch };
        for r in 0..regions {
            let slots = bounds[r + 1] - bounds[r];
            let (region_keys, rest_keys) = keys.split_at_mut(slots);
            let (region_values, rest_values) = values.split_at_mut(slots);
            let (region_records, rest_records) = grouped.split_at(starts[r + 1] - starts[r]);
            tasks.push((bounds[r], region_keys, region_values, region_records));
            keys = rest_keys;
            values = rest_values;
            grouped = rest_records;
        }
        let home_of_hash = |hash: u64| ((u128::from(hash) * capacity as u128) >> 64) as usize;
        let results: Vec<(usize, Vec<Record>)> = tasks
            .into_par_iter()
            .with_max_len(1)
            .map(|(first, keys, values, records)| {
                let mut inserted = 0;
                let mut spilled = Vec::new();
                'records: for record in records {
                    let (hash, key, value) = record;
                    let mut slot = home_of_hash(*hash) - first;
                    while slot < keys.len() {
                        let k = keys[slot];
                        if k == *key {
                            merge(&mut values[slot], value);
                            continue 'records;
                        }
                        if k == EMPTY {
                            keys[slot] = *key;
                            values[slot] = *value;
                            inserted += 1;
                            continue 'records;
                        }
                        slot += 1;
                    }
                    spilled.push(*record);
                }
                (inserted, spilled)
            })
            .collect();
        for (inserted, spilled) in results {
            self.len += inserted;
            spills.extend(spilled);
        }
    }

    /// Removes `key`; returns its entry.
    pub(crate) fn remove(&mut self, key: Key) -> Option<Packed> {
        let mut hole = self.find(key)?;
        let removed = self.values[hole];
        self.keys[hole] = EMPTY;
        self.len -= 1;
        // Backward-shift deletion: move later members of the probe run into the hole when their home allows it.
        let mut slot = self.next(hole);
        loop {
            let k = self.keys[slot];
            if k == EMPTY {
                break;
            }
            let home = self.home(k);
            // The entry may move to `hole` unless its home lies cyclically in (hole, slot].
            let stays = if hole <= slot { hole < home && home <= slot } else { hole < home || home <= slot };
            if !stays {
                self.keys[hole] = k;
                self.values[hole] = self.values[slot];
                self.keys[slot] = EMPTY;
                hole = slot;
            }
            slot = self.next(slot);
        }
        Some(removed)
    }

    /// Removes every position.
    pub(crate) fn clear(&mut self) {
        *self = Table::default();
    }

    /// Every (key, packed entry), in slot order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (Key, &Packed)> + '_ {
        self.keys.iter().zip(&self.values).filter(|(k, _)| **k != EMPTY).map(|(k, v)| (*k, v))
    }

    /// The slots as two parallel slices (empty slots have the key `[0, 0]`), for parallel scans.
    pub(crate) fn slots(&self) -> (&[Key], &[Packed]) {
        (&self.keys, &self.values)
    }

    /// Keeps only the positions for which `keep` is true.
    pub(crate) fn retain(&mut self, mut keep: impl FnMut(Key, &Packed) -> bool) {
        let mut kept = Table::with_positions(self.len);
        for (k, v) in self.iter() {
            if keep(k, v) {
                let _ = kept.insert(k, *v);
            }
        }
        *self = kept;
    }

    fn rehash(&mut self, capacity: usize) {
        let _done = self.rehash_with(capacity, &mut || true);
    }

    /// [`reserve`](Self::reserve) that can be given up: while the positions move to a larger table, `keep_going` is
    /// called every [`REHASH_STEP`] slots of the old one; when it returns false, the larger table is dropped and the
    /// table is unchanged. Returns whether the table has the room.
    pub(crate) fn try_reserve(&mut self, additional: usize, keep_going: &mut dyn FnMut() -> bool) -> bool {
        let needed = self.len.saturating_add(additional);
        if needed * MAX_LOAD_DEN > self.keys.len() * MAX_LOAD_NUM {
            return self.rehash_with(capacity_for(needed), keep_going);
        }
        true
    }

    /// Moves the positions into a table of `capacity` slots, calling `keep_going` every [`REHASH_STEP`] old slots;
    /// gives up (the table unchanged) when it returns false. Returns whether the move was done.
    fn rehash_with(&mut self, capacity: usize, keep_going: &mut dyn FnMut() -> bool) -> bool {
        let mut table = Table { keys: vec![EMPTY; capacity], values: vec![[0; 9]; capacity], len: 0 };
        for (i, (k, v)) in self.keys.iter().zip(&self.values).enumerate() {
            if i % REHASH_STEP == 0 && !keep_going() {
                return false;
            }
            if *k != EMPTY {
                let mut slot = table.home(*k);
                while table.keys[slot] != EMPTY {
                    slot = table.next(slot);
                }
                table.keys[slot] = *k;
                table.values[slot] = *v;
                table.len += 1;
            }
        }
        *self = table;
        true
    }
}

/// Old slots moved between two calls of the `keep_going` of [`Table::try_reserve`].
const REHASH_STEP: usize = 1 << 16;

/// Sorts `items` by `(hash, tie)` with a counting sort on the top bits of the hash (about 128 items per bucket; one
/// pass, nearly sequential for input that is almost in hash order, as table slots are) and a sort inside each bucket,
/// buckets in parallel. Linear in practice, where a comparison sort of 10 M records took seconds.
pub(crate) fn sort_by_hash<T: Copy + Send + Sync + Default>(
    items: Vec<T>,
    hash: impl Fn(&T) -> u64 + Sync,
    tie: impl Fn(&T, &T) -> std::cmp::Ordering + Sync,
) -> Vec<T> {
    use rayon::prelude::*;
    let n = items.len();
    if n < 2 {
        return items;
    }
    let bits = (usize::BITS - (n / 128).max(1).leading_zeros()).clamp(1, 24);
    let bucket = |item: &T| (hash(item) >> (64 - bits)) as usize;
    let mut starts = vec![0usize; (1 << bits) + 1];
    for item in &items {
        starts[bucket(item) + 1] += 1;
    }
    for i in 1..starts.len() {
        starts[i] += starts[i - 1];
    }
    let mut next = starts.clone();
    let mut sorted = vec![T::default(); n];
    for item in &items {
        let b = bucket(item);
        sorted[next[b]] = *item;
        next[b] += 1;
    }
    drop(items);
    let compare = |a: &T, b: &T| hash(a).cmp(&hash(b)).then_with(|| tie(a, b));
    // Split the output into its buckets and sort each (they are small), in parallel.
    let mut parts: Vec<&mut [T]> = Vec::with_capacity(1 << bits);
    let mut rest: &mut [T] = &mut sorted;
    for w in starts.windows(2) {
        let (part, tail) = rest.split_at_mut(w[1] - w[0]);
        parts.push(part);
        rest = tail;
    }
    parts.par_iter_mut().with_min_len(256).for_each(|part| part.sort_unstable_by(compare));
    sorted
}

/// The hash the table places `key` by.
#[inline]
pub(crate) const fn hash_of(key: Key) -> u64 {
    hash_pair(key[0], key[1])
}

/// Capacity at which `n` positions fill the table to the target load.
fn capacity_for(n: usize) -> usize {
    (n.saturating_mul(TARGET_LOAD_DEN) / TARGET_LOAD_NUM).max(MIN_CAPACITY)
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    use super::*;

    #[test]
    fn behaves_like_a_hash_map_under_random_inserts_and_removals() {
        let mut rng = StdRng::seed_from_u64(11);
        let mut table = Table::default();
        let mut model = HashMap::new();
        for step in 0..60_000u32 {
            // Few distinct keys so that removals hit and probe runs wrap around.
            let key = [u64::from(rng.random_range(1..3000u32)), u64::from(rng.random_range(0..4u32))];
            let value = [step.to_le_bytes()[0]; 9];
            if rng.random_bool(0.4) {
                assert_eq!(table.remove(key), model.remove(&key));
            } else {
                assert_eq!(table.insert(key, value), model.insert(key, value));
            }
            assert_eq!(table.len(), model.len());
        }
        for (k, v) in &model {
            assert_eq!(table.get(*k), Some(v));
        }
        assert_eq!(table.iter().count(), model.len());
    }

    #[test]
    fn sort_by_hash_orders_by_hash_then_tie() {
        let mut rng = StdRng::seed_from_u64(5);
        let items: Vec<(u64, u32)> =
            (0..50_000).map(|_| (rng.random::<u64>() >> rng.random_range(0..3), rng.random())).collect();
        let mut expected = items.clone();
        expected.extend_from_slice(&items[..100]); // duplicates
        let mut with_dups = items;
        with_dups.extend_from_slice(&expected[..100]);
        expected.sort_unstable();
        assert_eq!(sort_by_hash(with_dups, |x| x.0, |a, b| a.1.cmp(&b.1)), expected);
        assert_eq!(sort_by_hash(vec![(3u64, 1u32)], |x| x.0, |a, b| a.1.cmp(&b.1)), vec![(3, 1)]);
    }

    #[test]
    fn parallel_bulk_merge_in_any_order_equals_inserting_one_by_one() {
        let mut rng = StdRng::seed_from_u64(3);
        // 100 k slots: 8 regions; 79 % full, so that probe runs cross region ends and records spill.
        let mut table = Table::with_positions(90_000);
        let capacity = table.capacity();
        assert!(capacity >= 8 * REGION_SLOTS);
        let mut records: Vec<(u64, Key, Packed)> = (0..capacity * 77 / 100)
            .map(|i| {
                let key = [rng.random::<u64>() >> 40 | 1, 7];
                (hash_of(key), key, [u8::try_from(i % 251).unwrap(); 9])
            })
            .collect();
        // Some keys twice or more, to check that duplicates merge in the order given.
        for i in 0..3000 {
            let (hash, key, _) = records[rng.random_range(0..records.len())];
            records.push((hash, key, [u8::try_from(i % 241).unwrap(); 9]));
        }
        let last = records.len() - 1;
        records.swap(100, last);
        // The merge keeps the sum (mod 256) of the first bytes, and records the order in the others.
        let merge = |stored: &mut Packed, incoming: &Packed| {
            stored[0] = stored[0].wrapping_add(incoming[0]);
            stored[1] = stored[1].wrapping_mul(31).wrapping_add(incoming[1]);
        };
        let mut model: HashMap<Key, Packed> = HashMap::new();
        for (_, key, value) in &records {
            match model.get_mut(key) {
                Some(stored) => merge(stored, value),
                None => {
                    let _ = model.insert(*key, *value);
                }
            }
        }
        let (mut scratch, mut spills) = (Vec::new(), Vec::new());
        for chunk in records.chunks(10_000) {
            table.par_bulk_merge(chunk, &mut scratch, &mut spills, merge);
        }
        assert!(!spills.is_empty(), "no record reached the end of its region");
        table.bulk_merge(&spills, merge);
        assert_eq!(table.capacity(), capacity);
        assert_eq!(table.len(), model.len());
        for (key, value) in &model {
            assert_eq!(table.get(*key), Some(value), "{key:?}");
        }
        assert_eq!(table.iter().count(), model.len());
    }

    #[test]
    fn growing_keeps_between_31_and_39_bytes_per_position() {
        let mut table = Table::default();
        for i in 1..200_000u64 {
            let _ = table.insert([i, 0], [0; 9]);
            if i > 1000 {
                let per_position = table.memory_bytes() as f64 / table.len() as f64;
                assert!((31.0..=38.5).contains(&per_position), "{per_position} bytes at {i}");
            }
        }
    }
}
