//! A 15-point curve to draw with the mouse (Egaroucid's Accept AI's Loss curves): one column per point, the value
//! on a ladder of steps; a click or a drag in a column puts that column's point on the step nearest the pointer.

use iced::mouse;
use iced::widget::canvas::{self, Frame, Geometry, Path, Stroke, Text};
use iced::widget::text::Alignment;
use iced::{Color, Font, Pixels, Point, Rectangle, Renderer, Size, Theme};

/// Room for the step labels on the left and the move numbers below, in pixels.
const LEFT: f32 = 34.0;
const BOTTOM: f32 = 18.0;
const TOP: f32 = 8.0;
const RIGHT: f32 = 8.0;

/// A curve: each point's step index, the steps' labels, and what a change sends.
pub struct CurveEditor<'a, Message> {
    points: Vec<usize>,
    labels: &'a [String],
    on_change: Box<dyn Fn(usize, usize) -> Message + 'a>,
}

impl<'a, Message> CurveEditor<'a, Message> {
    /// `points[i]` is point i's step (an index into `labels`, lowest step first); a change of point i to step s
    /// sends `on_change(i, s)`.
    pub fn new(points: Vec<usize>, labels: &'a [String], on_change: impl Fn(usize, usize) -> Message + 'a) -> Self {
        CurveEditor { points, labels, on_change: Box::new(on_change) }
    }

    fn plot(&self, size: Size) -> Rectangle {
        Rectangle::new(
            Point::new(LEFT, TOP),
            Size::new((size.width - LEFT - RIGHT).max(1.0), (size.height - TOP - BOTTOM).max(1.0)),
        )
    }

    /// The (point, step) under `position` (relative to the canvas), if it is over the plot's columns.
    fn pick(&self, size: Size, position: Point) -> Option<(usize, usize)> {
        pick(self.plot(size), self.points.len(), self.labels.len(), position)
    }
}

/// The (point, step) of a plot of `columns` columns and `steps` steps under `position`.
#[must_use]
pub fn pick(plot: Rectangle, columns: usize, steps: usize, position: Point) -> Option<(usize, usize)> {
    if columns == 0 || steps == 0 || position.x < plot.x || position.x >= plot.x + plot.width {
        return None;
    }
    let column = ((position.x - plot.x) / plot.width * columns as f32) as usize;
    let top_step = (steps - 1) as f32;
    let from_bottom = ((plot.y + plot.height - position.y) / plot.height).clamp(0.0, 1.0);
    let step = (from_bottom * top_step).round() as usize;
    Some((column.min(columns - 1), step.min(steps - 1)))
}

/// Whether the left button is held down (a drag sets every column it crosses).
#[derive(Debug, Default)]
pub struct Drag(bool);

