//! Display ▸ Study Progress: what the study history holds over the last 90 days, drawn with plotters — the quiz
//! rating after each answer (a line), and each day's quiz answers and card answers (bars), with the share answered
//! right in the text beside them.

use std::time::Duration;

use chrono::{Local, Offset, Utc};
use iced::widget::canvas::{Cache, Frame, Geometry};
use iced::widget::{Column, column, container, text};
use iced::{Element, Length, Size, Task};
use plotters::element::Rectangle as Bar;
use plotters::prelude::*;
use plotters_iced2::{Chart, ChartWidget, Renderer};

use super::history::{self, HistoryError, ProgressData};
use super::{Env, Step};
use crate::i18n::{Strings, fill};
use crate::notice::Notice;

/// How far back the screen looks.
pub const DAYS: i64 = 90;

/// Messages of the progress screen.
#[derive(Debug, Clone)]
pub enum Message {
    /// The history was read (or not).
    Read(Result<ProgressData, HistoryError>),
}

/// The study progress.
#[derive(Debug)]
pub struct Progress {
    data: Option<ProgressData>,
    rating_cache: Cache,
    days_cache: Cache,
}

impl Progress {
    /// The screen, reading the history.
    pub fn new(env: &Env) -> (Progress, Task<Message>) {
        let to = Utc::now() + Duration::from_secs(60);
        let from = to - chrono::Duration::days(DAYS);
        let offset = Local::now().offset().fix().local_minus_utc();
        let task = Task::perform(history::progress(env.study_file.clone(), from, to, offset), Message::Read);
        (Progress { data: None, rating_cache: Cache::default(), days_cache: Cache::default() }, task)
    }

    /// Handles `message`.
    pub fn update(&mut self, message: Message) -> Step<Message> {
        match message {
            Message::Read(Ok(data)) => {
                self.data = Some(data);
                self.rating_cache.clear();
                self.days_cache.clear();
                Step::none()
            }
            Message::Read(Err(error)) => {
                self.data = Some(ProgressData::default());
                Step::notice(Notice::StudyFailed { error })
            }
        }
    }

    /// What was read.
    #[must_use]
    pub fn data(&self) -> Option<&ProgressData> {
        self.data.as_ref()
    }

    /// The screen.
    pub fn view<'a>(&'a self, s: &'a Strings) -> Element<'a, Message> {
        let mut page = Column::new().spacing(8).padding(10).push(text(fill(&s.progress_title, &[&DAYS])).size(20));
        let Some(data) = &self.data else {
            return page.push(text(s.progress_reading.clone())).into();
        };
        if data.ratings.is_empty() && data.days.is_empty() {
            return page.push(text(s.progress_empty.clone())).into();
        }
        let (quiz, cards) = data.days.iter().fold(((0, 0), (0, 0)), |(q, c), day| {
            ((q.0 + day.quiz.answered, q.1 + day.quiz.right), (c.0 + day.cards.answered, c.1 + day.cards.right))
        });
        let percent = |(answered, right): (u64, u64)| (right * 100).checked_div(answered).unwrap_or(0);
        page = page.push(text(fill(&s.progress_quiz_total, &[&quiz.0, &percent(quiz)])));
        page = page.push(text(fill(&s.progress_cards_total, &[&cards.0, &percent(cards)])));
        if let Some(last) = data.ratings.last() {
            page = page.push(text(fill(&s.progress_rating_now, &[&format!("{:.0}", last.rating.rating)])));
        }
        let rating = ChartWidget::new(RatingChart { data, cache: &self.rating_cache })
            .width(Length::Fill)
            .height(Length::FillPortion(1));
        let days = ChartWidget::new(DaysChart { data, cache: &self.days_cache })
            .width(Length::Fill)
            .height(Length::FillPortion(1));
        page = page.push(
            container(column![text(s.progress_rating_axis.clone()), rating].spacing(4)).height(Length::FillPortion(1)),
        );
        page = page.push(
            container(column![text(s.progress_days_axis.clone()), days].spacing(4)).height(Length::FillPortion(1)),
        );
        page.into()
    }
}

/// A tick's label when it falls on a whole number (answers and days are counted), else none.
fn whole(value: &f64) -> String {
    if (value - value.round()).abs() < 1e-6 { format!("{value:.0}") } else { String::new() }
}

