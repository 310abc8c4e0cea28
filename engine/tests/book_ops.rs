//! Book operations on a small hand-made tree: fix (both variants), reduce, info, show, merge of files.

use shirokuro_engine::book::ops::{self, Control, Walk};
use shirokuro_engine::book::{Book, Entry, Leaf, MoveValue};
use shirokuro_engine::{Board, Move, Square};

mod book_common;

fn play(moves: &[Square]) -> Board {
    moves.iter().fold(Board::INITIAL, |board, sq| board.play(Move::Place(*sq)).unwrap())
}

/// initial → f5 (A) → d6 (B1, +3 for Black to move… i.e. its side to move) and f6 (B2, −1); f4 is A's leaf (+2).
/// The stored values of the initial position and A are wrong on purpose; the initial position's leaf (e6) leads
/// into the book.
fn tree() -> Book {
    let mut book = Book::new();
    let _ =
        book.insert(&Board::INITIAL, Entry { leaf: Leaf::new(Move::Place(Square::E6), 0, 20), ..Entry::new(9, 20) });
    let a = play(&[Square::F5]);
    let _ = book.insert(&a, Entry { leaf: Leaf::new(Move::Place(Square::F4), 2, 20), ..Entry::new(5, 20) });
    let _ = book.insert(&play(&[Square::F5, Square::D6]), Entry::new(3, 20));
    let _ = book.insert(&play(&[Square::F5, Square::F6]), Entry::new(-1, 20));
    book
}

#[test]
fn fix_negamaxes_links_counts_lines_and_drops_leaves_into_the_book() {
    let mut book = tree();
    let report = ops::fix(&mut book, &Board::INITIAL, false, &Control::none());
    assert_eq!((report.visited, report.values_changed, report.leaves_invalidated), (4, 2, 1));
    let a = book.get(&play(&[Square::F5])).unwrap();
    assert_eq!((a.value, a.lines), (1, 3)); // max(-3, +1); itself and two children
    let root = book.get(&Board::INITIAL).unwrap();
    assert_eq!((root.value, root.lines), (-1, 13)); // four first moves, all to A
    assert_eq!(root.leaf, Leaf::NONE);
    assert_eq!(a.leaf.mv(), Some(Move::Place(Square::F4)), "a leaf out of the book stays");
    // Fixing again changes nothing.
    let before: Vec<_> = book.iter().collect();
    let again = ops::fix(&mut book, &Board::INITIAL, false, &Control::none());
    assert_eq!((again.values_changed, again.leaves_invalidated), (0, 0));
    assert_eq!(book.iter().collect::<Vec<_>>(), before);
}

#[test]
fn recount_lines_counts_lines_and_changes_nothing_else() {
    let mut book = tree();
    let report = ops::recount_lines(&mut book, &Board::INITIAL, &Control::none());
    assert_eq!((report.visited, report.values_changed, report.leaves_invalidated, report.lines_changed), (4, 0, 0, 2));
    let a = book.get(&play(&[Square::F5])).unwrap();
    assert_eq!((a.value, a.lines), (5, 3), "the wrong value stays; the lines are counted");
    let root = book.get(&Board::INITIAL).unwrap();
    assert_eq!((root.value, root.lines), (9, 13));
    assert_eq!(root.leaf.mv(), Some(Move::Place(Square::E6)), "even a leaf into the book stays");
    let again = ops::recount_lines(&mut book, &Board::INITIAL, &Control::none());
    assert_eq!(again.lines_changed, 0);
}

#[test]
fn edax_like_fix_lets_the_leaf_take_part() {
    let mut book = tree();
    let _ = ops::fix(&mut book, &Board::INITIAL, true, &Control::none());
    assert_eq!(book.get(&play(&[Square::F5])).unwrap().value, 2);
    assert_eq!(book.get(&Board::INITIAL).unwrap().value, -2);
}

#[test]
fn fix_stops_when_asked_and_leaves_a_consistent_book() {
    let stop = std::sync::atomic::AtomicBool::new(true);
    let control = Control { stop: &stop, progress: &|_| {} };
    let mut book = tree();
    let report = ops::fix(&mut book, &Board::INITIAL, false, &control);
    assert!(report.stopped);
    assert_eq!(report.visited, 0);
    assert_eq!(book.get(&Board::INITIAL).unwrap().value, 9);
}

