//! A game file's problem, worded in the user's language.

use shirokuro_engine::game_file::{GameFileError, NodeProblem};

use crate::failure as system;
use crate::i18n::{Strings, fill};

/// `error` in the language of `s`.
#[must_use]
pub fn text(s: &Strings, error: &GameFileError) -> String {
    match error {
        GameFileError::Json { line, column, .. } => fill(&s.game_file_json, &[line, column]),
        GameFileError::NotObject => s.game_file_not_object.clone(),
        GameFileError::Empty => s.game_file_empty.clone(),
        GameFileError::Node { key, problem } => fill(&s.game_file_node, &[key, &node_problem(s, *problem)]),
        GameFileError::Gap { key, previous } => fill(&s.game_file_gap, &[key, previous]),
        GameFileError::InFile { path, error } => fill(&s.game_file_in_file, &[path, &text(s, error)]),
        GameFileError::Io { path, step: Some(step), error } => {
            fill(&s.game_file_io, &[path, &system::save(s, *step, error)])
        }
        GameFileError::Io { path, step: None, error } => fill(&s.game_file_io, &[path, &system::io(s, error)]),
        // A kind added to the engine later: its own (English) words.
        error => error.to_string(),
    }
}

fn node_problem(s: &Strings, problem: NodeProblem) -> String {
    match problem {
        NodeProblem::NotABoard(field) => fill(&s.game_file_not_a_board, &[&field]),
        NodeProblem::Overlap => s.game_file_overlap.clone(),
        NodeProblem::Player => s.game_file_player.clone(),
        // A kind added to the engine later: its own (English) words.
        problem => problem.to_string(),
    }
}
