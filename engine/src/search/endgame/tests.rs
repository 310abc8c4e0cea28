use std::sync::atomic::AtomicBool;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::*;
use crate::Bitboard;
use crate::eval::{Evaluator, Features, Weights};
use crate::search::tt::TranspositionTable;

/// The features a worker keeps along the line are those of the position, from the right side's point of view: after
/// a move, the child finds its own on the line (its side to move is the other colour of the parent's frame), and
/// after a pass the same features serve with the colours swapped.
#[test]
fn features_left_on_the_line_are_the_positions_own() {
    let tt = TranspositionTable::new(TranspositionTable::MIN_LEVEL);
    let stop = AtomicBool::new(false);
    let evaluator = Evaluator::new(&Weights::zero());
    let shared = Shared { tt: &tt, stop: &stop, parallel: false, eval: Some(&evaluator), mpc: None };
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
