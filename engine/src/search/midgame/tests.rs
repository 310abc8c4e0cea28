use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::*;
use crate::bitboard::Symmetry;
use crate::search::{SolveMode, SolveOptions, Solver};

fn random_weights(seed: u64) -> Arc<Weights> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut w = Weights::zero();
    for phase in &mut w.patterns {
        for table in phase {
            for v in table.iter_mut() {
                *v = rng.random_range(-1500..1500);
            }
        }
    }
    w.tie_symmetric_indices();
    Arc::new(w)
}

fn random_position(rng: &mut StdRng, plies: usize) -> Position {
    loop {
        let mut position = Position::INITIAL;
        let mut ok = true;
        for _ in 0..plies {
            let moves: Vec<Square> = position.board.moves().into_iter().collect();
            if moves.is_empty() {
                match position.play(Move::Pass) {
                    Ok(p) => position = p,
                    Err(_) => {
                        ok = false;
                        break;
                    }
                }
                continue;
            }
            position = position.play(Move::Place(moves[rng.random_range(0..moves.len())])).unwrap();
        }
        if ok && !position.board.is_game_over() {
            return position;
        }
    }
}

#[test]
fn depth_one_is_the_best_child_evaluation() {
    let weights = random_weights(1);
    let search = MidgameSearch::new(Arc::clone(&weights), 14);
    let mut rng = StdRng::seed_from_u64(2);
    for _ in 0..200 {
        let plies = rng.random_range(4..40);
        let position = random_position(&mut rng, plies);
        search.clear();
        let result = search.search(&position, 1, &mut |_| {});
        let expected = position
            .board
            .moves()
            .into_iter()
            .map(|sq| {
                let child = position.play(Move::Place(sq)).unwrap();
                let f = Features::new(child.black(), child.white());
                -weights.evaluate(&child.board, &f, child.side_to_move)
            })
            .max();
        if let Some(expected) = expected {
            assert_eq!(result.score, expected);
            let best = result.best_move.unwrap();
            assert!(position.board.is_legal(best));
        }
    }
}

#[test]
fn deep_enough_search_is_exact() {
    let weights = random_weights(3);
    let search = MidgameSearch::new(weights, 16);
    let solver = Solver::new(SolveOptions::default().with_hash_level(16)).unwrap();
    let mut rng = StdRng::seed_from_u64(4);
    for _ in 0..100 {
        let position = random_position(&mut rng, 50);
        let empties = position.board.empty_count() as u8;
        search.clear();
        let result = search.search(&position, empties, &mut |_| {});
        assert_eq!(result.score, solver.solve(&position.board, SolveMode::Exact).score, "{:?}", position.board);
    }
}

#[test]
fn scores_are_symmetric_and_deterministic_and_pv_is_legal() {
    let weights = random_weights(5);
    let search = MidgameSearch::new(weights, 16);
    let mut rng = StdRng::seed_from_u64(6);
    for _ in 0..20 {
        let plies = rng.random_range(10..40);
        let position = random_position(&mut rng, plies);
        search.clear();
        let mut iterations = Vec::new();
        let base = search.search(&position, 4, &mut |p| iterations.push(p.depth));
        assert_eq!(iterations, vec![1, 2, 3, 4]);
        search.clear();
        let again = search.search(&position, 4, &mut |_| {});
        assert_eq!((again.score, again.best_move, again.nodes), (base.score, base.best_move, base.nodes));
        let mut p = position;
        for &mv in &base.pv {
            p = p.play(mv).unwrap();
        }
        for symmetry in Symmetry::ALL {
            let image = Position { board: position.board.transform(symmetry), side_to_move: position.side_to_move };
            search.clear();
            assert_eq!(search.search(&image, 4, &mut |_| {}).score, base.score, "{symmetry:?}");
        }
    }
}

#[test]
fn stop_returns_the_last_completed_iteration() {
    let search = MidgameSearch::new(random_weights(7), 16);
    let handle = search.stop_handle();
    let position = Position::INITIAL;
    let result = std::thread::scope(|s| {
        let _ = s.spawn(move || {
            std::thread::sleep(Duration::from_millis(200));
            handle.stop();
        });
        search.search(&position, 60, &mut |_| {})
    });
    assert!(result.stopped);
    assert!(result.depth >= 1 && result.depth < 60);
    assert!(position.board.is_legal(result.best_move.unwrap()));
}
