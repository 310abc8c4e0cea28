//! Help ▸ Data Migration in the app: the menu opens the folder boxes, an export written and read back replaces the
//! settings (the window keeps its size and place) and tells where, a folder that is not an export is refused with a
//! notice.

use iced_test::selector;
use shirokuro::message::Message;
use shirokuro::migration;
use shirokuro::modal::{Modal, text_box};
use shirokuro::notice::Notice;
use shirokuro::settings::Settings;

mod common;
use common::{app_with, apply, screen};

#[test]
fn an_export_brought_back_replaces_the_settings() {
    let (mut app, dir) = app_with(Settings { window_width: 900, ..Settings::default() });
    let mut ui = screen(&app);
    let _ = ui.click(selector::id("menu_help")).expect("the Help menu");
    let _ = ui.click(selector::id("migration_export_menu")).expect("Data Migration: Export Data…");
    let messages: Vec<Message> = ui.into_messages().collect();
    apply(&mut app, messages);
    let data = dir.path().join("data");
    assert!(
        matches!(app.modal(), Some(Modal::Text(f)) if f.purpose() == text_box::Purpose::ExportData && f.text().trim() == data.display().to_string()),
        "the box starts with the data folder"
    );
    // The export as the background task makes it, from other settings.
    let theirs = Settings { level: 9, force_openings: true, window_width: 1400, ..Settings::default() };
    let folder = migration::export(&theirs, &data, dir.path(), std::time::SystemTime::now()).unwrap();
    let _ = app.update(Message::Exported(Ok(folder.clone())));
    assert!(app.notices().iter().any(|n| matches!(n, Notice::Exported { folder: f } if *f == folder)));
    let imported = migration::import(&folder, &data).map(|loaded| (folder.clone(), loaded));
    let _ = app.update(Message::Imported(imported));
    assert_eq!((app.settings().level, app.settings().force_openings), (9, true));
    assert_eq!(app.settings().window_width, 900, "the window keeps its size");
    assert!(app.notices().iter().any(|n| matches!(n, Notice::Imported { .. })));
    // Not an export.
    let refused = migration::import(&data, &data).map(|loaded| (data.clone(), loaded));
    let _ = app.update(Message::Imported(refused));
    assert!(app.notices().iter().any(|n| matches!(n, Notice::MigrationFailed { .. })));
    assert_eq!(app.settings().level, 9, "nothing changed");
}
