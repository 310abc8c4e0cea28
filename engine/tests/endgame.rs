//! The exact endgame solver: FFO #40–#44, symmetry invariance, agreement with plain minimax, several threads against one,
//! win/draw/loss mode, stop.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use shirokuro_engine::notation::parse_obf_file;
use shirokuro_engine::search::{SolveMode, SolveOptions, Solver};
use shirokuro_engine::{Backend, Board, Move, Square, Symmetry};

/// Plain minimax to the end of the game: the reference the solver must agree with.
fn minimax(board: &Board) -> i32 {
    let moves = board.moves();
    if moves.is_empty() {
        let passed = board.pass();
        if passed.has_moves() {
            return -minimax(&passed);
        }
        return board.final_score();
    }
    moves.into_iter().map(|sq| -minimax(&board.play_unchecked(sq, board.flips(sq)))).max().unwrap_or(-64)
}

/// A position `empties` squares from the end, reached by random play from the start (retrying games that end early).
fn random_position(rng: &mut StdRng, empties: u32) -> Board {
    loop {
        let mut board = Board::INITIAL;
        while board.empty_count() > empties {
            let moves: Vec<Square> = board.moves().into_iter().collect();
            if moves.is_empty() {
                if board.pass().has_moves() {
                    board = board.pass();
                    continue;
                }
                break;
            }
            let sq = moves[rng.random_range(0..moves.len())];
            board = board.play_unchecked(sq, board.flips(sq));
        }
        if board.empty_count() == empties {
            return board;
        }
    }
}

#[test]
fn agrees_with_minimax_on_random_positions() {
    let mut rng = StdRng::seed_from_u64(7);
    for backend in Backend::supported() {
        let solver = Solver::new(SolveOptions::default().with_hash_level(16).with_backend(backend)).unwrap();
        for i in 0..300 {
            let empties = 1 + i % 10;
            let board = random_position(&mut rng, empties);
            let result = solver.solve(&board, SolveMode::Exact);
            assert_eq!(result.score, minimax(&board), "{backend:?} {board:?}");
            if !board.is_game_over() {
                // The best move really reaches the score.
                let best = result.best_move.expect("a move exists");
                let child = board.play(best).unwrap();
                assert_eq!(-minimax(&child), result.score, "{backend:?} {board:?} best {best}");
            }
        }
    }
}

/// Several threads (null-window and PV nodes split from 12 empties) find the scores one thread finds, and their best
/// move reaches that score. Without weights the ordering is the fastest-first heuristic, so later moves often beat the
/// first one at PV nodes, which exercises the parallel re-search there.
#[test]
fn threads_agree_with_one_thread_on_random_positions() {
    let mut rng = StdRng::seed_from_u64(11);
    let one = Solver::new(SolveOptions::default().with_threads(1).with_hash_level(18)).unwrap();
    let three = Solver::new(SolveOptions::default().with_threads(3).with_hash_level(18)).unwrap();
    for i in 0..24 {
        let board = random_position(&mut rng, 13 + i % 3);
        let expected = one.solve(&board, SolveMode::Exact).score;
        three.clear();
        let result = three.solve(&board, SolveMode::Exact);
        assert_eq!(result.score, expected, "{board:?}");
        if !board.is_game_over() {
            let best = result.best_move.expect("a move exists");
            let child = board.play(best).unwrap();
            assert_eq!(-one.solve(&child, SolveMode::Exact).score, expected, "{board:?} best {best}");
        }
    }
}

#[test]
fn principal_variation_is_legal_and_reaches_the_score() {
    let mut rng = StdRng::seed_from_u64(8);
    let solver = Solver::new(SolveOptions::default().with_hash_level(18)).unwrap();
    for _ in 0..100 {
        let board = random_position(&mut rng, 12);
        let result = solver.solve(&board, SolveMode::Exact);
        let mut b = board;
        let mut sign = 1;
        for &mv in &result.pv {
            b = b.play(mv).unwrap_or_else(|e| panic!("illegal PV move {mv}: {e}"));
            sign = -sign;
        }
        assert!(b.is_game_over(), "the PV plays the game to its end");
        assert_eq!(sign * b.final_score(), result.score);
    }
}

#[test]
fn solver_scores_are_symmetry_invariant() {
    let mut rng = StdRng::seed_from_u64(9);
    let solver = Solver::new(SolveOptions::default().with_hash_level(18)).unwrap();
    for _ in 0..10 {
        let board = random_position(&mut rng, 16);
        let score = solver.solve(&board, SolveMode::Exact).score;
        for symmetry in Symmetry::ALL {
            solver.clear();
            let image = board.transform(symmetry);
            let result = solver.solve(&image, SolveMode::Exact);
            assert_eq!(result.score, score, "{symmetry:?}");
            if let Some(Move::Place(sq)) = result.best_move {
                // The best move of the image maps back to a move of the original that reaches the same score.
                let back = symmetry.inverse().apply_square(sq);
                assert_eq!(-solve_score(&solver, &board.play(Move::Place(back)).unwrap()), score);
            }
        }
    }
}

