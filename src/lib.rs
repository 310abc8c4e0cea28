//! # Shirokuro
//!
//! The desktop app: an iced (Elm-style) application over the `shirokuro-engine` crate. The root [`app::App`] routes
//! messages to the features — the game ([`game`]), the opening book ([`book`]), the In/Out menu ([`in_out`]) and the
//! boxes ([`modal`]) — each with its own state, `Message`, `update` and `view`. One engine thread
//! ([`engine_worker`]) does all searching and one book thread ([`book::worker`]) owns the book, both on the shared
//! [`worker`] scaffold.
#![forbid(unsafe_code)]

pub mod app;
pub mod book;
pub mod context;
pub mod dialog;
pub mod engine_worker;
pub mod explorer;
pub mod failure;
pub mod forced_opening;
pub mod fsutil;
pub mod game;
pub mod game_library;
pub mod help;
pub mod i18n;
pub mod in_out;
pub mod log;
pub mod menu;
pub mod message;
pub mod migration;
pub mod modal;
pub mod notice;
pub mod open_file;
pub mod opening;
pub mod record;
pub mod review;
pub mod screenshot;
pub mod settings;
pub mod shortcut;
pub mod signals;
pub mod study;
pub mod widget;
pub mod worker;
pub mod xot;

/// The bundled fonts (SIL Open Font License 1.1): M PLUS 1 regular and bold for Latin and Japanese, then subsets of
/// Noto Sans CJK SC and TC for the Chinese UIs (`resources/fonts/subset_chinese.py`); no system font is needed.
pub const FONTS: [&[u8]; 4] = [
    include_bytes!("../resources/fonts/MPLUS1-Regular.otf"),
    include_bytes!("../resources/fonts/MPLUS1-Bold.otf"),
    include_bytes!("../resources/fonts/NotoSansCJKsc-Subset.otf"),
    include_bytes!("../resources/fonts/NotoSansCJKtc-Subset.otf"),
];

/// The application id: the desktop entry's and the AppStream file's name (`packaging/`), and the window's class.
pub const APP_ID: &str = "io.github.shirokuro_othello.shirokuro";

/// The family name of the bundled fonts, used as the default font.
pub const FONT_FAMILY: &str = "M PLUS 1";
