//! Loss statistics of many games, by phase and by size: what docs/sparring.md compares between the human games and
//! the sparring partner.

use crate::review::Phase;

/// The upper ends of the loss sizes counted apart: 0, 1–2, 3–5, 6–9, and 10 or more (the review's default grades).
pub const SIZE_LIMITS: [i32; 4] = [0, 2, 5, 9];

/// Losses of the moves of one phase.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PhaseLosses {
    /// Moves counted (positions with a choice of at least two moves).
    pub moves: u64,
    /// Discs lost in all.
    pub loss: u64,
    /// Moves by loss size: 0, 1–2, 3–5, 6–9, ≥ 10 ([`SIZE_LIMITS`]).
    pub sizes: [u64; 5],
}

impl PhaseLosses {
    /// The mean loss per move.
    #[must_use]
    pub fn mean(&self) -> f64 {
        if self.moves == 0 { 0.0 } else { self.loss as f64 / self.moves as f64 }
    }

    /// Adds `other`'s counts.
    pub fn add(&mut self, other: &PhaseLosses) {
        self.moves += other.moves;
        self.loss += other.loss;
        for (n, m) in self.sizes.iter_mut().zip(other.sizes) {
            *n += m;
        }
    }

    /// The share of the moves of each size, in percent.
    #[must_use]
    pub fn size_percents(&self) -> [f64; 5] {
        self.sizes.map(|n| if self.moves == 0 { 0.0 } else { 100.0 * n as f64 / self.moves as f64 })
    }
}

/// Loss statistics over many games: one player's moves of each game (a game of two people counts twice).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LossProfile {
    /// By phase, in [`Phase::ALL`]'s order.
    pub phases: [PhaseLosses; 3],
    /// Each player-game's total loss.
    pub games: Vec<u32>,
    /// The largest loss on one move.
    pub largest: i32,
    current: u32,
}

impl LossProfile {
    /// An empty profile.
    #[must_use]
    pub fn new() -> LossProfile {
        LossProfile::default()
    }

    /// Counts a move played with `empties` empty squares that lost `loss` discs (a negative loss counts as 0).
    pub fn add_move(&mut self, empties: u32, loss: i32) {
        let loss = loss.max(0);
        let phase = &mut self.phases[Phase::of(empties).index()];
        phase.moves += 1;
        phase.loss += u64::from(loss.unsigned_abs());
        let size = SIZE_LIMITS.iter().position(|&limit| loss <= limit).unwrap_or(SIZE_LIMITS.len());
        phase.sizes[size] += 1;
        self.current = self.current.saturating_add(loss.unsigned_abs());
        self.largest = self.largest.max(loss);
    }

    /// Ends the current player-game.
    pub fn end_game(&mut self) {
        self.games.push(std::mem::take(&mut self.current));
    }

    /// The mean loss per player-game.
    #[must_use]
    pub fn mean_per_game(&self) -> f64 {
        if self.games.is_empty() {
            return 0.0;
        }
        self.games.iter().map(|&g| f64::from(g)).sum::<f64>() / self.games.len() as f64
    }

    /// The standard deviation of the player-games' losses.
    #[must_use]
    pub fn deviation_per_game(&self) -> f64 {
        let n = self.games.len() as f64;
        if n < 2.0 {
            return 0.0;
        }
        let mean = self.mean_per_game();
        (self.games.iter().map(|&g| (f64::from(g) - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt()
    }

    /// Each phase's share of the loss, in percent.
    #[must_use]
    pub fn phase_percents(&self) -> [f64; 3] {
        let total: u64 = self.phases.iter().map(|p| p.loss).sum();
        self.phases.map(|p| if total == 0 { 0.0 } else { 100.0 * p.loss as f64 / total as f64 })
    }

    /// Adds `other`'s moves and games to this profile.
    pub fn merge(&mut self, other: &LossProfile) {
        for (total, phase) in self.phases.iter_mut().zip(other.phases) {
            total.add(&phase);
        }
        self.games.extend_from_slice(&other.games);
        self.largest = self.largest.max(other.largest);
    }

    /// All phases together.
    #[must_use]
    pub fn overall(&self) -> PhaseLosses {
        let mut all = PhaseLosses::default();
        for phase in &self.phases {
            all.add(phase);
        }
        all
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_counted_by_phase_and_size_and_games_add_up() {
        let mut profile = LossProfile::new();
        for (empties, loss) in [(55, 0), (50, 2), (30, 3), (25, 12), (10, 6), (10, -1)] {
            profile.add_move(empties, loss);
        }
        profile.end_game();
        profile.add_move(40, 4);
        profile.end_game();
        assert_eq!(profile.games, vec![23, 4]);
        assert_eq!(profile.largest, 12);
        let [opening, midgame, endgame] = profile.phases;
        assert_eq!((opening.moves, opening.loss, opening.sizes), (2, 2, [1, 1, 0, 0, 0]));
        assert_eq!((midgame.moves, midgame.loss, midgame.sizes), (3, 19, [0, 0, 2, 0, 1]));
        assert_eq!((endgame.moves, endgame.loss, endgame.sizes), (2, 6, [1, 0, 0, 1, 0]));
        assert!((profile.mean_per_game() - 13.5).abs() < 1e-12);
        assert_eq!(profile.overall().moves, 7);
        assert!((profile.phase_percents().iter().sum::<f64>() - 100.0).abs() < 1e-9);
    }
}
