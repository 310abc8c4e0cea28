//! Perft: the number of leaves of the game tree to a fixed depth, the standard check of move generation.
//!
//! Published Othello perft numbers differ on two points, so ours are spelled out:
//! - **a pass counts as a ply**: when the side to move has no move but the opponent has one, the pass is the one child
//!   of the node;
//! - **a game that ends before the last ply counts as one leaf**, whatever depth is left.
//!
//! With these rules the counts from the initial position are:
//!
//! | depth | leaves      |
//! |------:|------------:|
//! | 1     | 4           |
//! | 2     | 12          |
//! | 3     | 56          |
//! | 4     | 244         |
//! | 5     | 1 396       |
//! | 6     | 8 200       |
//! | 7     | 55 092      |
//! | 8     | 390 216     |
//! | 9     | 3 005 288   |
//! | 10    | 24 571 284  |
//! | 11    | 212 258 800 |
//!
//! The recursion is written once (`perft_kernel!`) and compiled once per [`Backend`], each copy with its backend's
//! target features, so the SIMD move generation and flips inline into the loop; [`perft`] dispatches once per call.
//! The last ply is counted in bulk: a node one ply above the leaves has as many leaves as moves, or one if it has none
//! (the pass, or the end of the game).
//!
//! ```
//! use shirokuro_engine::Board;
//! use shirokuro_engine::perft::perft;
//! assert_eq!(perft(&Board::INITIAL, 4), 244);
//! ```

use std::sync::atomic::{AtomicUsize, Ordering};

use crate::board::Board;
use crate::flip::Backend;

/// Leaves of the game tree of depth `depth` below `board`, with the fastest backend of this CPU
/// ([`Backend::detect`]). A pass is a ply; a finished game is one leaf. `depth == 0` gives 1.
#[must_use]
pub fn perft(board: &Board, depth: u32) -> u64 {
    perft_with(Backend::detect(), board, depth)
}

/// [`perft`] with the given backend.
///
/// # Panics
/// Panics if the CPU lacks the backend's features (see [`Backend::supported`]).
#[must_use]
pub fn perft_with(backend: Backend, board: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    kernel(backend)(board.player.0, board.opponent.0, depth, false)
}

/// [`perft`] spread over `threads` threads (at least one), with the fastest backend of this CPU.
///
/// The tree is expanded a few plies on the calling thread and the subtrees are shared out; the result is the same as
/// [`perft`]'s.
#[must_use]
pub fn perft_parallel(board: &Board, depth: u32, threads: usize) -> u64 {
    perft_parallel_with(Backend::detect(), board, depth, threads)
}

/// [`perft_parallel`] with the given backend.
///
/// # Panics
/// Panics if the CPU lacks the backend's features (see [`Backend::supported`]).
#[must_use]
pub fn perft_parallel_with(backend: Backend, board: &Board, depth: u32, threads: usize) -> u64 {
    /// Plies expanded on the calling thread: up to a few hundred subtrees from the initial position, enough to
    /// balance the load without noticeable serial work.
    const SPLIT_PLIES: u32 = 4;

    let threads = threads.max(1);
    let split = SPLIT_PLIES.min(depth.saturating_sub(2));
    if threads == 1 || split == 0 {
        return perft_with(backend, board, depth);
    }
    let run = kernel(backend);
    let mut tasks = Vec::new();
    let finished = expand(board.player.0, board.opponent.0, split, false, &mut tasks);
    let next = AtomicUsize::new(0);
    let remaining = depth - split;
    let total: u64 = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.min(tasks.len()))
            .map(|_| {
                scope.spawn(|| {
                    let mut sum = 0;
                    loop {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&(p, o, passed)) = tasks.get(index) else {
                            return sum;
                        };
                        sum += run(p, o, remaining, passed);
                    }
                })
            })
            .collect();
        workers.into_iter().map(|worker| worker.join().expect("perft worker panicked")).sum()
    });
    total + finished
}

