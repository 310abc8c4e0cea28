//! The hint schedule: a value for every legal move, reported as soon as it is found and deepened level by level, so
//! early values appear at once.
//!
//! 1. With a book, the moves in the book ([`views::book_moves`]) get their book values first, labelled
//!    [`HintKind::Book`]; only the other moves are searched.
//! 2. The other moves are searched at the steps 1, 2 and every even level up to the level (and the level itself): the
//!    position after each move one level lower than the step for a midgame plan, at the step's level for an endgame
//!    plan (decided by the position's empties, so an exact plan means exact children). A value is labelled with the
//!    step's midgame depth or its endgame selectivity.
//! 3. An exact pass ends the deepening: an exact value cannot improve.
//!
//! A forced pass or a finished game has no hints.

use std::ops::ControlFlow;

use super::Thinker;
use crate::board::Move;
use crate::book::{Book, book_child, ops, views};
use crate::level::{Level, SearchPlan};
use crate::position::Position;
use crate::square::Square;

/// How a hint value was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HintKind {
    /// A value from the book.
    Book,
    /// A midgame search of this depth (the step's midgame depth at the root).
    Depth(u8),
    /// A search to the end at this selectivity (percent, rounded down; 100 only for an exact search).
    Percent(u8),
}

/// One move's value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hint {
    /// The move.
    pub square: Square,
    /// Its value for the side to move.
    pub value: i32,
    /// How the value was found.
    pub kind: HintKind,
    /// The line after the move (from the book, or the search's principal variation).
    pub pv: Vec<Move>,
}

/// Why [`Thinker::hints`] returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HintsEnd {
    /// Every step was searched (or an exact step ended the deepening).
    Finished,
    /// The report asked to stop.
    Interrupted,
    /// A search was stopped through the thinker's stop handle.
    Stopped,
}

impl Thinker {
    /// Values for every legal move of `position` up to `level`, book values first when `book` is given (see the
    /// module docs). Each value goes to `report` as soon as it is found; `report` returns
    /// [`ControlFlow::Break`] to stop, and a [`ThinkerStop`](super::ThinkerStop) stops the running search.
    pub fn hints(
        &self,
        position: &Position,
        level: Level,
        book: Option<&Book>,
        report: &mut dyn FnMut(Hint) -> ControlFlow<()>,
    ) -> HintsEnd {
        let in_book = book.map(|book| book_hints(book, position)).unwrap_or_default();
        let mut skip = Vec::with_capacity(in_book.len());
        for hint in in_book {
            skip.push(hint.square);
            if report(hint).is_break() {
                return HintsEnd::Interrupted;
            }
        }
        self.search_hints(position, level, &skip, report)
    }

    /// The searched half of [`Thinker::hints`]: the moves not in `skip`, deepened step by step. A caller that lends
    /// the book from behind a lock takes [`book_hints`] with the book, then calls this without it.
    pub fn search_hints(
        &self,
        position: &Position,
        level: Level,
        skip: &[Square],
        report: &mut dyn FnMut(Hint) -> ControlFlow<()>,
    ) -> HintsEnd {
        let board = position.board;
        let moves: Vec<Square> = board.moves().into_iter().filter(|square| !skip.contains(square)).collect();
        if moves.is_empty() {
            return HintsEnd::Finished;
        }
        let root_empties = u8::try_from(board.empty_count()).unwrap_or(60);
        for step in hint_steps(level) {
            let root_level = Level::clamped(step);
            let (kind, child_level) = match root_level.plan(root_empties) {
                SearchPlan::Midgame { depth, .. } => {
                    (HintKind::Depth(depth), Level::clamped(step.saturating_sub(1).max(1)))
                }
                SearchPlan::Endgame { selectivity } if selectivity.is_exact() => (HintKind::Percent(100), root_level),
                // 99.9 % shows as 99 %: only an exact result may read 100 %.
                SearchPlan::Endgame { selectivity } => {
                    (HintKind::Percent(selectivity.percent().floor() as u8), root_level)
                }
            };
            for &square in &moves {
                let Ok(child) = position.play(Move::Place(square)) else { continue };
                let thought = self.think(&child, child_level);
                if thought.stopped {
                    return HintsEnd::Stopped;
                }
                if report(Hint { square, value: -thought.score, kind, pv: thought.pv }).is_break() {
                    return HintsEnd::Interrupted;
                }
            }
            if kind == HintKind::Percent(100) {
                break;
            }
        }
        HintsEnd::Finished
    }
}

