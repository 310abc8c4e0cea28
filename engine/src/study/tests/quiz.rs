//! The quiz: the answers of a known endgame, and the session's rules.

use std::sync::Arc;

use crate::board::Move;
use crate::eval::Weights;
use crate::level::Level;
use crate::notation::parse_transcript;
use crate::position::Position;
use crate::rng::GameRng;
use crate::search::{SolveMode, SolveOptions, Solver};
use crate::square::Square;
use crate::study::quiz::{QuizAnswers, QuizError, QuizSession, QuizSource, RETRY_AFTER, answers};
use crate::study::rating::Rating;
use crate::think::Thinker;

fn thinker() -> Thinker {
    Thinker::new(Arc::new(Weights::zero()), SolveOptions::default().with_threads(1).with_hash_level(16)).unwrap()
}

/// A position reached by random legal moves with `empties` empty squares and a move to play.
fn random_position(seed: u64, empties: u32) -> Position {
    let mut rng = GameRng::new(seed);
    'game: loop {
        let mut position = Position::INITIAL;
        while position.board.empty_count() > empties {
            if position.board.is_game_over() {
                continue 'game;
            }
            let moves: Vec<Square> = position.board.moves().into_iter().collect();
            let mv = if moves.is_empty() { Move::Pass } else { Move::Place(moves[rng.below(moves.len())]) };
            position = position.play(mv).unwrap();
        }
        if position.board.moves().count() >= 2 {
            return position;
        }
    }
}

/// A position with hand-made values, for the session's tests.
fn question(transcript: &str, values: &[(Square, i32)]) -> QuizAnswers {
    let position = parse_transcript(transcript).unwrap().end;
    let values = values.iter().map(|(s, v)| (Move::Place(*s), *v)).collect();
    QuizAnswers::from_values(position, values, true).unwrap()
}

/// Six different positions, each with a best move (the first) and a worse one (the second).
fn questions() -> Vec<QuizAnswers> {
    ["f5", "f5d6", "f5f6", "f5f4", "f5d6c3", "f5d6c5"]
        .iter()
        .map(|line| {
            let position = parse_transcript(line).unwrap().end;
            let moves: Vec<Square> = position.board.moves().into_iter().collect();
            let values: Vec<(Square, i32)> =
                moves.iter().enumerate().map(|(i, s)| (*s, if i == 0 { 4 } else { -2 })).collect();
            question(line, &values)
        })
        .collect()
}

fn best(q: &QuizAnswers) -> Move {
    q.best_moves[0]
}

fn worse(q: &QuizAnswers) -> Move {
    q.values.iter().find(|(mv, _)| !q.is_best(*mv)).unwrap().0
}

#[test]
fn the_answers_of_a_small_endgame_match_the_solver() {
    let thinker = thinker();
    let solver = Solver::new(SolveOptions::default().with_threads(1).with_hash_level(16)).unwrap();
    assert_eq!(Level::MAX.exact_from(), 60, "answers solve through Level::MAX");
    for seed in [1, 2, 3] {
        let position = random_position(seed, 10);
        let found = answers(&thinker, &position, 12, Level::new(4).unwrap()).unwrap();
        assert!(found.exact);
        let solved: Vec<(Move, i32)> = position
            .board
            .moves()
            .into_iter()
            .map(|s| {
                (Move::Place(s), -solver.solve(&position.board.play(Move::Place(s)).unwrap(), SolveMode::Exact).score)
            })
            .collect();
        assert_eq!(found.values, solved, "seed {seed}");
        let top = solved.iter().map(|(_, v)| *v).max().unwrap();
        let best: Vec<Move> = solved.iter().filter(|(_, v)| *v == top).map(|(mv, _)| *mv).collect();
        assert_eq!((found.best_moves.clone(), found.best_value), (best, top), "seed {seed}");
        assert_eq!(found.stats.empties, 10);
        assert_eq!(usize::from(found.stats.moves), solved.len());
        assert!(found.difficulty > 0.0);
    }
}

#[test]
fn a_midgame_position_is_searched_not_solved() {
    let position = random_position(7, 40);
    let found = answers(&thinker(), &position, 12, Level::new(3).unwrap()).unwrap();
    assert!(!found.exact);
    assert_eq!(found.values.len(), position.board.moves().into_iter().count());
    assert!(found.best_moves.iter().all(|mv| found.value_of(*mv) == Some(found.best_value)));
}

#[test]
fn generated_endgame_positions_have_the_empties_asked_and_a_move() {
    let thinker = thinker();
    let source = QuizSource::Endgame { min_empties: 12, max_empties: 14, level: Level::new(1).unwrap() };
    let mut rng = GameRng::new(5);
    for _ in 0..3 {
        let position = source.generate(&thinker, &mut rng).unwrap();
        assert!((12..=14).contains(&position.board.empty_count()), "{}", position.board.empty_count());
        assert!(position.board.has_moves());
    }
}

