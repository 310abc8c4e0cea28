//! Where a level's time goes: self-play games at the level, each engine move timed and counted, grouped by the
//! search the level's plan runs there (the midgame search, each selective endgame stage, the exact solve) and by
//! bands of empties. Issue 32's middle levels are tuned from this, with matches.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::Duration;

use rayon::prelude::*;

use super::arena::{ArenaError, SelfPlayOptions, play_selfplay_game_observed};
use crate::level::{SearchPlan, Selectivity};
use crate::search::mpc::MpcModel;

/// The search a level's plan runs for a position: what a move's cost is grouped by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Stage {
    /// The depth-limited midgame search.
    Midgame,
    /// A selective search to the end, at this selectivity (index 0-5).
    Selective(u8),
    /// The exact solve.
    Exact,
}

impl Stage {
    /// The stage of `plan`.
    #[must_use]
    pub fn of(plan: SearchPlan) -> Stage {
        match plan {
            SearchPlan::Midgame { .. } => Stage::Midgame,
            SearchPlan::Endgame { selectivity } if selectivity.is_exact() => Stage::Exact,
            SearchPlan::Endgame { selectivity } => Stage::Selective(selectivity.index()),
        }
    }

    /// A short name: `midgame`, `endgame 98%`, `exact`.
    #[must_use]
    pub fn name(self) -> String {
        match self {
            Stage::Midgame => "midgame".to_owned(),
            Stage::Selective(index) => {
                let percent = Selectivity::from_index(index).map_or(0.0, Selectivity::percent);
                format!("endgame {percent}%")
            }
            Stage::Exact => "exact".to_owned(),
        }
    }
}

/// The moves of one group, their time and their nodes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Cost {
    /// Engine moves.
    pub moves: u64,
    /// Their thinking time.
    pub time: Duration,
    /// Their search nodes.
    pub nodes: u64,
}

impl Cost {
    fn add(&mut self, time: Duration, nodes: u64) {
        self.moves = self.moves.saturating_add(1);
        self.time = self.time.saturating_add(time);
        self.nodes = self.nodes.saturating_add(nodes);
    }
}

/// The costs of a run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Profile {
    /// Games played.
    pub games: usize,
    /// By the level's stage, with the empties the stage's moves had (fewest, most).
    pub by_stage: BTreeMap<Stage, (Cost, (u32, u32))>,
    /// By empties, in bands of `band` (key: the band's first empties count, counted down from 60).
    pub by_empties: BTreeMap<u32, Cost>,
    /// The width of an empties band.
    pub band: u32,
}

impl Profile {
    /// All the moves together.
    #[must_use]
    pub fn total(&self) -> Cost {
        let mut total = Cost::default();
        for (cost, _) in self.by_stage.values() {
            total.moves = total.moves.saturating_add(cost.moves);
            total.time = total.time.saturating_add(cost.time);
            total.nodes = total.nodes.saturating_add(cost.nodes);
        }
        total
    }
}

/// Plays `games` self-play games with `options` and `mpc` as the Multi-ProbCut model (`None`: the bundled one) (game
/// `i` as [`play_selfplay_game_observed`] plays it, on the current rayon pool, one single-threaded thinker each) and
/// profiles their engine moves; empties are grouped in bands of `band` (at least 1). `on_game` is called as each
/// game finishes.
///
/// # Errors
/// The first [`ArenaError`] of a game.
pub fn profile(
    games: usize,
    options: &SelfPlayOptions,
    mpc: Option<&MpcModel>,
    band: u32,
    on_game: &(dyn Fn(usize) + Sync),
) -> Result<Profile, ArenaError> {
    let band = band.max(1);
    let plan = options.level_plan();
    let profile = Mutex::new(Profile { games, band, ..Profile::default() });
    (0..games).into_par_iter().try_for_each(|index| {
        let mut moves = Vec::new();
        let _game = play_selfplay_game_observed(index as u64, options, mpc, &mut |position, thought| {
            moves.push((position.board.empty_count(), thought.elapsed, thought.nodes));
        })?;
        let mut profile = profile.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        for (empties, time, nodes) in moves {
            let stage = Stage::of(plan.plan(u8::try_from(empties).unwrap_or(u8::MAX)));
            let (cost, range) = profile.by_stage.entry(stage).or_insert((Cost::default(), (empties, empties)));
            cost.add(time, nodes);
            *range = (range.0.min(empties), range.1.max(empties));
            let first = 60 - (60 - empties.min(60)) / band * band;
            profile.by_empties.entry(first).or_default().add(time, nodes);
        }
        drop(profile);
        on_game(index);
        Ok::<(), ArenaError>(())
    })?;
    Ok(profile.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner))
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::eval::weights;
    use crate::level::Level;

    #[test]
    fn every_engine_move_is_counted_once_in_its_stage_and_band() {
        let options = SelfPlayOptions {
            weights: Arc::new(weights::bundled().expect("the shipped weights")),
            level: Level::new(6).expect("a level"),
            plan: None,
            min_random_moves: 20,
            max_random_moves: 20,
            seed: 3,
            hash_level: 14,
        };
        let played = std::sync::atomic::AtomicUsize::new(0);
        let profile = profile(3, &options, None, 10, &|_| {
            let _before = played.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        })
        .expect("games");
        assert_eq!(played.into_inner(), 3);
        let total = profile.total();
        let by_band: u64 = profile.by_empties.values().map(|c| c.moves).sum();
        assert_eq!(total.moves, by_band);
        assert!(total.moves >= 3 * 30, "about 40 engine moves a game, passes not counted");
        assert!(profile.by_empties.keys().all(|&first| first <= 40 && (60 - first) % 10 == 0));
        // Level 6 searches the midgame at depth 6 and solves exactly from 12 empties: two stages, split there.
        let stages: Vec<Stage> = profile.by_stage.keys().copied().collect();
        assert_eq!(stages, vec![Stage::Midgame, Stage::Exact]);
        let (_, exact) = profile.by_stage[&Stage::Exact];
        let (_, midgame) = profile.by_stage[&Stage::Midgame];
        assert!(exact.1 <= u32::from(options.level.exact_from()) && midgame.0 > u32::from(options.level.exact_from()));
        assert!(total.nodes > 0);
    }
}
