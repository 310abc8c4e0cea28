//! The analysis step: a position's value for the evaluation graph and game analysis — the book's value when the
//! position is in the book, otherwise a search at the level.

use super::{Thinker, Thought};
use crate::book::Book;
use crate::level::Level;
use crate::position::Position;

/// A position's value and where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Analysis {
    /// The book's value of the position, for its side to move.
    Book(i32),
    /// A search at the level.
    Search(Thought),
}

impl Analysis {
    /// The value for the side to move.
    #[must_use]
    pub fn score(&self) -> i32 {
        match self {
            Analysis::Book(value) => *value,
            Analysis::Search(thought) => thought.score,
        }
    }

    /// Whether the search was stopped (its value is then not to be used).
    #[must_use]
    pub fn is_stopped(&self) -> bool {
        matches!(self, Analysis::Search(thought) if thought.stopped)
    }
}

impl Thinker {
    /// The value of `position`: the book's when `book` holds the position, otherwise a search at `level`.
    pub fn analyze(&self, position: &Position, level: Level, book: Option<&Book>) -> Analysis {
        match book.and_then(|book| book.get(&position.board)) {
            Some(entry) => Analysis::Book(i32::from(entry.value)),
            None => Analysis::Search(self.think(position, level)),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::book::Entry;
    use crate::eval::Weights;
    use crate::search::SolveOptions;

    #[test]
    fn the_book_value_wins_over_a_search() {
        let thinker = Thinker::new(Arc::new(Weights::zero()), SolveOptions::default().with_hash_level(14)).unwrap();
        let position = crate::notation::parse_transcript("f5d6c3").unwrap().end;
        let level = Level::new(3).unwrap();
        let mut book = Book::new();
        let _ = book.insert(&position.board, Entry::new(17, 21));
        assert_eq!(thinker.analyze(&position, level, Some(&book)), Analysis::Book(17));
        let searched = thinker.analyze(&position, level, None);
        assert_eq!(searched.score(), thinker.think(&position, level).score);
        assert!(matches!(searched, Analysis::Search(_)) && !searched.is_stopped());
        let elsewhere = crate::notation::parse_transcript("f5f6").unwrap().end;
        assert!(matches!(thinker.analyze(&elsewhere, level, Some(&book)), Analysis::Search(_)));
    }
}