/// Pushes the nodes `plies` plies below (p, o) onto `tasks` as (player, opponent, passed), and returns the number of
/// games that ended on the way (each one leaf).
fn expand(p: u64, o: u64, plies: u32, passed: bool, tasks: &mut Vec<(u64, u64, bool)>) -> u64 {
    if plies == 0 {
        tasks.push((p, o, passed));
        return 0;
    }
    let mut moves = crate::flip::portable::moves(p, o);
    if moves == 0 {
        return if passed { 1 } else { expand(o, p, plies - 1, true, tasks) };
    }
    let mut finished = 0;
    while moves != 0 {
        let sq = moves.trailing_zeros();
        moves &= moves - 1;
        let flipped = crate::flip::portable::flip(sq, p, o);
        finished += expand(o ^ flipped, p ^ flipped ^ (1 << sq), plies - 1, false, tasks);
    }
    finished
}

/// The kernel of `backend`: `(player, opponent, depth ≥ 1, passed) -> leaves`.
///
/// The returned function panics if the CPU lacks the backend's features.
fn kernel(backend: Backend) -> fn(u64, u64, u32, bool) -> u64 {
    match backend {
        Backend::Portable => portable_kernel::entry,
        #[cfg(target_arch = "x86_64")]
        Backend::Avx2 => avx2_kernel::entry,
        #[cfg(target_arch = "x86_64")]
        Backend::Avx512 => avx512_kernel::entry,
        #[cfg(not(target_arch = "x86_64"))]
        _ => portable_kernel::entry,
    }
}

/// The portable primitives with the signatures of the SIMD modules, so one kernel body fits every backend.
#[allow(unsafe_code)]
mod portable_ops {
    pub(super) use crate::flip::portable::moves;

    /// Every CPU runs the portable code.
    pub(super) fn is_supported() -> bool {
        true
    }

    /// [`crate::flip::portable::flip`], declared `unsafe` only to match `avx2::flip`'s signature.
    ///
    /// # Safety
    /// None beyond `sq < 64` (which the portable code checks itself).
    #[inline(always)]
    pub(super) unsafe fn flip(sq: u32, p: u64, o: u64) -> u64 {
        debug_assert!(sq < 64);
        crate::flip::portable::flip(sq, p, o)
    }
}

