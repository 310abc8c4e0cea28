//! The network's file: the numbers the search reads, compressed.
//!
//! ```text
//! "SKNET02\n"
//! u32 LE × 6: dim, hidden, buckets, rows per bucket (every index of every group: this build's pattern layout;
//!             plus the extra rows), stored rows per bucket (the canonical ones, plus the extra rows), q
//! zlib stream: the dense layers as f32 LE (buckets × Net::dense_len), then the stored rows (bucket by bucket:
//!              group by group, canonical indices in increasing order, then the extra rows) as i16 in 1/q: first
//!              every number's low byte, then every number's high byte
//! ```
//!
//! A network's [`Inputs`] are told by the row counts: the pattern layout's alone ([`Inputs::Patterns`]; every file
//! before the extra rows existed) or with [`Inputs::extra_rows`] more in both.
//!
//! The rows are stored as the search's forward pass holds them (i16 in 1/q, q in the header), so a network read
//! back evaluates every position to the same bits as the network that was written. Only canonical rows are stored
//! (the others are copies); splitting the numbers' bytes lets the compressor see that most high bytes are 0 or 255.

use std::io::{Read, Write};

use flate2::Compression;
use flate2::bufread::ZlibDecoder;
use flate2::write::ZlibEncoder;

use super::forward::Forward;
use super::{Inputs, MAX_DIM, MAX_HIDDEN, Net, NetShape, groups, layout, recode_table};

const MAGIC: &[u8; 8] = b"SKNET02\n";
const HEADER: usize = 8 + 6 * 4;

/// The most row numbers a file may hold (2^25: 64 MB of i16, twice dim 64 × 4 buckets; the search holds them for
/// every index, about 1.5 times as many, and the trainer's floats twice that again).
const MAX_ROW_NUMBERS: usize = 1 << 25;

/// Every group's canonical indices (those that are their own canonical index) in the weights' reading, as row numbers
/// within a bucket: each with the row number where the search holds it (its index in the search's reading; computed
/// once).
fn canonical_rows() -> &'static [(usize, usize)] {
    static ROWS: std::sync::OnceLock<Vec<(usize, usize)>> = std::sync::OnceLock::new();
    ROWS.get_or_init(|| {
        let (layout, recode) = (layout(), recode_table());
        let mut rows = Vec::new();
        for ((g, canonical), group) in layout.canonical.iter().enumerate().zip(groups()) {
            let start = layout.group_start[g] as usize;
            let own = canonical.iter().enumerate().filter(|&(i, &c)| c as usize == i);
            rows.extend(own.map(|(i, _)| (start + i, start + recode[group.length][i] as usize)));
        }
        rows
    })
}

/// Rows a bucket of a network with `inputs` stores: the canonical pattern rows and the extra rows.
fn stored_per_bucket(inputs: Inputs) -> usize {
    canonical_rows().len() + inputs.extra_rows()
}

/// The stored rows as the file holds them (bucket by bucket: group by group, canonical indices in increasing order,
/// then the extra rows), in 1/q.
pub(super) fn canonical_numbers(net: &Net) -> Vec<i16> {
    let NetShape { dim, buckets, inputs, .. } = net.shape;
    let (patterns, total) = (layout().total, net.shape.rows_per_bucket());
    let numbers = net.forward.numbers();
    let mut stored = Vec::with_capacity(buckets * stored_per_bucket(inputs) * dim);
    for b in 0..buckets {
        let extras = (patterns..total).map(|r| (b * total + r) * dim);
        for start in canonical_rows().iter().map(|&(_, at)| (b * total + at) * dim).chain(extras) {
            stored.extend_from_slice(&numbers[start..start + dim]);
        }
    }
    stored
}

/// For every row of a bucket of a network with `inputs` (the weights' reading), where its canonical index's row is
/// among the stored ones (meaningful for canonical rows only, the ones a network reads; an extra row is its own).
fn stored_slots(inputs: Inputs) -> Vec<usize> {
    let (patterns, canonical) = (layout().total, canonical_rows());
    let mut slot = vec![0usize; patterns + inputs.extra_rows()];
    for (k, &(r, _)) in canonical.iter().enumerate() {
        slot[r] = k;
    }
    for (k, s) in slot[patterns..].iter_mut().enumerate() {
        *s = canonical.len() + k;
    }
    slot
}

/// Every row from the stored rows `stored` (as [`canonical_numbers`] gives them) in 1/`q`: an index's is its
/// canonical index's, in floats (n / q, which the forward pass rounds back to n).
pub(super) fn expand(shape: NetShape, stored: &[i16], q: i16) -> Vec<f32> {
    let NetShape { dim, buckets, inputs, .. } = shape;
    let (layout, stored_rows) = (layout(), stored_per_bucket(inputs));
    let total = shape.rows_per_bucket();
    let slot = stored_slots(inputs);
    let mut embed = vec![0f32; buckets * total * dim];
    let patterns = layout.canonical.iter().enumerate().flat_map(|(g, group_canonical)| {
        let start = layout.group_start[g] as usize;
        group_canonical.iter().enumerate().map(move |(i, &c)| (start + i, start + c as usize))
    });
    for (row, canonical) in patterns.chain((layout.total..total).map(|r| (r, r))) {
        let k = slot[canonical];
        for b in 0..buckets {
            let from = (b * stored_rows + k) * dim;
            let to = (b * total + row) * dim;
            for (e, &n) in embed[to..to + dim].iter_mut().zip(&stored[from..from + dim]) {
                *e = f32::from(n) / f32::from(q);
            }
        }
    }
    embed
}

