//! A small network over the pattern features that corrects a pattern evaluation (experiment, #32).
//!
//! Each feature's index (its group's self-symmetric indices tied, as the pattern tables are) picks a row of `dim`
//! numbers from its group's embedding table of the position's bucket (buckets: equal spans of the 60 moves). The 46
//! rows and a bias are summed and clipped to [0, 1]; a layer of `hidden` units (clipped the same way) and one output
//! follow. The output, in discs, is added to the pattern evaluation's value: the network says what a sum of
//! independent pattern weights cannot, how the patterns' contents go together. A network may also read three more
//! rows ([`Inputs::MovesAndMobility`]): one for the number of moves played and one for each side's mobility.
//! Training is in `tools::net`.

use std::path::Path;

use super::pattern::groups;
use super::{FEATURE_COUNT, Features, MAX_MOBILITY, SCALE, feature_spans, recode_table};
use crate::board::Color;

mod file;
mod forward;

/// Shape of a network.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NetShape {
    /// Numbers per embedding row.
    pub dim: usize,
    /// Units of the hidden layer.
    pub hidden: usize,
    /// Buckets (equal spans of the 60 moves), each with its own embeddings and layers.
    pub buckets: usize,
    /// What the network reads besides the patterns.
    pub inputs: Inputs,
}

/// What a network reads besides its 46 pattern rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Inputs {
    /// The patterns alone.
    #[default]
    Patterns,
    /// Also a row for the number of moves played (0–60) and one for each side's mobility (0 to [`MAX_MOBILITY`],
    /// higher counts sharing the last): the position's phase within its bucket, and how free each side is, which
    /// the pattern evaluation only adds up independently.
    MovesAndMobility,
}

/// Rows of the move number among the extra rows; the two sides' mobility rows follow.
const MOVE_ROWS: usize = 61;

impl Inputs {
    /// Rows a bucket holds besides the patterns'.
    #[must_use]
    pub const fn extra_rows(self) -> usize {
        match self {
            Inputs::Patterns => 0,
            Inputs::MovesAndMobility => MOVE_ROWS + 2 * (MAX_MOBILITY + 1),
        }
    }

    /// Rows a position reads besides its 46 pattern rows.
    #[must_use]
    pub const fn extra_features(self) -> usize {
        match self {
            Inputs::Patterns => 0,
            Inputs::MovesAndMobility => 3,
        }
    }

    /// The extra rows a position reads (indices among the extra rows; the first
    /// [`extra_features`](Self::extra_features) are meaningful): `moves` moves played, the side to move has
    /// `mobility` moves and the opponent `opponent_mobility`.
    #[inline]
    pub(crate) fn extras(moves: usize, mobility: u32, opponent_mobility: u32) -> [usize; 3] {
        let cap = |m: u32| (m as usize).min(MAX_MOBILITY);
        [moves.min(60), MOVE_ROWS + cap(mobility), MOVE_ROWS + MAX_MOBILITY + 1 + cap(opponent_mobility)]
    }
}

impl NetShape {
    /// Rows of one bucket: every index of every pattern group, then the extra rows.
    #[must_use]
    pub fn rows_per_bucket(self) -> usize {
        layout().total + self.inputs.extra_rows()
    }

    /// Rows a position reads.
    #[must_use]
    pub const fn features(self) -> usize {
        FEATURE_COUNT + self.inputs.extra_features()
    }
}

/// The output is scaled by this (in discs), so the layers' weights stay near 1.
pub(crate) const OUT_SCALE: f32 = 16.0;

/// The most numbers an embedding row may have.
pub const MAX_DIM: usize = 128;

/// The most hidden units.
pub const MAX_HIDDEN: usize = 128;

/// A network as the search reads it (the float embedding the trainer works on is not kept: it would be twice the
/// size of the search's rows; [`Net::params`] makes it back when training or measuring needs it).
#[derive(Clone, PartialEq)]
pub struct Net {
    pub(crate) shape: NetShape,
    /// Per bucket: `dim` biases, `hidden × dim` weights, `hidden` biases, `hidden` output weights, one output bias.
    pub(crate) dense: Vec<f32>,
    /// The parameters as the search reads them.
    forward: forward::Forward,
}

