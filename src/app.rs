//! The application root: settings, language, notices, the engine and book workers, the modal boxes and the game
//! screen. `update` only routes.

use std::path::PathBuf;

use iced::keyboard::{self, Key, key::Named};
use iced::widget::{Column, button, column, container, row, scrollable, text, text_editor, text_input};
use iced::{Element, Length, Subscription, Task, Theme};
use shirokuro_engine::book::learn::{DeviateSettings, LeafSettings};
use shirokuro_engine::book::loss::LossCurves;
use shirokuro_engine::book::ops::{Info, Walk};
use shirokuro_engine::book::{LEVEL_HUMAN, LEVEL_UNDEFINED};
use shirokuro_engine::calendar::UtcDateTime;
use shirokuro_engine::game_file::GameFile;
use shirokuro_engine::notation::{ImportKind, MAX_IMPORT_CHARS, format_board, import_any};
use shirokuro_engine::random_board::RandomBoardError;

use crate::book_worker::{self, Operation, Outcome, SharedBook};
use crate::engine_worker::{self, EngineOptions, Event, Handle};
use crate::i18n::{Language, Strings, fill};
use crate::log::{LogLine, operation_name};
use crate::menu;
use crate::screen::Ctx;
use crate::screen::game::{self, Action, Game, Mode, Order};
use crate::screenshot::{self, ScreenshotError};
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
    /// Use the book for AI moves and hints.
    UseBook(bool),
    /// Book learning depth.
    BookDepth(u8),
    /// Book learning error per move.
    BookErrorPerMove(u8),
    /// Book learning accumulated error.
    BookErrorSum(u8),
    /// Book learning leaf error.
    BookErrorLeaf(u8),
    /// Right-click edits book values.
    BookRightClick(bool),
    /// Moves of a random board.
    RandomMoves(u8),
    /// Lowest score (Black) of a random board.
    RandomMin(i8),
    /// Highest score (Black) of a random board.
    RandomMax(i8),
    /// Accept AI's Loss on or off.
    AcceptAiLoss(bool),
    /// The maximum loss at every point of the curve.
    AiMaxLoss(u8),
    /// The occurring ratio (percent) at every point of the curve.
    AiLossPercent(u8),
    /// Egaroucid's Default: 2 discs, 30 %.
    AiLossDefault,
}

/// The Book menu's commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BookCommand {
    /// Book Info (opens a box when the counts arrive).
    Info,
    /// Choose a book file to import (replaces the book).
    Import,
    /// Choose where to export the book.
    Export,
    /// Choose a book file to merge in.
    Merge,
    /// Book Fix.
    Fix,
    /// Edax-like Book Fix.
    FixEdax,
    /// Book Reduce from the position shown.
    Reduce,
    /// Recalculate Leaves from the position shown.
    Leaves,
    /// Choose the book file loaded at start (and load it).
    Reference,
    /// Book Deviate from the position shown.
    Deviate,
    /// Add the line up to the position shown.
    Store,
    /// Stop the running operation.
    Stop,
}

/// What a chosen file is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileAction {
    /// Import Book.
    Import,
    /// Export Book.
    Export,
    /// Merge Book.
    Merge,
    /// Book Reference.
    Reference,
}

/// A modal box over the game screen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Modal {
    /// Help ▸ About.
    About,
    /// Book ▸ Book Info.
    BookInfo(Box<Info>),
    /// In/Out ▸ Input Text: a box to type or paste a game, line or position in.
    InputText,
    /// Book ▸ Book Deviate with Transcripts: a box for the transcripts, one per line.
    DeviateTranscripts,
    /// In/Out ▸ Save Game…: the players' names and a memo, before the file dialog.
    SaveGame,
    /// In/Out ▸ Game Library: the games in `<data dir>/games`, newest first (`None` while they are being read).
    GameLibrary(Option<Vec<LibraryEntry>>),
}

/// One game of the Game Library.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LibraryEntry {
    /// The file.
    pub path: PathBuf,
    /// Its date, names, final disc counts (when the game ended) and the start of its memo.
    pub date: String,
    /// Black's name.
    pub black: String,
    /// White's name.
    pub white: String,
    /// Black's and White's discs at the end, when the game is over.
    pub result: Option<(u32, u32)>,
    /// Moves in the line.
    pub moves: usize,
    /// The first line of the memo, cut at 40 characters (as Egaroucid's library shows it).
    pub memo: String,
}

/// The Game Library: every readable game file in `folder`, newest file name first (Egaroucid's names are dates);
/// files that are not games are left out.
#[must_use]
pub fn read_library(folder: &std::path::Path) -> Vec<LibraryEntry> {
    let Ok(dir) = std::fs::read_dir(folder) else { return Vec::new() };
    let mut paths: Vec<PathBuf> = dir
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|e| e.eq_ignore_ascii_case("json")))
        .collect();
    paths.sort();
    paths.reverse();
    paths
        .into_iter()
        .filter_map(|path| {
            let file = GameFile::load(&path).ok()?;
            let last = file.nodes.last()?.position;
            let result = last.board.is_game_over().then(|| (last.black().count(), last.white().count()));
            let memo = file.memo.lines().next().unwrap_or_default().chars().take(40).collect();
            Some(LibraryEntry {
                path,
                date: file.date,
                black: file.black_player,
                white: file.white_player,
                result,
                moves: file.nodes.len().saturating_sub(1),
                memo,
            })
        })
        .collect()
}

