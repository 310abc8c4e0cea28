//! The keyboard shortcuts: Egaroucid's table of functions and keys, which the user can change (Settings ▸
//! Shortcut Key Settings), and the board editor's own keys.

use iced::keyboard::{self, Key, key::Named};
use shirokuro_engine::bitboard::Symmetry;

pub use crate::settings::shortcuts::{
    Buttons, ComboError, Function, KeyCombo, MouseButton, ON_SCREEN, Shortcuts, function_id,
};

use crate::book::{self, Operation};
use crate::game::{self, Mode};
use crate::in_out;
use crate::message::Message;
use crate::settings::{Change, GraphMode, Settings, Toggle, display_value};

/// The board editor's keys (Egaroucid's): B, W and E choose the black, white or empty brush, Enter starts the game
/// from the edited position.
#[must_use]
pub fn editor_shortcut(event: &keyboard::Event) -> Option<Message> {
    let keyboard::Event::KeyPressed { key, modifiers, .. } = event else { return None };
    if !modifiers.is_empty() {
        return None;
    }
    let edit = |m| Some(Message::Game(m));
    match key.as_ref() {
        Key::Character("b") => edit(game::Message::EditBrush(game::Brush::Black)),
        Key::Character("w") => edit(game::Message::EditBrush(game::Brush::White)),
        Key::Character("e") => edit(game::Message::EditBrush(game::Brush::Empty)),
        Key::Named(Named::Enter) => edit(game::Message::EditDone),
        _ => None,
    }
}

/// The function of the key pressed in the user's table (`settings.shortcuts`), as a message; switches read the
/// current `settings`.
#[must_use]
pub fn shortcut(event: &keyboard::Event, settings: &Settings) -> Option<Message> {
    let combo = KeyCombo::of(event)?;
    settings.shortcuts.function(&combo).map(|function| message(function, settings))
}

/// The message that flips a display switch.
fn flip(which: Toggle, settings: &Settings) -> Message {
    Message::Setting(Change::Display(which, !display_value(&settings.display, which)))
}

/// What `function` does now (switches flip the current setting).
#[must_use]
pub fn message(function: Function, settings: &Settings) -> Message {
    use Function as F;
    let game = Message::Game;
    let io = Message::InOut;
    let convert = |symmetry| Message::Game(game::Message::Convert(symmetry));
    match function {
        F::StartGame => game(game::Message::StartPressed),
        F::NewGame => Message::NewGame(Mode::HumanVsHuman),
        F::NewGameHumanBlack => Message::NewGame(Mode::YouAsBlack),
        F::NewGameHumanWhite => Message::NewGame(Mode::YouAsWhite),
        F::NewSelfplay => Message::NewGame(Mode::SelfPlay),
        F::Analyze => game(game::Message::Analyze),
        F::Review => game(game::Message::Review(crate::review::Message::Start)),
        F::NextMistake => game(game::Message::Review(crate::review::Message::NextMistake)),
        F::PreviousMistake => game(game::Message::Review(crate::review::Message::PreviousMistake)),
        F::GameInformation => io(in_out::Message::GameInformation),
        F::Pass => game(game::Message::PassPressed),
        F::UseBook => Message::Setting(Change::UseBook(!settings.use_book)),
        F::AiPutBlack => Message::Setting(Change::AiBlack(!settings.ai_plays_black)),
        F::AiPutWhite => Message::Setting(Change::AiWhite(!settings.ai_plays_white)),
        F::ShowLegal => flip(Toggle::Legal, settings),
        F::ShowDiscHint => flip(Toggle::Hints, settings),
        F::ShowUmigameValue => flip(Toggle::Umigame, settings),
        F::ShowBookAccuracy => flip(Toggle::BookAccuracy, settings),
        F::ShowStable => flip(Toggle::Stable, settings),
        F::ShowLastMove => flip(Toggle::LastMove, settings),
        F::ShowNextMove => flip(Toggle::NextMove, settings),
        F::ShowInfo => flip(Toggle::Info, settings),
        F::ShowGraph => flip(Toggle::Graph, settings),
        F::ShowLog => flip(Toggle::Log, settings),
        F::ShowTimer => flip(Toggle::Timer, settings),
        F::ShowGraphValue => Message::Setting(Change::GraphMode(GraphMode::Evaluation)),
        F::ShowGraphSumOfLoss => Message::Setting(Change::GraphMode(GraphMode::SumOfLoss)),
        F::ShowLaserPointer => flip(Toggle::LaserPointer, settings),
        F::Put1MoveByAi => game(game::Message::AiMoveOnce),
        F::Forward => game(game::Message::Forward),
        F::Backward => game(game::Message::Backward),
        F::Undo => game(game::Message::Undo),
        F::GoToFirst => game(game::Message::First),
        F::GoToLast => game(game::Message::Last),
        F::SaveThisBranch => game(game::Message::SaveBranch),
        F::BackToRandomPos => game(game::Message::BackToRandom),
        F::GenerateRandomBoard => game(game::Message::GenerateRandom),
        F::GenerateXotPosition => game(game::Message::GenerateXot),
        F::StopCalculating => game(game::Message::Stop),
        F::CacheClear => game(game::Message::ClearCache),
        F::ConvertRotate180 => convert(Symmetry::Rotate180),
        F::ConvertRotate90Clockwise => convert(Symmetry::Rotate90),
        F::ConvertRotate90Counterclockwise => convert(Symmetry::Rotate270),
        F::ConvertBlackLine => convert(Symmetry::MirrorAntiDiagonal),
        F::ConvertWhiteLine => convert(Symmetry::MirrorDiagonal),
        F::ConvertHorizontal => convert(Symmetry::MirrorHorizontal),
        F::ConvertVertical => convert(Symmetry::MirrorVertical),
        F::InputFromClipboard => io(in_out::Message::Paste),
        F::InputText => io(in_out::Message::InputText),
        F::EditBoard => game(game::Message::EditBoard(true)),
        F::OutputTranscript => io(in_out::Message::CopyTranscript),
        F::OutputBoard => io(in_out::Message::CopyBoard),
        F::ScreenShot => io(in_out::Message::Screenshot),
        F::SaveGame => io(in_out::Message::SaveGame),
        F::OpenGame => io(in_out::Message::OpenGame),
        F::GameLibrary => io(in_out::Message::Library),
        F::BookInfo => Message::Book(book::Message::Run(Operation::Info)),
        F::HowToUse => Message::HowToUse,
        F::About => Message::About,
    }
}
