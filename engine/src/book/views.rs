//! Views derived from the book for the board overlays and the AI: umigame counts, book accuracy (A–F, AA–AF) and
//! the book move choice. Each view has a cache so that the app can show it for every legal move at once.
//!
//! - **Umigame counts** (inventory §4.4): for a position, how many book lines Black (resp. White) must learn when the
//!   other side may play any candidate move: at a node where Black moves, Black's count is the minimum over the
//!   candidate children and White's the sum; the other way round where White moves. A position outside the book, with
//!   at least `depth + 4` discs, or without candidates counts (1, 1). Candidates are the best links, or with an
//!   accumulated error `e`, every link losing at most the remaining error (which then shrinks by that loss);
//!   optionally only children whose value for Black lies in a range.
//! - **Accuracy** (§4.5): A–F from how the values under a position were obtained (exact searches, endgame searches,
//!   midgame searches), looking at the moves within a tolerance of the best; shown as "AA".."AF" when the strict
//!   result is A.
//! - **Book move choice** (§6.1, §6.6): the best book moves at random, the older "book variation level" weighting,
//!   and "accept AI's loss".

use std::collections::HashMap;

use super::table::Key;
use super::{Book, MoveValue, book_child};
use crate::board::{Board, Color, Move};
use crate::level::Level;
use crate::position::Position;
use crate::rng::GameRng;

/// Settings of the umigame counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UmigameSettings {
    /// Positions with `depth + 4` discs or more count (1, 1).
    pub depth: u8,
    /// Accumulated error allowed (0: best moves only).
    pub error: i32,
    /// Only children whose value for Black lies in this range (inclusive).
    pub black_range: Option<(i32, i32)>,
}

impl Default for UmigameSettings {
    fn default() -> UmigameSettings {
        UmigameSettings { depth: 60, error: 0, black_range: None }
    }
}

/// Umigame counts of a position: lines Black must know, lines White must know.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Umigame {
    /// Black's number.
    pub black: u64,
    /// White's number.
    pub white: u64,
}

/// Cached umigame counts for one book and one setting.
#[derive(Debug, Default)]
pub struct UmigameCache {
    settings: Option<UmigameSettings>,
    counts: HashMap<(Key, Color, i32), Umigame>,
}

impl UmigameCache {
    /// An empty cache.
    #[must_use]
    pub fn new() -> UmigameCache {
        UmigameCache::default()
    }

    /// Forgets everything (call after the book changes).
    pub fn clear(&mut self) {
        self.counts.clear();
    }

    /// The counts of `position`.
    pub fn count(&mut self, book: &Book, position: &Position, settings: UmigameSettings) -> Umigame {
        if self.settings != Some(settings) {
            self.counts.clear();
            self.settings = Some(settings);
        }
        self.node(book, position, settings, settings.error)
    }

    /// The counts after every legal move whose child is in the book.
    pub fn moves(&mut self, book: &Book, position: &Position, settings: UmigameSettings) -> Vec<(Move, Umigame)> {
        let mut out = Vec::new();
        for m in book.move_values(&position.board) {
            let Some(child) = child_position(position, m.mv) else { continue };
            out.push((m.mv, self.count(book, &child, settings)));
        }
        out
    }

    fn node(&mut self, book: &Book, position: &Position, settings: UmigameSettings, remaining: i32) -> Umigame {
        let leaf = Umigame { black: 1, white: 1 };
        let discs = 64 - position.board.empty_count();
        if discs >= u32::from(settings.depth) + 4 {
            return leaf;
        }
        let (canonical, _) = position.board.canonical();
        let key = [canonical.player.0, canonical.opponent.0];
        if !book.contains(&canonical) {
            return leaf;
        }
        if let Some(done) = self.counts.get(&(key, position.side_to_move, remaining)) {
            return *done;
        }
        let black_value = |m: &MoveValue| match position.side_to_move {
            Color::Black => i32::from(m.value),
            Color::White => -i32::from(m.value),
        };
        let links: Vec<MoveValue> = book
            .move_values(&position.board)
            .into_iter()
            .filter(|m| settings.black_range.is_none_or(|(lo, hi)| (lo..=hi).contains(&black_value(m))))
            .collect();
        let result = match links.iter().map(|m| i32::from(m.value)).max() {
            None => leaf,
            Some(best) => {
                let mut min = u64::MAX;
                let mut sum = 0u64;
                for m in &links {
                    let loss = best - i32::from(m.value);
                    if loss > remaining {
                        continue;
                    }
                    let Some(child) = child_position(position, m.mv) else { continue };
                    let counts = self.node(book, &child, settings, remaining - loss);
                    let (mine, theirs) = match position.side_to_move {
                        Color::Black => (counts.black, counts.white),
                        Color::White => (counts.white, counts.black),
                    };
                    min = min.min(mine);
                    sum = sum.saturating_add(theirs);
                }
                let (mine, theirs) = (min, sum);
                match position.side_to_move {
                    Color::Black => Umigame { black: mine, white: theirs },
                    Color::White => Umigame { black: theirs, white: mine },
                }
            }
        };
        let _ = self.counts.insert((key, position.side_to_move, remaining), result);
        result
    }
}

