use super::*;

#[test]
fn initial_position() {
    let b = Board::INITIAL;
    let moves: Vec<Square> = b.moves().into_iter().collect();
    assert_eq!(moves, vec![Square::D3, Square::C4, Square::F5, Square::E6]);
    assert_eq!(b.empty_count(), 60);
    assert!(!b.is_game_over());
}
