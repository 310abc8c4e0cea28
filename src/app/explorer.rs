//! The Archive Explorer's place in the root: its lookups follow the position shown, its actions (play a move, load a
//! game, pick the files to import, a notice) are carried out here, and its panel takes the log's place on the game
//! screen.

use iced::{Element, Task};
use shirokuro_engine::Move;

use super::{App, make_ctx};
use crate::context::Ctx;
use crate::dialog::{self, Purpose};
use crate::explorer::{self, Action, Value};
use crate::game;
use crate::message::Message;

impl App {
    /// The Archive Explorer (for tests).
    #[must_use]
    pub fn explorer(&self) -> &explorer::Explorer {
        &self.explorer
    }

    /// A lookup of the position shown, when the panel is on and the position or its filter changed.
    pub(super) fn follow_explorer(&mut self) -> Task<Message> {
        let shown = self.settings.display.show_explorer && self.modal.is_none();
        self.explorer.follow(self.game.position(), shown).map(Message::Explorer)
    }

    pub(super) fn explorer_message(&mut self, message: explorer::Message) -> Task<Message> {
        match self.explorer.update(message) {
            Action::None => Task::none(),
            Action::Run(task) => task.map(Message::Explorer),
            Action::Play(Move::Place(square)) => self.game_message(game::Message::SquareClicked(square)),
            Action::Play(Move::Pass) => self.game_message(game::Message::PassPressed),
            Action::Load(aligned) => {
                self.game_file = None;
                let ctx = make_ctx(&self.settings, self.language, &self.books);
                let action = self.game.load_line_at(aligned.start, &aligned.moves, aligned.ply, &ctx);
                self.perform(action);
                Task::none()
            }
            Action::PickFiles => {
                let request = dialog::Request {
                    purpose: Purpose::Archive,
                    folder: self.paths.data_dir.clone(),
                    name: None,
                    filter: self.language.strings().explorer_files.clone(),
                };
                dialog::pick(request, Message::FilePicked)
            }
            Action::Notice(notice) => {
                self.notices.push(notice);
                Task::none()
            }
        }
    }

    /// The panel, when it is on: the values beside the moves are the book's (when the book is in use and has the
    /// move), else the hints'.
    pub(super) fn explorer_panel(&self, ctx: &Ctx<'_>) -> Option<Element<'_, Message>> {
        if !ctx.settings.display.show_explorer {
            return None;
        }
        let position = self.game.position();
        let mut values: Vec<Value> = ctx
            .book
            .and_then(crate::book::SharedBook::read)
            .map(|book| book.move_values(&position.board))
            .unwrap_or_default()
            .into_iter()
            .map(|v| Value { mv: v.mv, value: i32::from(v.value) })
            .collect();
        for (square, value) in self.game.hint_values() {
            if !values.iter().any(|v| v.mv == Move::Place(square)) {
                values.push(Value { mv: Move::Place(square), value });
            }
        }
        Some(self.explorer.view(ctx.strings(), &values).map(Message::Explorer))
    }
}
