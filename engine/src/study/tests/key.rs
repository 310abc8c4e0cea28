//! Card keys: one key for the 8 orientations, moves through the canonical orientation.

use crate::bitboard::Symmetry;
use crate::board::Move;
use crate::notation::parse_transcript;
use crate::position::Position;
use crate::square::Square;
use crate::study::CardKey;
use crate::study::key::{moves_from_text, moves_to_text};

#[test]
fn every_orientation_has_the_same_key_and_moves_map_back() {
    let position = parse_transcript("f5d6c3").unwrap().end;
    let key = CardKey::of(&position);
    let d3 = Move::Place(Square::D3);
    let canonical = CardKey::canonical_move(&position, d3);
    for symmetry in Symmetry::ALL {
        let image = Position { board: position.board.transform(symmetry), side_to_move: position.side_to_move };
        assert_eq!(CardKey::of(&image), key);
        let mv = d3.transform(symmetry);
        assert!(CardKey::is_one_of(&image, mv, &[canonical]));
        assert_eq!(CardKey::moves_of(&image, canonical), vec![mv]);
    }
    assert_eq!(CardKey::from_text(&key.to_text()), Ok(key));
    assert!(CardKey::from_text("not a board").is_err());
}

#[test]
fn a_symmetric_position_folds_its_equivalent_moves() {
    let start = Position::INITIAL;
    let f5 = CardKey::canonical_move(&start, Move::Place(Square::F5));
    let moves = CardKey::moves_of(&start, f5);
    assert_eq!(moves.len(), 4);
    for square in [Square::F5, Square::E6, Square::D3, Square::C4] {
        assert!(CardKey::is_one_of(&start, Move::Place(square), &[f5]), "{square}");
    }
    assert!(!CardKey::is_one_of(&start, Move::Place(Square::A1), &[f5]));
}

#[test]
fn move_lists_round_trip_as_text() {
    let moves = vec![Move::Place(Square::F5), Move::Pass, Move::Place(Square::A8)];
    let text = moves_to_text(&moves);
    assert_eq!(text, "f5 ps a8");
    assert_eq!(moves_from_text(&text).unwrap(), moves);
    assert!(moves_from_text("f5 zz").is_err());
    assert_eq!(moves_from_text("").unwrap(), Vec::new());
}
