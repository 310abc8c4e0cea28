//! In/Out ▸ Game Library with folders and a recycle bin: selection by Ctrl- and Shift-clicks and Ctrl+A, cut and
//! paste into a folder, delete to the recycle bin and restore, empty the bin, folders made, renamed and deleted. The
//! background file work is run here by hand (`Job::run`), as the app runs it off the UI thread.

use std::path::Path;

use iced::keyboard::{Key, Modifiers};
use shirokuro::game_library::RECYCLE_BIN;
use shirokuro::message::Message;
use shirokuro::modal::library::{Effect, LibraryBox, Message as L};
use shirokuro::modal::{self, Modal};
use shirokuro::settings::Settings;
use shirokuro_engine::game_file::{GameFile, GameNode};
use shirokuro_engine::notation::parse_transcript;

mod common;
use common::{app_with, press};

/// Saves the game of `moves` as `path`.
fn save_game(path: &Path, moves: &str) {
    let line = parse_transcript(moves).unwrap();
    let mut position = shirokuro_engine::Position::INITIAL;
    let mut nodes = vec![GameNode { position, played: None, value: None, level: 0, clock: [0, 0] }];
    for mv in line.moves {
        position = position.play(mv).unwrap();
        nodes.push(GameNode { position, played: mv.square(), value: None, level: 0, clock: [0, 0] });
    }
    GameFile::new(nodes, "2026-11-26".to_owned()).save(path).unwrap();
}

/// Gives the box `message` and carries out the file work it asks for, until it asks for none.
fn drive(form: &mut LibraryBox, message: L) -> Effect {
    let mut effect = form.update(message);
    while let Effect::Work(job) = effect {
        effect = form.update(job.run());
    }
    effect
}

fn names(form: &LibraryBox) -> Vec<String> {
    form.games().unwrap().iter().map(|g| g.path.file_name().unwrap().to_string_lossy().into_owned()).collect()
}

#[test]
fn games_are_selected_moved_deleted_and_restored() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("games");
    for (name, moves) in [("2026_01.json", "f5d6"), ("2026_02.json", "f5f6"), ("2026_03.json", "f5f4")] {
        save_game(&root.join(name), moves);
    }
    let (mut form, read) = LibraryBox::new(root.clone());
    let _ = drive(&mut form, read.run());
    assert_eq!(names(&form), ["2026_03.json", "2026_02.json", "2026_01.json"], "newest first");

    // Ctrl-click one, Shift-click another: the range between; a plain click opens.
    let _ = drive(&mut form, L::Modifiers(Modifiers::CTRL));
    let _ = drive(&mut form, L::Row(0));
    let _ = drive(&mut form, L::Modifiers(Modifiers::SHIFT));
    let _ = drive(&mut form, L::Row(1));
    assert_eq!(form.selected(), [0, 1]);
    let _ = drive(&mut form, L::Modifiers(Modifiers::empty()));
    assert_eq!(drive(&mut form, L::Row(2)), Effect::Open(root.join("2026_01.json")));

    // A folder; the two selected games cut and pasted into it.
    let _ = drive(&mut form, L::Name("club".into()));
    let _ = drive(&mut form, L::NewFolder);
    let _ = drive(&mut form, L::Row(0));
    let _ = drive(&mut form, L::Modifiers(Modifiers::CTRL));
    let _ = drive(&mut form, L::Row(0));
    let _ = drive(&mut form, L::Row(1));
    let _ = drive(&mut form, L::Cut);
    let _ = drive(&mut form, L::Folder("club".into()));
    let _ = drive(&mut form, L::Paste);
    assert_eq!(names(&form), ["2026_03.json", "2026_02.json"]);
    let _ = drive(&mut form, L::Up);
    assert_eq!(names(&form), ["2026_01.json"]);

    // Delete: to the recycle bin, where Restore brings it back to the top folder.
    let _ = drive(&mut form, L::SelectAll);
    let _ = drive(&mut form, L::Delete);
    assert!(names(&form).is_empty());
    assert!(root.join(RECYCLE_BIN).join("2026_01.json").exists());
    let _ = drive(&mut form, L::Bin);
    assert_eq!(names(&form), ["2026_01.json"]);
    let _ = drive(&mut form, L::SelectAll);
    let _ = drive(&mut form, L::Restore);
    assert!(names(&form).is_empty() && root.join("2026_01.json").exists());

    // The folder renamed, then deleted (to the bin, whole), then the bin emptied.
    let _ = drive(&mut form, L::Up);
    let _ = drive(&mut form, L::Folder("club".into()));
    let _ = drive(&mut form, L::Name("tournament".into()));
    let _ = drive(&mut form, L::RenameFolder);
    assert!(root.join("tournament").join("2026_02.json").exists());
    assert_eq!(names(&form).len(), 2, "still in the renamed folder");
    let _ = drive(&mut form, L::DeleteFolder);
    assert!(root.join(RECYCLE_BIN).join("tournament").join("2026_02.json").exists());
    let _ = drive(&mut form, L::Bin);
    let _ = drive(&mut form, L::EmptyBin);
    assert_eq!(std::fs::read_dir(root.join(RECYCLE_BIN)).unwrap().count(), 0);
    assert!(root.join("2026_01.json").exists(), "the game restored before is untouched");
}

#[test]
fn the_librarys_keys_reach_the_box_in_the_app() {
    let (mut app, dir) = app_with(Settings::default());
    let root = dir.path().join("data").join("games");
    save_game(&root.join("a.json"), "f5d6");
    save_game(&root.join("b.json"), "f5f6");
    let _ = app.update(Message::InOut(shirokuro::in_out::Message::Library));
    // The read the app started in the background, done here.
    let listed = shirokuro::modal::library::Job::List(root.clone(), true).run();
    let _ = app.update(Message::Modal(modal::Message::Library(listed)));
    let press = |c: &str| Message::Key(press(Key::Character(c.into()), Modifiers::CTRL));
    let transcript = app.game().transcript();
    let _ = app.update(press("a"));
    assert!(matches!(app.modal(), Some(Modal::Library(form)) if form.selected() == [0, 1]), "Ctrl+A selected all");
    let _ = app.update(press("c"));
    assert_eq!(app.game().transcript(), transcript, "Ctrl+C went to the library, not to Copy Transcript");
}
