//! A game file's problem, worded in the user's language (the system's own message, and the JSON reader's, are
//! quoted as they are).

use shirokuro_engine::game_file::GameFileError;

use crate::i18n::{Strings, fill};

/// `error` in the language of `s`.
#[must_use]
pub fn text(s: &Strings, error: &GameFileError) -> String {
    match error {
        GameFileError::Json(detail) => fill(&s.game_file_json, &[detail]),
        GameFileError::NotObject => s.game_file_not_object.clone(),
        GameFileError::Empty => s.game_file_empty.clone(),
        GameFileError::Node { key, what } => fill(&s.game_file_node, &[key, what]),
        GameFileError::Gap { key, previous } => fill(&s.game_file_gap, &[key, previous]),
        GameFileError::InFile { path, error } => fill(&s.game_file_in_file, &[path, &text(s, error)]),
        GameFileError::Io { path, error } => fill(&s.game_file_io, &[path, error]),
        // A kind added to the engine later: its own (English) words.
        error => error.to_string(),
    }
}
