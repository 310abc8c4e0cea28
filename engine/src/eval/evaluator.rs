//! The evaluation laid out for the search: [`Weights`] flattened into one table per phase, indexed in the search's
//! reading of the features ([`Features`]), so an evaluation is 46 table reads plus two mobility reads. Black to move
//! reads each feature's table from its start, White to move from its end: in that reading the colour swap of an index
//! is its mirror `3^length − 1 − index`, so the two colours share one table (half the memory, and cache, that a table
//! per colour would take).
//!
//! [`Evaluator::evaluate`] gives exactly [`Weights::evaluate`]'s value (a test checks it); the caller supplies both
//! sides' move counts, which the search computes with its own (SIMD) move generator.

use super::pattern::{Group, groups};
use super::{
    DISC_TABLE, FEATURE_COUNT, Features, MAX_MOBILITY, MAX_PHASES, SCALE, Weights, disc_index, feature_spans,
    recode_table,
};
use crate::board::Color;

/// Flattened evaluation tables.
#[derive(Debug, Clone)]
pub struct Evaluator {
    /// `tables[phase]`: every group's table, one after the other, indexed in the search's reading with Black to move.
    tables: Vec<Box<[i16]>>,
    /// Where each feature's group table starts inside a phase table (Black to move reads `offsets[f] + index`).
    offsets: [u32; FEATURE_COUNT],
    /// Where each feature's group table ends (its last entry): White to move reads `mirrors[f] − index`.
    mirrors: [u32; FEATURE_COUNT],
    /// `mobility[phase][n]` and `opponent_mobility[phase][n]`, plus the bias, as in [`Weights`].
    mobility: Vec<[i16; MAX_MOBILITY + 1]>,
    opponent_mobility: Vec<[i16; MAX_MOBILITY + 1]>,
    bias: [i16; MAX_PHASES],
    /// `phases[discs]`: the phase of a position with that many discs (0–64), as [`Weights::phase`] gives it.
    phases: [u8; 65],
    /// `discs[phase][`[`disc_index`]`]`, as in [`Weights`].
    discs: Vec<[i16; DISC_TABLE]>,
    /// The weights' network, if any.
    net: Option<std::sync::Arc<super::net::Net>>,
}

impl Evaluator {
    /// Lays out `weights` for fast evaluation (about 10 MB for 30 phases, 20 MB for 60).
    #[must_use]
    pub fn new(weights: &Weights) -> Evaluator {
        let groups = groups();
        let recode = recode_table();
        let &(offsets, mirrors) = feature_spans();
        let total = groups.iter().map(Group::size).sum();
        let mut tables = Vec::with_capacity(weights.phases());
        for phase_tables in &weights.patterns {
            let mut table = Vec::with_capacity(total);
            for (weights, group) in phase_tables.iter().zip(groups) {
                table.extend(recode[group.length].iter().map(|&i| weights[i as usize]));
            }
            tables.push(table.into_boxed_slice());
        }
        let row = |v: &Vec<i16>| {
            let mut out = [0i16; MAX_MOBILITY + 1];
            out.copy_from_slice(&v[..=MAX_MOBILITY]);
            out
        };
        let mut bias = [0i16; MAX_PHASES];
        for (to, &from) in bias.iter_mut().zip(&weights.bias) {
            *to = from;
        }
        let mut phases = [0u8; 65];
        for (discs, phase) in (0u32..).zip(&mut phases) {
            // At most MAX_PHASES - 1 = 59.
            *phase = weights.phase(discs) as u8;
        }
        let disc_row = |v: &Vec<i16>| {
            let mut out = [0i16; DISC_TABLE];
            out.copy_from_slice(&v[..DISC_TABLE]);
            out
        };
        Evaluator {
            discs: weights.discs.iter().map(disc_row).collect(),
            tables,
            offsets,
            mirrors,
            mobility: weights.mobility.iter().map(row).collect(),
            opponent_mobility: weights.opponent_mobility.iter().map(row).collect(),
            bias,
            phases,
            net: weights.net.clone(),
        }
    }

    /// Whether the evaluation has a network besides its patterns (then [`estimate`](Self::estimate) is the cheaper
    /// of the two).
    #[inline]
    #[must_use]
    pub fn has_net(&self) -> bool {
        self.net.is_some()
    }

    /// The evaluation, in discs from the side to move's view, of a position with `discs` discs on the board, `own`
    /// of them the side to move's, whose features (Black's view) are `features`, whose side to move is `side` and
    /// where the side to move has `mobility` moves and the opponent `opponent_mobility`.
    #[inline]
    #[must_use]
    pub fn evaluate(
        &self,
        discs: u32,
        own: u32,
        features: &Features,
        side: Color,
        mobility: u32,
        opponent_mobility: u32,
    ) -> i32 {
        self.evaluate_scaled(discs, own, features, side, mobility, opponent_mobility).div_euclid(SCALE).clamp(-64, 64)
    }

    /// [`evaluate`](Self::evaluate) before rounding: in 1/[`SCALE`] discs, offset by half a disc so that dividing by
    /// [`SCALE`] rounds to nearest.
    #[inline]
    #[must_use]
    pub fn evaluate_scaled(
        &self,
        discs: u32,
        own: u32,
        features: &Features,
        side: Color,
        mobility: u32,
        opponent_mobility: u32,
    ) -> i32 {
        let sum = self.patterns_scaled(discs, own, features, side, mobility, opponent_mobility);
        match &self.net {
            Some(net) => sum + net.evaluate_scaled(discs, features, side, mobility, opponent_mobility),
            None => sum,
        }
    }

    /// [`evaluate`](Self::evaluate) without the weights' network (the same where there is none): a cheaper estimate
    /// for ordering moves.
    #[inline]
    #[must_use]
    pub fn estimate(
        &self,
        discs: u32,
        own: u32,
        features: &Features,
        side: Color,
        mobility: u32,
        opponent_mobility: u32,
    ) -> i32 {
        self.patterns_scaled(discs, own, features, side, mobility, opponent_mobility).div_euclid(SCALE).clamp(-64, 64)
    }

    /// The pattern evaluation in 1/[`SCALE`] discs, offset by half a disc.
    #[inline]
    fn patterns_scaled(
        &self,
        discs: u32,
        own: u32,
        features: &Features,
        side: Color,
        mobility: u32,
        opponent_mobility: u32,
    ) -> i32 {
        let phase = usize::from(self.phases[(discs as usize).min(64)]);
        let table = &self.tables[phase];
        let mut sum = i32::from(self.bias[phase]) + SCALE / 2;
        let indices = features.indices().iter().map(|&i| u32::from(i));
        match side {
            Color::Black => {
                for (index, &offset) in indices.zip(&self.offsets) {
                    sum += i32::from(table[(offset + index) as usize]);
                }
            }
            Color::White => {
                for (index, &mirror) in indices.zip(&self.mirrors) {
                    sum += i32::from(table[(mirror - index) as usize]);
                }
            }
        }
        sum += i32::from(self.mobility[phase][(mobility as usize).min(MAX_MOBILITY)]);
        sum += i32::from(self.opponent_mobility[phase][(opponent_mobility as usize).min(MAX_MOBILITY)]);
        sum += i32::from(self.discs[phase][disc_index(own, discs)]);
        sum
    }
}
