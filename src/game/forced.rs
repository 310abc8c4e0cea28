//! The forced openings in the game flow: on the AI's turn, a move of a forced opening that passes through the
//! position is played at once, before the book and any search (see `crate::forced_opening`).

use shirokuro_engine::Square;

use super::{Action, Game};
use crate::context::Ctx;
use crate::forced_opening::{self, Folder, Forced};
use crate::log::LogLine;

impl Game {
    /// The forced openings.
    #[must_use]
    pub fn forced_root(&self) -> &Folder {
        &self.forced.0
    }

    /// New forced openings (read at start, or edited): the AI's next move follows them.
    pub fn set_forced(&mut self, root: Folder, ctx: &Ctx<'_>) -> Action {
        let lines = root.enabled_lines();
        self.forced = (root, lines);
        self.plan(ctx)
    }

    /// Where the position shown stands against the forced openings, when Force AI's Opening is on and there are
    /// lines (the info panel says it, as Egaroucid's "Forced" / "Forced Line Out" / "Forced Line Ended").
    #[must_use]
    pub fn forced_status(&self, ctx: &Ctx<'_>) -> Option<Forced> {
        if !ctx.settings.force_openings || self.forced.1.is_empty() {
            return None;
        }
        let position = self.record.current().position;
        let (moves, ended) = forced_opening::proposals(&self.forced.1, &position);
        Some(match moves.first() {
            Some((square, _)) => Forced::Move(*square),
            None if ended => Forced::Ended,
            None => Forced::Out,
        })
    }

    /// The forced move for the AI here, drawn by weight, when Force AI's Opening is on.
    pub(super) fn forced_move(&mut self, ctx: &Ctx<'_>) -> Option<Square> {
        if !ctx.settings.force_openings {
            return None;
        }
        let position = self.record.current().position;
        match forced_opening::choose(&self.forced.1, &position, &mut self.seeds) {
            Forced::Move(square) => Some(square),
            Forced::Ended | Forced::Out => None,
        }
    }

    /// Plays the forced move and goes on with the flow.
    pub(super) fn play_forced(&mut self, square: Square, ctx: &Ctx<'_>) -> Action {
        if self.record.play(square, false).is_ok() {
            self.stamp_clock();
            self.push_log(LogLine::ForcedMove(square));
        }
        self.plan(ctx)
    }
}
