//! The In/Out menu's feature: the clipboard (copy the transcript or the board, input from the clipboard), screen
//! shots, and game files (Save Game with the players' names and a memo, Open Game, the Game Library). File work runs
//! on background tasks.

use std::path::{Path, PathBuf};

use iced::Task;
use shirokuro_engine::calendar::UtcDateTime;
use shirokuro_engine::game_file::{GameFile, GameFileError};
use shirokuro_engine::notation::format_board;

use crate::dialog::{self, Purpose};
use crate::game::Game;
use crate::i18n::Strings;
use crate::log::LogLine;
use crate::modal::{self, Modal, Players, library};
use crate::notice::Notice;
use crate::screenshot::{self, ScreenshotError};

/// Messages of the In/Out feature.
#[derive(Debug, Clone)]
pub enum Message {
    /// Copy Transcript.
    CopyTranscript,
    /// Copy Board: the position shown as Egaroucid's 65-character board text.
    CopyBoard,
    /// Input from Clipboard.
    Paste,
    /// The clipboard's text arrived.
    ClipboardRead(Option<String>),
    /// Input Text: open the box.
    InputText,
    /// Screen Shot.
    Screenshot,
    /// The board's bounds (when found) and a capture of the window arrived.
    ScreenshotTaken(Option<iced::Rectangle>, iced::window::Screenshot),
    /// The screenshot file was written (or not).
    ScreenshotSaved(Result<PathBuf, ScreenshotError>),
    /// In/Out ▸ Change Screenshot Folder…: open its box.
    ScreenshotFolder,
    /// The screenshot was put on the clipboard (or not: what the clipboard said).
    ScreenshotCopied(Result<(), String>),
    /// Save Game…: open the names and memo form.
    SaveGame,
    /// Game ▸ Game Information: the names, date and memo, to view and edit.
    GameInformation,
    /// Input Board as Bitboard: open the box.
    InputBitboard,
    /// Output Board as Bitboard: the side to move's and the opponent's discs (`false`), or Black's and White's.
    CopyBitboard {
        /// Black's and White's rather than the side to move's and the opponent's.
        black_white: bool,
    },
    /// Open Game…: ask for the file.
    OpenGame,
    /// Game Library: open the box and read the games.
    Library,
    /// A game file was written (or not).
    GameSaved(Result<PathBuf, GameFileError>),
    /// A game file was read (or not).
    GameOpened(Result<(PathBuf, GameFile), GameFileError>),
}

/// What the root must do after an update.
#[derive(Debug)]
pub enum Action {
    /// Nothing.
    None,
    /// Run this task.
    Run(Task<Message>),
    /// Tell the user.
    Notice(Notice),
    /// Write a log line.
    Log(LogLine),
    /// Read this text as a game, line or position (Input from Clipboard).
    Import(String),
    /// Replace the game by this file's.
    LoadGame(PathBuf, Box<GameFile>),
    /// Open this box, running the task for it.
    Open(Modal, Task<modal::Message>),
    /// Ask for a file.
    PickFile(dialog::Request),
}

/// The In/Out feature's state: the names and memo saved with the next game.
#[derive(Debug, Default)]
pub struct InOut {
    players: Players,
}

impl InOut {
    /// The players' names and memo (kept from the last game opened or saved).
    #[must_use]
    pub fn players(&self) -> &Players {
        &self.players
    }

