//! The opening trainer: a repertoire of positions where the student must find the move, from a book or from lines
//! the student marked, and a [`TrainerSession`] that plays the lines with the student.
//!
//! Every position where the student moves is a card ([`RepertoireCard`]): its key, the moves accepted, the best one.
//! Positions are keyed over the 8 symmetries ([`CardKey`]) and moves kept in the canonical orientation, so a line
//! reached in another orientation (c4 instead of f5) finds the same cards.

mod trainer;

use std::collections::{HashMap, HashSet, VecDeque};

use crate::board::{Color, Move};
use crate::book::{Book, views};
use crate::position::Position;

use super::key::CardKey;
use super::store::NewCard;

pub use trainer::{TrainerSession, TrainerSummary, Turn, Verdict};

/// One position where the student moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RepertoireCard {
    /// The position.
    pub key: CardKey,
    /// The moves accepted as right, in the canonical orientation.
    pub expected: Vec<Move>,
    /// The move shown after a wrong answer (a best one), in the canonical orientation.
    pub best: Move,
    /// Every book move of the position with its value for the student, in the canonical orientation (empty for a
    /// repertoire made from lines).
    pub values: Vec<(Move, i32)>,
}

impl From<&RepertoireCard> for NewCard {
    fn from(card: &RepertoireCard) -> NewCard {
        NewCard { key: card.key, expected: card.expected.clone(), best: card.best }
    }
}

/// A line of [`Repertoire::from_lines`] that cannot be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RepertoireError {
    /// A move of a line is not legal where it is played.
    #[error("line {line}, move {ply}: {mv} is not legal there")]
    IllegalMove {
        /// The line (0-based).
        line: usize,
        /// The move's index in the line (0-based).
        ply: usize,
        /// The move.
        mv: Move,
    },
    /// [`TrainerSession::answer`] when the student is not to move.
    #[error("it is not the student's turn")]
    NotStudentTurn,
    /// [`TrainerSession::answer`] with a move that is not legal in the position.
    #[error("{0} is not a legal move here")]
    IllegalAnswer(Move),
}

/// The positions of an opening the student learns, as cards, and the opponent's moves the lines follow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repertoire {
    start: Position,
    side: Color,
    error: i32,
    cards: Vec<RepertoireCard>,
    index: HashMap<CardKey, usize>,
    /// The opponent's moves followed from each of its positions, canonical orientation.
    replies: HashMap<CardKey, Vec<Move>>,
}

impl Repertoire {
    /// The repertoire of `side` in `book` from `start`, `depth_plies` moves deep (passes not counted):
    /// - where `side` moves, the book moves within `error` discs of the best book move are accepted, and the lines go
    ///   on along the best ones only;
    /// - where the opponent moves, every book move within `error` discs of its best is followed, so the student
    ///   learns an answer to each.
    ///
    /// A position is visited once, however many lines reach it; positions outside the book end their line (so do
    /// those where [`views::book_moves`] ignores the book).
    #[must_use]
    pub fn from_book(book: &Book, start: &Position, side: Color, depth_plies: u8, error: i32) -> Repertoire {
        let mut repertoire = Repertoire::empty(*start, side, error);
        let mut seen = HashSet::new();
        let mut queue = VecDeque::from([(*start, 0u8)]);
        while let Some((position, ply)) = queue.pop_front() {
            let board = position.board;
            if ply >= depth_plies || board.is_game_over() || !seen.insert(CardKey::of(&position)) {
                continue;
            }
            if board.must_pass() {
                if let Ok(passed) = position.play(Move::Pass) {
                    queue.push_back((passed, ply));
                }
                continue;
            }
            let moves = views::book_moves(book, &board);
            let Some(best) = moves.iter().map(|m| i32::from(m.value)).max() else { continue };
            let within: Vec<Move> =
                moves.iter().filter(|m| i32::from(m.value) >= best.saturating_sub(error)).map(|m| m.mv).collect();
            let follow: Vec<Move> = if position.side_to_move == side {
                let values: Vec<(Move, i32)> = moves.iter().map(|m| (m.mv, i32::from(m.value))).collect();
                let best_moves: Vec<Move> = moves.iter().filter(|m| i32::from(m.value) == best).map(|m| m.mv).collect();
                repertoire.add_student(&position, &within, &best_moves, &values);
                best_moves
            } else {
                repertoire.add_replies(&position, &within);
                within
            };
            for mv in follow {
                if let Ok(child) = position.play(mv) {
                    queue.push_back((child, ply.saturating_add(1)));
                }
            }
        }
        repertoire
    }

