//! Thinking against a clock: the level's search, cut off when the move's share of the remaining time is spent.
//!
//! The level stays the ceiling: a search that finishes within its budget is the level's own search. When the budget
//! runs out first, the midgame search's deepest finished iteration gives the move (its iterative deepening always has
//! one after depth 1, which takes microseconds). An endgame plan (the selective or exact search to the end) has no such
//! partial answer, so it is preceded by a shallow midgame search whose move is used if the endgame search cannot finish
//! in time.
//!
//! [`move_budget`] divides the remaining time among the moves this side still has to play, keeping a reserve, so that
//! a clock used only through this budget never falls (the searches stop within milliseconds of being asked).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use super::{ThinkProgress, Thinker, Thought};
use crate::level::{Level, SearchPlan};
use crate::position::Position;

/// Time held back from every budget for the stop latency and the moves' own handling.
const RESERVE: Duration = Duration::from_millis(100);

/// Moves added to this side's remaining moves when the time is shared out, so that the last moves keep some time.
const SPARE_MOVES: u32 = 3;

/// Depth of the midgame search that gives an endgame plan its fallback move.
const FALLBACK_DEPTH: u8 = 8;

/// The time the next move may take, given the side's `remaining` time and the `empties` of the position: an equal
/// share among the moves this side still has to play (half the empties, rounded up) plus [`SPARE_MOVES`], less a
/// reserve. Zero when the remaining time is within the reserve: the search then returns its first iteration.
#[must_use]
pub fn move_budget(remaining: Duration, empties: u8) -> Duration {
    let own_moves = u32::from(empties).div_ceil(2);
    let share = remaining / (own_moves + SPARE_MOVES);
    share.min(remaining.saturating_sub(RESERVE)).saturating_sub(RESERVE / 2)
}

impl Thinker {
    /// Picks a move for `position` at `level` within `budget` (see the module docs). The thought is `stopped` only
    /// when someone else stopped the search (a stop by the clock returns the best move found in time); its `depth`
    /// and `exact` tell how far the search got.
    pub fn think_timed(
        &self,
        position: &Position,
        level: Level,
        budget: Duration,
        progress: &mut dyn FnMut(&ThinkProgress),
    ) -> Thought {
        let board = position.board;
        if board.is_game_over() || !board.has_moves() {
            // Nothing to choose: the untimed path scores the end or plays the forced pass.
            return self.think_with_progress(position, level, progress);
        }
        let start = Instant::now();
        let empties = u8::try_from(board.empty_count()).unwrap_or(60);
        let timed_out = AtomicBool::new(false);
        let (finished, waiting) = mpsc::channel::<()>();
        let stop = self.stop_handle();
        let (fallback, thought) = std::thread::scope(|scope| {
            let timed_out = &timed_out;
            let stop = &stop;
            let _watchdog = scope.spawn(move || {
                if waiting.recv_timeout(budget) == Err(RecvTimeoutError::Timeout) {
                    timed_out.store(true, Ordering::SeqCst);
                    stop.stop();
                }
            });
            let fallback = match level.plan(empties) {
                SearchPlan::Endgame { .. } => {
                    let depth = FALLBACK_DEPTH.min(empties.saturating_sub(1)).max(1);
                    Some(self.think_with_progress(position, Level::clamped(depth), &mut |_| {}))
                }
                SearchPlan::Midgame { .. } => None,
            };
            let stopped_by_caller = fallback.as_ref().is_some_and(|f| f.stopped) && !timed_out.load(Ordering::SeqCst);
            let thought = if timed_out.load(Ordering::SeqCst) {
                None
            } else if stopped_by_caller {
                fallback.clone()
            } else {
                Some(self.think_with_progress(position, level, progress))
            };
            // Ends the watchdog's wait (a send error only means it has fired already).
            let _ = finished.send(());
            (fallback, thought)
        });
        if !timed_out.load(Ordering::SeqCst) {
            // Finished in time, or stopped by someone else (the caller sees `stopped`).
            if let Some(thought) = thought {
                return thought;
            }
        }
        // The clock stopped it: the deepest answer found in time.
        let usable = |t: &Thought| t.best_move.is_some();
        let mut chosen = match (thought, fallback) {
            (Some(thought), _) if usable(&thought) && !is_endgame_plan(level, empties) => thought,
            (_, Some(fallback)) if usable(&fallback) => fallback,
            (Some(thought), _) if usable(&thought) => thought,
            // Not even a first iteration in time: the shallowest search, which takes microseconds.
            _ => self.think(position, Level::clamped(1)),
        };
        chosen.stopped = false;
        chosen.exact = chosen.exact && chosen.depth >= empties;
        chosen.elapsed = start.elapsed();
        chosen
    }
}

