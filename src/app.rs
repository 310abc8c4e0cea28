//! The application root: settings, language, notices, the engine handle and the game screen. `update` only routes.

use iced::keyboard::{self, Key, key::Named};
use iced::widget::{Column, button, column, container, row, text};
use iced::{Element, Length, Subscription, Task, Theme};

use crate::engine_worker::{self, EngineOptions, Event, Handle};
use crate::i18n::{Language, fill};
use crate::menu;
use crate::screen::Ctx;
use crate::screen::game::{self, Action, Game, Mode, Order};
use crate::settings::{self, Notice, Paths, Settings};

/// A settings change from the menus or shortcuts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// AI level.
    Level(u8),
    /// Search threads.
    Threads(u16),
    /// Table size exponent.
    HashLevel(u8),
    /// AI plays Black.
    AiBlack(bool),
    /// AI plays White.
    AiWhite(bool),
    /// Pause when a human must pass.
    PauseOnPass(bool),
    /// Number of hint values.
    HintCount(u8),
    /// A display switch.
    Display(Toggle, bool),
}

/// The display switches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Toggle {
    /// Legal-move dots.
    Legal,
    /// Hint values.
    Hints,
    /// Hint search labels.
    HintLevel,
    /// Last-move mark.
    LastMove,
    /// Next-move mark.
    NextMove,
    /// Next move drawn as a square.
    NextMoveAsSquare,
    /// Stable discs.
    Stable,
    /// Info panel.
    Info,
    /// Graph.
    Graph,
    /// Log.
    Log,
    /// Colour-vision-friendly palette.
    AltPalette,
}

/// Root messages.
#[derive(Debug, Clone)]
pub enum Message {
    /// A game-screen message.
    Game(game::Message),
    /// An event from the engine worker.
    Engine(Event),
    /// Game ▸ New Game in this mode.
    NewGame(Mode),
    /// A settings change.
    Setting(Change),
    /// Language menu.
    LanguageSelected(Language),
    /// A key press no widget took.
    Key(keyboard::Event),
    /// The settings file was written (or not).
    SettingsSaved(Result<(), String>),
    /// A notice was dismissed.
    NoticeDismissed(usize),
    /// Help ▸ About opened (`true`) or closed.
    About(bool),
    /// In/Out ▸ Copy Transcript.
    CopyTranscript,
    /// In/Out ▸ Input Transcript from Clipboard.
    PasteTranscript,
    /// The clipboard's text arrived.
    ClipboardRead(Option<String>),
}

/// The application state.
pub struct App {
    paths: Paths,
    settings: Settings,
    language: Language,
    notices: Vec<Notice>,
    game: Game,
    engine: Option<Handle>,
    about_open: bool,
    saving: bool,
    dirty: bool,
}

impl App {
    /// The app with loaded settings and any notices from loading them.
    #[must_use]
    pub fn new(paths: Paths, loaded: settings::Loaded) -> App {
        let settings = loaded.settings;
        let language = settings.language.unwrap_or_else(Language::from_os);
        let game = Game::new(&Ctx { settings: &settings, language });
        App {
            paths,
            settings,
            language,
            notices: loaded.notices,
            game,
            engine: None,
            about_open: false,
            saving: false,
            dirty: false,
        }
    }

