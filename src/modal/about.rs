//! Help ▸ About: the version and the build (commit, profile, target), the font's licence and where the settings
//! live.

use std::path::Path;

use iced::Element;
use iced::widget::{button, column, container, text};

use crate::help;
use crate::i18n::{Strings, fill};

/// The box; `close` closes it.
pub fn view<'a, M: Clone + 'a>(s: &Strings, settings_file: &Path, close: M) -> Element<'a, M> {
    column![
        text(s.about.clone()).size(20),
        text(fill(&s.about_text, &[&env!("CARGO_PKG_VERSION")])),
        text(fill(&s.about_build, &[&help::COMMIT, &help::PROFILE, &std::env::consts::OS, &help::TARGET])),
        text(s.about_font.clone()),
        text(fill(&s.about_folders, &[&settings_file.display()])),
        container(button(text(s.close.clone())).on_press(close)).id("close"),
    ]
    .spacing(10)
    .padding(20)
    .into()
}