#[test]
fn reduce_keeps_moves_within_the_errors_and_the_depth() {
    let mut book = tree();
    let _ = ops::fix(&mut book, &Board::INITIAL, false, &Control::none());
    let mut strict = book.clone();
    let report = ops::reduce(&mut strict, &Board::INITIAL, Walk { depth: 60, error_per_move: 0, error_sum: 0 });
    assert_eq!((report.kept, report.deleted), (3, 1));
    assert!(!strict.contains(&play(&[Square::F5, Square::D6])), "d6 loses 4");
    let mut shallow = book.clone();
    let report = ops::reduce(&mut shallow, &Board::INITIAL, Walk { depth: 0, ..Walk::UNLIMITED });
    assert_eq!((report.kept, report.deleted), (1, 3));
    let mut wide = book;
    let report = ops::reduce(&mut wide, &Board::INITIAL, Walk { depth: 60, error_per_move: 4, error_sum: 4 });
    assert_eq!((report.kept, report.deleted), (4, 0));
}

#[test]
fn info_counts_levels_plies_links_and_leaves() {
    let mut book = tree();
    let _ = book.edit(&play(&[Square::F5]), Move::Place(Square::F6), Some(1)).unwrap();
    let fast = ops::info(&book, false);
    assert_eq!((fast.positions, fast.links, fast.leaves), (4, None, None));
    assert!(fast.to_string().starts_with("Positions: 4\n"));
    let info = ops::info(&book, true);
    assert_eq!(info.positions, 4);
    assert_eq!((info.by_level[20], info.by_level[70]), (3, 1));
    assert_eq!(&info.by_ply[..4], &[1, 1, 2, 0]);
    assert_eq!((info.links, info.leaves), (Some(6), Some(1)));
    assert!(info.bytes_per_position() > 0.0);
    let text = info.to_string();
    assert!(text.contains("Positions: 4 (moves = 6 links + 1 leaves)") && text.contains("Level S"), "{text}");
}

#[test]
fn show_lists_links_best_first_the_leaf_and_the_principal_line() {
    let mut book = tree();
    let _ = ops::fix(&mut book, &Board::INITIAL, false, &Control::none());
    let a = play(&[Square::F5]);
    let show = ops::show(&book, &a).unwrap();
    let links: Vec<(Move, i8)> = show.links.iter().map(|m: &MoveValue| (m.mv, m.value)).collect();
    assert_eq!(links, [(Move::Place(Square::F6), 1), (Move::Place(Square::D6), -3)]);
    assert_eq!(show.leaf, Some((Move::Place(Square::F4), 2)));
    assert_eq!(show.line, [Move::Place(Square::F6)]);
    let text = show.to_string();
    assert!(text.contains("Moves: [F6:+1] [D6:-3] <F4:+2>"), "{text}");
    assert!(ops::show(&book, &play(&[Square::F5, Square::F4])).is_none());
    // The principal line from the start goes through any first move (all are worth -1… for Black, +1 is best).
    let line = ops::principal_line(&book, &Board::INITIAL);
    assert_eq!(line.len(), 2);
}

#[test]
fn book_values_of_every_orientation_agree() {
    let book = book_common::random_book(21, 500);
    for (board, _) in book.iter().take(100) {
        let values = book.move_values(&board);
        for symmetry in shirokuro_engine::Symmetry::ALL {
            let image = board.transform(symmetry);
            let mut image_values: Vec<(Move, i8)> =
                book.move_values(&image).iter().map(|m| (m.mv.transform(symmetry.inverse()), m.value)).collect();
            image_values.sort_by_key(|(mv, _)| mv.edax_index());
            let mut expected: Vec<(Move, i8)> = values.iter().map(|m| (m.mv, m.value)).collect();
            expected.sort_by_key(|(mv, _)| mv.edax_index());
            assert_eq!(image_values, expected);
        }
    }
}
