//! Books from game archives, as Edax's `book import` followed by `book fill`: every position reached by at least
//! `min_games` games of the records within their first `plies` plies, the leaves searched, the rest by negamax.
//!
//! 1. **Counting** ([`GameCounts`]): each game's first `plies` plies are replayed (a ply is a disc placed; passes are
//!    forced, so they are made without counting, and the book never holds a position that must pass: see
//!    [`book_child`]). Every position met, the initial one included, is folded to its canonical symmetry and counted
//!    once per game (the positions of one game all differ in their number of discs, so no game counts twice).
//! 2. **Keeping** ([`GameCounts::kept`]): the positions reached by at least `min_games` games. A kept position's
//!    games all came through its parents, so nearly always one parent is kept too; when games reach it by several
//!    transpositions none of which is kept alone, it has no kept parent and is a **root** besides the initial
//!    position. The **leaves** are the kept positions none of whose children is kept.
//! 3. **Searching** ([`evaluate_leaves`]): each leaf not yet in the book at the level (or above) is searched at the
//!    level, from its canonical orientation and with the searcher's memory cleared first ([`Searcher::forget`]), so a
//!    leaf's result depends on nothing else (shards and resumed runs give the same book as one run). A finished
//!    game's value is its final score, stored at level 60 with no search. Leaves can be split into shards
//!    ([`Shard`]).
//! 4. **Filling** ([`fill`]): once every leaf is in the book, the other kept positions missing from it are inserted
//!    and [`ops::fix`] recomputes, from every root, each position's value by negamax over its links and its line
//!    count (1 + its children's: positions below it in the book, not games).

#![deny(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::cast_possible_truncation,
    clippy::arithmetic_side_effects,
    reason = "reads untrusted input: every access is checked, every failure is an error value"
)]

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::learn::Searcher;
use super::ops::{self, Control, Stage};
pub use super::shard::Shard;
use super::{Book, Entry, LEVEL_UNDEFINED, Leaf, book_child, legal_moves};
use crate::board::{Board, Move};
use crate::notation::parse_transcript;

/// A canonical board as a key: (player, opponent) bitboards in our bit order.
type Key = [u64; 2];

fn key(canonical: &Board) -> Key {
    [canonical.player.0, canonical.opponent.0]
}

fn board_of(key: Key) -> Board {
    Board::from_raw(key[0], key[1])
}

/// Bad lines whose place and reason a [`RecordsReport`] keeps.
pub const BAD_LINES_SHOWN: usize = 5;

/// What one line of a record file holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordLine {
    /// A game: its moves from the initial position (forced passes included).
    Game(Vec<Move>),
    /// Nothing to read: a blank line or a comment (`#` first).
    Blank,
    /// No transcript: why (the transcript reader's error for the field tried, or that there is none).
    Bad(String),
}

/// Reads one line of a record file: the first whitespace-separated token as a transcript from the initial position
/// (`f5d6c3d3… 34 41`); a line with a comma is a CSV row (`id,winner,moves`) whose transcript is the field that
/// parses as the longest non-empty transcript (so an id that happens to read as a move or two loses to the game).
#[must_use]
pub fn parse_record_line(line: &str) -> RecordLine {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return RecordLine::Blank;
    }
    if line.contains(',') {
        let best = line
            .split(',')
            .filter_map(|field| parse_transcript(field.trim()).ok())
            .filter(|t| !t.moves.is_empty())
            .reduce(|best, t| if t.moves.len() > best.moves.len() { t } else { best });
        return match best {
            Some(t) => RecordLine::Game(t.moves),
            None => RecordLine::Bad("no field is a transcript".to_owned()),
        };
    }
    let token = line.split_whitespace().next().unwrap_or_default();
    match parse_transcript(token) {
        Ok(t) if t.moves.is_empty() => RecordLine::Bad("empty transcript".to_owned()),
        Ok(t) => RecordLine::Game(t.moves),
        Err(error) => RecordLine::Bad(error.to_string()),
    }
}

/// What [`GameCounts::add_records`] read from one text.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RecordsReport {
    /// Games counted.
    pub games: u64,
    /// Blank and comment lines, and a first line that holds no transcript (a header).
    pub skipped: u64,
    /// Other lines without a transcript.
    pub bad: u64,
    /// The first [`BAD_LINES_SHOWN`] bad lines: line number (1-based) and reason.
    pub first_bad: Vec<(usize, String)>,
}

/// How many games reach each position within their first plies (see the [module docs](self)).
#[derive(Debug, Clone, Default)]
pub struct GameCounts {
    plies: usize,
    games: u64,
    counts: HashMap<Key, u32>,
}

impl GameCounts {
    /// No game yet; games will be followed for `plies` plies.
    #[must_use]
    pub fn new(plies: usize) -> GameCounts {
        GameCounts { plies, games: 0, counts: HashMap::new() }
    }

    /// Games counted.
    #[must_use]
    pub const fn games(&self) -> u64 {
        self.games
    }

    /// Distinct positions met (any count).
    #[must_use]
    pub fn positions(&self) -> usize {
        self.counts.len()
    }

