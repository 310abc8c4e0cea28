use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::*;
use crate::bitboard::Symmetry;
use crate::flip::Backend;
use crate::level::Selectivity;
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
        let result = search.search(&position, 1, Selectivity::Exact, &mut |_| {});
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
        let result = search.search(&position, empties, Selectivity::Exact, &mut |_| {});
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
        let base = search.search(&position, 4, Selectivity::Exact, &mut |p| iterations.push(p.depth));
        assert_eq!(iterations, vec![1, 2, 3, 4]);
        search.clear();
        let again = search.search(&position, 4, Selectivity::Exact, &mut |_| {});
        assert_eq!((again.score, again.best_move, again.nodes), (base.score, base.best_move, base.nodes));
        let mut p = position;
        for &mv in &base.pv {
            p = p.play(mv).unwrap();
        }
        for symmetry in Symmetry::ALL {
            let image = Position { board: position.board.transform(symmetry), side_to_move: position.side_to_move };
            search.clear();
            assert_eq!(search.search(&image, 4, Selectivity::Exact, &mut |_| {}).score, base.score, "{symmetry:?}");
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
        search.search(&position, 60, Selectivity::Exact, &mut |_| {})
    });
    assert!(result.stopped);
    assert!(result.depth >= 1 && result.depth < 60);
    assert!(position.board.is_legal(result.best_move.unwrap()));
}

#[test]
fn every_backend_searches_the_same_tree() {
    let weights = random_weights(11);
    let mut rng = StdRng::seed_from_u64(12);
    let positions: Vec<Position> = (0..12).map(|i| random_position(&mut rng, 8 + 3 * i)).collect();
    let reference: Vec<_> = {
        let search = MidgameSearch::new(Arc::clone(&weights), 16).with_backend(Backend::Portable).unwrap();
        positions
            .iter()
            .map(|p| {
                search.clear();
                let r = search.search(p, 5, Selectivity::P93, &mut |_| {});
                (r.score, r.best_move, r.nodes)
            })
            .collect()
    };
    for backend in Backend::supported() {
        let search = MidgameSearch::new(Arc::clone(&weights), 16).with_backend(backend).unwrap();
        for (p, expected) in positions.iter().zip(&reference) {
            search.clear();
            let r = search.search(p, 5, Selectivity::P93, &mut |_| {});
            assert_eq!((r.score, r.best_move, r.nodes), *expected, "{backend:?} {:?}", p.board);
        }
    }
}

#[test]
fn selective_searches_play_legal_moves_and_stay_close_to_the_full_search() {
    let weights = Arc::new(crate::eval::weights::bundled().unwrap());
    let full = MidgameSearch::new(Arc::clone(&weights), 18);
    let selective = MidgameSearch::new(weights, 18);
    let mut rng = StdRng::seed_from_u64(13);
    let mut total_error = 0;
    let n = 24;
    for _ in 0..n {
        let plies = rng.random_range(10..36);
        let position = random_position(&mut rng, plies);
        full.clear();
        selective.clear();
        let exact = full.search(&position, 7, Selectivity::Exact, &mut |_| {});
        let cut = selective.search(&position, 7, Selectivity::P88, &mut |_| {});
        assert!(position.board.is_legal(cut.best_move.unwrap()));
        assert!(cut.nodes <= exact.nodes, "{} > {}", cut.nodes, exact.nodes);
        total_error += (cut.score - exact.score).abs();
    }
    // MPC at 88 % may be wrong now and then, but not by much on average.
    assert!(total_error <= 3 * n, "mean error {}", f64::from(total_error) / f64::from(n));
}

#[test]
fn a_selective_search_to_the_end_is_close_to_the_exact_score() {
    let weights = Arc::new(crate::eval::weights::bundled().unwrap());
    let search = MidgameSearch::new(weights, 18);
    let solver = Solver::new(SolveOptions::default().with_hash_level(18)).unwrap();
    let mut rng = StdRng::seed_from_u64(14);
    let mut total_error = 0;
    let n = 10;
    for _ in 0..n {
        let position = random_position(&mut rng, 42);
        let empties = position.board.empty_count() as u8;
        search.clear();
        let result = search.search(&position, empties, Selectivity::P93, &mut |_| {});
        let exact = solver.solve(&position.board, SolveMode::Exact).score;
        total_error += (result.score - exact).abs();
    }
    assert!(total_error <= 4 * n, "mean error {}", f64::from(total_error) / f64::from(n));
}

