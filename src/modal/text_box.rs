//! A box to type or paste text in: In/Out ▸ Input Text (a game, line or position in any format) and Book ▸ Book
//! Deviate with Transcripts (one transcript per line).

use iced::widget::{button, column, container, row, text, text_editor};
use iced::{Element, Length};
use shirokuro_engine::notation::MAX_IMPORT_CHARS;

use crate::i18n::{Strings, fill};

/// What the text is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// In/Out ▸ Input Text.
    Import,
    /// Book ▸ Book Deviate with Transcripts.
    DeviateTranscripts,
    /// In/Out ▸ Change Screenshot Folder… (Egaroucid's Change Saving Place).
    ScreenshotFolder,
    /// Help ▸ Data Migration: Export Data… (the folder to export into).
    ExportData,
    /// Help ▸ Data Migration: Import Data… (the export folder).
    ImportData,
}

/// The box's state.
#[derive(Debug)]
pub struct TextBox {
    purpose: Purpose,
    content: text_editor::Content,
}

/// Messages of the box.
#[derive(Debug, Clone)]
pub enum Message {
    /// An edit of the text.
    Edited(text_editor::Action),
    /// The Import / Start button.
    Submit,
}

impl TextBox {
    /// An empty box for `purpose`.
    #[must_use]
    pub fn new(purpose: Purpose) -> TextBox {
        TextBox { purpose, content: text_editor::Content::new() }
    }

    /// A box for `purpose` holding `text`.
    #[must_use]
    pub fn with_text(purpose: Purpose, text: &str) -> TextBox {
        TextBox { purpose, content: text_editor::Content::with_text(text) }
    }

    /// The text in the box.
    #[must_use]
    pub fn text(&self) -> String {
        self.content.text()
    }

    /// What the text is for.
    #[must_use]
    pub fn purpose(&self) -> Purpose {
        self.purpose
    }

    /// Handles a message; `Some` with the text when it is submitted.
    pub fn update(&mut self, message: Message) -> Option<String> {
        match message {
            Message::Edited(action) => {
                self.content.perform(action);
                None
            }
            Message::Submit => Some(self.content.text()),
        }
    }

    /// The box; `close` closes it.
    pub fn view<'a, M: Clone + 'a>(&'a self, s: &Strings, map: fn(Message) -> M, close: M) -> Element<'a, M> {
        let (title, help, submit) = match self.purpose {
            Purpose::DeviateTranscripts => {
                (&s.book_deviate_transcripts, &s.book_deviate_transcripts_help, &s.book_deviate_start)
            }
            Purpose::Import => (&s.input_text, &s.input_text_help, &s.input_text_import),
            Purpose::ScreenshotFolder => (&s.screenshot_folder, &s.screenshot_folder_help, &s.screenshot_folder_use),
            Purpose::ExportData => (&s.migration_export, &s.migration_export_help, &s.migration_export_go),
            Purpose::ImportData => (&s.migration_import, &s.migration_import_help, &s.migration_import_go),
        };
        let count = self.content.text().chars().count();
        column![
            text(title.clone()).size(20),
            text(help.clone()).size(13),
            text_editor(&self.content)
                .id("input-text")
                .on_action(move |a| map(Message::Edited(a)))
                .height(Length::Fixed(240.0)),
            text(fill(&s.input_text_count, &[&count, &MAX_IMPORT_CHARS])).size(12),
            row![
                container(button(text(submit.clone())).on_press(map(Message::Submit))).id("text-submit"),
                button(text(s.close.clone())).on_press(close),
            ]
            .spacing(10),
        ]
        .spacing(10)
        .padding(20)
        .max_width(720)
        .into()
    }
}
