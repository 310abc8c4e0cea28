//! A sparring partner that errs like a person (Settings ▸ AI Style).
//!
//! A strong engine told to blunder now and then plays like a strong engine with random blunders. People lose discs
//! differently: a little on many moves, rarely a lot, and more in the midgame and endgame than in the opening. The
//! partner is given an average loss per game and a largest loss per move ([`SparringStyle`]). On each of its moves
//! it searches every legal move ([`Thinker::move_values`]), takes its share of what is left of the game's loss
//! budget ([`draw::move_target`]), and draws a move so that the expected loss is that share, small losses being far
//! likelier than large ones ([`draw::probabilities`]); a move worse than the maximum is never played. Because each
//! share is taken from what is left, a game that went badly early is played more carefully later, and over many
//! games the realised average meets the setting (measured in docs/sparring.md, with the human games' losses).
//!
//! Losses are measured by the partner's own searches: a move's value is the position after it searched one level
//! lower in the midgame (as the hints do), exactly in the level's exact range.

pub mod draw;
pub mod profile;

use super::{Thinker, Thought, child_level};
use crate::board::Move;
use crate::level::Level;
use crate::position::Position;
use crate::rng::GameRng;

/// The deepest level the partner values its moves at when it plays through a [`Policy`](super::Policy): it searches
/// every legal move, so each level costs it some ten times the plain AI's time, and its strength is set by its style,
/// not by its level. At level 10 the values are exact from 20 empties.
pub const MAX_LEVEL: Level = Level::clamped(10);

/// How the sparring partner plays: the discs it aims to lose per game on average, and the most it may lose on one
/// move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SparringStyle {
    /// The average loss per game, in discs.
    pub average_loss: u8,
    /// The largest loss on one move, in discs.
    pub max_loss: u8,
}

/// Strengths named for a beginner, each a [`SparringStyle`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Strength {
    /// Knows the rules: loses about 30 discs a game.
    Beginner,
    /// Plays now and then: about 20.
    Casual,
    /// A club player: about 10.
    Club,
    /// A tournament player: about 4.
    Tournament,
    /// An expert: about 2.
    Expert,
}

impl Strength {
    /// Every strength, weakest first.
    pub const ALL: [Strength; 5] =
        [Strength::Beginner, Strength::Casual, Strength::Club, Strength::Tournament, Strength::Expert];

    /// The style this strength plays.
    #[must_use]
    pub const fn style(self) -> SparringStyle {
        let (average_loss, max_loss) = match self {
            Strength::Beginner => (30, 30),
            Strength::Casual => (20, 24),
            Strength::Club => (10, 16),
            Strength::Tournament => (4, 10),
            Strength::Expert => (2, 6),
        };
        SparringStyle { average_loss, max_loss }
    }

    /// The strength whose style is `style`, if any.
    #[must_use]
    pub fn of(style: SparringStyle) -> Option<Strength> {
        Strength::ALL.into_iter().find(|s| s.style() == style)
    }
}

/// The sparring partner's move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SparringChoice {
    /// The move as a thought: its value, the line after it, and the nodes of every search made for it.
    pub thought: Thought,
    /// The best move's value.
    pub best: i32,
    /// Discs the move loses against the best (0 for a best move).
    pub loss: i32,
}

impl Thinker {
    /// The value of every legal move of `position` for the side to move: the position after it searched at
    /// [`child_level`] of `level`, negated, with that search's thought. `None` when a search was stopped; empty when
    /// the side to move has no move.
    pub fn move_values(&self, position: &Position, level: Level) -> Option<Vec<(Move, i32, Thought)>> {
        let board = position.board;
        let level = child_level(level, &board);
        let mut values = Vec::new();
        for square in board.moves() {
            let mv = Move::Place(square);
            let Ok(child) = position.play(mv) else { continue };
            let thought = self.think(&child, level);
            if thought.stopped {
                return None;
            }
            values.push((mv, -thought.score, thought));
        }
        Some(values)
    }

    /// The sparring partner's move in `position` at `level` under `style`, having lost `lost` discs so far this game
    /// (see the module documentation); the draw comes from `rng`. A position with one move (or a pass) is searched
    /// as usual and loses nothing; a stopped search gives a stopped thought.
    pub fn choose_sparring(
        &self,
        position: &Position,
        level: Level,
        style: SparringStyle,
        lost: u32,
        rng: &mut GameRng,
    ) -> SparringChoice {
        let plain = |thought: Thought| SparringChoice { best: thought.score, loss: 0, thought };
        if position.board.moves().count() < 2 {
            return plain(self.think(position, level));
        }
        let Some(values) = self.move_values(position, level) else {
            return plain(Thought { stopped: true, ..self.think(position, Level::MIN) });
        };
        let best = values.iter().map(|(_, v, _)| *v).max().unwrap_or(0);
        let max_loss = i32::from(style.max_loss);
        let losses: Vec<Option<i32>> =
            values.iter().map(|(_, v, _)| Some(best - v).filter(|loss| *loss <= max_loss)).collect();
        let left = f64::from(style.average_loss) - f64::from(lost);
        let target = draw::move_target(left, position.board.empty_count());
        let probabilities = draw::probabilities(&losses, target);
        let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let index = draw::pick(&probabilities, u).unwrap_or(0);
        let nodes = values.iter().map(|(_, _, t)| t.nodes).sum();
        let elapsed = values.iter().map(|(_, _, t)| t.elapsed).sum();
        let Some((mv, value, child)) = values.into_iter().nth(index) else {
            return plain(self.think(position, level));
        };
        let mut pv = vec![mv];
        pv.extend(child.pv);
        let thought = Thought {
            best_move: Some(mv),
            score: value,
            exact: child.exact,
            depth: child.depth.saturating_add(1),
            nodes,
            elapsed,
            stopped: false,
            selectivity: child.selectivity,
            pv,
        };
        SparringChoice { thought, best, loss: best - value }
    }
}

#[cfg(test)]
mod tests;