fn label_style() -> TextStyle<'static> {
    ("sans-serif", 12).into_font().color(&RGBColor(200, 205, 200))
}

/// The rating after each quiz answer, by answer number.
struct RatingChart<'a> {
    data: &'a ProgressData,
    cache: &'a Cache,
}

impl<M> Chart<M> for RatingChart<'_> {
    type State = ();

    fn draw<R: Renderer, F: Fn(&mut Frame)>(&self, renderer: &R, size: Size, draw_fn: F) -> Geometry {
        renderer.draw_cache(self.cache, size, draw_fn)
    }

    fn build_chart<DB: DrawingBackend>(&self, _state: &(), mut builder: ChartBuilder<'_, '_, DB>) {
        let points: Vec<(f64, f64)> =
            self.data.ratings.iter().enumerate().map(|(i, p)| ((i + 1) as f64, p.rating.rating)).collect();
        let low = points.iter().map(|p| p.1).fold(f64::INFINITY, f64::min).min(1400.0) - 50.0;
        let high = points.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max).max(1600.0) + 50.0;
        let count = points.len().max(2) as f64;
        let Ok(mut chart) =
            builder.margin(8).x_label_area_size(20).y_label_area_size(44).build_cartesian_2d(1f64..count, low..high)
        else {
            return;
        };
        let _ = chart
            .configure_mesh()
            .x_labels(6)
            .y_labels(5)
            .x_label_formatter(&whole)
            .y_label_formatter(&|y| format!("{y:.0}"))
            .label_style(label_style())
            .bold_line_style(WHITE.mix(0.12))
            .light_line_style(TRANSPARENT)
            .draw();
        let line = RGBColor(120, 200, 255);
        let _ = chart.draw_series(LineSeries::new(points.iter().copied(), line.stroke_width(2)));
        let _ = chart.draw_series(points.iter().map(|p| Circle::new(*p, 2, line.filled())));
    }
}

/// Each day's quiz answers and card answers as two bars (right answers solid, wrong ones faint).
struct DaysChart<'a> {
    data: &'a ProgressData,
    cache: &'a Cache,
}

impl<M> Chart<M> for DaysChart<'_> {
    type State = ();

    fn draw<R: Renderer, F: Fn(&mut Frame)>(&self, renderer: &R, size: Size, draw_fn: F) -> Geometry {
        renderer.draw_cache(self.cache, size, draw_fn)
    }

    fn build_chart<DB: DrawingBackend>(&self, _state: &(), mut builder: ChartBuilder<'_, '_, DB>) {
        let days = &self.data.days;
        let top = days.iter().map(|d| d.quiz.answered.max(d.cards.answered)).max().unwrap_or(1).max(1) as f64;
        let first = days.first().map(|d| d.day);
        let index = |day: chrono::NaiveDate| first.map_or(0.0, |f| (day - f).num_days() as f64);
        let span = days.last().map_or(1.0, |d| index(d.day) + 1.0).max(1.0);
        let Ok(mut chart) = builder
            .margin(8)
            .x_label_area_size(20)
            .y_label_area_size(44)
            .build_cartesian_2d(0f64..span, 0f64..top * 1.1)
        else {
            return;
        };
        let names: Vec<(f64, String)> =
            days.iter().map(|d| (index(d.day), d.day.format("%m-%d").to_string())).collect();
        let _ = chart
            .configure_mesh()
            .x_labels(6)
            .y_labels(5)
            .x_label_formatter(&|x| {
                names.iter().find(|(i, _)| (i - x).abs() < 0.01).map(|(_, n)| n.clone()).unwrap_or_default()
            })
            .y_label_formatter(&whole)
            .label_style(label_style())
            .bold_line_style(WHITE.mix(0.12))
            .light_line_style(TRANSPARENT)
            .draw();
        let quiz = RGBColor(120, 200, 255);
        let cards = RGBColor(240, 190, 90);
        for day in days {
            let x = index(day.day);
            for (offset, counts, color) in [(0.1, day.quiz, quiz), (0.5, day.cards, cards)] {
                let (answered, right) = (counts.answered as f64, counts.right as f64);
                let _ = chart.draw_series([
                    Bar::new([(x + offset, 0.0), (x + offset + 0.38, answered)], color.mix(0.35).filled()),
                    Bar::new([(x + offset, 0.0), (x + offset + 0.38, right)], color.filled()),
                ]);
            }
        }
    }
}
