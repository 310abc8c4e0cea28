//! The opening names the info panel shows: the one reached so far and the one a hovered move leads to.

use shirokuro_engine::{Move, Square};

use super::Game;
use crate::opening::Openings;

impl Game {
    /// The name of the last named opening along the line up to the cursor.
    #[must_use]
    pub fn opening_so_far(&self, language: crate::i18n::Language) -> Option<&'static str> {
        let openings = Openings::of(language);
        (0..=self.record.ply()).rev().find_map(|ply| self.record.node_at(ply).and_then(|n| openings.name(&n.position)))
    }

    /// The opening a legal move under the cursor leads to, as (square, name).
    #[must_use]
    pub fn hovered_opening(&self, language: crate::i18n::Language) -> Option<(Square, &'static str)> {
        let square = self.hovered?;
        let next = self.record.current().position.play(Move::Place(square)).ok()?;
        Openings::of(language).name(&next).map(|name| (square, name))
    }
}
