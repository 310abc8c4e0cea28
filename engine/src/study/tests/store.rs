//! The study history: round trips, one transaction per answer, the queries.

use chrono::{DateTime, Duration, NaiveDate, Utc};

use crate::board::Move;
use crate::notation::parse_transcript;
use crate::square::Square;
use crate::study::rating::{Rating, update};
use crate::study::schedule::{Answer, CardPhase, CardState};
use crate::study::store::{CardId, NewCard, QuizRecord, StudyError, StudyStore};

fn start() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2025-03-01T09:00:00Z").unwrap().with_timezone(&Utc)
}

fn card(transcript: &str, moves: &[Square]) -> NewCard {
    let position = parse_transcript(transcript).unwrap().end;
    let moves: Vec<Move> = moves.iter().map(|s| Move::Place(*s)).collect();
    NewCard::new(&position, &moves, moves[0])
}

fn quiz(time: DateTime<Utc>, correct: bool, rating: Rating) -> QuizRecord {
    QuizRecord {
        time,
        position: parse_transcript("f5d6c3d3c4").unwrap().end,
        answer: Move::Place(Square::F4),
        correct,
        points: if correct { 12 } else { 0 },
        difficulty: 1500.0,
        rating,
    }
}

#[test]
fn cards_round_trip_and_keep_their_schedule_when_added_again() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("study.sqlite");
    let mut store = StudyStore::open(&path).unwrap();
    let cards = [card("f5", &[Square::D6, Square::F6]), card("f5d6c3", &[Square::D3])];
    let ids = store.add_cards("tiger", &cards, start()).unwrap();
    assert_eq!(ids.len(), 2);
    let stored = store.card(ids[0]).unwrap().unwrap();
    assert_eq!((stored.deck.as_str(), stored.key, &stored.expected), ("tiger", cards[0].key, &cards[0].expected));
    assert_eq!((stored.best, stored.created, stored.state), (cards[0].best, start(), CardState::new(start())));
    let next = stored.state.review(Answer::Right, start());
    store.record_card_review(ids[0], Answer::Right, &next, start()).unwrap();
    drop(store);

    let mut store = StudyStore::open(&path).unwrap();
    assert_eq!(store.card(ids[0]).unwrap().unwrap().state, next);
    // The same position in another orientation is the same card: its schedule stays, its moves are replaced.
    let rotated = card("c4", &[Square::C3]);
    assert_eq!(rotated.key, cards[0].key);
    let again = store.add_cards("tiger", std::slice::from_ref(&rotated), start() + Duration::days(1)).unwrap();
    assert_eq!(again, vec![ids[0]]);
    let stored = store.card(ids[0]).unwrap().unwrap();
    assert_eq!((stored.state, stored.expected), (next, rotated.expected));
    assert_eq!(store.card_by_key("tiger", &cards[1].key).unwrap().unwrap().id, ids[1]);
    assert_eq!(store.card_by_key("rose", &cards[1].key).unwrap(), None);
    assert_eq!(store.card(CardId(999)).unwrap(), None);
    assert_eq!(store.decks().unwrap(), vec!["tiger".to_owned()]);
    assert_eq!(store.integrity_check().unwrap(), "ok");
}

#[test]
fn due_cards_come_in_due_order_and_counts_follow_the_answers() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = StudyStore::open(dir.path().join("study.sqlite")).unwrap();
    let cards = [card("f5", &[Square::D6]), card("f5d6", &[Square::C3]), card("f5d6c3", &[Square::D3])];
    let ids = store.add_cards("tiger", &cards, start()).unwrap();
    let _other = store.add_cards("rose", &[card("f5f6", &[Square::E6])], start()).unwrap();
    let counts = store.card_counts("tiger", start()).unwrap();
    assert_eq!((counts.new, counts.learning, counts.due, counts.total), (3, 0, 0, 3));
    assert_eq!(store.due_cards("tiger", start(), 10).unwrap().len(), 3);
    assert_eq!(store.due_cards("tiger", start(), 2).unwrap().len(), 2);

    let now = start() + Duration::minutes(1);
    let wrong = CardState::new(start()).review(Answer::Wrong, now);
    let right = CardState::new(start()).review(Answer::Easy, now);
    store.record_card_review(ids[0], Answer::Wrong, &wrong, now).unwrap();
    store.record_card_review(ids[1], Answer::Easy, &right, now).unwrap();
    let due: Vec<CardId> = store.due_cards("tiger", now, 10).unwrap().into_iter().map(|c| c.id).collect();
    assert_eq!(due, vec![ids[2]]);
    let later = wrong.due + Duration::seconds(1);
    let due: Vec<CardId> = store.due_cards("tiger", later, 10).unwrap().into_iter().map(|c| c.id).collect();
    assert_eq!(due, vec![ids[2], ids[0]], "the new card since the start, then the wrong one");
    let counts = store.card_counts("tiger", later).unwrap();
    assert_eq!((counts.new, counts.learning, counts.due, counts.total), (1, 1, 1, 3));
    assert_eq!(store.next_due("tiger").unwrap(), Some(start()));
    assert_eq!(store.next_due("none").unwrap(), None);
    let retention = store.card_retention(start(), later).unwrap();
    assert_eq!((retention.answered, retention.right, retention.ratio()), (2, 1, Some(0.5)));
    assert_eq!(store.card_retention(later, later + Duration::days(1)).unwrap().ratio(), None);
    assert_eq!(store.card(ids[1]).unwrap().unwrap().state.phase, CardPhase::Review);
}

