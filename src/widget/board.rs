//! The Othello board as a canvas: discs, coordinates, legal-move dots, last/next-move marks, stable discs and hint
//! values. It scales with its bounds, hit-tests clicks to squares and knows no game rules.
//!
//! Two caches: the frame (wood, grid, coordinates) depends only on the size; the pieces layer is cleared by the owner
//! whenever what it shows changes ([`Caches::clear_pieces`]).

use iced::alignment::Vertical;
use iced::mouse;
use iced::widget::canvas::{self, Cache, Frame, Geometry, Path, Stroke, Text};
use iced::widget::text::Alignment;
use iced::{Color, Font, Pixels, Point, Rectangle, Renderer, Size, Theme};
use shirokuro_engine::{Bitboard, Square};

use crate::widget::board_style::{BoardStyle, FrameColors, frame_colors};

/// The two drawing caches of a board, owned by the screen.
#[derive(Debug, Default)]
pub struct Caches {
    frame: Cache,
    pieces: Cache,
}

impl Caches {
    /// Forgets the pieces layer (call whenever the position, marks or hints change).
    pub fn clear_pieces(&self) {
        self.pieces.clear();
    }

    /// Forgets the board layer (call when its colours change).
    pub fn clear_frame(&self) {
        self.frame.clear();
    }
}

/// How the next move of the record is marked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NextMark {
    /// A faint disc of the colour to move.
    Disc,
    /// A square outline.
    Square,
}

/// One hint shown on a square.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HintMark {
    /// Where.
    pub square: Square,
    /// The value (disc difference for the side to move).
    pub value: i32,
    /// The label under it ("Lv 10", "100%"), empty for none.
    pub label: String,
    /// Whether this is the best value.
    pub best: bool,
    /// With colourised hints: the value's colour.
    pub tone: Option<HintTone>,
}

/// Egaroucid's Colorized Hint: the colour tells the value's sign and whether it is certain (a book value or an exact
/// search) or a midgame or probable endgame estimate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HintTone {
    /// Certain, and a win for the side to move (cyan).
    CertainWin,
    /// Certain, and a draw (white).
    CertainDraw,
    /// An estimate, not below zero (yellow).
    Estimate,
    /// Below zero, certain or not (light green).
    Losing,
}

/// The number of the move that placed a disc (Egaroucid's Play Ordering), drawn on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveNumber {
    /// Where.
    pub square: Square,
    /// The move's number, from 1 (passes are not counted).
    pub number: u16,
    /// The colour of the disc drawn under the number: the disc's own (board format) or its placer's (transcript).
    pub black: bool,
}

/// Book overlays on one legal move: the accuracy label with the level, and the umigame numbers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BookMark {
    /// Where.
    pub square: Square,
    /// "AB 21" (accuracy and level, "S" for a hand edit), empty for none.
    pub accuracy: String,
    /// Umigame numbers (Black's, White's), when shown.
    pub umigame: Option<(u64, u64)>,
}

/// Everything the board shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scene {
    /// Black discs.
    pub black: Bitboard,
    /// White discs.
    pub white: Bitboard,
    /// Whether Black is to move (colours the next-move mark).
    pub black_to_move: bool,
    /// Squares with a legal-move dot.
    pub legal: Bitboard,
    /// The last move, marked with a red dot.
    pub last_move: Option<Square>,
    /// The next move of the record.
    pub next_move: Option<(Square, NextMark)>,
    /// Stable discs, marked with a small dot.
    pub stable: Bitboard,
    /// Hint values.
    pub hints: Vec<HintMark>,
    /// Book overlays.
    pub book_marks: Vec<BookMark>,
    /// The discs the last move flipped, ringed.
    pub flipped: Bitboard,
    /// The discs the hovered move would flip, ringed in the legal-move colour.
    pub would_flip: Bitboard,
    /// Move numbers on the discs.
    pub numbers: Vec<MoveNumber>,
    /// The board's colours.
    pub style: BoardStyle,
    /// AI's Focus: squares tinted by their worth, −100 (all White's) to 100 (all Black's).
    pub focus: Vec<(Square, i8)>,
}

