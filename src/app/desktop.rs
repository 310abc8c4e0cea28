//! What makes the app a desktop program: files opened from the command line or dropped on the window, links handed
//! to the desktop, the window's place and size remembered, the settings saved in the background, and the end of the
//! app once everything is saved.

use iced::Task;
use shirokuro_engine::book::BookFormat;

use super::App;
use crate::help;
use crate::in_out::InOut;
use crate::message::Message;
use crate::modal::{self, Modal};
use crate::notice::Notice;
use crate::open_file;
use crate::settings;
use crate::shortcut::MouseButton;

/// The window's moves, the files dropped on it, and the mouse's extra buttons (their functions are in the settings;
/// Egaroucid's defaults: the back button goes one move back, the forward button one move forward).
pub fn window_event(event: iced::Event, _status: iced::event::Status, _window: iced::window::Id) -> Option<Message> {
    use iced::mouse::{Button, Event as Mouse};
    match event {
        iced::Event::Window(iced::window::Event::Moved(point)) => Some(Message::WindowMoved(point)),
        iced::Event::Window(iced::window::Event::FileDropped(path)) => Some(Message::OpenFile(path)),
        iced::Event::Mouse(Mouse::ButtonPressed(button)) => match button {
            Button::Middle => Some(Message::MouseButton(MouseButton::Middle)),
            Button::Back => Some(Message::MouseButton(MouseButton::Back)),
            Button::Forward => Some(Message::MouseButton(MouseButton::Forward)),
            _ => None,
        },
        _ => None,
    }
}

/// Asks the desktop to show `target` (an address or a file) in the background; a failure becomes a notice.
pub(super) fn open_link(target: String) -> Task<Message> {
    Task::perform(
        async move {
            let result = help::open(&target);
            (target, result)
        },
        |(target, result)| Message::LinkOpened(target, result),
    )
}

/// Fewer positions than this, and a book is too small to trust: its values replace the search's on the few moves it
/// holds and the AI plays them at once.
pub const SMALL_BOOK: usize = 1_000;

impl App {
    /// Help ▸ How to Use, Report a Problem and Website, and what the desktop said about a link it was given.
    pub(super) fn help_message(&mut self, message: Message) -> Task<Message> {
        match message {
            Message::HowToUse => {
                let exe = std::env::current_exe().ok();
                let candidates = help::manual_candidates(self.language, exe.as_deref(), &self.paths.resources_dir);
                match help::find_manual(candidates) {
                    Ok(manual) => open_link(manual.to_string_lossy().into_owned()),
                    Err(looked) => {
                        self.notices.push(Notice::ManualMissing { looked });
                        Task::none()
                    }
                }
            }
            Message::ReportProblem => open_link(help::ISSUES.to_owned()),
            Message::Website => open_link(help::WEBSITE.to_owned()),
            Message::LinkOpened(target, Err(error)) => {
                tracing::warn!("no program opened {target}: {}", error.message);
                self.notices.push(Notice::LinkFailed { target });
                Task::none()
            }
            _ => Task::none(),
        }
    }

    /// After a book was loaded (at start, by Book Reference or Import, or the default book put back): when it is in use
    /// but too small to trust, say so and offer to turn Use Book off until it has grown.
    pub(super) fn warn_if_small(&mut self, operation: crate::book::Operation, positions: usize) {
        use crate::book::Operation;
        let loaded = matches!(operation, Operation::Load | Operation::Reference | Operation::Import);
        if loaded && self.settings.use_book && (1..SMALL_BOOK).contains(&positions) && self.modal.is_none() {
            self.modal = Some(Modal::Confirm(modal::confirm::Question::SmallBook { positions }));
        }
    }

    /// The window title: the app's name, after the game file's name when the game came from one.
    #[must_use]
    pub fn title(&self) -> String {
        let name = &self.language.strings().window_title;
        match self.game_file.as_deref().and_then(std::path::Path::file_name) {
            Some(file) => format!("{} — {name}", file.to_string_lossy()),
            None => name.clone(),
        }
    }

    /// A file to open was read: a game opens as Open Game opens it, text as Input Text reads it, and a book is asked
    /// about first (use it from now on, or merge it into the book in use).
    pub(super) fn open_classified(&mut self, classified: open_file::Classified) -> Task<Message> {
        let open_file::Classified { path, kind } = classified;
        match kind {
            Ok(open_file::Kind::Game) => return InOut::open(path).map(Message::InOut),
            Ok(open_file::Kind::Text(text)) => {
                let _taken = self.import_text(&text);
            }
            Ok(open_file::Kind::Book(BookFormat::Egbk3)) => {
                self.modal = Some(Modal::Confirm(modal::confirm::Question::UseBook { file: path }));
            }
            Ok(open_file::Kind::Book(format)) => {
                self.modal = Some(Modal::Confirm(modal::confirm::Question::MergeBook { file: path, format }));
            }
            Err(problem) => self.notices.push(Notice::OpenFailed { file: path, problem }),
        }
        Task::none()
    }

    pub(super) fn moved(&mut self, point: iced::Point) -> Task<Message> {
        let position = [point.x.round() as i32, point.y.round() as i32];
        let kept = position.iter().all(|v| settings::WINDOW_POSITIONS.contains(v)).then_some(position);
        if kept == self.settings.window_position {
            return Task::none();
        }
        self.settings.window_position = kept;
        self.save()
    }

    pub(super) fn resized(&mut self, size: iced::Size) -> Task<Message> {
        let side = |v: f32| (v.round() as u32).clamp(*settings::WINDOW_SIDES.start(), *settings::WINDOW_SIDES.end());
        let (width, height) = (side(size.width), side(size.height));
        if (width, height) == (self.settings.window_width, self.settings.window_height) {
            return Task::none();
        }
        (self.settings.window_width, self.settings.window_height) = (width, height);
        self.save()
    }

    /// Saves the settings in the background; a save while one runs is done after it.
    pub(super) fn save(&mut self) -> Task<Message> {
        if self.saving {
            self.dirty = true;
            return Task::none();
        }
        self.saving = true;
        self.dirty = false;
        let settings = self.settings.clone();
        let path = self.paths.settings_file.clone();
        Task::perform(async move { settings::save(&settings, &path) }, Message::SettingsSaved)
    }

    pub(super) fn saved(&mut self, result: Result<(), crate::fsutil::SaveFailure>) -> Task<Message> {
        self.saving = false;
        if let Err(error) = result {
            self.notices.push(Notice::SaveFailed { error });
        }
        if self.dirty { self.save() } else { self.close_when_saved() }
    }

    /// Ends the app when it is closing and nothing is left to save (the book worker's queue ended, the settings
    /// written).
    pub(super) fn close_when_saved(&mut self) -> Task<Message> {
        if self.may_exit() { iced::exit() } else { Task::none() }
    }

    /// Whether the app is closing and everything is saved, so that it ends (the condition of [`App::update`]'s exit).
    #[must_use]
    pub fn may_exit(&self) -> bool {
        self.closing && self.book_flushed && !self.saving && !self.dirty && self.profiles_pending == 0
    }
}
