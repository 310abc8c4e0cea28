//! The network's forward pass as the search runs it: integer embedding sums and a fused multiply-add layer.
//!
//! The rows are stored for every index of every group in the search's reading of the features ([`Features`]) as Black
//! to move sees it, so a feature's row is read at `start + index` with no canonical-index table in between; White to
//! move reads `end − index`, the colour swap of the index in that reading; a bucket's extra rows (move number and
//! mobility, [`Inputs`]) follow its pattern rows. Each row is one 64-byte cache line at 32 numbers. The rows are
//! `i16` in 1/`q` where `q` is chosen so that no sum of a bias and a position's rows can leave `i16` (wrapping adds
//! are then exact). The hidden layer is `f32`,
//! computed with fused multiply-adds over the inputs above zero only (most are clipped to zero), in a fixed order into
//! two partial sums, and the output's eight partial sums are added in a fixed tree: the portable code and the AVX2 code
//! give the same bits, so a search gives the same nodes on every machine.
#![allow(unsafe_code)]

use super::{
    FEATURE_COUNT, Features, Inputs, MAX_DIM, MAX_HIDDEN, Net, NetShape, OUT_SCALE, bucket, feature_spans, layout,
    recode_table,
};

/// One cache line of embedding numbers.
#[repr(C, align(64))]
#[derive(Clone, Copy, PartialEq, Eq)]
struct Line([i16; 32]);

/// How the forward pass runs on this machine.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kernel {
    Portable,
    #[cfg(target_arch = "x86_64")]
    Avx2,
}

/// The search's copy of a network's parameters.
#[derive(Clone, PartialEq)]
pub(crate) struct Forward {
    dim: usize,
    hidden: usize,
    buckets: usize,
    /// Rows per bucket (every index of every group, then the extra rows).
    total: usize,
    /// What the network reads besides the patterns.
    inputs: Inputs,
    /// Where a bucket's extra rows start (after every index of every group).
    extra_start: usize,
    /// The clip bound of the embedding sum: the rows are in 1/`q`.
    q: i16,
    /// Bucket × total × dim numbers, back to back, in 1/`q`: the row of every index (search's reading) of every group
    /// as Black to move sees it (the canonical index's row).
    rows: Vec<Line>,
    /// Each feature's group start: Black to move reads the row at `starts[f] + index`.
    starts: [u32; FEATURE_COUNT],
    /// Each feature's group end (its last index): White to move reads the row at `mirrors[f] − index`.
    mirrors: [u32; FEATURE_COUNT],
    /// Per bucket: the `dim` biases of the sum, in 1/`q`.
    bias: Vec<i16>,
    /// Per bucket: the hidden layer's weights transposed (`dim × hidden`), divided by `q`.
    w1: Vec<f32>,
    /// Per bucket: `hidden` biases.
    b1: Vec<f32>,
    /// Per bucket: `hidden` output weights.
    w2: Vec<f32>,
    /// Per bucket: the output bias.
    b2: Vec<f32>,
    kernel: Kernel,
}

impl Forward {
    /// The unit `1/q` in which the rows of a network of shape `shape` with the parameters `embed` and `dense` are
    /// stored: the finest that keeps every sum of a bias and a position's rows inside `i16`.
    pub(crate) fn choose_q(shape: NetShape, embed: &[f32], dense: &[f32]) -> i16 {
        let per = Net::dense_len(shape);
        // The largest |sum| any position can reach, in the float model.
        let max_row = embed.iter().fold(0f32, |m, x| m.max(x.abs()));
        let max_bias = dense.chunks_exact(per).flat_map(|d| &d[..shape.dim]).fold(0f32, |m, x| m.max(x.abs()));
        let bound = max_bias + shape.features() as f32 * max_row;
        // Rounding adds at most half a unit to each of the (at most 50) terms: keep 64 units of headroom.
        (f32::from(i16::MAX - 64) / bound.max(1e-6)).clamp(1.0, 16384.0).floor() as i16
    }

