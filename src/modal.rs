//! Boxes shown over the game screen, one at a time: About, Book Info, the text boxes, Save Game's names and memo,
//! the Game Library, the app's own file chooser and a yes/no question. Each keeps its own state; the root holds the open one and
//! carries out the [`Action`] an update returns.

pub mod about;
pub mod bitboard;
pub mod buttons;
pub mod confirm;
pub mod file_chooser;
pub mod forced_openings;
pub mod library;
pub mod licences;
pub mod loss_curves;
pub mod profiles;
pub mod save_game;
pub mod shortcut_keys;
pub mod text_box;

use std::path::{Path, PathBuf};

use iced::widget::container;
use iced::{Element, Length, Task};
use shirokuro_engine::book::ops::Info;

pub use crate::game_library::LibraryEntry;
pub use file_chooser::FileChooser;
pub use save_game::Players;
pub use text_box::TextBox;

use crate::dialog::Purpose;
use crate::i18n::Strings;

/// The box shown.
#[derive(Debug)]
pub enum Modal {
    /// Help ▸ About.
    About,
    /// Help ▸ Licences.
    Licences(licences::Licences),
    /// Book ▸ Book Info.
    BookInfo(Box<Info>),
    /// In/Out ▸ Input Text, or Book ▸ Book Deviate with Transcripts.
    Text(TextBox),
    /// In/Out ▸ Save Game… (the players' names, date and memo, before the file dialog) or Game ▸ Game Information.
    SaveGame(save_game::Form),
    /// In/Out ▸ Game Library.
    Library(library::LibraryBox),
    /// The app's own file chooser (no system dialog).
    FileChooser(FileChooser),
    /// A question before a change (Book ▸ Reset to the Default Book).
    Confirm(confirm::Question),
    /// In/Out ▸ Input Board as Bitboard.
    Bitboard(bitboard::BitboardBox),
    /// Settings ▸ AI's Loss ▸ Edit the Curves….
    LossCurves(loss_curves::LossCurvesBox),
    /// Settings ▸ AI Profile… or Display ▸ Display Profile….
    Profiles(profiles::ProfilesBox),
    /// Settings ▸ Shortcut Key Settings….
    ShortcutKeys(shortcut_keys::ShortcutKeysBox),
    /// Settings ▸ Shortcut Button / Mouse Additional Button Settings….
    Buttons(buttons::ButtonsBox),
    /// Settings ▸ Opening Setting….
    ForcedOpenings(forced_openings::ForcedOpeningsBox),
}

/// Messages of the boxes.
#[derive(Debug, Clone)]
pub enum Message {
    /// Close the box without doing anything.
    Close,
    /// A text box's message.
    Text(text_box::Message),
    /// The Save Game form's message.
    SaveGame(save_game::Message),
    /// The Game Library's message.
    Library(library::Message),
    /// The file chooser's message.
    Chooser(file_chooser::Message),
    /// The question was answered Yes.
    Yes,
    /// Help ▸ Licences: show or hide this licence's text.
    LicenceToggled(usize),
    /// The bitboard box's message.
    Bitboard(bitboard::Message),
    /// A point of an AI's Loss curve was drawn.
    CurvePoint(loss_curves::Curve, usize, u8),
    /// The AI's Loss curves' Default button.
    CurvesDefault,
    /// The profiles box's message.
    Profiles(profiles::Message),
    /// The shortcut keys box's message.
    ShortcutKeys(shortcut_keys::Message),
    /// The buttons box's message.
    Buttons(buttons::Message),
    /// The forced-opening editor's message.
    ForcedOpenings(forced_openings::Message),
}

/// What the root must do after an update.
#[derive(Debug)]
pub enum Action {
    /// Nothing.
    None,
    /// Close the box.
    Close,
    /// Run this task (the file chooser reading a folder).
    Run(Task<Message>),
    /// A text box's text was submitted (the root closes the box when the text is taken).
    Text(text_box::Purpose, String),
    /// Save Game: the names and memo were given; ask for the file.
    SaveGame(Players),
    /// Game Information was edited: keep it with the game (the root closes the box).
    GameInfo(Players),
    /// Open this game file.
    OpenGame(PathBuf),
    /// The file chooser chose a file.
    FileChosen(Purpose, PathBuf),
    /// The question was answered Yes (the root closes the box and carries it out).
    Confirmed(confirm::Question),
    /// Play from this position (Input Board as Bitboard; the root closes the box).
    Position(shirokuro_engine::Position),
    /// A setting changed from a box (the AI's Loss curves); the box stays open.
    Setting(crate::settings::Change),
    /// Carry out a profiles request (file work, in the background).
    Profile(crate::settings::profile::ProfileKind, profiles::Request),
    /// The shortcut table changed (the box stays open).
    Shortcuts(crate::settings::shortcuts::Shortcuts),
    /// The buttons' functions changed (the box stays open).
    Buttons(crate::settings::shortcuts::Buttons),
    /// The forced openings changed (the box stays open; the root saves them).
    ForcedOpenings(crate::forced_opening::Folder),
}

