//! Book operations that search: [`recalculate_leaves`], [`store`] (add a transcript) and [`deviate`] (Egaroucid's
//! book learning), over a [`Searcher`] so that tests can use a cheap one and the CLI the real AI ([`ThinkerSearcher`]).
//!
//! Deviate, as Egaroucid 7 does it (inventory §6.3), in loops until a loop adds nothing:
//! 1. fix the book from the root (negamax over the links), so values are current;
//! 2. walk the links from the root within the depth, the error per move and the accumulated error, and give every
//!    position met without a valid leaf a new one (the best move leaving the book, searched at the level);
//! 3. collect the positions met whose leaf loses at most the leaf error (and the remaining accumulated error)
//!    against the position's value and does not pass the depth;
//! 4. expand each (in parallel, one searcher per thread): play the leaf, then search and register each new position,
//!    following the AI's best move until the depth or a position already in the book; game-over positions get their
//!    exact score at level 60.
//!
//! Everything learned lives in the book itself (values and leaves drive the next loop), so a run that is stopped or
//! killed resumes by running again on the saved book; the `save` callback is called after every loop that added
//! something once `save_every` has passed, and at the end.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::ops::{self, Control, Stage, Walk};
use super::shard::Shard;
use super::{Book, Entry, Leaf, book_child, legal_moves};
use crate::board::{Board, Color, Move};
use crate::eval::Weights;
use crate::level::Level;
use crate::position::Position;
use crate::search::{SearchError, SolveOptions};
use crate::think::Thinker;

/// A search the book operations can call.
pub trait Searcher {
    /// The best move of `board` (side to move; `Some(Move::Pass)` when it must pass, `None` when the game is over)
    /// and its value for the side to move at `level`.
    fn search(&mut self, board: &Board, level: u8) -> (Option<Move>, i8);

    /// Forgets what earlier searches left behind (transposition tables), so that the next result depends only on the
    /// position and the level, whichever positions this searcher saw before. Searchers without memory do nothing.
    fn forget(&mut self) {}
}

/// The AI ([`Thinker`]) as a [`Searcher`].
pub struct ThinkerSearcher {
    thinker: Thinker,
}

impl ThinkerSearcher {
    /// A searcher with these weights and a transposition table of 2^`hash_level` entries, single-threaded.
    ///
    /// # Errors
    /// [`SearchError`] if the search cannot be created.
    pub fn new(weights: Arc<Weights>, hash_level: u8) -> Result<ThinkerSearcher, SearchError> {
        let options = SolveOptions::default().with_threads(1).with_hash_level(hash_level);
        Ok(ThinkerSearcher { thinker: Thinker::new(weights, options)? })
    }

    /// The searcher with another Multi-ProbCut model (for weights with a network: the one fitted to it).
    #[must_use]
    pub fn with_mpc_model(mut self, model: &crate::search::mpc::MpcModel) -> ThinkerSearcher {
        self.thinker.set_mpc_model(model);
        self
    }
}

impl Searcher for ThinkerSearcher {
    fn search(&mut self, board: &Board, level: u8) -> (Option<Move>, i8) {
        let position = Position { board: *board, side_to_move: crate::Color::Black };
        let thought = self.thinker.think(&position, Level::clamped(level));
        (thought.best_move, clamp_score(thought.score))
    }

    fn forget(&mut self) {
        self.thinker.clear();
    }
}

fn clamp_score(score: i32) -> i8 {
    i8::try_from(score.clamp(-64, 64)).unwrap_or(0)
}

/// The value of `mv` from `board` found by searching its child (the opponent's view negated; the same side's view
/// after a forced pass).
fn move_value(searcher: &mut dyn Searcher, board: &Board, mv: Move, level: u8) -> Option<i8> {
    let (child, negate) = book_child(board, mv)?;
    let value = if child.is_game_over() { clamp_score(child.final_score()) } else { searcher.search(&child, level).1 };
    Some(if negate { value.saturating_neg() } else { value })
}

/// The best move of `board` that leaves the book, with its value, searched at `level`; `None` when every move is a
/// link (or there is none).
pub fn best_leaf(book: &Book, searcher: &mut dyn Searcher, board: &Board, level: u8) -> Option<Leaf> {
    let mut best: Option<Leaf> = None;
    for mv in legal_moves(board) {
        let (child, _) = book_child(board, mv)?;
        if book.contains(&child) {
            continue;
        }
        let Some(value) = move_value(searcher, board, mv, level) else { continue };
        if best.is_none_or(|b| value > b.value) {
            best = Some(Leaf::new(mv, value, level));
        }
    }
    best
}

