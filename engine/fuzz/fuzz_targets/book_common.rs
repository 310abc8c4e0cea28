//! What the five book targets share: the input through format detection and through one reader; a book that parses
//! must survive writing it as egbk3 (and as an Edax book) and reading it back.

use shirokuro_engine::book::edax::{self, WriteOptions};
use shirokuro_engine::book::egaroucid;
use shirokuro_engine::book::file::ReadOptions;
use shirokuro_engine::book::{BookFormat, parse};

/// Checks `data` read as `format` (and with the format detected).
pub fn check(data: &[u8], format: BookFormat) {
    let _ = parse(data, None, ReadOptions::default());
    if let Ok((book, _)) = parse(data, Some(format), ReadOptions::default()) {
        let mut bytes = Vec::new();
        egaroucid::write_egbk3(&book, &mut bytes).expect("writing to memory");
        let again = egaroucid::parse_egbk3(&bytes).expect("a written egbk3 book parses");
        assert_eq!(again.len(), book.len());
        for (board, entry) in book.iter() {
            assert_eq!(again.get_canonical(&board), Some(entry));
        }
        let mut dat = Vec::new();
        edax::write(&book, &WriteOptions { level: None, date: (2026, 1, 1, 0, 0, 0) }, &mut dat).expect("writing");
        let (from_edax, _) = edax::parse(&dat).expect("a written Edax book parses");
        // Positions without a move for the side to move are not Edax book positions, so they may be dropped.
        assert!(from_edax.len() <= book.len());
    }
}
