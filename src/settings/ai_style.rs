//! Settings ▸ AI Style: the engine at its level, or the human-like sparring partner with its average and largest loss.

use std::ops::RangeInclusive;

use serde::Serialize;
use shirokuro_engine::think::Sparring;
use shirokuro_engine::think::sparring::{SparringStyle, Strength};

use super::{any, take, unknown_keys};
use crate::notice::Notice;

/// The sparring partner's average loss per game, in discs.
pub const SPARRING_AVERAGES: RangeInclusive<u8> = 1..=40;
/// Its largest loss on one move, in discs.
pub const SPARRING_MAX_LOSSES: RangeInclusive<u8> = 1..=64;

/// How the AI plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct AiStyle {
    /// Whether the AI is the human-like sparring partner (else it plays its best at the level).
    pub human_like: bool,
    /// The partner's average loss per game.
    pub average_loss: u8,
    /// The partner's largest loss on one move.
    pub max_loss: u8,
}

impl Default for AiStyle {
    fn default() -> AiStyle {
        let club = Strength::Club.style();
        AiStyle { human_like: false, average_loss: club.average_loss, max_loss: club.max_loss }
    }
}

impl AiStyle {
    /// The partner's style.
    #[must_use]
    pub fn style(self) -> SparringStyle {
        SparringStyle { average_loss: self.average_loss, max_loss: self.max_loss }
    }

    /// The named strength these settings play, if any.
    #[must_use]
    pub fn strength(self) -> Option<Strength> {
        Strength::of(self.style())
    }

    /// The human-like partner at `strength`.
    #[must_use]
    pub fn at(strength: Strength) -> AiStyle {
        let style = strength.style();
        AiStyle { human_like: true, average_loss: style.average_loss, max_loss: style.max_loss }
    }

    /// The policy's sparring part when the partner is on, having lost `lost` discs so far this game.
    #[must_use]
    pub fn sparring(self, lost: u32) -> Option<Sparring> {
        self.human_like.then_some(Sparring { style: self.style(), lost })
    }

    /// These settings with every value in its range.
    #[must_use]
    pub fn clamped(self) -> AiStyle {
        let clamp = |v: u8, r: &RangeInclusive<u8>| v.clamp(*r.start(), *r.end());
        AiStyle {
            human_like: self.human_like,
            average_loss: clamp(self.average_loss, &SPARRING_AVERAGES),
            max_loss: clamp(self.max_loss, &SPARRING_MAX_LOSSES),
        }
    }

    /// Reads the `[ai_style]` table value by value.
    pub(super) fn from_table(mut t: toml::Table, notices: &mut Vec<Notice>) -> AiStyle {
        let d = AiStyle::default();
        let p = "ai_style.";
        let human_like = take(&mut t, p, "human_like", any, notices).unwrap_or(d.human_like);
        let average_loss =
            take(&mut t, p, "average_loss", |v| SPARRING_AVERAGES.contains(v), notices).unwrap_or(d.average_loss);
        let max_loss = take(&mut t, p, "max_loss", |v| SPARRING_MAX_LOSSES.contains(v), notices).unwrap_or(d.max_loss);
        unknown_keys(t, p, notices);
        AiStyle { human_like, average_loss, max_loss }
    }
}
