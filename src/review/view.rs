//! The review panel: the summary of each player, the move at the cursor with the better move, the graded move list
//! and the navigation buttons.

use iced::widget::{Column, Row, button, column, container, row, scrollable, text};
use iced::{Alignment, Element, Length};
use shirokuro_engine::Color;
use shirokuro_engine::review::{Grade, MoveReview, PlayerSummary};

use super::{Message, Review, grade_color, move_text};
use crate::i18n::{Strings, fill};

/// How many moves of the better line are shown.
const LINE_MOVES: usize = 10;

/// A grade's name in the current language.
#[must_use]
pub fn grade_name(s: &Strings, grade: Grade) -> &str {
    match grade {
        Grade::Book => &s.grade_book,
        Grade::Best => &s.grade_best,
        Grade::Good => &s.grade_good,
        Grade::Inaccuracy => &s.grade_inaccuracy,
        Grade::Mistake => &s.grade_mistake,
        Grade::Blunder => &s.grade_blunder,
    }
}

/// A colour's name.
#[must_use]
pub fn color_name(s: &Strings, color: Color) -> &str {
    match color {
        Color::Black => &s.black,
        Color::White => &s.white,
    }
}

/// One player's summary in two lines: the loss and the grade counts, then the loss by phase.
#[must_use]
pub fn summary_lines(s: &Strings, color: Color, summary: &PlayerSummary) -> [String; 2] {
    let count = |g: Grade| summary.counts[g.index()];
    let [opening, midgame, endgame] = summary.loss_by_phase;
    [
        fill(&s.review_player, &[&color_name(s, color), &summary.total_loss, &summary.moves]),
        format!(
            "{}; {}",
            fill(
                &s.review_counts,
                &[
                    &count(Grade::Best),
                    &count(Grade::Good),
                    &count(Grade::Inaccuracy),
                    &count(Grade::Mistake),
                    &count(Grade::Blunder),
                    &count(Grade::Book)
                ]
            ),
            fill(&s.review_phases, &[&opening, &midgame, &endgame])
        ),
    ]
}

/// A graded move in one line: "Move 23 e3 (White): mistake, lost 7".
#[must_use]
pub fn move_line(s: &Strings, review: &MoveReview) -> String {
    let played = review.played.to_lowercase();
    let grade = grade_name(s, review.grade);
    fill(&s.review_move, &[&review.ply, &played, &color_name(s, review.mover), &grade, &review.loss])
}

/// The better move and its line, when the move lost discs.
#[must_use]
pub fn better_line(s: &Strings, review: &MoveReview) -> Option<String> {
    let best = review.best.filter(|_| review.loss > 0)?;
    let line: Vec<String> = review.best_line.iter().take(LINE_MOVES).map(|m| move_text(*m)).collect();
    Some(fill(&s.review_better, &[&move_text(best), &line.join(" ")]))
}

/// The panel for the position at `ply`.
pub fn view<'a, M: Clone + 'a>(
    review: &'a Review,
    ply: usize,
    s: &Strings,
    on: impl Fn(Message) -> M + Copy + 'a,
) -> Element<'a, M> {
    let options = review.options();
    let mut title = row![text(fill(&s.review_title, &[&options.level.get(), &options.exact_from])).size(14)]
        .spacing(8)
        .align_y(Alignment::Center);
    if review.is_running() {
        let (done, total) = review.progress();
        title = title.push(text(fill(&s.review_progress, &[&done, &total])).size(12));
    }
    let previous = review.error_from(ply, false).map(|_| on(Message::PreviousMistake));
    let next = review.error_from(ply, true).map(|_| on(Message::NextMistake));
    let buttons = row![
        container(button(text(s.review_previous.clone()).size(12)).on_press_maybe(previous)).id("review-previous"),
        container(button(text(s.review_next.clone()).size(12)).on_press_maybe(next)).id("review-next"),
        button(text(s.review_export.clone()).size(12))
            .on_press_maybe((!review.is_running()).then(|| on(Message::Export))),
        button(text(s.review_close.clone()).size(12)).on_press(on(Message::Close)),
    ]
    .spacing(4);
    let mut panel = Column::new().spacing(3).push(title).push(buttons);
    for (color, summary) in [Color::Black, Color::White].into_iter().zip(review.summaries()) {
        let [first, second] = summary_lines(s, color, &summary);
        panel = panel.push(text(first).size(12)).push(text(second).size(11));
    }
    let at_cursor = match review.move_from(ply) {
        Some(graded) => {
            let mut lines = column![text(move_line(s, graded)).size(13).color(grade_color(graded.grade))];
            if let Some(better) = better_line(s, graded) {
                lines = lines.push(text(better).size(12));
            }
            lines
        }
        None => column![text(s.review_no_move.clone()).size(12)],
    };
    panel = panel.push(container(at_cursor).id("review-move"));
    let moves: Vec<Element<'a, M>> = review
        .graded()
        .iter()
        .flatten()
        .map(|graded| {
            let label = format!("{}.{}{}", graded.ply, graded.played.to_lowercase(), graded.grade.mark());
            let loss = if graded.loss > 0 { format!(" -{}", graded.loss) } else { String::new() };
            let color = grade_color(graded.grade);
            button(text(format!("{label}{loss}")).size(11).color(color))
                .padding([1, 3])
                .style(button::text)
                .on_press(on(Message::Goto(graded.ply)))
                .into()
        })
        .collect();
    let list = scrollable(Row::with_children(moves).spacing(2).wrap()).height(Length::Fixed(70.0));
    panel.push(list).into()
}
