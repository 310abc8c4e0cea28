//! The study history survives SIGKILL: every answer acknowledged to the student is on disk, none is half-written, and
//! the file passes SQLite's integrity check.
//!
//! The test runs its own test binary again as a child (selected by [`CHILD_ENV`]) that records answers in a loop and
//! prints `ack N` after each commit; the parent reads some acknowledgements, kills the child with SIGKILL
//! (`Child::kill`), reopens the file and checks it, and does so for a few rounds on the same file.
#![cfg(unix)]

use std::collections::HashSet;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};

use chrono::{DateTime, Duration, Utc};
use shirokuro_engine::notation::parse_transcript;
use shirokuro_engine::study::store::{CardId, NewCard, QuizRecord, StudyStore};
use shirokuro_engine::study::{Answer, Rating, rating};
use shirokuro_engine::{Move, Square};

/// Set (to the store's path) in the child's environment.
const CHILD_ENV: &str = "SHIROKURO_STUDY_KILL_CHILD";
/// Cards the child answers in turn.
const CARDS: i64 = 5;
/// The deck.
const DECK: &str = "kill";

fn base() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2025-03-01T09:00:00Z").unwrap().with_timezone(&Utc)
}

/// The time of answer `i` (one second apart, so each answer is told by its time).
fn time_of(i: i64) -> DateTime<Utc> {
    base() + Duration::seconds(i)
}

fn quiz_record(i: i64, rating: Rating) -> QuizRecord {
    QuizRecord {
        time: time_of(i),
        position: parse_transcript("f5d6c3d3c4").unwrap().end,
        answer: Move::Place(Square::F4),
        correct: i % 3 != 0,
        points: u32::try_from(i).unwrap(),
        difficulty: 1400.0,
        rating,
    }
}

/// The child: records answers (a card review, then a quiz answer, each its own transaction) from the number of quiz
/// answers already stored, printing `ack N` after answer N is committed. Does nothing in a normal test run.
#[test]
fn child_records_answers() {
    let Ok(path) = std::env::var(CHILD_ENV) else { return };
    let mut store = StudyStore::open(&path).unwrap();
    let first = i64::try_from(store.recent_quiz_answers(usize::MAX).unwrap().len()).unwrap();
    let mut rating = store.latest_rating().unwrap().unwrap_or_default();
    let mut out = std::io::stdout().lock();
    // Bounded, so that a child whose parent died stops by itself (its next write fails first anyway).
    for i in first..first + 100_000 {
        let id = CardId(1 + i % CARDS);
        let card = store.card(id).unwrap().unwrap();
        let answer = if i % 3 == 0 { Answer::Wrong } else { Answer::Right };
        let state = card.state.review(answer, time_of(i));
        store.record_card_review(id, answer, &state, time_of(i)).unwrap();
        rating = rating::update(rating, 1400.0, answer.is_correct());
        let _id = store.record_quiz_answer(&quiz_record(i, rating)).unwrap();
        writeln!(out, "ack {i}").unwrap();
        out.flush().unwrap();
    }
}

/// Starts the child on `path`, reads `acks` acknowledgements, kills it; returns the acknowledged answers.
fn run_and_kill(path: &Path, acks: usize) -> Vec<i64> {
    let exe = std::env::current_exe().unwrap();
    let mut child = Command::new(exe)
        .args(["--exact", "child_records_answers", "--nocapture", "--test-threads=1"])
        .env(CHILD_ENV, path)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut acked = Vec::new();
    while acked.len() < acks {
        let line = lines.next().expect("the child ended before acknowledging enough answers").unwrap();
        if let Some(n) = line.strip_prefix("ack ") {
            acked.push(n.parse().unwrap());
        }
    }
    child.kill().unwrap();
    let status = child.wait().unwrap();
    assert!(!status.success(), "the child was killed, not finished: {status:?}");
    acked
}

#[test]
fn every_acknowledged_answer_survives_sigkill() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("study.sqlite");
    {
        let mut store = StudyStore::open(&path).unwrap();
        let lines = ["f5", "f5d6", "f5d6c3", "f5f6", "f5f4"];
        let cards: Vec<NewCard> = lines
            .iter()
            .map(|line| {
                let position = parse_transcript(line).unwrap().end;
                let mv = position.board.moves().into_iter().next().map(Move::Place).unwrap();
                NewCard::new(&position, &[mv], mv)
            })
            .collect();
        let ids = store.add_cards(DECK, &cards, base()).unwrap();
        assert_eq!(ids, (1..=CARDS).map(CardId).collect::<Vec<_>>());
    }
    let mut all_acked = Vec::new();
    for round in 0..4 {
        let acked = run_and_kill(&path, 15 + 10 * round);
        all_acked.extend(acked);
        let store = StudyStore::open(&path).unwrap();
        assert_eq!(store.integrity_check().unwrap(), "ok", "round {round}");

        // Every acknowledged answer is there: its card review and its quiz answer.
        let quiz = store.recent_quiz_answers(usize::MAX).unwrap();
        let quiz_points: HashSet<i64> = quiz.iter().map(|r| i64::from(r.points)).collect();
        let review_times: HashSet<DateTime<Utc>> = (1..=CARDS).flat_map(|id| reviews_of(&path, id)).collect();
        for &i in &all_acked {
            assert!(quiz_points.contains(&i), "round {round}: quiz answer {i} lost");
            assert!(review_times.contains(&time_of(i)), "round {round}: card review {i} lost");
        }
        // None is half-written: each quiz answer is whole (it decodes, its fields agree with its index), and each
        // card's schedule has counted exactly the reviews stored for it.
        for record in &quiz {
            assert_eq!(*record, quiz_record(i64::from(record.points), record.rating), "round {round}");
        }
        let mut indices: Vec<i64> = quiz_points.into_iter().collect();
        indices.sort_unstable();
        assert_eq!(indices, (0..i64::try_from(indices.len()).unwrap()).collect::<Vec<_>>(), "round {round}");
        for id in 1..=CARDS {
            let card = store.card(CardId(id)).unwrap().unwrap();
            assert_eq!(i64::from(card.state.reps), i64::try_from(reviews_of(&path, id).len()).unwrap());
        }
    }
}

/// The times of the stored reviews of card `id`, read with SQLite directly.
fn reviews_of(path: &Path, id: i64) -> Vec<DateTime<Utc>> {
    let conn = rusqlite::Connection::open(path).unwrap();
    let mut statement = conn.prepare("SELECT time FROM card_reviews WHERE card = ?1").unwrap();
    statement
        .query_map([id], |row| row.get::<_, i64>(0))
        .unwrap()
        .map(|millis| DateTime::from_timestamp_millis(millis.unwrap()).unwrap())
        .collect()
}
