//! The midgame search body, compiled once per move-generation backend (like the endgame kernel): negascout on the
//! pattern evaluation with a transposition table, Multi-ProbCut, enhanced transposition cut-off and move ordering by
//! shallow searches; lines that reach the end of the game with few empties are handed to the exact endgame solver.
//!
//! The state and helpers it shares with the endgame kernel are in [`crate::search::core`]; the kernel is
//! instantiated per backend in [`crate::search::kernels`].

/// A search to the end of the game with this many empties or fewer is solved exactly by the endgame kernel.
pub(crate) const HANDOFF: u32 = 12;
/// Multi-ProbCut is tried from this depth on.
pub(crate) const MPC_MIN_DEPTH: i32 = 2;
/// From this depth on, children are ordered by their evaluation (or a shallow search) rather than by mobility.
pub(crate) const ORDER_EVAL_DEPTH: i32 = 3;
/// With a network, the ordering searches up to this depth evaluate their leaves by the patterns alone; deeper ones
/// (3 plies, at nodes of depth 14 and more) keep the network, whose order saves more nodes there than it costs.
/// Selective-endgame bench with d64mm (FFO #40–#49 at 98 %), nodes: the network everywhere 102.0 M,
/// patterns up to 1 ply 101.3 M, up to 2 plies 103.6 M, up to 3 plies 121.2 M.
pub(crate) const PATTERNS_ORDER_MAX_DEPTH: i32 = 2;
/// From this depth on, children are looked up in the table before being searched (ETC).
pub(crate) const ETC_DEPTH: i32 = 4;
/// Whether a table entry's bounds hold for a search of `depth` at selectivity byte `selectivity`: an exact endgame
/// result always does; an estimate must come from a search at least as deep and as selective.
#[inline]
pub(crate) fn bounds_usable(d: &crate::search::tt::TtData, selectivity: u8, depth: i32) -> bool {
    d.selectivity == crate::search::tt::EXACT || d.selectivity >= selectivity && i32::from(d.depth) >= depth
}

/// Depth of the search that orders the children of a node searched to `depth` (−1: the child's evaluation).
#[inline]
pub(crate) const fn order_depth(depth: i32) -> i32 {
    match depth {
        ..=5 => 0,
        6..=9 => 1,
        10..=13 => 2,
        _ => 3,
    }
}