/// Whether the leaf of `entry` (in `board`'s orientation) is a legal move leaving the book.
pub(crate) fn leaf_is_valid(book: &Book, board: &Board, entry: &Entry) -> bool {
    entry.leaf.mv().and_then(|mv| book_child(board, mv)).is_some_and(|(child, _)| !book.contains(&child))
}

/// Runs `work` on every item with `threads` workers, each with its own searcher from `make`.
fn parallel<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    make: &(dyn Fn() -> Box<dyn Searcher> + Sync),
    control: &Control<'_>,
    work: &(dyn Fn(&mut dyn Searcher, &T) -> R + Sync),
) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1).min(items.len().max(1)) {
            let _handle = scope.spawn(|| {
                let mut searcher = make();
                loop {
                    if control.is_stopped() {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(i) else { break };
                    let result = work(searcher.as_mut(), item);
                    if let Ok(mut results) = results.lock() {
                        results.push(result);
                    }
                }
            });
        }
    });
    results.into_inner().unwrap_or_default()
}

/// What [`recalculate_leaves`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LeavesReport {
    /// Positions whose leaf was searched.
    pub searched: u64,
    /// Leaves set (the others had every move in the book).
    pub set: u64,
}

/// Settings of [`recalculate_leaves`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LeafSettings {
    /// Which positions: those reachable from the root within these limits.
    pub walk: Walk,
    /// Search level.
    pub level: u8,
    /// Only positions whose leaf is missing, illegal or became a link.
    pub only_invalid: bool,
    /// Worker threads.
    pub threads: usize,
}

/// Recalculate Leaves: for the positions reachable from `root` within the walk (all of them, or only those with an
/// invalid leaf), searches the best move leaving the book and stores it as the leaf.
pub fn recalculate_leaves(
    book: &mut Book,
    root: &Board,
    settings: LeafSettings,
    make: &(dyn Fn() -> Box<dyn Searcher> + Sync),
    control: &Control<'_>,
) -> LeavesReport {
    leaves_in_shard(book, root, settings, Shard::ALL, make, control)
}

/// [`recalculate_leaves`] for the positions of one shard only.
fn leaves_in_shard(
    book: &mut Book,
    root: &Board,
    settings: LeafSettings,
    shard: Shard,
    make: &(dyn Fn() -> Box<dyn Searcher> + Sync),
    control: &Control<'_>,
) -> LeavesReport {
    let LeafSettings { walk, level, only_invalid, threads } = settings;
    let reachable = ops::reachable(book, root, walk);
    let mut todo: Vec<Board> = Vec::new();
    for key in reachable {
        let board = Board::from_raw(key[0], key[1]);
        if let Some(entry) = book.get_canonical(&board)
            && shard.contains(&board)
            && board.has_moves()
            && (!only_invalid || !leaf_is_valid(book, &board, &entry))
        {
            todo.push(board);
        }
    }
    todo.sort_unstable();
    let shared: &Book = book;
    let done = AtomicUsize::new(0);
    let total = todo.len() as u64;
    let results = parallel(&todo, threads, make, control, &|searcher, board| {
        let leaf = best_leaf(shared, searcher, board, level);
        let n = done.fetch_add(1, Ordering::Relaxed) as u64 + 1;
        control.report(Stage::Leaves, n, total);
        (*board, leaf)
    });
    let mut report = LeavesReport::default();
    for (board, leaf) in results {
        report.searched += 1;
        if let Some(mut entry) = book.get_canonical(&board) {
            entry.leaf = leaf.unwrap_or(Leaf::NONE);
            report.set += u64::from(leaf.is_some());
            let _ = book.insert(&board, entry);
        }
    }
    report
}

/// What [`store`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct StoreReport {
    /// Positions added.
    pub added: u64,
    /// Positions whose value was replaced.
    pub updated: u64,
}

