//! Settings ▸ AI Profile… and Display ▸ Display Profile…, through the app: the box lists the profiles, its buttons
//! ask for the file work, and a loaded profile replaces only its kind's settings. (The file work itself is tested in
//! `src/settings/profile.rs`.)

use iced_test::selector;
use shirokuro::app::App;
use shirokuro::i18n::Language;
use shirokuro::message::Message;
use shirokuro::modal::profiles::{Message as BoxMessage, Request};
use shirokuro::modal::{self, Modal};
use shirokuro::settings::profile::ProfileKind;
use shirokuro::settings::{Loaded, Paths, Settings};

mod common;

use common::screen;

fn app() -> (App, tempfile::TempDir) {
    common::app_with(Settings::default())
}

#[test]
fn the_ai_profile_box_lists_loads_and_saves() {
    let (mut app, _dir) = app();
    let mut ui = screen(&app);
    let _ = ui.click(selector::id("menu_settings")).expect("the Settings menu");
    let _ = ui.click(selector::id("profile_ai")).expect("AI Profile…");
    let messages: Vec<Message> = ui.into_messages().collect();
    for message in messages {
        let _ = app.update(message);
    }
    assert!(matches!(app.modal(), Some(Modal::Profiles(p)) if p.kind() == ProfileKind::Ai));
    let listed = |names: &[&str]| {
        Message::Modal(modal::Message::Profiles(BoxMessage::Listed(Ok(names
            .iter()
            .map(|n| (*n).to_owned())
            .collect()))))
    };
    let _ = app.update(listed(&[]));
    let mut ui = screen(&app);
    assert!(ui.find("No profile saved yet.").is_ok());
    // Type a name: New Save asks to save under it.
    let _ = ui.click(selector::id("profile-name")).expect("the name field");
    let _ = ui.typewrite("strong");
    let messages: Vec<Message> = ui.into_messages().collect();
    for message in messages {
        let _ = app.update(message);
    }
    let mut ui = screen(&app);
    let _ = ui.click(selector::id("profile-new-save")).expect("New Save");
    let messages: Vec<Message> = ui.into_messages().collect();
    assert!(
        messages.iter().any(|m| matches!(m,
            Message::Modal(modal::Message::Profiles(BoxMessage::Ask(Request::Save(name)))) if name == "strong")),
        "{messages:?}"
    );
    // Listed, then Load: a loaded AI profile changes the AI's settings, not the display's.
    let _ = app.update(listed(&["strong"]));
    let mut ui = screen(&app);
    let _ = ui.click("Load").expect("Load");
    let messages: Vec<Message> = ui.into_messages().collect();
    assert!(
        messages.iter().any(|m| matches!(m,
            Message::Modal(modal::Message::Profiles(BoxMessage::Ask(Request::Load(name)))) if name == "strong")),
        "{messages:?}"
    );
    let mut profile = Settings { level: 33, use_book: false, ..Settings::default() };
    profile.display.show_legal = false;
    let _ = app.update(Message::ProfileLoaded(ProfileKind::Ai, "strong".to_owned(), Ok(Box::new(profile.clone()))));
    assert!(app.modal().is_none(), "a loaded profile closes the box");
    assert_eq!((app.settings().level, app.settings().use_book), (33, false));
    assert!(app.settings().display.show_legal, "an AI profile leaves the display alone");
    // A display profile: the display only.
    let _ = app.update(Message::ProfileLoaded(
        ProfileKind::Display,
        "quiet".to_owned(),
        Ok(Box::new(Settings { level: 5, ..profile })),
    ));
    assert!(!app.settings().display.show_legal);
    assert_eq!(app.settings().level, 33, "a display profile leaves the AI alone");
}

#[test]
fn a_failed_request_is_shown_in_the_box_and_the_list_is_read_again() {
    let (mut app, _dir) = app();
    let _ = app.update(Message::Profiles(ProfileKind::Display));
    let failure = shirokuro_engine::fsutil::IoFailure {
        kind: std::io::ErrorKind::PermissionDenied,
        message: "permission denied".to_owned(),
    };
    let strings = Language::English.strings();
    let why = shirokuro::failure::io(strings, &failure);
    let _ = app.update(Message::ProfileLoaded(ProfileKind::Display, "gone".to_owned(), Err(failure)));
    assert!(matches!(app.modal(), Some(Modal::Profiles(_))), "the box stays open");
    let mut ui = screen(&app);
    let shown = shirokuro::i18n::fill(&strings.profile_failed, &[&why]);
    assert!(ui.find(shown.as_str()).is_ok(), "{shown}");
}

#[test]
fn auto_save_on_exit_waits_for_a_changed_current_profile_only() {
    use shirokuro::settings::Change;
    use shirokuro::settings::profile::AutoSave;
    // A current AI profile with Overwrite: unchanged settings exit at once.
    let dir = tempfile::tempdir().unwrap();
    let settings = Settings {
        language: Some(Language::English),
        ai_profile: Some("club".to_owned()),
        ai_profile_autosave: AutoSave::Overwrite,
        ..Settings::default()
    };
    let mut app = App::new(Paths::inside(dir.path()), Loaded { settings: settings.clone(), notices: Vec::new() });
    let _ = app.update(Message::CloseRequested);
    assert!(app.may_exit(), "nothing changed: nothing to auto-save");

    // Changed level: the exit waits for the auto-save.
    let mut app = App::new(Paths::inside(dir.path()), Loaded { settings: settings.clone(), notices: Vec::new() });
    let _ = app.update(Message::Setting(Change::Level(30)));
    let _ = app.update(Message::SettingsSaved(Ok(())));
    let _ = app.update(Message::CloseRequested);
    assert!(!app.may_exit(), "the changed profile is being saved");
    let _ = app.update(Message::ProfilesAutoSaved);
    assert!(app.may_exit(), "saved: the app ends");

    // Auto-Save off: a change does not hold the exit.
    let off = Settings { ai_profile_autosave: AutoSave::Off, ..settings };
    let mut app = App::new(Paths::inside(dir.path()), Loaded { settings: off, notices: Vec::new() });
    let _ = app.update(Message::Setting(Change::Level(30)));
    let _ = app.update(Message::SettingsSaved(Ok(())));
    let _ = app.update(Message::CloseRequested);
    assert!(app.may_exit());
}

#[test]
fn a_saved_or_loaded_profile_becomes_the_current_one() {
    let (mut app, _dir) = app();
    assert_eq!(app.settings().ai_profile, None);
    let _ = app.update(Message::Profiles(ProfileKind::Ai));
    let _ = app.update(Message::ProfileSaved(ProfileKind::Ai, "mine".to_owned(), Ok(())));
    assert_eq!(app.settings().ai_profile.as_deref(), Some("mine"));
    let _ =
        app.update(Message::ProfileLoaded(ProfileKind::Display, "big".to_owned(), Ok(Box::new(Settings::default()))));
    assert_eq!(app.settings().display_profile.as_deref(), Some("big"));
}
