//! Custom widgets: the board canvas and the evaluation chart.

pub mod board;
pub mod eval_chart;