/// Add This Transcript to Book: for every position of the line (the start included) with at most `depth + 4` discs,
/// searches it at `level`, registers its value, and registers the child after the best move with its value.
pub fn store(
    book: &mut Book,
    start: &Board,
    moves: &[Move],
    depth: u8,
    level: u8,
    searcher: &mut dyn Searcher,
    control: &Control<'_>,
) -> StoreReport {
    let mut report = StoreReport::default();
    let mut board = *start;
    let max_discs = u32::from(depth) + 4;
    let register = |book: &mut Book, board: &Board, value: i8, level: u8, report: &mut StoreReport| {
        let entry = match book.get(board) {
            Some(old) => Entry { value, level, ..old },
            None => Entry::new(value, level),
        };
        if book.insert(board, entry).is_some() {
            report.updated += 1;
        } else {
            report.added += 1;
        }
    };
    for (i, mv) in moves.iter().copied().chain(std::iter::once(Move::Pass)).enumerate() {
        if control.is_stopped() || 64 - board.empty_count() > max_discs {
            break;
        }
        if board.has_moves() {
            let (best, value) = searcher.search(&board, level);
            register(book, &board, value, level, &mut report);
            if let Some(best) = best
                && let Some((child, negate)) = book_child(&board, best)
                && 64 - child.empty_count() <= max_discs
            {
                let child_value = if negate { value.saturating_neg() } else { value };
                register(book, &child, child_value, level, &mut report);
            }
        }
        control.report(Stage::Store, i as u64 + 1, moves.len() as u64);
        if i == moves.len() {
            break;
        }
        let Ok(next) = board.play(mv) else { break };
        board = if !next.has_moves() && next.pass().has_moves() { next.pass() } else { next };
    }
    report
}

/// Settings of [`deviate`] (Egaroucid's Book Settings plus the level).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeviateSettings {
    /// Search level.
    pub level: u8,
    /// Positions with at most `depth + 4` discs are learned.
    pub depth: u8,
    /// Largest loss of a followed link.
    pub error_per_move: i32,
    /// Largest accumulated loss.
    pub error_sum: i32,
    /// Largest loss of an expanded leaf.
    pub error_leaf: i32,
    /// Loops at most (Egaroucid: unlimited).
    pub max_loops: usize,
    /// Worker threads.
    pub threads: usize,
    /// Save at most this often (after a loop).
    pub save_every: Duration,
    /// Search leaves of and deviate from the positions of this shard only ([`Shard::ALL`]: all of them). The shards'
    /// books are joined with `book merge`, then an unsharded run on the merged book goes on from there.
    pub shard: Shard,
}

/// What [`deviate`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DeviateReport {
    /// Loops run.
    pub loops: usize,
    /// Positions added.
    pub added: u64,
    /// Saves made.
    pub saves: usize,
    /// Whether it was stopped before the book stopped growing.
    pub stopped: bool,
}

/// Book Deviate from `root` (see the [module docs](self)). `save` is called with the book after loops (at most every
/// `save_every`) and at the end; an error from it ends the run and is returned.
///
/// # Errors
/// The first error `save` returns.
pub fn deviate<E>(
    book: &mut Book,
    root: &Board,
    settings: &DeviateSettings,
    make: &(dyn Fn() -> Box<dyn Searcher> + Sync),
    save: &mut dyn FnMut(&Book) -> Result<(), E>,
    control: &Control<'_>,
) -> Result<DeviateReport, E> {
    let mut report = DeviateReport::default();
    let level = settings.level;
    let max_discs = u32::from(settings.depth) + 4;
    let walk = Walk { depth: settings.depth, error_per_move: settings.error_per_move, error_sum: settings.error_sum };
    let (root, _) = root.canonical();
    if !book.contains(&root) && root.has_moves() {
        let mut searcher = make();
        let (_, value) = searcher.search(&root, level);
        let _ = book.insert(&root, Entry::new(value, level));
        report.added += 1;
    }
    let mut last_save = Instant::now();
    while report.loops < settings.max_loops {
        if control.is_stopped() {
            report.stopped = true;
            break;
        }
        report.loops += 1;
        let _ = ops::fix(book, &root, false, &Control::none());
        let leaf_settings = LeafSettings { walk, level, only_invalid: true, threads: settings.threads };
        let _ = leaves_in_shard(book, &root, leaf_settings, settings.shard, make, control);
        let _ = ops::fix(book, &root, false, &Control::none());
        let todo = deviation_todo(book, &root, settings);
        if todo.is_empty() || control.is_stopped() {
            report.stopped = control.is_stopped();
            break;
        }
        let shared = Mutex::new(std::mem::take(book));
        let added = AtomicUsize::new(0);
        let _ = parallel(&todo, settings.threads, make, control, &|searcher, (board, mv)| {
            expand(&shared, searcher, board, *mv, level, max_discs, &added);
            control.report(Stage::Deviate, added.load(Ordering::Relaxed) as u64, 0);
        });
        *book = shared.into_inner().unwrap_or_default();
        let added = added.load(Ordering::Relaxed) as u64;
        report.added += added;
        if added == 0 {
            break;
        }
        if last_save.elapsed() >= settings.save_every {
            let _ = ops::fix(book, &root, false, &Control::none());
            save(book)?;
            report.saves += 1;
            last_save = Instant::now();
        }
    }
    let _ = ops::fix(book, &root, false, &Control::none());
    // After a stop, no more searches: the leaves left missing are the first thing the next run computes.
    let leaf_settings = LeafSettings { walk, level, only_invalid: true, threads: settings.threads };
    let _ = leaves_in_shard(book, &root, leaf_settings, settings.shard, make, control);
    save(book)?;
    report.saves += 1;
    Ok(report)
}

