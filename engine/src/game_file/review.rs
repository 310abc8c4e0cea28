//! A game review kept in the game file, under the top-level key `shirokuro_review` (Egaroucid ignores keys it does
//! not know):
//!
//! ```json
//! "shirokuro_review": { "level": 10, "exact_from": 20,
//!   "positions": [ { "index": 0, "value": 0, "line": "f5d6c3", "exact": false, "book": true }, … ] }
//! ```
//!
//! `index` is the position's index in the line (0 = the first position), `value` Black's disc difference, `line` the
//! best line as a transcript (`ps` for a pass; empty when the game is over). Reading is lenient: a position entry
//! that does not fit is skipped, a review that does not fit is no review.

use serde_json::{Map, Value};

use crate::board::Move;
use crate::level::Level;
use crate::notation::{PassStyle, format_transcript, parse_transcript_from};
use crate::position::Position;
use crate::review::{PositionValue, ReviewOptions};

/// The top-level key.
pub const KEY: &str = "shirokuro_review";

/// A review as a game file keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SavedReview {
    /// How the positions were searched.
    pub options: ReviewOptions,
    /// One value per position of the line (`None` where unknown).
    pub values: Vec<Option<PositionValue>>,
}

impl SavedReview {
    /// The JSON object.
    #[must_use]
    pub fn to_json(&self) -> Value {
        let positions: Vec<Value> = self
            .values
            .iter()
            .enumerate()
            .filter_map(|(index, value)| {
                let value = value.as_ref()?;
                let mut object = Map::new();
                let _ = object.insert("index".into(), index.into());
                let _ = object.insert("value".into(), value.value.into());
                let _ = object.insert("line".into(), format_transcript(&value.line, PassStyle::Include).into());
                let _ = object.insert("exact".into(), value.exact.into());
                let _ = object.insert("book".into(), value.book.into());
                Some(Value::Object(object))
            })
            .collect();
        let mut top = Map::new();
        let _ = top.insert("level".into(), self.options.level.get().into());
        let _ = top.insert("exact_from".into(), self.options.exact_from.into());
        let _ = top.insert("positions".into(), Value::Array(positions));
        Value::Object(top)
    }

    /// The review of the line of `positions` from its JSON object, if it fits.
    #[must_use]
    pub fn from_json(value: &Value, positions: &[Position]) -> Option<SavedReview> {
        let object = value.as_object()?;
        let level = object.get("level").and_then(Value::as_u64).and_then(|l| u8::try_from(l).ok())?;
        let level = Level::new(level).ok()?;
        let exact_from = object.get("exact_from").and_then(Value::as_u64).and_then(|e| u8::try_from(e).ok())?;
        let mut values = vec![None; positions.len()];
        for entry in object.get("positions").and_then(Value::as_array)?.iter().filter_map(Value::as_object) {
            let Some(index) = entry.get("index").and_then(Value::as_u64).and_then(|i| usize::try_from(i).ok()) else {
                continue;
            };
            let Some(value) = entry
                .get("value")
                .and_then(Value::as_i64)
                .filter(|v| (-64..=64).contains(v))
                .and_then(|v| i32::try_from(v).ok())
            else {
                continue;
            };
            let Some(position) = positions.get(index) else { continue };
            let text = entry.get("line").and_then(Value::as_str).unwrap_or_default();
            let line: Vec<Move> = parse_transcript_from(*position, text).map(|t| t.moves).unwrap_or_default();
            let flag = |name: &str| entry.get(name).and_then(Value::as_bool).unwrap_or(false);
            if let Some(slot) = values.get_mut(index) {
                *slot = Some(PositionValue {
                    value,
                    best: line.first().copied(),
                    line,
                    exact: flag("exact"),
                    book: flag("book"),
                });
            }
        }
        Some(SavedReview { options: ReviewOptions { level, exact_from }, values })
    }
}
