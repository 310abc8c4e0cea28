//! The keyboard shortcuts (Egaroucid's table, for what exists).

use iced::keyboard::{self, Key, key::Named};

use crate::game::{self, Mode};
use crate::in_out;
use crate::message::Message;
use crate::settings::{Change, GraphMode, Settings, Toggle};

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
            "s" => Some(Message::InOut(in_out::Message::Screenshot)),
            "e" => game(game::Message::EditBoard(true)),
            "c" => Some(Message::InOut(in_out::Message::CopyTranscript)),
            "v" => Some(Message::InOut(in_out::Message::Paste)),
            _ => None,
        },
        Key::Character(c) if modifiers.is_empty() => match c {
            "g" => game(game::Message::AiMoveOnce),
            "q" => game(game::Message::Stop),
            "a" => game(game::Message::Analyze),
            "b" => Some(Message::Setting(Change::AiBlack(!settings.ai_plays_black))),
            "w" => Some(Message::Setting(Change::AiWhite(!settings.ai_plays_white))),
            "v" => Some(Message::Setting(Change::Display(Toggle::Hints, !settings.display.show_hints))),
            "u" => Some(Message::Setting(Change::Display(Toggle::Umigame, !settings.display.show_umigame))),
            "d" => Some(Message::Setting(Change::GraphMode(GraphMode::Evaluation))),
            "s" => Some(Message::Setting(Change::GraphMode(GraphMode::SumOfLoss))),
            "p" => Some(Message::Setting(Change::Display(Toggle::LaserPointer, !settings.display.laser_pointer))),
            _ => None,
        },
        _ => None,
    }
}