/// The position after `mv` as the book keys it (after the opponent's forced pass, if any).
fn child_position(position: &Position, mv: Move) -> Option<Position> {
    let (board, negate) = book_child(&position.board, mv)?;
    let side_to_move = if negate { !position.side_to_move } else { position.side_to_move };
    Some(Position { board, side_to_move })
}

/// A book accuracy grade, A (best) to F.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Grade {
    /// Every terminal value is an exact search.
    A,
    /// Some exact, the rest endgame searches.
    B,
    /// All endgame searches.
    C,
    /// Some exact searches.
    D,
    /// Some endgame searches.
    E,
    /// Midgame searches only.
    F,
}

impl Grade {
    /// The letter.
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Grade::A => 'A',
            Grade::B => 'B',
            Grade::C => 'C',
            Grade::D => 'D',
            Grade::E => 'E',
            Grade::F => 'F',
        }
    }

    /// Combines the grades of the moves within the tolerance (Egaroucid's rule).
    #[must_use]
    pub fn combine(grades: &[Grade]) -> Grade {
        let has = |g: Grade| grades.contains(&g);
        let low = has(Grade::D) || has(Grade::E) || has(Grade::F);
        if has(Grade::A) {
            if grades.iter().all(|g| *g == Grade::A) {
                Grade::A
            } else if !low {
                Grade::B
            } else {
                Grade::D
            }
        } else if has(Grade::B) || has(Grade::C) {
            if low {
                Grade::D
            } else if has(Grade::B) {
                Grade::B
            } else {
                Grade::C
            }
        } else {
            grades.iter().copied().min().unwrap_or(Grade::F)
        }
    }
}

/// How a value found at `level` for a position with `empties` empty squares was obtained: exact (A), endgame
/// search (C) or midgame search (F). Manual and undefined levels count as midgame.
fn search_grade(level: u8, empties: u32) -> Grade {
    match Level::new(level) {
        Ok(level) if empties <= u32::from(level.exact_from()) => Grade::A,
        Ok(level) if empties <= u32::from(level.endgame_start()) => Grade::C,
        _ => Grade::F,
    }
}

/// Cached book accuracy per canonical position and tolerance.
#[derive(Debug, Default)]
pub struct AccuracyCache {
    grades: HashMap<(Key, i32), Grade>,
}

impl AccuracyCache {
    /// An empty cache.
    #[must_use]
    pub fn new() -> AccuracyCache {
        AccuracyCache::default()
    }

    /// Forgets everything (call after the book changes).
    pub fn clear(&mut self) {
        self.grades.clear();
    }

    /// The grade of `board` with tolerance `t` (1 for A–F, 2 for the second letter), or `None` if not in the book.
    pub fn grade(&mut self, book: &Book, board: &Board, tolerance: i32) -> Option<Grade> {
        let (canonical, _) = board.canonical();
        let key = [canonical.player.0, canonical.opponent.0];
        if let Some(g) = self.grades.get(&(key, tolerance)) {
            return Some(*g);
        }
        let entry = book.get_canonical(&canonical)?;
        let links = book.move_values(&canonical);
        let empties = canonical.empty_count();
        let leaf = entry
            .leaf
            .mv()
            .filter(|mv| book_child(&canonical, *mv).is_some_and(|(child, _)| !book.contains(&child)))
            .map(|_| (i32::from(entry.leaf.value), search_grade(entry.leaf.level, empties.saturating_sub(1))));
        let grade = if links.is_empty() {
            search_grade(entry.level, empties)
        } else {
            let best = links.iter().map(|m| i32::from(m.value)).chain(leaf.map(|(v, _)| v)).max().unwrap_or(0);
            let mut grades = Vec::new();
            for m in &links {
                if i32::from(m.value) >= best - tolerance
                    && let Some((child, _)) = book_child(&canonical, m.mv)
                    && let Some(g) = self.grade(book, &child, tolerance)
                {
                    grades.push(g);
                }
            }
            if let Some((value, g)) = leaf
                && value >= best - tolerance
                && g != Grade::F
            {
                grades.push(g);
            }
            Grade::combine(&grades)
        };
        let _ = self.grades.insert((key, tolerance), grade);
        Some(grade)
    }

