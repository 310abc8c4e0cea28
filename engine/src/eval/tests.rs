use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::*;
use crate::bitboard::Symmetry;
use crate::position::Position;

fn random_weights(rng: &mut StdRng) -> Weights {
    let mut w = Weights::zero();
    for phase in &mut w.patterns {
        for table in phase {
            for v in table.iter_mut() {
                *v = rng.random_range(-2000..2000);
            }
        }
    }
    for v in w.mobility.iter_mut().chain(w.opponent_mobility.iter_mut()).chain(w.discs.iter_mut()).flatten() {
        *v = rng.random_range(-500..500);
    }
    w.tie_symmetric_indices();
    w
}

/// Random positions reached by random play, with their side to move.
fn random_positions(rng: &mut StdRng, count: usize) -> Vec<Position> {
    let mut out = Vec::new();
    while out.len() < count {
        let mut position = Position::INITIAL;
        let plies = rng.random_range(0..60);
        for _ in 0..plies {
            let moves: Vec<Square> = position.board.moves().into_iter().collect();
            if moves.is_empty() {
                match position.play(crate::board::Move::Pass) {
                    Ok(p) => position = p,
                    Err(_) => break,
                }
                continue;
            }
            let sq = moves[rng.random_range(0..moves.len())];
            position = position.play(crate::board::Move::Place(sq)).unwrap();
        }
        out.push(position);
    }
    out
}

#[test]
fn shapes_and_feature_counts() {
    let counts: Vec<usize> = groups().iter().map(|g| g.features.len()).collect();
    assert_eq!(counts, vec![4, 8, 4, 4, 4, 4, 2, 4, 4, 4, 4]);
    assert_eq!(pattern::feature_count(), FEATURE_COUNT);
    for g in groups() {
        for f in &g.features {
            assert_eq!(f.len(), g.length);
        }
    }
}

#[test]
fn incremental_features_equal_recomputation() {
    let mut rng = StdRng::seed_from_u64(11);
    for _ in 0..300 {
        let mut position = Position::INITIAL;
        let mut features = Features::new(position.black(), position.white());
        loop {
            let moves: Vec<Square> = position.board.moves().into_iter().collect();
            if moves.is_empty() {
                match position.play(crate::board::Move::Pass) {
                    Ok(p) => {
                        position = p;
                        continue;
                    }
                    Err(_) => break,
                }
            }
            let sq = moves[rng.random_range(0..moves.len())];
            let flips = position.board.flips(sq);
            features.play(position.side_to_move, sq, flips);
            position = position.play(crate::board::Move::Place(sq)).unwrap();
            assert_eq!(features, Features::new(position.black(), position.white()));
        }
    }
}

#[test]
fn evaluation_is_identical_on_all_eight_symmetries() {
    let mut rng = StdRng::seed_from_u64(12);
    let weights = random_weights(&mut rng);
    for position in random_positions(&mut rng, 2_000) {
        let features = Features::new(position.black(), position.white());
        let value = weights.evaluate(&position.board, &features, position.side_to_move);
        for symmetry in Symmetry::ALL {
            let image = Position { board: position.board.transform(symmetry), side_to_move: position.side_to_move };
            let f = Features::new(image.black(), image.white());
            assert_eq!(weights.evaluate(&image.board, &f, image.side_to_move), value, "{symmetry:?}");
        }
    }
}

/// Both readings of the indices, spelt out digit by digit from the squares: the search's (0 black, 1 empty, 2 white),
/// in which the colour swap is the mirror `3^length − 1 − index`, and the weights' (0 empty, 1 black, 2 white).
#[test]
fn the_two_readings_of_a_feature_spell_its_squares() {
    let mut rng = StdRng::seed_from_u64(13);
    let lengths: Vec<usize> = groups().iter().flat_map(|g| std::iter::repeat_n(g.length, g.features.len())).collect();
    let squares: Vec<&Vec<Square>> = groups().iter().flat_map(|g| &g.features).collect();
    for position in random_positions(&mut rng, 500) {
        let (black, white) = (position.black(), position.white());
        let features = Features::new(black, white);
        let swapped = Features::new(white, black);
        let pattern = features.pattern_indices();
        for f in 0..FEATURE_COUNT {
            let spell = |digit: fn(bool, bool) -> u16| {
                squares[f].iter().fold(0u16, |acc, &sq| acc * 3 + digit(black.contains(sq), white.contains(sq)))
            };
            let search = spell(|b, w| {
                if b {
                    0
                } else if w {
                    2
                } else {
                    1
                }
            });
            let weights = spell(|b, w| {
                if b {
                    1
                } else if w {
                    2
                } else {
                    0
                }
            });
            assert_eq!(features.indices()[f], search, "feature {f}");
            assert_eq!(pattern[f], weights, "feature {f}");
            assert_eq!(u32::from(swapped.indices()[f]), 3u32.pow(lengths[f] as u32) - 1 - u32::from(search));
            assert_eq!(u32::from(swapped.pattern_indices()[f]), swap_colors(u32::from(weights), lengths[f]));
        }
    }
}