#[test]
fn a_search_to_the_end_goes_from_the_last_midgame_iteration_straight_to_the_end() {
    assert_eq!(iteration_depths(1, 8, 30).collect::<Vec<_>>(), (1..=8).collect::<Vec<_>>());
    assert_eq!(iteration_depths(1, 12, 12).collect::<Vec<_>>(), (1..=12).collect::<Vec<_>>());
    assert_eq!(iteration_depths(2, 20, 20).collect::<Vec<_>>(), [(2..=12).collect::<Vec<_>>(), vec![20]].concat());
    // A midgame search deeper than the cap, not to the end, keeps every depth.
    assert_eq!(iteration_depths(1, 16, 30).count(), 16);
    let search = MidgameSearch::new(Arc::new(crate::eval::weights::bundled().unwrap()), 16);
    let solver = Solver::new(SolveOptions::default().with_hash_level(16)).unwrap();
    let mut rng = StdRng::seed_from_u64(21);
    let position = random_position(&mut rng, 43);
    let empties = position.board.empty_count() as u8;
    assert!(empties > LAST_ITERATION_BEFORE_END + 1);
    let mut depths = Vec::new();
    let result = search.search(&position, empties, Selectivity::Exact, &mut |p| depths.push(p.depth));
    let expected: Vec<u8> = (1..=LAST_ITERATION_BEFORE_END).chain([empties]).collect();
    assert_eq!(depths, expected);
    assert_eq!(result.score, solver.solve(&position.board, SolveMode::Exact).score);
}

#[test]
fn two_threads_solve_to_the_end_exactly() {
    let two = MidgameSearch::new(random_weights(15), 16).with_threads(2);
    let solver = Solver::new(SolveOptions::default().with_hash_level(16)).unwrap();
    let mut rng = StdRng::seed_from_u64(16);
    for _ in 0..10 {
        let position = random_position(&mut rng, 44);
        let empties = position.board.empty_count() as u8;
        two.clear();
        let result = two.search(&position, empties, Selectivity::Exact, &mut |_| {});
        assert_eq!(result.score, solver.solve(&position.board, SolveMode::Exact).score, "{:?}", position.board);
        assert!(position.board.is_legal(result.best_move.unwrap()));
    }
}

/// A search in which every move fails low at the −64 floor (the opponent's every position evaluates to +64) stores no
/// move in the table; the root's own best move is still returned.
#[test]
fn a_search_that_fails_low_everywhere_still_names_a_move() {
    let mut weights = crate::eval::Weights::zero();
    for table in &mut weights.discs {
        table.fill(64 * crate::eval::SCALE as i16);
    }
    let search = MidgameSearch::new(Arc::new(weights), 14);
    let position = Position::INITIAL;
    for depth in 1..=3 {
        search.clear();
        let r = search.search(&position, depth, Selectivity::Exact, &mut |_| {});
        assert!(r.best_move.is_some(), "depth {depth}: {r:?}");
        assert_eq!(r.pv.first().copied(), r.best_move);
        assert!(position.play(r.best_move.unwrap()).is_ok());
    }
}

/// Plain alpha-beta on `evaluator` (no table, no cuts, no hand-off): the minimax value of `depth` plies from the side
/// to move's view, a pass free, a finished game its final score.
fn minimax(evaluator: &Evaluator, position: &Position, depth: u32, mut alpha: i32, beta: i32) -> i32 {
    let board = &position.board;
    if board.is_game_over() {
        return board.final_score();
    }
    let moves = board.moves();
    if depth == 0 {
        let f = Features::new(position.black(), position.white());
        let (discs, own) = (64 - board.empty_count(), board.player.count());
        return evaluator.evaluate(discs, own, &f, position.side_to_move, moves.count(), board.pass().moves().count());
    }
    if moves.is_empty() {
        return -minimax(evaluator, &position.play(Move::Pass).unwrap(), depth, -beta, -alpha);
    }
    let mut best = -65;
    for sq in moves {
        let v = -minimax(evaluator, &position.play(Move::Place(sq)).unwrap(), depth - 1, -beta, -alpha);
        best = best.max(v);
        alpha = alpha.max(v);
        if alpha >= beta {
            break;
        }
    }
    best
}

