//! A key with its modifiers, as a shortcut is bound to it and written in the settings file ("Ctrl+Shift+N").

use std::fmt;
use std::str::FromStr;

use iced::keyboard::{self, Key, key::Named};

/// The named keys a shortcut may use. Enter and Escape are not among them (they answer boxes), nor the modifiers
/// alone, as in Egaroucid.
const NAMED: [(Named, &str); 22] = [
    (Named::ArrowLeft, "Left"),
    (Named::ArrowRight, "Right"),
    (Named::ArrowUp, "Up"),
    (Named::ArrowDown, "Down"),
    (Named::Home, "Home"),
    (Named::End, "End"),
    (Named::PageUp, "PageUp"),
    (Named::PageDown, "PageDown"),
    (Named::Backspace, "Backspace"),
    (Named::Delete, "Delete"),
    (Named::Insert, "Insert"),
    (Named::Space, "Space"),
    (Named::F1, "F1"),
    (Named::F2, "F2"),
    (Named::F3, "F3"),
    (Named::F4, "F4"),
    (Named::F5, "F5"),
    (Named::F6, "F6"),
    (Named::F7, "F7"),
    (Named::F8, "F8"),
    (Named::F9, "F9"),
    (Named::F10, "F10"),
];

/// A key and the modifiers held with it. Ctrl stands for the platform's command key (⌘ on macOS).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct KeyCombo {
    /// Ctrl (⌘ on macOS) held.
    pub ctrl: bool,
    /// Shift held.
    pub shift: bool,
    /// Alt held.
    pub alt: bool,
    /// The key: an upper-case letter, digit or sign, or a name from the list of named keys ("Left", "F5").
    pub key: String,
}

impl KeyCombo {
    /// A key without modifiers.
    #[must_use]
    pub fn plain(key: &str) -> KeyCombo {
        KeyCombo { ctrl: false, shift: false, alt: false, key: key.to_owned() }
    }

    /// The key with Ctrl.
    #[must_use]
    pub fn ctrl(key: &str) -> KeyCombo {
        KeyCombo { ctrl: true, ..KeyCombo::plain(key) }
    }

    /// The key with Shift.
    #[must_use]
    pub fn shift(key: &str) -> KeyCombo {
        KeyCombo { shift: true, ..KeyCombo::plain(key) }
    }

    /// The combination a key press makes, or `None` for a key no shortcut may use (a modifier alone, Enter,
    /// Escape, Tab, an unnamed key).
    #[must_use]
    pub fn of(event: &keyboard::Event) -> Option<KeyCombo> {
        let keyboard::Event::KeyPressed { key, modifiers, .. } = event else { return None };
        let name = match key.as_ref() {
            Key::Character(c) => {
                let mut chars = c.chars();
                let first = chars.next().filter(|c| !c.is_whitespace() && !c.is_control())?;
                if chars.next().is_some() {
                    return None;
                }
                first.to_uppercase().collect()
            }
            Key::Named(named) => NAMED.iter().find(|(n, _)| *n == named).map(|(_, name)| (*name).to_owned())?,
            Key::Unidentified => return None,
        };
        Some(KeyCombo { ctrl: modifiers.command(), shift: modifiers.shift(), alt: modifiers.alt(), key: name })
    }
}

impl fmt::Display for KeyCombo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.ctrl {
            f.write_str("Ctrl+")?;
        }
        if self.shift {
            f.write_str("Shift+")?;
        }
        if self.alt {
            f.write_str("Alt+")?;
        }
        f.write_str(&self.key)
    }
}

/// Why a text is not a key combination.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ComboError {
    /// Nothing after the modifiers.
    #[error("no key after the modifiers")]
    NoKey,
    /// A word that is neither a modifier nor a key a shortcut may use.
    #[error("unknown key or modifier {0:?}")]
    Unknown(String),
}

impl FromStr for KeyCombo {
    type Err = ComboError;

    /// Reads "Ctrl+Shift+N", "Home", "F5", "A" (modifiers in any order and letter case; the key last).
    fn from_str(text: &str) -> Result<KeyCombo, ComboError> {
        if text.trim() == "+" {
            return Ok(KeyCombo::plain("+"));
        }
        let mut combo = KeyCombo::plain("");
        let mut parts: Vec<&str> = text.trim().split('+').map(str::trim).collect();
        // "Ctrl++" names the plus key.
        if text.trim().ends_with("++") {
            parts.truncate(parts.len().saturating_sub(2));
            parts.push("+");
        }
        let Some((key, modifiers)) = parts.split_last() else { return Err(ComboError::NoKey) };
        for modifier in modifiers {
            match modifier.to_ascii_lowercase().as_str() {
                "ctrl" | "control" | "cmd" | "command" => combo.ctrl = true,
                "shift" => combo.shift = true,
                "alt" | "option" => combo.alt = true,
                _ => return Err(ComboError::Unknown((*modifier).to_owned())),
            }
        }
        if key.is_empty() {
            return Err(ComboError::NoKey);
        }
        combo.key = if let Some((_, name)) = NAMED.iter().find(|(_, name)| name.eq_ignore_ascii_case(key)) {
            (*name).to_owned()
        } else {
            let mut chars = key.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) if !c.is_whitespace() && !c.is_control() => c.to_uppercase().collect(),
                _ => return Err(ComboError::Unknown((*key).to_owned())),
            }
        };
        Ok(combo)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combinations_are_written_and_read_back() {
        for text in ["Ctrl+N", "Shift+Home", "A", "Ctrl+Shift+Alt+F5", "Space", "Ctrl++", "Right"] {
            let combo: KeyCombo = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(combo.to_string(), text);
        }
        assert_eq!("ctrl+n".parse::<KeyCombo>().unwrap(), KeyCombo::ctrl("N"));
        assert_eq!("shift + home".parse::<KeyCombo>().unwrap(), KeyCombo::shift("Home"));
        assert_eq!("Ctrl+".parse::<KeyCombo>(), Err(ComboError::NoKey));
        assert_eq!("Hyper+A".parse::<KeyCombo>(), Err(ComboError::Unknown("Hyper".into())));
        assert_eq!("Enter".parse::<KeyCombo>(), Err(ComboError::Unknown("Enter".into())));
        assert_eq!("Ctrl+AB".parse::<KeyCombo>(), Err(ComboError::Unknown("AB".into())));
    }
}