/// The players' names and the memo of a game file.
#[derive(Debug, Default)]
pub struct GameInfo {
    /// Black's name.
    pub black: String,
    /// White's name.
    pub white: String,
    /// The memo.
    pub memo: text_editor::Content,
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
    /// Book accuracy labels.
    BookAccuracy,
    /// Umigame numbers.
    Umigame,
    /// A random board's line before its generated position, drawn and analysed like the rest.
    RandomGraph,
}

/// Root messages.
#[derive(Debug, Clone)]
pub enum Message {
    /// A game-screen message.
    Game(game::Message),
    /// An event from the engine worker.
    Engine(Event),
    /// An event from the book worker.
    Book(book_worker::Event),
    /// A Book menu command.
    BookMenu(BookCommand),
    /// A file dialog closed (`None`: cancelled).
    BookFileChosen(FileAction, Option<PathBuf>),
    /// The window was resized to this size.
    WindowResized(iced::Size),
    /// The modal box was closed.
    CloseModal,
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
    /// In/Out ▸ Save Game… (`true`) or Open Game… (`false`).
    GameFileMenu(bool),
    /// In/Out ▸ Game Library opened (`true`) or closed.
    GameLibrary(bool),
    /// The Game Library's games were read.
    GameLibraryRead(Vec<LibraryEntry>),
    /// The Save Game box opened (`true`) or closed.
    SaveGameForm(bool),
    /// Black's name typed in the Save Game box.
    SaveGameBlack(String),
    /// White's name typed in the Save Game box.
    SaveGameWhite(String),
    /// An edit of the memo in the Save Game box.
    SaveGameMemo(text_editor::Action),
    /// The game file dialog closed (`None`: cancelled); `true` for saving.
    GameFileChosen(bool, Option<PathBuf>),
    /// A game file was written (or not).
    GameSaved(Result<PathBuf, String>),
    /// A game file was read (or not).
    GameOpened(Result<(PathBuf, GameFile), String>),
    /// In/Out ▸ Copy Board: the position shown as Egaroucid's 65-character board text.
    CopyBoard,
    /// In/Out ▸ Input Text opened (`true`) or closed without importing.
    InputText(bool),
    /// An edit in the Input Text box.
    InputTextEdited(text_editor::Action),
    /// The Input Text box's Import button.
    InputTextSubmit,
    /// Book ▸ Book Deviate with Transcripts opened (`true`) or closed.
    DeviateTranscripts(bool),
    /// The Deviate with Transcripts box's Start button.
    DeviateTranscriptsSubmit,
    /// In/Out ▸ Screen Shot.
    Screenshot,
    /// The board's bounds (when found) and a capture of the window arrived.
    ScreenshotTaken(Option<iced::Rectangle>, iced::window::Screenshot),
    /// The screenshot file was written (or not).
    ScreenshotSaved(Result<PathBuf, ScreenshotError>),
}

/// The application state.
pub struct App {
    paths: Paths,
    settings: Settings,
    language: Language,
    notices: Vec<Notice>,
    game: Game,
    engine: Option<Handle>,
    book_worker: Option<book_worker::Handle>,
    /// The last book snapshot from the book worker.
    book: Option<SharedBook>,
    /// The running book operation and its progress (done, total).
    book_running: Option<(Operation, u64, u64)>,
    modal: Option<Modal>,
    /// The text of In/Out ▸ Input Text while its box is open.
    input_text: text_editor::Content,
    /// The players' names and the memo saved with the game (In/Out ▸ Save Game…), kept from the last game opened or
    /// saved.
    game_info: GameInfo,
    /// The position whose book overlay data was last asked for.
    views_asked: Option<shirokuro_engine::Position>,
    saving: bool,
    dirty: bool,
}

/// The screen context from the app's fields (a function so that other fields stay free to borrow mutably).
fn make_ctx<'a>(settings: &'a Settings, language: Language, book: &'a Option<SharedBook>) -> Ctx<'a> {
    Ctx { settings, language, book: if settings.use_book { book.as_ref() } else { None } }
}

impl App {
    /// The app with loaded settings and any notices from loading them.
    #[must_use]
    pub fn new(paths: Paths, loaded: settings::Loaded) -> App {
        let settings = loaded.settings;
        let language = settings.language.unwrap_or_else(Language::from_os);
        let game = Game::new(&Ctx { settings: &settings, language, book: None });
        App {
            paths,
            settings,
            language,
            notices: loaded.notices,
            game,
            engine: None,
            book_worker: None,
            book: None,
            book_running: None,
            modal: None,
            input_text: text_editor::Content::new(),
            game_info: GameInfo::default(),
            views_asked: None,
            saving: false,
            dirty: false,
        }
    }

