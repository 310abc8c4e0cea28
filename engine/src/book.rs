//! Opening books: positions keyed by their canonical board, each with a value, a level, a line count and a leaf;
//! reading and writing the Egaroucid and Edax files; and the book operations (info, show, merge, fix, edit …).
//!
//! # Model
//! The model is Egaroucid's (`docs/book-format.md` has the details and the file layouts):
//! - A position is stored once for its 8 symmetric images, under the **canonical** board ([`Board::canonical`]: the
//!   smallest (player, opponent) in Egaroucid's bit order), so a lookup works from any orientation.
//! - An [`Entry`] holds the value (final disc difference for the side to move, −64..=64), the level it was searched
//!   at ([`LEVEL_HUMAN`] for manual edits), the number of lines below it, and a [`Leaf`]: the best move that leaves
//!   the book, with its value and level.
//! - No links are stored: a move is a link when its child is in the book. The child of a move is the board after it,
//!   or, when the opponent must pass there, the board after the pass (same side to move again) — the book never
//!   holds a position whose side to move must pass.
//!
//! The storage is an open-addressing table of 25-byte slots (31–39 bytes per position, see `book/table.rs`).
//!
//! # Examples
//! ```
//! use shirokuro_engine::book::{Book, Entry, LEVEL_HUMAN};
//! use shirokuro_engine::{Board, Move, Square, Symmetry};
//!
//! let mut book = Book::new();
//! let after_f5 = Board::INITIAL.play(Move::Place(Square::F5)).unwrap();
//! book.insert(&after_f5, Entry::new(0, 21));
//! // Every first move leads to the same position up to symmetry, so all four are links worth 0.
//! let moves = book.move_values(&Board::INITIAL);
//! assert_eq!(moves.len(), 4);
//! assert!(moves.iter().all(|m| m.value == 0));
//! // Manual edit: c4 (the mirror image of f5) is worth +2 for Black.
//! book.edit(&Board::INITIAL, Move::Place(Square::C4), Some(2)).unwrap();
//! let entry = book.get(&after_f5.transform(Symmetry::Rotate180)).unwrap();
//! assert_eq!((entry.value, entry.level), (-2, LEVEL_HUMAN));
//! ```

use rayon::prelude::*;

use crate::board::{Board, Move};

pub mod edax;
pub mod egaroucid;
pub mod error;
pub mod exits;
pub mod file;
pub mod import;
pub mod learn;
pub mod ops;
pub mod shard;
mod table;
pub mod text;
pub mod views;

pub use error::{FormatError, RecordProblem};
pub use file::{BookError, BookFormat, load, load_with, parse, save, save_with};

use table::{Key, Packed, Table};

/// Level of a value nobody searched (Egaroucid's `LEVEL_UNDEFINED`, −1 as a signed byte).
pub const LEVEL_UNDEFINED: u8 = 0xff;
/// Level of a value set by hand (Egaroucid's `LEVEL_HUMAN`, shown as "S").
pub const LEVEL_HUMAN: u8 = 70;
/// Value of a leaf that is not known (Egaroucid's `SCORE_UNDEFINED`).
pub const SCORE_UNDEFINED: i8 = -126;
/// Leaf move code: pass.
pub const MOVE_PASS: u8 = 64;
/// Leaf move code: no move is left (every move is a link).
pub const MOVE_NOMOVE: u8 = 65;
/// Leaf move code: not computed (Egaroucid's `MOVE_UNDEFINED`).
pub const MOVE_UNDEFINED: u8 = 125;
/// Line counts saturate here (Egaroucid caps them at 4·10⁹).
pub const MAX_LINES: u32 = 4_000_000_000;

/// The best move that leaves the book from a position, with its value and the level of the search that found it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Leaf {
    /// Value of the move for the side to move, or [`SCORE_UNDEFINED`].
    pub value: i8,
    /// The move as an Egaroucid code in the orientation of the board it belongs to: `h8 = 0` … `a1 = 63`, then
    /// [`MOVE_PASS`], [`MOVE_NOMOVE`], [`MOVE_UNDEFINED`].
    pub code: u8,
    /// Level of the search, or [`LEVEL_UNDEFINED`].
    pub level: u8,
}

