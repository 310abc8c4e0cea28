//! The evaluation graph (plotters through plotters-iced2): x = ply 0–60, y = predicted final disc difference with
//! Black up; the main line, the fork, the level's search plan as coloured column bands, and the current ply as a
//! vertical line that can be clicked or dragged. In Egaroucid's "Sum of Loss" mode it draws each player's
//! accumulated loss instead, from 0 downwards: Black's line black, White's white (the fork's grey).

use iced::mouse;
use iced::widget::canvas::{Cache, Event, Frame, Geometry};
use iced::{Rectangle, Size};
use plotters::element::Rectangle as Bar;
use plotters::prelude::*;
use plotters_iced2::{Chart, Renderer};
use shirokuro_engine::level::{Level, SearchPlan};

/// Outer margin of the plot, in pixels.
const MARGIN: f32 = 8.0;
/// Width of the y-label area.
const Y_LABELS: f32 = 30.0;
/// Height of the x-label area.
const X_LABELS: f32 = 20.0;

/// What the graph shows, kept by the screen and rebuilt only when a value or the level changes.
#[derive(Default)]
pub struct EvalChart {
    main: Vec<Option<i32>>,
    fork: Option<(usize, Vec<Option<i32>>)>,
    /// In Sum of Loss mode: (Black's, White's) accumulated loss by ply, on the main line and on the fork's line.
    losses: Option<Losses>,
    current: usize,
    level: Option<Level>,
    alt_palette: bool,
    /// The ply a random board was generated at: the line before it is drawn grey, the position ringed.
    random_start: Option<usize>,
    /// Game ▸ Review's marks: a coloured ring on the main line at each graded error's ply.
    marks: Vec<(usize, iced::Color)>,
    cache: Cache,
}

impl std::fmt::Debug for EvalChart {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EvalChart").field("main", &self.main).field("fork", &self.fork).finish_non_exhaustive()
    }
}

/// (Black's, White's) accumulated loss at each ply of a line; `None` where unknown.
pub type LossSums = Vec<Option<(i32, i32)>>;

/// Each player's accumulated loss by ply (zero or negative), on the main line and, from its first ply, on the fork.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Losses {
    /// The main line's sums.
    pub main: LossSums,
    /// The fork's sums (the main line's up to the fork, then the fork's), with the ply it leaves the main line.
    pub fork: Option<(usize, LossSums)>,
}

impl EvalChart {
    /// Draws the accumulated losses instead of the values (Sum of Loss), or the values again with `None`.
    pub fn set_losses(&mut self, losses: Option<Losses>) {
        self.losses = losses;
        self.cache.clear();
    }

    /// Replaces the data: main-line values by ply, the fork (first ply, values), the current ply, the level whose plan
    /// is drawn and the palette.
    pub fn set(
        &mut self,
        main: Vec<Option<i32>>,
        fork: Option<(usize, Vec<Option<i32>>)>,
        current: usize,
        level: Level,
        alt_palette: bool,
        random_start: Option<usize>,
    ) {
        self.random_start = random_start;
        self.main = main;
        self.fork = fork;
        self.current = current;
        self.level = Some(level);
        self.alt_palette = alt_palette;
        self.cache.clear();
    }

    /// The review's marks (ply, colour), drawn on the main line's values.
    pub fn set_marks(&mut self, marks: Vec<(usize, iced::Color)>) {
        if marks != self.marks {
            self.marks = marks;
            self.cache.clear();
        }
    }

    /// A view of the chart that reports clicks and drags as `on_pick(ply)`.
    pub fn view<Message>(&self, on_pick: fn(usize) -> Message) -> ChartView<'_, Message> {
        ChartView { chart: self, on_pick }
    }
}

