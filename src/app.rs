//! The application root: settings, language and notices, the features (game, book, In/Out), the box shown and the
//! engine worker's handle. `update` only routes: each feature's message goes to it, and the [`Action`]s features
//! return are carried out here, where the features meet.
//!
//! [`Action`]: crate::game::Action

use std::path::PathBuf;
use std::time::Duration;

use iced::keyboard;
use iced::widget::{Column, button, column, container, row, stack, text};
use iced::{Element, Length, Subscription, Task, Theme};
use shirokuro_engine::notation::{ImportKind, import_any};
use shirokuro_engine::random_board::RandomBoardError;

use crate::book::{self, Books, Operation, Outcome, Shown};
use crate::context::Ctx;
use crate::dialog::{self, Picked, Purpose};
use crate::engine_worker::{self, EngineOptions, Event, Handle};
use crate::game::{self, Action, Game, Order};
use crate::i18n::Language;
use crate::in_out::{self, InOut};
use crate::log::LogLine;
use crate::menu;
use crate::message::Message;
use crate::modal::{self, FileChooser, Modal, text_box};
use crate::notice::{Notice, TextProblem};
use crate::open_file;
use crate::settings::{self, Change, Paths, Settings};

mod boxes;
mod desktop;
mod explorer;
mod forced;
mod keys;
mod migration;
mod profiles;
mod review;
mod study;

pub use desktop::window_event;
pub use forced::load_forced;

/// Height kept for the status line at the bottom (the book's progress), so that it never moves the board.
const STATUS_HEIGHT: f32 = 34.0;

/// The application state.
pub struct App {
    paths: Paths,
    settings: Settings,
    language: Language,
    notices: Vec<Notice>,
    game: Game,
    books: Books,
    in_out: InOut,
    explorer: crate::explorer::Explorer,
    /// The training screen shown instead of the game (quiz, opening trainer, progress), if any.
    study: Option<crate::study::Screen>,
    engine: Option<Handle>,
    modal: Option<Modal>,
    /// Whether the user has been told that the system has no file dialog.
    told_no_dialog: bool,
    saving: bool,
    dirty: bool,
    /// Closing: the window's close button or a signal; the app ends once the book and the settings are saved.
    closing: bool,
    /// While closing: the book worker has ended its queue.
    book_flushed: bool,
    /// The game file the game was opened from or last saved to (the window title shows its name).
    game_file: Option<PathBuf>,
    /// What the current AI and display profiles held when loaded or saved (auto-save writes only a changed one).
    profile_bases: [Option<settings::profile::Part>; 2],
    /// While closing: profile auto-saves still under way.
    profiles_pending: usize,
}

/// The feature context from the app's fields (a function so that other fields stay free to borrow mutably).
fn make_ctx<'a>(settings: &'a Settings, language: Language, books: &'a Books) -> Ctx<'a> {
    Ctx { settings, language, book: if settings.use_book { books.snapshot() } else { None } }
}

impl App {
    /// The app with loaded settings and any notices from loading them.
    #[must_use]
    pub fn new(paths: Paths, loaded: settings::Loaded) -> App {
        let settings = loaded.settings;
        let language = settings.language.unwrap_or_else(Language::from_os);
        let game = Game::new(&Ctx { settings: &settings, language, book: None });
        let profile_bases = profiles::bases_at_start(&settings);
        let explorer = crate::explorer::Explorer::new(&paths.data_dir);
        App {
            paths,
            settings,
            language,
            notices: loaded.notices,
            game,
            books: Books::default(),
            in_out: InOut::default(),
            explorer,
            study: None,
            engine: None,
            modal: None,
            told_no_dialog: false,
            saving: false,
            closing: false,
            book_flushed: false,
            dirty: false,
            game_file: None,
            profile_bases,
            profiles_pending: 0,
        }
    }

    /// The book snapshot loaded (whether or not it is in use).
    #[must_use]
    pub fn book(&self) -> Option<&book::SharedBook> {
        self.books.snapshot()
    }

    /// The Book feature (for tests).
    #[must_use]
    pub fn books(&self) -> &Books {
        &self.books
    }

    /// The box shown, if any.
    #[must_use]
    pub fn modal(&self) -> Option<&Modal> {
        self.modal.as_ref()
    }

    /// The book file: the one in the settings, or `<data dir>/book.egbk3`.
    #[must_use]
    pub fn book_file(&self) -> PathBuf {
        self.settings.book_file.clone().unwrap_or_else(|| self.paths.default_book_file())
    }

