use std::sync::atomic::AtomicBool;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::Bitboard;
use crate::eval::{Evaluator, Features, Weights};
use crate::search::core::*;
use crate::search::kernels::portable::endgame as portable;
use crate::search::tt::TranspositionTable;

/// The features a worker keeps along the line are those of the position, from the right side's point of view: after
/// a move, the child finds its own on the line (its side to move is the other colour of the parent's frame), and
/// after a pass the same features serve with the colours swapped.
#[test]
fn features_left_on_the_line_are_the_positions_own() {
    let tt = TranspositionTable::new(TranspositionTable::MIN_LEVEL);
    let stop = AtomicBool::new(false);
    let evaluator = Evaluator::new(&Weights::zero());
    let shared = Shared { tt: &tt, shallow: None, stop: &stop, parallel: false, eval: Some(&evaluator), mpc: None };
    let mut rng = StdRng::seed_from_u64(11);
    let mut checked = 0;
    for _ in 0..40 {
        let mut w = Worker::new(&shared, None);
        let (mut p, mut o) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
        // Whether the side to move is Black in the frame the line holds, once the line is in use.
        let mut expected_black: Option<bool> = None;
        loop {
            let n = 64 - (p | o).count_ones();
            let moves = crate::flip::portable::moves(p, o);
            if moves == 0 {
                if crate::flip::portable::moves(o, p) == 0 {
                    break;
                }
                (p, o) = (o, p);
                expected_black = expected_black.map(|b| !b);
                continue;
            }
            let node = w.node_features(p, o, n);
            if n < EVAL_ORDER_MIN {
                assert!(node.is_none());
                break;
            }
            let (features, p_black) = node.expect("features from EVAL_ORDER_MIN on");
            let (black, white) = if p_black { (p, o) } else { (o, p) };
            assert_eq!(features, Features::new(Bitboard(black), Bitboard(white)), "{p:#x} {o:#x}");
            if let Some(b) = expected_black {
                assert_eq!(p_black, b, "the child's features came from the line");
                checked += 1;
            }
            let squares: Vec<u32> = (0..64).filter(|&s| moves >> s & 1 == 1).collect();
            let sq = squares[rng.random_range(0..squares.len())];
            let flip = crate::flip::portable::flip(sq, p, o);
            w.leave_child(node.as_ref(), p, o, &Candidate { sq, flip, score: 0, replies: 0 });
            (p, o) = (o ^ flip, p ^ flip ^ 1 << sq);
            expected_black = Some(!p_black);
        }
    }
    assert!(checked > 500, "{checked}");
}

/// Plain negamax to the end of the game, on bitboards.
fn negamax(p: u64, o: u64) -> i32 {
    let moves = crate::flip::portable::moves(p, o);
    if moves == 0 {
        return if crate::flip::portable::moves(o, p) == 0 { final_score(p, o) } else { -negamax(o, p) };
    }
    (0..64)
        .filter(|&s| moves >> s & 1 == 1)
        .map(|sq| {
            let flip = crate::flip::portable::flip(sq, p, o);
            -negamax(o ^ flip, p ^ flip ^ 1 << sq)
        })
        .max()
        .expect("a move")
}

/// The null-window search is right at every `alpha`, where the stability cut-off of every layer from 2 empties on
/// (and the thresholds that let it try) can fire: a fail-high's value is a lower bound of the score and a fail-low's
/// an upper bound. Positions come from random games, half of them with one side playing greedily, so that lopsided
/// positions (where the opponent's stable discs decide) are common.
#[test]
fn null_window_results_bound_the_score_at_every_alpha() {
    null_window_results_bound_the_score(None);
}

/// The same with the solver's small table for the nodes with 6 and 7 empties: one table for every search of the
/// test, so that later searches find the bounds earlier ones stored there (at other `alpha`s).
#[test]
fn null_window_results_bound_the_score_with_the_shallow_table() {
    let shallow = TranspositionTable::new(TranspositionTable::MIN_LEVEL);
    null_window_results_bound_the_score(Some(&shallow));
}

fn null_window_results_bound_the_score(shallow: Option<&TranspositionTable>) {
    let tt = TranspositionTable::new(TranspositionTable::MIN_LEVEL);
    let stop = AtomicBool::new(false);
    let shared = Shared { tt: &tt, shallow, stop: &stop, parallel: false, eval: None, mpc: None };
    let mut rng = StdRng::seed_from_u64(23);
    let mut cut_low = 0;
    for game in 0..160 {
        let empties = 2 + game % 7;
        let (mut p, mut o) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
        let mut black = true;
        while 64 - (p | o).count_ones() > empties {
            let moves = crate::flip::portable::moves(p, o);
            if moves == 0 {
                if crate::flip::portable::moves(o, p) == 0 {
                    break;
                }
                (p, o, black) = (o, p, !black);
                continue;
            }
            let squares: Vec<u32> = (0..64).filter(|&s| moves >> s & 1 == 1).collect();
            let sq = if game % 2 == 0 && black {
                *squares.iter().max_by_key(|&&s| crate::flip::portable::flip(s, p, o).count_ones()).expect("a move")
            } else {
                squares[rng.random_range(0..squares.len())]
            };
            let flip = crate::flip::portable::flip(sq, p, o);
            (p, o, black) = (o ^ flip, p ^ flip ^ 1 << sq, !black);
        }
        let n = 64 - (p | o).count_ones();
        if n != empties {
            continue;
        }
        let exact = negamax(p, o);
        let parity = parity_of(!(p | o));
        for alpha in -64..64 {
            let mut w = Worker::new(&shared, None);
            let v = portable::nws(&mut w, p, o, alpha, parity);
            if exact > alpha {
                assert!(v > alpha && v <= exact, "{p:#x} {o:#x} alpha {alpha}: {v}, exact {exact}");
            } else {
                assert!(v <= alpha && v >= exact, "{p:#x} {o:#x} alpha {alpha}: {v}, exact {exact}");
                cut_low += i32::from(v > exact);
            }
        }
    }
    // Fail-lows above the exact score come from cut-offs (the stability one among them): the test saw them.
    assert!(cut_low > 100, "{cut_low}");
}
