//! Book operations that need no search: [`info`], [`show`], [`fix`] (Egaroucid's and the Edax-like variant),
//! [`reduce`] and [`overwrite_levels`]. Each long operation takes a [`Control`] (progress callback and stop flag).

#![deny(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::cast_possible_truncation,
    clippy::arithmetic_side_effects,
    reason = "reads untrusted input: every access is checked, every failure is an error value"
)]

use std::collections::{HashSet, VecDeque};
use std::fmt;
use std::io;
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use super::{Book, Entry, LEVEL_HUMAN, LEVEL_UNDEFINED, Leaf, MAX_LINES, MoveValue, book_child, legal_moves};
use crate::board::{Board, Move};

/// What a long operation is doing, so that a UI can word it in its own language ([`Stage::name`] gives the English
/// name the command-line tool prints). Each stage says what its [`Progress`] units count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Stage {
    /// Reading a book file into memory; units: bytes of the file.
    Read,
    /// Parsing the records of a book file; units: records (bytes for the Egaroucid 5 text book).
    Load,
    /// Writing a book file; units: positions (for Edax, each position twice: derived, then written).
    Save,
    /// Merging a book into another; units: positions of the book merged in, each twice (checked, then merged).
    Merge,
    /// Book Reduce's walks over the links; units: positions of the book.
    Reduce,
    /// Book Fix; units: positions of the book.
    Fix,
    /// Recalculate Leaves; units: positions searched.
    Leaves,
    /// Storing a transcript; units: moves of the transcript.
    Store,
    /// Book Deviate; units: positions added (no total).
    Deviate,
}

impl Stage {
    /// Every stage.
    pub const ALL: [Stage; 9] = [
        Stage::Read,
        Stage::Load,
        Stage::Save,
        Stage::Merge,
        Stage::Reduce,
        Stage::Fix,
        Stage::Leaves,
        Stage::Store,
        Stage::Deviate,
    ];

    /// The English name, lowercase (`load`, `merge` …).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Stage::Read => "read",
            Stage::Load => "load",
            Stage::Save => "save",
            Stage::Merge => "merge",
            Stage::Reduce => "reduce",
            Stage::Fix => "fix",
            Stage::Leaves => "leaves",
            Stage::Store => "store",
            Stage::Deviate => "deviate",
        }
    }
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Progress of a long operation. Within one stage of one call, `done` and `total` never decrease, and the last report
/// of an operation that ran to its end has `done == total` (when the total is known).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// What is being done.
    pub stage: Stage,
    /// Units done.
    pub done: u64,
    /// Units in all, when known (0 otherwise).
    pub total: u64,
}

/// Units of work between two progress reports (and stop checks) of the book's bulk operations: a few milliseconds of
/// work, so a consumer gets reports far more often than every 100 ms and throttles them itself.
pub const REPORT_EVERY: u64 = 16_384;

/// Progress reporting and stopping for long operations.
#[derive(Clone, Copy)]
pub struct Control<'a> {
    /// Set to ask the operation to stop as soon as it can (it then reports `stopped`).
    pub stop: &'a AtomicBool,
    /// Called now and then with the progress.
    pub progress: &'a (dyn Fn(Progress) + Sync),
}

static NEVER: AtomicBool = AtomicBool::new(false);

impl Control<'static> {
    /// No progress reports, never stopped.
    #[must_use]
    pub fn none() -> Control<'static> {
        Control { stop: &NEVER, progress: &|_| {} }
    }
}

impl Control<'_> {
    /// Whether a stop was asked for.
    #[must_use]
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Calls the progress callback.
    pub(crate) fn report(&self, stage: Stage, done: u64, total: u64) {
        (self.progress)(Progress { stage, done, total });
    }

    /// `Err` carrying [`Stopped`] (kind [`io::ErrorKind::Interrupted`]) once a stop was asked for: the writers return
    /// it so that an atomic save removes its temporary file.
    pub(crate) fn check_io(&self) -> io::Result<()> {
        if self.is_stopped() { Err(io::Error::new(io::ErrorKind::Interrupted, Stopped)) } else { Ok(()) }
    }
}

/// The reason a writer gave up when its [`Control`] was stopped, carried inside an [`io::Error`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("stopped")]
pub struct Stopped;

impl Stopped {
    /// Whether an I/O error is a writer's stop ([`Stopped`] inside it), not a failure of the device.
    #[must_use]
    pub fn is_in(error: &io::Error) -> bool {
        matches!(error.get_ref(), Some(inner) if inner.is::<Stopped>())
    }
}