    /// Handles a message.
    pub fn update(
        &mut self,
        message: Message,
        game: &Game,
        s: &Strings,
        data_dir: &Path,
        screenshots: &Path,
    ) -> Action {
        match message {
            Message::CopyTranscript => Action::Run(iced::clipboard::write(game.transcript())),
            Message::CopyBoard => Action::Run(iced::clipboard::write(format_board(&game.position()))),
            Message::CopyBitboard { black_white } => {
                let position = game.position();
                let (first, second) = if black_white {
                    (position.black(), position.white())
                } else {
                    (position.board.player, position.board.opponent)
                };
                Action::Run(iced::clipboard::write(modal::bitboard::output(first, second)))
            }
            Message::InputBitboard => {
                Action::Open(Modal::Bitboard(modal::bitboard::BitboardBox::default()), Task::none())
            }
            Message::Paste => Action::Run(iced::clipboard::read().map(Message::ClipboardRead)),
            Message::ClipboardRead(None) => Action::Notice(Notice::ClipboardEmpty),
            Message::ClipboardRead(Some(text)) => Action::Import(text),
            Message::InputText => {
                Action::Open(Modal::Text(modal::TextBox::new(modal::text_box::Purpose::Import)), Task::none())
            }
            Message::ScreenshotFolder => {
                let text = screenshots.display().to_string();
                let form = modal::TextBox::with_text(modal::text_box::Purpose::ScreenshotFolder, &text);
                Action::Open(Modal::Text(form), Task::none())
            }
            Message::Screenshot => Action::Run(take_screenshot()),
            Message::ScreenshotTaken(bounds, shot) => {
                let folder = screenshots.to_path_buf();
                let name = screenshot::file_name(std::time::SystemTime::now(), &game.transcript());
                let copied = shot.clone();
                Action::Run(Task::batch([
                    Task::perform(
                        async move { screenshot::save(&shot, bounds, &folder, &name) },
                        Message::ScreenshotSaved,
                    ),
                    Task::perform(async move { screenshot::copy(&copied, bounds) }, Message::ScreenshotCopied),
                ]))
            }
            Message::ScreenshotSaved(Ok(path)) => Action::Log(LogLine::ScreenshotSaved(path)),
            Message::ScreenshotSaved(Err(error)) => Action::Notice(Notice::ScreenshotFailed { error }),
            Message::ScreenshotCopied(Ok(())) => Action::Log(LogLine::ScreenshotCopied),
            Message::ScreenshotCopied(Err(error)) => Action::Notice(Notice::ScreenshotNotCopied { error }),
            Message::SaveGame | Message::GameInformation => {
                let purpose = if matches!(message, Message::SaveGame) {
                    modal::save_game::Purpose::Save
                } else {
                    modal::save_game::Purpose::Info
                };
                let today = UtcDateTime::of(std::time::SystemTime::now()).date();
                Action::Open(Modal::SaveGame(modal::save_game::Form::new(&self.players, purpose, &today)), Task::none())
            }
            Message::OpenGame => Action::PickFile(game_file_request(s, Purpose::OpenGame, data_dir)),
            Message::Library => {
                let folder = games_folder(data_dir);
                let (form, read) = library::LibraryBox::new(folder);
                Action::Open(Modal::Library(form), read.task().map(modal::Message::Library))
            }
            Message::GameSaved(Ok(path)) => Action::Log(LogLine::GameSaved(path)),
            Message::GameOpened(Ok((path, file))) => {
                self.players = Players {
                    black: file.black_player.clone(),
                    white: file.white_player.clone(),
                    memo: file.memo.clone(),
                    date: file.date.clone(),
                };
                Action::LoadGame(path, Box::new(file))
            }
            Message::GameSaved(Err(error)) | Message::GameOpened(Err(error)) => {
                Action::Notice(Notice::GameFileFailed { error })
            }
        }
    }

    /// Game Information was edited: the names, date and memo the game is saved with from now on.
    pub fn set_players(&mut self, players: Players) {
        self.players = players;
    }

    /// Save Game's form was filled in: keep the names and memo, then ask where to save.
    pub fn players_given(&mut self, players: Players, s: &Strings, data_dir: &Path) -> dialog::Request {
        self.players = players;
        game_file_request(s, Purpose::SaveGame, data_dir)
    }

    /// The game as Save Game writes it: the main line with its values, today's date, and the names and memo.
    #[must_use]
    pub fn game_file(&self, game: &Game, level: u8) -> GameFile {
        let date = if self.players.date.is_empty() {
            UtcDateTime::of(std::time::SystemTime::now()).date()
        } else {
            self.players.date.clone()
        };
        let mut file = game.game_file(date, level);
        file.black_player.clone_from(&self.players.black);
        file.white_player.clone_from(&self.players.white);
        file.memo.clone_from(&self.players.memo);
        file
    }

    /// Writes `file` to `path` in the background.
    pub fn save(file: GameFile, path: PathBuf) -> Task<Message> {
        Task::perform(async move { file.save(&path).map(|()| path) }, Message::GameSaved)
    }

    /// Reads the game file at `path` in the background.
    pub fn open(path: PathBuf) -> Task<Message> {
        Task::perform(async move { GameFile::load(&path).map(|file| (path, file)) }, Message::GameOpened)
    }
}

/// `<data dir>/games`, Egaroucid's folder for game files.
#[must_use]
pub fn games_folder(data_dir: &Path) -> PathBuf {
    data_dir.join("games")
}

/// The file request of Save Game (with Egaroucid's date file name) or Open Game.
#[must_use]
pub fn game_file_request(s: &Strings, purpose: Purpose, data_dir: &Path) -> dialog::Request {
    let name = (purpose == Purpose::SaveGame)
        .then(|| format!("{}.json", UtcDateTime::of(std::time::SystemTime::now()).stamp()));
    dialog::Request { purpose, folder: games_folder(data_dir), name, filter: s.game_files.clone() }
}

/// Captures the window and finds the board's bounds in it.
fn take_screenshot() -> Task<Message> {
    let board = iced::widget::selector::find(iced::widget::selector::id("board"));
    board.then(|target| {
        let bounds = target.map(|t| t.bounds());
        iced::window::latest()
            .and_then(iced::window::screenshot)
            .map(move |shot| Message::ScreenshotTaken(bounds, shot))
    })
}
