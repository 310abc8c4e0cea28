//! Perft from the initial position, depths 1 to 9, with the default backend.
//!
//! Counting rule: a pass counts as a ply, and a game that ends before the last ply counts as one leaf. Deeper counts
//! (10: 24 571 284, 11: 212 258 800) are checked by the ignored test below.

use shirokuro_engine::Board;
use shirokuro_engine::perft::{perft, perft_parallel};

/// Leaves from the initial position for depths 1..=11.
const INITIAL: [u64; 11] = [4, 12, 56, 244, 1_396, 8_200, 55_092, 390_216, 3_005_288, 24_571_284, 212_258_800];

#[test]
fn initial_position_depths_1_to_9() {
    assert_eq!(perft(&Board::INITIAL, 0), 1);
    for depth in 1..=9 {
        assert_eq!(perft(&Board::INITIAL, depth), INITIAL[depth as usize - 1], "depth {depth}");
    }
}

#[test]
fn parallel_depth_9() {
    assert_eq!(perft_parallel(&Board::INITIAL, 9, 4), INITIAL[8]);
}

#[test]
#[ignore = "deep: a second or two in release"]
fn initial_position_depths_10_and_11() {
    for depth in 10..=11 {
        assert_eq!(perft(&Board::INITIAL, depth), INITIAL[depth as usize - 1], "depth {depth}");
    }
}
