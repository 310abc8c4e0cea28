//! The opening trainer's screen: the board on the left; on the right the setup (side, depth, allowed error, the
//! replies' variation, Start), or while a session runs the prompt, the verdict on the last answer, Continue and End,
//! and the session's summary with the deck's counts. After a wrong answer the board marks the book's moves.

use chrono::{Local, Utc};
use iced::widget::{Column, button, canvas, column, container, radio, row, slider, text};
use iced::{Element, Length};
use shirokuro_engine::study::{CardKey, Repertoire, Verdict};
use shirokuro_engine::{Color, Move, Position, Square};

use super::job::{DEPTHS, ERRORS, Source, StartError, VARIATIONS};
use super::{Message, Stage, Trainer};
use crate::i18n::{Strings, fill};
use crate::review::view::color_name;
use crate::widget::board::{Board, HintMark};

impl Trainer {
    /// The screen.
    pub fn view<'a>(&'a self, s: &'a Strings) -> Element<'a, Message> {
        let on_click: Option<fn(shirokuro_engine::Square) -> Message> =
            (self.stage == Stage::Asking).then_some(Message::SquareClicked);
        let board = canvas(Board::new(&self.scene, &self.caches, on_click)).width(Length::Fill).height(Length::Fill);
        let board = container(board).id("trainer-board").width(Length::FillPortion(3)).height(Length::Fill);
        let mut panel = Column::new().spacing(10).width(Length::FillPortion(2)).padding(10);
        panel = panel.push(text(s.trainer_title.clone()).size(20));
        panel = match self.stage {
            Stage::Setup => panel.push(self.setup(s)),
            Stage::Starting => panel.push(text(s.trainer_building.clone())),
            Stage::Asking | Stage::Correcting => panel.push(self.play(s)),
        };
        if self.session.is_some() {
            panel = panel.push(self.summary(s));
        }
        row![board, container(panel).height(Length::Fill)].spacing(10).padding(10).into()
    }

    /// The choices and Start, with why the last start failed.
    fn setup<'a>(&'a self, s: &'a Strings) -> Element<'a, Message> {
        let plan = self.plan;
        let mut items = Column::new().spacing(6);
        if let Some(problem) = self.problem {
            let why = match problem {
                StartError::NoBook => &s.trainer_no_book,
                StartError::BookBusy => &s.trainer_book_busy,
                StartError::OutOfBook => &s.trainer_out_of_book,
                StartError::Stopped => &s.trainer_stopped,
                StartError::NoLines => &s.trainer_no_lines,
                StartError::BadLine => &s.trainer_bad_line,
            };
            items = items.push(text(why.clone()));
        } else if self.session.is_some() {
            items = items.push(text(s.trainer_ended.clone()));
        } else {
            items = items.push(text(s.trainer_intro.clone()));
        }
        let source = |label: &str, source: Source| radio(label.to_owned(), source, Some(plan.source), Message::Source);
        items = items.push(source(&s.trainer_source_book, Source::Book));
        items = items.push(source(&s.trainer_source_lines, Source::MyLines));
        let side = |color: Color| radio(color_name(s, color), color, Some(plan.side), Message::Side);
        items = items.push(text(s.trainer_side.clone()));
        items = items.push(row![side(Color::Black), side(Color::White)].spacing(20));
        items = items.push(text(fill(&s.trainer_depth, &[&plan.depth])));
        items = items.push(slider(DEPTHS, plan.depth, Message::Depth));
        items = items.push(text(fill(&s.trainer_error, &[&plan.error])));
        items = items.push(slider(ERRORS, plan.error, Message::Error));
        items = items.push(text(fill(&s.trainer_variation, &[&plan.variation])));
        items = items.push(slider(VARIATIONS, plan.variation, Message::Variation));
        let start = button(text(s.trainer_start.clone())).on_press(Message::Start);
        items.push(container(start).id("trainer-start")).into()
    }

    /// The prompt or the correction, the verdict on the last answer, Continue and End.
    fn play<'a>(&'a self, s: &'a Strings) -> Element<'a, Message> {
        let mut items = Column::new().spacing(6);
        if let Some(feedback) = &self.feedback {
            let verdict = &feedback.verdict;
            let line = if verdict.correct {
                match verdict.loss.filter(|loss| *loss > 0) {
                    Some(loss) => fill(&s.trainer_right_not_best, &[&verdict.best, &loss]),
                    None => s.trainer_right.clone(),
                }
            } else {
                match verdict.loss {
                    Some(loss) => fill(&s.trainer_wrong_loss, &[&verdict.best, &loss]),
                    None => fill(&s.trainer_not_in_repertoire, &[&feedback.played, &verdict.best]),
                }
            };
            items = items.push(text(line).size(16));
            if self.stage == Stage::Correcting {
                items = items.push(text(s.trainer_shown.clone()));
            } else if feedback.line_done {
                items = items.push(text(s.trainer_line_done.clone()));
            }
        }
        if self.stage == Stage::Asking {
            items = items.push(text(fill(&s.trainer_your_move, &[&color_name(s, self.plan.side)])));
        }
        let go_on = button(text(s.trainer_continue.clone()))
            .on_press_maybe((self.stage == Stage::Correcting).then_some(Message::Continue));
        let end = button(text(s.trainer_end.clone())).on_press(Message::End);
        items.push(row![go_on, end].spacing(10)).into()
    }

    /// The session's totals and the deck's counts.
    fn summary<'a>(&'a self, s: &'a Strings) -> Element<'a, Message> {
        let mut items = column![].spacing(4);
        let Some(session) = &self.session else { return items.into() };
        let summary = session.summary();
        items = items.push(text(fill(&s.trainer_session, &[&summary.cards_done, &summary.right])));
        if let Some(retention) = summary.retention {
            items = items.push(text(fill(&s.trainer_retention, &[&format!("{:.0}", retention * 100.0)])));
        }
        if let Some(due) = summary.next_due {
            let now = Utc::now();
            let when = if due <= now {
                s.trainer_due_now.clone()
            } else {
                due.with_timezone(&Local).format("%Y-%m-%d %H:%M").to_string()
            };
            items = items.push(text(fill(&s.trainer_next_due, &[&when])));
            if due > now && self.stage != Stage::Setup {
                items = items.push(text(s.trainer_extra.clone()));
            }
        }
        if let Some(counts) = self.counts {
            items =
                items.push(text(fill(&s.trainer_deck, &[&counts.total, &counts.new, &counts.learning, &counts.due])));
        }
        items.into()
    }
}

/// The book's moves of the card answered wrongly, with their values for the student; the accepted ones are marked
/// as best, so the book's move stands out (every equivalent square of a position symmetric in itself).
pub(super) fn correction_marks(repertoire: &Repertoire, position: &Position, verdict: &Verdict) -> Vec<HintMark> {
    let mark = |square: Square, value: i32| HintMark {
        square,
        value,
        label: String::new(),
        best: verdict.expected.contains(&Move::Place(square)),
        tone: None,
    };
    let values = repertoire.card_of(&verdict.card).map(|card| card.values.as_slice()).unwrap_or_default();
    let mut marks: Vec<HintMark> = values
        .iter()
        .flat_map(|&(canonical, value)| CardKey::moves_of(position, canonical).into_iter().map(move |mv| (mv, value)))
        .filter_map(|(mv, value)| mv.square().map(|square| mark(square, value)))
        .collect();
    if let Some(square) = verdict.best.square().filter(|square| marks.iter().all(|m| m.square != *square)) {
        marks.push(HintMark { best: true, ..mark(square, 0) });
    }
    marks
}