/// What [`deviate_transcripts`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TranscriptsReport {
    /// Transcripts deviated from.
    pub transcripts: usize,
    /// Positions added (on the lines and by deviate).
    pub added: u64,
    /// Saves made.
    pub saves: usize,
    /// Whether it was stopped before the last transcript was done.
    pub stopped: bool,
}

/// Book Deviate with Transcripts: for each line (moves from the initial position), registers the positions of the line
/// that are missing (searched at the level, within the depth), then deviates from its last position; saves after each
/// line.
///
/// # Errors
/// The first error `save` returns.
pub fn deviate_transcripts<E>(
    book: &mut Book,
    lines: &[Vec<Move>],
    settings: &DeviateSettings,
    make: &(dyn Fn() -> Box<dyn Searcher> + Sync),
    save: &mut dyn FnMut(&Book) -> Result<(), E>,
    control: &Control<'_>,
) -> Result<TranscriptsReport, E> {
    let mut report = TranscriptsReport::default();
    let max_discs = u32::from(settings.depth) + 4;
    let mut searcher = make();
    for line in lines {
        if control.is_stopped() {
            report.stopped = true;
            break;
        }
        let mut board = Board::INITIAL;
        for mv in line.iter().copied().map(Some).chain(std::iter::once(None)) {
            if 64 - board.empty_count() > max_discs {
                break;
            }
            if board.has_moves() && !book.contains(&board) {
                let (best, value) = searcher.search(&board, settings.level);
                let leaf = best.map_or(Leaf::NONE, |best| Leaf::new(best, value, settings.level));
                let _ = book.insert(&board, Entry { leaf, ..Entry::new(value, settings.level) });
                report.added += 1;
            }
            let Some(mv) = mv else { break };
            let Some((next, _)) = book_child(&board, mv) else { break };
            board = next;
        }
        let inner = deviate(book, &board, settings, make, save, control)?;
        report.transcripts += 1;
        report.added += inner.added;
        report.saves += inner.saves;
        if inner.stopped {
            report.stopped = true;
            break;
        }
    }
    Ok(report)
}

/// The (canonical position, leaf move) pairs to expand.
pub(crate) fn deviation_todo(book: &Book, root: &Board, settings: &DeviateSettings) -> Vec<(Board, Move)> {
    let walk = Walk { depth: settings.depth, error_per_move: settings.error_per_move, error_sum: settings.error_sum };
    let mut todo = open_leaves(book, root, walk, settings.error_leaf);
    todo.retain(|(board, _)| settings.shard.contains(board));
    todo
}

/// The leaves deviate expands (Egaroucid's two passes, inventory §6.3): once with Black, once with White as the side
/// that plays only its best links while the other follows every link within the errors
/// ([`reachable_one_sided`]), the positions within the depth whose leaf is legal, not a link, and loses at most
/// `error_leaf` and at most the error left on the line against the position's value; at a position of the best-only
/// side the leaf must also be at least as good as the best link. Each position once, sorted by key.
pub(crate) fn open_leaves(book: &Book, root: &Board, walk: Walk, error_leaf: i32) -> Vec<(Board, Move)> {
    let max_discs = u32::from(walk.depth) + 4;
    let mut todo = std::collections::BTreeMap::new();
    for best_only in [Color::Black, Color::White] {
        for (key, side, remaining) in reachable_one_sided(book, root, walk, best_only) {
            let board = Board::from_raw(key[0], key[1]);
            let Some(entry) = book.get_canonical(&board) else { continue };
            let Some(mv) = entry.leaf.mv() else { continue };
            if !leaf_is_valid(book, &board, &entry) || 64 - board.empty_count() + 1 > max_discs {
                continue;
            }
            let leaf = i32::from(entry.leaf.value);
            let loss = i32::from(entry.value) - leaf;
            let best_link = book.move_values(&board).iter().map(|m| i32::from(m.value)).max();
            let good_enough = side != best_only || best_link.is_none_or(|best| leaf >= best);
            if loss <= error_leaf && loss <= remaining && good_enough {
                let _ = todo.insert(key, (board, mv));
            }
        }
    }
    todo.into_values().collect()
}

