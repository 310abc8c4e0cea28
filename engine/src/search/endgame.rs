//! The exact endgame search, compiled once per move-generation backend.
//!
//! The body lives in a macro so that each backend's copy is compiled with that backend's target features: the SIMD
//! primitives then inline into the search loops, and the backend is chosen once per search, not once per move.
//!
//! Layers, by number of empty squares `e` (all null-window searches with `beta = alpha + 1` unless named `pvs`):
//! - `e ≤ 4`: dedicated code (`solve1`–`solve4`), empties ordered by quadrant parity;
//! - `e ≤ PARITY_MAX`: moves in parity order (odd quadrants first), then corners before the rest, no table;
//! - `e ≤ TABLE_MIN - 1`: fastest-first ordering (fewest opponent replies), no table;
//! - above: transposition table, enhanced transposition cut-off, stability cut-off, fastest-first ordering with the
//!   table's best move first and its previous best move second, and parallel search of the younger brothers once the
//!   eldest has been searched (YBWC);
//! - from `ETC_MIN`: the children are looked up in the table (their buckets fetched together) before any is searched:
//!   one the table proves to fail high cuts the node off, and one it proves to fail low is dropped;
//! - from `EVAL_ORDER_MIN` (with weights): the pattern evaluation of each child joins the ordering; from
//!   `DEEP_ORDER_MIN` a look-ahead; from `EVAL_SEARCH_MIN` a selective midgame search of each child replaces the
//!   evaluation, in a window around the node's own. The table's move is searched before that ordering work is done.
//! - a fail-low stores no best move, so the table keeps the moves it had.
//!
//! The thresholds were chosen by node counts on FFO #41–#49 and #50–#58 (docs/engine.md, tuning notes).

use std::sync::atomic::{AtomicBool, Ordering};

use super::tt::TranspositionTable;

/// Below this many empties, moves are tried in parity order only.
pub(crate) const PARITY_MAX: u32 = 6;
/// From this many empties on, the transposition table is used.
pub(crate) const TABLE_MIN: u32 = 8;
/// From this many empties on, nodes may be split between threads.
pub(crate) const SPLIT_MIN: u32 = 12;
/// From this many empties on, children are looked up in the table before being searched (ETC).
pub(crate) const ETC_MIN: u32 = 11;
/// From this many empties on, move ordering adds a two-ply look-ahead.
pub(crate) const DEEP_ORDER_MIN: u32 = 15;
/// From this many empties on, the look-ahead is three plies deep when the solver has no evaluation (with one, the
/// evaluation and the shallow searches order better for fewer nodes).
pub(crate) const LOOKAHEAD3_MIN: u32 = 14;
/// From this many empties on, the pattern evaluation (when the solver has weights) joins the move ordering. Each
/// child's features are its parent's updated by one move (the worker keeps them along the line), and the evaluation
/// reads 46 tables per child. Eleventh session, one thread, eval-2, hash level 24, in millions of nodes and seconds
/// (each pair run side by side): FFO #40–#49 from 14: 648.3 in 30.0 s; from 12: 609.3 in 32.4 s; from 11: 602.5 in
/// 35.2 s. At hash level 26, #56 / #58: from 14 803.6 / 1332.6; 13: 740.6 / 1304.0; 12: 736.5 / 1267.3; 11:
/// 721.0 / 1238.5; 10: 719.3 / 1235.2.
pub(crate) const EVAL_ORDER_MIN: u32 = 12;
/// From this many empties on, the evaluation of a child is a shallow midgame search rather than a static evaluation.
pub(crate) const EVAL_SEARCH_MIN: u32 = 18;
/// Depth of that search at null-window nodes. Deep searches (below) order the PV nodes, where the exact score is
/// sought; at the far more numerous null-window nodes a one-ply search, beside the table's moves from the presearch,
/// orders better for fewer nodes. One thread, eval-1, FFO #40–#49 / #50–#52 in millions of nodes: the deep searches
/// everywhere 711.2 / 1602.4; at null-window nodes one ply 655.0 / 1230.4, none (static evaluation) 650.9 / 1270.1,
/// two plies 743.5 / 1688.3, three 709.7 / 1562.0, two plies less than the PV depth 716.1 / —.
pub(crate) const NWS_EVAL_SEARCH_DEPTH: i32 = 1;
/// Depth of that shallow search at PV nodes with `n_empties` empties.
#[inline]
pub(crate) const fn eval_search_depth(n_empties: u32) -> i32 {
    match n_empties {
        ..=19 => 7,
        20..=21 => 8,
        22..=23 => 10,
        24..=25 => 12,
        _ => 14,
    }
}
/// Window of those searches around the node's window: from `alpha - ORDER_WINDOW_BELOW` to `beta + ORDER_WINDOW_ABOVE`.
pub(crate) const ORDER_WINDOW_BELOW: i32 = 10;
pub(crate) const ORDER_WINDOW_ABOVE: i32 = 4;
/// Selectivity of those ordering searches. 93 % against 88 %, one thread, eval-1: FFO #40–#49 711.2 M nodes against
/// 724.1 M, #50–#52 1602.4 M against 1616.2 M (74 %: +4 % in the fourth session; 98 %: 718.4 M and 1737.3 M).
pub(crate) const ORDER_SELECTIVITY: crate::level::Selectivity = crate::level::Selectivity::P93;
/// Weight of one disc of the pattern evaluation in the move score.
pub(crate) const EVAL_ORDER_WEIGHT: i32 = 32;
/// Up to this many empties (where the evaluation joined the ordering in the eleventh session), one disc of
/// evaluation weighs `SHALLOW_EVAL_ORDER_WEIGHT`: there the fastest-first terms count for more. One thread, eval-2,
/// in millions of nodes, FFO #40–#49 (hash 24) / #53 / #57 (hash 26), by weight: 32: 609.3 / 1885.4 / 1438.0; 20:
/// 600.8 / 1848.3 / 1428.5; 16: 598.6 / 1826.7 / 1425.8; 8: 599.8 / 1865.2 / —; 48: — / 1930.2 / 1474.8.
pub(crate) const SHALLOW_EVAL_ORDER_MAX: u32 = 13;
pub(crate) const SHALLOW_EVAL_ORDER_WEIGHT: i32 = 16;
/// Weights of the ordering evaluation and of its look-ahead in the move score.
pub(crate) const ORDER_MOBILITY: i32 = 4;
pub(crate) const ORDER_CORNER: i32 = 8;
pub(crate) const ORDER_POTENTIAL: i32 = 1;
pub(crate) const ORDER_LOOKAHEAD: i32 = 16;
/// Penalty in the fastest-first move score for an X-square whose corner is still empty (one reply counts 64). One
/// thread, eval-2, FFO #40–#49 / #50–#52 at hash level 24 and #53 at 26, in millions of nodes: none 666.9 / 1173.0 /
/// 1974.7; 16: 652.4 / 1171.7 / 1960.9; 32: 649.7 / 1161.7 / 1936.9; 48: 648.3 / 1142.5 / 1942.3; 96: — / — /
/// 2027.7 (tenth session).
pub(crate) const ORDER_X_SQUARE: i32 = 48;
/// Selectivity recorded for exact results.
pub(crate) const EXACT: u8 = 100;