    /// Read-only context for the screen.
    fn ctx(&self) -> Ctx<'_> {
        make_ctx(&self.settings, self.language, &self.book)
    }

    /// The book snapshot loaded (whether or not it is in use).
    #[must_use]
    pub fn book(&self) -> Option<&SharedBook> {
        self.book.as_ref()
    }

    /// The running book operation with its progress (done, total), if any.
    #[must_use]
    pub fn book_running(&self) -> Option<(Operation, u64, u64)> {
        self.book_running
    }

    /// The modal box shown, if any.
    #[must_use]
    pub fn modal(&self) -> Option<&Modal> {
        self.modal.as_ref()
    }

    /// The book file: the one in the settings, or `<data dir>/book.egbk3`.
    #[must_use]
    pub fn book_file(&self) -> PathBuf {
        self.settings.book_file.clone().unwrap_or_else(|| self.paths.default_book_file())
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
        self.modal == Some(Modal::About)
    }

    /// The window title.
    #[must_use]
    pub fn title(&self) -> String {
        self.language.strings().window_title.clone()
    }

    /// Routes a message.
    pub fn update(&mut self, message: Message) -> Task<Message> {
        let task = self.route(message);
        self.ask_for_views();
        task
    }

    /// Asks the book worker for the overlay data of the position shown when an overlay is on and it changed.
    fn ask_for_views(&mut self) {
        let display = &self.settings.display;
        let wanted =
            (display.show_book_accuracy || display.show_umigame) && self.settings.use_book && self.book.is_some();
        let position = self.game.position();
        if !wanted || self.views_asked == Some(position) {
            return;
        }
        if let Some(worker) = &self.book_worker {
            worker.send(book_worker::Job::Views { position });
            self.views_asked = Some(position);
        }
    }

    fn route(&mut self, message: Message) -> Task<Message> {
        match message {
            Message::Game(message) => {
                // Stop (Q) also stops a running book operation.
                if matches!(message, game::Message::Stop)
                    && let Some(worker) = &self.book_worker
                {
                    worker.stop();
                }
                let opens_editor = matches!(message, game::Message::SquareRightClicked(_));
                let action = self.game.update(message, &make_ctx(&self.settings, self.language, &self.book));
                self.perform(action);
                if opens_editor && self.game.book_edit().is_some() {
                    iced::widget::operation::focus(game::BOOK_EDIT_INPUT)
                } else {
                    Task::none()
                }
            }
            Message::Engine(event) => self.engine_event(event),
            Message::Book(event) => self.book_event(event),
            Message::BookMenu(command) => self.book_command(command),
            Message::BookFileChosen(action, path) => {
                if let Some(path) = path {
                    let job = match action {
                        FileAction::Import => book_worker::Job::Import { from: path, level: self.settings.level },
                        FileAction::Export => book_worker::Job::Export { to: path },
                        FileAction::Merge => book_worker::Job::Merge { from: path },
                        FileAction::Reference => {
                            self.settings.book_file = Some(path.clone());
                            self.send_book(book_worker::Job::Load { file: path });
                            return self.save();
                        }
                    };
                    self.send_book(job);
                }
                Task::none()
            }
            Message::WindowResized(size) => {
                let side =
                    |v: f32| (v.round() as u32).clamp(*settings::WINDOW_SIDES.start(), *settings::WINDOW_SIDES.end());
                let (width, height) = (side(size.width), side(size.height));
                if (width, height) == (self.settings.window_width, self.settings.window_height) {
                    return Task::none();
                }
                (self.settings.window_width, self.settings.window_height) = (width, height);
                self.save()
            }
            Message::CloseModal => {
                self.modal = None;
                Task::none()
            }
            Message::NewGame(mode) => {
                (self.settings.ai_plays_black, self.settings.ai_plays_white) = mode.ai_sides();
                let action = self.game.new_game(&make_ctx(&self.settings, self.language, &self.book));
                self.perform(action);
                self.save()
            }
            Message::Setting(change) => self.change(change),
            Message::LanguageSelected(language) => {
                self.language = language;
                self.settings.language = Some(language);
                self.game.language_changed(&make_ctx(&self.settings, language, &self.book));
                self.save()
            }
            Message::Key(keyboard::Event::KeyPressed { key: Key::Named(Named::Escape), .. })
                if self.modal.is_some() || self.game.is_editing() =>
            {
                // Esc backs out of a box or the board editor without changing anything, as in Egaroucid.
                if self.modal.take().is_none() {
                    return self.update(Message::Game(game::Message::EditBoard(false)));
                }
                Task::none()
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
                self.modal = open.then_some(Modal::About);
                Task::none()
            }
            Message::CopyTranscript => iced::clipboard::write(self.game.transcript()),
            Message::CopyBoard => iced::clipboard::write(format_board(&self.game.position())),
            Message::PasteTranscript => iced::clipboard::read().map(Message::ClipboardRead),
            Message::ClipboardRead(text) => {
                self.load_transcript(text);
                Task::none()
            }
            Message::GameFileMenu(save) => pick_game_file(self.language.strings(), save, &self.paths.data_dir),
            Message::GameFileChosen(_, None) => Task::none(),
            Message::GameLibrary(false) => {
                self.modal = None;
                Task::none()
            }
            Message::GameLibrary(true) => {
                self.modal = Some(Modal::GameLibrary(None));
                let folder = self.paths.data_dir.join("games");
                Task::perform(async move { read_library(&folder) }, Message::GameLibraryRead)
            }
            Message::GameLibraryRead(entries) => {
                if matches!(self.modal, Some(Modal::GameLibrary(_))) {
                    self.modal = Some(Modal::GameLibrary(Some(entries)));
                }
                Task::none()
            }
            Message::SaveGameForm(open) => {
                self.modal = open.then_some(Modal::SaveGame);
                Task::none()
            }
            Message::SaveGameBlack(name) => {
                self.game_info.black = name;
                Task::none()
            }
            Message::SaveGameWhite(name) => {
                self.game_info.white = name;
                Task::none()
            }
            Message::SaveGameMemo(action) => {
                self.game_info.memo.perform(action);
                Task::none()
            }
            Message::GameFileChosen(true, Some(path)) => {
                self.modal = None;
                let file = self.game_file_to_save();
                Task::perform(
                    async move { file.save(&path).map(|()| path).map_err(|e| e.to_string()) },
                    Message::GameSaved,
                )
            }
            Message::GameFileChosen(false, Some(path)) => {
                if matches!(self.modal, Some(Modal::GameLibrary(_))) {
                    self.modal = None;
                }
                Task::perform(
                    async move { GameFile::load(&path).map(|file| (path, file)).map_err(|e| e.to_string()) },
                    Message::GameOpened,
                )
            }
            Message::GameSaved(result) => {
                match result {
                    Ok(path) => self.game.log(LogLine::GameSaved(path)),
                    Err(error) => self.notices.push(Notice::GameFileFailed { error }),
                }
                Task::none()
            }
            Message::GameOpened(result) => {
                match result {
                    Ok((path, file)) => {
                        self.game_info = GameInfo {
                            black: file.black_player.clone(),
                            white: file.white_player.clone(),
                            memo: text_editor::Content::with_text(&file.memo),
                        };
                        let action = self.game.load_game(&file, &make_ctx(&self.settings, self.language, &self.book));
                        self.perform(action);
                        self.game.log(LogLine::GameOpened(path));
                    }
                    Err(error) => self.notices.push(Notice::GameFileFailed { error }),
                }
                Task::none()
            }
            Message::InputText(open) => {
                self.open_text_box(open, Modal::InputText);
                Task::none()
            }
            Message::InputTextEdited(action) => {
                self.input_text.perform(action);
                Task::none()
            }
            Message::DeviateTranscripts(open) => {
                self.open_text_box(open, Modal::DeviateTranscripts);
                Task::none()
            }
            Message::DeviateTranscriptsSubmit => {
                match parse_transcript_lines(&self.input_text.text()) {
                    Ok(lines) => {
                        self.modal = None;
                        let settings = self.deviate_settings();
                        let hash_level = book_hash_level(&self.settings);
                        self.send_book(book_worker::Job::DeviateTranscripts { lines, settings, hash_level });
                    }
                    Err(error) => self.notices.push(Notice::TranscriptRejected { error }),
                }
                Task::none()
            }
            Message::InputTextSubmit => {
                if self.import_text(&self.input_text.text()) {
                    self.modal = None;
                }
                Task::none()
            }
            Message::Screenshot => {
                let board = iced::widget::selector::find(iced::widget::selector::id("board"));
                board.then(|target| {
                    let bounds = target.map(|t| t.bounds());
                    iced::window::latest()
                        .and_then(iced::window::screenshot)
                        .map(move |shot| Message::ScreenshotTaken(bounds, shot))
                })
            }
            Message::ScreenshotTaken(bounds, shot) => {
                let data_dir = self.paths.data_dir.clone();
                let name = screenshot::file_name(std::time::SystemTime::now(), &self.game.transcript());
                Task::perform(
                    async move { screenshot::save(&shot, bounds, &data_dir, &name) },
                    Message::ScreenshotSaved,
                )
            }
            Message::ScreenshotSaved(result) => {
                match result {
                    Ok(path) => self.game.log(LogLine::ScreenshotSaved(path)),
                    Err(error) => self.notices.push(Notice::ScreenshotFailed { error: error.to_string() }),
                }
                Task::none()
            }
        }
    }

    /// The game as Save Game writes it: the main line with its values, today's date, and the names and memo of the
    /// Save Game box.
    #[must_use]
    pub fn game_file_to_save(&self) -> GameFile {
        let date = UtcDateTime::of(std::time::SystemTime::now()).date();
        let mut file = self.game.game_file(date, self.settings.level);
        file.black_player = self.game_info.black.trim().to_owned();
        file.white_player = self.game_info.white.trim().to_owned();
        // Egaroucid keeps at most 10,000 characters of memo.
        file.memo = self.game_info.memo.text().trim_end().chars().take(10_000).collect();
        file
    }

    /// Opens `modal`, a box with an empty text (`open`), or closes it.
    fn open_text_box(&mut self, open: bool, modal: Modal) {
        self.modal = open.then_some(modal);
        if open {
            self.input_text = text_editor::Content::new();
        }
    }

    /// Book Deviate's settings from the Book Settings, the level and the threads.
    fn deviate_settings(&self) -> DeviateSettings {
        let b = &self.settings.book;
        DeviateSettings {
            level: self.settings.level,
            depth: b.depth,
            error_per_move: settings::BookSettings::per_move_limit(b.error_per_move),
            error_sum: settings::BookSettings::sum_limit(b.error_sum),
            error_leaf: settings::BookSettings::per_move_limit(b.error_leaf),
            max_loops: usize::MAX,
            threads: usize::from(self.settings.threads),
            // Egaroucid autosaves hourly; the end of the run (or a stop) always saves.
            save_every: std::time::Duration::from_secs(3600),
        }
    }

    /// Loads a game, line or position read from the clipboard, or says why not.
    fn load_transcript(&mut self, text: Option<String>) {
        let Some(text) = text else {
            self.notices.push(Notice::ClipboardEmpty);
            return;
        };
        let _loaded = self.import_text(&text);
    }

    /// Reads `text` in any format Egaroucid reads (GGF, Othello Quest, transcript, a continuation of the current
    /// position, board, coordinates in other text): a continuation is played on from the position shown, anything
    /// else replaces the game. `false`, with a notice, when nothing fits.
    fn import_text(&mut self, text: &str) -> bool {
        let ctx = make_ctx(&self.settings, self.language, &self.book);
        match import_any(text, self.game.position()) {
            Ok(imported) => {
                let action = if imported.kind == ImportKind::Continuation {
                    self.game.play_moves(&imported.moves, &ctx)
                } else {
                    self.game.load_line(imported.start, &imported.moves, &ctx)
                };
                self.perform(action);
                true
            }
            Err(error) => {
                self.notices.push(Notice::TranscriptRejected { error: error.to_string() });
                false
            }
        }
    }

    /// Passes a screen action to the engine.
    fn perform(&mut self, action: Action) {
        if let Action::BookEdit { board, mv, value } = action {
            self.send_book(book_worker::Job::Edit { board, mv, value });
            return;
        }
        let Action::Engine(order) = action else { return };
        let Some(engine) = &self.engine else { return };
        match order {
            Order::Start(request) => engine.send(request),
            Order::Cancel(generation) => engine.cancel(generation),
            Order::ClearCache => engine.clear_cache(),
        }
    }

    fn send_book(&self, job: book_worker::Job) {
        if let Some(worker) = &self.book_worker {
            worker.send(job);
        }
    }

    fn book_command(&mut self, command: BookCommand) -> Task<Message> {
        let b = self.settings.book;
        let s = self.language.strings();
        match command {
            BookCommand::Info => self.send_book(book_worker::Job::Info),
            BookCommand::Import => return pick_file(s, FileAction::Import),
            BookCommand::Merge => return pick_file(s, FileAction::Merge),
            BookCommand::Export => return pick_file(s, FileAction::Export),
            BookCommand::Fix => self.send_book(book_worker::Job::Fix { edax_like: false }),
            BookCommand::FixEdax => self.send_book(book_worker::Job::Fix { edax_like: true }),
            BookCommand::Reference => return pick_file(s, FileAction::Reference),
            BookCommand::Reduce => {
                let root = self.game.position().board;
                self.send_book(book_worker::Job::Reduce { root, walk: book_walk(&self.settings) });
            }
            BookCommand::Leaves => {
                let settings = LeafSettings {
                    walk: book_walk(&self.settings),
                    level: self.settings.level,
                    only_invalid: false,
                    threads: usize::from(self.settings.threads),
                };
                let root = self.game.position().board;
                self.send_book(book_worker::Job::Leaves {
                    root,
                    settings,
                    hash_level: book_hash_level(&self.settings),
                });
            }
            BookCommand::Deviate => {
                let settings = self.deviate_settings();
                let root = self.game.position().board;
                self.send_book(book_worker::Job::Deviate {
                    root,
                    settings,
                    hash_level: book_hash_level(&self.settings),
                });
            }
            BookCommand::Store => {
                self.send_book(book_worker::Job::Store {
                    start: shirokuro_engine::Position::INITIAL.board,
                    moves: self.game.line_to_cursor(),
                    depth: b.depth,
                    level: self.settings.level,
                    hash_level: book_hash_level(&self.settings),
                });
            }
            BookCommand::Stop => {
                if let Some(worker) = &self.book_worker {
                    worker.stop();
                }
            }
        }
        Task::none()
    }

    fn book_event(&mut self, event: book_worker::Event) -> Task<Message> {
        match event {
            book_worker::Event::Ready(handle) => {
                handle.send(book_worker::Job::Load { file: self.book_file() });
                self.book_worker = Some(handle);
            }
            book_worker::Event::Started(operation) => {
                if !operation.is_quiet() {
                    self.book_running = Some((operation, 0, 0));
                    self.game.log(LogLine::BookStarted(operation));
                }
            }
            book_worker::Event::Progress { operation, done, total } => {
                if !operation.is_quiet() {
                    self.book_running = Some((operation, done, total));
                }
            }
            book_worker::Event::Book(book) => {
                self.book = Some(book);
                self.views_asked = None;
                // Book moves and values may have changed: plan again.
                let action = self.game.settings_changed(&make_ctx(&self.settings, self.language, &self.book));
                self.perform(action);
            }
            book_worker::Event::Unreadable { file, error } => self.notices.push(Notice::BookUnreadable { file, error }),
            book_worker::Event::Info(info) => self.modal = Some(Modal::BookInfo(info)),
            book_worker::Event::Views { position, views } => {
                self.game.set_book_views(position, views, &make_ctx(&self.settings, self.language, &self.book));
            }
            book_worker::Event::Finished { operation, outcome } => {
                match &outcome {
                    Outcome::Failed(error) => self.notices.push(Notice::BookFailed { error: error.clone() }),
                    Outcome::NoFile => self.notices.push(Notice::BookNotWritable),
                    Outcome::Done { .. } | Outcome::Stopped { .. } => {}
                }
                if !operation.is_quiet() {
                    self.book_running = None;
                    let line = LogLine::BookFinished(operation, outcome);
                    tracing::info!(target: "shirokuro::book", "{}", line.text(Language::English.strings()));
                    self.game.log(line);
                }
            }
        }
        Task::none()
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
                let action = self.game.engine_ready(&make_ctx(&self.settings, self.language, &self.book));
                self.perform(action);
            }
            Event::WeightsFailed(error) => self.notices.push(Notice::WeightsFailed { error }),
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
                let action = self.game.on_engine(event, &make_ctx(&self.settings, self.language, &self.book));
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
            Change::UseBook(on) => s.use_book = on,
            Change::BookDepth(v) => s.book.depth = v.min(*settings::BOOK_DEPTHS.end()),
            Change::BookErrorPerMove(v) => s.book.error_per_move = v.min(*settings::BOOK_ERRORS.end()),
            Change::BookErrorSum(v) => s.book.error_sum = v.min(*settings::BOOK_ERRORS.end()),
            Change::BookErrorLeaf(v) => s.book.error_leaf = v.min(*settings::BOOK_ERRORS.end()),
            Change::BookRightClick(on) => s.book.right_click_edit = on,
            Change::RandomMoves(n) => {
                s.random_board.moves = n.clamp(*settings::RANDOM_MOVES.start(), *settings::RANDOM_MOVES.end());
            }
            Change::RandomMin(v) => s.random_board.set_min(v),
            Change::RandomMax(v) => s.random_board.set_max(v),
            Change::AcceptAiLoss(on) => s.accept_ai_loss = on,
            Change::AiMaxLoss(v) => {
                s.ai_loss = LossCurves::flat(v, s.ai_loss.percent_points()[0]);
            }
            Change::AiLossPercent(p) => {
                s.ai_loss = LossCurves::flat(s.ai_loss.max_loss_points()[0], p);
            }
            Change::AiLossDefault => s.ai_loss = LossCurves::default(),
        }
        if reconfigure && let Some(engine) = &self.engine {
            // Abandon the running job; the game re-plans when the rebuilt engine reports `Configured`.
            engine.cancel(u64::MAX);
            engine.configure(self.engine_options());
        }
        let action = self.game.settings_changed(&make_ctx(&self.settings, self.language, &self.book));
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

    /// The engine and book workers, the keyboard and window resizes.
    pub fn subscription(&self) -> Subscription<Message> {
        Subscription::batch([
            engine_worker::subscription(self.paths.weights_file()).map(Message::Engine),
            book_worker::subscription(self.paths.weights_file()).map(Message::Book),
            keyboard::listen().map(Message::Key),
            iced::window::resize_events().map(|(_id, size)| Message::WindowResized(size)),
        ])
    }

    /// The window: menu bar, notices, then the game screen (or the About box).
    pub fn view(&self) -> Element<'_, Message> {
        let ctx = self.ctx();
        let s = ctx.strings();
        let mut page = Column::new().push(menu::bar(&ctx, self.game.is_paused(), self.book_running.is_some()));
        for (index, notice) in self.notices.iter().enumerate() {
            let line = row![
                text(notice_text(s, notice)).width(Length::Fill),
                button(text(s.dismiss.clone())).on_press(Message::NoticeDismissed(index)),
            ]
            .spacing(8)
            .align_y(iced::Alignment::Center);
            page = page.push(container(line).padding(6).width(Length::Fill).style(container::warning));
        }
        if let Some((operation, done, total)) = self.book_running {
            let name = operation_name(s, operation);
            let progress = if total > 0 {
                fill(&s.book_progress, &[&name, &done, &total])
            } else {
                fill(&s.book_progress_open, &[&name, &done])
            };
            let line = row![
                text(progress).width(Length::Fill),
                button(text(s.book_stop.clone())).on_press(Message::BookMenu(BookCommand::Stop)),
            ]
            .spacing(8)
            .align_y(iced::Alignment::Center);
            page = page.push(container(line).id("book-progress").padding(6).width(Length::Fill));
        }
        if let Some(Modal::BookInfo(info)) = &self.modal {
            return page.push(container(book_info_view(s, info)).id("book-info").center(Length::Fill)).into();
        }
        if let Some(Modal::GameLibrary(entries)) = &self.modal {
            return page.push(container(library_view(s, entries.as_deref())).center(Length::Fill)).into();
        }
        if self.modal == Some(Modal::SaveGame) {
            let form = column![
                text(s.save_game.clone()).size(20),
                text(s.save_game_black.clone()).size(14),
                text_input("", &self.game_info.black).id("save-black").on_input(Message::SaveGameBlack),
                text(s.save_game_white.clone()).size(14),
                text_input("", &self.game_info.white).id("save-white").on_input(Message::SaveGameWhite),
                text(s.save_game_memo.clone()).size(14),
                text_editor(&self.game_info.memo)
                    .id("save-memo")
                    .on_action(Message::SaveGameMemo)
                    .height(Length::Fixed(140.0)),
                row![
                    button(text(s.save_game_choose.clone())).on_press(Message::GameFileMenu(true)),
                    button(text(s.close.clone())).on_press(Message::SaveGameForm(false)),
                ]
                .spacing(10),
            ]
            .spacing(8)
            .padding(20)
            .max_width(640);
            return page.push(container(form).center(Length::Fill)).into();
        }
        if let Some(modal @ (Modal::InputText | Modal::DeviateTranscripts)) = &self.modal {
            let deviate = *modal == Modal::DeviateTranscripts;
            let (title, help) = if deviate {
                (&s.book_deviate_transcripts, &s.book_deviate_transcripts_help)
            } else {
                (&s.input_text, &s.input_text_help)
            };
            let (submit, close) = if deviate {
                (Message::DeviateTranscriptsSubmit, Message::DeviateTranscripts(false))
            } else {
                (Message::InputTextSubmit, Message::InputText(false))
            };
            let submit_label = if deviate { &s.book_deviate_start } else { &s.input_text_import };
            let count = self.input_text.text().chars().count();
            let input = column![
                text(title.clone()).size(20),
                text(help.clone()).size(13),
                text_editor(&self.input_text)
                    .id("input-text")
                    .on_action(Message::InputTextEdited)
                    .height(Length::Fixed(240.0)),
                text(fill(&s.input_text_count, &[&count, &MAX_IMPORT_CHARS])).size(12),
                row![
                    button(text(submit_label.clone())).on_press(submit),
                    button(text(s.close.clone())).on_press(close),
                ]
                .spacing(10),
            ]
            .spacing(10)
            .padding(20)
            .max_width(720);
            return page.push(container(input).center(Length::Fill)).into();
        }
        if self.modal == Some(Modal::About) {
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

/// The walk limits of the Book Settings (depth, error per move, accumulated error).
fn book_walk(settings: &Settings) -> Walk {
    let b = settings.book;
    Walk {
        depth: b.depth,
        error_per_move: settings::BookSettings::per_move_limit(b.error_per_move),
        error_sum: settings::BookSettings::sum_limit(b.error_sum),
    }
}

/// Table size of each book searcher: the game's, at most 2^20 (one table per worker thread).
fn book_hash_level(settings: &Settings) -> u8 {
    settings.hash_level.min(20)
}

/// The Game Library box: one button per game (date, players, result, moves, memo), newest first.
fn library_view<'a>(s: &Strings, entries: Option<&[LibraryEntry]>) -> Element<'a, Message> {
    let mut list = Column::new().spacing(4);
    match entries {
        None => list = list.push(text(s.library_reading.clone())),
        Some([]) => list = list.push(text(s.library_empty.clone())),
        Some(entries) => {
            for entry in entries {
                let result = entry.result.map_or_else(|| "??-??".to_owned(), |(b, w)| format!("{b}-{w}"));
                let name = |n: &str| if n.is_empty() { "—".to_owned() } else { n.to_owned() };
                let line = fill(
                    &s.library_entry,
                    &[&entry.date, &name(&entry.black), &name(&entry.white), &result, &entry.moves, &entry.memo],
                );
                let open = Message::GameFileChosen(false, Some(entry.path.clone()));
                list = list.push(button(text(line).size(13)).style(button::text).width(Length::Fill).on_press(open));
            }
        }
    }
    column![
        text(s.game_library.clone()).size(20),
        scrollable(list).height(Length::Fixed(420.0)),
        button(text(s.close.clone())).on_press(Message::GameLibrary(false)),
    ]
    .spacing(10)
    .padding(20)
    .max_width(760)
    .into()
}

/// The transcripts of Book Deviate with Transcripts: one per non-empty line, each from the initial position.
///
/// # Errors
/// The first bad line's number and what is wrong with it.
fn parse_transcript_lines(text: &str) -> Result<Vec<Vec<shirokuro_engine::Move>>, String> {
    let mut lines = Vec::new();
    for (number, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let transcript = shirokuro_engine::notation::parse_transcript(line.trim())
            .map_err(|e| format!("line {}: {e}", number + 1))?;
        lines.push(transcript.moves);
    }
    if lines.is_empty() {
        return Err("no transcript".to_owned());
    }
    Ok(lines)
}

/// Opens the game file dialog in the background (in `<data dir>/games`, Egaroucid's folder): to save (`save`, with
/// Egaroucid's file name for now) or to open; the answer comes back as [`Message::GameFileChosen`].
fn pick_game_file(s: &Strings, save: bool, data_dir: &std::path::Path) -> Task<Message> {
    let filter = s.game_files.clone();
    let folder = data_dir.join("games");
    Task::perform(
        async move {
            // The folder may not exist yet; the dialog then starts wherever the system likes.
            let _ = std::fs::create_dir_all(&folder);
            let dialog = rfd::AsyncFileDialog::new().add_filter(filter, &["json"]).set_directory(&folder);
            let handle = if save {
                let name = format!("{}.json", UtcDateTime::of(std::time::SystemTime::now()).stamp());
                dialog.set_file_name(name).save_file().await
            } else {
                dialog.pick_file().await
            };
            handle.map(|h| h.path().to_path_buf())
        },
        move |path| Message::GameFileChosen(save, path),
    )
}

/// Opens the file dialog for `action` in the background; its answer comes back as [`Message::BookFileChosen`].
fn pick_file(s: &Strings, action: FileAction) -> Task<Message> {
    let filter = s.book_files.clone();
    Task::perform(
        async move {
            let dialog = rfd::AsyncFileDialog::new();
            let handle = match action {
                FileAction::Reference => dialog.add_filter(filter, &["egbk3"]).pick_file().await,
                FileAction::Import | FileAction::Merge => {
                    dialog.add_filter(filter, &["egbk3", "egbk2", "egbk", "dat", "txt"]).pick_file().await
                }
                FileAction::Export => {
                    dialog.add_filter(filter, &["egbk3", "dat"]).set_file_name("book.egbk3").save_file().await
                }
            };
            handle.map(|h| h.path().to_path_buf())
        },
        move |path| Message::BookFileChosen(action, path),
    )
}

/// Book Info: the counts by level and by ply, in a box with a Close button.
fn book_info_view<'a>(s: &Strings, info: &Info) -> Element<'a, Message> {
    let mut levels = Column::new().spacing(2).push(text(s.book_info_by_level.clone()).size(15));
    for (level, n) in info.by_level.iter().enumerate().filter(|(_, n)| **n > 0) {
        let line = match u8::try_from(level) {
            Ok(LEVEL_HUMAN) => fill(&s.book_info_level_human, &[n]),
            Ok(LEVEL_UNDEFINED) => fill(&s.book_info_level_undefined, &[n]),
            _ => fill(&s.book_info_level, &[&level, n]),
        };
        levels = levels.push(text(line).size(13));
    }
    let mut plies = Column::new().spacing(2).push(text(s.book_info_by_ply.clone()).size(15));
    for (ply, n) in info.by_ply.iter().enumerate().filter(|(_, n)| **n > 0) {
        plies = plies.push(text(fill(&s.book_info_ply, &[&ply, n])).size(13));
    }
    column![
        text(s.book_info.clone()).size(20),
        text(fill(&s.book_info_positions, &[&info.positions])).size(16),
        scrollable(row![levels.width(180), plies.width(180)].spacing(20)).height(Length::Fixed(420.0)),
        button(text(s.close.clone())).on_press(Message::CloseModal),
    ]
    .spacing(10)
    .padding(20)
    .into()
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
        Toggle::BookAccuracy => &mut display.show_book_accuracy,
        Toggle::Umigame => &mut display.show_umigame,
        Toggle::RandomGraph => &mut display.show_random_graph,
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
        Notice::RandomBoardNotFound { moves, min, max } => fill(&s.notice_random_failed, &[moves, min, max]),
        Notice::ScreenshotFailed { error } => fill(&s.notice_screenshot_failed, &[error]),
        Notice::GameFileFailed { error } => fill(&s.notice_game_file_failed, &[error]),
        Notice::BookUnreadable { file, error } => fill(&s.notice_book_unreadable, &[&file.display(), error]),
        Notice::BookFailed { error } => fill(&s.notice_book_failed, &[error]),
        Notice::BookNotWritable => fill(&s.notice_book_failed, &[&s.book_no_file]),
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
        Key::Named(Named::Home) if modifiers.shift() => game(game::Message::BackToRandom),
        Key::Named(Named::Home) => game(game::Message::First),
        Key::Named(Named::End) => game(game::Message::Last),
        Key::Named(Named::Backspace) => game(game::Message::Undo),
        Key::Named(Named::Space) => game(game::Message::StartPressed),
        Key::Character(c) if modifiers.command() => match c {
            "n" => Some(Message::NewGame(Mode::HumanVsHuman)),
            "l" => game(game::Message::SaveBranch),
            "r" => game(game::Message::GenerateRandom),
            "s" => Some(Message::Screenshot),
            "e" => game(game::Message::EditBoard(true)),
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
