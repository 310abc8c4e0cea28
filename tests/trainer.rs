//! Game ▸ Opening Trainer at the level of `update`: the work its tasks do is run by hand ([`job`]) and handed back
//! as messages, as the app does when the tasks finish.
//!
//! The book (values for the side to move after each line): f5 0; f5d6 0, f5f6 1, f5f4 5 (so White's d6 is worth 0,
//! f6 −1, f4 −5); f5d6c3 0, f5d6c5 1 (Black's c3 0, c5 −1); f5f6e6 0; f5d6c3d3 0, f5f6e6f4 0. Black's repertoire
//! four plies deep has three cards: the start (f5 and its images), f5d6 (c3, or c5 within 2 discs) and f5f6 (e6).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic, reason = "tests")]

use std::sync::Arc;

use chrono::{DateTime, Utc};
use shirokuro::book::SharedBook;
use shirokuro::i18n::Language;
use shirokuro::study::history::HistoryError;
use shirokuro::study::trainer::job::{self, Plan, StartError};
use shirokuro::study::trainer::{Message, Stage, Trainer};
use shirokuro::study::{Env, Step};
use shirokuro_engine::book::{Book, Entry};
use shirokuro_engine::fsutil::IoFailure;
use shirokuro_engine::notation::parse_transcript;
use shirokuro_engine::study::{Answer, CardKey, StudyStore};
use shirokuro_engine::{Color, Move, Position, Square};

