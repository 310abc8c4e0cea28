//! The search step of a game review: one position's value and best line (see [`crate::review`]).

use super::Thinker;
use crate::board::{Color, Move};
use crate::book::Book;
use crate::position::Position;
use crate::review::{PositionValue, ReviewOptions};
use crate::search::SolveMode;

/// How many moves of a book line a review follows for the "better move" line.
const BOOK_LINE_MOVES: usize = 12;

/// A value for the side to move turned to Black's point of view.
fn for_black(side: Color, value: i32) -> i32 {
    if side == Color::Black { value } else { -value }
}

impl Thinker {
    /// `position`'s value, best move and line for a review: the book's when `book` holds the position (the best
    /// move is its best link, the line follows the best links), else an exact solve when the position has at most
    /// `options.exact_from` empties, else a search at `options.level`. `None` when the search was stopped.
    pub fn review_position(
        &self,
        position: &Position,
        options: ReviewOptions,
        book: Option<&Book>,
    ) -> Option<PositionValue> {
        let side = position.side_to_move;
        if let Some(entry) = book.and_then(|book| book.get(&position.board)) {
            let line = book.map(|book| book_line(book, position)).unwrap_or_default();
            return Some(PositionValue {
                value: for_black(side, i32::from(entry.value)),
                best: line.first().copied(),
                line,
                exact: false,
                book: true,
            });
        }
        let board = position.board;
        let empties = board.empty_count();
        if board.is_game_over() || empties > u32::from(options.exact_from) {
            let thought = self.think(position, options.level);
            if thought.stopped {
                return None;
            }
            return Some(PositionValue {
                value: for_black(side, thought.score),
                best: thought.best_move,
                line: thought.pv,
                exact: thought.exact,
                book: false,
            });
        }
        let result = self.solver.solve(&board, SolveMode::Exact);
        if result.stopped {
            return None;
        }
        Some(PositionValue {
            value: for_black(side, result.score),
            best: result.best_move,
            line: result.pv,
            exact: true,
            book: false,
        })
    }
}

/// The book's best line from `position`: the best link at each step (a forced pass is played through), as long as
/// the position is in the book.
fn book_line(book: &Book, position: &Position) -> Vec<Move> {
    let mut line = Vec::new();
    let mut at = *position;
    while line.len() < BOOK_LINE_MOVES && book.contains(&at.board) {
        if !at.board.has_moves() {
            if at.board.is_game_over() {
                break;
            }
            at = Position { board: at.board.pass(), side_to_move: !at.side_to_move };
            line.push(Move::Pass);
            continue;
        }
        let best = book.move_values(&at.board).into_iter().max_by_key(|m| m.value);
        let Some(best) = best else { break };
        let Ok(next) = at.play(best.mv) else { break };
        line.push(best.mv);
        at = next;
    }
    line
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::book::Entry;
    use crate::eval::Weights;
    use crate::level::Level;
    use crate::search::SolveOptions;
    use crate::square::Square;

    fn thinker() -> Thinker {
        Thinker::new(Arc::new(Weights::zero()), SolveOptions::default().with_hash_level(14)).unwrap()
    }

    #[test]
    fn book_positions_take_the_books_value_and_best_link() {
        let start = crate::notation::parse_transcript("f5").unwrap().end;
        let mut book = Book::new();
        let _ = book.insert(&start.board, Entry::new(-1, 21));
        // Two links: d6 worth +1 for White, f6 worth −3.
        let d6 = start.play(Move::Place(Square::D6)).unwrap();
        let f6 = start.play(Move::Place(Square::F6)).unwrap();
        let _ = book.insert(&d6.board, Entry::new(-1, 21));
        let _ = book.insert(&f6.board, Entry::new(3, 21));
        let options = ReviewOptions { level: Level::new(2).unwrap(), exact_from: 10 };
        let value = thinker().review_position(&start, options, Some(&book)).unwrap();
        // White to move, value −1 for White: +1 for Black.
        assert_eq!((value.value, value.book, value.best), (1, true, Some(Move::Place(Square::D6))));
        assert_eq!(value.line, vec![Move::Place(Square::D6)]);
    }

    #[test]
    fn positions_within_the_exact_range_are_solved() {
        let thinker = thinker();
        let line = "f5d6c3f3f4d3c4g6f6e6c5c6d7d8e7g5e3d2g4h3f7b5h5g3b4b6c8b8c7e8f8g8h4h6e2d1c1a3a6a5e1f2g7c2a4h8";
        let position = crate::notation::parse_transcript(line).unwrap().end;
        let empties = position.board.empty_count();
        let options = ReviewOptions { level: Level::new(1).unwrap(), exact_from: 20 };
        assert!(empties <= 20);
        let value = thinker.review_position(&position, options, None).unwrap();
        let exact = thinker.solver.solve(&position.board, SolveMode::Exact).score;
        assert!(value.exact && !value.book);
        assert_eq!(value.value, for_black(position.side_to_move, exact));
        assert_eq!(value.line.first().copied(), value.best);
    }
}
