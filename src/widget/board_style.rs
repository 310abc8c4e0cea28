//! The board's colour schemes (Edit Board Image's colours): one enum, kept in the display settings, and the colours
//! each gives the board layer. Its own module, so that the settings and the board widget both use it without
//! depending on each other.

use iced::Color;
use serde::{Deserialize, Serialize};

/// The board's colour schemes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BoardStyle {
    /// Green felt (the default).
    #[default]
    Green,
    /// Darker green felt.
    DarkGreen,
    /// Wood.
    Wood,
    /// Blue.
    Blue,
    /// Light grey with dark lines, for printing.
    Grey,
}

impl BoardStyle {
    /// Every scheme, in menu order.
    pub const ALL: [BoardStyle; 5] =
        [BoardStyle::Green, BoardStyle::DarkGreen, BoardStyle::Wood, BoardStyle::Blue, BoardStyle::Grey];
}

/// The colours of the board layer: around the board, the felt, the lines and star points, the coordinates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FrameColors {
    /// Around the board.
    pub background: Color,
    /// The squares.
    pub felt: Color,
    /// The lines and star points.
    pub grid: Color,
    /// The coordinates.
    pub coord: Color,
}

/// The colours of `style`.
#[must_use]
pub fn frame_colors(style: BoardStyle) -> FrameColors {
    let rgb = Color::from_rgb;
    let (background, felt, grid, coord) = match style {
        BoardStyle::Green => {
            (rgb(0.16, 0.20, 0.17), rgb(0.14, 0.47, 0.29), rgb(0.05, 0.18, 0.10), rgb(0.85, 0.88, 0.85))
        }
        BoardStyle::DarkGreen => {
            (rgb(0.10, 0.12, 0.11), rgb(0.08, 0.32, 0.19), rgb(0.02, 0.12, 0.06), rgb(0.85, 0.88, 0.85))
        }
        BoardStyle::Wood => {
            (rgb(0.27, 0.19, 0.12), rgb(0.78, 0.60, 0.38), rgb(0.33, 0.21, 0.09), rgb(0.95, 0.90, 0.82))
        }
        BoardStyle::Blue => {
            (rgb(0.12, 0.15, 0.21), rgb(0.20, 0.40, 0.62), rgb(0.06, 0.14, 0.28), rgb(0.88, 0.91, 0.96))
        }
        BoardStyle::Grey => {
            (rgb(0.97, 0.97, 0.97), rgb(0.82, 0.82, 0.82), rgb(0.20, 0.20, 0.20), rgb(0.15, 0.15, 0.15))
        }
    };
    FrameColors { background, felt, grid, coord }
}