impl fmt::Debug for Control<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Control").field("stopped", &self.is_stopped()).finish_non_exhaustive()
    }
}

/// Book statistics: Egaroucid's Book Info (counts by level and by ply) and Edax's `book info` (links and leaves).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Info {
    /// Positions.
    pub positions: u64,
    /// Positions by level byte (index 1–60 search levels, 70 = [`LEVEL_HUMAN`], 255 = undefined).
    pub by_level: Vec<u64>,
    /// Positions by ply (discs − 4), 0..=60.
    pub by_ply: Vec<u64>,
    /// Links: moves from book positions whose child is in the book (counted only when asked for).
    pub links: Option<u64>,
    /// Positions with a leaf that leaves the book (counted with the links).
    pub leaves: Option<u64>,
    /// Bytes held by the position table.
    pub memory_bytes: u64,
}

impl Info {
    fn empty() -> Info {
        Info { positions: 0, by_level: vec![0; 256], by_ply: vec![0; 61], links: None, leaves: None, memory_bytes: 0 }
    }

    fn add(mut self, other: Info) -> Info {
        self.positions = self.positions.saturating_add(other.positions);
        for (a, b) in self.by_level.iter_mut().zip(&other.by_level) {
            *a = a.saturating_add(*b);
        }
        for (a, b) in self.by_ply.iter_mut().zip(&other.by_ply) {
            *a = a.saturating_add(*b);
        }
        let add = |a: Option<u64>, b: Option<u64>| match (a, b) {
            (None, None) => None,
            (a, b) => Some(a.unwrap_or(0).saturating_add(b.unwrap_or(0))),
        };
        self.links = add(self.links, other.links);
        self.leaves = add(self.leaves, other.leaves);
        self
    }
}

impl fmt::Display for Info {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.links, self.leaves) {
            (Some(links), Some(leaves)) => {
                writeln!(f, "Positions: {} (moves = {links} links + {leaves} leaves)", self.positions)?;
            }
            _ => writeln!(f, "Positions: {}", self.positions)?,
        }
        for (level, n) in self.by_level.iter().enumerate().filter(|(_, n)| **n > 0) {
            match u8::try_from(level) {
                Ok(LEVEL_HUMAN) => writeln!(f, "Level S  : {n} positions")?,
                Ok(LEVEL_UNDEFINED) => writeln!(f, "Level ?  : {n} positions")?,
                _ => writeln!(f, "Level {level:<3}: {n} positions")?,
            }
        }
        let depth = self.by_ply.iter().rposition(|n| *n > 0).unwrap_or(0);
        writeln!(f, "Depth: {depth}")?;
        for (ply, n) in self.by_ply.iter().enumerate().filter(|(_, n)| **n > 0) {
            writeln!(f, "Ply {ply:<3}: {n} positions")?;
        }
        write!(f, "Memory: {} bytes ({:.1} bytes/position)", self.memory_bytes, self.bytes_per_position())
    }
}

impl Info {
    /// Memory per position.
    #[must_use]
    pub fn bytes_per_position(&self) -> f64 {
        self.memory_bytes as f64 / self.positions.max(1) as f64
    }
}

/// Counts positions by level and ply (in parallel); with `links`, also the links and leaves, which generates every
/// move of every position (about 5 µs per position: 50 s of CPU for 10 M positions).
#[must_use]
pub fn info(book: &Book, links: bool) -> Info {
    let (keys, values) = book.slots();
    let mut info = keys
        .par_iter()
        .zip(values.par_iter())
        .filter(|(k, _)| **k != [0, 0])
        .fold(Info::empty, |mut info, (k, v)| {
            let board = Board::from_raw(k[0], k[1]);
            let entry = Entry::unpack(v);
            info.positions = info.positions.saturating_add(1);
            if let Some(count) = info.by_level.get_mut(usize::from(entry.level)) {
                *count = count.saturating_add(1);
            }
            let ply = 60_u32.saturating_sub(board.empty_count()) as usize;
            if let Some(count) = info.by_ply.get_mut(ply) {
                *count = count.saturating_add(1);
            }
            if links {
                let n = legal_moves(&board).filter(|mv| book.move_value(&board, *mv).is_some()).count();
                info.links = Some(info.links.unwrap_or(0).saturating_add(n as u64));
                let leaf = entry
                    .leaf
                    .mv()
                    .and_then(|mv| book_child(&board, mv))
                    .is_some_and(|(child, _)| !book.contains(&child));
                info.leaves = Some(info.leaves.unwrap_or(0).saturating_add(u64::from(leaf)));
            }
            info
        })
        .reduce(Info::empty, Info::add);
    info.memory_bytes = book.memory_bytes() as u64;
    info
}