/// The canvas program: a scene plus the caches and the click message.
pub struct Board<'a, Message> {
    scene: &'a Scene,
    caches: &'a Caches,
    on_click: Option<fn(Square) -> Message>,
    on_hover: Option<fn(Option<Square>) -> Message>,
    on_right_click: Option<fn(Square) -> Message>,
    laser: bool,
}

impl<'a, Message> Board<'a, Message> {
    /// A board showing `scene`; clicks on squares produce `on_click(square)` when given.
    pub fn new(scene: &'a Scene, caches: &'a Caches, on_click: Option<fn(Square) -> Message>) -> Self {
        Board { scene, caches, on_click, on_hover: None, on_right_click: None, laser: false }
    }

    /// Egaroucid's Laser Pointer: over the board the pointer is drawn as a red glow (for teaching and recording).
    #[must_use]
    pub fn laser_pointer(mut self, on: bool) -> Self {
        self.laser = on;
        self
    }

    /// Right clicks on squares produce `on_right_click(square)` (the book editor).
    #[must_use]
    pub fn on_right_click(mut self, on_right_click: fn(Square) -> Message) -> Self {
        self.on_right_click = Some(on_right_click);
        self
    }

    /// Reports the square under the cursor (`None` off the board) whenever it changes.
    #[must_use]
    pub fn on_hover(mut self, on_hover: fn(Option<Square>) -> Message) -> Self {
        self.on_hover = Some(on_hover);
        self
    }
}

/// Palette of the marks on the board (the board itself: `board_style`).
mod palette {
    use iced::Color;

    pub const BLACK: Color = Color::from_rgb(0.07, 0.07, 0.08);
    pub const WHITE: Color = Color::from_rgb(0.96, 0.96, 0.94);
    pub const LEGAL: Color = Color::from_rgb(0.35, 0.85, 0.90);
    pub const LAST: Color = Color::from_rgb(0.90, 0.15, 0.15);
    pub const NEXT_SQUARE: Color = Color::from_rgb(0.65, 0.35, 0.85);
    pub const STABLE: Color = Color::from_rgb(0.87, 0.72, 0.53);
    pub const HINT: Color = Color::from_rgb(0.97, 0.97, 0.97);
    pub const HINT_BEST: Color = Color::from_rgb(0.43, 1.0, 1.0);
    pub const FLIPPED: Color = Color::from_rgb(0.98, 0.55, 0.15);
    pub const LASER: Color = Color::from_rgb(1.0, 0.12, 0.1);
    pub const FOCUS_BLACK: Color = Color::from_rgb(1.0, 0.55, 0.1);
    pub const FOCUS_WHITE: Color = Color::from_rgb(0.2, 0.45, 1.0);

    /// A colourised hint's colour.
    pub fn hint_tone(tone: super::HintTone) -> Color {
        match tone {
            super::HintTone::CertainWin => HINT_BEST,
            super::HintTone::CertainDraw => HINT,
            super::HintTone::Estimate => Color::from_rgb(1.0, 0.92, 0.35),
            super::HintTone::Losing => Color::from_rgb(0.62, 0.95, 0.55),
        }
    }
}

/// Where the 8×8 grid sits inside `size`: its top-left corner and the side of one square.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Geometry8 {
    /// Top-left corner of square a1.
    pub origin: Point,
    /// Side of one square.
    pub cell: f32,
}

impl Geometry8 {
    /// The largest square grid that fits in `size` with a margin for the coordinates.
    #[must_use]
    pub fn fit(size: Size) -> Geometry8 {
        let side = size.width.min(size.height).max(16.0);
        let margin = side * 0.06;
        let cell = (side - 2.0 * margin) / 8.0;
        let origin = Point::new((size.width - 8.0 * cell) / 2.0, (size.height - 8.0 * cell) / 2.0);
        Geometry8 { origin, cell }
    }

