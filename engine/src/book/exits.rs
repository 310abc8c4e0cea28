//! The check behind the deviate target "the AI playing from the book never leaves it while a book move within the
//! error exists" ([`book_exits`]).
//!
//! The walk is deviate's (Egaroucid's two passes): the AI, Black and then White, plays only its best links, and the
//! opponent every link losing at most `error_per_move` against its best link and at most `error_sum` in all along
//! the line, through positions with at most `depth + 4` discs. At each position where the AI is to move and a move
//! still stays within the depth, the AI keeps to the book when its book choice
//! ([`book_moves`](super::views::book_moves): the links, unless the best one loses more than
//! [`BOOK_LOSS_IGNORE_THRESHOLD`](super::views::BOOK_LOSS_IGNORE_THRESHOLD) against the position's value) is not
//! empty. When it is empty the AI leaves the book; that is an **exit** (a failure of the check) when a book move
//! within the error exists: a link losing at most `error_per_move` against the position's value, or the stored best
//! move leaving the book (the leaf) losing at most `error_leaf` and at most the error left on the line, or when the
//! position has no leaf, so the book cannot tell. Otherwise it is an **end**: no move within the error is known, so
//! leaving the book is what the settings ask for. The report also counts the **open leaves**: the moves deviate would
//! still expand with these settings (an opponent's move within the errors, or a move of the AI at least as good as
//! its best link, that leaves the book).

use std::collections::HashSet;

use super::learn::{leaf_is_valid, open_leaves, reachable_one_sided};
use super::ops::Walk;
use super::views::book_moves;
use super::{Book, Entry};
use crate::board::{Board, Color};

/// Why the AI would leave the book at an [`Exit`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitReason {
    /// A link within `error_per_move` of the position's value exists but the book choice ignores it.
    IgnoredLink {
        /// Loss of the best link against the position's value.
        loss: i32,
    },
    /// The leaf is within the errors: deviate would have made it a link.
    LeafWithinError {
        /// Loss of the leaf against the position's value.
        loss: i32,
    },
    /// No link and no valid leaf: whether a move within the error exists is unknown.
    NoLeaf,
}

/// A position where the AI would leave the book although a book move within the error exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Exit {
    /// The position (canonical orientation).
    pub board: Board,
    /// Its book entry (leaf in the canonical orientation).
    pub entry: Entry,
    /// Error budget left on the best line reaching it.
    pub remaining: i32,
    /// Why.
    pub reason: ExitReason,
}

/// What [`book_exits`] found.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ExitsReport {
    /// Positions reached within the walk with the AI to move, from which a move stays within the depth.
    pub checked: usize,
    /// Of those, positions where the AI's book choice is a book move.
    pub in_book: usize,
    /// Positions where the AI leaves the book and no book move within the error exists.
    pub ends: usize,
    /// Positions where the AI leaves the book although a book move within the error exists (should be none after
    /// deviate with the same settings).
    pub exits: Vec<Exit>,
    /// Positions whose leaf deviate would still expand with these settings (none once it has finished).
    pub open_leaves: usize,
}

