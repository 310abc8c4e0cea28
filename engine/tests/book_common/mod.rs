//! Shared helpers of the book tests: seeded random books.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use shirokuro_engine::Board;
use shirokuro_engine::book::{Book, Entry, Leaf, book_child, legal_moves};

/// A book of `n` distinct positions from seeded random games, with entries every writable format can carry: levels
/// 1–60, leaves (when a move leaves the book) at the position's level.
#[allow(dead_code)]
pub fn random_book(seed: u64, n: usize) -> Book {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut book = Book::new();
    while book.len() < n {
        let mut board = Board::INITIAL;
        for _ in 0..rng.random_range(0..14) {
            let moves: Vec<_> = legal_moves(&board).collect();
            if moves.is_empty() {
                break;
            }
            let (child, _) = book_child(&board, moves[rng.random_range(0..moves.len())]).unwrap();
            board = child;
        }
        if board.has_moves() && !book.contains(&board) && book.len() < n {
            let entry = Entry {
                value: rng.random_range(-64..=64),
                level: rng.random_range(1..=60),
                lines: rng.random_range(1..1000),
                leaf: Leaf::NONE,
            };
            let _ = book.insert(&board, entry);
        }
    }
    let boards: Vec<Board> = book.iter().map(|(board, _)| board).collect();
    for board in boards {
        let mut entry = book.get(&board).unwrap();
        let free: Vec<_> =
            legal_moves(&board).filter(|mv| !book.contains(&book_child(&board, *mv).unwrap().0)).collect();
        if !free.is_empty() {
            let mv = free[rng.random_range(0..free.len())];
            entry.leaf = Leaf::new(mv, rng.random_range(-64..=64), entry.level);
            let _ = book.insert(&board, entry);
        }
    }
    book
}
