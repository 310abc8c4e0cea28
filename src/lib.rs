//! # Shirokuro
//!
//! The desktop app: an iced (Elm-style) application over the `shirokuro-engine` crate. The root [`app::App`] routes
//! messages to the game screen, the menu bar and the settings; one engine thread ([`engine_worker`]) does all searching.
#![forbid(unsafe_code)]

pub mod app;
pub mod book_worker;
pub mod engine_worker;
pub mod fsutil;
pub mod i18n;
pub mod log;
pub mod menu;
pub mod opening;
pub mod record;
pub mod screen;
pub mod screenshot;
pub mod settings;
pub mod widget;

/// The bundled fonts (M PLUS 1, SIL Open Font License 1.1): Latin and Japanese without system fonts.
pub const FONTS: [&[u8]; 2] =
    [include_bytes!("../resources/fonts/MPLUS1-Regular.otf"), include_bytes!("../resources/fonts/MPLUS1-Bold.otf")];

/// The family name of the bundled fonts, used as the default font.
pub const FONT_FAMILY: &str = "M PLUS 1";