/// Whether `level` searches `empties` with an endgame plan (its partial results carry no move).
fn is_endgame_plan(level: Level, empties: u8) -> bool {
    matches!(level.plan(empties), SearchPlan::Endgame { .. })
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::eval::Weights;
    use crate::search::SolveOptions;

    #[test]
    fn the_budget_shares_the_remaining_time_and_keeps_a_reserve() {
        // 60 s with 40 empties: 20 own moves + 3 spare → 60/23 s, less half the reserve.
        let budget = move_budget(Duration::from_secs(60), 40);
        assert_eq!(budget, Duration::from_secs(60) / 23 - RESERVE / 2);
        // Fewer empties, a larger share of the same time.
        assert!(move_budget(Duration::from_secs(60), 10) > budget);
        // Within the reserve: nothing.
        assert_eq!(move_budget(Duration::from_millis(90), 10), Duration::ZERO);
        // Never more than the time left less the reserve.
        assert!(move_budget(Duration::from_millis(300), 1) <= Duration::from_millis(200));
    }

    fn thinker() -> Thinker {
        Thinker::new(Arc::new(Weights::zero()), SolveOptions::default().with_hash_level(16).with_threads(1)).unwrap()
    }

    /// A generous budget changes nothing: the level's own search.
    #[test]
    fn a_search_that_fits_its_budget_is_the_levels_search() {
        let thinker = thinker();
        let position = crate::notation::parse_transcript("f5d6c3d3c4f4").unwrap().end;
        let level = Level::new(4).unwrap();
        let plain = thinker.think(&position, level);
        thinker.clear();
        let timed = thinker.think_timed(&position, level, Duration::from_secs(600), &mut |_| {});
        assert_eq!((timed.best_move, timed.score, timed.depth), (plain.best_move, plain.score, plain.depth));
        assert!(!timed.stopped);
    }

    /// A budget far too small for the level still gives a legal move, not a stopped search.
    #[test]
    fn a_spent_budget_gives_the_best_move_found_in_time() {
        let thinker = thinker();
        let position = crate::notation::parse_transcript("f5d6c3d3c4f4").unwrap().end;
        let thought = thinker.think_timed(&position, Level::new(60).unwrap(), Duration::ZERO, &mut |_| {});
        let mv = thought.best_move.expect("a move");
        assert!(position.board.is_legal(mv));
        assert!(!thought.stopped && !thought.exact);
        // An endgame plan (level 60 solves 30 empties exactly) with no time: the fallback's move.
        let mut endgame = position;
        while endgame.board.empty_count() > 30 {
            let mv =
                endgame.board.moves().into_iter().next().map_or(crate::board::Move::Pass, crate::board::Move::Place);
            endgame = endgame.play(mv).unwrap();
        }
        let thought = thinker.think_timed(&endgame, Level::new(60).unwrap(), Duration::ZERO, &mut |_| {});
        assert!(endgame.board.is_legal(thought.best_move.expect("a move")));
        assert!(!thought.stopped && !thought.exact);
    }

    /// Someone else's stop is still a stop.
    #[test]
    fn a_stop_by_the_caller_is_reported() {
        let thinker = thinker();
        let position = crate::notation::parse_transcript("f5d6c3").unwrap().end;
        let stop = thinker.stop_handle();
        let thought = std::thread::scope(|scope| {
            let _stopper = scope.spawn(|| {
                std::thread::sleep(Duration::from_millis(50));
                stop.stop();
            });
            thinker.think_timed(&position, Level::new(60).unwrap(), Duration::from_secs(600), &mut |_| {})
        });
        assert!(thought.stopped);
    }
}