/// A network's parameters in floats, as the trainer changes them and [`NetParams::run`] reads them.
#[derive(Clone, PartialEq)]
pub struct NetParams {
    pub(crate) shape: NetShape,
    /// Buckets × rows per bucket (every group's indices back to back, only the canonical ones used; then the extra
    /// rows) × `dim`.
    pub(crate) embed: Vec<f32>,
    /// As [`Net`]'s.
    pub(crate) dense: Vec<f32>,
    /// The unit 1/q of the search's rows these parameters were made from ([`Net::params`]), kept by
    /// [`into_net`](Self::into_net) so that a network goes back to the same bits; `None` once they change.
    pub(crate) unit: Option<i16>,
}

impl std::fmt::Debug for Net {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Net").field("shape", &self.shape).field("forward", &self.forward).finish_non_exhaustive()
    }
}

/// Where each group's rows start, each group's canonical indices, and each feature's group.
pub(crate) struct Layout {
    pub(crate) group_start: Vec<u32>,
    pub(crate) canonical: Vec<Vec<u32>>,
    pub(crate) total: usize,
    pub(crate) feature_group: Vec<usize>,
}

/// The layout (computed once).
pub(crate) fn layout() -> &'static Layout {
    static LAYOUT: std::sync::OnceLock<Layout> = std::sync::OnceLock::new();
    LAYOUT.get_or_init(|| {
        let mut group_start = Vec::new();
        let mut canonical = Vec::new();
        let mut total = 0u32;
        for g in groups() {
            group_start.push(total);
            canonical.push((0..g.size()).map(|i| g.canonical_index(i) as u32).collect());
            total += g.size() as u32;
        }
        let feature_group =
            groups().iter().enumerate().flat_map(|(g, group)| std::iter::repeat_n(g, group.features.len())).collect();
        Layout { group_start, canonical, total: total as usize, feature_group }
    })
}

/// The bucket of a position with `moves` moves played.
#[must_use]
pub(crate) fn bucket(moves: usize, buckets: usize) -> usize {
    (moves.min(60) * buckets / 61).min(buckets - 1)
}

/// Working memory of one forward pass (kept by the trainer for the backward pass).
pub(crate) struct Scratch {
    pub(crate) sum: Vec<f32>,
    pub(crate) act: Vec<f32>,
    pub(crate) pre: Vec<f32>,
    pub(crate) hid: Vec<f32>,
}

impl Scratch {
    pub(crate) fn new(shape: NetShape) -> Scratch {
        Scratch {
            sum: vec![0.0; shape.dim],
            act: vec![0.0; shape.dim],
            pre: vec![0.0; shape.hidden],
            hid: vec![0.0; shape.hidden],
        }
    }
}

impl NetParams {
    /// Parameters from their parts (`embed`: buckets × rows × dim; `dense` as [`Net::dense_len`] per bucket).
    pub(crate) fn from_parts(shape: NetShape, embed: Vec<f32>, dense: Vec<f32>) -> NetParams {
        NetParams { shape, embed, dense, unit: None }
    }

    /// The shape.
    #[must_use]
    pub fn shape(&self) -> NetShape {
        self.shape
    }

    /// The network the search reads, its rows in the finest unit that fits (or the unit of the network these
    /// parameters came from, unchanged).
    #[must_use]
    pub fn into_net(self) -> Net {
        let q = self.unit.unwrap_or_else(|| forward::Forward::choose_q(self.shape, &self.embed, &self.dense));
        Net::with_unit(self.shape, &self.embed, self.dense, q)
    }

    /// The output for the rows `rows` (absolute, bucket included) of bucket `bucket`, in discs.
    pub(crate) fn run(&self, rows: &[u32], bucket: usize, t: &mut Scratch) -> f32 {
        let NetShape { dim, hidden, .. } = self.shape;
        let per = Net::dense_len(self.shape);
        let d = &self.dense[bucket * per..(bucket + 1) * per];
        t.sum.copy_from_slice(&d[..dim]);
        for &r in rows {
            let row = &self.embed[r as usize * dim..(r as usize + 1) * dim];
            for (a, &e) in t.sum.iter_mut().zip(row) {
                *a += e;
            }
        }
        for (a, &s) in t.act.iter_mut().zip(&t.sum) {
            *a = s.clamp(0.0, 1.0);
        }
        let b1 = dim + hidden * dim;
        let mut out = d[b1 + 2 * hidden];
        for j in 0..hidden {
            let w = &d[dim + j * dim..dim + (j + 1) * dim];
            let h = d[b1 + j] + w.iter().zip(&t.act).map(|(a, b)| a * b).sum::<f32>();
            t.pre[j] = h;
            t.hid[j] = h.clamp(0.0, 1.0);
            out += d[b1 + hidden + j] * t.hid[j];
        }
        out * OUT_SCALE
    }
}

