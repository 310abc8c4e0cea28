//! The notation parsers on real data: the FFO endgame suite (#1–#79) as published in Edax's repository
//! (`tests/data/ffo-*.obf`, copied from the project's reference folder).

use shirokuro_engine::notation::{self, Obf};
use shirokuro_engine::{Color, Move, Square};

const FILES: [(&str, &str, usize); 4] = [
    ("ffo-1-19.obf", include_str!("data/ffo-1-19.obf"), 19),
    ("ffo-20-39.obf", include_str!("data/ffo-20-39.obf"), 20),
    ("ffo-40-59.obf", include_str!("data/ffo-40-59.obf"), 20),
    ("ffo-60-79.obf", include_str!("data/ffo-60-79.obf"), 20),
];

#[test]
fn notation_ffo_files_parse_and_print_back_byte_for_byte() {
    for (name, text, count) in FILES {
        let entries = notation::parse_obf_file(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(entries.len(), count, "{name}");
        for (entry, line) in entries.iter().zip(text.lines().filter(|line| !line.trim().is_empty())) {
            assert_eq!(notation::format_obf_line(entry), line, "{name}");
            assert!(!entry.moves.is_empty(), "{name}: {line}");
            // Moves are listed best first.
            assert!(entry.moves.windows(2).all(|w| w[0].1 >= w[1].1), "{name}: {line}");
            // The board part alone is a 65-character board.
            let board = line.split(';').next().unwrap_or_default();
            assert_eq!(notation::parse_board(board), Ok(entry.position));
        }
    }
}

#[test]
fn notation_ffo_40_to_59() {
    let entries = notation::parse_obf_file(FILES[2].1).unwrap();
    assert_eq!(entries.len(), 20);
    // #40: Black to move, A2 wins by 38.
    let first: &Obf = &entries[0];
    assert_eq!(first.position.side_to_move, Color::Black);
    assert_eq!(first.position.board.empty_count(), 20);
    assert_eq!(first.moves[0], (Move::Place(Square::A2), 38));
    assert_eq!(first.moves.len(), 10);
    // #43: White to move, G3 and C7 both lose by 12.
    let fourth = &entries[3];
    assert_eq!(fourth.position.side_to_move, Color::White);
    assert_eq!(&fourth.moves[..2], [(Move::Place(Square::G3), -12), (Move::Place(Square::C7), -12)]);
    // Empty counts rise from 20 (#40) to 34 (#59).
    assert_eq!(entries[19].position.board.empty_count(), 34);
    for entry in &entries {
        let hex = notation::format_hex_board(&entry.position.board);
        assert_eq!(notation::parse_hex_board(&hex), Ok(entry.position.board));
    }
}
