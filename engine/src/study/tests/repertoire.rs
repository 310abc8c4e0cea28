//! The opening trainer on a tiny hand-made book.
//!
//! The book (values for the side to move after each line): f5 0; f5d6 0, f5f6 1, f5f4 5 (so White's d6 is worth 0,
//! f6 −1, f4 −5); f5d6c3 0, f5d6c5 1 (Black's c3 0, c5 −1); f5f6e6 0; f5d6c3d3 0, f5f6e6f4 0.

use std::collections::HashMap;

use chrono::{DateTime, Duration, Utc};

use crate::board::{Color, Move};
use crate::book::{Book, Entry};
use crate::notation::parse_transcript;
use crate::position::Position;
use crate::square::Square;
use crate::study::key::CardKey;
use crate::study::repertoire::{Repertoire, RepertoireError, TrainerSession, Turn};

fn at(line: &str) -> Position {
    parse_transcript(line).unwrap().end
}

fn mv(square: Square) -> Move {
    Move::Place(square)
}

fn book() -> Book {
    let mut book = Book::new();
    for (line, value) in [
        ("f5", 0),
        ("f5d6", 0),
        ("f5f6", 1),
        ("f5f4", 5),
        ("f5d6c3", 0),
        ("f5d6c5", 1),
        ("f5f6e6", 0),
        ("f5d6c3d3", 0),
        ("f5f6e6f4", 0),
    ] {
        let _ = book.insert(&at(line).board, Entry::new(value, 20));
    }
    book
}

fn now() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2025-03-01T09:00:00Z").unwrap().with_timezone(&Utc)
}

fn black_repertoire() -> Repertoire {
    Repertoire::from_book(&book(), &Position::INITIAL, Color::Black, 4, 2)
}

#[test]
fn the_book_gives_a_card_per_student_position_and_follows_every_good_reply() {
    let repertoire = black_repertoire();
    let keys: Vec<CardKey> = repertoire.cards().iter().map(|card| card.key).collect();
    assert_eq!(keys.len(), 3);
    assert_eq!(keys[0], CardKey::of(&Position::INITIAL), "nearest the start first");
    for line in ["f5d6", "f5f6"] {
        assert!(keys.contains(&CardKey::of(&at(line))), "{line}");
    }
    // The four first moves are one move; c5 loses 1, within the error; f4 (−5 for White) is not followed.
    let start = &repertoire.cards()[0];
    assert_eq!(start.expected.len(), 1);
    assert!(CardKey::is_one_of(&Position::INITIAL, mv(Square::C4), &start.expected));
    let d6 = repertoire.card(&at("f5d6")).unwrap();
    assert_eq!(CardKey::moves_of(&at("f5d6"), d6.best), vec![mv(Square::C3)]);
    for (square, accepted) in [(Square::C3, true), (Square::C5, true), (Square::E3, false)] {
        assert_eq!(CardKey::is_one_of(&at("f5d6"), mv(square), &d6.expected), accepted, "{square}");
    }
    assert_eq!(repertoire.replies(&at("f5")), vec![mv(Square::D6), mv(Square::F6)]);
    assert_eq!(repertoire.replies(&at("f5d6c3")), vec![mv(Square::D3)]);
    assert!(repertoire.replies(&at("f5d6c5")).is_empty(), "the line goes on along the best move only");
    assert_eq!(repertoire.new_cards().len(), 3);
    // A shallower walk stops earlier; no error keeps only the best moves.
    let strict = Repertoire::from_book(&book(), &Position::INITIAL, Color::Black, 4, 0);
    assert_eq!(strict.cards().len(), 2);
    assert_eq!(strict.card(&at("f5d6")).unwrap().expected.len(), 1);
}

#[test]
fn the_trainer_plays_a_line_and_judges_the_moves() {
    let book = book();
    for seed in 0..8 {
        let mut session = TrainerSession::new(black_repertoire(), HashMap::new(), now(), 2, seed);
        assert_eq!(session.turn(), Turn::Student(CardKey::of(&Position::INITIAL)));
        let verdict = session.answer(mv(Square::F5)).unwrap();
        assert!(verdict.correct && verdict.loss == Some(0), "{verdict:?}");
        assert_eq!(session.turn(), Turn::Opponent);
        let reply = session.opponent_move(Some(&book)).unwrap();
        assert!([mv(Square::D6), mv(Square::F6)].contains(&reply), "seed {seed}: {reply}");
        let Turn::Student(key) = session.turn() else { panic!("the student moves after {reply}") };
        assert_eq!(key, CardKey::of(session.position()));
        if reply == mv(Square::D6) {
            let verdict = session.answer(mv(Square::C5)).unwrap();
            assert!(verdict.correct, "c5 loses 1, within the error 2");
            assert_eq!(verdict.loss, Some(1));
        }
    }
}

