//! [`TrainerSession`]: the opening trainer's rules, without I/O.
//!
//! The session plays a line from the repertoire's start. At the opponent's turn it picks one of the replies the
//! repertoire follows that lose at most the session's error (by the book's values when a book is given), drawn as
//! the book's AI draws ([`views::choose_book_move`]); replies that lead to cards due now come first. At the student's
//! turn [`TrainerSession::answer`] judges the move; after a wrong one the line goes on with the right move. Forced
//! passes are played by the session. The caller records each [`Verdict`] in the store and tells the session the
//! card's new due time ([`TrainerSession::set_due`]).

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};

use super::{Repertoire, RepertoireError};
use crate::board::Move;
use crate::book::{Book, MoveValue, views};
use crate::position::Position;
use crate::rng::GameRng;
use crate::study::key::CardKey;

/// Whose turn it is in the line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Turn {
    /// The student moves: the position is the card `key`.
    Student(CardKey),
    /// The opponent moves ([`TrainerSession::opponent_move`]).
    Opponent,
    /// The line has left the repertoire (or the game ended): [`TrainerSession::restart`].
    LineEnd,
}

/// The judgement of a student's move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// The card answered.
    pub card: CardKey,
    /// Whether the move is accepted.
    pub correct: bool,
    /// The accepted moves, in the position's orientation.
    pub expected: Vec<Move>,
    /// The move shown after a wrong answer, in the position's orientation (the line goes on with it then).
    pub best: Move,
    /// Discs the move loses against the best by the book's values; `None` when a value is unknown.
    pub loss: Option<i32>,
}

/// A session's totals.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TrainerSummary {
    /// Cards answered.
    pub cards_done: u32,
    /// Right answers.
    pub right: u32,
    /// `right / cards_done`; `None` before the first answer.
    pub retention: Option<f64>,
    /// The earliest due time among the repertoire's cards (a card the caller gave no time for is new, due at once).
    pub next_due: Option<DateTime<Utc>>,
}

/// An opening training session (see the module docs).
#[derive(Debug, Clone)]
pub struct TrainerSession {
    repertoire: Repertoire,
    position: Position,
    due: HashMap<CardKey, DateTime<Utc>>,
    now: DateTime<Utc>,
    error: i32,
    variation: u8,
    rng: GameRng,
    cards_done: u32,
    right: u32,
}

impl TrainerSession {
    /// A session on `repertoire` at `now`; `due` holds the cards' due times from the store (a card missing from it is
    /// new, hence due); the opponent's replies and the student's moves may lose at most `error` discs; the rng is
    /// seeded with `seed`.
    #[must_use]
    pub fn new(
        repertoire: Repertoire,
        due: HashMap<CardKey, DateTime<Utc>>,
        now: DateTime<Utc>,
        error: i32,
        seed: u64,
    ) -> TrainerSession {
        let position = *repertoire.start();
        let mut session = TrainerSession {
            repertoire,
            position,
            due,
            now,
            error,
            variation: 0,
            rng: GameRng::new(seed),
            cards_done: 0,
            right: 0,
        };
        session.pass_if_forced();
        session
    }

    /// The same session drawing the opponent's replies with the book's "variation level" `variation` (0: the best
    /// replies only, uniformly; see [`views::choose_book_move`]).
    #[must_use]
    pub fn with_variation(mut self, variation: u8) -> TrainerSession {
        self.variation = variation;
        self
    }

    /// The repertoire.
    #[must_use]
    pub fn repertoire(&self) -> &Repertoire {
        &self.repertoire
    }

    /// The position of the line now.
    #[must_use]
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Tells the session a card's new due time (after the caller recorded its answer) or the current time.
    pub fn set_due(&mut self, key: CardKey, due: DateTime<Utc>) {
        let _previous = self.due.insert(key, due);
    }

    /// Moves the session's clock (due cards are those due at this time).
    pub fn set_now(&mut self, now: DateTime<Utc>) {
        self.now = now;
    }

    /// Whose turn it is.
    #[must_use]
    pub fn turn(&self) -> Turn {
        let board = self.position.board;
        if board.is_game_over() {
            return Turn::LineEnd;
        }
        let key = CardKey::of(&self.position);
        if self.position.side_to_move == self.repertoire.side() {
            if self.repertoire.card_of(&key).is_some() { Turn::Student(key) } else { Turn::LineEnd }
        } else if self.repertoire.replies(&self.position).is_empty() {
            Turn::LineEnd
        } else {
            Turn::Opponent
        }
    }

    /// Starts a new line from the repertoire's start.
    pub fn restart(&mut self) {
        self.position = *self.repertoire.start();
        self.pass_if_forced();
    }