    /// The square under `point` (relative to the canvas), if any.
    #[must_use]
    pub fn square_at(&self, point: Point) -> Option<Square> {
        let x = (point.x - self.origin.x) / self.cell;
        let y = (point.y - self.origin.y) / self.cell;
        if !(0.0..8.0).contains(&x) || !(0.0..8.0).contains(&y) {
            return None;
        }
        // Both are in 0..8 here, so the casts cannot truncate meaningfully.
        Square::from_coords(x as u8, y as u8)
    }

    /// The top-left corner of `square`.
    #[must_use]
    pub fn corner(&self, square: Square) -> Point {
        Point::new(
            self.origin.x + f32::from(square.column()) * self.cell,
            self.origin.y + f32::from(square.row()) * self.cell,
        )
    }

    /// The centre of `square`.
    #[must_use]
    pub fn center(&self, square: Square) -> Point {
        Point::new(
            self.origin.x + (f32::from(square.column()) + 0.5) * self.cell,
            self.origin.y + (f32::from(square.row()) + 0.5) * self.cell,
        )
    }
}

fn text(content: String, position: Point, size: f32, color: Color, font: Font) -> Text {
    Text {
        content,
        position,
        color,
        size: Pixels(size),
        font,
        align_x: Alignment::Center,
        align_y: Vertical::Center,
        ..Text::default()
    }
}

/// The square last reported as hovered.
#[derive(Debug, Default)]
pub struct Hover(Option<Square>);

impl<Message> canvas::Program<Message> for Board<'_, Message> {
    type State = Hover;

    fn update(
        &self,
        state: &mut Hover,
        event: &canvas::Event,
        bounds: Rectangle,
        cursor: mouse::Cursor,
    ) -> Option<canvas::Action<Message>> {
        let square_under = || cursor.position_in(bounds).and_then(|p| Geometry8::fit(bounds.size()).square_at(p));
        match event {
            canvas::Event::Mouse(mouse::Event::ButtonPressed(mouse::Button::Left)) => {
                let on_click = self.on_click?;
                let square = square_under()?;
                Some(canvas::Action::publish(on_click(square)).and_capture())
            }
            canvas::Event::Mouse(mouse::Event::ButtonPressed(mouse::Button::Right)) => {
                let on_right_click = self.on_right_click?;
                let square = square_under()?;
                Some(canvas::Action::publish(on_right_click(square)).and_capture())
            }
            canvas::Event::Mouse(mouse::Event::CursorMoved { .. } | mouse::Event::CursorLeft) => {
                // The laser pointer follows the pointer: every move redraws.
                let redraw = self.laser.then(canvas::Action::request_redraw);
                let Some(on_hover) = self.on_hover else { return redraw };
                let square = square_under();
                if square == state.0 {
                    return redraw;
                }
                state.0 = square;
                Some(canvas::Action::publish(on_hover(square)))
            }
            _ => None,
        }
    }

    fn draw(
        &self,
        _state: &Hover,
        renderer: &Renderer,
        _theme: &Theme,
        bounds: Rectangle,
        cursor: mouse::Cursor,
    ) -> Vec<Geometry> {
        let size = bounds.size();
        let grid = Geometry8::fit(size);
        let colors = frame_colors(self.scene.style);
        let frame = self.caches.frame.draw(renderer, size, |frame| draw_frame(frame, grid, colors));
        let pieces = self.caches.pieces.draw(renderer, size, |frame| draw_pieces(frame, grid, self.scene));
        let mut layers = vec![frame, pieces];
        if self.laser
            && let Some(point) = cursor.position_in(bounds)
        {
            let mut laser = Frame::new(renderer, size);
            let cell = grid.cell;
            laser.fill(&Path::circle(point, cell * 0.16), Color { a: 0.25, ..palette::LASER });
            laser.fill(&Path::circle(point, cell * 0.08), Color { a: 0.6, ..palette::LASER });
            laser.fill(&Path::circle(point, cell * 0.035), palette::LASER);
            layers.push(laser.into_geometry());
        }
        layers
    }

    fn mouse_interaction(&self, _state: &Hover, bounds: Rectangle, cursor: mouse::Cursor) -> mouse::Interaction {
        if self.laser && cursor.is_over(bounds) {
            return mouse::Interaction::Hidden;
        }
        let over_legal = self.on_click.is_some()
            && cursor
                .position_in(bounds)
                .and_then(|p| Geometry8::fit(bounds.size()).square_at(p))
                .is_some_and(|square| self.scene.legal.contains(square));
        if over_legal { mouse::Interaction::Pointer } else { mouse::Interaction::default() }
    }
}