/// With a network, the searches of 1 or 2 plies that order the moves (from depth 6 on) evaluate their leaves by the
/// patterns alone.
/// A full-width search must still be the network's minimax: the search itself evaluates every leaf with the network.
#[test]
fn with_a_network_a_full_width_search_is_the_networks_minimax() {
    use crate::eval::net::{Inputs, NetShape};
    let mut weights = (*random_weights(7)).clone();
    let shape = NetShape { dim: 8, hidden: 8, buckets: 4, inputs: Inputs::MovesAndMobility };
    weights.net = Some(Arc::new(crate::eval::net::tests::random_net(shape, 3)));
    let evaluator = Arc::new(Evaluator::new(&weights));
    let patterns = Evaluator::new(&Weights { net: None, ..weights.clone() });
    let search = MidgameSearch::with_evaluator(Arc::clone(&evaluator), 18);
    let mut rng = StdRng::seed_from_u64(8);
    let mut differ = 0;
    for _ in 0..6 {
        let plies = rng.random_range(38..42);
        let position = random_position(&mut rng, plies);
        search.clear();
        let result = search.search(&position, 7, Selectivity::Exact, &mut |_| {});
        let expected = minimax(&evaluator, &position, 7, -65, 65);
        assert_eq!(result.score, expected, "{:?}", position.board);
        differ += usize::from(minimax(&patterns, &position, 7, -65, 65) != expected);
    }
    // The network changes the values: an ordering search's value taken as a bound would show.
    assert!(differ >= 4, "the network changed {differ} of 6 values");
}

/// The ordering searches' table entries (patterns alone) never give a full search a bound, at any selectivity and
/// depth; the ordering searches take the full searches' bounds.
#[test]
fn the_ordering_searches_entries_give_no_bounds_to_full_searches() {
    use crate::search::core::patterns_only_selectivity;
    use crate::search::midgame::kernel::bounds_usable;
    use crate::search::tt::TtData;
    let entry =
        |selectivity: u8| TtData { lower: 4, upper: 4, best_move: 19, depth: 30, selectivity, second_move: NO_MOVE };
    for stored in Selectivity::ALL {
        for wanted in Selectivity::ALL {
            let (full_stored, full_wanted) = (MIDGAME_BASE + stored.index(), MIDGAME_BASE + wanted.index());
            let ordering_stored = patterns_only_selectivity(full_stored);
            assert!(!bounds_usable(&entry(ordering_stored), full_wanted, 1), "{stored:?} read by {wanted:?}");
            let ordering_wanted = patterns_only_selectivity(full_wanted);
            assert!(bounds_usable(&entry(full_stored), ordering_wanted, 1));
            assert_eq!(bounds_usable(&entry(ordering_stored), ordering_wanted, 1), stored.index() >= wanted.index());
        }
    }
}

/// The exact solver orders its moves from 18 empties on by midgame searches of the evaluation; with a network those of
/// 1 ply (at null-window nodes) read the patterns alone. The scores stay exact.
#[test]
fn with_a_network_the_solver_stays_exact() {
    use crate::eval::net::{Inputs, NetShape};
    let mut weights = (*random_weights(9)).clone();
    let shape = NetShape { dim: 8, hidden: 8, buckets: 4, inputs: Inputs::MovesAndMobility };
    weights.net = Some(Arc::new(crate::eval::net::tests::random_net(shape, 4)));
    let mut with = Solver::new(SolveOptions::default().with_hash_level(18)).unwrap();
    with.set_weights(Some(Arc::new(weights)));
    let plain = Solver::new(SolveOptions::default().with_hash_level(18)).unwrap();
    let mut rng = StdRng::seed_from_u64(10);
    for _ in 0..4 {
        let plies = rng.random_range(40..43);
        let position = random_position(&mut rng, plies);
        with.clear();
        plain.clear();
        let exact = plain.solve(&position.board, SolveMode::Exact).score;
        assert_eq!(with.solve(&position.board, SolveMode::Exact).score, exact, "{:?}", position.board);
    }
}