impl Net {
    pub(crate) fn dense_len(shape: NetShape) -> usize {
        shape.dim + shape.hidden * shape.dim + 2 * shape.hidden + 1
    }

    /// A network with the search's rows made from `embed` in 1/`q` (the rows must fit, as a file checks).
    fn with_unit(shape: NetShape, embed: &[f32], dense: Vec<f32>, q: i16) -> Net {
        let forward = forward::Forward::new(shape, embed, &dense, q);
        Net { shape, dense, forward }
    }

    /// The shape.
    #[must_use]
    pub fn shape(&self) -> NetShape {
        self.shape
    }

    /// The parameters in floats, made from the search's rows (each `n / q`, which the search rounds back to `n`): for
    /// a network read from a file, exactly the ones it was written from, up to that rounding.
    #[must_use]
    pub fn params(&self) -> NetParams {
        let stored = file::canonical_numbers(self);
        let q = self.forward.q();
        NetParams {
            shape: self.shape,
            embed: file::expand(self.shape, &stored, q),
            dense: self.dense.clone(),
            unit: Some(q),
        }
    }

    /// The correction, in discs from the side to move's view, for a position with `discs` discs whose features
    /// (Black's view) are `features`, whose side to move is `side` with `mobility` moves and whose opponent has
    /// `opponent_mobility` (read only by a network with [`Inputs::MovesAndMobility`]).
    #[must_use]
    pub fn evaluate(&self, discs: u32, features: &Features, side: Color, mobility: u32, opponent_mobility: u32) -> f32 {
        self.forward.evaluate(discs, features, usize::from(side == Color::White), mobility, opponent_mobility)
    }

    /// [`evaluate`](Self::evaluate) in 1/[`SCALE`] discs, rounded to nearest (halves away from zero).
    #[must_use]
    pub fn evaluate_scaled(
        &self,
        discs: u32,
        features: &Features,
        side: Color,
        mobility: u32,
        opponent_mobility: u32,
    ) -> i32 {
        let x = self.evaluate(discs, features, side, mobility, opponent_mobility) * SCALE as f32;
        (x + 0.5f32.copysign(x)) as i32
    }

    /// The network's file as bytes (see [`Net::save`]).
    ///
    /// # Errors
    /// Only if compressing into memory fails.
    pub fn to_bytes(&self) -> std::io::Result<Vec<u8>> {
        file::write(self)
    }

    /// A network from a file's bytes (as [`Net::to_bytes`] writes them).
    ///
    /// # Errors
    /// What is wrong with the bytes, in words.
    pub fn parse(bytes: &[u8]) -> Result<Net, String> {
        file::read(bytes)
    }

    /// Writes the network (compressed, as the search reads it: see `file`), atomically.
    ///
    /// # Errors
    /// An I/O error.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let bytes = self.to_bytes()?;
        crate::fsutil::save_atomically(path, crate::fsutil::Backup::None, |out| out.write_all(&bytes))
            .map_err(|e| e.source)
    }

    /// Reads a network written by [`Net::save`].
    ///
    /// # Errors
    /// An I/O error (a folder, a pipe or a device is refused before reading, as is a file over 256 MB), or a file
    /// that is not a network of this build's pattern layout (`InvalidData`, saying what); each names the file.
    pub fn load(path: &Path) -> std::io::Result<Net> {
        Net::read(path).map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", path.display())))
    }

    /// As [`Net::load`], but the error does not name the file (for callers that name it themselves).
    ///
    /// # Errors
    /// As [`Net::load`].
    pub fn read(path: &Path) -> std::io::Result<Net> {
        let bytes = crate::bounded::read(path, crate::bounded::SMALL_BYTES)?;
        Net::parse(&bytes).map_err(|what| std::io::Error::new(std::io::ErrorKind::InvalidData, what))
    }
}

#[cfg(test)]
pub(crate) mod tests;
