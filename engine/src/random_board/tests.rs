use std::sync::Arc;

use super::*;
use crate::eval::weights;
use crate::search::SolveOptions;

fn thinker() -> Thinker {
    let weights = Arc::new(weights::bundled().expect("the shipped weights load"));
    Thinker::new(weights, SolveOptions::default().with_threads(1).with_hash_level(16)).expect("thinker")
}

fn level(n: u8) -> Level {
    Level::new(n).unwrap()
}

/// Replays `line` from the initial position: every move legal, passes only when forced.
fn replay(line: &[Move]) -> Position {
    let mut position = Position::INITIAL;
    for &mv in line {
        if mv == Move::Pass {
            assert!(position.board.must_pass(), "a pass in {line:?} that was not forced");
        }
        position = position.play(mv).expect("a legal move");
    }
    position
}

#[test]
fn the_specification_is_checked() {
    assert_eq!(RandomBoardSpec::new(0, -2, 2, level(5)), Err(RandomBoardError::Moves(0)));
    assert_eq!(RandomBoardSpec::new(61, -2, 2, level(5)), Err(RandomBoardError::Moves(61)));
    assert_eq!(RandomBoardSpec::new(20, 3, 2, level(5)), Err(RandomBoardError::Range { min: 3, max: 2 }));
    assert_eq!(RandomBoardSpec::new(20, -65, 2, level(5)), Err(RandomBoardError::Range { min: -65, max: 2 }));
    assert_eq!(RandomBoardSpec::new(20, 0, 65, level(5)), Err(RandomBoardError::Range { min: 0, max: 65 }));
    let spec = RandomBoardSpec::new(60, -64, 64, level(5)).unwrap();
    assert_eq!((spec.moves(), spec.score_range(), spec.level()), (60, (-64, 64), level(5)));
}

#[test]
fn positions_have_the_moves_and_the_score_asked_for() {
    let thinker = thinker();
    for (seed, moves, min, max) in [(1, 20, -2, 2), (2, 30, 4, 10), (3, 12, -8, -3), (4, 1, -64, 64), (5, 2, -64, 64)] {
        let spec = RandomBoardSpec::new(moves, min, max, level(4)).unwrap();
        let board = generate(&thinker, &spec, &mut GameRng::new(seed)).expect("a position");
        assert_eq!(replay(&board.line), board.position, "seed {seed}");
        let placed = board.line.iter().filter(|mv| **mv != Move::Pass).count();
        assert_eq!(placed, usize::from(moves), "seed {seed}");
        let (black, white) = (board.position.black().0.count_ones(), board.position.white().0.count_ones());
        assert_eq!(black + white, 4 + u32::from(moves), "seed {seed}");
        assert!((min..=max).contains(&board.black_score), "seed {seed}: {} not in {min}..{max}", board.black_score);
        // The score is the level's search of the final position, for Black.
        let thought = thinker.think(&board.position, level(4));
        let for_black = if board.position.side_to_move == Color::Black { thought.score } else { -thought.score };
        assert!((min..=max).contains(&for_black), "seed {seed}: a new search says {for_black}");
        assert!((1..=MAX_TRIES).contains(&board.tries));
    }
}

#[test]
fn the_same_seed_gives_the_same_position_and_other_seeds_differ() {
    let spec = RandomBoardSpec::new(20, -4, 4, level(3)).unwrap();
    let make = |seed| generate(&thinker(), &spec, &mut GameRng::new(seed)).expect("a position");
    assert_eq!(make(7), make(7));
    let positions: std::collections::HashSet<Position> = (0..6).map(|seed| make(seed).position).collect();
    assert!(positions.len() >= 5, "six seeds gave {} positions", positions.len());
}

#[test]
fn progress_follows_the_tries_and_moves_and_changes_nothing() {
    let spec = RandomBoardSpec::new(10, -4, 4, level(4)).unwrap();
    let mut reports = Vec::new();
    let reported = generate_with(&thinker(), &spec, &mut GameRng::new(9), &mut |p| reports.push(p.clone())).unwrap();
    assert_eq!(reported, generate(&thinker(), &spec, &mut GameRng::new(9)).unwrap(), "reporting changes nothing");
    let last_try: Vec<&RandomBoardProgress> = reports.iter().filter(|p| p.attempt == reported.tries).collect();
    let numbers: std::collections::BTreeSet<u8> = last_try.iter().map(|p| p.move_number).collect();
    assert_eq!(numbers, (1..=10).collect(), "every move of the successful try is reported");
    // The last move's candidates are searched at the requested level, and one of them is the move played.
    let last: Vec<&&RandomBoardProgress> = last_try.iter().filter(|p| p.move_number == 10).collect();
    assert!(last.iter().all(|p| p.level == level(4) && p.depth >= 1));
    let played = *reported.line.iter().rev().find(|mv| **mv != Move::Pass).unwrap();
    let final_report = last.iter().rev().find(|p| p.candidate == played).expect("the played move was reported");
    assert_eq!(final_report.black_score, reported.black_score, "its last report is its score for Black");
    assert!(reports.windows(2).all(|w| w[0].attempt <= w[1].attempt), "tries only go forward");
}

#[test]
fn an_unreachable_score_is_reported_after_every_try() {
    // No position after 4 moves is worth +60 for Black.
    let spec = RandomBoardSpec::new(4, 60, 64, level(2)).unwrap();
    let error = generate(&thinker(), &spec, &mut GameRng::new(1)).unwrap_err();
    assert_eq!(error, RandomBoardError::NotFound { moves: 4, min: 60, max: 64, tries: MAX_TRIES });
    assert!(error.to_string().contains("widen the range"), "{error}");
}

#[test]
fn the_loss_rule_mostly_picks_good_moves() {
    let mut rng = GameRng::new(11);
    let budgets: Vec<i32> = (0..10_000).map(|_| loss_budget(&mut rng)).collect();
    let within = |limit| budgets.iter().filter(|b| **b <= limit).count() as f64 / budgets.len() as f64;
    // |N(0, 6)| rounded: about 68 % within 6 discs, 95 % within 12.
    assert!((0.64..0.74).contains(&within(6)), "{}", within(6));
    assert!((0.94..0.97).contains(&within(12)), "{}", within(12));
    let scores = [(Move::Place(crate::Square::D3), 4), (Move::Place(crate::Square::C4), -30)];
    let picks = (0..1000).filter_map(|_| pick_with_loss(&scores, &mut rng)).filter(|(_, v)| *v == -30).count();
    // A 34-disc loss needs a budget of 34, beyond five standard deviations.
    assert_eq!(picks, 0);
    assert_eq!(pick_with_loss(&[], &mut rng), None);
}
