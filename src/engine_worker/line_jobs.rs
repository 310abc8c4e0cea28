//! The jobs over a whole line: analysis (each position's value) and review (each position's value, best move and
//! line), each result sent as soon as it is found.

use shirokuro_engine::Position;
use shirokuro_engine::level::Level;
use shirokuro_engine::review::ReviewOptions;
use shirokuro_engine::think::Thinker;

use super::{Event, Worker, black_value};
use crate::book::SharedBook;
use crate::log::{LogLine, Search};

impl Worker {
    /// Reviews `positions` in the order given (the app sends them from the end: the exact solves of the last
    /// positions fill the tables for the earlier ones). The book is read position by position, so a book operation
    /// is never held up for the whole review.
    pub(super) fn review(
        &self,
        thinker: &Thinker,
        generation: u64,
        positions: Vec<(usize, Position)>,
        options: ReviewOptions,
        book: Option<&SharedBook>,
    ) -> bool {
        for (ply, position) in positions {
            if !self.is_current(generation) {
                return true;
            }
            let from_book = book.and_then(SharedBook::read).and_then(|book| {
                book.contains(&position.board).then(|| thinker.review_position(&position, options, Some(&book)))
            });
            let value = match from_book {
                Some(value) => value,
                None => thinker.review_position(&position, options, None),
            };
            let Some(value) = value else { return self.log_stop(Search::Analysis) };
            if !self.is_current(generation) {
                return true;
            }
            if !self.emit(Event::Reviewed { generation, ply, value }) {
                return false;
            }
        }
        self.emit(Event::Log(LogLine::AnalysisDone { level: options.level.get() }))
            && self.emit(Event::Done { generation })
    }

    /// Each position's value, in the order given: the book's when the position is in it, otherwise a search.
    pub(super) fn analyze(
        &self,
        thinker: &Thinker,
        generation: u64,
        positions: Vec<(usize, Position)>,
        level: Level,
        book: Option<&SharedBook>,
    ) -> bool {
        for (ply, position) in positions {
            if !self.is_current(generation) {
                return true;
            }
            let in_book = book
                .and_then(SharedBook::read)
                .and_then(|book| book.get(&position.board).map(|_| thinker.analyze(&position, level, Some(&book))));
            let analysis = in_book.unwrap_or_else(|| thinker.analyze(&position, level, None));
            if analysis.is_stopped() {
                return self.log_stop(Search::Analysis);
            }
            if !self.is_current(generation) {
                return true;
            }
            let value = black_value(position.side_to_move, analysis.score());
            if !self.emit(Event::Analyzed { generation, ply, value }) {
                return false;
            }
        }
        self.emit(Event::Log(LogLine::AnalysisDone { level: level.get() })) && self.emit(Event::Done { generation })
    }
}