/// The quadrant bit (1, 2, 4, 8) of each square.
pub(crate) static QUADRANT: [u8; 64] = {
    let mut q = [0u8; 64];
    let mut sq = 0;
    while sq < 64 {
        let (c, r) = (sq % 8, sq / 8);
        q[sq] = 1 << ((c >= 4) as u8 + 2 * (r >= 4) as u8);
        sq += 1;
    }
    q
};

/// Squares of the quadrants whose bits are set in the index.
pub(crate) static QUADRANT_MASK: [u64; 16] = {
    const Q: [u64; 4] = [0x0000_0000_0f0f_0f0f, 0x0000_0000_f0f0_f0f0, 0x0f0f_0f0f_0000_0000, 0xf0f0_f0f0_0000_0000];
    let mut m = [0u64; 16];
    let mut i = 0;
    while i < 16 {
        let mut j = 0;
        while j < 4 {
            if i >> j & 1 != 0 {
                m[i] |= Q[j];
            }
            j += 1;
        }
        i += 1;
    }
    m
};

/// Parity of the number of empties in each quadrant, as quadrant bits.
pub(crate) fn parity_of(empties: u64) -> u8 {
    let mut parity = 0;
    for (i, &mask) in QUADRANT_MASK[1..].iter().enumerate() {
        if (i + 1).is_power_of_two() && (empties & mask).count_ones() & 1 == 1 {
            parity |= (i + 1) as u8;
        }
    }
    parity
}

/// Static square classes, best first, used to break ties in the parity layer.
pub(crate) const CORNERS: u64 = 0x8100_0000_0000_0081;
pub(crate) const X_SQUARES: u64 = 0x0042_0000_0000_4200;
pub(crate) const C_SQUARES: u64 = 0x4281_0000_0000_8142;
pub(crate) const SQUARE_CLASSES: [u64; 4] = [CORNERS, !(CORNERS | X_SQUARES | C_SQUARES), C_SQUARES, X_SQUARES];

/// The lowest `alpha` at which a null-window search with `n_empties` empties tries the stability cut-off. The test
/// also needs the opponent to have enough discs for their stable ones to cap the score at `alpha` (a popcount, far
/// cheaper than the stable discs), so the threshold only keeps it from the positions where it almost never pays.
/// Twelfth session, one thread, eval-2, FFO #40–#49 at hash level 24 in millions of nodes (the same binary, the
/// thresholds and the layers that test varied): 2n − 2 / 2n and no test below 5 empties (before) 598.6; the same at
/// 4 empties too 471.7; at 3 and 4 439.7; thresholds 6 discs lower and the test at 3 and 4 427.2, at 2, 3 and 4
/// 375.6 (no threshold at all 372.6, 4 % slower).
#[inline]
pub(crate) const fn stability_threshold(n_empties: u32) -> i32 {
    if n_empties <= 9 { 2 * n_empties as i32 - 8 } else { 2 * n_empties as i32 - 6 }
}

/// Score bound beyond any disc difference.
pub(crate) const INF: i32 = 127;

/// A node whose younger brothers are being searched in parallel; searches below it stop once it is cancelled.
pub(crate) struct SplitPoint<'a> {
    pub(crate) cancelled: AtomicBool,
    pub(crate) parent: Option<&'a SplitPoint<'a>>,
}

/// What every thread of one search shares.
pub(crate) struct Shared<'a> {
    pub(crate) tt: &'a TranspositionTable,
    pub(crate) stop: &'a AtomicBool,
    pub(crate) parallel: bool,
    pub(crate) eval: Option<&'a crate::eval::Evaluator>,
    /// Multi-ProbCut for the ordering searches (`None`: full width).
    pub(crate) mpc: Option<&'a crate::search::mpc::MpcModel>,
}

/// One thread's view of a search: its node counter and the split points above it.
pub(crate) struct Worker<'s, 'p> {
    pub(crate) shared: &'s Shared<'s>,
    pub(crate) nodes: u64,
    pub(crate) split: Option<&'p SplitPoint<'p>>,
    /// The pattern features of the positions on the line being searched, by number of empties from
    /// `EVAL_ORDER_MIN` on: a node leaves each child's there before searching it, so the evaluation's move ordering
    /// updates features by one move instead of computing them from the discs. Grows when first used.
    pub(crate) line: Vec<LineFeatures>,
}

/// The features of one position of the line, with the position they belong to (Black's and White's discs).
#[derive(Clone, Copy)]
pub(crate) struct LineFeatures {
    black: u64,
    white: u64,
    features: crate::eval::Features,
}

/// A node's features, and whether its side to move is Black in them.
pub(crate) type NodeFeatures = (crate::eval::Features, bool);

impl<'s, 'p> Worker<'s, 'p> {
    /// A worker with no nodes counted and nothing on its line.
    pub(crate) fn new(shared: &'s Shared<'s>, split: Option<&'p SplitPoint<'p>>) -> Worker<'s, 'p> {
        Worker { shared, nodes: 0, split, line: Vec::new() }
    }

    /// The features of the node `p` / `o` with `n_empties` empties when the move ordering uses the evaluation there:
    /// the ones its parent left on the line, else computed from the discs.
    #[inline]
    pub(crate) fn node_features(&self, p: u64, o: u64, n_empties: u32) -> Option<NodeFeatures> {
        if n_empties < EVAL_ORDER_MIN || self.shared.eval.is_none() {
            return None;
        }
        if let Some(e) = self.line.get((n_empties - EVAL_ORDER_MIN) as usize) {
            if e.black == p && e.white == o {
                return Some((e.features, true));
            }
            if e.black == o && e.white == p {
                return Some((e.features, false));
            }
        }
        Some((crate::eval::Features::new(crate::Bitboard(p), crate::Bitboard(o)), true))
    }