/// The file's bytes.
pub(super) fn write(net: &Net) -> std::io::Result<Vec<u8>> {
    let NetShape { dim, hidden, buckets, inputs } = net.shape;
    let mut out = Vec::with_capacity(HEADER);
    out.extend_from_slice(MAGIC);
    let q = net.forward.q();
    for n in [dim, hidden, buckets, net.shape.rows_per_bucket(), stored_per_bucket(inputs), q as usize] {
        out.extend_from_slice(&(n as u32).to_le_bytes());
    }
    let stored = canonical_numbers(net);
    let low: Vec<u8> = stored.iter().map(|x| x.to_le_bytes()[0]).collect();
    let high: Vec<u8> = stored.iter().map(|x| x.to_le_bytes()[1]).collect();
    let mut z = ZlibEncoder::new(out, Compression::default());
    for x in &net.dense {
        z.write_all(&x.to_le_bytes())?;
    }
    z.write_all(&low)?;
    z.write_all(&high)?;
    z.finish()
}

/// A network from the file's bytes; `Err` says what is wrong with them.
pub(super) fn read(bytes: &[u8]) -> Result<Net, String> {
    if bytes.len() < HEADER || &bytes[..8] != MAGIC {
        return Err("not a network file".into());
    }
    let word = |k: usize| u32::from_le_bytes([0, 1, 2, 3].map(|i| bytes[8 + 4 * k + i])) as usize;
    let (dim, hidden, buckets) = (word(0), word(1), word(2));
    if !(1..=MAX_DIM).contains(&dim) || !(1..=MAX_HIDDEN).contains(&hidden) || !(1..=60).contains(&buckets) {
        return Err(format!("bad shape {dim} × {hidden} × {buckets}"));
    }
    let inputs = [Inputs::Patterns, Inputs::MovesAndMobility]
        .into_iter()
        .find(|&i| word(3) == layout().total + i.extra_rows() && word(4) == stored_per_bucket(i))
        .ok_or("made for another pattern layout")?;
    let shape = NetShape { dim, hidden, buckets, inputs };
    let q = i16::try_from(word(5)).ok().filter(|&q| q >= 1).ok_or("bad unit q")?;
    let stored_rows = stored_per_bucket(inputs);
    let n_dense = buckets * Net::dense_len(shape);
    let n_rows = buckets * stored_rows * dim;
    if n_rows > MAX_ROW_NUMBERS {
        return Err(format!("too large: {n_rows} row numbers where at most {MAX_ROW_NUMBERS} are read"));
    }
    let expected = 4 * n_dense + 2 * n_rows;
    // Grown as the data decompresses, so a short file with a large header costs no memory.
    let mut body = Vec::new();
    let mut decoder = ZlibDecoder::new(&bytes[HEADER..]);
    // One byte more than expected, to see a stream that is too long.
    let _read =
        (&mut decoder).take(expected as u64 + 1).read_to_end(&mut body).map_err(|e| format!("damaged data ({e})"))?;
    if body.len() != expected {
        return Err(format!("{} bytes of data where {expected} were expected", body.len()));
    }
    if !decoder.into_inner().is_empty() {
        return Err("bytes after the data".into());
    }
    let (dense_bytes, row_bytes) = body.split_at(4 * n_dense);
    let dense: Vec<f32> = dense_bytes.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    if dense.iter().any(|x| !x.is_finite()) {
        return Err("a number that is not finite".into());
    }
    let (low, high) = row_bytes.split_at(n_rows);
    let stored: Vec<i16> = low.iter().zip(high).map(|(&l, &h)| i16::from_le_bytes([l, h])).collect();
    drop(body);
    // Every sum of a bias and a position's rows must stay inside i16, as the forward pass adds them without a check.
    let max_row = stored.iter().map(|x| i32::from(*x).abs()).max().unwrap_or(0);
    let per = Net::dense_len(shape);
    let max_bias = dense.chunks_exact(per).flat_map(|d| &d[..dim]).fold(0f32, |m, x| m.max((x * f32::from(q)).abs()));
    if max_bias.round() + shape.features() as f32 * max_row as f32 > f32::from(i16::MAX) {
        return Err("rows too large for their unit q".into());
    }
    // The search's rows straight from the stored ones (no floats in between: the same numbers).
    let slot = stored_slots(inputs);
    let forward = Forward::from_rows(shape, &dense, q, |b, r, out| {
        let from = (b * stored_rows + slot[r]) * dim;
        out.copy_from_slice(&stored[from..from + dim]);
    });
    Ok(Net { shape, dense, forward })
}