/// The book half of [`Thinker::hints`]: the book's moves of `position` ([`views::book_moves`]) with their book values
/// and lines, labelled [`HintKind::Book`].
#[must_use]
pub fn book_hints(book: &Book, position: &Position) -> Vec<Hint> {
    let board = position.board;
    views::book_moves(book, &board)
        .into_iter()
        .filter_map(|value| {
            let Move::Place(square) = value.mv else { return None };
            let pv = book_child(&board, value.mv).map(|(child, _)| ops::principal_line(book, &child));
            Some(Hint { square, value: i32::from(value.value), kind: HintKind::Book, pv: pv.unwrap_or_default() })
        })
        .collect()
}

/// The levels the hints deepen through towards `level`: 1, 2, the even levels, and `level` itself.
fn hint_steps(level: Level) -> Vec<u8> {
    let mut steps: Vec<u8> = (1..=level.get()).filter(|l| *l <= 2 || l % 2 == 0).collect();
    if steps.last() != Some(&level.get()) {
        steps.push(level.get());
    }
    steps
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::book::Entry;
    use crate::eval::Weights;
    use crate::search::SolveOptions;

    fn thinker() -> Thinker {
        Thinker::new(Arc::new(Weights::zero()), SolveOptions::default().with_threads(1).with_hash_level(14)).unwrap()
    }

    #[test]
    fn steps_are_one_two_the_even_levels_and_the_level() {
        let steps = |n| hint_steps(Level::new(n).unwrap());
        assert_eq!(steps(1), vec![1]);
        assert_eq!(steps(2), vec![1, 2]);
        assert_eq!(steps(7), vec![1, 2, 4, 6, 7]);
        assert_eq!(steps(8), vec![1, 2, 4, 6, 8]);
    }

    /// Book moves come first as book values; the others are searched at every step, with one level less per child,
    /// and each searched value is the child's value at that level, negated.
    #[test]
    fn book_values_first_then_every_step_for_the_other_moves() {
        let thinker = thinker();
        let position = crate::notation::parse_transcript("f5d6").unwrap().end;
        let mut book = Book::new();
        let c3 = position.play(Move::Place(Square::C3)).unwrap();
        let _ = book.insert(&c3.board, Entry::new(-3, 21));
        let level = Level::new(4).unwrap();
        let mut hints = Vec::new();
        let end = thinker.hints(&position, level, Some(&book), &mut |hint| {
            hints.push(hint);
            ControlFlow::Continue(())
        });
        assert_eq!(end, HintsEnd::Finished);
        assert_eq!((hints[0].square, hints[0].value, hints[0].kind), (Square::C3, 3, HintKind::Book));
        let others = position.board.moves().into_iter().count() - 1;
        assert_eq!(hints.len(), 1 + 3 * others, "steps 1, 2 and 4");
        assert!(hints[1..].iter().all(|h| h.square != Square::C3));
        let kinds: Vec<HintKind> = hints[1..].iter().step_by(others).map(|h| h.kind).collect();
        assert_eq!(kinds, [1, 2, 4].map(|l| HintKind::Depth(Level::new(l).unwrap().midgame_depth())));
        let last = hints.last().unwrap();
        let child = position.play(Move::Place(last.square)).unwrap();
        assert_eq!(last.value, -thinker.think(&child, Level::new(3).unwrap()).score);
    }

    #[test]
    fn an_exact_step_ends_the_deepening_and_a_break_stops() {
        let thinker = thinker();
        let text = "XXXOXXXXOXXXXXXXOOXXXXXXOOOXXXXXOOOXXOO-OOOOO---OOOOOOO-OOOOOOO- X";
        let position = crate::notation::parse_board(text).unwrap();
        let moves = position.board.moves().into_iter().count();
        let mut hints = Vec::new();
        let end = thinker.hints(&position, Level::new(10).unwrap(), None, &mut |hint| {
            hints.push(hint);
            ControlFlow::Continue(())
        });
        assert_eq!(end, HintsEnd::Finished);
        let kinds: Vec<HintKind> = hints.chunks(moves).map(|step| step[0].kind).collect();
        assert!(kinds.len() < hint_steps(Level::new(10).unwrap()).len(), "{kinds:?}");
        assert_eq!(kinds.iter().position(|k| *k == HintKind::Percent(100)), Some(kinds.len() - 1), "{kinds:?}");
        let mut count = 0;
        let end = thinker.hints(&position, Level::new(10).unwrap(), None, &mut |_| {
            count += 1;
            ControlFlow::Break(())
        });
        assert_eq!((end, count), (HintsEnd::Interrupted, 1));
    }
}
