//! Operate ▸ Best-Move Quiz and Display ▸ Study Progress through `update()`: the engine's positions are injected as
//! the messages the quiz's threads send; the study history is a real file in a temporary folder.

use std::sync::Arc;

use iced::futures::executor::block_on;
use shirokuro::i18n::Language;
use shirokuro::settings::BoardStyle;
use shirokuro::study::history::{self, ProgressData};
use shirokuro::study::progress::{self, Progress};
use shirokuro::study::quiz::{AHEAD, Message, Quiz, QuizSettings, Stage};
use shirokuro::study::{Env, STUDY_FILE};
use shirokuro_engine::eval::Weights;
use shirokuro_engine::notation::parse_transcript;
use shirokuro_engine::study::{QuizAnswers, QuizRecord, Rating};
use shirokuro_engine::{Move, Position};

fn env(dir: &std::path::Path) -> Env {
    Env {
        study_file: dir.join(STUDY_FILE),
        weights_file: dir.join("missing.skw"),
        book: None,
        position: Position::INITIAL,
        lines: Vec::new(),
        style: BoardStyle::Green,
    }
}

/// A position after `line` whose first legal move is the best (+4), the others −2.
fn answers(line: &str) -> QuizAnswers {
    let position = parse_transcript(line).unwrap().end;
    let values: Vec<(Move, i32)> = position
        .board
        .moves()
        .into_iter()
        .enumerate()
        .map(|(i, square)| (Move::Place(square), if i == 0 { 4 } else { -2 }))
        .collect();
    QuizAnswers::from_values(position, values, true).unwrap()
}

const LINES: [&str; 5] = ["f5d6c3d3c4", "f5f6e6f4e3", "f5f4e3f6d3", "f5d6c5f4e3", "f5d6c3d3c4f4"];

/// A started quiz: rating read, weights read (which asks for positions).
fn started(dir: &std::path::Path) -> Quiz {
    let (mut quiz, _read) = Quiz::new(env(dir));
    assert_eq!(quiz.stage(), &Stage::Starting);
    let _ = quiz.update(Message::RatingRead(Ok(Rating::default())));
    let _ = quiz.update(Message::WeightsRead(Ok(Arc::new(Weights::zero()))));
    assert_eq!(quiz.making(), AHEAD, "positions are made ahead");
    quiz
}

fn square_of(mv: Move) -> shirokuro_engine::Square {
    let Move::Place(square) = mv else { panic!("a pass") };
    square
}

#[test]
fn answers_are_judged_scored_and_the_next_position_is_ready_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let mut quiz = started(dir.path());
    let first = answers(LINES[0]);
    let best = first.best_moves[0];
    let _ = quiz.update(Message::Made(0, Ok(first.clone())));
    assert_eq!(quiz.stage(), &Stage::Asking);
    let _ = quiz.update(Message::Made(0, Ok(answers(LINES[1]))));
    let _ = quiz.update(Message::SquareClicked(square_of(best)));
    let Stage::Answered(outcome, played) = quiz.stage().clone() else { panic!("answered") };
    assert!(outcome.correct && outcome.points > 0 && outcome.streak == 1, "{outcome:?}");
    assert_eq!(played, best);
    assert!(outcome.rating_after.rating > outcome.rating_before.rating);
    // A click after the answer does nothing; Next shows the position made meanwhile, without waiting.
    let _ = quiz.update(Message::SquareClicked(square_of(best)));
    let _ = quiz.update(Message::Next);
    assert_eq!(quiz.stage(), &Stage::Asking);
    assert!(quiz.waits().last().unwrap().as_millis() < 300, "{:?}", quiz.waits());
    // A wrong answer: no points, the streak ends, and the best moves are told.
    let wrong = answers(LINES[1]).values[1].0;
    let _ = quiz.update(Message::SquareClicked(square_of(wrong)));
    let Stage::Answered(outcome, _) = quiz.stage().clone() else { panic!("answered") };
    assert!(!outcome.correct && outcome.points == 0 && outcome.streak == 0);
    assert_eq!(outcome.best_moves, answers(LINES[1]).best_moves);
    // Nothing ready: Next waits, and the position made next is asked at once.
    let _ = quiz.update(Message::Next);
    assert_eq!(quiz.stage(), &Stage::Waiting);
    let _ = quiz.update(Message::Made(0, Ok(answers(LINES[2]))));
    assert_eq!(quiz.stage(), &Stage::Asking);
    let summary = quiz.session().unwrap().summary();
    assert_eq!((summary.answered, summary.right, summary.best_streak), (2, 1, 1));
}

