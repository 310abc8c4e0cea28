//! The shortcut table: which key starts which function. Egaroucid's defaults; each function has at most one key and
//! each key at most one function. The settings file keeps only what differs from the defaults (`[shortcuts]`,
//! `function_id = "Ctrl+N"`, or `""` for a default key taken away), so later defaults still reach older files.

use std::collections::BTreeMap;

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

use super::combo::KeyCombo;
use super::function::Function;
use crate::notice::Notice;

/// Egaroucid's default table (`shortcut_key.hpp`), for the functions that exist here.
fn defaults() -> BTreeMap<Function, KeyCombo> {
    use Function as F;
    [
        (F::StartGame, KeyCombo::plain("Space")),
        (F::NewGame, KeyCombo::ctrl("N")),
        (F::Analyze, KeyCombo::plain("A")),
        (F::Review, KeyCombo::plain("R")),
        (F::NextMistake, KeyCombo::plain("M")),
        (F::PreviousMistake, KeyCombo::shift("M")),
        (F::AiPutBlack, KeyCombo::plain("B")),
        (F::AiPutWhite, KeyCombo::plain("W")),
        (F::ShowDiscHint, KeyCombo::plain("V")),
        (F::ShowUmigameValue, KeyCombo::plain("U")),
        (F::ShowGraphValue, KeyCombo::plain("D")),
        (F::ShowGraphSumOfLoss, KeyCombo::plain("S")),
        (F::ShowLaserPointer, KeyCombo::plain("P")),
        (F::Put1MoveByAi, KeyCombo::plain("G")),
        (F::Forward, KeyCombo::plain("Right")),
        (F::Backward, KeyCombo::plain("Left")),
        (F::Undo, KeyCombo::plain("Backspace")),
        (F::GoToFirst, KeyCombo::plain("Home")),
        (F::GoToLast, KeyCombo::plain("End")),
        (F::BackToRandomPos, KeyCombo::shift("Home")),
        (F::SaveThisBranch, KeyCombo::ctrl("L")),
        (F::GenerateRandomBoard, KeyCombo::ctrl("R")),
        (F::StopCalculating, KeyCombo::plain("Q")),
        (F::InputFromClipboard, KeyCombo::ctrl("V")),
        (F::EditBoard, KeyCombo::ctrl("E")),
        (F::OutputTranscript, KeyCombo::ctrl("C")),
        (F::ScreenShot, KeyCombo::ctrl("S")),
    ]
    .into_iter()
    .collect()
}

/// The shortcut table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shortcuts {
    keys: BTreeMap<Function, KeyCombo>,
}

impl Default for Shortcuts {
    fn default() -> Shortcuts {
        Shortcuts { keys: defaults() }
    }
}

impl Shortcuts {
    /// The key of `function`, if it has one.
    #[must_use]
    pub fn key(&self, function: Function) -> Option<&KeyCombo> {
        self.keys.get(&function)
    }

    /// The function `combo` starts, if any.
    #[must_use]
    pub fn function(&self, combo: &KeyCombo) -> Option<Function> {
        self.keys.iter().find(|(_, key)| *key == combo).map(|(function, _)| *function)
    }

    /// Gives `function` the key `combo` (its old key, if any, is freed).
    ///
    /// # Errors
    /// The function that has `combo` already: a key starts one function only, so the other must be changed first.
    pub fn assign(&mut self, function: Function, combo: KeyCombo) -> Result<(), Function> {
        match self.function(&combo) {
            Some(other) if other != function => Err(other),
            _ => {
                let _old = self.keys.insert(function, combo);
                Ok(())
            }
        }
    }

    /// Takes `function`'s key away.
    pub fn clear(&mut self, function: Function) {
        let _old = self.keys.remove(&function);
    }

    /// The table from the settings file's `[shortcuts]`: each entry that names a function and a key (or `""`) and
    /// does not take a key another entry of the file took; a notice for each other one.
    pub(crate) fn from_table(table: toml::Table, notices: &mut Vec<Notice>) -> Shortcuts {
        let mut shortcuts = Shortcuts::default();
        let mut given: Vec<(Function, Option<KeyCombo>)> = Vec::new();
        for (name, value) in table {
            let bad = || Notice::BadValue { key: format!("shortcuts.{name}") };
            let Ok(function) = toml::Value::String(name.clone()).try_into::<Function>() else {
                notices.push(Notice::UnknownKey { key: format!("shortcuts.{name}") });
                continue;
            };
            match value.as_str().map(str::trim) {
                Some("") => given.push((function, None)),
                Some(text) => match text.parse::<KeyCombo>() {
                    Ok(combo) => given.push((function, Some(combo))),
                    Err(_) => notices.push(bad()),
                },
                None => notices.push(bad()),
            }
        }
        // The file's entries free their functions' default keys first, then take their own.
        for (function, _) in &given {
            shortcuts.clear(*function);
        }
        for (function, combo) in given {
            let Some(combo) = combo else { continue };
            // A default key the file gave to another function moves to it.
            if let Some(holder) = shortcuts.function(&combo)
                && holder != function
                && defaults().get(&holder) == Some(&combo)
            {
                shortcuts.clear(holder);
            }
            if shortcuts.assign(function, combo).is_err() {
                notices.push(Notice::BadValue { key: format!("shortcuts.{}", function_id(function)) });
            }
        }
        shortcuts
    }