/// The side to move at `board` when no pass has been played before it (Black with an even number of discs).
pub(crate) fn side_to_move(board: &Board) -> Color {
    if (64 - board.empty_count()).is_multiple_of(2) { Color::Black } else { Color::White }
}

/// Canonical positions reachable from `root` (whose side to move is [`side_to_move`]) with the side to move there
/// and the best error budget left, when `best_only` follows only its best links (no loss) and the other side every
/// link losing at most `error_per_move` against the best link and at most the budget left.
pub(crate) fn reachable_one_sided(
    book: &Book,
    root: &Board,
    walk: Walk,
    best_only: Color,
) -> Vec<([u64; 2], Color, i32)> {
    let mut budget: std::collections::HashMap<([u64; 2], Color), i32> = std::collections::HashMap::new();
    let mut queue = std::collections::VecDeque::new();
    let side = side_to_move(root);
    let (root, _) = root.canonical();
    if book.contains(&root) {
        let _ = budget.insert(([root.player.0, root.opponent.0], side), walk.error_sum);
        queue.push_back((root, side, walk.error_sum));
    }
    let max_discs = u32::from(walk.depth) + 4;
    while let Some((board, side, remaining)) = queue.pop_front() {
        let links = book.move_values(&board);
        let Some(best) = links.iter().map(|m| i32::from(m.value)).max() else { continue };
        let allowed = if side == best_only { 0 } else { walk.error_per_move.min(remaining) };
        for m in links {
            let loss = best - i32::from(m.value);
            if loss > allowed {
                continue;
            }
            let Some((child, negate)) = book_child(&board, m.mv) else { continue };
            if 64 - child.empty_count() > max_discs {
                continue;
            }
            // The colour changes unless the opponent had to pass.
            let child_side = if negate { side.opposite() } else { side };
            let (child, _) = child.canonical();
            let key = ([child.player.0, child.opponent.0], child_side);
            let left = remaining - loss;
            if budget.get(&key).is_some_and(|b| *b >= left) {
                continue;
            }
            let _ = budget.insert(key, left);
            queue.push_back((child, child_side, left));
        }
    }
    let mut out: Vec<_> = budget.into_iter().map(|((key, side), left)| (key, side, left)).collect();
    out.sort_unstable_by_key(|(key, side, _)| (*key, *side == Color::White));
    out
}

