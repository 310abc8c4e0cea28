//! The AI's move policy: a book move when the book has one, otherwise a search, with Egaroucid's "Accept AI's Loss"
//! when asked. The app, `shirokuro-cli play`, GTP and NBoard all choose the AI's move through [`Thinker::choose`], so
//! they play the same AI.
//!
//! 1. **Book.** With a book, the candidates are [`views::book_moves`] of the position: its links, unless the best of
//!    them loses more than [`views::BOOK_LOSS_IGNORE_THRESHOLD`] against the position's own book value (then the book
//!    is ignored here). The move is drawn by the book variation ([`views::choose_book_move`]; 0 = uniformly among the
//!    best) or, with loss curves, by [`choose_with_curves`].
//! 2. **Moves missing from the book** (Egaroucid's check, variation 0 only): when the chosen move is one of the best,
//!    some legal moves are not in the book, and the chosen child's book value was searched below the AI's level, the
//!    positions after the missing moves get a null-window search at the level ([`Thinker::reaches`]). If one of them
//!    is worth at least [`OUT_OF_BOOK_MARGIN`] more than the book's best, the book is not trusted and the AI searches
//!    as in 3. A stopped check trusts the book.
//! 3. **Search.** Without a usable book move: [`Thinker::think_with_loss`] under the loss curves, or
//!    [`Thinker::think_with_progress`] at the level.
//!
//! The human-like sparring partner ([`Policy::sparring`], Settings ▸ AI Style) skips the book and plays
//! [`Thinker::choose_sparring`] at the level, at most [`MAX_LEVEL`](super::sparring::MAX_LEVEL): its losses are spread
//! over the whole game, the opening included.
//!
//! Every random draw comes from the caller's [`GameRng`], so the same position, policy and seed give the same move.

use super::loss_curves::{LossCurves, choose_with_curves};
use super::sparring::SparringStyle;
use super::{ThinkProgress, Thinker, Thought, child_level};
use crate::board::Move;
use crate::book::{Book, LEVEL_UNDEFINED, MoveValue, book_child, ops, views};
use crate::level::{Level, Selectivity};
use crate::position::Position;
use crate::rng::GameRng;

/// How much better than the book's best value a move missing from the book must be for the AI to leave the book
/// (Egaroucid's check accepts the search's move from the book's value + 2).
pub const OUT_OF_BOOK_MARGIN: i32 = 2;

/// How the AI chooses its moves: the level, the book variation and optionally the loss curves. The book itself is
/// given at each call ([`Thinker::choose`]), so that a caller holding it behind a lock lends it only for the move.
#[derive(Debug, Clone)]
pub struct Policy {
    /// The level of every search.
    pub level: Level,
    /// Egaroucid's book variation level X (0..=10; 0 = uniformly among the best book moves, see
    /// [`views::choose_book_move`]).
    pub variation: u8,
    /// "Accept AI's Loss": the curves, when on.
    pub loss: Option<LossCurves>,
    /// Whether a book move is checked against the moves missing from the book (see the module docs); on by default.
    pub check_out_of_book: bool,
    /// The time this move may take when a clock runs ([`move_budget`](super::move_budget)): the search stops when it
    /// is spent and plays the best move found (the loss curves are not used then: their extra searches have no
    /// budget of their own).
    pub time: Option<std::time::Duration>,
    /// The human-like sparring partner, when on: its style and what it has lost so far this game.
    pub sparring: Option<Sparring>,
}

/// The sparring partner's part of a [`Policy`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sparring {
    /// How it plays.
    pub style: SparringStyle,
    /// Discs it has lost so far this game.
    pub lost: u32,
}

impl Policy {
    /// Searching at `level`, without a book or accepted losses.
    #[must_use]
    pub fn new(level: Level) -> Policy {
        Policy { level, variation: 0, loss: None, check_out_of_book: true, time: None, sparring: None }
    }

    /// The same policy at `level`.
    #[must_use]
    pub fn with_level(mut self, level: Level) -> Policy {
        self.level = level;
        self
    }

    /// Draws book moves with variation level `variation` (clamped to 10).
    #[must_use]
    pub fn with_variation(mut self, variation: u8) -> Policy {
        self.variation = variation.min(10);
        self
    }

    /// Accepts losses under `curves` (or never).
    #[must_use]
    pub fn with_loss(mut self, curves: Option<LossCurves>) -> Policy {
        self.loss = curves;
        self
    }

    /// Searches within `budget` (or at the level's own pace).
    #[must_use]
    pub fn with_time(mut self, budget: Option<std::time::Duration>) -> Policy {
        self.time = budget;
        self
    }

    /// Plays as the human-like sparring partner (or not).
    #[must_use]
    pub fn with_sparring(mut self, sparring: Option<Sparring>) -> Policy {
        self.sparring = sparring;
        self
    }

    /// Turns the check of the moves missing from the book on or off.
    #[must_use]
    pub fn with_out_of_book_check(mut self, check: bool) -> Policy {
        self.check_out_of_book = check;
        self
    }
}

/// Where the AI's move came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The book.
    Book,
    /// A search at the level.
    Search,
    /// A search under the loss curves (the move may lose against the best one).
    SearchWithLoss,
    /// The human-like sparring partner (the move may lose against the best one; [`Choice::loss`] says how much).
    Sparring,
}