fn draw_frame(frame: &mut Frame, grid: Geometry8, colors: FrameColors) {
    let Geometry8 { origin, cell } = grid;
    frame.fill_rectangle(Point::ORIGIN, frame.size(), colors.background);
    let board = Size::new(8.0 * cell, 8.0 * cell);
    frame.fill_rectangle(origin, board, colors.felt);
    let line = Stroke::default().with_color(colors.grid).with_width((cell * 0.025).max(1.0));
    for i in 0..=8 {
        let d = i as f32 * cell;
        frame.stroke(
            &Path::line(Point::new(origin.x + d, origin.y), Point::new(origin.x + d, origin.y + board.height)),
            line,
        );
        frame.stroke(
            &Path::line(Point::new(origin.x, origin.y + d), Point::new(origin.x + board.width, origin.y + d)),
            line,
        );
    }
    // The four star points.
    for (cx, cy) in [(2.0, 2.0), (6.0, 2.0), (2.0, 6.0), (6.0, 6.0)] {
        let p = Point::new(origin.x + cx * cell, origin.y + cy * cell);
        frame.fill(&Path::circle(p, cell * 0.06), colors.grid);
    }
    let size = cell * 0.3;
    for i in 0..8u8 {
        let offset = (f32::from(i) + 0.5) * cell;
        let column = char::from(b'a' + i).to_string();
        let row = char::from(b'1' + i).to_string();
        frame.fill_text(text(
            column,
            Point::new(origin.x + offset, origin.y - cell * 0.25),
            size,
            colors.coord,
            Font::DEFAULT,
        ));
        frame.fill_text(text(
            row,
            Point::new(origin.x - cell * 0.25, origin.y + offset),
            size,
            colors.coord,
            Font::DEFAULT,
        ));
    }
}

