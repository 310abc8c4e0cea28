//! Game ▸ Review's Export: where to save the review's text, then writing it in the background.

use std::path::PathBuf;

use iced::Task;

use super::App;
use crate::dialog::{self, Purpose};
use crate::log::LogLine;
use crate::message::Message;
use crate::notice::Notice;

impl App {
    /// Asks where to save the review shown (in the data folder's `reviews`, named after the time).
    pub(super) fn export_review(&mut self) -> Task<Message> {
        if self.game.review().is_none() {
            return Task::none();
        }
        let s = self.language.strings();
        let stamp = shirokuro_engine::calendar::UtcDateTime::of(std::time::SystemTime::now()).stamp();
        let request = dialog::Request {
            purpose: Purpose::ExportReview,
            folder: self.paths.data_dir.join("reviews"),
            name: Some(format!("review-{stamp}.txt")),
            filter: s.text_files.clone(),
        };
        dialog::pick(request, Message::FilePicked)
    }

    /// Writes the review's text to `path` (atomically, in the background).
    pub(super) fn save_review(&mut self, path: PathBuf) -> Task<Message> {
        let Some(review) = self.game.review() else { return Task::none() };
        let players = self.in_out.players();
        let text = crate::review::export_text(review, self.language.strings(), &players.black, &players.white);
        Task::perform(
            async move { crate::fsutil::write_atomic(&path, text.as_bytes()).map(|()| path) },
            Message::ReviewSaved,
        )
    }

    /// The review's text was written (logged) or not (a notice).
    pub(super) fn review_saved(&mut self, result: Result<PathBuf, crate::fsutil::SaveFailure>) -> Task<Message> {
        match result {
            Ok(path) => self.game.log(LogLine::ReviewSaved(path)),
            Err(error) => self.notices.push(Notice::ReviewSaveFailed { error }),
        }
        Task::none()
    }
}