#[test]
fn right_answers_score_with_difficulty_and_streak() {
    let mut session = QuizSession::new(Rating::default());
    let qs = questions();
    for q in &qs {
        assert!(session.offer(q.clone()));
    }
    let mut last_points = 0;
    for streak in 1..=3 {
        let q = session.ask().unwrap().clone();
        let outcome = session.answer(best(&q)).unwrap();
        assert!(outcome.correct);
        assert_eq!(outcome.streak, streak);
        assert!(outcome.points >= 1);
        assert!(outcome.rating_after.rating > outcome.rating_before.rating);
        if streak > 1 {
            // Same difficulty here (same values, near empties): the streak alone raises the points.
            assert!(outcome.points + 1 >= last_points, "{} then {}", last_points, outcome.points);
        }
        last_points = outcome.points;
    }
    let q = session.ask().unwrap().clone();
    let outcome = session.answer(worse(&q)).unwrap();
    assert!(!outcome.correct);
    assert_eq!((outcome.points, outcome.streak), (0, 0));
    assert!(outcome.rating_after.rating < outcome.rating_before.rating);
    assert_eq!(outcome.best_moves, q.best_moves);
    let summary = session.summary();
    assert_eq!((summary.answered, summary.right, summary.best_streak), (4, 3, 3));
    assert!(summary.points >= 3);
    assert_eq!(summary.rating_end, session.rating());
    assert!((summary.rating_change() - (session.rating().rating - 1500.0)).abs() < 1e-9);
}

#[test]
fn harder_positions_score_more() {
    let easy = question("f5", &[(Square::D6, 30), (Square::F6, -10), (Square::F4, -10)]);
    let line = "f5d6c3d3c4f4f6f3e6e7";
    let moves: Vec<Square> = parse_transcript(line).unwrap().end.board.moves().into_iter().collect();
    assert!(moves.len() > 3);
    let values: Vec<(Square, i32)> = moves.iter().enumerate().map(|(i, s)| (*s, i32::from(i == 0))).collect();
    let hard = question(line, &values);
    assert!(hard.difficulty > easy.difficulty);
    let score = |q: &QuizAnswers| {
        let mut session = QuizSession::new(Rating::default());
        assert!(session.offer(q.clone()));
        let _ = session.ask().unwrap();
        session.answer(best(q)).unwrap().points
    };
    assert!(score(&hard) > score(&easy));
}

#[test]
fn positions_are_never_repeated_and_wrong_ones_come_back_after_three_others() {
    let mut session = QuizSession::new(Rating::default());
    let qs = questions();
    for q in &qs {
        assert!(session.offer(q.clone()));
    }
    // The same position again, and turned by 180 degrees (c4 is f5 turned), is refused.
    assert!(!session.offer(qs[0].clone()));
    assert!(!session.offer(question("c4", &[(Square::C3, 1)])));
    assert_eq!(session.queued(), qs.len());

    let first = session.ask().unwrap().clone();
    assert_eq!(first.position, qs[0].position);
    let outcome = session.answer(worse(&first)).unwrap();
    assert!(!outcome.retry);
    let mut asked = Vec::new();
    for _ in 0..RETRY_AFTER + 1 {
        let q = session.ask().unwrap().clone();
        asked.push(q.position);
        let _ = session.answer(best(&q)).unwrap();
    }
    assert_eq!(&asked[..RETRY_AFTER], &[qs[1].position, qs[2].position, qs[3].position]);
    assert_eq!(asked[RETRY_AFTER], first.position, "the wrong one comes back after {RETRY_AFTER} others");
    assert_eq!(session.retries_waiting(), 0);
}

#[test]
fn a_retry_keeps_the_rating_and_scores_half() {
    let mut session = QuizSession::new(Rating::default()).with_retry_after(0);
    let q = questions().remove(0);
    assert!(session.offer(q.clone()));
    let _ = session.ask().unwrap();
    let _ = session.answer(worse(&q)).unwrap();
    assert_eq!(session.ask().unwrap().position, q.position);
    let rating = session.rating();
    let outcome = session.answer(best(&q)).unwrap();
    assert!(outcome.retry && outcome.correct);
    assert_eq!(outcome.rating_after, rating);
    let mut fresh = QuizSession::new(Rating::default());
    assert!(fresh.offer(q.clone()));
    let _ = fresh.ask().unwrap();
    assert!(outcome.points < fresh.answer(best(&q)).unwrap().points);
    assert_eq!(session.ask(), None, "nothing left");
}

#[test]
fn answers_need_an_open_question_and_a_legal_move() {
    let mut session = QuizSession::new(Rating::default());
    assert_eq!(session.answer(Move::Place(Square::D6)), Err(QuizError::NoQuestion));
    let q = questions().remove(0);
    assert!(session.offer(q));
    let _ = session.ask().unwrap();
    assert_eq!(session.answer(Move::Place(Square::A1)), Err(QuizError::IllegalMove(Move::Place(Square::A1))));
    assert!(session.current().is_some(), "the question stays open");
    assert_eq!(QuizAnswers::from_values(Position::INITIAL, Vec::new(), true), Err(QuizError::NoMoves));
}