/// The AI's move with its value and origin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    /// The move (`Move::Pass` when forced); `None` when the game is over or a search was stopped before it had one.
    pub mv: Option<Move>,
    /// Its value for the side to move: the book's value or the search's score.
    pub value: i32,
    /// Where it came from.
    pub source: Source,
    /// The details: for a book move, a thought with no nodes whose line follows the book.
    pub thought: Thought,
    /// The sparring partner's loss against its best move (`None` for the other sources).
    pub loss: Option<i32>,
}

impl Choice {
    fn new(thought: Thought, source: Source) -> Choice {
        Choice { mv: thought.best_move, value: thought.score, source, thought, loss: None }
    }
}

impl Thinker {
    /// The AI's move in `position` under `policy` (see the module docs), drawing from `rng`; `progress` hears each
    /// finished iteration of a plain search.
    pub fn choose(
        &self,
        position: &Position,
        policy: &Policy,
        book: Option<&Book>,
        rng: &mut GameRng,
        progress: &mut dyn FnMut(&ThinkProgress),
    ) -> Choice {
        if let Some(choice) = book.and_then(|book| self.choose_from_book(position, policy, book, rng)) {
            return choice;
        }
        self.choose_by_search(position, policy, rng, progress)
    }

    /// The first half of [`Thinker::choose`]: the book's move (after the check of the moves missing from the book),
    /// or `None` when the book has no usable move here. A caller that lends the book from behind a lock calls this
    /// with the book, then [`Thinker::choose_by_search`] without it.
    pub fn choose_from_book(
        &self,
        position: &Position,
        policy: &Policy,
        book: &Book,
        rng: &mut GameRng,
    ) -> Option<Choice> {
        if policy.sparring.is_some() {
            return None;
        }
        self.book_thought(book, position, policy, rng).map(|thought| Choice::new(thought, Source::Book))
    }

    /// The second half of [`Thinker::choose`]: a search at the policy's level, under its loss curves if any.
    pub fn choose_by_search(
        &self,
        position: &Position,
        policy: &Policy,
        rng: &mut GameRng,
        progress: &mut dyn FnMut(&ThinkProgress),
    ) -> Choice {
        if let Some(Sparring { style, lost }) = policy.sparring {
            let level = policy.level.min(super::sparring::MAX_LEVEL);
            let choice = self.choose_sparring(position, level, style, lost, rng);
            return Choice { loss: Some(choice.loss), ..Choice::new(choice.thought, Source::Sparring) };
        }
        if let Some(budget) = policy.time {
            return Choice::new(self.think_timed(position, policy.level, budget, progress), Source::Search);
        }
        match &policy.loss {
            Some(curves) => {
                Choice::new(self.think_with_loss(position, policy.level, curves, rng), Source::SearchWithLoss)
            }
            None => Choice::new(self.think_with_progress(position, policy.level, progress), Source::Search),
        }
    }

    /// The book's move for `position` as a thought whose line follows the book; `None` when the book has no usable
    /// move here or a move missing from the book beats it.
    fn book_thought(&self, book: &Book, position: &Position, policy: &Policy, rng: &mut GameRng) -> Option<Thought> {
        let board = position.board;
        let moves = views::book_moves(book, &board);
        let best = moves.iter().map(|m| i32::from(m.value)).max()?;
        let mv = match &policy.loss {
            Some(curves) => choose_with_curves(&moves, &board, curves, rng),
            None => views::choose_book_move(&moves, policy.variation, rng),
        }?;
        let value = moves.iter().find(|m| m.mv == mv).map(|m| i32::from(m.value))?;
        let check = policy.check_out_of_book && policy.variation == 0 && value == best;
        if check && self.beaten_out_of_book(book, position, &moves, mv, best, policy.level) {
            return None;
        }
        let mut pv = vec![mv];
        if let Some((child, _)) = book_child(&board, mv) {
            pv.extend(ops::principal_line(book, &child));
        }
        Some(Thought {
            best_move: Some(mv),
            score: value,
            exact: false,
            depth: 0,
            nodes: 0,
            elapsed: std::time::Duration::ZERO,
            stopped: false,
            selectivity: Selectivity::Exact,
            pv,
        })
    }

    /// Whether a legal move missing from `moves` (the book moves of `position`) is worth at least `best` +
    /// [`OUT_OF_BOOK_MARGIN`] by a null-window search at `level`. Skipped (false) when the child of `chosen` was
    /// searched at `level` or above, as in Egaroucid; a stopped search counts as not beaten.
    fn beaten_out_of_book(
        &self,
        book: &Book,
        position: &Position,
        moves: &[MoveValue],
        chosen: Move,
        best: i32,
        level: Level,
    ) -> bool {
        let board = position.board;
        let trusted = book_child(&board, chosen)
            .and_then(|(child, _)| book.get(&child))
            .is_some_and(|entry| entry.level != LEVEL_UNDEFINED && entry.level >= level.get());
        if trusted {
            return false;
        }
        let child_level = child_level(level, &board);
        let missing = board.moves().into_iter().map(Move::Place).filter(|mv| moves.iter().all(|m| m.mv != *mv));
        for mv in missing {
            let Ok(child) = position.play(mv) else { continue };
            // The move is worth at least best + margin exactly when the child's value stays below
            // −(best + margin) + 1 for the opponent.
            match self.reaches(&child, child_level, 1 - (best + OUT_OF_BOOK_MARGIN)) {
                Some(false) => return true,
                Some(true) => {}
                None => return false,
            }
        }
        false
    }
}

#[cfg(test)]
mod tests;