/// The colour of a search-plan band for selectivity index `index` (0 = 74 % … 6 = exact).
#[must_use]
pub fn band_color(index: u8, alt_palette: bool) -> iced::Color {
    // The second palette is Okabe–Ito, distinguishable with the common colour-vision deficiencies.
    const NORMAL: [(u8, u8, u8); 7] =
        [(60, 90, 160), (70, 140, 170), (60, 160, 120), (150, 170, 60), (200, 140, 50), (210, 100, 60), (190, 60, 60)];
    const ALT: [(u8, u8, u8); 7] =
        [(0, 114, 178), (86, 180, 233), (0, 158, 115), (240, 228, 66), (230, 159, 0), (213, 94, 0), (204, 121, 167)];
    let table = if alt_palette { &ALT } else { &NORMAL };
    let (r, g, b) = table[usize::from(index.min(6))];
    iced::Color::from_rgb8(r, g, b)
}

/// The selectivity index the level's plan uses at `ply` (standard start: 60 − ply empties).
fn plan_index(level: Level, ply: usize) -> u8 {
    plan_at(level, ply).selectivity().index()
}

/// The level's plan at `ply` (standard start: 60 − ply empties).
fn plan_at(level: Level, ply: usize) -> SearchPlan {
    level.plan(u8::try_from(60usize.saturating_sub(ply)).unwrap_or(0))
}

/// The chart widget's program.
pub struct ChartView<'a, Message> {
    chart: &'a EvalChart,
    on_pick: fn(usize) -> Message,
}

/// Mouse state: whether the left button went down on the chart.
#[derive(Debug, Default)]
pub struct Drag(bool);

/// The ply under pixel column `x` of a chart `width` wide.
#[must_use]
pub fn ply_at(x: f32, width: f32) -> usize {
    let left = MARGIN + Y_LABELS;
    let right = (width - MARGIN).max(left + 1.0);
    let t = ((x - left) / (right - left)).clamp(0.0, 1.0);
    // t is in 0..=1, so the rounded product is in 0..=60.
    (t * 60.0).round() as usize
}

fn to_rgb(color: iced::Color, alpha: f64) -> RGBAColor {
    let [r, g, b, _] = color.into_rgba8();
    RGBAColor(r, g, b, alpha)
}

