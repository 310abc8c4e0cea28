//! Screens. Each owns its `Message`, `update` (returning an [`game::Action`] for the parent) and `view`.

pub mod game;

use crate::i18n::{Language, Strings};
use crate::settings::Settings;

/// The read-only context screens get: settings and language.
#[derive(Debug, Clone, Copy)]
pub struct Ctx<'a> {
    /// Current settings.
    pub settings: &'a Settings,
    /// Current language.
    pub language: Language,
}

impl Ctx<'_> {
    /// The strings of the current language.
    #[must_use]
    pub fn strings(&self) -> &'static Strings {
        self.language.strings()
    }
}