impl<Message> canvas::Program<Message> for CurveEditor<'_, Message> {
    type State = Drag;

    fn update(
        &self,
        state: &mut Drag,
        event: &canvas::Event,
        bounds: Rectangle,
        cursor: mouse::Cursor,
    ) -> Option<canvas::Action<Message>> {
        let change = |cursor: mouse::Cursor| {
            let (point, step) = self.pick(bounds.size(), cursor.position_in(bounds)?)?;
            (self.points.get(point) != Some(&step)).then(|| (self.on_change)(point, step))
        };
        match event {
            canvas::Event::Mouse(mouse::Event::ButtonPressed(mouse::Button::Left)) if cursor.is_over(bounds) => {
                state.0 = true;
                Some(change(cursor).map_or_else(canvas::Action::capture, |m| canvas::Action::publish(m).and_capture()))
            }
            canvas::Event::Mouse(mouse::Event::CursorMoved { .. }) if state.0 => {
                change(cursor).map(canvas::Action::publish)
            }
            canvas::Event::Mouse(mouse::Event::ButtonReleased(mouse::Button::Left)) => {
                state.0 = false;
                None
            }
            _ => None,
        }
    }

    fn draw(
        &self,
        _state: &Drag,
        renderer: &Renderer,
        _theme: &Theme,
        bounds: Rectangle,
        _cursor: mouse::Cursor,
    ) -> Vec<Geometry> {
        let mut frame = Frame::new(renderer, bounds.size());
        let plot = self.plot(bounds.size());
        let steps = self.labels.len().max(1);
        let columns = self.points.len().max(1);
        let grid = Color::from_rgb(0.35, 0.37, 0.40);
        let ink = Color::from_rgb(0.85, 0.87, 0.85);
        let y_of = |step: usize| plot.y + plot.height - plot.height * step as f32 / (steps - 1).max(1) as f32;
        let x_of = |column: usize| plot.x + plot.width * (column as f32 + 0.5) / columns as f32;
        frame.fill_rectangle(plot.position(), plot.size(), Color::from_rgb(0.16, 0.17, 0.19));
        // A label every few steps, so that the ladder stays readable.
        let every = steps.div_ceil(8).max(1);
        for (step, label) in self.labels.iter().enumerate() {
            let y = y_of(step);
            frame.stroke(
                &Path::line(Point::new(plot.x, y), Point::new(plot.x + plot.width, y)),
                Stroke::default().with_color(grid),
            );
            if step % every == 0 || step + 1 == steps {
                frame.fill_text(Text {
                    content: label.clone(),
                    position: Point::new(plot.x - 4.0, y),
                    color: ink,
                    size: Pixels(11.0),
                    font: Font::DEFAULT,
                    align_x: Alignment::Right,
                    align_y: iced::alignment::Vertical::Center,
                    ..Text::default()
                });
            }
        }
        // Move numbers: point i covers moves 4i + 1 … 4i + 4.
        for column in (0..columns).step_by(2) {
            frame.fill_text(Text {
                content: (4 * column + 1).to_string(),
                position: Point::new(x_of(column), plot.y + plot.height + 3.0),
                color: ink,
                size: Pixels(11.0),
                font: Font::DEFAULT,
                align_x: Alignment::Center,
                ..Text::default()
            });
        }
        let line = Path::new(|builder| {
            for (column, step) in self.points.iter().enumerate() {
                let point = Point::new(x_of(column), y_of(*step));
                if column == 0 { builder.move_to(point) } else { builder.line_to(point) }
            }
        });
        let accent = Color::from_rgb(0.43, 1.0, 1.0);
        frame.stroke(&line, Stroke::default().with_color(accent).with_width(2.0));
        for (column, step) in self.points.iter().enumerate() {
            frame.fill(&Path::circle(Point::new(x_of(column), y_of(*step)), 4.0), accent);
        }
        vec![frame.into_geometry()]
    }

    fn mouse_interaction(&self, _state: &Drag, bounds: Rectangle, cursor: mouse::Cursor) -> mouse::Interaction {
        if cursor.is_over(bounds) { mouse::Interaction::Crosshair } else { mouse::Interaction::default() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_picks_its_column_and_the_nearest_step() {
        let plot = Rectangle::new(Point::new(10.0, 0.0), Size::new(150.0, 80.0));
        // 15 columns of 10 px; 9 steps over 80 px (10 px apart).
        assert_eq!(pick(plot, 15, 9, Point::new(10.0, 80.0)), Some((0, 0)));
        assert_eq!(pick(plot, 15, 9, Point::new(159.0, 0.0)), Some((14, 8)));
        assert_eq!(pick(plot, 15, 9, Point::new(35.0, 44.0)), Some((2, 4)));
        // Above or below the plot: the top or bottom step; left or right of it: nothing.
        assert_eq!(pick(plot, 15, 9, Point::new(35.0, -30.0)), Some((2, 8)));
        assert_eq!(pick(plot, 15, 9, Point::new(35.0, 300.0)), Some((2, 0)));
        assert_eq!(pick(plot, 15, 9, Point::new(5.0, 40.0)), None);
        assert_eq!(pick(plot, 15, 9, Point::new(160.0, 40.0)), None);
    }
}
