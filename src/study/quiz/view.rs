//! The quiz screen: the board on the left; on the right the question or the verdict with every move's value, the
//! session's score, streak and rating, and the settings.

use iced::widget::{Column, button, canvas, column, container, row, slider, text};
use iced::{Element, Length};
use shirokuro_engine::Move;

use super::{ANSWER_LEVEL, EMPTIES, EXACT_FROM, Message, Quiz, SCORE_RANGES, Stage};
use crate::i18n::{Strings, fill};
use crate::review::view::color_name;
use crate::widget::board::Board;

/// "d3 e6" for a list of moves.
fn moves_text(moves: &[Move]) -> String {
    moves.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ")
}

/// A value with its sign: "+4", "-2", "0".
fn signed(value: i32) -> String {
    if value > 0 { format!("+{value}") } else { value.to_string() }
}

impl Quiz {
    /// The screen.
    pub fn view<'a>(&'a self, s: &'a Strings) -> Element<'a, Message> {
        let clickable = self.stage == Stage::Asking;
        let on_click: Option<fn(shirokuro_engine::Square) -> Message> =
            if clickable { Some(Message::SquareClicked) } else { None };
        let board = canvas(Board::new(&self.scene, &self.caches, on_click)).width(Length::Fill).height(Length::Fill);
        let board = container(board).id("quiz-board").width(Length::FillPortion(3)).height(Length::Fill);
        let mut panel = Column::new().spacing(10).width(Length::FillPortion(2)).padding(10);
        panel = panel.push(text(s.quiz_title.clone()).size(20));
        panel = panel.push(self.question(s));
        let next = button(text(s.quiz_next.clone()))
            .on_press_maybe(matches!(self.stage, Stage::Answered(..)).then_some(Message::Next));
        panel = panel.push(next);
        if let Some(session) = &self.session {
            let summary = session.summary();
            panel = panel.push(text(fill(&s.quiz_session, &[&summary.answered, &summary.right, &summary.points])));
            panel = panel.push(text(fill(&s.quiz_streak, &[&session.streak(), &summary.best_streak])));
            let rating = session.rating();
            panel = panel.push(text(fill(
                &s.quiz_rating,
                &[
                    &format!("{:.0}", rating.rating),
                    &format!("{:.0}", rating.deviation),
                    &format!("{:+.0}", summary.rating_change()),
                ],
            )));
        }
        panel = panel.push(self.settings_view(s));
        row![board, container(panel).height(Length::Fill)].spacing(10).padding(10).into()
    }

    /// The question, or the verdict on the answer.
    fn question<'a>(&'a self, s: &'a Strings) -> Element<'a, Message> {
        match &self.stage {
            Stage::Starting | Stage::Waiting => text(s.quiz_preparing.clone()).into(),
            Stage::Asking => {
                let side = self.scene_side();
                text(fill(&s.quiz_find_best, &[&color_name(s, side)])).size(16).into()
            }
            Stage::Answered(outcome, played) => {
                let verdict = if outcome.correct { &s.quiz_right } else { &s.quiz_wrong };
                let best_value = outcome.values.iter().find(|(m, _)| outcome.best_moves.contains(m)).map(|(_, v)| *v);
                let played_value = outcome.values.iter().find(|(m, _)| m == played).map(|(_, v)| *v);
                let mut lines = column![text(verdict.clone()).size(16)].spacing(4);
                lines = lines.push(text(fill(
                    &s.quiz_best,
                    &[&moves_text(&outcome.best_moves), &best_value.map(signed).unwrap_or_default()],
                )));
                lines =
                    lines.push(text(fill(&s.quiz_played, &[played, &played_value.map(signed).unwrap_or_default()])));
                lines = lines.push(text(fill(&s.quiz_points, &[&outcome.points])));
                if outcome.retry {
                    lines = lines.push(text(s.quiz_retry.clone()));
                }
                lines.into()
            }
        }
    }

    /// The empties and the score range (each change starts a new session).
    fn settings_view<'a>(&'a self, s: &'a Strings) -> Element<'a, Message> {
        let settings = self.settings;
        let how = if settings.empties <= EXACT_FROM {
            s.quiz_exact_note.clone()
        } else {
            fill(&s.quiz_search_note, &[&ANSWER_LEVEL.get()])
        };
        column![
            text(format!("{} — {how}", fill(&s.quiz_empties, &[&settings.empties]))),
            slider(EMPTIES, settings.empties, Message::Empties),
            text(fill(&s.quiz_score_range, &[&settings.score])),
            slider(SCORE_RANGES, settings.score, Message::Score),
        ]
        .spacing(4)
        .into()
    }

    fn scene_side(&self) -> shirokuro_engine::Color {
        if self.scene.black_to_move { shirokuro_engine::Color::Black } else { shirokuro_engine::Color::White }
    }
}
