use super::*;

#[test]
fn initial_position() {
    let b = Board::INITIAL;
    let moves: Vec<Square> = b.moves().into_iter().collect();
    assert_eq!(moves, vec![Square::D3, Square::C4, Square::F5, Square::E6]);
    assert_eq!(b.empty_count(), 60);
    assert!(!b.is_game_over());
}

#[test]
fn move_indices_edax_and_egaroucid() {
    assert_eq!(Move::Place(Square::A1).edax_index(), 0);
    assert_eq!(Move::Place(Square::H1).edax_index(), 7);
    assert_eq!(Move::Place(Square::H8).edax_index(), 63);
    assert_eq!(Move::Pass.edax_index(), 64);
    assert_eq!(Move::Place(Square::A1).egaroucid_index(), 63);
    assert_eq!(Move::Place(Square::H8).egaroucid_index(), 0);
    assert_eq!(Move::Pass.egaroucid_index(), 64);

    for index in 0..=64u8 {
        let edax = Move::from_edax_index(index).expect("0..=64 are moves");
        assert_eq!(edax.edax_index(), index);
        let egaroucid = Move::from_egaroucid_index(index).expect("0..=64 are moves");
        assert_eq!(egaroucid.egaroucid_index(), index);
        // The two numberings are each other's mirror image (63 - i) for squares and agree on the pass.
        let expected = if index == 64 { Move::Pass } else { Move::from_edax_index(63 - index).expect("a square") };
        assert_eq!(egaroucid, expected);
    }
    assert_eq!(Move::from_edax_index(37), Some(Move::Place(Square::F5)));
    assert_eq!(Move::from_egaroucid_index(26), Some(Move::Place(Square::F5)));
    for index in 65..=u8::MAX {
        assert_eq!(Move::from_edax_index(index), None);
        assert_eq!(Move::from_egaroucid_index(index), None);
    }
}

#[test]
fn move_square_and_transform() {
    assert_eq!(Move::Place(Square::C4).square(), Some(Square::C4));
    assert_eq!(Move::Pass.square(), None);
    assert_eq!(Move::Pass.transform(Symmetry::Rotate90), Move::Pass);
    assert_eq!(Move::Place(Square::A1).transform(Symmetry::Rotate180), Move::Place(Square::H8));
    assert_eq!(Move::Place(Square::F5).transform(Symmetry::MirrorDiagonal), Move::Place(Square::E6));
}

#[test]
fn display() {
    assert_eq!(Move::Place(Square::F5).to_string(), "f5");
    assert_eq!(Move::Place(Square::A1).to_string(), "a1");
    assert_eq!(Move::Pass.to_string(), "ps");

    let expected = "\
--------
--------
--------
---OX---
---XO---
--------
--------
--------
";
    assert_eq!(Board::INITIAL.to_string(), expected);
    // The side to move is always X: after a pass the letters swap.
    assert_eq!(Board::INITIAL.pass().to_string(), expected.replace('X', "x").replace('O', "X").replace('x', "O"));
    let after_f5 = Board::INITIAL.play(Move::Place(Square::F5)).expect("f5 is legal");
    assert_eq!(
        after_f5.to_string(),
        "--------\n--------\n--------\n---XO---\n---OOO--\n--------\n--------\n--------\n"
    );
    assert_eq!(format!("{:?}", Board::INITIAL), "Board(0x0000000810000000, 0x0000001008000000)");
}

#[test]
fn colors_and_defaults() {
    assert_eq!(!Color::Black, Color::White);
    assert_eq!(Color::White.opposite(), Color::Black);
    assert_eq!(Board::default(), Board::INITIAL);
    assert_eq!(Board::new(1, 1), None);
    assert_eq!(Board::new(1, 2), Some(Board::from_raw(1, 2)));
}