#[test]
fn a_wrong_position_comes_back_and_repeats_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut quiz = started(dir.path());
    for line in LINES {
        let _ = quiz.update(Message::Made(0, Ok(answers(line))));
    }
    // The same position again (mirrored or not) is not asked twice.
    let _ = quiz.update(Message::Made(0, Ok(answers(LINES[0]))));
    let mut asked = Vec::new();
    for round in 0..4 {
        let session = quiz.session().unwrap();
        let current = session.current().unwrap().clone();
        asked.push(current.position);
        let mv = if round == 0 { current.values[1].0 } else { current.best_moves[0] };
        let _ = quiz.update(Message::SquareClicked(square_of(mv)));
        let _ = quiz.update(Message::Next);
    }
    let retry = quiz.session().unwrap().current().unwrap().position;
    assert_eq!(retry, asked[0], "the wrong one is asked again after three others");
    assert_eq!(asked.iter().filter(|p| **p == asked[0]).count(), 1);
}

#[test]
fn new_settings_start_a_new_session_and_drop_positions_made_for_the_old_one() {
    let dir = tempfile::tempdir().unwrap();
    let mut quiz = started(dir.path());
    let _ = quiz.update(Message::Empties(30));
    assert_eq!(quiz.settings(), QuizSettings { empties: 30, ..QuizSettings::default() });
    let _ = quiz.update(Message::Made(0, Ok(answers(LINES[0]))));
    assert_ne!(quiz.stage(), &Stage::Asking, "made for the old settings");
    let _ = quiz.update(Message::Made(1, Ok(answers(LINES[1]))));
    assert_eq!(quiz.stage(), &Stage::Asking);
}

#[test]
fn the_history_keeps_answers_and_the_progress_screen_draws_them() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(STUDY_FILE);
    let position = parse_transcript(LINES[0]).unwrap().end;
    let mut rating = Rating::default();
    for (i, correct) in [true, true, false].into_iter().enumerate() {
        rating.rating += if correct { 20.0 } else { -15.0 };
        let record = QuizRecord {
            time: chrono::Utc::now() - chrono::Duration::minutes(10 - i as i64),
            position,
            answer: answers(LINES[0]).best_moves[0],
            correct,
            points: 10,
            difficulty: 1500.0,
            rating,
        };
        block_on(history::record_quiz(file.clone(), record)).unwrap();
    }
    assert_eq!(block_on(history::rating(file.clone())).unwrap(), rating, "the next quiz starts from the last rating");
    let now = chrono::Utc::now() + chrono::Duration::minutes(1);
    let data = block_on(history::progress(file.clone(), now - chrono::Duration::days(1), now, 0)).unwrap();
    assert_eq!(data.ratings.len(), 3);
    let day = data.days.last().unwrap();
    assert_eq!((day.quiz.answered, day.quiz.right), (3, 2));
    let (mut screen, _read) = Progress::new(&env(dir.path()));
    let _ = screen.update(progress::Message::Read(Ok(data.clone())));
    assert_eq!(screen.data(), Some(&data));
    let _view = screen.view(Language::Japanese.strings());
    // An unreadable history: a notice, and an empty screen rather than a crash.
    std::fs::write(dir.path().join("bad.sqlite"), b"not a database").unwrap();
    let failed = block_on(history::rating(dir.path().join("bad.sqlite")));
    assert!(failed.is_err());
    let (mut screen, _read) = Progress::new(&env(dir.path()));
    let step = screen.update(progress::Message::Read(Err(failed.unwrap_err())));
    assert!(step.notice_ref().is_some());
    assert_eq!(screen.data(), Some(&ProgressData::default()));
}