    /// The repertoire of `side` in `lines`, each played from `start`: the student's move of each line is accepted in
    /// its position (the first line's move is the one shown), the opponent's moves are the replies followed. Forced
    /// passes may be written or left out.
    ///
    /// # Errors
    /// [`RepertoireError::IllegalMove`] for a move that cannot be played.
    pub fn from_lines(start: &Position, lines: &[Vec<Move>], side: Color) -> Result<Repertoire, RepertoireError> {
        let mut repertoire = Repertoire::empty(*start, side, 0);
        for (line_index, line) in lines.iter().enumerate() {
            let mut position = *start;
            for (ply, &mv) in line.iter().enumerate() {
                if mv != Move::Pass && position.board.must_pass() {
                    position = position.play(Move::Pass).unwrap_or(position);
                }
                let illegal = RepertoireError::IllegalMove { line: line_index, ply, mv };
                let next = position.play(mv).map_err(|_| illegal)?;
                if mv != Move::Pass {
                    if position.side_to_move == side {
                        repertoire.add_student(&position, &[mv], &[mv], &[]);
                    } else {
                        repertoire.add_replies(&position, &[mv]);
                    }
                }
                position = next;
            }
        }
        Ok(repertoire)
    }

    fn empty(start: Position, side: Color, error: i32) -> Repertoire {
        Repertoire { start, side, error, cards: Vec::new(), index: HashMap::new(), replies: HashMap::new() }
    }

    /// Adds (or widens) the card of `position` (moves in the position's orientation).
    fn add_student(&mut self, position: &Position, expected: &[Move], best: &[Move], values: &[(Move, i32)]) {
        let key = CardKey::of(position);
        let canonical = |mv: Move| CardKey::canonical_move(position, mv);
        let index = match self.index.get(&key) {
            Some(&index) => index,
            None => {
                let Some(&first) = best.first() else { return };
                self.cards.push(RepertoireCard {
                    key,
                    expected: Vec::new(),
                    best: canonical(first),
                    values: values.iter().map(|(mv, v)| (canonical(*mv), *v)).collect(),
                });
                let index = self.cards.len().saturating_sub(1);
                let _ = self.index.insert(key, index);
                index
            }
        };
        if let Some(card) = self.cards.get_mut(index) {
            for mv in expected.iter().map(|mv| canonical(*mv)) {
                if !card.expected.contains(&mv) {
                    card.expected.push(mv);
                }
            }
        }
    }

    /// Adds replies of the opponent in `position` (moves in the position's orientation).
    fn add_replies(&mut self, position: &Position, moves: &[Move]) {
        let replies = self.replies.entry(CardKey::of(position)).or_default();
        for mv in moves.iter().map(|mv| CardKey::canonical_move(position, *mv)) {
            if !replies.contains(&mv) {
                replies.push(mv);
            }
        }
    }

    /// Where the lines start.
    #[must_use]
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The student's colour.
    #[must_use]
    pub fn side(&self) -> Color {
        self.side
    }

    /// The loss in discs a move may have and still be accepted (0 for a repertoire made from lines).
    #[must_use]
    pub fn error(&self) -> i32 {
        self.error
    }

    /// The cards, in the order the walk found them (nearest the start first for a book).
    #[must_use]
    pub fn cards(&self) -> &[RepertoireCard] {
        &self.cards
    }

    /// The cards as the store adds them ([`StudyStore::add_cards`](super::StudyStore::add_cards)).
    #[must_use]
    pub fn new_cards(&self) -> Vec<NewCard> {
        self.cards.iter().map(NewCard::from).collect()
    }

    /// The card of `position` (any orientation), if the student moves there in the repertoire.
    #[must_use]
    pub fn card(&self, position: &Position) -> Option<&RepertoireCard> {
        self.card_of(&CardKey::of(position))
    }

    /// The card of a key.
    #[must_use]
    pub fn card_of(&self, key: &CardKey) -> Option<&RepertoireCard> {
        self.index.get(key).and_then(|index| self.cards.get(*index))
    }

    /// The opponent's replies followed from `position`, in its orientation (every equivalent square of a position
    /// symmetric in itself), in square order.
    #[must_use]
    pub fn replies(&self, position: &Position) -> Vec<Move> {
        let Some(canonical) = self.replies.get(&CardKey::of(position)) else { return Vec::new() };
        let mut moves = Vec::new();
        for mv in canonical.iter().flat_map(|mv| CardKey::moves_of(position, *mv)) {
            if !moves.contains(&mv) {
                moves.push(mv);
            }
        }
        moves.sort_by_key(|mv| mv.square().map_or(u8::MAX, crate::square::Square::index));
        moves
    }
}
