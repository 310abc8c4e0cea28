//! Unit tests of the book model: orientation, links through passes, edits, merge rule, packing.

use super::*;
use crate::{Square, Symmetry};

fn after(moves: &[Square]) -> Board {
    let mut board = Board::INITIAL;
    for sq in moves {
        board = board.play(Move::Place(*sq)).unwrap();
    }
    board
}

#[test]
fn packing_round_trips_and_matches_the_egbk3_record_tail() {
    let entry = Entry { value: -3, level: 21, lines: 0x0102_0304, leaf: Leaf { value: 5, code: 19, level: 20 } };
    assert_eq!(entry.pack(), [0xfd, 21, 4, 3, 2, 1, 5, 19, 20]);
    assert_eq!(Entry::unpack(&entry.pack()), entry);
}

#[test]
fn every_orientation_finds_the_entry_and_its_leaf_move() {
    let board = after(&[Square::F5, Square::D6]);
    let mut book = Book::new();
    let leaf = Leaf::new(Move::Place(Square::C3), 1, 10);
    let _ = book.insert(&board, Entry { leaf, ..Entry::new(-1, 10) });
    assert_eq!(book.len(), 1);
    for symmetry in Symmetry::ALL {
        let image = board.transform(symmetry);
        let entry = book.get(&image).unwrap();
        assert_eq!(entry.value, -1);
        assert_eq!(entry.leaf.mv(), Some(Move::Place(symmetry.apply_square(Square::C3))));
        assert!(image.is_legal(entry.leaf.mv().unwrap()));
    }
}

#[test]
fn links_go_through_passes_with_the_right_sign() {
    // A position where, after Black's move, White must pass: f5 ... reach it by brute force over short games.
    let mut found = None;
    let mut stack = vec![(Board::INITIAL, 0)];
    while let Some((board, depth)) = stack.pop() {
        for mv in legal_moves(&board) {
            let child = board.play(mv).unwrap();
            if board.has_moves() && child.must_pass() {
                found = Some((board, mv));
                break;
            }
            if depth < 9 {
                stack.push((child, depth + 1));
            }
        }
        if found.is_some() {
            break;
        }
    }
    let (board, mv) = found.expect("a forced pass within 10 plies");
    let (child, negate) = book_child(&board, mv).unwrap();
    assert!(!negate);
    assert_eq!(child, board.play(mv).unwrap().pass());
    let mut book = Book::new();
    let _ = book.insert(&child, Entry::new(7, 5));
    // The same side moves again, so the value is not negated.
    assert_eq!(book.move_value(&board, mv).unwrap().value, 7);
    let _ = book.edit(&board, mv, Some(-3)).unwrap();
    assert_eq!(book.get(&child).unwrap().value, -3);
}

#[test]
fn edit_sets_the_human_level_and_out_of_range_deletes() {
    let mut book = Book::new();
    let e6 = Move::Place(Square::E6);
    assert_eq!(book.edit(&Board::INITIAL, e6, Some(4)).unwrap(), None);
    let child = Board::INITIAL.play(e6).unwrap();
    assert_eq!(book.get(&child).unwrap(), Entry::new(-4, LEVEL_HUMAN));
    assert_eq!(book.move_value(&Board::INITIAL, e6).unwrap().value, 4);
    assert!(book.edit(&Board::INITIAL, e6, Some(65)).unwrap().is_some());
    assert!(book.is_empty());
    assert_eq!(
        book.edit(&Board::INITIAL, Move::Place(Square::A1), Some(0)),
        Err(EditError::IllegalMove { mv: Move::Place(Square::A1) })
    );
}

#[test]
fn merge_prefers_the_higher_or_equal_level_for_value_and_leaf_separately() {
    let board = after(&[Square::F5]);
    let mut a = Book::new();
    let _ = a.insert(&board, Entry { leaf: Leaf::new(Move::Place(Square::F6), 2, 30), ..Entry::new(1, 20) });
    let mut b = Book::new();
    let _ = b.insert(&board, Entry { leaf: Leaf::new(Move::Place(Square::D6), 3, 10), ..Entry::new(-5, 20) });
    a.merge(&b);
    let merged = a.get(&board).unwrap();
    assert_eq!(merged.value, -5, "equal level: the incoming value wins");
    assert_eq!(merged.leaf.mv(), Some(Move::Place(Square::F6)), "lower leaf level: the stored leaf stays");
    let mut c = Book::new();
    let _ = c.insert(&board, Entry::new(9, 19));
    a.merge(&c);
    assert_eq!(a.get(&board).unwrap().value, -5);
}

#[test]
fn fast_canonicalisation_agrees_with_board_canonical() {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    let mut rng = StdRng::seed_from_u64(4);
    let mut boards = vec![Board::INITIAL, Board::INITIAL.pass()];
    for _ in 0..3000 {
        let mut board = Board::INITIAL;
        for _ in 0..rng.random_range(0..40) {
            let moves: Vec<Move> = legal_moves(&board).collect();
            if moves.is_empty() {
                break;
            }
            board = board.play(moves[rng.random_range(0..moves.len())]).unwrap();
        }
        boards.push(board);
    }
    for board in boards {
        let (expected, symmetry) = board.canonical();
        let (p, o) = board.egaroucid_key();
        let (key, fast_symmetry) = canonical_egaroucid(p, o);
        assert_eq!(key, [expected.player.0.reverse_bits(), expected.opponent.0.reverse_bits()]);
        assert_eq!(board.transform(fast_symmetry), expected);
        assert_eq!(fast_symmetry, symmetry);
    }
}

#[test]
fn an_empty_board_is_never_stored() {
    let mut book = Book::new();
    let empty = Board::from_raw(0, 0);
    assert_eq!(book.insert(&empty, Entry::new(0, 1)), None);
    book.merge_entry(&empty, Entry::new(0, 1));
    assert!(book.is_empty());
    let mut bytes = b"DICUORAGE\x03".to_vec();
    bytes.extend_from_slice(&1i32.to_le_bytes());
    bytes.extend_from_slice(&[0; 25]);
    assert!(matches!(
        egaroucid::parse_egbk3(&bytes),
        Err(FormatError::Record { index: 0, offset: 14, problem: RecordProblem::EmptyBoard })
    ));
    let line = text::format_line(0, 0, true, 0);
    assert!(text::parse(line.as_bytes(), 1).is_err());
}