/// Defines a module `$name` with the recursive perft compiled over the primitives of `$ops` (which must provide
/// `is_supported()`, `moves(p, o)` and `unsafe flip(sq, p, o)`), optionally with the target features `$feat`.
///
/// The SIMD copies are why this module needs `unsafe`: a `#[target_feature]` function can only be entered from plain
/// code through `unsafe`, and the backends' `flip` is `unsafe` for its unchecked table index. Measured gain: perft(11)
/// takes 0.54 s with AVX2 against 1.09 s portable (AMD EPYC, release build).
macro_rules! perft_kernel {
    ($name:ident, $ops:path $(, $feat:literal)?) => {
        #[allow(unsafe_code)]
        mod $name {
            use $ops as ops;

            /// Leaves below (p, o) at `depth ≥ 1`; `passed` says the previous ply was a pass.
            $(#[target_feature(enable = $feat)])?
            pub(super) fn perft(p: u64, o: u64, depth: u32, passed: bool) -> u64 {
                debug_assert!(depth >= 1);
                let mut moves = ops::moves(p, o);
                if depth == 1 {
                    // Bulk count: one leaf per move; with none, the pass or the end of the game is one leaf.
                    return u64::from(moves.count_ones()).max(1);
                }
                if moves == 0 {
                    return if passed { 1 } else { perft(o, p, depth - 1, true) };
                }
                let mut leaves = 0;
                while moves != 0 {
                    let sq = moves.trailing_zeros();
                    moves &= moves - 1;
                    // SAFETY: sq is the index of a set bit of a u64, so below 64.
                    let flipped = unsafe { ops::flip(sq, p, o) };
                    leaves += perft(o ^ flipped, p ^ flipped ^ (1 << sq), depth - 1, false);
                }
                leaves
            }

            /// [`perft`] as a safe function, after checking that this CPU has the features it is compiled with.
            ///
            /// # Panics
            /// Panics if the CPU lacks them.
            pub(super) fn entry(p: u64, o: u64, depth: u32, passed: bool) -> u64 {
                assert!(ops::is_supported(), "perft backend used on a CPU without its features");
                // SAFETY: the CPU has the features `perft` is compiled with (checked just above). For the portable
                // copy this is a plain safe call.
                #[allow(unused_unsafe)]
                unsafe {
                    perft(p, o, depth, passed)
                }
            }
        }
    };
}

perft_kernel!(portable_kernel, super::portable_ops);
#[cfg(target_arch = "x86_64")]
perft_kernel!(avx2_kernel, crate::flip::avx2, "avx2,bmi1,bmi2,popcnt,lzcnt");
#[cfg(target_arch = "x86_64")]
perft_kernel!(avx512_kernel, crate::flip::avx512, "avx2,bmi1,bmi2,popcnt,lzcnt,avx512f,avx512vl,avx512cd");

#[cfg(test)]
mod tests {
    use super::*;

    /// Leaves from the initial position for depths 0..=11 (a pass is a ply; a finished game is one leaf).
    const INITIAL: [u64; 12] = [1, 4, 12, 56, 244, 1_396, 8_200, 55_092, 390_216, 3_005_288, 24_571_284, 212_258_800];

    #[test]
    fn initial_position_every_backend() {
        for backend in Backend::supported() {
            for (depth, &expected) in INITIAL.iter().enumerate().take(8) {
                let depth = depth as u32;
                assert_eq!(perft_with(backend, &Board::INITIAL, depth), expected, "{} depth {depth}", backend.name());
            }
        }
    }

    #[test]
    fn parallel_matches_serial() {
        for backend in Backend::supported() {
            for depth in 0..=8 {
                assert_eq!(
                    perft_parallel_with(backend, &Board::INITIAL, depth, 3),
                    INITIAL[depth as usize],
                    "{} depth {depth}",
                    backend.name()
                );
            }
        }
    }

    /// Passes and finished games: the kernels agree with a plain recursion over [`Board`] near the end of games.
    #[test]
    fn passes_and_game_ends_match_board_rules() {
        fn reference(board: &Board, depth: u32) -> u64 {
            if depth == 0 {
                return 1;
            }
            let moves = board.moves();
            if moves.is_empty() {
                return if board.is_game_over() { 1 } else { reference(&board.pass(), depth - 1) };
            }
            moves.into_iter().map(|sq| reference(&board.play_unchecked(sq, board.flips(sq)), depth - 1)).sum()
        }

        // A fixed pseudo-random playout (xorshift) down to 10 empties, then perft to the end of the game.
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        for _ in 0..20 {
            let mut board = Board::INITIAL;
            while board.empty_count() > 10 && !board.is_game_over() {
                let moves = board.moves();
                if moves.is_empty() {
                    board = board.pass();
                    continue;
                }
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let sq = moves.into_iter().nth((state % u64::from(moves.count())) as usize).expect("a move");
                board = board.play_unchecked(sq, board.flips(sq));
            }
            for depth in [1, 2, 5, 12] {
                let expected = reference(&board, depth);
                for backend in Backend::supported() {
                    assert_eq!(
                        perft_with(backend, &board, depth),
                        expected,
                        "{board:?} {} depth {depth}",
                        backend.name()
                    );
                }
            }
        }
    }

    /// Not a test: times perft(11) on every backend (`cargo test --release -p shirokuro-engine perft::tests::timing
    /// -- --ignored --nocapture`).
    #[test]
    #[ignore = "timing, run by hand"]
    fn timing() {
        for backend in Backend::supported() {
            let start = std::time::Instant::now();
            let leaves = perft_with(backend, &Board::INITIAL, 11);
            println!("perft(11) {:>8}: {leaves} in {:.3} s", backend.name(), start.elapsed().as_secs_f64());
            assert_eq!(leaves, INITIAL[11]);
        }
        let threads = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        let start = std::time::Instant::now();
        let leaves = perft_parallel(&Board::INITIAL, 11, threads);
        println!("perft(11) parallel ({threads} threads): {leaves} in {:.3} s", start.elapsed().as_secs_f64());
        assert_eq!(leaves, INITIAL[11]);
    }
}
