//! A small network over the pattern features that corrects a pattern evaluation (experiment, #32).
//!
//! Each feature's index (its group's self-symmetric indices tied, as the pattern tables are) picks a row of `dim`
//! numbers from its group's embedding table of the position's bucket (buckets: equal spans of the 60 moves). The 46
//! rows and a bias are summed and clipped to [0, 1]; a layer of `hidden` units (clipped the same way) and one output
//! follow. The output, in discs, is added to the pattern evaluation's value: the network says what a sum of
//! independent pattern weights cannot, how the patterns' contents go together. Training is in `tools::net`.

use std::io::Write;
use std::path::Path;

use super::pattern::groups;
use super::{FEATURE_COUNT, Features, SCALE, swap_table};
use crate::board::Color;

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
}

/// The output is scaled by this (in discs), so the layers' weights stay near 1.
pub(crate) const OUT_SCALE: f32 = 16.0;

const MAGIC: &[u8; 8] = b"SKNET01\n";

/// The most numbers an embedding row may have.
pub const MAX_DIM: usize = 64;

/// The most hidden units.
pub const MAX_HIDDEN: usize = 128;

/// The network's parameters.
#[derive(Clone, PartialEq)]
pub struct Net {
    pub(crate) shape: NetShape,
    /// Rows per bucket: every group's indices back to back (only the canonical ones are used).
    pub(crate) rows_per_bucket: usize,
    pub(crate) embed: Vec<f32>,
    /// Per bucket: `dim` biases, `hidden × dim` weights, `hidden` biases, `hidden` output weights, one output bias.
    pub(crate) dense: Vec<f32>,
    /// The parameters as the search reads them.
    forward: forward::Forward,
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

pub(crate) fn layout() -> Layout {
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

impl Net {
    pub(crate) fn dense_len(shape: NetShape) -> usize {
        shape.dim + shape.hidden * shape.dim + 2 * shape.hidden + 1
    }

    /// A network from its parameters (`embed`: buckets × rows × dim; `dense` as [`Net::dense_len`] per bucket).
    pub(crate) fn from_parts(shape: NetShape, embed: Vec<f32>, dense: Vec<f32>) -> Net {
        let forward = forward::Forward::new(shape, &embed, &dense);
        Net { shape, rows_per_bucket: layout().total, embed, dense, forward }
    }

    /// The shape.
    #[must_use]
    pub fn shape(&self) -> NetShape {
        self.shape
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

    /// The correction, in discs from the side to move's view, for a position with `discs` discs whose features
    /// (Black's view) are `features` and whose side to move is `side`; `offsets` are the features' group starts
    /// (as the evaluator's tables have them).
    #[must_use]
    pub fn evaluate(&self, discs: u32, features: &Features, side: Color, offsets: &[u32; FEATURE_COUNT]) -> f32 {
        self.forward.evaluate(discs, features, usize::from(side == Color::White), offsets)
    }

    /// [`evaluate`](Self::evaluate) in 1/[`SCALE`] discs, rounded to nearest (halves away from zero).
    #[must_use]
    pub fn evaluate_scaled(&self, discs: u32, features: &Features, side: Color, offsets: &[u32; FEATURE_COUNT]) -> i32 {
        let x = self.evaluate(discs, features, side, offsets) * SCALE as f32;
        (x + 0.5f32.copysign(x)) as i32
    }

    /// Writes the network (raw little-endian numbers after a small header).
    ///
    /// # Errors
    /// An I/O error.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let mut out = Vec::with_capacity(32 + 4 * (self.embed.len() + self.dense.len()));
        out.extend_from_slice(MAGIC);
        for n in [self.shape.dim, self.shape.hidden, self.shape.buckets, self.rows_per_bucket] {
            out.extend_from_slice(&(n as u32).to_le_bytes());
        }
        for x in self.embed.iter().chain(&self.dense) {
            out.extend_from_slice(&x.to_le_bytes());
        }
        let tmp = path.with_extension("tmp");
        std::fs::File::create(&tmp)?.write_all(&out)?;
        std::fs::rename(tmp, path)
    }

    /// Reads a network written by [`Net::save`].
    ///
    /// # Errors
    /// An I/O error, or a file that is not a network of this build's pattern layout.
    pub fn load(path: &Path) -> std::io::Result<Net> {
        let bad =
            |what: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, format!("{}: {what}", path.display()));
        let bytes = std::fs::read(path)?;
        if bytes.len() < 24 || &bytes[..8] != MAGIC {
            return Err(bad("not a network file"));
        }
        let word = |k: usize| u32::from_le_bytes(bytes[8 + 4 * k..12 + 4 * k].try_into().unwrap_or_default()) as usize;
        let shape = NetShape { dim: word(0), hidden: word(1), buckets: word(2) };
        if shape.dim == 0
            || shape.dim > MAX_DIM
            || shape.hidden == 0
            || shape.hidden > MAX_HIDDEN
            || !(1..=60).contains(&shape.buckets)
        {
            return Err(bad("bad shape"));
        }
        if word(3) != layout().total {
            return Err(bad("made for another pattern layout"));
        }
        let n_embed = shape.buckets * word(3) * shape.dim;
        let n_dense = shape.buckets * Net::dense_len(shape);
        let body = &bytes[24..];
        if body.len() != 4 * (n_embed + n_dense) {
            return Err(bad("wrong length"));
        }
        let floats: Vec<f32> = body.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
        if floats.iter().any(|x| !x.is_finite()) {
            return Err(bad("a number that is not finite"));
        }
        let (embed, dense) = floats.split_at(n_embed);
        Ok(Net::from_parts(shape, embed.to_vec(), dense.to_vec()))
    }
}

#[cfg(test)]
mod tests;