    /// How many games reached `board` (any orientation).
    #[must_use]
    pub fn count(&self, board: &Board) -> u32 {
        self.counts.get(&key(&board.canonical().0)).copied().unwrap_or(0)
    }

    /// Counts one game given by its moves from the initial position (passes in it are skipped: they are forced).
    /// The game is followed until its first illegal move, if any.
    pub fn add_game(&mut self, moves: &[Move]) {
        self.games = self.games.saturating_add(1);
        let mut board = Board::INITIAL;
        self.bump(&board);
        for mv in moves.iter().filter(|mv| **mv != Move::Pass).take(self.plies) {
            let Some((child, _)) = book_child(&board, *mv) else { break };
            board = child;
            self.bump(&board);
        }
    }

    fn bump(&mut self, board: &Board) {
        let n = self.counts.entry(key(&board.canonical().0)).or_insert(0);
        *n = n.saturating_add(1);
    }

    /// Counts every game of a record file's text (see [`parse_record_line`]).
    pub fn add_records(&mut self, text: &str) -> RecordsReport {
        let mut report = RecordsReport::default();
        for (i, line) in text.lines().enumerate() {
            match parse_record_line(line) {
                RecordLine::Game(moves) => {
                    self.add_game(&moves);
                    report.games = report.games.saturating_add(1);
                }
                RecordLine::Blank => report.skipped = report.skipped.saturating_add(1),
                RecordLine::Bad(_) if i == 0 => report.skipped = report.skipped.saturating_add(1),
                RecordLine::Bad(why) => {
                    report.bad = report.bad.saturating_add(1);
                    if report.first_bad.len() < BAD_LINES_SHOWN {
                        report.first_bad.push((i.saturating_add(1), why));
                    }
                }
            }
        }
        report
    }

    /// The positions reached by at least `min_games` games, with their leaves and roots.
    #[must_use]
    pub fn kept(&self, min_games: u32) -> Kept {
        let mut positions: Vec<(Board, u32)> =
            self.counts.iter().filter(|(_, n)| **n >= min_games.max(1)).map(|(k, n)| (board_of(*k), *n)).collect();
        positions.sort_unstable_by_key(|(board, _)| key(board));
        let index: HashMap<Key, usize> = positions.iter().enumerate().map(|(i, (b, _))| (key(b), i)).collect();
        let mut has_parent = vec![false; positions.len()];
        let mut has_child = vec![false; positions.len()];
        for (i, (board, _)) in positions.iter().enumerate() {
            for mv in legal_moves(board) {
                let Some((child, _)) = book_child(board, mv) else { continue };
                if let Some(&j) = index.get(&key(&child.canonical().0)) {
                    if let Some(flag) = has_child.get_mut(i) {
                        *flag = true;
                    }
                    if let Some(flag) = has_parent.get_mut(j) {
                        *flag = true;
                    }
                }
            }
        }
        let pick = |flags: &[bool]| -> Vec<Board> {
            positions.iter().zip(flags).filter(|(_, f)| !**f).map(|((b, _), _)| *b).collect()
        };
        let mut roots = pick(&has_parent);
        // The initial position first: every game starts there.
        roots.sort_by_key(|b| (*b != Board::INITIAL.canonical().0, 64_u32.saturating_sub(b.empty_count()), key(b)));
        Kept { leaves: pick(&has_child), roots, positions }
    }
}

/// The positions an import keeps (see [`GameCounts::kept`]), all canonical.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Kept {
    /// Every kept position with the number of games that reached it, sorted by key.
    pub positions: Vec<(Board, u32)>,
    /// Kept positions without a kept child, sorted by key.
    pub leaves: Vec<Board>,
    /// Kept positions without a kept parent: the initial position first (when kept), then by number of discs.
    pub roots: Vec<Board>,
}

/// Whether the book holds `board` (canonical) at `level` or above (a manual value, level "S", counts as above).
fn is_done(book: &Book, canonical: &Board, level: u8) -> bool {
    book.get_canonical(canonical).is_some_and(|e| e.level != LEVEL_UNDEFINED && e.level >= level)
}

/// Settings of [`evaluate_leaves`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EvaluateSettings {
    /// Search level.
    pub level: u8,
    /// Worker threads (one search each).
    pub threads: usize,
    /// The leaves searched.
    pub shard: Shard,
    /// Save at most this often while searching.
    pub save_every: Duration,
}

/// What [`evaluate_leaves`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct EvaluateReport {
    /// Leaves of other shards, left alone.
    pub other_shards: u64,
    /// Leaves of this shard already in the book at the level or above.
    pub already: u64,
    /// Leaves this run had to evaluate (searches and finished games).
    pub to_do: u64,
    /// Leaves searched.
    pub searched: u64,
    /// Finished games stored with their final score.
    pub finished_games: u64,
    /// Saves made during the run (not the one at the end, which the caller makes).
    pub saves: usize,
    /// Whether a stop ended the run before every leaf was done.
    pub stopped: bool,
}

