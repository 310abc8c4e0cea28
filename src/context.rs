//! The read-only context features get from the root: settings, language and the book in use.

use crate::book::SharedBook;
use crate::i18n::{Language, Strings};
use crate::settings::Settings;

/// The read-only context a feature's `update` and `view` get.
#[derive(Debug, Clone, Copy)]
pub struct Ctx<'a> {
    /// Current settings.
    pub settings: &'a Settings,
    /// Current language.
    pub language: Language,
    /// The book to use (AI moves, hint values), when "use book" is on and a book is loaded.
    pub book: Option<&'a SharedBook>,
}

impl Ctx<'_> {
    /// The strings of the current language.
    #[must_use]
    pub fn strings(&self) -> &'static Strings {
        self.language.strings()
    }
}
