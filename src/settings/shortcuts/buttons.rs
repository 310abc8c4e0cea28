//! Functions on buttons: Egaroucid's six shortcut buttons (drawn at the right of the menu bar, none by default) and
//! the mouse's extra buttons (back: Backward, forward: Forward, middle: nothing, by default). The settings file keeps
//! them under `[buttons]`: `on_screen = ["analyze", "", …]` (six function ids, `""` for an empty button) and
//! `middle`, `back`, `forward` (a function id or `""`).

use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};

use super::function::Function;
use super::table::function_id;
use crate::notice::Notice;

/// How many shortcut buttons there are.
pub const ON_SCREEN: usize = 6;

/// A mouse button that can be given a function.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MouseButton {
    /// The middle button (the wheel pressed).
    Middle,
    /// The back (X1) button.
    Back,
    /// The forward (X2) button.
    Forward,
}

impl MouseButton {
    /// Every one, in the order the box lists them.
    pub const ALL: [MouseButton; 3] = [MouseButton::Middle, MouseButton::Back, MouseButton::Forward];

    fn index(self) -> usize {
        match self {
            MouseButton::Middle => 0,
            MouseButton::Back => 1,
            MouseButton::Forward => 2,
        }
    }

    fn key(self) -> &'static str {
        match self {
            MouseButton::Middle => "middle",
            MouseButton::Back => "back",
            MouseButton::Forward => "forward",
        }
    }
}

/// The functions of the shortcut buttons and of the mouse's extra buttons.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Buttons {
    /// The six shortcut buttons, left to right.
    pub on_screen: [Option<Function>; ON_SCREEN],
    mouse: [Option<Function>; 3],
}

impl Default for Buttons {
    fn default() -> Buttons {
        Buttons { on_screen: [None; ON_SCREEN], mouse: [None, Some(Function::Backward), Some(Function::Forward)] }
    }
}

/// A function id from the settings file: `Ok(None)` for `""`, `Err(())` for anything else that is not an id.
fn read_function(value: &toml::Value) -> Result<Option<Function>, ()> {
    match value.as_str().map(str::trim) {
        Some("") => Ok(None),
        Some(id) => toml::Value::String(id.to_owned()).try_into::<Function>().map(Some).map_err(|_| ()),
        None => Err(()),
    }
}

impl Buttons {
    /// The function of a mouse button.
    #[must_use]
    pub fn mouse(&self, button: MouseButton) -> Option<Function> {
        self.mouse[button.index()]
    }

    /// Gives a mouse button a function (or none).
    pub fn set_mouse(&mut self, button: MouseButton, function: Option<Function>) {
        self.mouse[button.index()] = function;
    }

    /// The buttons from the settings file's `[buttons]`; a notice for each value that is not understood (it keeps
    /// its default).
    pub(crate) fn from_table(mut table: toml::Table, notices: &mut Vec<Notice>) -> Buttons {
        let mut buttons = Buttons::default();
        let bad = |key: &str| Notice::BadValue { key: format!("buttons.{key}") };
        if let Some(value) = table.remove("on_screen") {
            match value.as_array().filter(|a| a.len() == ON_SCREEN) {
                Some(values) => {
                    for (slot, value) in buttons.on_screen.iter_mut().zip(values) {
                        match read_function(value) {
                            Ok(function) => *slot = function,
                            Err(()) => notices.push(bad("on_screen")),
                        }
                    }
                }
                None => notices.push(bad("on_screen")),
            }
        }
        for button in MouseButton::ALL {
            if let Some(value) = table.remove(button.key()) {
                match read_function(&value) {
                    Ok(function) => buttons.set_mouse(button, function),
                    Err(()) => notices.push(bad(button.key())),
                }
            }
        }
        notices.extend(table.into_iter().map(|(key, _)| Notice::UnknownKey { key: format!("buttons.{key}") }));
        buttons
    }
}

impl Serialize for Buttons {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let id = |f: Option<Function>| f.map(function_id).unwrap_or_default();
        let mut map = serializer.serialize_map(Some(1 + MouseButton::ALL.len()))?;
        let on_screen: Vec<String> = self.on_screen.iter().map(|f| id(*f)).collect();
        map.serialize_entry("on_screen", &on_screen)?;
        for button in MouseButton::ALL {
            map.serialize_entry(button.key(), &id(self.mouse(button)))?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buttons_are_written_and_read_back() {
        let mut buttons = Buttons::default();
        buttons.on_screen[0] = Some(Function::Analyze);
        buttons.on_screen[5] = Some(Function::ScreenShot);
        buttons.set_mouse(MouseButton::Middle, Some(Function::Put1MoveByAi));
        buttons.set_mouse(MouseButton::Back, None);
        let text = toml::to_string(&buttons).unwrap();
        assert!(text.contains(r#"on_screen = ["analyze", "", "", "", "", "screen_shot"]"#), "{text}");
        let mut notices = Vec::new();
        assert_eq!(Buttons::from_table(text.parse().unwrap(), &mut notices), buttons);
        assert!(notices.is_empty(), "{notices:?}");
    }

    #[test]
    fn values_not_understood_keep_their_defaults_and_are_reported() {
        let mut notices = Vec::new();
        let text = "on_screen = [\"analyze\"]\nback = \"nonsense\"\nforward = 3\nwheel = \"undo\"\nmiddle = \"undo\"\n";
        let buttons = Buttons::from_table(text.parse().unwrap(), &mut notices);
        assert_eq!(buttons.on_screen, [None; ON_SCREEN], "six ids or none");
        assert_eq!(buttons.mouse(MouseButton::Back), Some(Function::Backward));
        assert_eq!(buttons.mouse(MouseButton::Forward), Some(Function::Forward));
        assert_eq!(buttons.mouse(MouseButton::Middle), Some(Function::Undo));
        assert_eq!(notices.len(), 4, "{notices:?}");
    }
}
