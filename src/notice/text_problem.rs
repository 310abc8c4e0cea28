//! Why a text (a transcript, a game, a board) was rejected, kept typed so that it is worded in the user's language.

use shirokuro_engine::IllegalMove;
use shirokuro_engine::notation::{ImportError, MAX_IMPORT_CHARS, TranscriptError};

use crate::i18n::{Strings, fill};

/// Why a text was rejected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TextProblem {
    /// In/Out ▸ Input Text or the clipboard: no form fits.
    Import(ImportError),
    /// Book Deviate with Transcripts: this line (from 1) is not a transcript.
    Line {
        /// The line's number.
        line: usize,
        /// What is wrong with it.
        error: TranscriptError,
    },
    /// Book Deviate with Transcripts: no line has a transcript.
    NoTranscript,
}

impl TextProblem {
    /// The problem in the language of `s`.
    #[must_use]
    pub fn text(&self, s: &Strings) -> String {
        match self {
            TextProblem::Import(ImportError::Empty) => s.text_empty.clone(),
            TextProblem::Import(ImportError::TooLong(chars)) => fill(&s.text_too_long, &[chars, &MAX_IMPORT_CHARS]),
            TextProblem::Import(ImportError::Unrecognised(error)) => {
                fill(&s.text_unrecognised, &[&transcript_error(s, error)])
            }
            TextProblem::Line { line, error } => fill(&s.text_line, &[line, &transcript_error(s, error)]),
            TextProblem::NoTranscript => s.text_no_transcript.clone(),
            // A kind added to the engine later: its own (English) words.
            TextProblem::Import(error) => error.to_string(),
        }
    }

    /// Whether the problem is on line `line` of a list of transcripts.
    #[must_use]
    pub fn is_on_line(&self, line: usize) -> bool {
        matches!(self, TextProblem::Line { line: at, .. } if *at == line)
    }
}

/// Where and why a transcript stops being one.
fn transcript_error(s: &Strings, error: &TranscriptError) -> String {
    match error {
        TranscriptError::InvalidChar { move_number, offset, found } => {
            fill(&s.transcript_invalid_char, &[&format!("{found:?}"), offset, move_number])
        }
        TranscriptError::Incomplete { move_number, offset } => fill(&s.transcript_incomplete, &[move_number, offset]),
        TranscriptError::Illegal { move_number, offset, mv, reason } => {
            let reason = match reason {
                IllegalMove::Occupied(square) => fill(&s.illegal_occupied, &[&square.to_lowercase()]),
                IllegalMove::NoFlip(square) => fill(&s.illegal_no_flip, &[&square.to_lowercase()]),
                IllegalMove::PassWithMoves => s.illegal_pass.clone(),
                IllegalMove::GameOver => s.illegal_game_over.clone(),
            };
            fill(&s.transcript_illegal, &[move_number, &mv.to_string().to_lowercase(), offset, &reason])
        }
        // A kind added to the engine later: its own (English) words.
        error => error.to_string(),
    }
}