    /// The search's tables for a network of shape `shape` with the parameters `embed` and `dense` (as in [`Net`]),
    /// its rows in 1/`q` (`q` from [`choose_q`](Self::choose_q), or as a network file gives it: the rows must then
    /// fit).
    pub(crate) fn new(shape: NetShape, embed: &[f32], dense: &[f32], q: i16) -> Forward {
        let (dim, total) = (shape.dim, shape.rows_per_bucket());
        let scale = f32::from(q);
        Forward::from_rows(shape, dense, q, |b, r, out| {
            let row = &embed[(b * total + r) * dim..(b * total + r + 1) * dim];
            for (o, &x) in out.iter_mut().zip(row) {
                *o = (x * scale).round() as i16;
            }
        })
    }

    /// The search's tables for a network of shape `shape` with the dense layers `dense`, whose rows are already in
    /// 1/`q`: `row(b, r, out)` writes bucket `b`'s row `r` (the weights' reading: a group's start plus a canonical
    /// index, or the patterns' row count plus an extra row) into `out` (`dim` numbers). Each row is asked for once
    /// for every index that reads it.
    pub(crate) fn from_rows(
        shape: NetShape,
        dense: &[f32],
        q: i16,
        mut row: impl FnMut(usize, usize, &mut [i16]),
    ) -> Forward {
        let NetShape { dim, hidden, buckets, inputs } = shape;
        let layout = layout();
        let total = shape.rows_per_bucket();
        let per = Net::dense_len(shape);
        let dense = |b: usize| &dense[b * per..(b + 1) * per];
        let recode = recode_table();
        let lengths: Vec<usize> = super::groups().iter().map(|g| g.length).collect();
        // Written line by line in place: no second copy of the rows while they are made.
        let mut rows = vec![Line([0; 32]); (buckets * total * dim).div_ceil(32)];
        let mut numbers = [0i16; MAX_DIM];
        let mut at = 0;
        for b in 0..buckets {
            // The search's index i is the weights' index recode(i), whose canonical index's row this is; the extra
            // rows follow in their own order.
            let patterns = layout.canonical.iter().enumerate().flat_map(|(g, canonical)| {
                let start = layout.group_start[g] as usize;
                recode[lengths[g]].iter().map(move |&i| start + canonical[i as usize] as usize)
            });
            for r in patterns.chain(layout.total..total) {
                row(b, r, &mut numbers[..dim]);
                for &n in &numbers[..dim] {
                    rows[at / 32].0[at % 32] = n;
                    at += 1;
                }
            }
        }
        // The network's groups lie back to back as the evaluator's do.
        let &(starts, mirrors) = feature_spans();
        let b1_at = dim + hidden * dim;
        let scale = f32::from(q);
        let mut w1 = vec![0f32; buckets * dim * hidden];
        for (b, t) in w1.chunks_exact_mut(dim * hidden).enumerate() {
            let d = dense(b);
            for j in 0..hidden {
                for k in 0..dim {
                    t[k * hidden + j] = d[dim + j * dim + k] / scale;
                }
            }
        }
        Forward {
            dim,
            hidden,
            buckets,
            total,
            inputs,
            extra_start: layout.total,
            q,
            rows,
            starts,
            mirrors,
            bias: (0..buckets).flat_map(|b| dense(b)[..dim].iter().map(|&x| (x * scale).round() as i16)).collect(),
            w1,
            b1: (0..buckets).flat_map(|b| dense(b)[b1_at..b1_at + hidden].to_vec()).collect(),
            w2: (0..buckets).flat_map(|b| dense(b)[b1_at + hidden..b1_at + 2 * hidden].to_vec()).collect(),
            b2: (0..buckets).map(|b| dense(b)[b1_at + 2 * hidden]).collect(),
            kernel: Kernel::detect(dim, hidden),
        }
    }

    /// The rows' unit is 1/`q`.
    pub(crate) fn q(&self) -> i16 {
        self.q
    }

    /// Whether the forward pass runs vector code on this machine.
    #[cfg(test)]
    pub(crate) fn is_vectorised(&self) -> bool {
        self.kernel != Kernel::Portable
    }

