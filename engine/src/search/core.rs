//! The core both search kernels share: the endgame kernel's [`Worker`] and [`Shared`] state, the midgame kernel's
//! [`Ctx`], move candidates and their ordering, the tuning constants and the small bit helpers. The endgame kernel
//! (`endgame.rs`) and the midgame kernel (`midgame/kernel.rs`) both depend on this module and never on each other;
//! [`super::kernels`] instantiates the two together for each backend, since their searches call one another.

use std::sync::atomic::{AtomicBool, Ordering};

use super::leaf_cache::LeafCache;
use super::tt::TranspositionTable;
use crate::eval::Evaluator;
use crate::search::mpc::MpcModel;

/// Below this many empties, moves are tried in parity order only.
pub(crate) const PARITY_MAX: u32 = 6;
/// From this many empties on, the transposition table is used.
pub(crate) const TABLE_MIN: u32 = 8;
/// From this many empties to `TABLE_MIN - 1`, a solver keeps its nodes in a small table of its own (2^16 entries,
/// 1.5 MiB, which stays in the processor's cache) instead of searching them without a table: positions that
/// recur a few moves before the end are found there. Thirty-fifth session, one thread, eval-2, hash level 26, FFO
/// #56 + #58 in millions of nodes (with the look-ahead from 20 empties): no small table 1,389.3 (ETC from 9); from 7
/// empties 1,362.0 (ETC from 11); from 6 1,207.3 (ETC from 11), 1,181.5 (ETC from 9). The same nodes in the big
/// table (from 6 empties, ETC from 7: 1,132.4) cost a memory access each, about 20 % more time; this one costs 1.5 MiB.
pub(crate) const SHALLOW_TABLE_MIN: u32 = 6;
/// The size of that table: 2^`SHALLOW_TABLE_LEVEL` entries.
pub(crate) const SHALLOW_TABLE_LEVEL: u8 = 16;
/// From this many empties on, nodes may be split between threads.
pub(crate) const SPLIT_MIN: u32 = 12;
/// From this many empties on, children are looked up in the table before being searched (ETC). Thirty-fifth
/// session, one thread, eval-2, hash level 26, FFO #56 + #57 + #58 in millions of nodes (with the look-ahead from
/// `EVAL_DEEP_ORDER_MIN`): from 11 2,689.9; 10 2,661.3; 9 2,627.1 (8: the same, its children are not in the table).
pub(crate) const ETC_MIN: u32 = 9;
// ETC looks the children up in the big table: they must have `TABLE_MIN` empties or more.
const _: () = assert!(ETC_MIN > TABLE_MIN);
/// From this many empties on, a solver without an evaluation adds a two-ply look-ahead to its move ordering.
pub(crate) const DEEP_ORDER_MIN: u32 = 15;
/// From this many empties on, a solver with an evaluation adds that look-ahead. Its visits count as nodes, and
/// below 20 empties the evaluation orders as well without it. Thirty-fifth session, one thread, eval-2, hash level
/// 26, FFO #56 + #57 + #58 in millions of nodes: from 15 (as without an evaluation) 2,863.6; 17 2,712.0; 18 2,744.6;
/// 20 2,689.9; 22 2,708.0; never 2,968.3 (#57 needs it at 24 and more); #50–#54 4,704.4 against 4,529.2 from 20,
/// #55 6,132.9 against 5,625.6.
pub(crate) const EVAL_DEEP_ORDER_MIN: u32 = 20;
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
/// Selectivity recorded for exact results (defined with the table that stores it).
pub(crate) use super::tt::EXACT;

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
    /// A small table for the nodes with `SHALLOW_TABLE_MIN` to `TABLE_MIN - 1` empties (`None`: those nodes use no
    /// table).
    pub(crate) shallow: Option<&'a TranspositionTable>,
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

/// Selectivity byte of midgame table entries: `MIDGAME_BASE + Selectivity::index()` (101–107); the endgame kernel's
/// exact entries use 100 (`EXACT`).
pub(crate) const MIDGAME_BASE: u8 = 101;
/// The selectivity bytes of the ordering searches that evaluate their leaves with the patterns alone
/// ([`Ctx::patterns_only`]) are their selectivity's byte less this (91–97): below every full search's byte, so the
/// full searches take their moves but never their bounds, while they take the full searches' bounds.
pub(crate) const PATTERNS_ONLY_OFFSET: u8 = 10;

/// The selectivity byte of an ordering search by the patterns alone that runs at selectivity byte `full`.
#[inline]
pub(crate) const fn patterns_only_selectivity(full: u8) -> u8 {
    full - PATTERNS_ONLY_OFFSET
}

/// One thread's state during a midgame search.
pub(crate) struct Ctx<'a> {
    pub(crate) eval: &'a Evaluator,
    pub(crate) tt: &'a TranspositionTable,
    /// Set from outside to stop the search.
    pub(crate) stop: &'a AtomicBool,
    /// Set when the main thread has finished (helper threads then return).
    pub(crate) done: &'a AtomicBool,
    pub(crate) nodes: u64,
    /// Multi-ProbCut's `t` and model; `None` for a full-width search.
    pub(crate) mpc: Option<(f64, &'a MpcModel)>,
    /// Selectivity byte stored with (and required of) table entries.
    pub(crate) selectivity: u8,
    /// The endgame kernel's view of the same table, for exact hand-offs.
    pub(crate) endgame: &'a Shared<'a>,
    /// Leaves are evaluated by the patterns alone, without the evaluation's network: the shallow searches that order
    /// moves when there is a network (`midgame::kernel::PATTERNS_ORDER_MAX_DEPTH`; their table entries' selectivity
    /// is lowered by [`PATTERNS_ONLY_OFFSET`]).
    pub(crate) patterns_only: bool,
    /// The network's values of the leaves this thread evaluated (`None` without a network, and in the exact
    /// solver's short ordering searches).
    pub(crate) leaf_cache: Option<Box<LeafCache>>,
}

impl Ctx<'_> {
    #[inline]
    pub(crate) fn aborted(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.done.load(Ordering::Relaxed)
    }
}