impl<Message> Chart<Message> for ChartView<'_, Message> {
    type State = Drag;

    fn draw<R: Renderer, F: Fn(&mut Frame)>(&self, renderer: &R, size: Size, draw_fn: F) -> Geometry {
        renderer.draw_cache(&self.chart.cache, size, draw_fn)
    }

    fn build_chart<DB: DrawingBackend>(&self, _state: &Drag, mut builder: ChartBuilder<'_, '_, DB>) {
        let chart_data = self.chart;
        let extent = match &chart_data.losses {
            Some(losses) => losses
                .main
                .iter()
                .chain(losses.fork.iter().flat_map(|(_, sums)| sums.iter()))
                .flatten()
                .map(|(black, white)| black.abs().max(white.abs()))
                .max()
                .unwrap_or(0),
            None => chart_data
                .main
                .iter()
                .chain(chart_data.fork.iter().flat_map(|(_, values)| values.iter()))
                .flatten()
                .map(|v| v.abs())
                .max()
                .unwrap_or(0),
        };
        let mut range = 8;
        while range < extent && range < 128 {
            range *= 2;
        }
        // Sum of Loss starts at 0 at the top and goes down (a little room above 0 keeps the level's bar off the lines).
        let (low, high) = if chart_data.losses.is_some() {
            (-f64::from(range), f64::from(range) * 0.08)
        } else {
            (-f64::from(range), f64::from(range))
        };
        let Ok(mut chart) = builder
            .margin(MARGIN as i32)
            .x_label_area_size(X_LABELS as i32)
            .y_label_area_size(Y_LABELS as i32)
            .build_cartesian_2d(0f64..60f64, low..high)
        else {
            return;
        };
        let label_color = RGBColor(200, 205, 200);
        let _ = chart
            .configure_mesh()
            .x_labels(7)
            .y_labels(5)
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| format!("{:+.0}", y))
            .label_style(("sans-serif", 12).into_font().color(&label_color))
            .axis_style(label_color.mix(0.6))
            .bold_line_style(WHITE.mix(0.12))
            .light_line_style(TRANSPARENT)
            .draw();
        if let Some(level) = chart_data.level {
            let bands = (0..60usize).map(|ply| {
                let color = to_rgb(band_color(plan_index(level, ply), chart_data.alt_palette), 0.28);
                Bar::new([(ply as f64, low), (ply as f64 + 1.0, high)], color.filled())
            });
            let _ = chart.draw_series(bands);
            // Egaroucid's bar along the top: dark where the level searches the midgame, light where it searches to
            // the end of the game.
            let top = high - (high - low) * 0.035;
            let bar = (0..60usize).map(|ply| {
                let color = if plan_at(level, ply).is_endgame() { WHITE.mix(0.75) } else { BLACK.mix(0.6) };
                Bar::new([(ply as f64, top), (ply as f64 + 1.0, high)], color.filled())
            });
            let _ = chart.draw_series(bar);
        }
        let _ = chart.draw_series(LineSeries::new([(0.0, 0.0), (60.0, 0.0)], WHITE.mix(0.5).stroke_width(2)));
        let x = chart_data.current as f64;
        let cursor = LineSeries::new([(x, low), (x, high)], RGBColor(255, 220, 90).stroke_width(2));
        if let Some(losses) = &chart_data.losses {
            draw_losses(&mut chart, losses);
            let _ = chart.draw_series(cursor);
            return;
        }
        let points = |start: usize, values: &[Option<i32>]| -> Vec<(f64, f64)> {
            values.iter().enumerate().filter_map(|(i, v)| v.map(|v| ((start + i) as f64, f64::from(v)))).collect()
        };
        let main = points(0, &chart_data.main);
        let main_style = RGBColor(245, 245, 245);
        // Before a random board's generated position the line is only how it was made: grey, as Egaroucid draws it.
        let (made, played) = split_at(&main, chart_data.random_start);
        let made_style = RGBColor(140, 140, 140);
        let _ = chart.draw_series(LineSeries::new(made.iter().copied(), made_style.stroke_width(2)));
        let _ = chart.draw_series(made.iter().map(|p| Circle::new(*p, 3, made_style.filled())));
        let _ = chart.draw_series(LineSeries::new(played.iter().copied(), main_style.stroke_width(2)));
        let _ = chart.draw_series(played.iter().map(|p| Circle::new(*p, 3, main_style.filled())));
        if let Some(start) = chart_data.random_start
            && let Some(p) = main.iter().find(|p| p.0 as usize == start)
        {
            let _ = chart.draw_series([Circle::new(*p, 7, main_style.stroke_width(2))]);
        }
        for (ply, color) in &chart_data.marks {
            if let Some(p) = main.iter().find(|p| p.0 as usize == *ply) {
                let _ = chart.draw_series([Circle::new(*p, 6, to_rgb(*color, 1.0).stroke_width(3))]);
            }
        }
        if let Some((from, values)) = &chart_data.fork {
            let mut fork = points(*from + 1, values);
            if let Some(Some(v)) = chart_data.main.get(*from) {
                fork.insert(0, (*from as f64, f64::from(*v)));
            }
            let fork_style = RGBColor(20, 20, 20);
            let _ = chart.draw_series(LineSeries::new(fork.iter().copied(), fork_style.stroke_width(2)));
            let _ = chart.draw_series(fork.iter().map(|p| Circle::new(*p, 3, fork_style.filled())));
        }
        let _ = chart.draw_series(cursor);
    }

    fn update(
        &self,
        state: &mut Drag,
        event: &Event,
        bounds: Rectangle,
        cursor: mouse::Cursor,
    ) -> (iced::event::Status, Option<Message>) {
        let pick = |point: iced::Point| Some((self.on_pick)(ply_at(point.x, bounds.width)));
        match event {
            Event::Mouse(mouse::Event::ButtonPressed(mouse::Button::Left)) => match cursor.position_in(bounds) {
                Some(point) => {
                    state.0 = true;
                    (iced::event::Status::Captured, pick(point))
                }
                None => (iced::event::Status::Ignored, None),
            },
            Event::Mouse(mouse::Event::CursorMoved { .. }) if state.0 => match cursor.position_in(bounds) {
                Some(point) => (iced::event::Status::Captured, pick(point)),
                None => (iced::event::Status::Ignored, None),
            },
            Event::Mouse(mouse::Event::ButtonReleased(mouse::Button::Left)) => {
                state.0 = false;
                (iced::event::Status::Ignored, None)
            }
            _ => (iced::event::Status::Ignored, None),
        }
    }

    fn mouse_interaction(&self, _state: &Drag, bounds: Rectangle, cursor: mouse::Cursor) -> mouse::Interaction {
        if cursor.is_over(bounds) { mouse::Interaction::ResizingHorizontally } else { mouse::Interaction::default() }
    }
}