impl Leaf {
    /// No leaf.
    pub const NONE: Leaf = Leaf { value: SCORE_UNDEFINED, code: MOVE_UNDEFINED, level: LEVEL_UNDEFINED };

    /// A leaf for `mv` worth `value`, found at `level`.
    #[must_use]
    pub const fn new(mv: Move, value: i8, level: u8) -> Leaf {
        Leaf { value, code: mv.egaroucid_index(), level }
    }

    /// The move, when the leaf is defined (a square or a pass and a value in −64..=64).
    #[must_use]
    pub const fn mv(self) -> Option<Move> {
        if self.value < -64 || self.value > 64 { None } else { Move::from_egaroucid_index(self.code) }
    }

    /// Whether the leaf names a move with a value.
    #[must_use]
    pub const fn is_defined(self) -> bool {
        self.mv().is_some()
    }

    /// The leaf seen through a symmetry of its board.
    #[must_use]
    pub const fn transform(self, symmetry: crate::Symmetry) -> Leaf {
        match Move::from_egaroucid_index(self.code) {
            Some(mv) => Leaf { code: mv.transform(symmetry).egaroucid_index(), ..self },
            None => self,
        }
    }
}

/// What the book knows about a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Entry {
    /// Final disc difference for the side to move, −64..=64.
    pub value: i8,
    /// Level of the value: 1..=60, [`LEVEL_HUMAN`] or [`LEVEL_UNDEFINED`] (any byte a file holds is kept).
    pub level: u8,
    /// Number of book positions reachable below, this one included (at most [`MAX_LINES`]).
    pub lines: u32,
    /// The best move out of the book.
    pub leaf: Leaf,
}

impl Entry {
    /// An entry with a value and level, one line and no leaf.
    #[must_use]
    pub const fn new(value: i8, level: u8) -> Entry {
        Entry { value, level, lines: 1, leaf: Leaf::NONE }
    }

    /// The 9 bytes stored per position: value, level, lines (LE), leaf value, leaf move, leaf level — the tail of an
    /// egbk3 record.
    #[must_use]
    pub(crate) const fn pack(self) -> Packed {
        let l = self.lines.to_le_bytes();
        [self.value as u8, self.level, l[0], l[1], l[2], l[3], self.leaf.value as u8, self.leaf.code, self.leaf.level]
    }

    /// The inverse of [`pack`](Self::pack).
    #[must_use]
    pub(crate) const fn unpack(p: &Packed) -> Entry {
        Entry {
            value: p[0] as i8,
            level: p[1],
            lines: u32::from_le_bytes([p[2], p[3], p[4], p[5]]),
            leaf: Leaf { value: p[6] as i8, code: p[7], level: p[8] },
        }
    }

    /// Egaroucid's merge rule: the incoming value wins when its level is at least the stored one, and so does the
    /// incoming leaf. The line count follows the value.
    pub fn merge_from(&mut self, incoming: &Entry) {
        if level_rank(incoming.level) >= level_rank(self.level) {
            self.value = incoming.value;
            self.level = incoming.level;
            self.lines = incoming.lines;
        }
        if level_rank(incoming.leaf.level) >= level_rank(self.leaf.level) {
            self.leaf = incoming.leaf;
        }
    }
}

/// Orders levels for the merge rule: undefined below everything, then the byte's value as a signed level (Egaroucid
/// compares `int8` levels, so the human level 70 beats every search level).
const fn level_rank(level: u8) -> i16 {
    level as i8 as i16
}

/// A legal move with its value from the book.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveValue {
    /// The move, in the orientation of the board asked about.
    pub mv: Move,
    /// Value of the move for the side to move (the child's value, negated unless the opponent had to pass).
    pub value: i8,
    /// Level of the child's value.
    pub level: u8,
    /// Line count of the child.
    pub lines: u32,
}

/// Manual edits and other single-position changes that cannot apply.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EditError {
    /// The move is not legal in the position.
    #[error("{mv} is not a legal move here")]
    IllegalMove {
        /// The move.
        mv: Move,
    },
}

