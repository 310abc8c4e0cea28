//! The Glicko-2 update and the difficulty of a position.

use crate::study::rating::{MAX_DIFFICULTY, ProblemStats, Rating, difficulty, update};

fn stats(empties: u8, moves: u8, best_moves: u8, gap: Option<u32>) -> ProblemStats {
    ProblemStats { empties, moves, best_moves, gap }
}

#[test]
fn solving_a_hard_problem_raises_the_rating_more() {
    let player = Rating::default();
    let easy = update(player, 1100.0, true);
    let hard = update(player, 1900.0, true);
    assert!(easy.rating > player.rating && hard.rating > easy.rating, "{easy:?} {hard:?}");
    assert!(hard.deviation < player.deviation);
}

#[test]
fn failing_lowers_and_failing_an_easy_one_lowers_more() {
    let player = Rating { rating: 1500.0, deviation: 120.0, volatility: 0.06 };
    let easy = update(player, 1100.0, false);
    let hard = update(player, 1900.0, false);
    assert!(hard.rating < player.rating && easy.rating < hard.rating, "{easy:?} {hard:?}");
}

#[test]
fn difficulty_is_monotone_in_every_feature() {
    let base = difficulty(&stats(14, 6, 1, Some(4)));
    assert!(difficulty(&stats(20, 6, 1, Some(4))) > base, "more empties");
    assert!(difficulty(&stats(14, 9, 1, Some(4))) > base, "more moves");
    assert!(difficulty(&stats(14, 6, 2, Some(4))) < base, "more best moves");
    assert!(difficulty(&stats(14, 6, 1, Some(1))) > base, "a smaller gap");
    assert!(difficulty(&stats(14, 6, 6, None)) < base, "every move best");
    let extreme = difficulty(&stats(60, 30, 1, Some(1)));
    assert!(extreme <= MAX_DIFFICULTY);
    assert!(difficulty(&stats(0, 0, 0, None)) >= 0.0);
}