#[test]
fn an_answer_to_an_unknown_card_stores_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = StudyStore::open(dir.path().join("study.sqlite")).unwrap();
    let state = CardState::new(start()).review(Answer::Right, start());
    let error = store.record_card_review(CardId(42), Answer::Right, &state, start()).unwrap_err();
    assert!(matches!(error, StudyError::UnknownCard { id: 42, .. }), "{error}");
    assert!(error.to_string().contains("study.sqlite"), "{error}");
    assert_eq!(store.card_retention(start(), start() + Duration::days(1)).unwrap().answered, 0);
}

#[test]
fn quiz_answers_give_the_rating_and_its_series() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = StudyStore::open(dir.path().join("study.sqlite")).unwrap();
    assert_eq!(store.latest_rating().unwrap(), None);
    let mut rating = Rating::default();
    let mut expected = Vec::new();
    for (i, correct) in [true, true, false, true].into_iter().enumerate() {
        rating = update(rating, 1500.0, correct);
        let time = start() + Duration::minutes(i64::try_from(i).unwrap());
        let _id = store.record_quiz_answer(&quiz(time, correct, rating)).unwrap();
        expected.push(rating);
    }
    assert_eq!(store.latest_rating().unwrap(), Some(rating));
    let series = store.rating_series(start(), start() + Duration::days(1)).unwrap();
    assert_eq!(series.iter().map(|p| p.rating).collect::<Vec<_>>(), expected);
    assert_eq!(series[1].time, start() + Duration::minutes(1));
    let recent = store.recent_quiz_answers(2).unwrap();
    assert_eq!(recent.len(), 2);
    assert_eq!(recent[0], quiz(start() + Duration::minutes(3), true, rating));
    let retention = store.quiz_retention(start(), start() + Duration::days(1)).unwrap();
    assert_eq!((retention.answered, retention.right), (4, 3));
}

#[test]
fn progress_is_counted_per_local_day() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = StudyStore::open(dir.path().join("study.sqlite")).unwrap();
    let ids = store.add_cards("tiger", &[card("f5", &[Square::D6])], start()).unwrap();
    let mut state = CardState::new(start());
    // 09:00 UTC on 1 March, and 23:30 UTC on 1 March, which is 2 March in Tokyo (UTC+9).
    for (time, answer) in [(start(), Answer::Right), (start() + Duration::minutes(870), Answer::Wrong)] {
        state = state.review(answer, time);
        store.record_card_review(ids[0], answer, &state, time).unwrap();
    }
    let _id = store.record_quiz_answer(&quiz(start(), false, Rating::default())).unwrap();
    let day = |d| NaiveDate::from_ymd_opt(2025, 3, d).unwrap();
    let range = (start() - Duration::days(1), start() + Duration::days(2));
    let utc = store.daily_progress(range.0, range.1, 0).unwrap();
    assert_eq!(utc.len(), 1);
    assert_eq!((utc[0].day, utc[0].cards.answered, utc[0].cards.right), (day(1), 2, 1));
    assert_eq!((utc[0].quiz.answered, utc[0].quiz.right), (1, 0));
    let tokyo = store.daily_progress(range.0, range.1, 9 * 3600).unwrap();
    let summary: Vec<(NaiveDate, u64, u64)> =
        tokyo.iter().map(|d| (d.day, d.cards.answered, d.quiz.answered)).collect();
    assert_eq!(summary, vec![(day(1), 1, 1), (day(2), 1, 0)]);
}

#[test]
fn other_files_are_refused_with_their_path() {
    let dir = tempfile::tempdir().unwrap();
    let text = dir.path().join("notes.txt");
    std::fs::write(&text, "not a database, but long enough to have a header of one hundred bytes or so, truly...")
        .unwrap();
    let error = StudyStore::open(&text).unwrap_err();
    assert!(matches!(error, StudyError::NotAStudyFile { .. }), "{error}");
    assert!(error.to_string().contains("notes.txt"), "{error}");

    let other = dir.path().join("other.sqlite");
    let conn = rusqlite::Connection::open(&other).unwrap();
    conn.execute_batch("CREATE TABLE t (x INTEGER);").unwrap();
    drop(conn);
    assert!(matches!(StudyStore::open(&other), Err(StudyError::NotAStudyFile { .. })));

    let newer = dir.path().join("newer.sqlite");
    drop(StudyStore::open(&newer).unwrap());
    let conn = rusqlite::Connection::open(&newer).unwrap();
    conn.execute_batch("PRAGMA user_version = 99;").unwrap();
    drop(conn);
    assert!(matches!(StudyStore::open(&newer), Err(StudyError::UnsupportedVersion { found: 99, .. })));
}