    /// Read-only context for the screen.
    fn ctx(&self) -> Ctx<'_> {
        Ctx { settings: &self.settings, language: self.language }
    }

    /// The game screen (for tests).
    #[must_use]
    pub fn game(&self) -> &Game {
        &self.game
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

    /// Whether the About box is open.
    #[must_use]
    pub fn is_about_open(&self) -> bool {
        self.about_open
    }

    /// The window title.
    #[must_use]
    pub fn title(&self) -> String {
        self.language.strings().window_title.clone()
    }

    /// Routes a message.
    pub fn update(&mut self, message: Message) -> Task<Message> {
        match message {
            Message::Game(message) => {
                let action = self.game.update(message, &Ctx { settings: &self.settings, language: self.language });
                self.perform(action);
                Task::none()
            }
            Message::Engine(event) => self.engine_event(event),
            Message::NewGame(mode) => {
                (self.settings.ai_plays_black, self.settings.ai_plays_white) = mode.ai_sides();
                let action = self.game.new_game(&Ctx { settings: &self.settings, language: self.language });
                self.perform(action);
                self.save()
            }
            Message::Setting(change) => self.change(change),
            Message::LanguageSelected(language) => {
                self.language = language;
                self.settings.language = Some(language);
                self.game.language_changed(&Ctx { settings: &self.settings, language });
                self.save()
            }
            Message::Key(event) => {
                shortcut(&event, &self.settings).map_or_else(Task::none, |message| self.update(message))
            }
            Message::SettingsSaved(result) => self.saved(result),
            Message::NoticeDismissed(index) => {
                if index < self.notices.len() {
                    let _removed = self.notices.remove(index);
                }
                Task::none()
            }
            Message::About(open) => {
                self.about_open = open;
                Task::none()
            }
            Message::CopyTranscript => iced::clipboard::write(self.game.transcript()),
            Message::PasteTranscript => iced::clipboard::read().map(Message::ClipboardRead),
            Message::ClipboardRead(text) => {
                self.load_transcript(text);
                Task::none()
            }
        }
    }

    /// Loads a transcript read from the clipboard, or says why not.
    fn load_transcript(&mut self, text: Option<String>) {
        let Some(text) = text else {
            self.notices.push(Notice::ClipboardEmpty);
            return;
        };
        match shirokuro_engine::notation::parse_transcript(text.trim()) {
            Ok(transcript) => {
                let squares: Vec<_> = transcript.moves.iter().filter_map(|mv| mv.square()).collect();
                let action = self.game.load_moves(&squares, &Ctx { settings: &self.settings, language: self.language });
                self.perform(action);
            }
            Err(error) => self.notices.push(Notice::TranscriptRejected { error: error.to_string() }),
        }
    }

    /// Passes a screen action to the engine.
    fn perform(&mut self, action: Action) {
        let Action::Engine(order) = action else { return };
        let Some(engine) = &self.engine else { return };
        match order {
            Order::Start(request) => engine.send(request),
            Order::Cancel(generation) => engine.cancel(generation),
            Order::ClearCache => engine.clear_cache(),
        }
    }

    fn engine_options(&self) -> EngineOptions {
        EngineOptions { threads: self.settings.threads, hash_level: self.settings.hash_level }
    }

    fn engine_event(&mut self, event: Event) -> Task<Message> {
        match event {
            Event::Ready(handle) => {
                handle.configure(self.engine_options());
                self.engine = Some(handle);
            }
            Event::Configured => {
                let action = self.game.engine_ready(&Ctx { settings: &self.settings, language: self.language });
                self.perform(action);
            }
            Event::WeightsFailed(error) => self.notices.push(Notice::WeightsFailed { error }),
            Event::EngineFailed(error) => self.notices.push(Notice::EngineFailed { error }),
            event => {
                let action = self.game.on_engine(event, &Ctx { settings: &self.settings, language: self.language });
                self.perform(action);
            }
        }
        Task::none()
    }

    fn change(&mut self, change: Change) -> Task<Message> {
        let s = &mut self.settings;
        let mut reconfigure = false;
        match change {
            Change::Level(level) => s.level = level.clamp(*settings::LEVELS.start(), *settings::LEVELS.end()),
            Change::Threads(threads) => {
                s.threads = threads.clamp(*settings::THREADS.start(), *settings::THREADS.end());
                reconfigure = true;
            }
            Change::HashLevel(level) => {
                s.hash_level = level.clamp(*settings::HASH_LEVELS.start(), *settings::HASH_LEVELS.end());
                reconfigure = true;
            }
            Change::AiBlack(on) => s.ai_plays_black = on,
            Change::AiWhite(on) => s.ai_plays_white = on,
            Change::PauseOnPass(on) => s.pause_on_pass = on,
            Change::HintCount(n) => {
                s.display.hint_count = n.clamp(*settings::HINT_COUNTS.start(), *settings::HINT_COUNTS.end());
            }
            Change::Display(toggle, on) => *display_flag(&mut s.display, toggle) = on,
        }
        if reconfigure && let Some(engine) = &self.engine {
            // Abandon the running job; the game re-plans when the rebuilt engine reports `Configured`.
            engine.cancel(u64::MAX);
            engine.configure(self.engine_options());
        }
        let action = self.game.settings_changed(&Ctx { settings: &self.settings, language: self.language });
        self.perform(action);
        self.save()
    }

    /// Saves the settings in the background; a save while one runs is done after it.
    fn save(&mut self) -> Task<Message> {
        if self.saving {
            self.dirty = true;
            return Task::none();
        }
        self.saving = true;
        self.dirty = false;
        let settings = self.settings.clone();
        let path = self.paths.settings_file.clone();
        Task::perform(
            async move { settings::save(&settings, &path).map_err(|e| e.to_string()) },
            Message::SettingsSaved,
        )
    }

    fn saved(&mut self, result: Result<(), String>) -> Task<Message> {
        self.saving = false;
        if let Err(error) = result {
            self.notices.push(Notice::SaveFailed { error });
        }
        if self.dirty { self.save() } else { Task::none() }
    }

    /// The engine worker and the keyboard.
    pub fn subscription(&self) -> Subscription<Message> {
        Subscription::batch([
            engine_worker::subscription(self.paths.weights_file()).map(Message::Engine),
            keyboard::listen().map(Message::Key),
        ])
    }

    /// The window: menu bar, notices, then the game screen (or the About box).
    pub fn view(&self) -> Element<'_, Message> {
        let ctx = self.ctx();
        let s = ctx.strings();
        let mut page = Column::new().push(menu::bar(&ctx, self.game.is_paused()));
        for (index, notice) in self.notices.iter().enumerate() {
            let line = row![
                text(notice_text(s, notice)).width(Length::Fill),
                button(text(s.dismiss.clone())).on_press(Message::NoticeDismissed(index)),
            ]
            .spacing(8)
            .align_y(iced::Alignment::Center);
            page = page.push(container(line).padding(6).width(Length::Fill).style(container::warning));
        }
        if self.about_open {
            let about = column![
                text(s.about.clone()).size(20),
                text(fill(&s.about_text, &[&env!("CARGO_PKG_VERSION")])),
                text(s.about_font.clone()),
                text(fill(&s.about_folders, &[&self.paths.settings_file.display()])),
                button(text(s.close.clone())).on_press(Message::About(false)),
            ]
            .spacing(10)
            .padding(20);
            return page.push(container(about).id("about").center(Length::Fill)).into();
        }
        page.push(self.game.view(&ctx).map(Message::Game)).into()
    }

    /// The theme.
    #[must_use]
    pub fn theme(&self) -> Theme {
        Theme::Dark
    }
}

