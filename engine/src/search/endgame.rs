//! The exact endgame search, compiled once per move-generation backend.
//!
//! The body lives in a macro so that each backend's copy is compiled with that backend's target features: the SIMD
//! primitives then inline into the search loops, and the backend is chosen once per search, not once per move.
//!
//! Layers, by number of empty squares `e` (all null-window searches with `beta = alpha + 1` unless named `pvs`):
//! - `e ≤ 4`: dedicated code (`solve1`–`solve4`), empties ordered by quadrant parity;
//! - `e ≤ PARITY_MAX`: moves in parity order (odd quadrants first), then corners before the rest, no table;
//! - `e ≤ TABLE_MIN - 1`: fastest-first ordering (fewest opponent replies), no table;
//! - from `SHALLOW_TABLE_MIN` to `TABLE_MIN - 1`, in the exact solver (which has a small table of its own for them):
//!   fastest-first with that table's move first, instead of the two layers above;
//! - above: transposition table, enhanced transposition cut-off, stability cut-off, fastest-first ordering with the
//!   table's best move first and its previous best move second, and parallel search of the younger brothers once the
//!   eldest has been searched (YBWC);
//! - from `ETC_MIN`: the children are looked up in the table (their buckets fetched together) before any is searched:
//!   one the table proves to fail high cuts the node off, and one it proves to fail low is dropped;
//! - from `EVAL_ORDER_MIN` (with weights): the pattern evaluation of each child joins the ordering; from
//!   `EVAL_DEEP_ORDER_MIN` (`DEEP_ORDER_MIN` without weights) a look-ahead; from `EVAL_SEARCH_MIN` a selective
//!   midgame search of each child replaces the evaluation, in a window around the node's own. The table's move is searched before that ordering work is done.
//! - a fail-low stores no best move, so the table keeps the moves it had.
//!
//! The thresholds were chosen by node counts on FFO #41–#49 and #50–#58 (docs/engine.md, tuning notes).

// The shared items the kernel uses are in `super::core`; the kernel is instantiated per backend in `super::kernels`.

macro_rules! endgame_kernel {
    ($ops:path, $mid:path $(, $feat:literal)?) => {
        use $mid as mid;
        #[allow(unused_imports)]
        use std::sync::atomic::{AtomicBool, Ordering};

        use $ops as ops;
        use crate::search::core::{
            adjacent_empties, final_score, frontier_squares, sort_candidates, stability_threshold, DEEP_ORDER_MIN, ORDER_CORNER,
            ORDER_LOOKAHEAD, REFINE_MIN, EVAL_DEEP_ORDER_MIN, SHALLOW_TABLE_MIN, FIRST_MOVE_SCORE, ORDER_MOBILITY, ORDER_POTENTIAL, LOOKAHEAD3_MIN, EVAL_ORDER_WEIGHT, EVAL_SEARCH_MIN, NWS_EVAL_SEARCH_DEPTH, ORDER_SELECTIVITY, SECOND_MOVE_SCORE, mark_table_moves, SHALLOW_EVAL_ORDER_MAX, SHALLOW_EVAL_ORDER_WEIGHT, ORDER_WINDOW_ABOVE, ORDER_WINDOW_BELOW, eval_search_depth, Candidate, NodeFeatures, SplitPoint, Worker, CORNERS, ETC_MIN, EXACT,
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
            } else if let Some(shallow) = w.shared.shallow.filter(|_| n >= SHALLOW_TABLE_MIN) {
                nws_shallow(w, shallow, p, o, alpha, parity)
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
                    if n_empties >= if w.shared.eval.is_some() { EVAL_DEEP_ORDER_MIN } else { DEEP_ORDER_MIN } {
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
                            // With a network, a shallow ordering search's leaves are the patterns alone (as the
                            // midgame's ordering searches'), and its table entries say so.
                            let patterns_only = eval.has_net() && search_depth <= crate::search::midgame::kernel::PATTERNS_ORDER_MAX_DEPTH;
                            let mut ctx = crate::search::core::Ctx {
                                eval,
                                tt: w.shared.tt,
                                stop: w.shared.stop,
                                done: w.shared.stop,
                                nodes: 0,
                                mpc: w.shared.mpc.and_then(|m| crate::search::mpc::t_value(ORDER_SELECTIVITY).map(|t| (t, m))),
                                selectivity: {
                                    let full = crate::search::core::MIDGAME_BASE + ORDER_SELECTIVITY.index();
                                    if patterns_only { crate::search::core::patterns_only_selectivity(full) } else { full }
                                },
                                endgame: w.shared,
                                patterns_only,
                                leaf_cache: None,
                            };
                            let v = mid::pvs(&mut ctx, np, no, &f, child, search_depth, (-beta - ORDER_WINDOW_ABOVE).max(-64), (-alpha + ORDER_WINDOW_BELOW).min(64));
                            w.nodes += ctx.nodes;
                            v
                        } else {
                            let own = ops::moves(no, np).count_ones();
                            eval.estimate((np | no).count_ones(), np.count_ones(), &f, child, c.replies, own)
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

        /// `SHALLOW_TABLE_MIN` to `TABLE_MIN - 1` empties, when the solver has its small table: fastest-first with the
        /// table's move first, and the result stored there. Only exact results of this layer are in that table.
        $(#[target_feature(enable = $feat)])?
        fn nws_shallow(
            w: &mut Worker<'_, '_>, tt: &crate::search::tt::TranspositionTable, p: u64, o: u64, alpha: i32, parity: u8,
        ) -> i32 {
            w.nodes += 1;
            let moves = ops::moves(p, o);
            if moves == 0 {
                if ops::moves(o, p) == 0 {
                    return final_score(p, o);
                }
                return -nws_shallow(w, tt, o, p, -alpha - 1, parity);
            }
            if let Some(cap) = stability_cutoff(p, o, alpha, 64 - (p | o).count_ones()) {
                return cap;
            }
            let hash = crate::board::hash_pair(p, o);
            let mut tt_move = NO_MOVE;
            if let Some(d) = tt.probe(hash, p, o) {
                if i32::from(d.lower) > alpha {
                    return i32::from(d.lower);
                }
                if i32::from(d.upper) <= alpha {
                    return i32::from(d.upper);
                }
                tt_move = d.best_move;
            }
            let mut list = [Candidate::default(); 32];
            let n = score_moves(p, o, moves, parity, &mut list);
            mark_table_moves(&mut list[..n], tt_move, NO_MOVE);
            sort_candidates(&mut list[..n]);
            let mut best = -INF;
            let mut best_move = NO_MOVE;
            for c in &list[..n] {
                let bit = 1u64 << c.sq;
                let v = -nws(w, o ^ c.flip, p ^ c.flip ^ bit, -alpha - 1, parity ^ QUADRANT[c.sq as usize]);
                if v > best {
                    best = v;
                    if v > alpha {
                        best_move = c.sq as u8;
                        break;
                    }
                }
            }
            let (lower, upper) = if best > alpha { (best, 64) } else { (-64, best) };
            tt.store(hash, p, o, TtData {
                lower: lower as i8, upper: upper as i8, best_move,
                depth: (64 - (p | o).count_ones()) as u8, selectivity: EXACT, second_move: NO_MOVE,
            });
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

#[cfg(test)]
mod tests;