impl Modal {
    /// Handles a message for the box shown.
    pub fn update(&mut self, message: Message) -> Action {
        match (self, message) {
            (_, Message::Close) => Action::Close,
            (Modal::Text(text), Message::Text(message)) => match text.update(message) {
                Some(submitted) => Action::Text(text.purpose(), submitted),
                None => Action::None,
            },
            (Modal::SaveGame(form), Message::SaveGame(message)) => match (form.update(message), form.purpose()) {
                (Some(players), save_game::Purpose::Save) => Action::SaveGame(players),
                (Some(players), save_game::Purpose::Info) => Action::GameInfo(players),
                (None, _) => Action::None,
            },
            (Modal::Library(form), Message::Library(message)) => match form.update(message) {
                library::Effect::None => Action::None,
                library::Effect::Work(job) => Action::Run(job.task().map(Message::Library)),
                library::Effect::Open(path) => Action::OpenGame(path),
            },
            (Modal::Confirm(question), Message::Yes) => Action::Confirmed(question.clone()),
            (Modal::Licences(licences), Message::LicenceToggled(index)) => {
                licences.toggle(index);
                Action::None
            }
            (Modal::FileChooser(chooser), Message::Chooser(message)) => match chooser.update(message) {
                file_chooser::Action::None => Action::None,
                file_chooser::Action::Run(task) => Action::Run(task.map(Message::Chooser)),
                file_chooser::Action::Chosen(purpose, path) => Action::FileChosen(purpose, path),
            },
            (Modal::Bitboard(form), Message::Bitboard(message)) => match form.update(message) {
                Some(position) => Action::Position(position),
                None => Action::None,
            },
            (Modal::LossCurves(_), Message::CurvePoint(curve, point, value)) => {
                Action::Setting(crate::settings::Change::AiLossPoint(curve, point, value))
            }
            (Modal::LossCurves(_), Message::CurvesDefault) => Action::Setting(crate::settings::Change::AiLossDefault),
            (Modal::Profiles(profiles), Message::Profiles(message)) => match profiles.update(message) {
                Some(request) => Action::Profile(profiles.kind(), request),
                None => Action::None,
            },
            (Modal::ShortcutKeys(keys), Message::ShortcutKeys(message)) => {
                keys.update(message).map_or(Action::None, Action::Shortcuts)
            }
            (Modal::Buttons(buttons), Message::Buttons(message)) => Action::Buttons(buttons.update(message)),
            (Modal::ForcedOpenings(form), Message::ForcedOpenings(message)) => {
                form.update(message).map_or(Action::None, Action::ForcedOpenings)
            }
            // A message for a box that has been closed or replaced.
            _ => Action::None,
        }
    }

    /// The box, centred.
    pub fn view<'a>(
        &'a self,
        s: &Strings,
        settings_file: &Path,
        ai_loss: &shirokuro_engine::think::loss_curves::LossCurves,
    ) -> Element<'a, Message> {
        let (content, id) = match self {
            Modal::About => (about::view(s, settings_file, Message::Close), "about"),
            Modal::Licences(licences) => (licences.view(s, Message::LicenceToggled, Message::Close), "licences"),
            Modal::BookInfo(info) => (crate::book::info::view(s, info, Message::Close), "book-info"),
            Modal::Text(text) => (text.view(s, Message::Text, Message::Close), "text-box"),
            Modal::SaveGame(form) => {
                let id = match form.purpose() {
                    save_game::Purpose::Save => "save-game",
                    save_game::Purpose::Info => "game-info",
                };
                (form.view(s, Message::SaveGame, Message::Close), id)
            }
            Modal::Library(form) => (form.view(s, Message::Library, Message::Close), "library"),
            Modal::FileChooser(chooser) => (chooser.view(s, Message::Chooser, Message::Close), "file-chooser"),
            Modal::Confirm(question) => (confirm::view(s, question, Message::Yes, Message::Close), "confirm"),
            Modal::Bitboard(form) => (form.view(s, Message::Bitboard, Message::Close), "bitboard"),
            Modal::Profiles(profiles) => (profiles.view(s, Message::Profiles, Message::Close), "profiles"),
            Modal::ShortcutKeys(keys) => (keys.view(s, Message::ShortcutKeys, Message::Close), "shortcut-keys"),
            Modal::Buttons(buttons) => (buttons.view(s, Message::Buttons, Message::Close), "buttons"),
            Modal::ForcedOpenings(form) => (form.view(s, Message::ForcedOpenings, Message::Close), "forced-openings"),
            Modal::LossCurves(curves) => {
                (curves.view(s, ai_loss, Message::CurvePoint, Message::CurvesDefault, Message::Close), "loss-curves")
            }
        };
        container(container(content).id(id).style(container::rounded_box)).center(Length::Fill).into()
    }
}