/// A position as Edax's `book show` presents it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Show {
    /// The position's entry (leaf in the orientation asked about).
    pub entry: Entry,
    /// Its links, best first.
    pub links: Vec<MoveValue>,
    /// Its leaf when it leaves the book: move and value.
    pub leaf: Option<(Move, i8)>,
    /// The principal line: best links from the position while there are any.
    pub line: Vec<Move>,
}

/// The [`Show`] of `board`, or `None` if it is not in the book.
#[must_use]
pub fn show(book: &Book, board: &Board) -> Option<Show> {
    let entry = book.get(board)?;
    let mut links = book.move_values(board);
    links.sort_by_key(|m| std::cmp::Reverse(m.value));
    let leaf = entry
        .leaf
        .mv()
        .filter(|mv| book_child(board, *mv).is_some_and(|(child, _)| !book.contains(&child)))
        .map(|mv| (mv, entry.leaf.value));
    Some(Show { entry, links, leaf, line: principal_line(book, board) })
}

/// Best links from `board` while there are any (first best move in square order on ties).
#[must_use]
pub fn principal_line(book: &Book, board: &Board) -> Vec<Move> {
    let mut line = Vec::new();
    let mut current = *board;
    while line.len() < 64 {
        let mut best: Option<MoveValue> = None;
        for m in book.move_values(&current) {
            if best.is_none_or(|b| m.value > b.value) {
                best = Some(m);
            }
        }
        let Some(best) = best else { break };
        line.push(best.mv);
        let Ok(next) = current.play(best.mv) else { break };
        current = next;
        if !current.has_moves() && current.pass().has_moves() {
            line.push(Move::Pass);
            current = current.pass();
        }
    }
    line
}

fn signed(v: i8) -> String {
    format!("{v:+}")
}

impl fmt::Display for Show {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let level = match self.entry.level {
            LEVEL_HUMAN => "S (manual)".to_owned(),
            LEVEL_UNDEFINED => "undefined".to_owned(),
            n => n.to_string(),
        };
        writeln!(f, "Level: {level}")?;
        writeln!(f, "Best score: {}", signed(self.entry.value))?;
        write!(f, "Moves:")?;
        for m in &self.links {
            write!(f, " [{}:{}]", m.mv.to_string().to_uppercase(), signed(m.value))?;
        }
        if let Some((mv, value)) = self.leaf {
            write!(f, " <{}:{}>", mv.to_string().to_uppercase(), signed(value))?;
        }
        writeln!(f)?;
        writeln!(f, "Lines: {}", self.entry.lines)?;
        let line: Vec<String> = self.line.iter().map(ToString::to_string).collect();
        write!(f, "Principal line: {}", line.join(" "))
    }
}

/// What [`fix`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FixReport {
    /// Positions reached from the root.
    pub visited: u64,
    /// Positions whose value changed.
    pub values_changed: u64,
    /// Leaves removed because their move became a link or is illegal.
    pub leaves_invalidated: u64,
    /// Positions whose line count changed.
    pub lines_changed: u64,
    /// Whether the run was stopped (positions not yet visited are unchanged).
    pub stopped: bool,
}

/// Book Fix: from `root`, recomputes every reachable position's value by negamax over its links and its line count
/// (1 + the children's), and removes leaves that are illegal or lead into the book. A position without links keeps
/// its value. With `edax_like`, a position's leaf takes part in the maximum (a position without links then takes its
/// leaf's value), as Edax computes book values.
pub fn fix(book: &mut Book, root: &Board, edax_like: bool, control: &Control<'_>) -> FixReport {
    fix_by(book, root, if edax_like { Rule::EdaxLike } else { Rule::Egaroucid }, control)
}

/// Recalculate #Lines (Egaroucid's Book menu): from `root`, recounts every reachable position's line count (1 + the
/// children's) and changes nothing else: values and leaves stay as they are.
pub fn recount_lines(book: &mut Book, root: &Board, control: &Control<'_>) -> FixReport {
    fix_by(book, root, Rule::LinesOnly, control)
}

/// What a walk of [`fix_by`] recomputes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Rule {
    /// Values by negamax over the links, lines, invalid leaves removed.
    Egaroucid,
    /// The same with the leaf taking part in the maximum.
    EdaxLike,
    /// Line counts only.
    LinesOnly,
}

