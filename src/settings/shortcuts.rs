//! The settings of the keyboard and the buttons: which key starts which function (Settings ▸ Shortcut Key
//! Settings), and the functions of the shortcut buttons and of the mouse's extra buttons. What a function does is
//! decided above the settings, in `crate::shortcut`.

mod buttons;
mod combo;
mod function;
mod table;

pub use buttons::{Buttons, MouseButton, ON_SCREEN};
pub use combo::{ComboError, KeyCombo};
pub use function::Function;
pub use table::{Shortcuts, function_id};
