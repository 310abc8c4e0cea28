use std::sync::Arc;

use super::*;
use crate::eval::weights;
use crate::search::SolveOptions;

fn thinker() -> Thinker {
    let weights = Arc::new(weights::bundled().unwrap());
    Thinker::new(weights, SolveOptions::default().with_threads(1).with_hash_level(16)).unwrap()
}

/// After f5 d6 c3 d3 c4: several moves of different values.
fn position() -> Position {
    crate::notation::parse_transcript("f5d6c3d3c4").unwrap().end
}

#[test]
fn move_values_are_the_children_searched_one_level_lower() {
    let thinker = thinker();
    let level = Level::new(4).unwrap();
    let values = thinker.move_values(&position(), level).unwrap();
    assert_eq!(values.len(), position().board.moves().into_iter().count());
    for (mv, value, _) in &values {
        let child = position().play(*mv).unwrap();
        assert_eq!(*value, -thinker.think(&child, Level::new(3).unwrap()).score, "{mv}");
    }
}

#[test]
fn the_partner_never_loses_more_than_the_maximum_and_reports_its_loss() {
    let thinker = thinker();
    let level = Level::new(4).unwrap();
    let values = thinker.move_values(&position(), level).unwrap();
    let best = values.iter().map(|v| v.1).max().unwrap();
    let style = SparringStyle { average_loss: 60, max_loss: 4 };
    let mut rng = GameRng::new(5);
    let mut played = std::collections::HashSet::new();
    for _ in 0..40 {
        let choice = thinker.choose_sparring(&position(), level, style, 0, &mut rng);
        let mv = choice.thought.best_move.unwrap();
        let value = values.iter().find(|v| v.0 == mv).unwrap().1;
        assert_eq!((choice.best, choice.loss, choice.thought.score), (best, best - value, value));
        assert!(choice.loss <= 4, "{mv} loses {}", choice.loss);
        assert_eq!(choice.thought.pv.first(), Some(&mv));
        let _new = played.insert(mv);
    }
    assert!(played.len() >= 2, "a large budget varies the moves: {played:?}");
}

#[test]
fn a_spent_budget_plays_a_best_move() {
    let thinker = thinker();
    let level = Level::new(4).unwrap();
    let style = Strength::Club.style();
    let mut rng = GameRng::new(1);
    for _ in 0..10 {
        let choice = thinker.choose_sparring(&position(), level, style, u32::from(style.average_loss), &mut rng);
        assert_eq!(choice.loss, 0);
    }
}

#[test]
fn strengths_are_ordered_and_named_back() {
    let styles = Strength::ALL.map(Strength::style);
    assert!(styles.windows(2).all(|w| w[0].average_loss > w[1].average_loss));
    assert!(styles.iter().all(|s| s.max_loss >= s.average_loss.min(30) / 2));
    assert_eq!(Strength::of(Strength::Club.style()), Some(Strength::Club));
    assert_eq!(Strength::of(SparringStyle { average_loss: 7, max_loss: 7 }), None);
}