#[test]
fn a_wrong_move_shows_the_right_one_and_the_line_goes_on_with_it() {
    let book = book();
    let mut due = HashMap::new();
    let _ = due.insert(CardKey::of(&at("f5f6")), now() + Duration::days(9));
    let mut session = TrainerSession::new(black_repertoire(), due, now(), 0, 3);
    let _ = session.answer(mv(Square::F5)).unwrap();
    assert_eq!(session.opponent_move(Some(&book)), Some(mv(Square::D6)), "the due card first");
    assert_eq!(session.opponent_move(Some(&book)), None, "not the opponent's turn");
    let verdict = session.answer(mv(Square::C5)).unwrap();
    assert!(!verdict.correct, "c5 loses 1, more than the session's error 0");
    assert_eq!((verdict.best, verdict.loss), (mv(Square::C3), Some(1)));
    assert_eq!(*session.position(), at("f5d6c3"));
    assert_eq!(session.opponent_move(Some(&book)), Some(mv(Square::D3)));
    assert_eq!(session.turn(), Turn::LineEnd);
    let summary = session.summary();
    assert_eq!((summary.cards_done, summary.right, summary.retention), (2, 1, Some(0.5)));
    assert_eq!(summary.next_due, Some(now()), "the new cards are due now");
    session.restart();
    assert_eq!(*session.position(), Position::INITIAL);
}

#[test]
fn replies_toward_due_cards_come_first() {
    let book = book();
    for (not_due, expected) in [("f5d6", mv(Square::F6)), ("f5f6", mv(Square::D6))] {
        for seed in 0..6 {
            let mut due = HashMap::new();
            let _ = due.insert(CardKey::of(&at(not_due)), now() + Duration::days(3));
            let _ = due.insert(CardKey::of(&Position::INITIAL), now() + Duration::days(3));
            let mut session = TrainerSession::new(black_repertoire(), due, now(), 2, seed);
            let _ = session.answer(mv(Square::F5)).unwrap();
            assert_eq!(session.opponent_move(Some(&book)), Some(expected), "{not_due} not due, seed {seed}");
        }
    }
}

#[test]
fn another_orientation_finds_the_same_cards() {
    let book = book();
    let mut session = TrainerSession::new(black_repertoire(), HashMap::new(), now(), 2, 5);
    assert!(session.answer(mv(Square::C4)).unwrap().correct);
    let reply = session.opponent_move(Some(&book)).unwrap();
    // c4 is f5 turned by 180 degrees: d6 and f6 become e3 and c3.
    assert!([mv(Square::E3), mv(Square::C3)].contains(&reply), "{reply}");
    let Turn::Student(_) = session.turn() else { panic!("a card after {reply}") };
    let expected_best = if reply == mv(Square::E3) { mv(Square::F6) } else { mv(Square::E3) };
    let wrong = session.position().board.moves().into_iter().map(mv).find(|m| *m != expected_best).unwrap();
    let verdict = session.answer(wrong).unwrap();
    assert_eq!(verdict.best, expected_best);
}

#[test]
fn lines_the_student_marked_make_a_repertoire() {
    let line = |text: &str| parse_transcript(text).unwrap().moves;
    let lines = vec![line("f5d6c3d3"), line("f5f6e6"), line("f5d6c5")];
    let repertoire = Repertoire::from_lines(&Position::INITIAL, &lines, Color::Black).unwrap();
    assert_eq!(repertoire.cards().len(), 3);
    let d6 = repertoire.card(&at("f5d6")).unwrap();
    assert_eq!(d6.expected.len(), 2, "c3 and c5");
    assert_eq!(CardKey::moves_of(&at("f5d6"), d6.best), vec![mv(Square::C3)], "the first line's move");
    assert_eq!(repertoire.replies(&at("f5d6c3")), vec![mv(Square::D3)]);
    let mut session = TrainerSession::new(repertoire, HashMap::new(), now(), 0, 1);
    assert!(session.answer(mv(Square::F5)).unwrap().correct);
    assert!(session.opponent_move(None).is_some());
    let bad = vec![line("f5d6"), vec![mv(Square::F5), mv(Square::A1)]];
    assert_eq!(
        Repertoire::from_lines(&Position::INITIAL, &bad, Color::Black),
        Err(RepertoireError::IllegalMove { line: 1, ply: 1, mv: mv(Square::A1) })
    );
}

#[test]
fn answers_need_the_students_turn_and_a_legal_move() {
    let mut session = TrainerSession::new(black_repertoire(), HashMap::new(), now(), 2, 1);
    assert_eq!(session.answer(mv(Square::A1)), Err(RepertoireError::IllegalAnswer(mv(Square::A1))));
    let _ = session.answer(mv(Square::F5)).unwrap();
    assert_eq!(session.answer(mv(Square::D6)), Err(RepertoireError::NotStudentTurn));
    assert_eq!(session.summary().cards_done, 1);
}
