use std::sync::Arc;

use super::*;
use crate::book::Entry;
use crate::eval::Weights;
use crate::search::SolveOptions;
use crate::square::Square;

fn thinker() -> Thinker {
    Thinker::new(Arc::new(Weights::zero()), SolveOptions::default().with_threads(1).with_hash_level(14)).unwrap()
}

fn level(n: u8) -> Level {
    Level::new(n).unwrap()
}

/// A book holding the four first moves (all worth 0: they are the same position up to symmetry).
fn opening_book() -> Arc<Book> {
    let mut book = Book::new();
    let after_f5 = Position::INITIAL.play(Move::Place(Square::F5)).unwrap();
    let _ = book.insert(&after_f5.board, Entry::new(0, 21));
    Arc::new(book)
}

fn choose(thinker: &Thinker, position: &Position, policy: &Policy, book: Option<&Book>, seed: u64) -> Choice {
    thinker.choose(position, policy, book, &mut GameRng::new(seed), &mut |_| {})
}

#[test]
fn without_a_book_the_ai_searches_at_the_level() {
    let thinker = thinker();
    let position = crate::notation::parse_transcript("f5d6c3").unwrap().end;
    let choice = choose(&thinker, &position, &Policy::new(level(3)), None, 1);
    let thought = thinker.think(&position, level(3));
    assert_eq!(choice.source, Source::Search);
    assert_eq!((choice.mv, choice.value), (thought.best_move, thought.score));
    assert_eq!(choice.thought.pv, thought.pv);
}

#[test]
fn book_moves_are_drawn_among_the_best_by_the_seed() {
    let thinker = thinker();
    let policy = Policy::new(level(5));
    let book = opening_book();
    let mut seen = std::collections::HashSet::new();
    for seed in 0..16 {
        let choice = choose(&thinker, &Position::INITIAL, &policy, Some(&book), seed);
        assert_eq!((choice.source, choice.value, choice.thought.nodes), (Source::Book, 0, 0));
        let mv = choice.mv.unwrap();
        assert!(Position::INITIAL.board.is_legal(mv));
        assert_eq!(choice.thought.pv.first(), Some(&mv));
        assert_eq!(choose(&thinker, &Position::INITIAL, &policy, Some(&book), seed).mv, Some(mv), "seed {seed}");
        let _ = seen.insert(mv);
    }
    assert!(seen.len() >= 2, "16 seeds all chose {seen:?}");
}

#[test]
fn a_book_whose_best_move_loses_too_much_is_ignored() {
    let thinker = thinker();
    let mut book = (*opening_book()).clone();
    let _ = book.insert(&Position::INITIAL.board, Entry::new(20, 21));
    let policy = Policy::new(level(2));
    assert_eq!(choose(&thinker, &Position::INITIAL, &policy, Some(&book), 3).source, Source::Search);
}

/// After f5 only d6 is in the book, worth −40 from a level-1 search: the moves missing from the book (worth about 0
/// with a zero evaluation) beat it, so the AI searches; without the check, or when the book's value was searched at
/// the AI's level or above, it plays d6 from the book.
#[test]
fn a_move_missing_from_the_book_that_is_better_makes_the_ai_search() {
    let thinker = thinker();
    let position = Position::INITIAL.play(Move::Place(Square::F5)).unwrap();
    let d6 = Move::Place(Square::D6);
    let book_with = |entry_level| {
        let mut book = Book::new();
        let _ = book.insert(&position.play(d6).unwrap().board, Entry::new(40, entry_level));
        book
    };
    let policy = Policy::new(level(4));
    let low = book_with(1);
    let choice = choose(&thinker, &position, &policy, Some(&low), 5);
    assert_eq!(choice.source, Source::Search);
    assert_ne!(choice.mv, Some(d6));
    let unchecked = choose(&thinker, &position, &policy.clone().with_out_of_book_check(false), Some(&low), 5);
    assert_eq!((unchecked.source, unchecked.mv, unchecked.value), (Source::Book, Some(d6), -40));
    let trusted = choose(&thinker, &position, &policy, Some(&book_with(30)), 5);
    assert_eq!((trusted.source, trusted.mv), (Source::Book, Some(d6)));
}

/// A book move that no missing move beats by the margin is played.
#[test]
fn a_good_book_move_survives_the_check() {
    let thinker = thinker();
    let position = Position::INITIAL.play(Move::Place(Square::F5)).unwrap();
    let d6 = Move::Place(Square::D6);
    let mut book = Book::new();
    let _ = book.insert(&position.play(d6).unwrap().board, Entry::new(-30, 1));
    let policy = Policy::new(level(4));
    let choice = choose(&thinker, &position, &policy, Some(&book), 5);
    assert_eq!((choice.source, choice.mv, choice.value), (Source::Book, Some(d6), 30));
}

#[test]
fn loss_curves_search_with_loss_outside_the_book() {
    let thinker = thinker();
    let position = crate::notation::parse_transcript("f5d6c3d3c4").unwrap().end;
    let policy = Policy::new(level(3)).with_loss(Some(LossCurves::flat(8, 100)));
    let choice = choose(&thinker, &position, &policy, None, 9);
    assert_eq!(choice.source, Source::SearchWithLoss);
    assert!(position.board.is_legal(choice.mv.unwrap()));
    let again = choose(&thinker, &position, &policy, None, 9);
    assert_eq!((again.mv, again.value), (choice.mv, choice.value));
}

/// The sparring partner skips the book, and its choice reports its loss against its own best move.
#[test]
fn the_sparring_partner_skips_the_book_and_reports_its_loss() {
    let thinker = thinker();
    let mut book = Book::new();
    let d3 = Position::INITIAL.play(Move::Place(Square::D3)).unwrap();
    let _ = book.insert(&d3.board, Entry::new(0, 21));
    let style = crate::think::sparring::Strength::Beginner.style();
    let policy = Policy::new(Level::new(2).unwrap()).with_sparring(Some(Sparring { style, lost: 0 }));
    let position = crate::notation::parse_transcript("f5d6c3d3c4").unwrap().end;
    let choice = choose(&thinker, &position, &policy, Some(&book), 4);
    assert_eq!(choice.source, Source::Sparring);
    assert!(choice.loss.is_some_and(|loss| (0..=i32::from(style.max_loss)).contains(&loss)), "{:?}", choice.loss);
    let opening = choose(&thinker, &Position::INITIAL, &policy, Some(&book), 4);
    assert_eq!(opening.source, Source::Sparring, "not from the book");
}