    /// Leaves on the line the features of the child of `p` / `o` (features `node`) reached by the move `c`.
    #[inline]
    pub(crate) fn leave_child(&mut self, node: Option<&NodeFeatures>, p: u64, o: u64, c: &Candidate) {
        let Some(&(features, p_black)) = node else { return };
        let n_child = 63 - (p | o).count_ones();
        if n_child < EVAL_ORDER_MIN {
            return;
        }
        let i = (n_child - EVAL_ORDER_MIN) as usize;
        if self.line.len() <= i {
            let blank = LineFeatures { black: 0, white: 0, features };
            self.line.resize(i + 1, blank);
        }
        let (mover, rest) = (p | c.flip | 1 << c.sq, o ^ c.flip);
        let mut features = features;
        let color = if p_black { crate::Color::Black } else { crate::Color::White };
        features.play(color, crate::Square::from_index(c.sq as u8), crate::Bitboard(c.flip));
        let (black, white) = if p_black { (mover, rest) } else { (rest, mover) };
        self.line[i] = LineFeatures { black, white, features };
    }

    /// Whether this search must unwind: stopped from outside, or a split point above was cut off.
    #[inline]
    pub(crate) fn aborted(&self) -> bool {
        if self.shared.stop.load(Ordering::Relaxed) {
            return true;
        }
        let mut split = self.split;
        while let Some(s) = split {
            if s.cancelled.load(Ordering::Relaxed) {
                return true;
            }
            split = s.parent;
        }
        false
    }
}

/// Final score with both sides out of moves: disc difference, empties to the winner.
#[inline]
pub(crate) fn final_score(p: u64, o: u64) -> i32 {
    let pc = p.count_ones() as i32;
    let oc = o.count_ones() as i32;
    let diff = pc - oc;
    let empties = 64 - pc - oc;
    if diff > 0 {
        diff + empties
    } else if diff < 0 {
        diff - empties
    } else {
        0
    }
}

/// A move candidate at an ordered node.
#[derive(Clone, Copy, Default)]
pub(crate) struct Candidate {
    pub(crate) sq: u32,
    pub(crate) flip: u64,
    pub(crate) score: i32,
    /// The opponent's number of moves after this one (0 where the ordering did not count them).
    pub(crate) replies: u32,
}

/// From this many empties on, the move ordering is refined beyond fastest-first (look-ahead, evaluation, searches).
pub(crate) const REFINE_MIN: u32 = if EVAL_ORDER_MIN < DEEP_ORDER_MIN { EVAL_ORDER_MIN } else { DEEP_ORDER_MIN };

/// Ordering score of the table's best move; the previous best move gets one less, and the other moves' scores stay
/// below both.
pub(crate) const FIRST_MOVE_SCORE: i32 = i32::MAX;
pub(crate) const SECOND_MOVE_SCORE: i32 = i32::MAX - 1;

/// Puts the table's best move, then its previous best move, ahead of the others.
#[inline]
pub(crate) fn mark_table_moves(list: &mut [Candidate], first: u8, second: u8) {
    for c in list {
        if c.sq == u32::from(first) {
            c.score = FIRST_MOVE_SCORE;
        } else if c.sq == u32::from(second) {
            c.score = SECOND_MOVE_SCORE;
        }
    }
}

/// Sorts candidates by decreasing score (insertion sort: there are rarely more than 15).
#[inline]
pub(crate) fn sort_candidates(list: &mut [Candidate]) {
    for i in 1..list.len() {
        let item = list[i];
        let mut j = i;
        while j > 0 && list[j - 1].score < item.score {
            list[j] = list[j - 1];
            j -= 1;
        }
        list[j] = item;
    }
}

/// Empty squares next to at least one of `discs`: where the other side might later play against them.
#[inline]
pub(crate) fn frontier_squares(discs: u64, empties: u64) -> u64 {
    adjacent_empties(empties, discs)
}

/// Squares adjacent to an empty square: the "potential mobility" of whoever owns the discs next to them.
#[inline]
pub(crate) fn adjacent_empties(discs: u64, empties: u64) -> u64 {
    const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
    const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let e = empties;
    let around = (e << 8 | e >> 8) | ((e << 1 | e << 9 | e >> 7) & NOT_A) | ((e >> 1 | e >> 9 | e << 7) & NOT_H);
    discs & around
}