/// The board the book keys a position by after a move: the board after the move, or after the pass when the opponent
/// must pass there; the flag says whether the value must be negated for the side that moved (it is not negated when
/// the opponent passed). `None` if the move is illegal.
#[must_use]
pub fn book_child(board: &Board, mv: Move) -> Option<(Board, bool)> {
    let child = board.play(mv).ok()?;
    if !child.has_moves() && child.pass().has_moves() { Some((child.pass(), false)) } else { Some((child, true)) }
}

/// The legal moves of `board`: its squares, or a pass when it must pass.
pub fn legal_moves(board: &Board) -> impl Iterator<Item = Move> + use<> {
    let squares = board.moves();
    let pass = squares.is_empty() && board.must_pass();
    squares.into_iter().map(Move::Place).chain(pass.then_some(Move::Pass))
}

/// An opening book (see the [module docs](self)).
#[derive(Clone, Default)]
pub struct Book {
    table: Table,
}

impl std::fmt::Debug for Book {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Book").field("positions", &self.len()).finish()
    }
}

/// The canonical key of a board and the symmetry that maps the board onto it.
fn key_of(board: &Board) -> (Key, crate::Symmetry) {
    let (p, o) = board.egaroucid_key();
    let ([p, o], symmetry) = canonical_egaroucid(p, o);
    ([p.reverse_bits(), o.reverse_bits()], symmetry)
}

/// [`Board::canonical`] for bitboards in Egaroucid's bit order (a1 = bit 63), returned in that order: the smallest
/// (player, opponent) over the 8 images, and the symmetry reaching it (the first in [`Symmetry::ALL`] on ties).
///
/// Every symmetry commutes with reversing the bits (a 180° rotation), so the images can be compared in Egaroucid's
/// order directly; the 8 images of each bitboard come from one diagonal mirror, two horizontal mirrors and byte
/// swaps. This is the hot path of loading a book.
///
/// [`Symmetry::ALL`]: crate::Symmetry::ALL
#[must_use]
pub fn canonical_egaroucid(p: u64, o: u64) -> ([u64; 2], crate::Symmetry) {
    use crate::Symmetry as S;
    use crate::bitboard::{mirror_diagonal, mirror_horizontal};
    let images = |x: u64| {
        let h = mirror_horizontal(x);
        let d = mirror_diagonal(x);
        let hd = mirror_horizontal(d);
        // In Symmetry::ALL order: identity, mirror h, mirror v, rotate 180, diagonal, anti-diagonal, 90, 270.
        [x, h, x.swap_bytes(), h.swap_bytes(), d, hd.swap_bytes(), hd, d.swap_bytes()]
    };
    let (ps, os) = (images(p), images(o));
    let mut best = 0;
    for i in 1..8 {
        if (ps[i], os[i]) < (ps[best], os[best]) {
            best = i;
        }
    }
    ([ps[best], os[best]], S::ALL[best])
}

impl Book {
    /// An empty book.
    #[must_use]
    pub fn new() -> Book {
        Book::default()
    }

    /// An empty book with room for `n` positions.
    #[must_use]
    pub fn with_capacity(n: usize) -> Book {
        Book { table: Table::with_positions(n) }
    }

    /// Number of positions.
    #[must_use]
    pub fn len(&self) -> usize {
        self.table.len()
    }

