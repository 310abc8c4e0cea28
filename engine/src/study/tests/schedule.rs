//! The FSRS schedule through our vocabulary, with a fake clock.

use chrono::{DateTime, Duration, Utc};

use crate::study::schedule::{Answer, CardPhase, CardState, Clock, FakeClock, SystemClock, review};

fn start() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2025-03-01T09:00:00Z").unwrap().with_timezone(&Utc)
}

#[test]
fn a_right_answer_is_due_later_than_before_and_than_a_wrong_one() {
    let clock = FakeClock::new(start());
    let card = CardState::new(clock.now());
    assert!(card.is_due(clock.now()));
    let right = review(&card, Answer::Right, clock.now());
    let wrong = review(&card, Answer::Wrong, clock.now());
    assert!(right.due > card.due);
    assert!(right.due > wrong.due, "right {} wrong {}", right.due, wrong.due);
    assert_eq!((right.reps, right.last_review), (1, Some(clock.now())));
    assert_ne!(right.phase, CardPhase::New);
}

#[test]
fn a_wrong_answer_comes_back_within_a_day() {
    let clock = FakeClock::new(start());
    let mut card = CardState::new(clock.now());
    // Learn the card until it is due after days, then forget it.
    for _ in 0..4 {
        card = card.review(Answer::Right, clock.now());
        clock.set(card.due);
    }
    assert_eq!(card.phase, CardPhase::Review);
    assert!(card.due - card.last_review.unwrap() >= Duration::days(1));
    let wrong = card.review(Answer::Wrong, clock.now());
    assert!(wrong.due > clock.now());
    assert!(wrong.due - clock.now() < Duration::days(1), "due after {}", wrong.due - clock.now());
    assert_eq!(wrong.phase, CardPhase::Relearning);
    assert_eq!(wrong.lapses, card.lapses + 1);
}

#[test]
fn repeated_right_answers_grow_the_interval() {
    let clock = FakeClock::new(start());
    let mut card = CardState::new(clock.now());
    let mut intervals = Vec::new();
    for _ in 0..8 {
        card = card.review(Answer::Right, clock.now());
        intervals.push(card.due - clock.now());
        clock.set(card.due);
    }
    assert!(intervals.windows(2).all(|w| w[1] >= w[0]), "{intervals:?}");
    assert!(intervals.last().unwrap() > &Duration::days(30), "{intervals:?}");
    assert!(intervals.first().unwrap() < &Duration::hours(1), "{intervals:?}");
}

#[test]
fn answers_rank_from_wrong_to_easy() {
    let now = start();
    let card = CardState::new(now).review(Answer::Right, now);
    let later = card.due;
    let dues: Vec<DateTime<Utc>> = Answer::ALL.iter().map(|answer| card.review(*answer, later).due).collect();
    assert!(dues.windows(2).all(|w| w[0] <= w[1]), "{dues:?}");
    assert!(dues[0] < dues[3]);
    for answer in Answer::ALL {
        assert_eq!(Answer::from_code(answer.code()), Some(answer));
    }
    assert_eq!(Answer::from_code(0), None);
    for phase in [CardPhase::New, CardPhase::Learning, CardPhase::Review, CardPhase::Relearning] {
        assert_eq!(CardPhase::from_code(phase.code()), Some(phase));
    }
    assert!(!Answer::Wrong.is_correct() && Answer::Hard.is_correct());
}

#[test]
fn the_fake_clock_moves_only_when_told() {
    let clock = FakeClock::new(start());
    assert_eq!(clock.now(), start());
    clock.advance(Duration::minutes(90));
    assert_eq!(clock.now(), start() + Duration::minutes(90));
    clock.set(start());
    assert_eq!(clock.now(), start());
    assert!(SystemClock.now() > start());
}
