//! What the simulator tests of the boxes share: an app in English with a fresh data folder, its screen in the
//! `iced_test` simulator, and carrying out the messages a click produced. Each test crate uses the part it needs.
#![allow(dead_code)]

use iced::keyboard::{self, Key, Location, Modifiers, key};
use iced::{Settings as IcedSettings, Size};
use iced_test::simulator::Simulator;
use shirokuro::app::App;
use shirokuro::i18n::Language;
use shirokuro::message::Message;
use shirokuro::settings::{Loaded, Paths, Settings};

/// The app with `settings` (in English), its data in a temporary folder that lives as long as the second value.
pub fn app_with(settings: Settings) -> (App, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let settings = Settings { language: Some(Language::English), ..settings };
    (App::new(Paths::inside(dir.path()), Loaded { settings, notices: Vec::new() }), dir)
}

/// The app's window in the simulator, 1100 × 720.
pub fn screen(app: &App) -> Simulator<'_, Message> {
    Simulator::with_size(IcedSettings::default(), Size::new(1100.0, 720.0), app.view())
}

/// Gives the app `messages`, in order.
pub fn apply(app: &mut App, messages: Vec<Message>) {
    for message in messages {
        let _ = app.update(message);
    }
}

/// A key press of `key` with `modifiers`, as the keyboard subscription delivers it.
pub fn press(key: Key, modifiers: Modifiers) -> keyboard::Event {
    keyboard::Event::KeyPressed {
        key: key.clone(),
        modified_key: key,
        physical_key: key::Physical::Unidentified(key::NativeCode::Unidentified),
        location: Location::Standard,
        modifiers,
        text: None,
        repeat: false,
    }
}
