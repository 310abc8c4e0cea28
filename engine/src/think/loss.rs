//! Egaroucid's "Accept AI's Loss" for the AI's own moves (inventory §6.6): now and then the AI plays a move that
//! loses a little against its best, so that games against it vary.
//!
//! At move number m (1 for the first move), with the curves' ratio p and maximum loss X at m: when X > 0 and a draw
//! falls under p %, the position is searched at the level, then every other legal move is searched (the position after
//! it, one level lower in the midgame as the hints do, at the level in the endgame), and a move is picked at random
//! among those that lose at most X discs against the best. Otherwise the AI plays its best move as usual.

use super::loss_curves::{LossCurves, move_number};
use super::{Thinker, Thought};
use crate::board::Move;
use crate::level::Level;
use crate::position::Position;
use crate::rng::GameRng;

impl Thinker {
    /// A move for `position` at `level` under the loss `curves` (see the module documentation), drawing from `rng`.
    /// The thought's score is the chosen move's, its principal variation starts with it, and its node count covers
    /// every search made.
    pub fn think_with_loss(
        &self,
        position: &Position,
        level: Level,
        curves: &LossCurves,
        rng: &mut GameRng,
    ) -> Thought {
        let board = position.board;
        let number = move_number(&board);
        let max_loss = i32::from(curves.max_loss(number));
        let draw = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * 100.0;
        let moves: Vec<Move> = board.moves().into_iter().map(Move::Place).collect();
        if max_loss == 0 || draw >= f64::from(curves.percent(number)) || moves.len() < 2 {
            return self.think(position, level);
        }
        let best = self.think(position, level);
        let Some(best_move) = best.best_move.filter(|_| !best.stopped) else { return best };
        let child_level = super::child_level(level, &board);
        let mut nodes = best.nodes;
        let mut candidates = vec![(best_move, best.score, best.pv.clone())];
        for mv in moves.into_iter().filter(|&mv| mv != best_move) {
            let Ok(child) = position.play(mv) else { continue };
            let thought = self.think(&child, child_level);
            nodes += thought.nodes;
            if thought.stopped {
                break;
            }
            let score = -thought.score;
            if score >= best.score - max_loss {
                let mut pv = vec![mv];
                pv.extend(thought.pv);
                candidates.push((mv, score, pv));
            }
        }
        let (mv, score, pv) = candidates.swap_remove(rng.below(candidates.len()));
        Thought {
            best_move: Some(mv),
            score,
            exact: best.exact && mv == best_move,
            nodes,
            elapsed: best.elapsed,
            pv,
            ..best
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::eval::weights;
    use crate::search::SolveOptions;

    fn thinker() -> Thinker {
        let weights = Arc::new(weights::bundled().unwrap());
        Thinker::new(weights, SolveOptions::default().with_threads(1).with_hash_level(16)).unwrap()
    }

    /// The moves the AI picks from `position` over `n` draws.
    fn picks(position: &Position, curves: &LossCurves, n: u64) -> Vec<(Move, i32)> {
        let thinker = thinker();
        let mut rng = GameRng::new(9);
        (0..n)
            .map(|_| {
                let t = thinker.think_with_loss(position, Level::new(4).unwrap(), curves, &mut rng);
                assert_eq!(t.pv.first().copied(), t.best_move);
                (t.best_move.unwrap(), t.score)
            })
            .collect()
    }

    /// A position with several moves of different values (after f5 d6 c3 d3 c4).
    fn position() -> Position {
        crate::notation::parse_transcript("f5d6c3d3c4").unwrap().end
    }

    #[test]
    fn without_loss_the_ai_plays_its_best_move() {
        let best = thinker().think(&position(), Level::new(4).unwrap()).best_move.unwrap();
        for curves in [LossCurves::flat(0, 100), LossCurves::flat(64, 0)] {
            assert!(picks(&position(), &curves, 10).iter().all(|(mv, _)| *mv == best), "{curves:?}");
        }
    }

    #[test]
    fn with_loss_the_ai_varies_within_the_allowed_loss() {
        let best = thinker().think(&position(), Level::new(4).unwrap());
        let picked = picks(&position(), &LossCurves::flat(8, 100), 30);
        let moves: std::collections::HashSet<Move> = picked.iter().map(|(mv, _)| *mv).collect();
        assert!(moves.len() >= 2, "30 draws all gave {moves:?}");
        for (mv, score) in &picked {
            assert!(*score >= best.score - 8, "{mv} scores {score}, best {}", best.score);
            assert!(position().board.is_legal(*mv));
        }
    }
}
