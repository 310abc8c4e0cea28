//! The sparring partner measured: games against an AI, and the human games' losses counted the same way
//! (`shirokuro-cli sparring match` / `sparring human`, docs/sparring.md).
//!
//! Both count a move's loss as the partner does ([`Thinker::move_values`] at one level): the best move's value
//! minus the played move's, for every position with at least two legal moves.

use rayon::prelude::*;

use crate::board::{Color, Move};
use crate::level::Level;
use crate::position::Position;
use crate::rng::GameRng;
use crate::think::Thinker;
use crate::think::sparring::SparringStyle;
use crate::think::sparring::profile::LossProfile;

/// One game of the sparring partner against an AI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SparringGame {
    /// The partner's colour.
    pub partner: Color,
    /// The moves played (passes included).
    pub moves: Vec<Move>,
    /// Each partner move's empties before it and its loss, in order.
    pub losses: Vec<(u32, i32)>,
    /// The final disc difference for the partner.
    pub result: i32,
}

/// Who plays a sparring game: the partner's style and level, and the AI's level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SparringSetup {
    /// The partner's style.
    pub style: SparringStyle,
    /// The level of the partner's searches.
    pub level: Level,
    /// The AI's level.
    pub opponent: Level,
}

/// Plays one game from the initial position: the partner (`setup.style` at `setup.level`) with `partner`'s colour
/// against the AI at `setup.opponent`, both on `thinker`, the partner's draws from `rng`. `None` when a search was
/// stopped.
pub fn play_sparring_game(
    thinker: &Thinker,
    setup: SparringSetup,
    partner: Color,
    rng: &mut GameRng,
) -> Option<SparringGame> {
    let mut position = Position::INITIAL;
    let (mut moves, mut losses, mut lost) = (Vec::new(), Vec::new(), 0u32);
    while !position.board.is_game_over() {
        let thought = if position.side_to_move == partner {
            let choice = thinker.choose_sparring(&position, setup.level, setup.style, lost, rng);
            if position.board.moves().count() >= 2 {
                losses.push((position.board.empty_count(), choice.loss));
                lost = lost.saturating_add(choice.loss.max(0).unsigned_abs());
            }
            choice.thought
        } else {
            thinker.think(&position, setup.opponent)
        };
        if thought.stopped {
            return None;
        }
        let mv = thought.best_move.unwrap_or(Move::Pass);
        position = position.play(mv).ok()?;
        moves.push(mv);
    }
    let black = position.black_score();
    Some(SparringGame { partner, moves, losses, result: if partner == Color::Black { black } else { -black } })
}

/// Plays `games` games (the partner Black in the even ones), game i's draws from [`GameRng::for_game`]`(seed, i)`,
/// on the current rayon pool, each game with a new single-threaded thinker from `new_thinker`; the games in order.
/// Games whose search failed are left out.
pub fn play_sparring_games(
    new_thinker: &(dyn Fn() -> Option<Thinker> + Sync),
    setup: SparringSetup,
    games: u64,
    seed: u64,
) -> Vec<SparringGame> {
    (0..games)
        .into_par_iter()
        .filter_map(|i| {
            let thinker = new_thinker()?;
            let partner = if i % 2 == 0 { Color::Black } else { Color::White };
            play_sparring_game(&thinker, setup, partner, &mut GameRng::for_game(seed, i))
        })
        .collect()
}

/// The partner's losses over `games` as a profile.
#[must_use]
pub fn profile_of(games: &[SparringGame]) -> LossProfile {
    let mut profile = LossProfile::new();
    for game in games {
        for &(empties, loss) in &game.losses {
            profile.add_move(empties, loss);
        }
        profile.end_game();
    }
    profile
}

/// Counts the losses of both players of a game played from the initial position (`moves`, passes optional) into
/// `profile`, each move's loss measured by [`Thinker::move_values`] at `level`. Returns false (counting nothing)
/// when the line has an illegal move or a search was stopped.
pub fn profile_line(thinker: &Thinker, moves: &[Move], level: Level, profile: &mut LossProfile) -> bool {
    let mut position = Position::INITIAL;
    let mut counted = [Vec::new(), Vec::new()];
    for &mv in moves {
        if !position.board.has_moves() && !position.board.is_game_over() && mv != Move::Pass {
            position = Position { board: position.board.pass(), side_to_move: !position.side_to_move };
        }
        if position.board.moves().count() >= 2 {
            let Some(values) = thinker.move_values(&position, level) else { return false };
            let best = values.iter().map(|(_, v, _)| *v).max().unwrap_or(0);
            let Some(played) = values.iter().find(|(m, _, _)| *m == mv) else { return false };
            let side = usize::from(position.side_to_move == Color::White);
            counted[side].push((position.board.empty_count(), best - played.1));
        }
        let Ok(next) = position.play(mv) else { return false };
        position = next;
    }
    for player in counted {
        for (empties, loss) in player {
            profile.add_move(empties, loss);
        }
        profile.end_game();
    }
    true
}