    /// The game (for tests).
    #[must_use]
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The In/Out feature (for tests).
    #[must_use]
    pub fn in_out(&self) -> &InOut {
        &self.in_out
    }

    /// Current settings.
    #[must_use]
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Current language.
    #[must_use]
    pub fn language(&self) -> Language {
        self.language
    }

    /// Notices waiting to be dismissed.
    #[must_use]
    pub fn notices(&self) -> &[Notice] {
        &self.notices
    }

    fn ctx(&self) -> Ctx<'_> {
        make_ctx(&self.settings, self.language, &self.books)
    }

    /// Routes a message.
    pub fn update(&mut self, message: Message) -> Task<Message> {
        let task = self.route(message);
        self.books.ask_for_views(&self.settings, self.game.position());
        let lookup = self.follow_explorer();
        Task::batch([task, lookup])
    }

    fn route(&mut self, message: Message) -> Task<Message> {
        match message {
            Message::Game(message) => self.game_message(message),
            Message::Book(message) => self.book_message(message),
            Message::InOut(message) => {
                // A capture is framed as the settings ask before it is saved.
                let message = match message {
                    in_out::Message::ScreenshotTaken(bounds, shot) => {
                        let framing = crate::screenshot::Framing {
                            coordinates: self.settings.screenshot_coordinates,
                            margin: self.settings.screenshot_margin,
                        };
                        in_out::Message::ScreenshotTaken(bounds.map(|b| crate::screenshot::framed(b, framing)), shot)
                    }
                    other => other,
                };
                let screenshots = self.screenshot_folder();
                let s = self.language.strings();
                let action = self.in_out.update(message, &self.game, s, &self.paths.data_dir, &screenshots);
                self.in_out_action(action)
            }
            Message::Modal(message) => self.modal_message(message),
            Message::Explorer(message) => self.explorer_message(message),
            Message::Study(message) => self.study_message(message),
            Message::OpenStudy(which) => self.open_study(which),
            Message::Engine(event) => self.engine_event(event),
            Message::NewGame(mode) => {
                (self.settings.ai_plays_black, self.settings.ai_plays_white) = mode.ai_sides();
                self.game_file = None;
                let action = self.game.new_game(&make_ctx(&self.settings, self.language, &self.books));
                self.perform(action);
                self.save()
            }
            Message::Setting(change) => self.change(change),
            Message::LanguageSelected(language) => {
                self.language = language;
                self.settings.language = Some(language);
                self.game.language_changed(&make_ctx(&self.settings, language, &self.books));
                self.save()
            }
            Message::Profiles(kind) => self.open_profiles(kind),
            Message::ProfileLoaded(kind, name, loaded) => self.profile_loaded(kind, name, loaded),
            Message::ProfileSaved(kind, name, saved) => self.profile_saved(kind, name, saved),
            Message::ProfilesAutoSaved => {
                self.profiles_pending = self.profiles_pending.saturating_sub(1);
                self.close_when_saved()
            }
            Message::ShortcutKeys | Message::ButtonSettings | Message::Run(_) | Message::MouseButton(_) => {
                self.button_message(message)
            }
            Message::ForcedOpenings | Message::ForcedLoaded(_) | Message::ForcedSaved(_) => {
                self.forced_message(message)
            }
            Message::Migration(_) | Message::Exported(_) | Message::Imported(_) => self.migration_message(message),
            Message::LossCurves => {
                let unlimited = &self.language.strings().book_unlimited;
                self.modal = Some(Modal::LossCurves(modal::loss_curves::LossCurvesBox::new(unlimited)));
                Task::none()
            }
            Message::About => {
                self.modal = Some(Modal::About);
                Task::none()
            }
            Message::Licences => {
                self.modal = Some(Modal::Licences(modal::licences::Licences::default()));
                Task::none()
            }
            Message::HowToUse | Message::ReportProblem | Message::Website | Message::LinkOpened(..) => {
                self.help_message(message)
            }
            Message::OpenFile(path) => Task::perform(async move { open_file::classify(path) }, Message::FileClassified),
            Message::FileClassified(classified) => self.open_classified(classified),
            Message::WindowMoved(point) => self.moved(point),
            Message::DeviateTranscripts => {
                self.modal = Some(Modal::Text(modal::TextBox::new(text_box::Purpose::DeviateTranscripts)));
                Task::none()
            }
            Message::FilePicked(request, picked) => self.file_picked(request, picked),
            Message::Key(event) => self.key(event),
            Message::WindowResized(size) => self.resized(size),
            Message::SettingsSaved(result) => self.saved(result),
            Message::ReviewSaved(result) => self.review_saved(result),
            Message::NoticeDismissed(index) => {
                if index < self.notices.len() {
                    let _removed = self.notices.remove(index);
                }
                Task::none()
            }
            Message::Tick => Task::none(),
            Message::CloseRequested => {
                // A running book operation stops; what it did, and any change not yet written, is saved first.
                let mut tasks = Vec::new();
                if !self.closing {
                    self.closing = true;
                    self.book_flushed = !self.books.flush();
                    tasks = self.auto_save_profiles();
                }
                tasks.push(self.close_when_saved());
                Task::batch(tasks)
            }
        }
    }

    fn game_message(&mut self, message: game::Message) -> Task<Message> {
        // Stop (Q) also stops a running book operation.
        if matches!(message, game::Message::Stop) {
            self.books.stop();
        }
        if matches!(message, game::Message::Review(crate::review::Message::Export)) {
            return self.export_review();
        }
        let opens_editor = matches!(message, game::Message::SquareRightClicked(_));
        let action = self.game.update(message, &make_ctx(&self.settings, self.language, &self.books));
        self.perform(action);
        if opens_editor && self.game.book_edit().is_some() {
            iced::widget::operation::focus(game::BOOK_EDIT_INPUT)
        } else {
            Task::none()
        }
    }

    fn shown(&self) -> Shown {
        Shown { position: self.game.position(), line: self.game.line_to_cursor() }
    }

    fn book_message(&mut self, message: book::Message) -> Task<Message> {
        let shown = self.shown();
        let start = book::StartFiles {
            file: self.book_file(),
            shipped: self.settings.book_file.is_none().then(|| self.paths.shipped_book()),
            network: self.paths.network_file(self.settings.evaluation),
        };
        match self.books.update(message, &self.settings, &shown, start) {
            book::Action::None => {}
            book::Action::PickFile(operation) => {
                let name = operation.writes_file().then(|| "book.egbk3".to_owned());
                let folder = self.book_file().parent().map_or_else(|| self.paths.data_dir.clone(), PathBuf::from);
                let filter = self.language.strings().book_files.clone();
                let request = dialog::Request { purpose: Purpose::Book(operation), folder, name, filter };
                return dialog::pick(request, Message::FilePicked);
            }
            book::Action::ConfirmReset => {
                let positions = self.books.snapshot().map_or(0, book::SharedBook::len);
                let question = modal::confirm::Question::ResetBook { positions, file: self.book_file() };
                self.modal = Some(Modal::Confirm(question));
            }
            book::Action::Changed => {
                // Book moves and values may have changed: plan again.
                let action = self.game.settings_changed(&make_ctx(&self.settings, self.language, &self.books));
                self.perform(action);
            }
            book::Action::Started(operation) => self.game.log(LogLine::BookStarted(operation)),
            book::Action::Finished { operation: Operation::Flush, .. } => {
                self.book_flushed = true;
                return self.close_when_saved();
            }
            book::Action::Finished { operation, outcome } => {
                match &outcome {
                    Outcome::Failed(error) => self.notices.push(Notice::BookFailed { error: error.clone() }),
                    Outcome::NoFile => self.notices.push(Notice::BookNotWritable),
                    Outcome::Done { positions, .. } => self.warn_if_small(operation, *positions),
                    Outcome::Stopped { .. } => {}
                }
                if !operation.is_quiet() {
                    let line = LogLine::BookFinished(operation, outcome);
                    tracing::info!(target: "shirokuro::book", "{}", line.text(Language::English.strings()));
                    self.game.log(line);
                }
            }
            book::Action::Notice(notice) => self.notices.push(notice),
            book::Action::ShowInfo(info) => self.modal = Some(Modal::BookInfo(info)),
            book::Action::Views { position, views } => {
                self.game.set_book_views(position, views, &make_ctx(&self.settings, self.language, &self.books));
            }
            book::Action::Referenced(path) => {
                self.settings.book_file = Some(path);
                return self.save();
            }
        }
        Task::none()
    }

    fn in_out_action(&mut self, action: in_out::Action) -> Task<Message> {
        match action {
            in_out::Action::None => Task::none(),
            in_out::Action::Run(task) => task.map(Message::InOut),
            in_out::Action::Notice(notice) => {
                self.notices.push(notice);
                Task::none()
            }
            in_out::Action::Log(line) => {
                if let LogLine::GameSaved(path) = &line {
                    self.game_file = Some(path.clone());
                }
                self.game.log(line);
                Task::none()
            }
            in_out::Action::Import(text) => {
                let _taken = self.import_text(&text);
                Task::none()
            }
            in_out::Action::LoadGame(path, file) => {
                let action = self.game.load_game(&file, &make_ctx(&self.settings, self.language, &self.books));
                self.perform(action);
                self.game_file = Some(path.clone());
                self.game.log(LogLine::GameOpened(path));
                Task::none()
            }
            in_out::Action::Open(modal, task) => {
                self.modal = Some(modal);
                task.map(Message::Modal)
            }
            in_out::Action::PickFile(request) => dialog::pick(request, Message::FilePicked),
        }
    }

    /// A system file dialog answered: the file is used; without a system dialog the app's own chooser opens, in the
    /// request's folder with its proposed name.
    fn file_picked(&mut self, request: dialog::Request, picked: Picked) -> Task<Message> {
        match picked {
            Picked::Chosen(path) => self.file_chosen(request.purpose, path),
            Picked::Cancelled => Task::none(),
            Picked::Unavailable => {
                if !self.told_no_dialog {
                    self.told_no_dialog = true;
                    self.notices.push(Notice::NoFileDialog);
                }
                let _ = std::fs::create_dir_all(&request.folder);
                let (chooser, task) = FileChooser::new(request.purpose, request.folder, request.name);
                self.modal = Some(Modal::FileChooser(chooser));
                Task::batch([
                    task.map(|m| Message::Modal(modal::Message::Chooser(m))),
                    iced::widget::operation::focus(modal::file_chooser::PATH_INPUT),
                ])
            }
        }
    }

    /// A file was chosen (by the system's dialog or the app's chooser) for `purpose`.
    fn file_chosen(&mut self, purpose: Purpose, path: PathBuf) -> Task<Message> {
        match purpose {
            Purpose::SaveGame => {
                let mut file = self.in_out.game_file(&self.game, self.settings.level);
                if file.review.is_some()
                    && let Some(review) = self.game.review()
                {
                    let summary = crate::review::memo_text(review, self.language.strings());
                    file.memo = crate::review::memo_with_review(&file.memo, &summary);
                }
                InOut::save(file, path).map(Message::InOut)
            }
            Purpose::OpenGame => InOut::open(path).map(Message::InOut),
            Purpose::ExportReview => self.save_review(path),
            Purpose::Book(operation) => self.book_message(book::Message::FileChosen(operation, path)),
            Purpose::Archive => self.explorer_message(crate::explorer::Message::FilesChosen(vec![path])),
        }
    }

    /// Reads `text` in any format Egaroucid reads (GGF, Othello Quest, transcript, a continuation of the current
    /// position, board, coordinates in other text): a continuation is played on from the position shown, anything
    /// else replaces the game. `false`, with a notice, when nothing fits.
    fn import_text(&mut self, text: &str) -> bool {
        let ctx = make_ctx(&self.settings, self.language, &self.books);
        match import_any(text, self.game.position()) {
            Ok(imported) => {
                let action = if imported.kind == ImportKind::Continuation {
                    self.game.play_moves(&imported.moves, &ctx)
                } else {
                    self.game_file = None;
                    self.game.load_line(imported.start, &imported.moves, &ctx)
                };
                self.perform(action);
                true
            }
            Err(error) => {
                self.notices.push(Notice::TranscriptRejected { problem: TextProblem::Import(error) });
                false
            }
        }
    }

    /// Carries out a game action: engine orders, book edits.
    fn perform(&mut self, action: Action) {
        match action {
            Action::None => {}
            Action::BookEdit { board, mv, value } => {
                let _ = self.book_message(book::Message::Edit { board, mv, value });
            }
            Action::Engine(order) => {
                let Some(engine) = &self.engine else { return };
                match order {
                    Order::Start(request) => engine.send(request),
                    Order::Cancel(generation) => engine.cancel(generation),
                    Order::ClearCache => engine.clear_cache(),
                }
            }
        }
    }

    fn engine_options(&self) -> EngineOptions {
        EngineOptions {
            threads: self.settings.threads,
            hash_level: self.settings.hash_level,
            network: self.paths.network_file(self.settings.evaluation),
        }
    }

    fn engine_event(&mut self, event: Event) -> Task<Message> {
        match event {
            Event::Ready(handle) => {
                handle.configure(self.engine_options());
                self.engine = Some(handle);
            }
            Event::Configured => {
                let action = self.game.engine_ready(&make_ctx(&self.settings, self.language, &self.books));
                self.perform(action);
            }
            Event::WeightsFailed(error) => self.notices.push(Notice::WeightsFailed { error }),
            Event::NetworkFailed(error) => self.notices.push(Notice::NetworkFailed { error }),
            Event::EngineFailed(error) => self.notices.push(Notice::EngineFailed { error }),
            event => {
                if let Event::RandomBoard {
                    generation,
                    result: Err(RandomBoardError::NotFound { moves, min, max, .. }),
                } = &event
                    && *generation == self.game.generation()
                {
                    self.notices.push(Notice::RandomBoardNotFound { moves: *moves, min: *min, max: *max });
                }
                let action = self.game.on_engine(event, &make_ctx(&self.settings, self.language, &self.books));
                self.perform(action);
            }
        }
        Task::none()
    }

    fn change(&mut self, change: Change) -> Task<Message> {
        let reconfigure = self.settings.apply(change);
        if reconfigure && let Some(engine) = &self.engine {
            // Abandon the running job; the game re-plans when the rebuilt engine reports `Configured`.
            engine.cancel(u64::MAX);
            engine.configure(self.engine_options());
        }
        if reconfigure {
            self.books.use_network(self.paths.network_file(self.settings.evaluation));
        }
        let action = self.game.settings_changed(&make_ctx(&self.settings, self.language, &self.books));
        self.perform(action);
        self.save()
    }

    /// The engine and book workers, the keyboard, window resizes, and a tick while a long job runs (the elapsed
    /// time and the progress bar move).
    pub fn subscription(&self) -> Subscription<Message> {
        let mut subscriptions = vec![
            engine_worker::subscription(self.paths.weights_file()).map(Message::Engine),
            book::worker::subscription(self.paths.weights_file()).map(|e| Message::Book(book::Message::Worker(e))),
            keyboard::listen().map(Message::Key),
            iced::window::close_requests().map(|_id| Message::CloseRequested),
            crate::signals::subscription().map(|()| Message::CloseRequested),
            iced::window::resize_events().map(|(_id, size)| Message::WindowResized(size)),
            iced::event::listen_with(window_event),
        ];
        if self.game.clocks().is_running() {
            subscriptions.push(
                iced::time::every(Duration::from_millis(200))
                    .map(|now| Message::Game(game::Message::Clock(game::ClockMessage::Tick(now)))),
            );
        }
        if self.books.running().is_some() || self.game.is_thinking() || self.game.is_busy() {
            subscriptions.push(iced::time::every(Duration::from_millis(250)).map(|_| Message::Tick));
        }
        Subscription::batch(subscriptions)
    }

    /// The window: the menu bar, the game screen (or the box shown) and the status line; notices float over the
    /// bottom of the screen so that they never move the board.
    pub fn view(&self) -> Element<'_, Message> {
        let ctx = self.ctx();
        let s = ctx.strings();
        // The bar fills what the shortcut buttons leave.
        let menu =
            row![menu::bar(&ctx, self.game.is_paused(), self.books.running().is_some()), self.shortcut_buttons(s)]
                .align_y(iced::Alignment::Center);
        let main: Element<'_, Message> = match &self.modal {
            Some(modal) => modal.view(s, &self.paths.settings_file, &self.settings.ai_loss).map(Message::Modal),
            None => match &self.study {
                Some(screen) => screen.view(s).map(Message::Study),
                None => self.game.view_with(&ctx, Message::Game, self.explorer_panel(&ctx)),
            },
        };
        let status = self.books.progress_view(s).map_or_else(|| Element::from(text("")), |p| p.map(Message::Book));
        let status = container(status).padding([4, 10]).width(Length::Fill).height(Length::Fixed(STATUS_HEIGHT));
        let page = column![menu, container(main).height(Length::Fill), status];
        if self.notices.is_empty() {
            return page.into();
        }
        let mut notices = Column::new().spacing(4);
        for (index, notice) in self.notices.iter().enumerate() {
            let line = row![
                text(notice.text(s)).width(Length::Fill),
                button(text(s.dismiss.clone())).on_press(Message::NoticeDismissed(index)),
            ]
            .spacing(8)
            .align_y(iced::Alignment::Center);
            notices = notices.push(container(line).padding(6).width(Length::Fill).style(container::warning));
        }
        // Over the bottom of the side panels (the log), clear of the board on the left.
        let overlay = container(container(notices).id("notices").max_width(520))
            .align_bottom(Length::Fill)
            .align_right(Length::Fill)
            .padding(iced::Padding { bottom: STATUS_HEIGHT + 6.0, ..iced::Padding::new(10.0) });
        stack![page, overlay].into()
    }

    /// The theme.
    #[must_use]
    pub fn theme(&self) -> Theme {
        Theme::Dark
    }
}
