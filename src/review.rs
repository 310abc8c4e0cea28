//! Game ▸ Review: every position of the main line searched (the engine's [`shirokuro_engine::review`]), each move
//! graded by its loss, with each player's summary, "next / previous mistake" and a text export.
//!
//! The game screen owns the review ([`crate::game::Game`] starts the engine job and feeds the values in); this
//! module holds its state, what is derived from it, and its panel ([`view`]).

use shirokuro_engine::review::{
    Grade, LinePosition, MoveReview, PlayerSummary, PositionValue, ReviewOptions, Thresholds, grade_moves, next_error,
    summarize,
};
use shirokuro_engine::{Color, Move, Position};

mod export;
pub mod view;

pub use export::{export_text, memo_text, memo_with_review};

/// The review panel's messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Message {
    /// Review the main line (again) with the settings' level and thresholds.
    Start,
    /// Close the panel (the grades are forgotten).
    Close,
    /// To the position before the next error.
    NextMistake,
    /// To the position before the previous error.
    PreviousMistake,
    /// To the position before the move into this ply (a click in the move list).
    Goto(usize),
    /// Save the review as text.
    Export,
}

/// A review of a line: its positions, the values found so far and the grades derived from them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Review {
    options: ReviewOptions,
    thresholds: Thresholds,
    line: Vec<LinePosition>,
    values: Vec<Option<PositionValue>>,
    book: Vec<bool>,
    graded: Vec<Option<MoveReview>>,
    running: bool,
}

impl Review {
    /// A review of `line` about to start; `in_book[i]` says whether position `i` is in the book.
    #[must_use]
    pub fn new(line: Vec<LinePosition>, options: ReviewOptions, thresholds: Thresholds, in_book: Vec<bool>) -> Review {
        let values = vec![None; line.len()];
        let graded = vec![None; line.len()];
        Review { options, thresholds, line, values, book: in_book, graded, running: true }
    }

    /// A finished review with these values (a review read from a game file).
    #[must_use]
    pub fn restored(line: Vec<LinePosition>, options: ReviewOptions, values: Vec<Option<PositionValue>>) -> Review {
        let book = values.iter().map(|v| v.as_ref().is_some_and(|v| v.book)).collect();
        let mut review = Review::new(line, options, Thresholds::default(), book);
        review.values = values;
        review.values.resize(review.line.len(), None);
        review.running = false;
        review.regrade();
        review
    }

    /// The value of position `ply` arrived.
    pub fn set_value(&mut self, ply: usize, value: PositionValue) {
        if let Some(slot) = self.values.get_mut(ply) {
            *slot = Some(value);
            self.regrade();
        }
    }

    /// New thresholds (Settings): the grades are worked out again.
    pub fn set_thresholds(&mut self, thresholds: Thresholds) {
        if thresholds != self.thresholds {
            self.thresholds = thresholds;
            self.regrade();
        }
    }

    fn regrade(&mut self) {
        let book = &self.book;
        self.graded = grade_moves(&self.line, &self.values, self.thresholds, |i| book.get(i).copied().unwrap_or(false));
    }

    /// The engine finished (or was stopped).
    pub fn finish(&mut self) {
        self.running = false;
    }

    /// Whether the engine is still working on it.
    #[must_use]
    pub fn is_running(&self) -> bool {
        self.running
    }

    /// Positions with a value, and positions in all.
    #[must_use]
    pub fn progress(&self) -> (usize, usize) {
        (self.values.iter().filter(|v| v.is_some()).count(), self.values.len())
    }

    /// How the line was searched.
    #[must_use]
    pub fn options(&self) -> ReviewOptions {
        self.options
    }

    /// The line reviewed.
    #[must_use]
    pub fn line(&self) -> &[LinePosition] {
        &self.line
    }

    /// Each position's value (Black's view), `None` where not known yet.
    #[must_use]
    pub fn values(&self) -> &[Option<PositionValue>] {
        &self.values
    }

    /// The graded move into each position (`None` for the first one and where values are missing).
    #[must_use]
    pub fn graded(&self) -> &[Option<MoveReview>] {
        &self.graded
    }

    /// Black's and White's summaries.
    #[must_use]
    pub fn summaries(&self) -> [PlayerSummary; 2] {
        summarize(&self.graded)
    }

    /// The plies of the moves graded as errors (the marks on the graph), with their grades.
    #[must_use]
    pub fn marks(&self) -> Vec<(usize, Grade)> {
        self.graded.iter().flatten().filter(|m| m.grade.is_error()).map(|m| (m.ply, m.grade)).collect()
    }

    /// Where "next mistake" (`forward`) or "previous mistake" goes from `ply`.
    #[must_use]
    pub fn error_from(&self, ply: usize, forward: bool) -> Option<usize> {
        next_error(&self.graded, ply, forward)
    }

    /// The graded move played from position `ply` (the move into `ply + 1`).
    #[must_use]
    pub fn move_from(&self, ply: usize) -> Option<&MoveReview> {
        self.graded.get(ply + 1).and_then(Option::as_ref)
    }

    /// Whether the review is of this line (the positions, in order): a review of another line is stale.
    #[must_use]
    pub fn is_of(&self, positions: impl ExactSizeIterator<Item = Position>) -> bool {
        positions.len() == self.line.len() && positions.zip(&self.line).all(|(p, at)| p == at.position)
    }
}

/// The review's grade of a move, for the colour of its mark.
#[must_use]
pub fn grade_color(grade: Grade) -> iced::Color {
    match grade {
        Grade::Book => iced::Color::from_rgb8(120, 160, 220),
        Grade::Best => iced::Color::from_rgb8(90, 190, 110),
        Grade::Good => iced::Color::from_rgb8(170, 200, 120),
        Grade::Inaccuracy => iced::Color::from_rgb8(235, 200, 70),
        Grade::Mistake => iced::Color::from_rgb8(240, 140, 50),
        Grade::Blunder => iced::Color::from_rgb8(220, 60, 60),
    }
}

/// A move as people write it (`d3`, `pass`).
#[must_use]
pub fn move_text(mv: Move) -> String {
    match mv.square() {
        Some(square) => square.to_lowercase(),
        None => "pass".to_owned(),
    }
}

/// The colour index of [`PlayerSummary`] arrays: 0 for Black.
#[must_use]
pub const fn player_index(color: Color) -> usize {
    match color {
        Color::Black => 0,
        Color::White => 1,
    }
}