    /// Whether the book has no position.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.table.len() == 0
    }

    /// Bytes held by the position table.
    #[must_use]
    pub fn memory_bytes(&self) -> usize {
        self.table.memory_bytes()
    }

    /// Removes every position.
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// The entry of `board` in any orientation; its leaf move is given in `board`'s orientation.
    #[must_use]
    pub fn get(&self, board: &Board) -> Option<Entry> {
        let (key, symmetry) = key_of(board);
        let entry = Entry::unpack(self.table.get(key)?);
        Some(Entry { leaf: entry.leaf.transform(symmetry.inverse()), ..entry })
    }

    /// Whether `board` (any orientation) is in the book.
    #[must_use]
    pub fn contains(&self, board: &Board) -> bool {
        self.table.get(key_of(board).0).is_some()
    }

    /// The entry of a canonical board (as [`iter`](Self::iter) yields them), leaf move in that orientation.
    #[must_use]
    pub fn get_canonical(&self, canonical: &Board) -> Option<Entry> {
        self.table.get([canonical.player.0, canonical.opponent.0]).map(Entry::unpack)
    }

    /// Stores `entry` for `board` (leaf move in `board`'s orientation), replacing what was there; returns the old
    /// entry (leaf in `board`'s orientation). An empty board (no disc) is not a position and is never stored.
    pub fn insert(&mut self, board: &Board, entry: Entry) -> Option<Entry> {
        let (key, symmetry) = key_of(board);
        if key == [0, 0] {
            return None;
        }
        let stored = Entry { leaf: entry.leaf.transform(symmetry), ..entry };
        let old = self.table.insert(key, stored.pack())?;
        let old = Entry::unpack(&old);
        Some(Entry { leaf: old.leaf.transform(symmetry.inverse()), ..old })
    }

    /// Merges `entry` into the book with [`Entry::merge_from`] (inserting it if the position is new; an empty board
    /// is never stored).
    pub fn merge_entry(&mut self, board: &Board, entry: Entry) {
        let (key, symmetry) = key_of(board);
        if key == [0, 0] {
            return;
        }
        self.merge_canonical(key, Entry { leaf: entry.leaf.transform(symmetry), ..entry });
    }

    /// [`merge_entry`](Self::merge_entry) for a canonical key.
    pub(crate) fn merge_canonical(&mut self, key: Key, entry: Entry) {
        let (slot, inserted) = self.table.get_or_insert_with(key, || entry.pack());
        if !inserted {
            let mut merged = Entry::unpack(slot);
            merged.merge_from(&entry);
            *slot = merged.pack();
        }
    }

    /// Removes `board` (any orientation); returns its entry (leaf in `board`'s orientation).
    pub fn remove(&mut self, board: &Board) -> Option<Entry> {
        let (key, symmetry) = key_of(board);
        let old = Entry::unpack(&self.table.remove(key)?);
        Some(Entry { leaf: old.leaf.transform(symmetry.inverse()), ..old })
    }

    /// Keeps only the canonical positions for which `keep` is true.
    pub fn retain(&mut self, mut keep: impl FnMut(&Board, &Entry) -> bool) {
        self.table.retain(|k, v| keep(&Board::from_raw(k[0], k[1]), &Entry::unpack(v)));
    }

    /// Every position as (canonical board, entry with its leaf in that orientation), in storage order.
    pub fn iter(&self) -> impl Iterator<Item = (Board, Entry)> + '_ {
        self.table.iter().map(|(k, v)| (Board::from_raw(k[0], k[1]), Entry::unpack(v)))
    }

    /// The raw slots, for parallel scans: canonical keys (`[0, 0]` = empty) and packed entries.
    pub(crate) fn slots(&self) -> (&[Key], &[Packed]) {
        self.table.slots()
    }

    /// Makes room for `additional` more positions.
    pub fn reserve(&mut self, additional: usize) {
        self.table.reserve(additional);
    }

    /// The book value of `mv` from `board` (its child's value, negated unless the opponent passed), if the child is in
    /// the book.
    #[must_use]
    pub fn move_value(&self, board: &Board, mv: Move) -> Option<MoveValue> {
        let (child, negate) = book_child(board, mv)?;
        let entry = self.get(&child)?;
        let value = if negate { -entry.value } else { entry.value };
        Some(MoveValue { mv, value, level: entry.level, lines: entry.lines })
    }

    /// Every legal move of `board` whose child is in the book (the links), with its value, in square order.
    #[must_use]
    pub fn move_values(&self, board: &Board) -> Vec<MoveValue> {
        legal_moves(board).filter_map(|mv| self.move_value(board, mv)).collect()
    }

    /// The best link value of `board`, if it has links.
    #[must_use]
    pub fn best_link_value(&self, board: &Board) -> Option<i8> {
        legal_moves(board).filter_map(|mv| self.move_value(board, mv)).map(|m| m.value).max()
    }

    /// Sets the value of `mv` from `board` as the right-click editor does: `Some(v)` stores `v` (for the side to move,
    /// −64..=64) at [`LEVEL_HUMAN`] for the child (keeping its leaf and lines if it existed); `None` or a value out of
    /// range deletes the child. Returns the child's previous entry.
    ///
    /// # Errors
    /// [`EditError`] if the move is illegal.
    pub fn edit(&mut self, board: &Board, mv: Move, value: Option<i32>) -> Result<Option<Entry>, EditError> {
        let (child, negate) = book_child(board, mv).ok_or(EditError::IllegalMove { mv })?;
        match value.filter(|v| (-64..=64).contains(v)) {
            Some(v) => {
                let v = i8::try_from(if negate { -v } else { v }).unwrap_or(0);
                let entry = match self.get(&child) {
                    Some(old) => Entry { value: v, level: LEVEL_HUMAN, ..old },
                    None => Entry::new(v, LEVEL_HUMAN),
                };
                Ok(self.insert(&child, entry))
            }
            None => Ok(self.remove(&child)),
        }
    }

    /// Merges every position of `other` with the level rule ([`Entry::merge_from`]); [`merge_with`](Self::merge_with)
    /// without progress and stop.
    pub fn merge(&mut self, other: &Book) {
        let _report = self.merge_with(other, &ops::Control::none());
    }

    /// [`merge`](Self::merge) with progress and stop. Progress ([`Stage::Merge`](ops::Stage::Merge)) counts each
    /// position of `other` twice: once when checked for room, once when merged (`total` = 2 × `other.len()`), every
    /// [`REPORT_EVERY`](ops::REPORT_EVERY) positions. A stop keeps the positions merged so far (the first
    /// [`MergeReport::merged`] of `other` in its storage order, each merged whole) and sets [`MergeReport::stopped`].
    pub fn merge_with(&mut self, other: &Book, control: &ops::Control<'_>) -> MergeReport {
        use ops::{REPORT_EVERY, Stage};
        let positions = other.len() as u64;
        let total = positions.saturating_mul(2);
        let mut report = MergeReport { merged: 0, added: 0, stopped: false };
        // Room for exactly the new positions, before inserting: `other` is walked in slot order, which is hash order,
        // and a table that grew in the middle of such a sweep would hold all the low-hash newcomers in its first
        // part, more than one per slot, and degrade into one long probe run. Sized for the final count, the load
        // stays at most 80 % everywhere. Counted a chunk of slots at a time, to report and to stop in between.
        let (keys, _) = other.table.slots();
        let (mut new, mut checked) = (0, 0u64);
        let chunk_slots = usize::try_from(REPORT_EVERY).unwrap_or(usize::MAX).saturating_mul(2);
        for chunk in keys.chunks(chunk_slots) {
            if control.is_stopped() {
                report.stopped = true;
                return report;
            }
            let (present, absent) = chunk
                .par_iter()
                .filter(|k| **k != [0, 0])
                .map(|k| if self.table.get(*k).is_none() { (0, 1) } else { (1, 0) })
                .reduce(|| (0usize, 0usize), |a, b| (a.0 + b.0, a.1 + b.1));
            new += absent;
            checked += (present + absent) as u64;
            control.report(Stage::Merge, checked, total);
        }
        // Growing the table moves every position of this book: it reports and can be stopped too (the book then
        // stays as it was).
        let mut keep_going = || {
            control.report(Stage::Merge, checked, total);
            !control.is_stopped()
        };
        if !self.table.try_reserve(new, &mut keep_going) {
            report.stopped = true;
            return report;
        }
        let before = self.len();
        for (k, v) in other.table.iter() {
            if report.merged.is_multiple_of(REPORT_EVERY) {
                control.report(Stage::Merge, positions + report.merged, total);
                if control.is_stopped() {
                    report.stopped = true;
                    break;
                }
            }
            self.merge_canonical(k, Entry::unpack(v));
            report.merged += 1;
        }
        report.added = (self.len() - before) as u64;
        if !report.stopped {
            control.report(Stage::Merge, total, total);
        }
        report
    }
}

/// What [`Book::merge_with`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MergeReport {
    /// Positions of the other book merged in (all of them unless stopped).
    pub merged: u64,
    /// Positions that were new to the book.
    pub added: u64,
    /// Whether the merge was stopped before the end: only `merged` positions of the other book are in.
    pub stopped: bool,
}

#[cfg(test)]
mod tests;