fn draw_pieces(frame: &mut Frame, grid: Geometry8, scene: &Scene) {
    let cell = grid.cell;
    // AI's Focus under the discs: orange where a disc helps Black, blue where it helps White.
    for &(square, tint) in &scene.focus {
        let base = if tint >= 0 { palette::FOCUS_BLACK } else { palette::FOCUS_WHITE };
        let corner = grid.corner(square);
        let strength = f32::from(tint.unsigned_abs().min(100)) / 100.0;
        frame.fill_rectangle(corner, Size::new(cell, cell), Color { a: 0.75 * strength, ..base });
    }
    let disc_radius = cell * 0.42;
    for square in scene.black.into_iter().chain(scene.white) {
        let black = scene.black.contains(square);
        let center = grid.center(square);
        let (fill, rim) = if black { (palette::BLACK, palette::WHITE) } else { (palette::WHITE, palette::BLACK) };
        frame.fill(&Path::circle(center, disc_radius), fill);
        frame.stroke(
            &Path::circle(center, disc_radius),
            Stroke::default().with_color(Color { a: 0.35, ..rim }).with_width((cell * 0.02).max(1.0)),
        );
        if scene.stable.contains(square) {
            frame.fill(&Path::circle(center, cell * 0.07), palette::STABLE);
        }
    }
    for number in &scene.numbers {
        let center = grid.center(number.square);
        let (fill, ink) =
            if number.black { (palette::BLACK, palette::WHITE) } else { (palette::WHITE, palette::BLACK) };
        // The last move's number is red instead of carrying the red dot, which would cover it.
        let ink = if scene.last_move == Some(number.square) { palette::LAST } else { ink };
        frame.fill(&Path::circle(center, disc_radius), fill);
        let size = if number.number >= 10 { cell * 0.36 } else { cell * 0.42 };
        frame.fill_text(text(number.number.to_string(), center, size, ink, Font::DEFAULT));
    }
    let ring = |frame: &mut Frame, squares: Bitboard, color: Color| {
        for square in squares {
            frame.stroke(
                &Path::circle(grid.center(square), cell * 0.3),
                Stroke::default().with_color(color).with_width((cell * 0.05).max(1.5)),
            );
        }
    };
    ring(frame, scene.flipped, palette::FLIPPED);
    ring(frame, scene.would_flip, palette::LEGAL);
    if let Some((square, mark)) = scene.next_move {
        let center = grid.center(square);
        match mark {
            NextMark::Disc => {
                let base = if scene.black_to_move { palette::BLACK } else { palette::WHITE };
                frame.fill(&Path::circle(center, disc_radius), Color { a: 0.35, ..base });
            }
            NextMark::Square => {
                let inset = cell * 0.08;
                let top_left = Point::new(center.x - cell / 2.0 + inset, center.y - cell / 2.0 + inset);
                let side = cell - 2.0 * inset;
                frame.stroke(
                    &Path::rectangle(top_left, Size::new(side, side)),
                    Stroke::default().with_color(palette::NEXT_SQUARE).with_width((cell * 0.06).max(1.5)),
                );
            }
        }
    }
    let hinted: Bitboard = scene.hints.iter().fold(Bitboard::EMPTY, |b, h| b | h.square.bitboard());
    for square in scene.legal {
        if !hinted.contains(square) {
            frame.fill(&Path::circle(grid.center(square), cell * 0.09), palette::LEGAL);
        }
    }
    if let Some(square) = scene.last_move
        && !scene.numbers.iter().any(|n| n.square == square)
    {
        frame.fill(&Path::circle(grid.center(square), cell * 0.08), palette::LAST);
    }
    for mark in &scene.book_marks {
        let center = grid.center(mark.square);
        let top = center.y - cell * 0.36;
        let small = cell * 0.15;
        if !mark.accuracy.is_empty() {
            let at = Point::new(center.x - cell * 0.45, top);
            frame.fill_text(Text {
                align_x: Alignment::Left,
                ..text(mark.accuracy.clone(), at, small, palette::HINT, Font::DEFAULT)
            });
        }
        if let Some((black, white)) = mark.umigame {
            let right = |y: f32, content: String, color| Text {
                align_x: Alignment::Right,
                ..text(content, Point::new(center.x + cell * 0.45, y), small, color, Font::DEFAULT)
            };
            frame.fill_text(right(top, black.to_string(), palette::BLACK));
            frame.fill_text(right(top + small * 1.05, white.to_string(), palette::WHITE));
        }
    }
    for hint in &scene.hints {
        let center = grid.center(hint.square);
        let color = match hint.tone {
            Some(tone) => palette::hint_tone(tone),
            None if hint.best => palette::HINT_BEST,
            None => palette::HINT,
        };
        let font = if hint.best { Font { weight: iced::font::Weight::Bold, ..Font::DEFAULT } } else { Font::DEFAULT };
        let value_y = if hint.label.is_empty() { center.y } else { center.y - cell * 0.1 };
        frame.fill_text(text(format!("{:+}", hint.value), Point::new(center.x, value_y), cell * 0.36, color, font));
        if !hint.label.is_empty() {
            frame.fill_text(text(
                hint.label.clone(),
                Point::new(center.x, center.y + cell * 0.25),
                cell * 0.2,
                color,
                Font::DEFAULT,
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hit_testing_maps_points_to_squares() {
        let grid = Geometry8::fit(Size::new(500.0, 400.0));
        // The grid is centred horizontally in the wider canvas.
        assert!(grid.origin.x > grid.origin.y);
        let a1 = grid.center(Square::A1);
        assert_eq!(grid.square_at(a1), Some(Square::A1));
        let h8 = grid.center(Square::H8);
        assert_eq!(grid.square_at(h8), Some(Square::H8));
        assert_eq!(grid.square_at(Point::new(grid.origin.x - 1.0, a1.y)), None);
        assert_eq!(grid.square_at(Point::new(h8.x + grid.cell, h8.y)), None);
    }
}