macro_rules! midgame_kernel {
    ($ops:path, $endgame:path $(, $feat:literal)?) => {
        use $ops as ops;
        use $endgame as exact;
        use crate::bitboard::Bitboard;
        use crate::board::Color;
        use crate::eval::Features;
        use crate::search::core::{final_score, adjacent_empties, parity_of, sort_candidates, Candidate, Worker, CORNERS};
        use crate::search::core::Ctx;
        use crate::search::midgame::kernel::{
            bounds_usable, order_depth, ETC_DEPTH, HANDOFF, MPC_MIN_DEPTH, ORDER_EVAL_DEPTH, PATTERNS_ORDER_MAX_DEPTH,
        };
        use crate::search::mpc::shallow_depth;
        use crate::search::tt::{TtData, NO_MOVE, PASS};
        use crate::square::Square;

        /// Flips of `p` playing `sq`.
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

        /// The evaluation of a leaf (exact when the game is over), side to move's view: the patterns alone in an
        /// ordering search ([`Ctx::patterns_only`]); a network's value is taken from and kept in the search's
        /// [`Ctx::leaf_cache`].
        #[inline]
        $(#[target_feature(enable = $feat)])?
        fn evaluate(c: &mut Ctx<'_>, p: u64, o: u64, f: &Features, side: Color) -> i32 {
            if !c.patterns_only {
                if let Some(v) = c.leaf_cache.as_ref().and_then(|cache| cache.get(p, o)) {
                    return v;
                }
            }
            let (pm, om) = (ops::moves(p, o), ops::moves(o, p));
            if pm == 0 && om == 0 {
                return final_score(p, o);
            }
            if c.patterns_only {
                return c.eval.estimate((p | o).count_ones(), p.count_ones(), f, side, pm.count_ones(), om.count_ones());
            }
            let v = c.eval.evaluate((p | o).count_ones(), p.count_ones(), f, side, pm.count_ones(), om.count_ones());
            if let Some(cache) = c.leaf_cache.as_mut() {
                cache.put(p, o, v);
            }
            v
        }

        /// [`evaluate`] without the evaluation's network, for ordering moves.
        #[inline]
        $(#[target_feature(enable = $feat)])?
        fn estimate(c: &mut Ctx<'_>, p: u64, o: u64, f: &Features, side: Color) -> i32 {
            let (pm, om) = (ops::moves(p, o), ops::moves(o, p));
            if pm == 0 && om == 0 {
                return final_score(p, o);
            }
            c.eval.estimate((p | o).count_ones(), p.count_ones(), f, side, pm.count_ones(), om.count_ones())
        }

        /// Depth 1: the best child evaluation (fail-soft, stops at `beta`).
        $(#[target_feature(enable = $feat)])?
        fn search1(c: &mut Ctx<'_>, p: u64, o: u64, moves: u64, f: &Features, side: Color, beta: i32) -> i32 {
            let mut best = -65;
            let mut set = moves;
            while set != 0 {
                let sq = set.trailing_zeros();
                set &= set - 1;
                let flips = flip(sq, p, o);
                let mut cf = *f;
                cf.play(side, Square::from_index(sq as u8), Bitboard(flips));
                c.nodes += 1;
                let v = -evaluate(c, o ^ flips, p ^ flips ^ (1 << sq), &cf, side.opposite());
                if v > best {
                    best = v;
                    if v >= beta {
                        break;
                    }
                }
            }
            best
        }

        /// Scores the moves for ordering; the table move first.
        $(#[target_feature(enable = $feat)])?
        fn order(c: &mut Ctx<'_>, p: u64, o: u64, moves: u64, f: &Features, side: Color, depth: i32, tt_move: u8, list: &mut [Candidate; 32]) -> usize {
            let mut n = 0;
            let mut set = moves;
            let od = order_depth(depth);
            while set != 0 {
                let sq = set.trailing_zeros();
                set &= set - 1;
                let flips = flip(sq, p, o);
                let bit = 1u64 << sq;
                let (np, no) = (o ^ flips, p ^ flips ^ bit);
                if depth >= ORDER_EVAL_DEPTH {
                    // The child probes the table when it is searched (depth 2 and more), and this node first when
                    // it looks for a transposition cut-off: its bucket is fetched while the moves are scored.
                    c.tt.prefetch(crate::board::hash_pair(np, no));
                }
                let score = if sq == u32::from(tt_move) {
                    i32::MAX
                } else {
                    let replies = ops::moves(np, no);
                    let empties = !(np | no);
                    // Fewer replies (corners count double) and less potential mobility for the opponent first.
                    let mut s = -((replies.count_ones() + (replies & CORNERS).count_ones()) as i32) * 32;
                    s -= adjacent_empties(no, empties).count_ones() as i32 * 4;
                    if depth >= ORDER_EVAL_DEPTH {
                        let mut cf = *f;
                        cf.play(side, Square::from_index(sq as u8), Bitboard(flips));
                        let v = if od == 0 {
                            c.nodes += 1;
                            estimate(c, np, no, &cf, side.opposite())
                        } else if c.patterns_only || !c.eval.has_net() || od > PATTERNS_ORDER_MAX_DEPTH {
                            pvs(c, np, no, &cf, side.opposite(), od, -64, 64)
                        } else {
                            // With a network, the ordering search's leaves are the patterns alone: the forward pass
                            // is most of a leaf's cost, and the order hardly needs it. Its table entries carry a
                            // selectivity byte below every full search's, so the full searches take their moves,
                            // never their bounds.
                            let selectivity = c.selectivity;
                            c.patterns_only = true;
                            c.selectivity = crate::search::core::patterns_only_selectivity(selectivity);
                            let v = pvs(c, np, no, &cf, side.opposite(), od, -64, 64);
                            c.patterns_only = false;
                            c.selectivity = selectivity;
                            v
                        };
                        s -= v * 256;
                    } else if bit & CORNERS != 0 {
                        s += 64;
                    }
                    s
                };
                list[n] = Candidate { sq, flip: flips, score, replies: 0 };
                n += 1;
            }
            n
        }

        /// Negascout to `depth` plies (a pass is free; a depth reaching the empties searches to the end of the game),
        /// fail-soft, from the side to move's view. `side` is the colour to move (for the features).
        $(#[target_feature(enable = $feat)])?
        pub(crate) fn pvs(c: &mut Ctx<'_>, p: u64, o: u64, f: &Features, side: Color, depth: i32, mut alpha: i32, beta: i32) -> i32 {
            c.nodes += 1;
            if c.aborted() {
                return 0;
            }
            let n_empties = 64 - (p | o).count_ones();
            let depth = depth.min(n_empties as i32);
            if depth <= 0 {
                return evaluate(c, p, o, f, side);
            }
            let to_end = depth == n_empties as i32;
            if to_end && n_empties <= HANDOFF {
                let mut w = Worker::new(c.endgame, None);
                let parity = parity_of(!(p | o));
                let v = if beta - alpha == 1 {
                    exact::nws(&mut w, p, o, alpha, parity)
                } else {
                    exact::pvs(&mut w, p, o, alpha, beta, parity).0
                };
                c.nodes += w.nodes;
                return v;
            }
            let moves = ops::moves(p, o);
            if moves == 0 {
                if ops::moves(o, p) == 0 {
                    return final_score(p, o);
                }
                return -pvs(c, o, p, f, side.opposite(), depth, -beta, -alpha);
            }
            if depth == 1 {
                return search1(c, p, o, moves, f, side, beta);
            }
            let hash = crate::board::hash_pair(p, o);
            let mut tt_move = NO_MOVE;
            if let Some(d) = c.tt.probe(hash, p, o) {
                if bounds_usable(&d, c.selectivity, depth) {
                    let (lower, upper) = (i32::from(d.lower), i32::from(d.upper));
                    if lower >= beta || lower == upper {
                        return lower;
                    }
                    if upper <= alpha {
                        return upper;
                    }
                }
                tt_move = d.best_move;
            }
            if let Some((t, model)) = c.mpc {
                if depth >= MPC_MIN_DEPTH {
                    let (ds, sigma) = if to_end {
                        model.endgame_probe(n_empties)
                    } else {
                        (shallow_depth(depth as u32), model.midgame_sigma(64 - n_empties, depth as u32))
                    };
                    let margin = (t * sigma).ceil() as i32;
                    let ds = ds as i32;
                    if beta + margin <= 64 {
                        let bound = beta + margin;
                        if pvs(c, p, o, f, side, ds, bound - 1, bound) >= bound {
                            return beta;
                        }
                    }
                    if alpha - margin >= -64 {
                        let bound = alpha - margin;
                        if pvs(c, p, o, f, side, ds, bound, bound + 1) <= bound {
                            return alpha;
                        }
                    }
                    if c.aborted() {
                        return 0;
                    }
                }
            }
            let mut list = [Candidate::default(); 32];
            let n = order(c, p, o, moves, f, side, depth, tt_move, &mut list);
            sort_candidates(&mut list[..n]);
            if depth >= ETC_DEPTH {
                // Enhanced transposition cut-off: a child already known to be bad enough for the opponent.
                for ch in &list[..n] {
                    let bit = 1u64 << ch.sq;
                    let (np, no) = (o ^ ch.flip, p ^ ch.flip ^ bit);
                    if let Some(d) = c.tt.probe(crate::board::hash_pair(np, no), np, no) {
                        if bounds_usable(&d, c.selectivity, depth - 1) && -i32::from(d.upper) >= beta {
                            return -i32::from(d.upper);
                        }
                    }
                }
            }
            let original_alpha = alpha;
            let mut best = -65;
            let mut best_move = NO_MOVE;
            for (i, ch) in list[..n].iter().enumerate() {
                let v = search_child(c, p, o, f, side, ch, depth, alpha, beta, i == 0);
                if c.aborted() {
                    return 0;
                }
                if v > best {
                    best = v;
                    best_move = ch.sq as u8;
                    if v > alpha {
                        alpha = v;
                        if v >= beta {
                            break;
                        }
                    }
                }
            }
            store(c, hash, p, o, depth, original_alpha, beta, best, best_move);
            best
        }

        /// The value of child `ch` (a move of the side to move): a full-window search for the first child, a
        /// null-window search with a re-search inside the window for the others.
        #[inline]
        $(#[target_feature(enable = $feat)])?
        fn search_child(c: &mut Ctx<'_>, p: u64, o: u64, f: &Features, side: Color, ch: &Candidate, depth: i32, alpha: i32, beta: i32, first: bool) -> i32 {
            let (np, no) = (o ^ ch.flip, p ^ ch.flip ^ (1u64 << ch.sq));
            let mut cf = *f;
            cf.play(side, Square::from_index(ch.sq as u8), Bitboard(ch.flip));
            let child_side = side.opposite();
            if first {
                return -pvs(c, np, no, &cf, child_side, depth - 1, -beta, -alpha);
            }
            let v = -pvs(c, np, no, &cf, child_side, depth - 1, -alpha - 1, -alpha);
            if v > alpha && v < beta {
                return -pvs(c, np, no, &cf, child_side, depth - 1, -beta, -v);
            }
            v
        }

        fn store(c: &Ctx<'_>, hash: u64, p: u64, o: u64, depth: i32, alpha: i32, beta: i32, value: i32, best_move: u8) {
            let (lower, upper) = if value >= beta {
                (value, 64)
            } else if value > alpha {
                (value, value)
            } else {
                (-64, value)
            };
            // A fail-low names no best move: the table keeps the one it had.
            let best_move = if value <= alpha { NO_MOVE } else { best_move };
            let data = TtData {
                lower: lower as i8,
                upper: upper as i8,
                best_move,
                depth: depth.clamp(0, 255) as u8,
                selectivity: c.selectivity,
                second_move: NO_MOVE,
            };
            c.tt.store(hash, p, o, data);
        }

        /// The root: every move searched (no cut-offs from the table or Multi-ProbCut), `first` (the previous
        /// iteration's best move) first. Returns the score and the best move (`PASS` for a forced pass).
        $(#[target_feature(enable = $feat)])?
        pub(crate) fn root(c: &mut Ctx<'_>, p: u64, o: u64, f: &Features, side: Color, depth: i32, mut alpha: i32, beta: i32, first: u8) -> (i32, u8) {
            c.nodes += 1;
            let moves = ops::moves(p, o);
            if moves == 0 {
                let v = -pvs(c, o, p, f, side.opposite(), depth, -beta, -alpha);
                if !c.aborted() {
                    store(c, crate::board::hash_pair(p, o), p, o, depth, alpha, beta, v, PASS);
                }
                return (v, PASS);
            }
            let n_empties = 64 - (p | o).count_ones();
            let depth = depth.min(n_empties as i32);
            let mut list = [Candidate::default(); 32];
            let n = order(c, p, o, moves, f, side, depth.max(1), first, &mut list);
            sort_candidates(&mut list[..n]);
            let original_alpha = alpha;
            let mut best = -65;
            let mut best_move = list[0].sq as u8;
            for (i, ch) in list[..n].iter().enumerate() {
                let v = search_child(c, p, o, f, side, ch, depth, alpha, beta, i == 0);
                if c.aborted() {
                    break;
                }
                if v > best {
                    best = v;
                    best_move = ch.sq as u8;
                    if v > alpha {
                        alpha = v;
                        if v >= beta {
                            break;
                        }
                    }
                }
            }
            if !c.aborted() {
                store(c, crate::board::hash_pair(p, o), p, o, depth, original_alpha, beta, best, best_move);
            }
            (best, best_move)
        }
    };
}

pub(crate) use midgame_kernel;
