//! Help ▸ Data Migration: the boxes that ask for a folder, the export and import in the background, and the settings
//! an import brings (the window keeps its size and place).

use std::path::PathBuf;

use iced::Task;

use super::{App, make_ctx};
use crate::message::Message;
use crate::migration;
use crate::modal::{Modal, TextBox, text_box::Purpose};
use crate::notice::Notice;

impl App {
    pub(super) fn migration_message(&mut self, message: Message) -> Task<Message> {
        match message {
            Message::Migration(export) => {
                let (purpose, text) = if export {
                    (Purpose::ExportData, self.paths.data_dir.display().to_string())
                } else {
                    (Purpose::ImportData, String::new())
                };
                self.modal = Some(Modal::Text(TextBox::with_text(purpose, &text)));
                Task::none()
            }
            Message::Exported(Ok(folder)) => {
                self.notices.push(Notice::Exported { folder });
                Task::none()
            }
            Message::Imported(Ok((folder, loaded))) => {
                self.notices.push(Notice::Imported { folder });
                let keep = (self.settings.window_width, self.settings.window_height, self.settings.window_position);
                self.settings = loaded.settings;
                (self.settings.window_width, self.settings.window_height, self.settings.window_position) = keep;
                self.notices.extend(loaded.notices);
                if let Some(language) = self.settings.language {
                    self.language = language;
                }
                if let Some(engine) = &self.engine {
                    engine.cancel(u64::MAX);
                    engine.configure(self.engine_options());
                }
                let action = self.game.settings_changed(&make_ctx(&self.settings, self.language, &self.books));
                self.perform(action);
                Task::batch([self.save(), super::load_forced(&self.paths.data_dir)])
            }
            Message::Exported(Err(error)) | Message::Imported(Err(error)) => {
                self.notices.push(Notice::MigrationFailed { error });
                Task::none()
            }
            _ => Task::none(),
        }
    }

    /// The folder of Export Data or Import Data was given: the work runs in the background.
    pub(super) fn migration_folder(&mut self, purpose: Purpose, text: &str) -> Task<Message> {
        let folder = PathBuf::from(text);
        if !folder.is_absolute() {
            self.notices.push(Notice::NotAFolder { text: text.to_owned() });
            return Task::none();
        }
        self.modal = None;
        let data_dir = self.paths.data_dir.clone();
        if purpose == Purpose::ExportData {
            let settings = self.settings.clone();
            let now = std::time::SystemTime::now();
            Task::perform(async move { migration::export(&settings, &data_dir, &folder, now) }, Message::Exported)
        } else {
            Task::perform(async move { migration::import(&folder, &data_dir).map(|l| (folder, l)) }, Message::Imported)
        }
    }
}