/// Walks the book from `root` within `walk` and checks that the AI never leaves it while a book move within the
/// error exists (see the module documentation); `error_leaf` is deviate's leaf error.
#[must_use]
pub fn book_exits(book: &Book, root: &Board, walk: Walk, error_leaf: i32) -> ExitsReport {
    let mut report = ExitsReport::default();
    let max_discs = u32::from(walk.depth) + 4;
    let mut checked = HashSet::new();
    for ai in [Color::Black, Color::White] {
        for (key, side, remaining) in reachable_one_sided(book, root, walk, ai) {
            let board = Board::from_raw(key[0], key[1]);
            if side != ai || board.is_game_over() || 64 - board.empty_count() + 1 > max_discs {
                continue;
            }
            let Some(entry) = book.get_canonical(&board) else { continue };
            if !checked.insert(key) {
                continue;
            }
            report.checked += 1;
            if !book_moves(book, &board).is_empty() {
                report.in_book += 1;
                continue;
            }
            let value = i32::from(entry.value);
            let best_link = book.move_values(&board).iter().map(|m| i32::from(m.value)).max();
            let reason = if let Some(loss) = best_link.map(|v| value - v).filter(|loss| *loss <= walk.error_per_move) {
                Some(ExitReason::IgnoredLink { loss })
            } else if leaf_is_valid(book, &board, &entry) {
                let loss = value - i32::from(entry.leaf.value);
                (loss <= error_leaf && loss <= remaining).then_some(ExitReason::LeafWithinError { loss })
            } else if best_link.is_none() {
                Some(ExitReason::NoLeaf)
            } else {
                None
            };
            match reason {
                Some(reason) => report.exits.push(Exit { board, entry, remaining, reason }),
                None => report.ends += 1,
            }
        }
    }
    report.open_leaves = open_leaves(book, root, walk, error_leaf).len();
    report
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::board::Move;
    use crate::book::Leaf;
    use crate::square::Square;

    const WALK: Walk = Walk { depth: 12, error_per_move: 2, error_sum: 4 };

    fn start_with_leaf(leaf: Leaf) -> Book {
        let mut book = Book::new();
        let _ = book.insert(&Board::INITIAL, Entry { leaf, ..Entry::new(1, 5) });
        book
    }

    #[test]
    fn a_leaf_within_the_error_without_links_is_an_exit() {
        let book = start_with_leaf(Leaf::new(Move::Place(Square::F5), 0, 5));
        let report = book_exits(&book, &Board::INITIAL, WALK, 2);
        assert_eq!((report.checked, report.in_book, report.ends), (1, 0, 0));
        assert_eq!(report.exits.len(), 1);
        assert_eq!(report.exits[0].reason, ExitReason::LeafWithinError { loss: 1 });
        assert_eq!(report.open_leaves, 1);
        // A leaf losing more than the leaf error is an end; so is one beyond the depth.
        let report = book_exits(&start_with_leaf(Leaf::new(Move::Place(Square::F5), -2, 5)), &Board::INITIAL, WALK, 2);
        assert_eq!((report.checked, report.ends, report.exits.len()), (1, 1, 0));
        let shallow = Walk { depth: 0, ..WALK };
        assert_eq!(book_exits(&book, &Board::INITIAL, shallow, 2).checked, 0);
        // Without a leaf the book cannot tell.
        let report = book_exits(&start_with_leaf(Leaf::NONE), &Board::INITIAL, WALK, 2);
        assert_eq!(report.exits[0].reason, ExitReason::NoLeaf);
    }

    #[test]
    fn a_link_keeps_the_ai_in_the_book_unless_it_loses_too_much() {
        let mut book = start_with_leaf(Leaf::NONE);
        let f5 = Board::INITIAL.play(Move::Place(Square::F5)).unwrap();
        // f5 is worth -1 for the side to move there: +1 for us, the position's value.
        let _ = book.insert(&f5, Entry { leaf: Leaf::new(Move::Place(Square::D6), -5, 5), ..Entry::new(-1, 5) });
        let report = book_exits(&book, &Board::INITIAL, WALK, 2);
        // The start is in the book; after f5 the AI leaves it with a leaf losing 4 (> error_leaf): an end.
        assert_eq!((report.checked, report.in_book, report.ends, report.exits.len()), (2, 1, 1, 0));
        assert_eq!(report.open_leaves, 0);
        // A leaf of the start within the errors is open (the opponent of an AI playing f5 elsewhere could play it).
        let _ =
            book.insert(&Board::INITIAL, Entry { leaf: Leaf::new(Move::Place(Square::F5), 0, 5), ..Entry::new(1, 5) });
        let report = book_exits(&book, &Board::INITIAL, WALK, 2);
        assert_eq!((report.in_book, report.exits.len(), report.open_leaves), (1, 0, 0), "f5 is a link, not a leaf");
        // A start valued far above its only link: the AI ignores the book there (the link loses 10).
        let _ = book.insert(&Board::INITIAL, Entry::new(11, 5));
        let report = book_exits(&book, &Board::INITIAL, WALK, 2);
        assert_eq!((report.checked, report.in_book, report.ends, report.exits.len()), (2, 0, 2, 0));
        // With an error per move of 10 that link was within the error: an exit.
        let report = book_exits(&book, &Board::INITIAL, Walk { error_per_move: 10, error_sum: 10, ..WALK }, 2);
        assert_eq!(report.exits[0].reason, ExitReason::IgnoredLink { loss: 10 });
    }
}