/// The field behind a display switch.
fn display_flag(display: &mut settings::Display, toggle: Toggle) -> &mut bool {
    match toggle {
        Toggle::Legal => &mut display.show_legal,
        Toggle::Hints => &mut display.show_hints,
        Toggle::HintLevel => &mut display.show_hint_level,
        Toggle::LastMove => &mut display.show_last_move,
        Toggle::NextMove => &mut display.show_next_move,
        Toggle::NextMoveAsSquare => &mut display.next_move_as_square,
        Toggle::Stable => &mut display.show_stable,
        Toggle::Info => &mut display.show_info,
        Toggle::Graph => &mut display.show_graph,
        Toggle::Log => &mut display.show_log,
        Toggle::AltPalette => &mut display.alt_palette,
    }
}

/// The current value of a display switch.
#[must_use]
pub fn display_value(display: &settings::Display, toggle: Toggle) -> bool {
    let mut copy = display.clone();
    *display_flag(&mut copy, toggle)
}

/// A notice in the current language.
fn notice_text(s: &crate::i18n::Strings, notice: &Notice) -> String {
    match notice {
        Notice::BadValue { key } => fill(&s.notice_bad_value, &[key]),
        Notice::UnknownKey { key } => fill(&s.notice_unknown_key, &[key]),
        Notice::Unreadable { error, copy } => fill(&s.notice_settings_unreadable, &[error, &copy.display()]),
        Notice::SaveFailed { error } => fill(&s.notice_settings_save_failed, &[error]),
        Notice::WeightsFailed { error } => fill(&s.notice_weights_failed, &[error]),
        Notice::EngineFailed { error } => fill(&s.notice_engine_failed, &[error]),
        Notice::TranscriptRejected { error } => fill(&s.notice_transcript_rejected, &[error]),
        Notice::ClipboardEmpty => s.notice_clipboard_empty.clone(),
    }
}

/// The default shortcut table (Egaroucid's, for what exists); toggles read the current `settings`.
#[must_use]
pub fn shortcut(event: &keyboard::Event, settings: &Settings) -> Option<Message> {
    let keyboard::Event::KeyPressed { key, modifiers, .. } = event else { return None };
    let game = |m| Some(Message::Game(m));
    match key.as_ref() {
        Key::Named(Named::ArrowRight) => game(game::Message::Forward),
        Key::Named(Named::ArrowLeft) => game(game::Message::Backward),
        Key::Named(Named::Home) => game(game::Message::First),
        Key::Named(Named::End) => game(game::Message::Last),
        Key::Named(Named::Backspace) => game(game::Message::Undo),
        Key::Named(Named::Space) => game(game::Message::StartPressed),
        Key::Character(c) if modifiers.command() => match c {
            "n" => Some(Message::NewGame(Mode::HumanVsHuman)),
            "l" => game(game::Message::SaveBranch),
            "c" => Some(Message::CopyTranscript),
            "v" => Some(Message::PasteTranscript),
            _ => None,
        },
        Key::Character(c) if modifiers.is_empty() => match c {
            "g" => game(game::Message::AiMoveOnce),
            "q" => game(game::Message::Stop),
            "a" => game(game::Message::Analyze),
            "b" => Some(Message::Setting(Change::AiBlack(!settings.ai_plays_black))),
            "w" => Some(Message::Setting(Change::AiWhite(!settings.ai_plays_white))),
            "v" => Some(Message::Setting(Change::Display(Toggle::Hints, !settings.display.show_hints))),
            _ => None,
        },
        _ => None,
    }
}