fn fix_by(book: &mut Book, root: &Board, rule: Rule, control: &Control<'_>) -> FixReport {
    let mut report = FixReport::default();
    let mut done = vec![false; book.table.capacity()];
    let (root, _) = root.canonical();
    if book.table.slot_of(key(&root)).is_some() {
        let _ = fix_node(book, &root, rule, control, &mut done, &mut report);
    }
    report
}

fn key(board: &Board) -> [u64; 2] {
    [board.player.0, board.opponent.0]
}

/// Fixes one canonical position (present in the book) and returns its entry.
fn fix_node(
    book: &mut Book,
    canonical: &Board,
    rule: Rule,
    control: &Control<'_>,
    done: &mut [bool],
    report: &mut FixReport,
) -> Option<Entry> {
    let slot = book.table.slot_of(key(canonical))?;
    let mut entry = Entry::unpack(book.table.value_at(slot)?);
    if done.get(slot).copied().unwrap_or(true) || report.stopped {
        return Some(entry);
    }
    if control.is_stopped() {
        report.stopped = true;
        return Some(entry);
    }
    let mut best: Option<i8> = None;
    let mut lines: u64 = 1;
    for mv in legal_moves(canonical) {
        let Some((child, negate)) = book_child(canonical, mv) else { continue };
        let (child, _) = child.canonical();
        let Some(child_entry) = fix_node(book, &child, rule, control, done, report) else { continue };
        let value = if negate { child_entry.value.saturating_neg() } else { child_entry.value };
        best = Some(best.map_or(value, |b| b.max(value)));
        lines = lines.saturating_add(u64::from(child_entry.lines));
    }
    if report.stopped {
        return Some(entry);
    }
    let lines = u32::try_from(lines.min(u64::from(MAX_LINES))).unwrap_or(MAX_LINES);
    if lines != entry.lines {
        report.lines_changed = report.lines_changed.saturating_add(1);
    }
    entry.lines = lines;
    if rule == Rule::LinesOnly {
        best = None;
    }
    let leaf_is_valid =
        entry.leaf.mv().and_then(|mv| book_child(canonical, mv)).is_some_and(|(child, _)| !book.contains(&child));
    if rule != Rule::LinesOnly && entry.leaf != Leaf::NONE && !leaf_is_valid && entry.leaf.mv().is_some() {
        entry.leaf = Leaf::NONE;
        report.leaves_invalidated = report.leaves_invalidated.saturating_add(1);
    }
    if rule == Rule::EdaxLike && leaf_is_valid {
        best = Some(best.map_or(entry.leaf.value, |b| b.max(entry.leaf.value)));
    }
    if let Some(best) = best
        && best != entry.value
    {
        entry.value = best;
        report.values_changed = report.values_changed.saturating_add(1);
    }
    if let Some(packed) = book.table.value_at_mut(slot) {
        *packed = entry.pack();
    }
    if let Some(d) = done.get_mut(slot) {
        *d = true;
    }
    report.visited = report.visited.saturating_add(1);
    if report.visited.is_multiple_of(65_536) {
        control.report(Stage::Fix, report.visited, book.len() as u64);
    }
    Some(entry)
}

/// Limits of a walk over the book from a position: Egaroucid's Book Settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Walk {
    /// Positions with at most `depth + 4` discs are followed (Egaroucid's depth; 60 = unlimited).
    pub depth: u8,
    /// Largest loss of a followed link against the best one.
    pub error_per_move: i32,
    /// Largest accumulated loss along a line.
    pub error_sum: i32,
}

impl Walk {
    /// No limit.
    pub const UNLIMITED: Walk = Walk { depth: 60, error_per_move: 1000, error_sum: 100_000 };
}

/// Canonical boards reachable from `root` over links within the walk's limits (the root included when in the book).
#[must_use]
pub fn reachable(book: &Book, root: &Board, walk: Walk) -> HashSet<[u64; 2]> {
    let mut never_stop = |_: u64| true;
    // `never_stop` never stops the walk, so it always returns its set.
    walk_links(book, root, walk, &mut never_stop).unwrap_or_default()
}

