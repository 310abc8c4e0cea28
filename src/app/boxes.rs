//! What the boxes ask the root to do: a text taken, a game's names, a position, a setting, a file chosen, a question
//! answered, a profile request.

use iced::Task;

use super::{App, make_ctx};
use crate::book::{self, Operation};
use crate::dialog;
use crate::in_out::InOut;
use crate::message::Message;
use crate::modal::{self, text_box};
use crate::notice::Notice;
use crate::settings::Change;

impl App {
    /// The boxes of the shortcut keys and buttons, and the functions the buttons start.
    pub(super) fn button_message(&mut self, message: Message) -> Task<Message> {
        let function = match message {
            Message::ShortcutKeys => {
                let keys = modal::shortcut_keys::ShortcutKeysBox::new(self.settings.shortcuts.clone());
                self.modal = Some(modal::Modal::ShortcutKeys(keys));
                return Task::none();
            }
            Message::ButtonSettings => {
                self.modal = Some(modal::Modal::Buttons(modal::buttons::ButtonsBox::new(self.settings.buttons)));
                return Task::none();
            }
            Message::Run(function) => Some(function),
            Message::MouseButton(button) => self.settings.buttons.mouse(button),
            _ => None,
        };
        function.map_or_else(Task::none, |f| self.update(crate::shortcut::message(f, &self.settings)))
    }

    /// The shortcut buttons that have a function, for the right of the menu bar.
    pub(super) fn shortcut_buttons<'a>(&self, s: &crate::i18n::Strings) -> iced::Element<'a, Message> {
        let mut buttons = iced::widget::Row::new().spacing(4).padding([0, 8]);
        for (index, function) in self.settings.buttons.on_screen.iter().enumerate() {
            if let Some(function) = function {
                let label = iced::widget::text(function.label(s).to_owned()).size(12);
                let button = iced::widget::button(label).padding([2, 6]).on_press(Message::Run(*function));
                buttons = buttons.push(iced::widget::container(button).id(format!("shortcut-button-{index}")));
            }
        }
        buttons.into()
    }

    /// The folder screenshots are saved in: the one chosen, else `screenshots/` in the data folder.
    pub(super) fn screenshot_folder(&self) -> std::path::PathBuf {
        self.settings.screenshot_dir.clone().unwrap_or_else(|| self.paths.data_dir.join(crate::screenshot::FOLDER))
    }

    /// Whether Shortcut Key Settings waits for a new key (key presses go to it, not to the shortcuts).
    pub(super) fn waits_for_key(&self) -> bool {
        matches!(&self.modal, Some(modal::Modal::ShortcutKeys(keys)) if keys.is_waiting())
    }

    pub(super) fn modal_message(&mut self, message: modal::Message) -> Task<Message> {
        let Some(modal) = &mut self.modal else { return Task::none() };
        match modal.update(message) {
            modal::Action::None => Task::none(),
            modal::Action::Close => {
                self.modal = None;
                Task::none()
            }
            modal::Action::Run(task) => task.map(Message::Modal),
            modal::Action::Text(text_box::Purpose::Import, text) => {
                if self.import_text(&text) {
                    self.modal = None;
                }
                Task::none()
            }
            modal::Action::Text(text_box::Purpose::ScreenshotFolder, text) => {
                let text = text.trim();
                let folder = std::path::PathBuf::from(text);
                if !text.is_empty() && !folder.is_absolute() {
                    self.notices.push(Notice::NotAFolder { text: text.to_owned() });
                    return Task::none();
                }
                self.modal = None;
                self.settings.screenshot_dir = (!text.is_empty()).then_some(folder);
                self.save()
            }
            modal::Action::Text(purpose @ (text_box::Purpose::ExportData | text_box::Purpose::ImportData), text) => {
                self.migration_folder(purpose, text.trim())
            }
            modal::Action::Text(text_box::Purpose::DeviateTranscripts, text) => {
                match book::parse_transcript_lines(&text) {
                    Ok(lines) => {
                        self.modal = None;
                        return self.book_message(book::Message::DeviateTranscripts(lines));
                    }
                    Err(problem) => self.notices.push(Notice::TranscriptRejected { problem }),
                }
                Task::none()
            }
            modal::Action::Position(position) => {
                self.modal = None;
                self.game_file = None;
                let ctx = make_ctx(&self.settings, self.language, &self.books);
                let action = self.game.load_line(position, &[], &ctx);
                self.perform(action);
                Task::none()
            }
            modal::Action::Setting(change) => self.change(change),
            modal::Action::Shortcuts(table) => {
                self.settings.shortcuts = table;
                self.save()
            }
            modal::Action::Buttons(buttons) => {
                self.settings.buttons = buttons;
                self.save()
            }
            modal::Action::ForcedOpenings(root) => self.forced_changed(root),
            modal::Action::Profile(kind, request) => self.profile_request(kind, request),
            modal::Action::GameInfo(players) => {
                self.in_out.set_players(players);
                self.modal = None;
                Task::none()
            }
            modal::Action::SaveGame(players) => {
                self.modal = None;
                let request = self.in_out.players_given(players, self.language.strings(), &self.paths.data_dir);
                dialog::pick(request, Message::FilePicked)
            }
            modal::Action::OpenGame(path) => {
                self.modal = None;
                InOut::open(path).map(Message::InOut)
            }
            modal::Action::FileChosen(purpose, path) => {
                self.modal = None;
                self.file_chosen(purpose, path)
            }
            modal::Action::Confirmed(modal::confirm::Question::UseBook { file }) => {
                self.modal = None;
                self.book_message(book::Message::FileChosen(Operation::Reference, file))
            }
            modal::Action::Confirmed(modal::confirm::Question::MergeBook { file, .. }) => {
                self.modal = None;
                self.book_message(book::Message::FileChosen(Operation::Merge, file))
            }
            modal::Action::Confirmed(modal::confirm::Question::SmallBook { .. }) => {
                self.modal = None;
                self.change(Change::UseBook(false))
            }
            modal::Action::Confirmed(modal::confirm::Question::ResetBook { .. }) => {
                // The default book replaces the book in use, in the default book's file.
                self.modal = None;
                self.settings.book_file = None;
                self.books.reset_to_default(self.paths.default_book_file(), self.paths.shipped_book());
                self.save()
            }
        }
    }
}