    /// What differs from the defaults: the functions whose key changed, with their key or `None` when taken away.
    fn differences(&self) -> Vec<(Function, Option<&KeyCombo>)> {
        let defaults = defaults();
        Function::ALL.iter().filter(|f| self.keys.get(f) != defaults.get(f)).map(|f| (*f, self.keys.get(f))).collect()
    }
}

/// A function's id as the settings file writes it (Egaroucid's where it has the function).
#[must_use]
pub fn function_id(function: Function) -> String {
    toml::Value::try_from(function).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
}

impl Serialize for Shortcuts {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let differences = self.differences();
        let mut map = serializer.serialize_map(Some(differences.len()))?;
        for (function, key) in differences {
            map.serialize_entry(&function, &key.map(ToString::to_string).unwrap_or_default())?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_starts_one_function_and_a_function_has_one_key() {
        let mut table = Shortcuts::default();
        assert_eq!(table.function(&KeyCombo::ctrl("N")), Some(Function::NewGame));
        assert_eq!(table.assign(Function::Analyze, KeyCombo::ctrl("N")), Err(Function::NewGame));
        assert_eq!(table.key(Function::Analyze), Some(&KeyCombo::plain("A")), "a refused key changes nothing");
        table.assign(Function::Analyze, KeyCombo::plain("F5")).unwrap();
        assert_eq!(table.function(&KeyCombo::plain("A")), None, "the old key is free");
        assert_eq!(table.function(&KeyCombo::plain("F5")), Some(Function::Analyze));
        table.clear(Function::NewGame);
        table.assign(Function::About, KeyCombo::ctrl("N")).unwrap();
        assert_eq!(table.function(&KeyCombo::ctrl("N")), Some(Function::About));
    }

    #[test]
    fn the_file_keeps_only_the_differences_and_reads_them_back() {
        let mut table = Shortcuts::default();
        table.clear(Function::NewGame);
        table.assign(Function::About, KeyCombo::ctrl("N")).unwrap();
        table.assign(Function::Analyze, KeyCombo::plain("F5")).unwrap();
        let text = toml::to_string(&table).unwrap();
        assert_eq!(text.lines().count(), 3, "{text}");
        assert!(text.contains("new_game = \"\"") && text.contains("about = \"Ctrl+N\""), "{text}");
        let mut notices = Vec::new();
        assert_eq!(Shortcuts::from_table(text.parse().unwrap(), &mut notices), table);
        assert!(notices.is_empty());
        assert_eq!(toml::to_string(&Shortcuts::default()).unwrap(), "");
    }

    #[test]
    fn a_file_may_move_a_default_key_and_bad_entries_are_reported() {
        let mut notices = Vec::new();
        let text = "about = \"Ctrl+N\"\nnonsense = \"X\"\nundo = \"Hyper+Q\"\nforward = \"Z\"\nbackward = \"z\"\n";
        let table = Shortcuts::from_table(text.parse().unwrap(), &mut notices);
        // Ctrl+N moves from New Game to About.
        assert_eq!(table.function(&KeyCombo::ctrl("N")), Some(Function::About));
        assert_eq!(table.key(Function::NewGame), None);
        // Z is taken once; the second claim is refused and its function keeps no key.
        assert_eq!(
            table.function(&KeyCombo::plain("Z")).map(|f| f == Function::Forward || f == Function::Backward),
            Some(true)
        );
        let keys: Vec<String> = notices
            .iter()
            .map(|n| match n {
                Notice::BadValue { key } | Notice::UnknownKey { key } => key.clone(),
                _ => String::new(),
            })
            .collect();
        assert!(keys.contains(&"shortcuts.nonsense".to_owned()), "{keys:?}");
        assert!(keys.contains(&"shortcuts.undo".to_owned()), "{keys:?}");
        assert_eq!(keys.len(), 3, "{keys:?}");
    }
}
