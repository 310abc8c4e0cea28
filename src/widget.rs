//! Custom widgets: the board canvas, the evaluation chart, the curve editor (Accept AI's Loss), and the wrapper that
//! lets Esc close a menu.

pub mod board;
pub mod board_style;
pub mod curve_editor;
pub mod escape_closes;
pub mod eval_chart;
