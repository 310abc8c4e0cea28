//! The human-like sparring partner's losses in the game shown (Settings ▸ AI Style): each of its moves is drawn
//! from what is left of its loss budget for the game, so the game remembers what each of its moves lost.

use std::collections::HashMap;

use shirokuro_engine::Position;
use shirokuro_engine::think::Sparring;

use crate::record::Record;
use crate::settings::AiStyle;

/// The partner's loss on each position it moved from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Ledger {
    losses: HashMap<Position, u32>,
}

impl Ledger {
    /// The partner lost `loss` discs with its move from `from`.
    pub(super) fn record(&mut self, from: Position, loss: i32) {
        let _previous = self.losses.insert(from, loss.max(0).unsigned_abs());
    }

    /// Forgets every loss (a new game).
    pub(super) fn clear(&mut self) {
        self.losses.clear();
    }

    /// What the partner lost on the line being viewed before its current position: going back or taking another
    /// branch leaves out the moves no longer on the line.
    pub(super) fn lost(&self, record: &Record) -> u32 {
        (0..record.ply())
            .filter_map(|ply| record.node_at(ply))
            .filter_map(|node| self.losses.get(&node.position))
            .fold(0u32, |sum, loss| sum.saturating_add(*loss))
    }

    /// The policy's sparring part for the position shown, when the partner is on.
    pub(super) fn sparring(&self, style: AiStyle, record: &Record) -> Option<Sparring> {
        style.human_like.then(|| style.sparring(self.lost(record))).flatten()
    }
}