    /// The label Egaroucid shows: the A–F letter, or "A" followed by the tolerance-2 letter when it is A.
    pub fn label(&mut self, book: &Book, board: &Board) -> Option<String> {
        let strict = self.grade(book, board, 1)?;
        if strict == Grade::A {
            let wide = self.grade(book, board, 2)?;
            Some(format!("A{}", wide.letter()))
        } else {
            Some(strict.letter().to_string())
        }
    }
}

/// Egaroucid ignores the book when its best move is worse than the position's value by more than this.
pub const BOOK_LOSS_IGNORE_THRESHOLD: i32 = 8;

/// The candidate book moves of `board` with their values, or nothing when the book should be ignored (no links, or
/// the best link loses more than [`BOOK_LOSS_IGNORE_THRESHOLD`] against the position's value).
#[must_use]
pub fn book_moves(book: &Book, board: &Board) -> Vec<MoveValue> {
    let links = book.move_values(board);
    let Some(best) = links.iter().map(|m| i32::from(m.value)).max() else { return links };
    if let Some(entry) = book.get(board)
        && best < i32::from(entry.value) - BOOK_LOSS_IGNORE_THRESHOLD
    {
        return Vec::new();
    }
    links
}

/// The "book variation level" choice: moves worth at least `best − 2X − 0.5` are drawn with weight
/// `((e^(v − best) + 1.5) / 3)^(10 − X)`; X = 0 draws uniformly among the best moves (Egaroucid's default).
#[must_use]
pub fn choose_book_move(moves: &[MoveValue], variation: u8, rng: &mut GameRng) -> Option<Move> {
    let best = moves.iter().map(|m| f64::from(m.value)).fold(f64::NEG_INFINITY, f64::max);
    let x = f64::from(variation.min(10));
    let weighted: Vec<(Move, f64)> = moves
        .iter()
        .filter(|m| f64::from(m.value) >= best - 2.0 * x - 0.5)
        .map(|m| (m.mv, (((f64::from(m.value) - best).exp() + 1.5) / 3.0).powf(10.0 - x)))
        .collect();
    roulette(&weighted, rng)
}

/// Egaroucid's "accept AI's loss" among book moves: with probability `percent` / 100, a move at random among those
/// losing at most `max_loss` against the best; otherwise one of the best moves at random.
#[must_use]
pub fn choose_with_loss(moves: &[MoveValue], percent: f64, max_loss: i32, rng: &mut GameRng) -> Option<Move> {
    let best = moves.iter().map(|m| i32::from(m.value)).max()?;
    let draw = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * 100.0;
    let allowed = if max_loss > 0 && draw < percent { max_loss } else { 0 };
    let candidates: Vec<(Move, f64)> =
        moves.iter().filter(|m| i32::from(m.value) >= best - allowed).map(|m| (m.mv, 1.0)).collect();
    roulette(&candidates, rng)
}

/// Draws a move with probability proportional to its weight.
fn roulette(weighted: &[(Move, f64)], rng: &mut GameRng) -> Option<Move> {
    let total: f64 = weighted.iter().map(|(_, w)| w).sum();
    if weighted.is_empty() || total.is_nan() || total <= 0.0 {
        return weighted.first().map(|(mv, _)| *mv);
    }
    let mut target = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * total;
    for (mv, w) in weighted {
        if target < *w {
            return Some(*mv);
        }
        target -= w;
    }
    weighted.last().map(|(mv, _)| *mv)
}

/// Every legal move of `board` with its book value, umigame counts and accuracy label, for the overlays.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveView {
    /// The move and its book value.
    pub value: MoveValue,
    /// Umigame counts of the child.
    pub umigame: Umigame,
    /// Accuracy label of the child ("A".."F", "AA".."AF").
    pub accuracy: Option<String>,
}

/// The overlay data of every legal move of `position` whose child is in the book, from the caches.
pub fn move_views(
    book: &Book,
    position: &Position,
    settings: UmigameSettings,
    umigame: &mut UmigameCache,
    accuracy: &mut AccuracyCache,
) -> Vec<MoveView> {
    let mut out = Vec::new();
    for value in book.move_values(&position.board) {
        let Some(child) = child_position(position, value.mv) else { continue };
        let counts = umigame.count(book, &child, settings);
        out.push(MoveView { value, umigame: counts, accuracy: accuracy.label(book, &child.board) });
    }
    out
}