fn solve_score(solver: &Solver, board: &Board) -> i32 {
    solver.solve(board, SolveMode::Exact).score
}

#[test]
fn win_draw_loss_mode_matches_the_sign_of_the_exact_score() {
    let mut rng = StdRng::seed_from_u64(10);
    let solver = Solver::new(SolveOptions::default().with_hash_level(18)).unwrap();
    for _ in 0..100 {
        let board = random_position(&mut rng, 14);
        solver.clear();
        let exact = solver.solve(&board, SolveMode::Exact).score;
        solver.clear();
        let wld = solver.solve(&board, SolveMode::WinLossDraw).score;
        assert_eq!(wld, exact.signum(), "{board:?}");
    }
}

/// FFO #40–#44 (20–23 empties), solved exactly with two threads.
#[test]
fn ffo_40_to_44_exact() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/ffo-40-59.obf")).unwrap();
    let entries = parse_obf_file(&text).unwrap();
    let solver = Solver::new(SolveOptions::default().with_threads(2).with_hash_level(22)).unwrap();
    for (i, entry) in entries.iter().take(5).enumerate() {
        solver.clear();
        let expected = entry.moves.iter().map(|&(_, s)| s).max().unwrap();
        let result = solver.solve(&entry.position.board, SolveMode::Exact);
        assert_eq!(result.score, expected, "FFO #{}", 40 + i);
        // Every listed move with the best score is a best move; ours must be one of them.
        let best = result.best_move.unwrap();
        assert!(
            entry.moves.iter().any(|&(m, s)| m == best && s == expected),
            "FFO #{}: {best} is not listed with the best score",
            40 + i
        );
    }
}

/// The stop flag ends a long search quickly. The engine checks it at every node with 11 or more empties, so it reacts
/// in well under a millisecond; the bound here leaves room for a loaded test machine's scheduler.
#[test]
fn stop_is_honoured_promptly() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/ffo-40-59.obf")).unwrap();
    let entries = parse_obf_file(&text).unwrap();
    // FFO #58 (30 empties) takes far longer than the test waits.
    let board = entries[18].position.board;
    for threads in [1, 2] {
        let solver = Solver::new(SolveOptions::default().with_threads(threads).with_hash_level(20)).unwrap();
        let handle = solver.stop_handle();
        let stopped_at = std::sync::Mutex::new(None);
        let done = AtomicBool::new(false);
        std::thread::scope(|s| {
            let _ = s.spawn(|| {
                std::thread::sleep(Duration::from_millis(300));
                *stopped_at.lock().unwrap() = Some(Instant::now());
                handle.stop();
            });
            let result = solver.solve(&board, SolveMode::Exact);
            let returned = Instant::now();
            done.store(true, Ordering::Relaxed);
            assert!(result.stopped, "the search was stopped");
            let asked = stopped_at.lock().unwrap().expect("stop was sent");
            let delay = returned.saturating_duration_since(asked);
            eprintln!("{threads} thread(s): search returned {delay:?} after stop");
            assert!(delay < Duration::from_millis(250), "{threads} thread(s): returned {delay:?} after stop");
        });
        assert!(done.load(Ordering::Relaxed));
    }
}

/// 168 independently solved positions (0–20 empties) from a public set: our scores must match theirs.
#[test]
fn matches_an_independent_set_of_exact_scores() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/exact-positions-sample.txt")).unwrap();
    let solver = Solver::new(SolveOptions::default().with_threads(2).with_hash_level(20)).unwrap();
    let mut count = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let (board_text, score_text) = line.rsplit_once(' ').unwrap();
        let position = shirokuro_engine::notation::parse_board(board_text).unwrap();
        let expected: i32 = score_text.parse().unwrap();
        let result = solver.solve(&position.board, SolveMode::Exact);
        assert_eq!(result.score, expected, "{line}");
        count += 1;
    }
    assert_eq!(count, 168);
}

/// With the pattern evaluation in the move ordering, scores stay exact (only the order of the search changes).
#[test]
fn evaluation_ordering_keeps_scores_exact() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../resources/eval")
        .join(shirokuro_engine::eval::weights::SHIPPED_FILE);
    let weights = std::sync::Arc::new(shirokuro_engine::eval::weights::load(&path).unwrap());
    let mut plain = Solver::new(SolveOptions::default().with_hash_level(18)).unwrap();
    let mut ordered = Solver::new(SolveOptions::default().with_hash_level(18)).unwrap();
    ordered.set_weights(Some(weights));
    plain.set_weights(None);
    let mut rng = StdRng::seed_from_u64(11);
    let mut differing_nodes = 0;
    for _ in 0..12 {
        let board = random_position(&mut rng, 17);
        plain.clear();
        ordered.clear();
        let a = plain.solve(&board, SolveMode::Exact);
        let b = ordered.solve(&board, SolveMode::Exact);
        assert_eq!(a.score, b.score, "{board:?}");
        differing_nodes += usize::from(a.nodes != b.nodes);
    }
    // The evaluation does take part in the ordering.
    assert!(differing_nodes > 0);
}