macro_rules! endgame_kernel {
    ($ops:path, $mid:path $(, $feat:literal)?) => {
        use $mid as mid;
        #[allow(unused_imports)]
        use std::sync::atomic::{AtomicBool, Ordering};

        use $ops as ops;
        use crate::search::endgame::{
            adjacent_empties, final_score, frontier_squares, sort_candidates, stability_threshold, DEEP_ORDER_MIN, ORDER_CORNER,
            ORDER_LOOKAHEAD, REFINE_MIN, FIRST_MOVE_SCORE, ORDER_MOBILITY, ORDER_POTENTIAL, LOOKAHEAD3_MIN, EVAL_ORDER_WEIGHT, EVAL_SEARCH_MIN, NWS_EVAL_SEARCH_DEPTH, ORDER_SELECTIVITY, SECOND_MOVE_SCORE, mark_table_moves, SHALLOW_EVAL_ORDER_MAX, SHALLOW_EVAL_ORDER_WEIGHT, ORDER_WINDOW_ABOVE, ORDER_WINDOW_BELOW, eval_search_depth, Candidate, NodeFeatures, SplitPoint, Worker, CORNERS, ETC_MIN, EXACT,
            INF, ORDER_X_SQUARE, PARITY_MAX, QUADRANT, QUADRANT_MASK, SPLIT_MIN, SQUARE_CLASSES, TABLE_MIN, X_SQUARES,
        };
        use crate::search::tt::{TtData, NO_MOVE};

        /// Flips of `p` playing `sq`.
        #[allow(clippy::inline_always)]
        #[inline]
        $(#[target_feature(enable = $feat)])?
        fn flip(sq: u32, p: u64, o: u64) -> u64 {
            debug_assert!(sq < 64);
            // SAFETY: every caller takes `sq` from a set bit of a u64, so sq < 64.
            #[allow(unused_unsafe)]
            unsafe {
                ops::flip(sq, p, o)
            }
        }

        /// Last empty square `x`: the exact score.
        #[inline]
        $(#[target_feature(enable = $feat)])?
        fn solve1(w: &mut Worker<'_, '_>, p: u64, o: u64, x: u32) -> i32 {
            w.nodes += 1;
            let f = flip(x, p, o);
            if f != 0 {
                return 2 * (p.count_ones() + f.count_ones()) as i32 + 2 - 64;
            }
            let f = flip(x, o, p);
            if f != 0 {
                return 64 - 2 * (o.count_ones() + f.count_ones()) as i32 - 2;
            }
            let d = 2 * p.count_ones() as i32 - 63;
            if d > 0 { d + 1 } else { d - 1 }
        }

        /// Two empties: null-window search at `alpha` (after the stability cut-off, as every layer from 2 empties on).
        #[inline]
        $(#[target_feature(enable = $feat)])?
        fn solve2(w: &mut Worker<'_, '_>, p: u64, o: u64, alpha: i32, x1: u32, x2: u32) -> i32 {
            w.nodes += 1;
            if let Some(cap) = stability_cutoff(p, o, alpha, 2) {
                return cap;
            }
            let mut best = -INF;
            let f = flip(x1, p, o);
            if f != 0 {
                best = -solve1(w, o ^ f, p ^ f ^ (1 << x1), x2);
                if best > alpha {
                    return best;
                }
            }
            let f = flip(x2, p, o);
            if f != 0 {
                let v = -solve1(w, o ^ f, p ^ f ^ (1 << x2), x1);
                return v.max(best);
            }
            if best != -INF {
                return best;
            }
            // Pass: the opponent plays, minimising our score.
            w.nodes += 1;
            let mut best = INF;
            let f = flip(x1, o, p);
            if f != 0 {
                best = solve1(w, p ^ f, o ^ f ^ (1 << x1), x2);
                if best <= alpha {
                    return best;
                }
            }
            let f = flip(x2, o, p);
            if f != 0 {
                let v = solve1(w, p ^ f, o ^ f ^ (1 << x2), x1);
                return v.min(best);
            }
            if best != INF { best } else { final_score(p, o) }
        }

        /// Three empties, ordered by the caller (odd quadrants first).
        $(#[target_feature(enable = $feat)])?
        fn solve3(w: &mut Worker<'_, '_>, p: u64, o: u64, alpha: i32, x: [u32; 3]) -> i32 {
            w.nodes += 1;
            if let Some(cap) = stability_cutoff(p, o, alpha, 3) {
                return cap;
            }
            let mut best = -INF;
            for i in 0..3 {
                let sq = x[i];
                let f = flip(sq, p, o);
                if f != 0 {
                    let (a, b) = match i { 0 => (x[1], x[2]), 1 => (x[0], x[2]), _ => (x[0], x[1]) };
                    let v = -solve2(w, o ^ f, p ^ f ^ (1 << sq), -alpha - 1, a, b);
                    if v > best {
                        best = v;
                        if v > alpha {
                            return v;
                        }
                    }
                }
            }
            if best != -INF {
                return best;
            }
            w.nodes += 1;
            let mut best = INF;
            for i in 0..3 {
                let sq = x[i];
                let f = flip(sq, o, p);
                if f != 0 {
                    let (a, b) = match i { 0 => (x[1], x[2]), 1 => (x[0], x[2]), _ => (x[0], x[1]) };
                    let v = solve2(w, p ^ f, o ^ f ^ (1 << sq), alpha, a, b);
                    if v < best {
                        best = v;
                        if v <= alpha {
                            return v;
                        }
                    }
                }
            }
            if best != INF { best } else { final_score(p, o) }
        }

        /// Orders three squares so that one alone in its quadrant comes first.
        #[inline]
        $(#[target_feature(enable = $feat)])?
        fn order3(x: [u32; 3], parity: u8) -> [u32; 3] {
            let odd = |s: u32| QUADRANT[s as usize] & parity != 0;
            let mut out = x;
            if !odd(out[0]) {
                if odd(out[1]) {
                    out.swap(0, 1);
                } else if odd(out[2]) {
                    out.swap(0, 2);
                }
            }
            out
        }

        /// Four empties.
        $(#[target_feature(enable = $feat)])?
        fn solve4(w: &mut Worker<'_, '_>, p: u64, o: u64, alpha: i32, empties: u64, parity: u8) -> i32 {
            w.nodes += 1;
            if let Some(cap) = stability_cutoff(p, o, alpha, 4) {
                return cap;
            }
            let mut x = [0u32; 4];
            let mut n = 0;
            // Odd quadrants first.
            let odd = QUADRANT_MASK[parity as usize];
            let mut rest = empties & odd;
            while rest != 0 {
                x[n] = rest.trailing_zeros();
                n += 1;
                rest &= rest - 1;
            }
            let mut rest = empties & !odd;
            while rest != 0 && n < 4 {
                x[n] = rest.trailing_zeros();
                n += 1;
                rest &= rest - 1;
            }
            let mut best = -INF;
            for i in 0..4 {
                let sq = x[i];
                let f = flip(sq, p, o);
                if f != 0 {
                    let others = others3(x, i);
                    let v = -solve3(w, o ^ f, p ^ f ^ (1 << sq), -alpha - 1, order3(others, parity ^ QUADRANT[sq as usize]));
                    if v > best {
                        best = v;
                        if v > alpha {
                            return v;
                        }
                    }
                }
            }
            if best != -INF {
                return best;
            }
            w.nodes += 1;
            let mut best = INF;
            for i in 0..4 {
                let sq = x[i];
                let f = flip(sq, o, p);
                if f != 0 {
                    let others = others3(x, i);
                    let v = solve3(w, p ^ f, o ^ f ^ (1 << sq), alpha, order3(others, parity ^ QUADRANT[sq as usize]));
                    if v < best {
                        best = v;
                        if v <= alpha {
                            return v;
                        }
                    }
                }
            }
            if best != INF { best } else { final_score(p, o) }
        }

        #[inline]
        $(#[target_feature(enable = $feat)])?
        fn others3(x: [u32; 4], skip: usize) -> [u32; 3] {
            match skip {
                0 => [x[1], x[2], x[3]],
                1 => [x[0], x[2], x[3]],
                2 => [x[0], x[1], x[3]],
                _ => [x[0], x[1], x[2]],
            }
        }

        /// 5 to `PARITY_MAX` empties: parity ordering, no table.
        $(#[target_feature(enable = $feat)])?
        fn nws_parity(w: &mut Worker<'_, '_>, p: u64, o: u64, alpha: i32, empties: u64, parity: u8) -> i32 {
            w.nodes += 1;
            let moves = ops::moves(p, o);
            if moves == 0 {
                if ops::moves(o, p) == 0 {
                    return final_score(p, o);
                }
                return -nws_parity(w, o, p, -alpha - 1, empties, parity);
            }
            let n = empties.count_ones();
            if let Some(cap) = stability_cutoff(p, o, alpha, n) {
                return cap;
            }
            let odd = QUADRANT_MASK[parity as usize];
            let mut best = -INF;
            for side in [odd, !odd] {
                for class in SQUARE_CLASSES {
                    let mut set = moves & side & class;
                    while set != 0 {
                        let sq = set.trailing_zeros();
                        set &= set - 1;
                        let f = flip(sq, p, o);
                        let bit = 1u64 << sq;
                        let child_parity = parity ^ QUADRANT[sq as usize];
                        let v = if n == 5 {
                            -solve4(w, o ^ f, p ^ f ^ bit, -alpha - 1, empties ^ bit, child_parity)
                        } else {
                            -nws_parity(w, o ^ f, p ^ f ^ bit, -alpha - 1, empties ^ bit, child_parity)
                        };
                        if v > best {
                            best = v;
                            if v > alpha {
                                return v;
                            }
                        }
                    }
                }
            }
            best
        }

        /// Stability cut-off: when `alpha` is high enough for it to have a chance, the opponent's stable discs cap our
        /// score; returns the cap if it is at or below `alpha`.
        #[inline]
        $(#[target_feature(enable = $feat)])?
        fn stability_cutoff(p: u64, o: u64, alpha: i32, n_empties: u32) -> Option<i32> {
            if alpha >= stability_threshold(n_empties) && 64 - 2 * o.count_ones() as i32 <= alpha {
                let cap = 64 - 2 * crate::stability::stable_count(o, p) as i32;
                if cap <= alpha {
                    return Some(cap);
                }
            }
            None
        }

        /// Null-window search at any depth: picks the layer.
        #[inline]
        $(#[target_feature(enable = $feat)])?
        pub(crate) fn nws(w: &mut Worker<'_, '_>, p: u64, o: u64, alpha: i32, parity: u8) -> i32 {
            let empties = !(p | o);
            let n = empties.count_ones();
            if n >= TABLE_MIN {
                nws_table(w, p, o, alpha, parity)
            } else if n > PARITY_MAX {
                nws_fastest(w, p, o, alpha, parity)
            } else if n >= 5 {
                nws_parity(w, p, o, alpha, empties, parity)
            } else {
                solve_small(w, p, o, alpha, empties, parity)
            }
        }

        /// 0 to 4 empties.
        $(#[target_feature(enable = $feat)])?
        fn solve_small(w: &mut Worker<'_, '_>, p: u64, o: u64, alpha: i32, empties: u64, parity: u8) -> i32 {
            match empties.count_ones() {
                0 => {
                    w.nodes += 1;
                    final_score(p, o)
                }
                1 => solve1(w, p, o, empties.trailing_zeros()),
                2 => {
                    let x1 = empties.trailing_zeros();
                    let x2 = 63 - empties.leading_zeros();
                    solve2(w, p, o, alpha, x1, x2)
                }
                3 => {
                    let x1 = empties.trailing_zeros();
                    let rest = empties & (empties - 1);
                    let x2 = rest.trailing_zeros();
                    let x3 = 63 - empties.leading_zeros();
                    solve3(w, p, o, alpha, order3([x1, x2, x3], parity))
                }
                _ => solve4(w, p, o, alpha, empties, parity),
            }
        }

        /// Scores the moves for fastest-first ordering: fewer opponent replies is better, corners and odd quadrants
        /// are preferred, X-squares next to an empty corner are avoided, and the opponent's potential mobility breaks
        /// ties.
        #[inline]
        $(#[target_feature(enable = $feat)])?
        fn score_moves(p: u64, o: u64, moves: u64, parity: u8, list: &mut [Candidate; 32]) -> usize {
            let mut n = 0;
            let mut set = moves;
            let odd = QUADRANT_MASK[parity as usize];
            while set != 0 {
                let sq = set.trailing_zeros();
                set &= set - 1;
                let f = flip(sq, p, o);
                let bit = 1u64 << sq;
                let (np, no) = (o ^ f, p ^ f ^ bit);
                let replies = ops::moves(np, no);
                let empties = !(np | no);
                let mut score = -(replies.count_ones() as i32 + (replies & CORNERS).count_ones() as i32) * 64;
                score -= frontier_squares(no, empties).count_ones() as i32 * 32;
                if bit & CORNERS != 0 {
                    score += 32;
                }
                if bit & odd != 0 {
                    score += 16;
                }
                if bit & X_SQUARES != 0 && empties & CORNERS & QUADRANT_MASK[QUADRANT[sq as usize] as usize] != 0 {
                    score -= ORDER_X_SQUARE;
                }
                list[n] = Candidate { sq, flip: f, score, replies: replies.count_ones() };
                n += 1;
            }
            n
        }

        /// A cheap static evaluation for move ordering, from the side to move's point of view: mobility, corners and
        /// potential mobility. This is where a real evaluation function plugs in.
        #[inline]
        $(#[target_feature(enable = $feat)])?
        fn ordering_eval(p: u64, o: u64, nodes: &mut u64) -> i32 {
            *nodes += 1;
            let empties = !(p | o);
            let mobility = ops::moves(p, o).count_ones() as i32 - ops::moves(o, p).count_ones() as i32;
            let corners = (p & CORNERS).count_ones() as i32 - (o & CORNERS).count_ones() as i32;
            let potential = adjacent_empties(o, empties).count_ones() as i32
                - adjacent_empties(p, empties).count_ones() as i32;
            mobility * ORDER_MOBILITY + corners * ORDER_CORNER + potential * ORDER_POTENTIAL
        }

        /// Two-ply look-ahead with [`ordering_eval`]: the value, for the player who just moved, of the position `p`
        /// (opponent to move) / `o` (the mover) after the opponent's best reply.
        $(#[target_feature(enable = $feat)])?
        fn lookahead(p: u64, o: u64, nodes: &mut u64) -> i32 {
            let replies = ops::moves(p, o);
            if replies == 0 {
                return ordering_eval(o, p, nodes);
            }
            let mut worst = INF * 64;
            let mut set = replies;
            while set != 0 {
                let sq = set.trailing_zeros();
                set &= set - 1;
                let f = flip(sq, p, o);
                let v = ordering_eval(o ^ f, p ^ f ^ (1 << sq), nodes);
                worst = worst.min(v);
            }
            worst
        }

        /// Three-ply look-ahead: like [`lookahead`] with one more move of the player who just moved, which gets to
        /// answer each reply (alpha-beta pruned).
        $(#[target_feature(enable = $feat)])?
        fn lookahead3(p: u64, o: u64, nodes: &mut u64) -> i32 {
            let replies = ops::moves(p, o);
            if replies == 0 {
                return -lookahead(o, p, nodes);
            }
            let mut worst = INF * 64;
            let mut set = replies;
            while set != 0 {
                let sq = set.trailing_zeros();
                set &= set - 1;
                let f = flip(sq, p, o);
                // Our best answer, at most `worst` is interesting.
                let (mp, mo) = (o ^ f, p ^ f ^ (1 << sq));
                *nodes += 1;
                let answers = ops::moves(mp, mo);
                let mut best = -INF * 64;
                if answers == 0 {
                    best = -ordering_eval(mo, mp, nodes);
                } else {
                    let mut a = answers;
                    while a != 0 {
                        let s2 = a.trailing_zeros();
                        a &= a - 1;
                        let f2 = flip(s2, mp, mo);
                        let v = -ordering_eval(mo ^ f2, mp ^ f2 ^ (1 << s2), nodes);
                        if v > best {
                            best = v;
                            if best >= worst {
                                break;
                            }
                        }
                    }
                }
                worst = worst.min(best);
            }
            worst
        }

        /// Refines the order of the moves at deep nodes with a two- or three-ply look-ahead. The positions the
        /// look-ahead visits count as nodes, as the shallow ordering searches of other engines do.
        $(#[target_feature(enable = $feat)])?
        #[allow(clippy::too_many_arguments)]
        fn refine_order(
            w: &mut Worker<'_, '_>, p: u64, o: u64, node: Option<&NodeFeatures>, list: &mut [Candidate], n_empties: u32,
            alpha: i32, beta: i32,
        ) {
            let search_depth = if beta > alpha + 1 { eval_search_depth(n_empties) } else { NWS_EVAL_SEARCH_DEPTH };
            for c in list {
                if c.score < SECOND_MOVE_SCORE {
                    let bit = 1u64 << c.sq;
                    if n_empties >= DEEP_ORDER_MIN {
                        let value = if n_empties >= LOOKAHEAD3_MIN && w.shared.eval.is_none() {
                            lookahead3(o ^ c.flip, p ^ c.flip ^ bit, &mut w.nodes)
                        } else {
                            lookahead(o ^ c.flip, p ^ c.flip ^ bit, &mut w.nodes)
                        };
                        c.score += value * ORDER_LOOKAHEAD;
                    }
                    if let (Some(eval), Some(&(mut f, p_black))) = (w.shared.eval, node) {
                        // Each child's features are the node's updated by the move.
                        let (np, no) = (o ^ c.flip, p ^ c.flip ^ bit);
                        let (mover, child) =
                            if p_black { (crate::Color::Black, crate::Color::White) } else { (crate::Color::White, crate::Color::Black) };
                        f.play(mover, crate::Square::from_index(c.sq as u8), crate::Bitboard(c.flip));
                        let e = if n_empties >= EVAL_SEARCH_MIN {
                            let mut ctx = crate::search::midgame::kernel::Ctx {
                                eval,
                                tt: w.shared.tt,
                                stop: w.shared.stop,
                                done: w.shared.stop,
                                nodes: 0,
                                mpc: w.shared.mpc.and_then(|m| crate::search::mpc::t_value(ORDER_SELECTIVITY).map(|t| (t, m))),
                                selectivity: crate::search::midgame::kernel::MIDGAME_BASE + ORDER_SELECTIVITY.index(),
                                endgame: w.shared,
                            };
                            let v = mid::pvs(&mut ctx, np, no, &f, child, search_depth, (-beta - ORDER_WINDOW_ABOVE).max(-64), (-alpha + ORDER_WINDOW_BELOW).min(64));
                            w.nodes += ctx.nodes;
                            v
                        } else {
                            let own = ops::moves(no, np).count_ones();
                            eval.evaluate((np | no).count_ones(), np.count_ones(), &f, child, c.replies, own)
                        };
                        c.score -= e * if n_empties <= SHALLOW_EVAL_ORDER_MAX { SHALLOW_EVAL_ORDER_WEIGHT } else { EVAL_ORDER_WEIGHT };
                    }
                }
            }
        }

        /// `PARITY_MAX + 1` to `TABLE_MIN - 1` empties: fastest-first, no table.
        $(#[target_feature(enable = $feat)])?
        fn nws_fastest(w: &mut Worker<'_, '_>, p: u64, o: u64, alpha: i32, parity: u8) -> i32 {
            w.nodes += 1;
            let moves = ops::moves(p, o);
            if moves == 0 {
                if ops::moves(o, p) == 0 {
                    return final_score(p, o);
                }
                return -nws_fastest(w, o, p, -alpha - 1, parity);
            }
            if let Some(cap) = stability_cutoff(p, o, alpha, 64 - (p | o).count_ones()) {
                return cap;
            }
            let mut list = [Candidate::default(); 32];
            let n = score_moves(p, o, moves, parity, &mut list);
            sort_candidates(&mut list[..n]);
            let mut best = -INF;
            for c in &list[..n] {
                let bit = 1u64 << c.sq;
                let v = -nws(w, o ^ c.flip, p ^ c.flip ^ bit, -alpha - 1, parity ^ QUADRANT[c.sq as usize]);
                if v > best {
                    best = v;
                    if v > alpha {
                        return v;
                    }
                }
            }
            best
        }

        /// `TABLE_MIN` and more empties: the full null-window search.
        $(#[target_feature(enable = $feat)])?
        pub(crate) fn nws_table(w: &mut Worker<'_, '_>, p: u64, o: u64, alpha: i32, parity: u8) -> i32 {
            w.nodes += 1;
            let n_empties = 64 - (p | o).count_ones();
            if w.aborted() {
                return 0;
            }
            if let Some(cap) = stability_cutoff(p, o, alpha, n_empties) {
                return cap;
            }
            let tt = w.shared.tt;
            let hash = crate::board::hash_pair(p, o);
            let mut tt_move = NO_MOVE;
            let mut tt_second = NO_MOVE;
            if let Some(d) = tt.probe(hash, p, o) {
                if d.depth as u32 == n_empties && d.selectivity == EXACT {
                    if i32::from(d.lower) > alpha {
                        return i32::from(d.lower);
                    }
                    if i32::from(d.upper) <= alpha {
                        return i32::from(d.upper);
                    }
                }
                tt_move = d.best_move;
                tt_second = d.second_move;
            }
            let moves = ops::moves(p, o);
            if moves == 0 {
                if ops::moves(o, p) == 0 {
                    return final_score(p, o);
                }
                return -nws_table(w, o, p, -alpha - 1, parity);
            }
            let mut list = [Candidate::default(); 32];
            let n = score_moves(p, o, moves, parity, &mut list);
            // Enhanced transposition cut-off, and the table move first.
            mark_table_moves(&mut list[..n], tt_move, tt_second);
            // The best score of the moves whose child the table already proves to fail low: they are dropped from
            // the list, and the node's result is at least this bound.
            let mut known_low = -INF;
            let mut n = n;
            if n_empties >= ETC_MIN {
                // The children's buckets are fetched from memory together, then looked at.
                let mut hashes = [0u64; 32];
                for (c, h) in list[..n].iter().zip(&mut hashes) {
                    *h = crate::board::hash_pair(o ^ c.flip, p ^ c.flip ^ 1u64 << c.sq);
                    tt.prefetch(*h);
                }
                let mut kept = 0;
                for i in 0..n {
                    let c = list[i];
                    let bit = 1u64 << c.sq;
                    let (np, no) = (o ^ c.flip, p ^ c.flip ^ bit);
                    if let Some(d) = tt.probe(hashes[i], np, no) {
                        if d.selectivity == EXACT {
                            if -i32::from(d.upper) > alpha {
                                let v = -i32::from(d.upper);
                                tt.store(hash, p, o, TtData {
                                    lower: v as i8, upper: 64, best_move: c.sq as u8,
                                    depth: n_empties as u8, selectivity: EXACT, second_move: NO_MOVE,
                                });
                                return v;
                            }
                            if -i32::from(d.lower) <= alpha {
                                known_low = known_low.max(-i32::from(d.lower));
                                continue;
                            }
                        }
                    }
                    list[kept] = c;
                    kept += 1;
                }
                n = kept;
                if n == 0 {
                    tt.store(hash, p, o, TtData {
                        lower: -64, upper: known_low as i8, best_move: NO_MOVE,
                        depth: n_empties as u8, selectivity: EXACT, second_move: NO_MOVE,
                    });
                    return known_low;
                }
            }
            let node = w.node_features(p, o, n_empties);
            // The table's move is searched before the others are ordered: when it cuts off, the ordering work
            // (searches of every child at many empties) is saved.
            let refine = n_empties >= REFINE_MIN && (n_empties >= DEEP_ORDER_MIN || w.shared.eval.is_some());
            let table_first = refine && list[..n].iter().any(|c| c.score == FIRST_MOVE_SCORE);
            if refine && !table_first {
                refine_order(w, p, o, node.as_ref(), &mut list[..n], n_empties, alpha, alpha + 1);
            }
            sort_candidates(&mut list[..n]);

            let mut best = known_low;
            let mut best_move = NO_MOVE;
            let first = list[0];
            let bit = 1u64 << first.sq;
            w.leave_child(node.as_ref(), p, o, &first);
            let v = -nws(w, o ^ first.flip, p ^ first.flip ^ bit, -alpha - 1, parity ^ QUADRANT[first.sq as usize]);
            if w.aborted() {
                return 0;
            }
            if v > best {
                best = v;
                best_move = first.sq as u8;
            }
            if best <= alpha && n > 1 {
                if table_first {
                    refine_order(w, p, o, node.as_ref(), &mut list[1..n], n_empties, alpha, alpha + 1);
                    sort_candidates(&mut list[1..n]);
                }
                if w.shared.parallel && n_empties >= SPLIT_MIN {
                    let (v, m) = split(w, p, o, alpha, parity, &list[1..n]);
                    if w.aborted() {
                        return 0;
                    }
                    if v > best {
                        best = v;
                        best_move = m;
                    }
                } else {
                    for c in &list[1..n] {
                        let bit = 1u64 << c.sq;
                        w.leave_child(node.as_ref(), p, o, c);
                        let v = -nws(w, o ^ c.flip, p ^ c.flip ^ bit, -alpha - 1, parity ^ QUADRANT[c.sq as usize]);
                        if w.aborted() {
                            return 0;
                        }
                        if v > best {
                            best = v;
                            best_move = c.sq as u8;
                            if v > alpha {
                                break;
                            }
                        }
                    }
                }
            }
            let (lower, upper) = if best > alpha { (best, 64) } else { (-64, best) };
            // A fail-low says nothing about which move is best: the table keeps the moves it had.
            if best <= alpha {
                best_move = NO_MOVE;
            }
            tt.store(hash, p, o, TtData {
                lower: lower as i8, upper: upper as i8, best_move,
                depth: n_empties as u8, selectivity: EXACT, second_move: NO_MOVE,
            });
            best
        }

        /// Searches the younger brothers in parallel; the first to fail high cancels the others. Returns the best
        /// (score, move) of those searched to completion.
        $(#[target_feature(enable = $feat)])?
        fn split(w: &mut Worker<'_, '_>, p: u64, o: u64, alpha: i32, parity: u8, rest: &[Candidate]) -> (i32, u8) {
            let mut best = (-INF, NO_MOVE);
            for (k, v) in split_results(w, p, o, alpha, parity, rest) {
                if v > best.0 {
                    best = (v, rest[k].sq as u8);
                }
            }
            best
        }

        /// Null-window searches at `alpha` of the moves `rest`, on all threads; the first to fail high cancels the
        /// others. Returns (index in `rest`, score) for each move searched to completion: a search that saw the
        /// split point cancelled may have been cut short, so its score is dropped (the one that cancelled it
        /// finished first). Nothing is returned once the caller's own search is stopped or cancelled.
        ///
        /// The moves stay in their order: each thread takes the next one not yet taken from a shared counter.
        /// (A parallel iterator over the list would hand the second thread the back half, the worst-ordered moves,
        /// whose searches are wasted whenever an early move fails high; FFO #53 with 2 threads: 2.26 G nodes that
        /// way, 2.09 G this way, against 1.97 G with one thread.)
        $(#[target_feature(enable = $feat)])?
        fn split_results(
            w: &mut Worker<'_, '_>, p: u64, o: u64, alpha: i32, parity: u8, rest: &[Candidate],
        ) -> Vec<(usize, i32)> {
            use rayon::prelude::*;
            use std::sync::atomic::AtomicUsize;
            let point = SplitPoint { cancelled: AtomicBool::new(false), parent: w.split };
            let shared = w.shared;
            let next = AtomicUsize::new(0);
            let threads = rayon::current_num_threads().min(rest.len());
            let per_thread: Vec<(Vec<(usize, i32)>, u64)> = (0..threads)
                .into_par_iter()
                .map(|_| {
                    let mut child = Worker::new(shared, Some(&point));
                    let node = child.node_features(p, o, 64 - (p | o).count_ones());
                    let mut done = Vec::new();
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        let Some(c) = rest.get(k) else { break };
                        if child.aborted() {
                            break;
                        }
                        let bit = 1u64 << c.sq;
                        child.leave_child(node.as_ref(), p, o, c);
                        // SAFETY: this closure runs the same backend as its caller, whose CPU features were checked
                        // when the search was dispatched.
                        #[allow(unused_unsafe)]
                        let v = unsafe {
                            -nws(&mut child, o ^ c.flip, p ^ c.flip ^ bit, -alpha - 1, parity ^ QUADRANT[c.sq as usize])
                        };
                        if child.aborted() {
                            break;
                        }
                        done.push((k, v));
                        if v > alpha {
                            point.cancelled.store(true, Ordering::Relaxed);
                            break;
                        }
                    }
                    (done, child.nodes)
                })
                .collect();
            let mut results = Vec::new();
            for (done, nodes) in per_thread {
                w.nodes += nodes;
                results.extend(done);
            }
            if w.aborted() {
                results.clear();
            }
            results
        }

        /// The younger brothers of a PV node, after its first move, searched in parallel: null-window searches at
        /// `alpha` on all threads; the first move to fail high is searched again with the full window, which raises
        /// `alpha`, and the moves not yet finished go on at the new `alpha`, until one reaches `beta`. Updates `best`
        /// (score, move). A move that failed low stays below any later `alpha`, so no move is searched twice
        /// unless a parallel search was cut short.
        #[allow(clippy::too_many_arguments)]
        $(#[target_feature(enable = $feat)])?
        fn split_pv(
            w: &mut Worker<'_, '_>, p: u64, o: u64, mut alpha: i32, beta: i32, parity: u8, rest: &[Candidate],
            best: &mut (i32, u8),
        ) {
            let mut pending: Vec<Candidate> = rest.to_vec();
            while !pending.is_empty() && alpha < beta {
                let results = split_results(w, p, o, alpha, parity, &pending);
                if w.aborted() {
                    return;
                }
                let mut done = vec![false; pending.len()];
                // The earliest move that failed high is searched again; other fail-highs are searched once more at
                // the new alpha.
                let high = results.iter().filter(|&&(_, v)| v > alpha).min_by_key(|&&(k, _)| k).copied();
                for &(k, v) in &results {
                    if v <= alpha {
                        done[k] = true;
                        if v > best.0 {
                            *best = (v, pending[k].sq as u8);
                        }
                    }
                }
                if let Some((k, mut v)) = high {
                    let c = pending[k];
                    if v < beta {
                        let bit = 1u64 << c.sq;
                        let node = w.node_features(p, o, 64 - (p | o).count_ones());
                        w.leave_child(node.as_ref(), p, o, &c);
                        v = -pvs(w, o ^ c.flip, p ^ c.flip ^ bit, -beta, -v, parity ^ QUADRANT[c.sq as usize]).0;
                        if w.aborted() {
                            return;
                        }
                    }
                    done[k] = true;
                    if v > best.0 {
                        *best = (v, c.sq as u8);
                    }
                    alpha = alpha.max(v);
                }
                pending = pending.iter().zip(&done).filter(|&(_, &d)| !d).map(|(&c, _)| c).collect();
            }
        }

        /// Full-window principal-variation search: exact score between `alpha` and `beta`, with the best move.
        $(#[target_feature(enable = $feat)])?
        pub(crate) fn pvs(w: &mut Worker<'_, '_>, p: u64, o: u64, mut alpha: i32, beta: i32, parity: u8) -> (i32, u8) {
            w.nodes += 1;
            let n_empties = 64 - (p | o).count_ones();
            if w.aborted() {
                return (0, NO_MOVE);
            }
            let moves = ops::moves(p, o);
            if moves == 0 {
                if ops::moves(o, p) == 0 {
                    return (final_score(p, o), NO_MOVE);
                }
                let (v, _) = pvs(w, o, p, -beta, -alpha, parity);
                return (-v, tt::PASS);
            }
            let tt = w.shared.tt;
            let hash = crate::board::hash_pair(p, o);
            let (tt_move, tt_second) = tt.probe(hash, p, o).map_or((NO_MOVE, NO_MOVE), |d| (d.best_move, d.second_move));
            let mut list = [Candidate::default(); 32];
            let n = score_moves(p, o, moves, parity, &mut list);
            mark_table_moves(&mut list[..n], tt_move, tt_second);
            let node = w.node_features(p, o, n_empties);
            if n_empties >= REFINE_MIN && (n_empties >= DEEP_ORDER_MIN || w.shared.eval.is_some()) {
                refine_order(w, p, o, node.as_ref(), &mut list[..n], n_empties, alpha, beta);
            }
            sort_candidates(&mut list[..n]);
            let original_alpha = alpha;
            let mut best = -INF;
            let mut best_move = NO_MOVE;
            for (i, c) in list[..n].iter().enumerate() {
                if i == 1 && w.shared.parallel && n_empties >= SPLIT_MIN {
                    let mut found = (best, best_move);
                    split_pv(w, p, o, alpha, beta, parity, &list[1..n], &mut found);
                    if w.aborted() {
                        return (0, NO_MOVE);
                    }
                    (best, best_move) = found;
                    break;
                }
                let bit = 1u64 << c.sq;
                let (np, no) = (o ^ c.flip, p ^ c.flip ^ bit);
                let child_parity = parity ^ QUADRANT[c.sq as usize];
                w.leave_child(node.as_ref(), p, o, c);
                let mut v;
                if i == 0 || n_empties <= 2 {
                    v = -pvs(w, np, no, -beta, -alpha, child_parity).0;
                } else {
                    v = -nws(w, np, no, -alpha - 1, child_parity);
                    if v > alpha && v < beta && !w.aborted() {
                        v = -pvs(w, np, no, -beta, -v, child_parity).0;
                    }
                }
                if w.aborted() {
                    return (0, NO_MOVE);
                }
                if v > best {
                    best = v;
                    best_move = c.sq as u8;
                    if v > alpha {
                        alpha = v;
                        if v >= beta {
                            break;
                        }
                    }
                }
            }
            if n_empties >= TABLE_MIN {
                let (lower, upper) = if best >= beta {
                    (best, 64)
                } else if best > original_alpha {
                    (best, best)
                } else {
                    (-64, best)
                };
                let best_move = if best <= original_alpha { NO_MOVE } else { best_move };
                tt.store(hash, p, o, TtData {
                    lower: lower as i8, upper: upper as i8, best_move,
                    depth: n_empties as u8, selectivity: EXACT, second_move: NO_MOVE,
                });
            }
            (best, best_move)
        }

        use crate::search::tt;
    };
}

pub(crate) use endgame_kernel;

/// The portable kernel.
#[allow(unsafe_code)]
pub(crate) mod portable {
    super::endgame_kernel!(crate::flip::portable, crate::search::midgame::kernel::portable);
}

/// The AVX2 kernel.
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
pub(crate) mod avx2 {
    super::endgame_kernel!(crate::flip::avx2, crate::search::midgame::kernel::avx2, "avx2,bmi1,bmi2,popcnt,lzcnt");
}

/// The AVX-512 kernel.
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
pub(crate) mod avx512 {
    super::endgame_kernel!(
        crate::flip::avx512,
        crate::search::midgame::kernel::avx512,
        "avx2,bmi1,bmi2,popcnt,lzcnt,avx512f,avx512vl,avx512cd"
    );
}

#[cfg(test)]
mod tests;
