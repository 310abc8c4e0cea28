//! Opening names: which named opening a position belongs to, in the interface language.
//!
//! `locales/openings/<code>.tsv` lists `moves<TAB>name` lines (Egaroucid's English and Japanese lists, each name with a
//! move order reaching its board). A position gets the name of the list entry whose end position equals it under one
//! of the 8 board symmetries, with the same colour to move.

use std::collections::HashMap;
use std::sync::OnceLock;

use shirokuro_engine::notation::parse_transcript;
use shirokuro_engine::{Color, Position};

use crate::i18n::Language;

/// A bad line of an openings list.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OpeningError {
    /// The line has no tab between the moves and the name, or an empty name.
    #[error("line {line}: expected `moves<TAB>name`")]
    Format {
        /// 1-based line number.
        line: usize,
    },
    /// The moves are not a legal transcript.
    #[error("line {line}: {message}")]
    Moves {
        /// 1-based line number.
        line: usize,
        /// The transcript parser's message.
        message: String,
    },
}

/// Opening names keyed by canonical position.
#[derive(Debug, Clone, Default)]
pub struct Openings {
    names: HashMap<(u64, u64, bool), String>,
}

/// The lookup key: the canonical board (side to move's view) and whether Black is to move.
fn key(position: &Position) -> (u64, u64, bool) {
    let (board, _) = position.board.canonical();
    (board.player.0, board.opponent.0, position.side_to_move == Color::Black)
}

impl Openings {
    /// Parses a list. Lines that are empty or start with `#` are skipped; when two entries reach the same position the
    /// later (usually the more specific) name wins.
    ///
    /// # Errors
    /// [`OpeningError`] for the first bad line.
    pub fn parse(text: &str) -> Result<Openings, OpeningError> {
        let mut names = HashMap::new();
        for (index, raw) in text.lines().enumerate() {
            let line = index + 1;
            let raw = raw.trim_end();
            if raw.is_empty() || raw.starts_with('#') {
                continue;
            }
            let Some((moves, name)) = raw.split_once('\t') else { return Err(OpeningError::Format { line }) };
            if name.trim().is_empty() {
                return Err(OpeningError::Format { line });
            }
            let transcript =
                parse_transcript(moves).map_err(|e| OpeningError::Moves { line, message: e.to_string() })?;
            let _previous = names.insert(key(&transcript.end), name.trim().to_owned());
        }
        Ok(Openings { names })
    }

    /// The name of `position`, if it is a named opening.
    #[must_use]
    pub fn name(&self, position: &Position) -> Option<&str> {
        self.names.get(&key(position)).map(String::as_str)
    }

    /// How many positions have names.
    #[must_use]
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether the list is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The embedded list of `language` (parsed on first use; empty if it were malformed, which a test rules out).
    #[must_use]
    pub fn of(language: Language) -> &'static Openings {
        static ENGLISH: OnceLock<Openings> = OnceLock::new();
        static JAPANESE: OnceLock<Openings> = OnceLock::new();
        let cell = match language {
            // Chinese names of the openings do not exist (nor in Egaroucid): the English ones are shown.
            Language::English | Language::SimplifiedChinese | Language::TraditionalChinese => &ENGLISH,
            Language::Japanese => &JAPANESE,
        };
        cell.get_or_init(|| match Openings::parse(source(language)) {
            Ok(openings) => openings,
            Err(error) => {
                tracing::error!("embedded openings list for {}: {error}", language.code());
                Openings::default()
            }
        })
    }
}

/// The embedded `locales/openings/<code>.tsv` text.
#[must_use]
pub const fn source(language: Language) -> &'static str {
    match language {
        Language::English | Language::SimplifiedChinese | Language::TraditionalChinese => {
            include_str!("../locales/openings/en.tsv")
        }
        Language::Japanese => include_str!("../locales/openings/ja.tsv"),
    }
}

#[cfg(test)]
mod tests {
    use shirokuro_engine::{Move, Square};

    use super::*;

    fn after(moves: &str) -> Position {
        parse_transcript(moves).unwrap().end
    }

    #[test]
    fn the_embedded_lists_parse_completely() {
        for language in Language::ALL {
            let openings = Openings::parse(source(language)).unwrap();
            let lines = source(language).lines().filter(|l| !l.is_empty() && !l.starts_with('#')).count();
            // A few entries name the same position (a transposition); all the rest are distinct.
            assert!(openings.len() * 10 >= lines * 9, "{}: {} of {lines}", language.code(), openings.len());
        }
    }

    #[test]
    fn names_are_found_under_symmetry() {
        let english = Openings::of(Language::English);
        assert_eq!(english.name(&after("f5d6")), Some("Perpendicular Opening"));
        // c4 is f5 reflected: c4e3 is the same opening as f5d6.
        assert_eq!(english.name(&after("c4e3")), Some("Perpendicular Opening"));
        assert_eq!(english.name(&after("f5f6")), Some("Diagonal Opening"));
        assert_eq!(english.name(&Position::INITIAL), None);
        // Names from Edax's list (rendered in English), under symmetry too.
        assert_eq!(english.name(&after("f5d6c3d3c4f4c5b3c2b4")), Some("Central Triangle"));
        let japanese = Openings::of(Language::Japanese);
        assert_eq!(japanese.name(&after("f5d6c3")), Some("虎系"));
        // The English list names at least as many positions as the Japanese one.
        assert!(english.len() >= japanese.len(), "{} English, {} Japanese", english.len(), japanese.len());
        let _ = Position::INITIAL.play(Move::Place(Square::F5)).unwrap();
    }

    #[test]
    fn bad_lines_are_reported_with_their_number() {
        assert_eq!(Openings::parse("# c\nf5d6 no tab").unwrap_err(), OpeningError::Format { line: 2 });
        assert!(matches!(Openings::parse("f5a1\tX"), Err(OpeningError::Moves { line: 1, .. })));
        assert_eq!(Openings::parse("f5\t  ").unwrap_err(), OpeningError::Format { line: 1 });
    }
}