/// Plays `mv` from `board` and follows the AI's best moves, registering each new position, until the depth, a
/// position already in the book, or the end of the game.
fn expand(
    book: &Mutex<Book>,
    searcher: &mut dyn Searcher,
    board: &Board,
    mv: Move,
    level: u8,
    max_discs: u32,
    added: &AtomicUsize,
) {
    let Some((mut current, _)) = book_child(board, mv) else { return };
    loop {
        if book.lock().map_or(true, |b| b.contains(&current)) {
            return;
        }
        let discs = 64 - current.empty_count();
        if current.is_game_over() {
            let value = clamp_score(current.final_score());
            if let Ok(mut b) = book.lock() {
                b.merge_entry(&current, Entry::new(value, 60));
                let _ = added.fetch_add(1, Ordering::Relaxed);
            }
            return;
        }
        let (best, value) = searcher.search(&current, level);
        let leaf = best.map_or(Leaf::NONE, |best| Leaf::new(best, value, level));
        if let Ok(mut b) = book.lock() {
            if b.contains(&current) {
                return;
            }
            let _ = b.insert(&current, Entry { leaf, ..Entry::new(value, level) });
            let _ = added.fetch_add(1, Ordering::Relaxed);
        }
        let Some(best) = best else { return };
        if discs >= max_discs {
            return;
        }
        let Some((next, _)) = book_child(&current, best) else { return };
        current = next;
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::*;
    use crate::Square;

    /// A cheap deterministic searcher: one ply over a mobility evaluation.
    struct Mobility;

    fn eval(board: &Board) -> i32 {
        board.moves().count() as i32 - board.pass().moves().count() as i32
    }

    impl Searcher for Mobility {
        fn search(&mut self, board: &Board, _level: u8) -> (Option<Move>, i8) {
            if board.is_game_over() {
                return (None, clamp_score(board.final_score()));
            }
            let mut best: Option<(Move, i32)> = None;
            for mv in legal_moves(board) {
                let (child, negate) = book_child(board, mv).unwrap();
                let v = if negate { -eval(&child) } else { eval(&child) };
                if best.is_none_or(|(_, b)| v > b) {
                    best = Some((mv, v));
                }
            }
            best.map_or((None, 0), |(mv, v)| (Some(mv), clamp_score(v)))
        }
    }

    fn make() -> Box<dyn Searcher> {
        Box::new(Mobility)
    }

    fn settings(depth: u8, max_loops: usize) -> DeviateSettings {
        DeviateSettings {
            level: 1,
            depth,
            error_per_move: 2,
            error_sum: 4,
            error_leaf: 2,
            max_loops,
            threads: 2,
            save_every: Duration::ZERO,
            shard: Shard::ALL,
        }
    }

    #[test]
    fn shards_deviate_apart_and_a_run_on_their_merged_books_converges_like_one_run() {
        let no_save = &mut |_: &Book| -> Result<(), ()> { Ok(()) };
        let mut whole = Book::new();
        let _ =
            deviate(&mut whole, &Board::INITIAL, &settings(6, usize::MAX), &make, no_save, &Control::none()).unwrap();
        // Both shards start from the same book, two loops of an unsharded run (from the root alone, only the root's
        // shard would have anything to do); each then deviates from its own positions only.
        let mut root_only = Book::new();
        let _ = deviate(&mut root_only, &Board::INITIAL, &settings(6, 2), &make, no_save, &Control::none()).unwrap();
        let mut merged = root_only.clone();
        for index in 1..=2 {
            let shard = Shard { index, count: 2 };
            let mut part = root_only.clone();
            let mut sharded = settings(6, usize::MAX);
            sharded.shard = shard;
            let _ = deviate(&mut part, &Board::INITIAL, &sharded, &make, no_save, &Control::none()).unwrap();
            assert!(part.len() > root_only.len() && part.len() < whole.len(), "shard {index}: {}", part.len());
            // What is left to do in this shard is nothing; the other shard's positions wait.
            assert!(deviation_todo(&part, &Board::INITIAL, &sharded).is_empty());
            merged.merge(&part);
        }
        let report = deviate(&mut merged, &Board::INITIAL, &settings(6, usize::MAX), &make, no_save, &Control::none());
        assert!(report.unwrap().loops >= 1);
        // Converged like the single run: nothing left to expand, the AI never leaves the book within the errors.
        assert!(deviation_todo(&merged, &Board::INITIAL, &settings(6, 1)).is_empty());
        let walk = Walk { depth: 6, error_per_move: 2, error_sum: 4 };
        let exits = crate::book::exits::book_exits(&merged, &Board::INITIAL, walk, 2);
        assert!(exits.exits.is_empty() && exits.open_leaves == 0, "{exits:?}");
        let ratio = merged.len() as f64 / whole.len() as f64;
        assert!((0.8..=1.25).contains(&ratio), "merged {} against one run {}", merged.len(), whole.len());
    }

    #[test]
    fn deviate_grows_a_fixed_book_within_the_depth_and_leaves_nothing_to_expand() {
        let mut book = Book::new();
        let mut saves = 0;
        let report = deviate(
            &mut book,
            &Board::INITIAL,
            &settings(5, usize::MAX),
            &make,
            &mut |_: &Book| -> Result<(), ()> {
                saves += 1;
                Ok(())
            },
            &Control::none(),
        )
        .unwrap();
        assert!(report.added > 20, "{report:?}");
        assert_eq!(report.saves, saves);
        assert!(book.iter().all(|(board, _)| 64 - board.empty_count() <= 9));
        let fixed = ops::fix(&mut book.clone(), &Board::INITIAL, false, &Control::none());
        assert_eq!((fixed.values_changed, fixed.leaves_invalidated), (0, 0));
        assert!(deviation_todo(&book, &Board::INITIAL, &settings(5, 1)).is_empty());
        // Within the depth and the errors, the AI never has to leave the book: every position it can reach there has a
        // book move.
        let walk = Walk { depth: 5, error_per_move: 2, error_sum: 4 };
        let exits = crate::book::exits::book_exits(&book, &Board::INITIAL, walk, 2);
        assert!(exits.exits.is_empty(), "{exits:?}");
        assert!(exits.in_book >= 5 && exits.checked == exits.in_book + exits.ends, "{exits:?}");
        assert_eq!(exits.open_leaves, 0);
        // After one loop only, moves within the errors still leave the book.
        let mut partial = Book::new();
        let _ = deviate(
            &mut partial,
            &Board::INITIAL,
            &settings(5, 1),
            &make,
            &mut |_: &Book| -> Result<(), ()> { Ok(()) },
            &Control::none(),
        )
        .unwrap();
        let report = crate::book::exits::book_exits(&partial, &Board::INITIAL, walk, 2);
        assert!(report.open_leaves > 0 && report.exits.is_empty(), "{report:?}");
        // Remove the start's links and store its best move as the leaf: the AI now leaves the book at once although
        // that move is within the error, and the check says so.
        let mut cut = book.clone();
        for m in cut.move_values(&Board::INITIAL) {
            let _ = cut.remove(&book_child(&Board::INITIAL, m.mv).unwrap().0);
        }
        let leaf = best_leaf(&cut, &mut Mobility, &Board::INITIAL, 1).unwrap();
        let entry = cut.get(&Board::INITIAL).unwrap();
        let _ = cut.insert(&Board::INITIAL, Entry { leaf, value: leaf.value, ..entry });
        let report = crate::book::exits::book_exits(&cut, &Board::INITIAL, walk, 2);
        assert_eq!(report.checked, 1, "{report:?}");
        assert_eq!(report.exits.len(), 1, "{report:?}");
        for key in ops::reachable(&book, &Board::INITIAL, walk) {
            let board = Board::from_raw(key[0], key[1]);
            if 64 - board.empty_count() < 9 && board.has_moves() {
                assert!(!book.move_values(&board).is_empty(), "{board:?}");
            }
        }
    }

    #[test]
    fn a_stopped_deviate_resumes_from_the_saved_book() {
        let mut saved = Book::new();
        let _ = deviate(
            &mut Book::new(),
            &Board::INITIAL,
            &settings(4, 1),
            &make,
            &mut |b: &Book| -> Result<(), ()> {
                saved = b.clone();
                Ok(())
            },
            &Control::none(),
        )
        .unwrap();
        let partial = saved.len();
        assert!(partial > 1);
        let mut resumed = saved.clone();
        let _ = deviate(
            &mut resumed,
            &Board::INITIAL,
            &settings(4, usize::MAX),
            &make,
            &mut |_: &Book| -> Result<(), ()> { Ok(()) },
            &Control::none(),
        )
        .unwrap();
        let mut straight = Book::new();
        let _ = deviate(
            &mut straight,
            &Board::INITIAL,
            &settings(4, usize::MAX),
            &make,
            &mut |_: &Book| -> Result<(), ()> { Ok(()) },
            &Control::none(),
        )
        .unwrap();
        assert!(resumed.len() >= partial);
        assert!(deviation_todo(&resumed, &Board::INITIAL, &settings(4, 1)).is_empty());
        for (board, entry) in straight.iter() {
            assert_eq!(resumed.get_canonical(&board).map(|e| e.value), Some(entry.value), "{board:?}");
        }
    }

    #[test]
    fn the_best_move_only_side_expands_only_leaves_as_good_as_its_best_link() {
        // After f5, White (to move) plays d6 (best, 0) or f6 (loses 1). After f5 f6, Black's best link is worth +1
        // and its leaf 0 (or +1).
        let root = Board::INITIAL.play(Move::Place(Square::F5)).unwrap();
        let d6 = root.play(Move::Place(Square::D6)).unwrap();
        let f6 = root.play(Move::Place(Square::F6)).unwrap();
        let moves: Vec<Move> = legal_moves(&f6).collect();
        let (link, leaf_move) = (moves[0], moves[1]);
        let book_with_leaf = |leaf_value: i8| {
            let mut book = Book::new();
            let _ = book.insert(&root, Entry::new(0, 5));
            let _ = book.insert(&d6, Entry::new(0, 5));
            let _ = book.insert(&f6, Entry { leaf: Leaf::new(leaf_move, leaf_value, 5), ..Entry::new(1, 5) });
            let _ = book.insert(&book_child(&f6, link).unwrap().0, Entry::new(-1, 5));
            book
        };
        let walk = Walk { depth: 10, error_per_move: 2, error_sum: 4 };
        // f6 is reached only when White may lose 1, i.e. when Black is the best-move-only side: its leaf, worse than
        // its best link, is not expanded.
        assert_eq!(side_to_move(&root), Color::White);
        assert!(open_leaves(&book_with_leaf(0), &root, walk, 2).is_empty());
        // A leaf as good as the best link is.
        let todo = open_leaves(&book_with_leaf(1), &root, walk, 2);
        assert_eq!(todo.len(), 1);
        assert_eq!(todo[0].0, f6.canonical().0);
    }

    /// Counts its searches and sets `stop` at the `stop_after`-th.
    struct Stopping {
        searches: Arc<AtomicUsize>,
        stop: Arc<AtomicBool>,
        stop_after: usize,
    }

    impl Searcher for Stopping {
        fn search(&mut self, board: &Board, level: u8) -> (Option<Move>, i8) {
            if self.searches.fetch_add(1, Ordering::SeqCst) + 1 == self.stop_after {
                self.stop.store(true, Ordering::SeqCst);
            }
            Mobility.search(board, level)
        }
    }

    #[test]
    fn a_stop_ends_deviate_promptly_and_saves_what_was_learned() {
        let (searches, stop) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicBool::new(false)));
        let stop_after = 60;
        let make = || -> Box<dyn Searcher> {
            Box::new(Stopping { searches: Arc::clone(&searches), stop: Arc::clone(&stop), stop_after })
        };
        let mut book = Book::new();
        let mut saved: Option<Book> = None;
        let control = Control { stop: &stop, progress: &|_| {} };
        let report = deviate(
            &mut book,
            &Board::INITIAL,
            &settings(8, usize::MAX),
            &make,
            &mut |b: &Book| -> Result<(), ()> {
                saved = Some(b.clone());
                Ok(())
            },
            &control,
        )
        .unwrap();
        assert!(report.stopped, "{report:?}");
        // Only the work items under way when the flag was set (one per worker, a leaf being at most one search per
        // legal move) finished after it; the whole run would search thousands of positions.
        let done = searches.load(Ordering::SeqCst);
        assert!((stop_after..stop_after + 2 * 20).contains(&done), "{done} searches");
        // The last save holds everything learned, fixed.
        let saved = saved.unwrap();
        assert_eq!(saved.len(), book.len());
        assert!(saved.len() > 1);
        let fixed = ops::fix(&mut saved.clone(), &Board::INITIAL, false, &Control::none());
        assert_eq!(fixed.values_changed, 0);
    }

    #[test]
    fn deviate_with_transcripts_learns_from_the_end_of_each_line() {
        let lines = vec![
            vec![Move::Place(Square::F5), Move::Place(Square::D6), Move::Place(Square::C3)],
            vec![Move::Place(Square::F5), Move::Place(Square::F6)],
        ];
        let mut book = Book::new();
        let mut saves = 0;
        let report = deviate_transcripts(
            &mut book,
            &lines,
            &settings(7, usize::MAX),
            &make,
            &mut |_: &Book| -> Result<(), ()> {
                saves += 1;
                Ok(())
            },
            &Control::none(),
        )
        .unwrap();
        assert_eq!((report.transcripts, report.saves), (2, saves));
        let end = Board::INITIAL.play(lines[0][0]).unwrap().play(lines[0][1]).unwrap().play(lines[0][2]).unwrap();
        assert!(book.contains(&end));
        assert!(!book.move_values(&end).is_empty(), "deviate grew the book below the end of the line");
        assert!(book.iter().all(|(board, _)| 64 - board.empty_count() <= 11));
    }

    #[test]
    fn deviate_works_with_the_real_search() {
        let weights = Arc::new(Weights::zero());
        let make = move || -> Box<dyn Searcher> { Box::new(ThinkerSearcher::new(Arc::clone(&weights), 12).unwrap()) };
        let mut book = Book::new();
        let s =
            DeviateSettings { level: 2, depth: 2, error_per_move: 0, error_sum: 0, error_leaf: 0, ..settings(2, 50) };
        let report = deviate(
            &mut book,
            &Board::INITIAL,
            &s,
            &make,
            &mut |_: &Book| -> Result<(), ()> { Ok(()) },
            &Control::none(),
        )
        .unwrap();
        assert!(report.added >= 3, "{report:?}");
        assert!(book.iter().all(|(board, _)| 64 - board.empty_count() <= 6));
        let fixed = ops::fix(&mut book, &Board::INITIAL, false, &Control::none());
        assert_eq!(fixed.values_changed, 0);
    }

    #[test]
    fn store_registers_each_position_and_its_best_child() {
        let mut book = Book::new();
        let moves = [Move::Place(Square::F5), Move::Place(Square::D6)];
        let report = store(&mut book, &Board::INITIAL, &moves, 60, 1, &mut Mobility, &Control::none());
        assert!(book.contains(&Board::INITIAL));
        assert!(book.contains(&Board::INITIAL.play(moves[0]).unwrap()));
        assert!(book.contains(&Board::INITIAL.play(moves[0]).unwrap().play(moves[1]).unwrap()));
        assert_eq!(report.added + report.updated, 6);
        let all = LeafSettings { walk: Walk::UNLIMITED, level: 1, only_invalid: false, threads: 2 };
        let leaves = recalculate_leaves(&mut book, &Board::INITIAL, all, &make, &Control::none());
        assert!(leaves.set >= 1);
        for (board, entry) in book.iter() {
            if let Some(mv) = entry.leaf.mv() {
                assert!(!book.contains(&book_child(&board, mv).unwrap().0));
            }
        }
    }
}