/// [`reachable`], calling `tick` with the number of positions reached so far every [`REPORT_EVERY`] steps; `None`
/// when `tick` returns false (a stop).
fn walk_links(book: &Book, root: &Board, walk: Walk, tick: &mut dyn FnMut(u64) -> bool) -> Option<HashSet<[u64; 2]>> {
    let mut seen: HashSet<[u64; 2]> = HashSet::new();
    // Best remaining error budget per position, so a position first met with a small budget is walked again when a
    // better line reaches it.
    let mut budget: std::collections::HashMap<[u64; 2], i32> = std::collections::HashMap::new();
    let mut queue = VecDeque::new();
    let (canonical, _) = root.canonical();
    if book.contains(&canonical) {
        let _ = seen.insert(key(&canonical));
        let _ = budget.insert(key(&canonical), walk.error_sum);
        queue.push_back((canonical, walk.error_sum));
    }
    let max_discs = u32::from(walk.depth) + 4;
    let mut steps: u64 = 0;
    while let Some((board, remaining)) = queue.pop_front() {
        steps = steps.saturating_add(1);
        if steps.is_multiple_of(REPORT_EVERY) && !tick(seen.len() as u64) {
            return None;
        }
        let Some(entry) = book.get_canonical(&board) else { continue };
        let links = book.move_values(&board);
        let best = links.iter().map(|m| i32::from(m.value)).max().unwrap_or(i32::from(entry.value));
        for m in links {
            let loss = best.saturating_sub(i32::from(m.value));
            if loss > walk.error_per_move || loss > remaining {
                continue;
            }
            let Some((child, _)) = book_child(&board, m.mv) else { continue };
            if 64_u32.saturating_sub(child.empty_count()) > max_discs {
                continue;
            }
            let (child, _) = child.canonical();
            let left = remaining.saturating_sub(loss);
            let k = key(&child);
            if budget.get(&k).is_some_and(|b| *b >= left) {
                continue;
            }
            let _ = budget.insert(k, left);
            let _ = seen.insert(k);
            queue.push_back((child, left));
        }
    }
    Some(seen)
}

/// What [`reduce`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ReduceReport {
    /// Positions kept below the root.
    pub kept: u64,
    /// Positions deleted.
    pub deleted: u64,
    /// Whether the run was stopped; the book is then unchanged (`kept` and `deleted` are 0).
    pub stopped: bool,
}

/// Book Reduce: keeps the positions reachable from `root` within `walk` and deletes the other positions reachable
/// from `root` (positions elsewhere in the book are left alone). From the initial position with only a depth this is
/// the old "depth limit". [`reduce_with`] without progress and stop.
pub fn reduce(book: &mut Book, root: &Board, walk: Walk) -> ReduceReport {
    reduce_with(book, root, walk, &Control::none())
}

/// [`reduce`] with progress ([`Stage::Reduce`]: positions reached by the two walks, out of the book's positions) and
/// stop. The walks that find what to keep and what to delete come first and are the long part; a stop during them
/// leaves the book unchanged and returns a report with `stopped` set. The deletions that follow are not
/// interrupted, so the book is never left half reduced.
pub fn reduce_with(book: &mut Book, root: &Board, walk: Walk, control: &Control<'_>) -> ReduceReport {
    let total = book.len() as u64;
    let mut done = 0;
    let mut tick = |reached: u64| {
        done = done.max(reached.min(total));
        control.report(Stage::Reduce, done, total);
        !control.is_stopped()
    };
    let stopped = ReduceReport { stopped: true, ..ReduceReport::default() };
    if control.is_stopped() {
        return stopped;
    }
    let Some(keep) = walk_links(book, root, walk, &mut tick) else { return stopped };
    // Everything kept is reached again by the unlimited walk, so its counts continue those of the first walk.
    let Some(all) = walk_links(book, root, Walk::UNLIMITED, &mut tick) else { return stopped };
    let mut report = ReduceReport { kept: keep.len() as u64, deleted: 0, stopped: false };
    for k in all.difference(&keep) {
        if book.table.remove(*k).is_some() {
            report.deleted = report.deleted.saturating_add(1);
        }
    }
    control.report(Stage::Reduce, total, total);
    report
}

/// Sets every level and every leaf level to `level` (Egaroucid's "Export with Level").
pub fn overwrite_levels(book: &mut Book, level: u8) {
    let keys: Vec<[u64; 2]> = book.table.iter().map(|(k, _)| k).collect();
    for k in keys {
        if let Some(packed) = book.table.get_mut(k) {
            let mut entry = Entry::unpack(packed);
            entry.level = level;
            if entry.leaf.is_defined() {
                entry.leaf.level = level;
            }
            *packed = entry.pack();
        }
    }
}