fn at(line: &str) -> Position {
    parse_transcript(line).unwrap().end
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

fn env(dir: &tempfile::TempDir, book: Option<Book>, position: Position) -> Env {
    Env {
        study_file: Env::study_file_in(dir.path()),
        weights_file: dir.path().join("eval.egev2"),
        book: book.map(SharedBook::new),
        position,
        lines: Vec::new(),
        style: Default::default(),
    }
}

/// Start pressed and its work done by hand, up to the first question; the repertoire is Black's, 4 plies deep.
fn started(env: &Env) -> Trainer {
    let (mut trainer, _task) = Trainer::new(env.clone());
    let _ = trainer.update(Message::Side(Color::Black));
    let _ = trainer.update(Message::Depth(4));
    let _ = trainer.update(Message::Start);
    assert_eq!(trainer.stage(), Stage::Starting);
    let repertoire = Arc::new(job::build(env.book.as_ref(), &env.position, trainer.plan(), &env.lines).unwrap());
    let _ = trainer.update(Message::Built(trainer.generation(), Ok(Arc::clone(&repertoire))));
    let mut store = StudyStore::open(&env.study_file).unwrap();
    let deck = job::store_cards(&mut store, &trainer.plan().deck(&env.position), &repertoire, Utc::now()).unwrap();
    let step = trainer.update(Message::Stored(trainer.generation(), Ok(Arc::new(deck))));
    assert!(step.notice_ref().is_none());
    trainer
}

/// Clicks `square` and writes the answer as the task would; the step is returned.
fn click(trainer: &mut Trainer, env: &Env, square: Square) -> Step<Message> {
    let step = trainer.update(Message::SquareClicked(square));
    if let Some(review) = trainer.last_review().cloned() {
        let mut store = StudyStore::open(&env.study_file).unwrap();
        let counts = review.write(&mut store).unwrap();
        let _ = trainer.update(Message::Recorded(Ok(counts)));
    }
    step
}

/// A legal move of the position the student must answer that the repertoire does not accept.
fn wrong_move(trainer: &Trainer) -> Square {
    let session = trainer.session().unwrap();
    let position = *session.position();
    let card = session.repertoire().card(&position).unwrap();
    position
        .board
        .moves()
        .into_iter()
        .find(|sq| !CardKey::is_one_of(&position, Move::Place(*sq), &card.expected))
        .unwrap()
}

fn renders(trainer: &Trainer) {
    for language in Language::ALL {
        let _element = trainer.view(language.strings());
    }
}

#[test]
fn starting_builds_the_cards_and_a_session() {
    let dir = tempfile::tempdir().unwrap();
    let env = env(&dir, Some(book()), Position::INITIAL);
    let (trainer, _task) = Trainer::new(env.clone());
    assert_eq!(trainer.stage(), Stage::Setup);
    assert_eq!(trainer.plan(), Plan::default(), "Black to move at the start: Black is trained");
    renders(&trainer);

    let trainer = started(&env);
    assert_eq!(trainer.stage(), Stage::Asking);
    let deck = trainer.deck().unwrap();
    assert!(deck.starts_with("book:black:") && deck.ends_with(":4:2"), "{deck}");
    assert_eq!(deck, Plan { depth: 4, ..Plan::default() }.deck(&Position::INITIAL), "the name is stable");
    let counts = trainer.counts().unwrap();
    assert_eq!((counts.total, counts.new), (3, 3));
    let session = trainer.session().unwrap();
    assert_eq!(session.repertoire().cards().len(), 3);
    assert_eq!(*session.position(), Position::INITIAL);
    assert!(trainer.scene().black_to_move);
    let store = StudyStore::open(&env.study_file).unwrap();
    assert_eq!(store.cards(deck).unwrap().len(), 3);
    renders(&trainer);
}

#[test]
fn a_right_answer_is_judged_and_the_book_replies() {
    let dir = tempfile::tempdir().unwrap();
    let env = env(&dir, Some(book()), Position::INITIAL);
    let mut trainer = started(&env);
    let step = click(&mut trainer, &env, Square::F5);
    assert!(step.notice_ref().is_none());
    let feedback = trainer.feedback().unwrap();
    assert!(feedback.verdict.correct);
    assert_eq!(feedback.played, Move::Place(Square::F5));
    assert_eq!(trainer.last_review().unwrap().answer, Answer::Right);
    // The opponent answered d6 or f6 at once: the student is to move again, in one of the repertoire's positions.
    assert_eq!(trainer.stage(), Stage::Asking);
    let position = *trainer.session().unwrap().position();
    assert!(position == at("f5d6") || position == at("f5f6"), "{position:?}");
    assert!(trainer.scene().last_move.is_some_and(|sq| sq == Square::D6 || sq == Square::F6));
    renders(&trainer);
}

#[test]
fn a_wrong_answer_shows_the_books_move_until_continue() {
    let dir = tempfile::tempdir().unwrap();
    let env = env(&dir, Some(book()), Position::INITIAL);
    let mut trainer = started(&env);
    let _ = click(&mut trainer, &env, Square::F5);
    let before = *trainer.session().unwrap().position();
    let wrong = wrong_move(&trainer);
    let _ = click(&mut trainer, &env, wrong);
    let feedback = trainer.feedback().unwrap().clone();
    assert!(!feedback.verdict.correct);
    assert_eq!(trainer.last_review().unwrap().answer, Answer::Wrong);
    assert_eq!(trainer.stage(), Stage::Correcting);
    // The board still shows the position asked, with the book's move marked as best.
    assert_eq!(trainer.scene().black | trainer.scene().white, before.black() | before.white());
    let best = feedback.verdict.best.square().unwrap();
    assert!(trainer.scene().hints.iter().any(|hint| hint.square == best && hint.best), "{:?}", trainer.scene().hints);
    assert!(!trainer.scene().hints.iter().any(|hint| hint.square == wrong && hint.best));
    renders(&trainer);
    // Clicks wait for Continue; then the line goes on with the book's move (here to its end, and again from the
    // beginning).
    let _ = trainer.update(Message::SquareClicked(best));
    assert_eq!(trainer.stage(), Stage::Correcting);
    assert_eq!(trainer.session().unwrap().summary().cards_done, 2);
    let _ = trainer.update(Message::Continue);
    assert_eq!(trainer.stage(), Stage::Asking);
    assert!(trainer.feedback().unwrap().line_done);
    assert_eq!(*trainer.session().unwrap().position(), Position::INITIAL);
    assert_eq!(trainer.lines(), 1);
    assert_eq!(trainer.scene().last_move, None, "the new line shows no move of the old one");
}

#[test]
fn answers_are_in_the_study_history() {
    let dir = tempfile::tempdir().unwrap();
    let env = env(&dir, Some(book()), Position::INITIAL);
    let since: DateTime<Utc> = Utc::now() - chrono::Duration::minutes(1);
    let mut trainer = started(&env);
    let _ = click(&mut trainer, &env, Square::F5);
    let asked = *trainer.session().unwrap().position();
    let wrong = wrong_move(&trainer);
    let _ = click(&mut trainer, &env, wrong);

    let store = StudyStore::open(&env.study_file).unwrap();
    let retention = store.card_retention(since, Utc::now() + chrono::Duration::minutes(1)).unwrap();
    assert_eq!((retention.answered, retention.right), (2, 1));
    let deck = trainer.deck().unwrap();
    let right = store.card_by_key(deck, &CardKey::of(&Position::INITIAL)).unwrap().unwrap();
    let wrong = store.card_by_key(deck, &CardKey::of(&asked)).unwrap().unwrap();
    let wait = |card: &shirokuro_engine::study::StoredCard| card.state.due - card.state.last_review.unwrap();
    assert_eq!((right.state.reps, wrong.state.reps), (1, 1));
    assert!(wait(&right) > wait(&wrong), "right: due later ({:?}); wrong: sooner ({:?})", wait(&right), wait(&wrong));
    let counts = trainer.counts().unwrap();
    assert_eq!((counts.total, counts.new, counts.learning), (3, 1, 2));
    let summary = trainer.session().unwrap().summary();
    assert_eq!((summary.cards_done, summary.right), (2, 1));
    assert_eq!(summary.retention, Some(0.5));

    // End keeps the summary and shows the setup again.
    let _ = trainer.update(Message::End);
    assert_eq!(trainer.stage(), Stage::Setup);
    assert_eq!(trainer.session().unwrap().summary().cards_done, 2);
    renders(&trainer);
}

#[test]
fn without_a_book_the_trainer_says_so() {
    let dir = tempfile::tempdir().unwrap();
    for (book, position, problem) in [
        (None, Position::INITIAL, StartError::NoBook),
        (Some(Book::new()), Position::INITIAL, StartError::NoBook),
        (Some(book()), at("f5f4"), StartError::OutOfBook),
    ] {
        let env = env(&dir, book, position);
        let (mut trainer, _task) = Trainer::new(env.clone());
        let _ = trainer.update(Message::Start);
        let built = job::build(env.book.as_ref(), &env.position, trainer.plan(), &env.lines);
        assert_eq!(built.as_ref().err(), Some(&problem));
        let _ = trainer.update(Message::Built(trainer.generation(), built.map(Arc::new)));
        assert_eq!(trainer.stage(), Stage::Setup);
        assert_eq!(trainer.problem(), Some(problem));
        assert!(trainer.session().is_none());
        // Clicks do nothing.
        let _ = trainer.update(Message::SquareClicked(Square::F5));
        renders(&trainer);
    }
}

#[test]
fn old_results_are_dropped_and_a_history_failure_is_told() {
    let dir = tempfile::tempdir().unwrap();
    let env = env(&dir, Some(book()), Position::INITIAL);
    let (mut trainer, _task) = Trainer::new(env.clone());
    let _ = trainer.update(Message::Start);
    let old = trainer.generation();
    let repertoire = Arc::new(job::build(env.book.as_ref(), &env.position, trainer.plan(), &env.lines).unwrap());
    // End while starting: the result of that start comes too late.
    let _ = trainer.update(Message::End);
    let _ = trainer.update(Message::Built(old, Ok(Arc::clone(&repertoire))));
    assert_eq!(trainer.stage(), Stage::Setup);

    // The study history cannot be used: the session runs all the same, and the user is told.
    let _ = trainer.update(Message::Start);
    let _ = trainer.update(Message::Built(trainer.generation(), Ok(repertoire)));
    let failure = HistoryError::Thread(IoFailure::from(std::io::Error::other("no thread")));
    let step = trainer.update(Message::Stored(trainer.generation(), Err(failure.clone())));
    assert!(step.notice_ref().is_some());
    assert_eq!(trainer.stage(), Stage::Asking);
    assert!(trainer.deck().is_none());
    let _ = trainer.update(Message::SquareClicked(Square::F5));
    assert!(trainer.feedback().unwrap().verdict.correct);
    assert!(trainer.last_review().is_none(), "no card to write");
    assert!(trainer.update(Message::Recorded(Err(failure))).notice_ref().is_some());
}

#[test]
fn the_settings_stay_in_their_ranges() {
    let dir = tempfile::tempdir().unwrap();
    let env = env(&dir, Some(book()), at("f5"));
    let (mut trainer, _task) = Trainer::new(env);
    assert_eq!(trainer.plan().side, Color::White, "White to move: White is trained");
    let _ = trainer.update(Message::Depth(99));
    let _ = trainer.update(Message::Error(9));
    let _ = trainer.update(Message::Variation(50));
    assert_eq!(trainer.plan(), Plan { side: Color::White, depth: 20, error: 6, variation: 10, ..Plan::default() });
    let _ = trainer.update(Message::Depth(0));
    assert_eq!(trainer.plan().depth, 4);
}

/// My lines (the forced openings that are on): the cards are the student's positions on them, from the initial
/// position whatever the board shows, in their own deck; the trainer answers with the lines' moves; no line gives
/// the message.
#[test]
fn my_lines_are_a_repertoire_of_their_own() {
    let dir = tempfile::tempdir().unwrap();
    let shown = parse_transcript("f5d6").unwrap().end;
    let mut env = env(&dir, None, shown);
    let line = |text: &str| parse_transcript(text).unwrap().moves;
    env.lines = vec![line("f5d6c3d3c4"), line("f5f6e6f4")];
    let (mut trainer, _task) = Trainer::new(env.clone());
    let _ = trainer.update(Message::Source(job::Source::MyLines));
    let _ = trainer.update(Message::Side(Color::Black));
    let _ = trainer.update(Message::Start);
    let repertoire = job::build(env.book.as_ref(), &env.position, trainer.plan(), &env.lines).unwrap();
    assert_eq!(repertoire.start(), &Position::INITIAL);
    // Black's positions: the start (f5), after f5 d6 (c3), after f5 d6 c3 d3 (c4), after f5 f6 (e6).
    assert_eq!(repertoire.cards().len(), 4);
    assert_eq!(trainer.plan().deck(&trainer.plan().start(&env.position)), "lines:black");
    let repertoire = Arc::new(repertoire);
    let _ = trainer.update(Message::Built(trainer.generation(), Ok(Arc::clone(&repertoire))));
    let mut store = StudyStore::open(&env.study_file).unwrap();
    let deck = job::store_cards(&mut store, "lines:black", &repertoire, Utc::now()).unwrap();
    let _ = trainer.update(Message::Stored(trainer.generation(), Ok(Arc::new(deck))));
    assert_eq!(trainer.stage(), Stage::Asking);
    assert_eq!(trainer.session().unwrap().position(), &Position::INITIAL);
    let _ = click(&mut trainer, &env, Square::F5);
    let after = *trainer.session().unwrap().position();
    assert!(after == parse_transcript("f5d6").unwrap().end || after == parse_transcript("f5f6").unwrap().end);
    // No line at all: the message; a line with an illegal move: the other message.
    env.lines.clear();
    let none = job::build(env.book.as_ref(), &env.position, trainer.plan(), &env.lines);
    assert_eq!(none.unwrap_err(), job::StartError::NoLines);
    env.lines = vec![line("f5d6"), vec![Move::Place(Square::A1)]];
    let bad = job::build(env.book.as_ref(), &env.position, trainer.plan(), &env.lines);
    assert_eq!(bad.unwrap_err(), job::StartError::BadLine);
}
