//! The training screens' place in the root: opened from the menus with what they need, shown instead of the game
//! screen, and their tasks, notices and closing carried out here.

use iced::Task;

use super::App;
use crate::message::Message;
use crate::study::{self, Env, Open, Screen};

impl App {
    /// The training screen shown, if any (for tests).
    #[must_use]
    pub fn study(&self) -> Option<&Screen> {
        self.study.as_ref()
    }

    /// Opens a training screen (closing any box).
    pub(super) fn open_study(&mut self, which: Open) -> Task<Message> {
        self.modal = None;
        let env = Env {
            study_file: Env::study_file_in(&self.paths.data_dir),
            weights_file: self.paths.weights_file(),
            book: if self.settings.use_book { self.books.snapshot().cloned() } else { None },
            position: self.game.position(),
            lines: self
                .game
                .forced_root()
                .enabled_lines()
                .into_iter()
                .map(|(line, _weight)| line.into_iter().map(shirokuro_engine::Move::Place).collect())
                .collect(),
            style: self.settings.display.board_style,
        };
        let (screen, action) = Screen::open(which, env);
        self.study = Some(screen);
        self.study_action(action)
    }

    pub(super) fn study_message(&mut self, message: study::Message) -> Task<Message> {
        let Some(screen) = &mut self.study else { return Task::none() };
        let action = screen.update(message);
        self.study_action(action)
    }

    fn study_action(&mut self, action: study::Action) -> Task<Message> {
        if let Some(notice) = action.notice {
            self.notices.push(notice);
        }
        if action.close {
            self.study = None;
        }
        action.task.map_or_else(Task::none, |task| task.map(Message::Study))
    }
}