/// Points of a line on the graph: (ply, value).
type Points = Vec<(f64, f64)>;

/// Black's and White's accumulated losses from `sums` (ply by ply from `start`) as two lines of points.
fn loss_points(start: usize, sums: &[Option<(i32, i32)>]) -> (Points, Points) {
    let known = || sums.iter().enumerate().filter_map(move |(i, s)| s.map(|s| ((start + i) as f64, s)));
    (known().map(|(x, s)| (x, f64::from(s.0))).collect(), known().map(|(x, s)| (x, f64::from(s.1))).collect())
}

/// Sum of Loss: the fork's lines first (grey, under), then the main line's (Black's black, White's white).
fn draw_losses<DB: DrawingBackend>(
    chart: &mut ChartContext<
        '_,
        DB,
        Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
    >,
    losses: &Losses,
) {
    let mut lines = Vec::new();
    if let Some((from, sums)) = &losses.fork {
        let (black, white) = loss_points(0, sums);
        let after = |points: Points| points.into_iter().filter(|p| p.0 >= *from as f64).collect::<Points>();
        lines.push((after(black), RGBColor(105, 105, 105)));
        lines.push((after(white), RGBColor(192, 192, 192)));
    }
    let (black, white) = loss_points(0, &losses.main);
    // Black's line gets a light halo: it would vanish on the dark bands.
    let _ = chart.draw_series(LineSeries::new(black.iter().copied(), RGBColor(200, 200, 200).stroke_width(5)));
    let _ = chart.draw_series(black.iter().map(|p| Circle::new(*p, 4, RGBColor(200, 200, 200).filled())));
    lines.push((black, RGBColor(20, 20, 20)));
    lines.push((white, RGBColor(245, 245, 245)));
    for (points, color) in lines {
        let _ = chart.draw_series(LineSeries::new(points.iter().copied(), color.stroke_width(2)));
        let _ = chart.draw_series(points.iter().map(|p| Circle::new(*p, 3, color.filled())));
    }
}

/// The points up to and including ply `start` and those from it on (both hold the start, so the lines meet); all
/// points are "played" without a start.
fn split_at(points: &[(f64, f64)], start: Option<usize>) -> (Points, Points) {
    match start {
        None => (Vec::new(), points.to_vec()),
        Some(start) => {
            let at = start as f64;
            (
                points.iter().copied().filter(|p| p.0 <= at).collect(),
                points.iter().copied().filter(|p| p.0 >= at).collect(),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_random_start_splits_the_line_where_both_parts_meet() {
        let points = [(0.0, 0.0), (1.0, 2.0), (2.0, -1.0), (3.0, 4.0)];
        assert_eq!(split_at(&points, None), (vec![], points.to_vec()));
        let (made, played) = split_at(&points, Some(2));
        assert_eq!(made, [(0.0, 0.0), (1.0, 2.0), (2.0, -1.0)]);
        assert_eq!(played, [(2.0, -1.0), (3.0, 4.0)]);
    }

    #[test]
    fn pixel_columns_map_to_plies() {
        let width = 38.0 + 600.0 + 8.0;
        assert_eq!(ply_at(0.0, width), 0);
        assert_eq!(ply_at(38.0, width), 0);
        assert_eq!(ply_at(38.0 + 300.0, width), 30);
        assert_eq!(ply_at(38.0 + 600.0, width), 60);
        assert_eq!(ply_at(5000.0, width), 60);
    }

    #[test]
    fn the_plan_of_level_one_is_midgame_then_exact() {
        let level = Level::clamped(1);
        assert_eq!(plan_index(level, 0), 6); // levels 1-10 use no Multi-ProbCut: index 6 throughout
        let level = Level::clamped(21);
        assert_ne!(plan_index(level, 0), plan_index(level, 59));
    }
}