#[test]
fn colour_swap_is_an_involution() {
    for length in 4..=10 {
        for index in (0..3u32.pow(length as u32)).step_by(7) {
            assert_eq!(swap_colors(swap_colors(index, length), length), index);
            if groups().iter().any(|g| g.length == length) {
                assert_eq!(swap_table()[length][index as usize], swap_colors(index, length));
            }
        }
    }
}

#[test]
fn phases_cover_the_game() {
    assert_eq!(phase(4, PHASES), 0);
    assert_eq!(phase(5, PHASES), 0);
    assert_eq!(phase(6, PHASES), 1);
    assert_eq!(phase(63, PHASES), 29);
    assert_eq!(phase(64, PHASES), 29);
    // One phase per move: a full board shares the last one.
    assert_eq!(phase(4, 60), 0);
    assert_eq!(phase(5, 60), 1);
    assert_eq!(phase(63, 60), 59);
    assert_eq!(phase(64, 60), 59);
    assert_eq!(phase(200, 60), 59);
    for phases in 1..=MAX_PHASES {
        let mut previous = 0;
        for discs in 4..=64 {
            let p = phase(discs, phases);
            assert!(p < phases && (p == previous || p == previous + 1), "{phases} phases, {discs} discs");
            if p != previous || discs == 4 {
                assert_eq!(first_discs(p, phases), discs, "{phases} phases, phase {p}");
            }
            previous = p;
        }
        assert_eq!(previous, phases - 1, "{phases} phases: every phase is used");
    }
}

#[test]
fn the_flat_evaluator_equals_the_weights_evaluation() {
    for phases in [PHASES, MAX_PHASES, 7] {
        flat_evaluator_equals_weights(phases);
    }
}

fn flat_evaluator_equals_weights(phases: usize) {
    let mut rng = StdRng::seed_from_u64(41);
    let mut weights = Weights::zero_with_phases(phases);
    for phase in &mut weights.patterns {
        for table in phase {
            for v in table.iter_mut() {
                *v = rng.random_range(-3000..3000);
            }
        }
    }
    for row in weights.mobility.iter_mut().chain(weights.opponent_mobility.iter_mut()) {
        for v in row.iter_mut() {
            *v = rng.random_range(-500..500);
        }
    }
    for b in &mut weights.bias {
        *b = rng.random_range(-500..500);
    }
    for v in weights.discs.iter_mut().flatten() {
        *v = rng.random_range(-500..500);
    }
    weights.tie_symmetric_indices();
    let evaluator = Evaluator::new(&weights);
    for _ in 0..300 {
        let mut position = Position::INITIAL;
        let plies = rng.random_range(0..58);
        for _ in 0..plies {
            let moves: Vec<_> = position.board.moves().into_iter().collect();
            let mv = if moves.is_empty() {
                crate::Move::Pass
            } else {
                crate::Move::Place(moves[rng.random_range(0..moves.len())])
            };
            match position.play(mv) {
                Ok(next) => position = next,
                Err(_) => break,
            }
        }
        let b = position.board;
        let f = Features::new(position.black(), position.white());
        let expected = weights.evaluate(&b, &f, position.side_to_move);
        let got = evaluator.evaluate(
            64 - b.empty_count(),
            b.player.0.count_ones(),
            &f,
            position.side_to_move,
            b.moves().count(),
            b.pass().moves().count(),
        );
        assert_eq!(got, expected, "{b:?}");
    }
}

/// The endgame's move ordering evaluates a child from its parent's features (side to move read as Black) updated by
/// the move, with the child's side to move as White: that must equal reading the child from scratch with its own side
/// to move as Black.
#[test]
fn a_child_read_from_its_parents_features_evaluates_as_read_from_scratch() {
    let mut rng = StdRng::seed_from_u64(43);
    let evaluator = Evaluator::new(&random_weights(&mut rng));
    let mut children = 0;
    for position in random_positions(&mut rng, 200) {
        let (p, o) = (position.board.player, position.board.opponent);
        let parent = Features::new(p, o);
        for sq in position.board.moves() {
            let flips = position.board.flips(sq);
            let child = position.board.play_unchecked(sq, flips);
            let mut incremental = parent;
            incremental.play(Color::Black, sq, flips);
            let evaluate = |f: &Features, side| {
                evaluator.evaluate(
                    64 - child.empty_count(),
                    child.player.0.count_ones(),
                    f,
                    side,
                    child.moves().count(),
                    child.pass().moves().count(),
                )
            };
            assert_eq!(
                evaluate(&incremental, Color::White),
                evaluate(&Features::new(child.player, child.opponent), Color::Black),
                "{child:?}"
            );
            children += 1;
        }
    }
    assert!(children > 1000, "{children} children");
}