    /// Plays the opponent's reply and returns it; `None` (and nothing played) when it is not the opponent's turn.
    /// `book` gives the replies' values (the loss filter and the draw's weights); without one, or for replies it does
    /// not hold, every reply the repertoire follows counts as best.
    pub fn opponent_move(&mut self, book: Option<&Book>) -> Option<Move> {
        if self.turn() != Turn::Opponent {
            return None;
        }
        let board = self.position.board;
        let candidates: Vec<MoveValue> = self
            .repertoire
            .replies(&self.position)
            .into_iter()
            .map(|mv| {
                book.and_then(|book| book.move_value(&board, mv)).unwrap_or(MoveValue {
                    mv,
                    value: 0,
                    level: 0,
                    lines: 0,
                })
            })
            .collect();
        let best = candidates.iter().map(|m| i32::from(m.value)).max()?;
        let within: Vec<MoveValue> =
            candidates.into_iter().filter(|m| i32::from(m.value) >= best.saturating_sub(self.error)).collect();
        let toward_due: Vec<MoveValue> = within
            .iter()
            .filter(|m| self.position.play(m.mv).is_ok_and(|child| self.due_below(&child, &mut HashSet::new()) > 0))
            .copied()
            .collect();
        let pool = if toward_due.is_empty() { within } else { toward_due };
        let mv = views::choose_book_move(&pool, self.variation, &mut self.rng)?;
        self.play(mv);
        Some(mv)
    }

    /// Judges the student's move (see [`Verdict`]) and goes on with it, or with the best move when it is wrong.
    ///
    /// # Errors
    /// [`RepertoireError::NotStudentTurn`] when the student is not to move in a repertoire position,
    /// [`RepertoireError::IllegalAnswer`] for an illegal move (nothing changes then).
    pub fn answer(&mut self, mv: Move) -> Result<Verdict, RepertoireError> {
        let Turn::Student(key) = self.turn() else { return Err(RepertoireError::NotStudentTurn) };
        let card = self.repertoire.card_of(&key).ok_or(RepertoireError::NotStudentTurn)?;
        if !self.position.board.is_legal(mv) {
            return Err(RepertoireError::IllegalAnswer(mv));
        }
        let position = self.position;
        let concrete = |canonical: Move| CardKey::moves_of(&position, canonical);
        let expected: Vec<Move> = card.expected.iter().flat_map(|mv| concrete(*mv)).collect();
        let best = concrete(card.best).first().copied().unwrap_or(card.best);
        let value = |canonical: Move| card.values.iter().find(|(m, _)| *m == canonical).map(|(_, v)| *v);
        let loss = value(card.best)
            .zip(value(CardKey::canonical_move(&position, mv)))
            .map(|(top, played)| top.saturating_sub(played).max(0));
        let correct = CardKey::is_one_of(&position, mv, &card.expected) && loss.is_none_or(|loss| loss <= self.error);
        self.cards_done = self.cards_done.saturating_add(1);
        self.right = self.right.saturating_add(u32::from(correct));
        self.play(if correct { mv } else { best });
        Ok(Verdict { card: key, correct, expected, best, loss })
    }

    /// The session's totals.
    #[must_use]
    pub fn summary(&self) -> TrainerSummary {
        let next_due =
            self.repertoire.cards().iter().map(|card| self.due.get(&card.key).copied().unwrap_or(self.now)).min();
        TrainerSummary {
            cards_done: self.cards_done,
            right: self.right,
            retention: (self.cards_done > 0).then(|| f64::from(self.right) / f64::from(self.cards_done)),
            next_due,
        }
    }

    /// Whether the card `key` is due now (a card without a due time is new, so due).
    fn is_due(&self, key: &CardKey) -> bool {
        self.due.get(key).is_none_or(|due| *due <= self.now)
    }

    /// Due cards on the repertoire's lines from `position` (the student's best moves, the opponent's replies).
    fn due_below(&self, position: &Position, seen: &mut HashSet<CardKey>) -> usize {
        let mut position = *position;
        if position.board.must_pass()
            && let Ok(passed) = position.play(Move::Pass)
        {
            position = passed;
        }
        let key = CardKey::of(&position);
        if !seen.insert(key) {
            return 0;
        }
        if position.side_to_move == self.repertoire.side() {
            let Some(card) = self.repertoire.card_of(&key) else { return 0 };
            let here = usize::from(self.is_due(&key));
            let next = CardKey::moves_of(&position, card.best).first().and_then(|mv| position.play(*mv).ok());
            here.saturating_add(next.map_or(0, |child| self.due_below(&child, seen)))
        } else {
            self.repertoire
                .replies(&position)
                .into_iter()
                .filter_map(|mv| position.play(mv).ok())
                .map(|child| self.due_below(&child, seen))
                .fold(0, usize::saturating_add)
        }
    }

    fn play(&mut self, mv: Move) {
        if let Ok(next) = self.position.play(mv) {
            self.position = next;
        }
        self.pass_if_forced();
    }

    fn pass_if_forced(&mut self) {
        if self.position.board.must_pass()
            && let Ok(passed) = self.position.play(Move::Pass)
        {
            self.position = passed;
        }
    }
}
