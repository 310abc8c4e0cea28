//! Custom widgets: the board canvas, the evaluation chart, and the wrapper that lets Esc close a menu.

pub mod board;
pub mod escape_closes;
pub mod eval_chart;
