//! Settings ▸ Force AI's Opening / Opening Setting…: the forced openings read at start and saved after each edit,
//! both in the background; the editor box.

use std::path::Path;

use iced::Task;

use super::{App, make_ctx};
use crate::forced_opening::{Folder, store};
use crate::message::Message;
use crate::modal::{Modal, forced_openings::ForcedOpeningsBox};
use crate::notice::Notice;

/// Reads the forced openings of the data folder (at start).
pub fn load_forced(data_dir: &Path) -> Task<Message> {
    let dir = store::root_dir(data_dir);
    Task::perform(async move { store::load(&dir) }, Message::ForcedLoaded)
}

impl App {
    pub(super) fn forced_message(&mut self, message: Message) -> Task<Message> {
        match message {
            Message::ForcedOpenings => {
                let line: String = self.game.line_to_cursor().iter().map(ToString::to_string).collect();
                let form = ForcedOpeningsBox::new(self.game.forced_root().clone(), line.to_lowercase());
                self.modal = Some(Modal::ForcedOpenings(form));
            }
            Message::ForcedLoaded(Ok((root, skipped))) => {
                if !skipped.lines.is_empty() {
                    self.notices.push(Notice::ForcedSkipped { lines: skipped.lines });
                }
                let ctx = make_ctx(&self.settings, self.language, &self.books);
                let action = self.game.set_forced(root, &ctx);
                self.perform(action);
            }
            Message::ForcedLoaded(Err(error)) => {
                let dir = store::root_dir(&self.paths.data_dir);
                self.notices.push(Notice::ForcedUnreadable { dir, error });
            }
            Message::ForcedSaved(Err(error)) => self.notices.push(Notice::ForcedSaveFailed { error }),
            _ => {}
        }
        Task::none()
    }

    /// The editor changed the tree: the game follows it now, the disk in the background.
    pub(super) fn forced_changed(&mut self, root: Folder) -> Task<Message> {
        let ctx = make_ctx(&self.settings, self.language, &self.books);
        let action = self.game.set_forced(root.clone(), &ctx);
        self.perform(action);
        let dir = store::root_dir(&self.paths.data_dir);
        Task::perform(async move { store::save(&dir, &root) }, Message::ForcedSaved)
    }
}