    /// The rows as numbers: bucket × (every index of every group, then the extra rows) × `dim`, in 1/`q`.
    pub(super) fn numbers(&self) -> &[i16] {
        // SAFETY: `Line` is `repr(C)` around `[i16; 32]` and its size is exactly 64 bytes (32 × 2, already a multiple
        // of its alignment), so the lines are 32 × len `i16`s back to back with no padding, valid and initialised for
        // as long as `self` is borrowed.
        unsafe { std::slice::from_raw_parts(self.rows.as_ptr().cast::<i16>(), self.rows.len() * 32) }
    }

    /// Where the row of feature `f` with `index` (search's reading, Black's view) starts in
    /// [`numbers`](Self::numbers), in bucket `b`, seen from `view`.
    #[inline]
    fn row_start(&self, b: usize, view: usize, f: usize, index: u16) -> usize {
        let index = u32::from(index);
        let at = if view == 0 { self.starts[f] + index } else { self.mirrors[f] - index };
        (b * self.total + at as usize) * self.dim
    }

    /// Where the extra rows a position reads start in [`numbers`](Self::numbers) (bucket `b`, `moves` moves played,
    /// the mobility of both sides); only the first [`Inputs::extra_features`] are read.
    #[inline]
    pub(super) fn extra_row_starts(&self, b: usize, moves: usize, mobility: u32, opponent_mobility: u32) -> [usize; 3] {
        Inputs::extras(moves, mobility, opponent_mobility).map(|k| (b * self.total + self.extra_start + k) * self.dim)
    }

    /// The network's output in discs (side to move's view; `view` 0 for Black to move, 1 for White; the side to move
    /// has `mobility` moves, the opponent `opponent_mobility`); see [`Net::evaluate`].
    pub(crate) fn evaluate(
        &self,
        discs: u32,
        features: &Features,
        view: usize,
        mobility: u32,
        opponent_mobility: u32,
    ) -> f32 {
        let moves = discs.saturating_sub(4) as usize;
        let b = bucket(moves, self.buckets);
        let extras = self.extra_row_starts(b, moves, mobility, opponent_mobility);
        let extras = &extras[..self.inputs.extra_features()];
        match self.kernel {
            Kernel::Portable => self.portable(b, features, view, extras),
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => {
                // SAFETY: `Kernel::detect` chose Avx2 only where the CPU has AVX2 and FMA and the shape is one that
                // `avx2::evaluate` handles.
                unsafe { avx2::evaluate(self, b, features, view, extras) }
            }
        }
    }

    /// The reference forward pass: what [`avx2::evaluate`] computes, bit for bit. `extras`: where the extra rows the
    /// position reads start in [`numbers`](Self::numbers).
    pub(crate) fn portable(&self, b: usize, features: &Features, view: usize, extras: &[usize]) -> f32 {
        let (dim, hidden) = (self.dim, self.hidden);
        let numbers = self.numbers();
        let mut acc = [0i16; MAX_DIM];
        let acc = &mut acc[..dim];
        acc.copy_from_slice(&self.bias[b * dim..(b + 1) * dim]);
        let mut add = |r: usize| {
            for (a, &e) in acc.iter_mut().zip(&numbers[r..r + dim]) {
                // Never wraps: `q` keeps every partial sum inside i16.
                *a = a.wrapping_add(e);
            }
        };
        for (f, &index) in features.indices().iter().enumerate() {
            add(self.row_start(b, view, f, index));
        }
        for &r in extras {
            add(r);
        }
        // Only the inputs above zero count (most are clipped to zero: 60 % for d64mm in the midgame bench),
        // and they go in turn to two partial sums per hidden unit, the first from the bias and the second from zero,
        // added at the end: the vector code's two chains of multiply-adds, which run side by side.
        let (mut even, mut odd) = ([0f32; MAX_HIDDEN], [0f32; MAX_HIDDEN]);
        let (even, odd) = (&mut even[..hidden], &mut odd[..hidden]);
        even.copy_from_slice(&self.b1[b * hidden..(b + 1) * hidden]);
        let w1 = &self.w1[b * dim * hidden..(b + 1) * dim * hidden];
        let active = acc.iter().zip(w1.chunks_exact(hidden)).filter(|&(&a, _)| a > 0);
        for (i, (&a, column)) in active.enumerate() {
            let a = f32::from(a.min(self.q));
            let h = if i % 2 == 0 { &mut *even } else { &mut *odd };
            for (x, &w) in h.iter_mut().zip(column) {
                *x = a.mul_add(w, *x);
            }
        }
        let mut h = [0f32; MAX_HIDDEN];
        let h = &mut h[..hidden];
        for ((x, &e), &o) in h.iter_mut().zip(&*even).zip(&*odd) {
            *x = e + o;
        }
        let mut lanes = [0f32; 8];
        for (k, (&x, &w)) in h.iter().zip(&self.w2[b * hidden..(b + 1) * hidden]).enumerate() {
            lanes[k % 8] = x.clamp(0.0, 1.0).mul_add(w, lanes[k % 8]);
        }
        finish(lanes, self.b2[b])
    }
}