/// The entry of a leaf: a finished game's score at level 60, else the search's value with its best move as the leaf.
fn leaf_entry(searcher: &mut dyn Searcher, canonical: &Board, level: u8) -> Entry {
    if canonical.is_game_over() {
        let value = i8::try_from(canonical.final_score().clamp(-64, 64)).unwrap_or(0);
        return Entry::new(value, 60);
    }
    searcher.forget();
    let (best, value) = searcher.search(canonical, level);
    Entry { leaf: best.map_or(Leaf::NONE, |mv| Leaf::new(mv, value, level)), ..Entry::new(value, level) }
}

/// Searches the leaves of the shard that the book lacks at the level, with `threads` workers (each with its own
/// searcher from `make`), inserting each result as it comes; calls `save` at most every `save_every`. A stop lets the
/// searches under way finish, inserts them, and returns. Progress: [`Stage::Leaves`], leaves done out of
/// [`EvaluateReport::to_do`].
///
/// # Errors
/// The first error `save` returns (the searches under way are waited for, and dropped).
pub fn evaluate_leaves<E>(
    book: &mut Book,
    leaves: &[Board],
    settings: EvaluateSettings,
    make: &(dyn Fn() -> Box<dyn Searcher> + Sync),
    save: &mut dyn FnMut(&Book) -> Result<(), E>,
    control: &Control<'_>,
) -> Result<EvaluateReport, E> {
    let mut report = EvaluateReport::default();
    let mut todo = Vec::new();
    for leaf in leaves {
        let (canonical, _) = leaf.canonical();
        if !settings.shard.contains(&canonical) {
            report.other_shards = report.other_shards.saturating_add(1);
        } else if is_done(book, &canonical, settings.level) {
            report.already = report.already.saturating_add(1);
        } else {
            todo.push(canonical);
        }
    }
    report.to_do = todo.len() as u64;
    control.report(Stage::Leaves, 0, report.to_do);
    let next = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::channel::<(Board, Entry)>();
    let mut outcome = Ok(());
    std::thread::scope(|scope| {
        for _ in 0..settings.threads.max(1).min(todo.len()) {
            let sender = sender.clone();
            let (todo, next) = (&todo, &next);
            let _handle = scope.spawn(move || {
                let mut searcher = make();
                while !control.is_stopped() {
                    let Some(board) = todo.get(next.fetch_add(1, Ordering::Relaxed)) else { break };
                    let entry = leaf_entry(searcher.as_mut(), board, settings.level);
                    if sender.send((*board, entry)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        let mut last_save = Instant::now();
        let mut done = 0_u64;
        loop {
            match receiver.recv_timeout(Duration::from_millis(200)) {
                Ok((board, entry)) => {
                    let _ = book.insert(&board, entry);
                    done = done.saturating_add(1);
                    if board.is_game_over() {
                        report.finished_games = report.finished_games.saturating_add(1);
                    } else {
                        report.searched = report.searched.saturating_add(1);
                    }
                    control.report(Stage::Leaves, done, report.to_do);
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            if outcome.is_ok() && last_save.elapsed() >= settings.save_every && done < report.to_do {
                outcome = save(book);
                report.saves = report.saves.saturating_add(1);
                last_save = Instant::now();
                if outcome.is_err() {
                    // A failed save ends the run: no new leaf is started, and the loop drains the searches under way.
                    next.store(todo.len(), Ordering::Relaxed);
                }
            }
        }
    });
    outcome?;
    report.stopped = report.searched.saturating_add(report.finished_games) < report.to_do;
    Ok(report)
}

/// What [`fill`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FillReport {
    /// Kept leaves (all shards) missing from the book at the level: when some are, nothing else is done.
    pub missing_leaves: u64,
    /// Kept positions inserted (at the level, valued by the fix).
    pub added: u64,
    /// Positions the fixes visited (a position below two roots counts twice).
    pub fixed: u64,
    /// Whether a stop interrupted the fix.
    pub stopped: bool,
}

/// Edax's `book fill`: when every kept leaf is in the book at `level` or above, inserts the kept positions missing
/// from it (value 0 at `level`, to be replaced) and runs [`ops::fix`] from every root (the initial position first),
/// which gives each position with links the negamax of its children and its line count. Positions of the book at
/// `level` or above count as done, whatever they hold.
pub fn fill(book: &mut Book, kept: &Kept, level: u8, control: &Control<'_>) -> FillReport {
    let mut report = FillReport {
        missing_leaves: kept.leaves.iter().filter(|b| !is_done(book, b, level)).count() as u64,
        ..FillReport::default()
    };
    if report.missing_leaves > 0 {
        return report;
    }
    for (board, _) in &kept.positions {
        if !book.contains(board) {
            let _ = book.insert(board, Entry::new(0, level));
            report.added = report.added.saturating_add(1);
        }
    }
    for root in &kept.roots {
        let fixed = ops::fix(book, root, false, control);
        report.fixed = report.fixed.saturating_add(fixed.visited);
        if fixed.stopped {
            report.stopped = true;
            break;
        }
    }
    report
}

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic,
    clippy::cast_possible_truncation,
    clippy::arithmetic_side_effects,
    reason = "tests"
)]
mod tests;