/// The output from the eight partial sums (added in the tree the AVX2 code uses) and the bias.
fn finish(l: [f32; 8], bias: f32) -> f32 {
    let quads = [l[0] + l[4], l[1] + l[5], l[2] + l[6], l[3] + l[7]];
    let pairs = [quads[0] + quads[2], quads[1] + quads[3]];
    (pairs[0] + pairs[1] + bias) * OUT_SCALE
}

impl Kernel {
    fn detect(dim: usize, hidden: usize) -> Kernel {
        #[cfg(target_arch = "x86_64")]
        if avx2::handles(dim, hidden) && avx2::is_supported() {
            return Kernel::Avx2;
        }
        let _ = (dim, hidden);
        Kernel::Portable
    }
}

impl std::fmt::Debug for Forward {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Forward").field("q", &self.q).field("kernel", &self.kernel).finish_non_exhaustive()
    }
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    //! The forward pass with AVX2 and FMA: the embedding sum in one to eight vectors of 16 `i16` (dim 16, 32, 48,
    //! 64, 80, 96, 128), the hidden layer in two to eight vectors of 8 `f32`.

    use std::arch::x86_64::{
        __m256, __m256i, _CMP_GT_OQ, _mm256_add_epi16, _mm256_add_ps, _mm256_broadcast_ss, _mm256_castsi256_si128,
        _mm256_cmp_ps, _mm256_cvtepi16_epi32, _mm256_cvtepi32_ps, _mm256_extracti128_si256, _mm256_fmadd_ps,
        _mm256_loadu_ps, _mm256_loadu_si256, _mm256_max_epi16, _mm256_max_ps, _mm256_min_epi16, _mm256_min_ps,
        _mm256_movemask_ps, _mm256_set1_epi16, _mm256_set1_ps, _mm256_setzero_ps, _mm256_setzero_si256,
        _mm256_storeu_ps,
    };

    use super::{Features, Forward, MAX_DIM, finish};

    pub(super) fn is_supported() -> bool {
        is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma")
    }

    /// Whether [`evaluate`] has code for this shape.
    pub(super) fn handles(dim: usize, hidden: usize) -> bool {
        matches!(dim, 16 | 32 | 48 | 64 | 80 | 96 | 128) && matches!(hidden, 16 | 32 | 64)
    }

    /// [`Forward::portable`]'s value.
    ///
    /// # Safety
    /// The CPU must have AVX2 and FMA ([`is_supported`]) and the shape must be one that [`handles`] accepts.
    pub(super) unsafe fn evaluate(net: &Forward, b: usize, features: &Features, view: usize, extras: &[usize]) -> f32 {
        // SAFETY: the caller guarantees the CPU features and a shape that `handles` accepts, whose dim is one of
        // these (a multiple of 16 up to MAX_DIM).
        unsafe {
            match net.dim / 16 {
                1 => by_hidden::<1>(net, b, features, view, extras),
                2 => by_hidden::<2>(net, b, features, view, extras),
                3 => by_hidden::<3>(net, b, features, view, extras),
                4 => by_hidden::<4>(net, b, features, view, extras),
                5 => by_hidden::<5>(net, b, features, view, extras),
                6 => by_hidden::<6>(net, b, features, view, extras),
                8 => by_hidden::<8>(net, b, features, view, extras),
                _ => net.portable(b, features, view, extras),
            }
        }
    }

    /// [`evaluate`] for `dim = 16 × D`.
    ///
    /// # Safety
    /// As [`evaluate`]'s, and `net.dim` is `16 × D`.
    unsafe fn by_hidden<const D: usize>(
        net: &Forward,
        b: usize,
        features: &Features,
        view: usize,
        extras: &[usize],
    ) -> f32 {
        // SAFETY (all arms): the caller guarantees the CPU features and the dim; each arm's H matches the hidden
        // width.
        unsafe {
            match net.hidden {
                16 => run::<D, 2>(net, b, features, view, extras),
                32 => run::<D, 4>(net, b, features, view, extras),
                64 => run::<D, 8>(net, b, features, view, extras),
                _ => net.portable(b, features, view, extras),
            }
        }
    }

    /// The forward pass for `dim = 16 × D` and `hidden = 8 × H`.
    #[target_feature(enable = "avx2,fma")]
    fn run<const D: usize, const H: usize>(
        net: &Forward,
        b: usize,
        features: &Features,
        view: usize,
        extras: &[usize],
    ) -> f32 {
        let (dim, hidden) = (16 * D, 8 * H);
        let numbers = net.numbers();
        let bias = &net.bias[b * dim..(b + 1) * dim];
        let mut acc = [_mm256_setzero_si256(); D];
        for (d, a) in acc.iter_mut().enumerate() {
            // SAFETY: `bias` has `dim = 16 × D` numbers, so 16 are readable at 16 × d.
            *a = unsafe { _mm256_loadu_si256(bias.as_ptr().add(16 * d).cast()) };
        }
        let mut add = |start: usize| {
            let row = &numbers[start..][..dim];
            for (d, a) in acc.iter_mut().enumerate() {
                // SAFETY: `row` has `dim = 16 × D` numbers (the slice above is bounds-checked).
                *a = _mm256_add_epi16(*a, unsafe { _mm256_loadu_si256(row.as_ptr().add(16 * d).cast::<__m256i>()) });
            }
        };
        // Two loops rather than a chain of iterators: the patterns' loop stays as tight as without extra rows. The
        // colour's choice is made once, and a row's place is a multiple of the constant `dim`.
        let first = b * net.total;
        let indices = features.indices();
        if view == 0 {
            for (&start, &index) in net.starts.iter().zip(indices) {
                add((first + (start + u32::from(index)) as usize) * (16 * D));
            }
        } else {
            for (&end, &index) in net.mirrors.iter().zip(indices) {
                add((first + (end - u32::from(index)) as usize) * (16 * D));
            }
        }
        for &start in extras {
            add(start);
        }
        let (zero, q) = (_mm256_setzero_si256(), _mm256_set1_epi16(net.q));
        let mut act = [0f32; MAX_DIM];
        // Bit k: input k is above zero.
        let mut active = 0u128;
        for (d, &a) in acc.iter().enumerate() {
            let a = _mm256_min_epi16(_mm256_max_epi16(a, zero), q);
            let low = _mm256_cvtepi32_ps(_mm256_cvtepi16_epi32(_mm256_castsi256_si128(a)));
            let high = _mm256_cvtepi32_ps(_mm256_cvtepi16_epi32(_mm256_extracti128_si256::<1>(a)));
            let above = |x| u128::from(_mm256_movemask_ps(_mm256_cmp_ps::<_CMP_GT_OQ>(x, _mm256_setzero_ps())) as u8);
            active |= (above(low) | above(high) << 8) << (16 * d);
            // SAFETY: `act` has MAX_DIM ≥ 16 × D numbers (a dim `handles` accepts), so 16 are writable at 16 × d.
            unsafe {
                _mm256_storeu_ps(act.as_mut_ptr().add(16 * d), low);
                _mm256_storeu_ps(act.as_mut_ptr().add(16 * d + 8), high);
            }
        }
        let b1 = &net.b1[b * hidden..(b + 1) * hidden];
        // The inputs above zero, in turn, to two chains of multiply-adds (one chain waits on each result's latency;
        // two keep the units busy): the first from the bias, the second from zero, added at the end.
        let mut even: [__m256; H] = [_mm256_setzero_ps(); H];
        let mut odd: [__m256; H] = [_mm256_setzero_ps(); H];
        for (c, x) in even.iter_mut().enumerate() {
            // SAFETY: `b1` has `hidden = 8 × H` numbers.
            *x = unsafe { _mm256_loadu_ps(b1.as_ptr().add(8 * c)) };
        }
        let w1 = &net.w1[b * dim * hidden..(b + 1) * dim * hidden];
        let chain = |h: &mut [__m256; H], k: usize| {
            let column = &w1[k * hidden..][..hidden];
            // SAFETY: k < dim ≤ MAX_DIM (a bit of `active`).
            let a = unsafe { _mm256_broadcast_ss(&*act.as_ptr().add(k)) };
            for (c, x) in h.iter_mut().enumerate() {
                // SAFETY: `column` has `hidden = 8 × H` numbers (the slice above is bounds-checked).
                *x = _mm256_fmadd_ps(a, unsafe { _mm256_loadu_ps(column.as_ptr().add(8 * c)) }, *x);
            }
        };
        // Up to dim 64 the mask is one machine word: the loop on 64 bits (a u128 loop there costs 2 % of the midgame
        // bench's time).
        if D <= 4 {
            drain(active as u64, &mut even, &mut odd, chain);
        } else {
            drain(active, &mut even, &mut odd, chain);
        }
        let mut h: [__m256; H] = [_mm256_setzero_ps(); H];
        for ((x, &e), &o) in h.iter_mut().zip(&even).zip(&odd) {
            *x = _mm256_add_ps(e, o);
        }
        let w2 = &net.w2[b * hidden..(b + 1) * hidden];
        let (zero, one) = (_mm256_setzero_ps(), _mm256_set1_ps(1.0));
        let mut lanes = _mm256_setzero_ps();
        for (c, &x) in h.iter().enumerate() {
            let x = _mm256_min_ps(_mm256_max_ps(x, zero), one);
            // SAFETY: `w2` has `hidden = 8 × H` numbers.
            lanes = _mm256_fmadd_ps(x, unsafe { _mm256_loadu_ps(w2.as_ptr().add(8 * c)) }, lanes);
        }
        let mut l = [0f32; 8];
        // SAFETY: `l` has 8 numbers.
        unsafe { _mm256_storeu_ps(l.as_mut_ptr(), lanes) };
        finish(l, net.b2[b])
    }

    /// A mask of inputs (bit k: input k is above zero).
    trait Mask: Copy {
        fn is_empty(self) -> bool;
        /// The lowest set bit's place.
        fn lowest(self) -> usize;
        /// The mask without its lowest set bit.
        fn without_lowest(self) -> Self;
    }

    /// `Mask` for the unsigned integers named.
    macro_rules! mask {
        ($($t:ty),*) => {$(
            impl Mask for $t {
                #[inline(always)]
                fn is_empty(self) -> bool {
                    self == 0
                }
                #[inline(always)]
                fn lowest(self) -> usize {
                    self.trailing_zeros() as usize
                }
                #[inline(always)]
                fn without_lowest(self) -> Self {
                    self & (self - 1)
                }
            }
        )*};
    }
    mask!(u64, u128);

    /// The inputs of `active`, in increasing order, in turn to the chains `even` and `odd` (`chain(h, k)` adds input
    /// `k`'s column to `h`).
    #[inline(always)]
    fn drain<M: Mask, T>(mut active: M, even: &mut T, odd: &mut T, chain: impl Fn(&mut T, usize)) {
        while !active.is_empty() {
            chain(even, active.lowest());
            active = active.without_lowest();
            if active.is_empty() {
                break;
            }
            chain(odd, active.lowest());
            active = active.without_lowest();
        }
    }
}
