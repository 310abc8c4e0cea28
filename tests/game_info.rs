//! Boxes about the game, clicked and typed in the `iced_test` simulator: Game ▸ Game Information (the names, the date
//! and the memo of the game opened; edits are kept with the game and Save Game writes them) and In/Out ▸ Input Board
//! as Bitboard.

use iced_test::selector;
use shirokuro::app::App;
use shirokuro::in_out;
use shirokuro::message::Message;
use shirokuro::modal::{self, Modal, save_game};
use shirokuro::settings::Settings;
use shirokuro_engine::game_file::GameFile;

mod common;

use common::{apply, screen};

fn app() -> (App, tempfile::TempDir) {
    common::app_with(Settings { ai_plays_black: false, ai_plays_white: false, ..Settings::default() })
}

#[test]
fn game_information_shows_and_edits_what_the_game_is_saved_with() {
    let (mut app, dir) = app();
    // A game opened from a file brings its names, date and memo.
    let _ = app.update(Message::InOut(in_out::Message::ClipboardRead(Some("f5d6c3".to_owned()))));
    let mut file = app.in_out().game_file(app.game(), 21);
    file.black_player = "Kuro".to_owned();
    file.date = "2024-05-06".to_owned();
    file.memo = "club game".to_owned();
    let path = dir.path().join("club.json");
    file.save(&path).unwrap();
    let _ = app.update(Message::InOut(in_out::Message::GameOpened(Ok((path.clone(), GameFile::load(&path).unwrap())))));

    let mut ui = screen(&app);
    let _ = ui.click(selector::id("menu_game")).expect("the Game menu title");
    let _ = ui.click(selector::id("game_information")).expect("Game Information in the Game menu");
    let messages: Vec<Message> = ui.into_messages().collect();
    apply(&mut app, messages);
    assert!(matches!(app.modal(), Some(Modal::SaveGame(form)) if form.purpose() == save_game::Purpose::Info));
    let mut ui = screen(&app);
    assert!(ui.find(selector::id("game-info")).is_ok(), "the Game Information box");
    assert!(ui.find("2024-05-06").is_ok(), "the game's date is shown");
    assert!(ui.find("Kuro").is_ok(), "Black's name is shown");
    // Edit White's name and the date, then OK.
    let _ = ui.click(selector::id("save-white")).expect("White's name");
    let _ = ui.typewrite("Shiro");
    let messages: Vec<Message> = ui.into_messages().collect();
    apply(&mut app, messages);
    let _ = app.update(Message::Modal(modal::Message::SaveGame(save_game::Message::Date("2024-05-07".to_owned()))));
    let mut ui = screen(&app);
    let _ = ui.click(selector::id("save-choose")).expect("OK");
    let messages: Vec<Message> = ui.into_messages().collect();
    apply(&mut app, messages);
    assert!(app.modal().is_none(), "OK closes the box");
    let players = app.in_out().players();
    assert_eq!(
        (players.black.as_str(), players.white.as_str(), players.date.as_str(), players.memo.as_str()),
        ("Kuro", "Shiro", "2024-05-07", "club game")
    );
    // Save Game writes them, the date included.
    let saved = app.in_out().game_file(app.game(), 21);
    assert_eq!((saved.white_player.as_str(), saved.date.as_str()), ("Shiro", "2024-05-07"));
}

#[test]
fn a_game_without_a_date_shows_today_and_close_keeps_everything() {
    let (mut app, _dir) = app();
    let _ = app.update(Message::InOut(in_out::Message::GameInformation));
    let today = shirokuro_engine::calendar::UtcDateTime::of(std::time::SystemTime::now()).date();
    let mut ui = screen(&app);
    assert!(ui.find(today.as_str()).is_ok(), "today's date is proposed: {today}");
    let _ = ui.click(selector::id("save-black")).expect("Black's name");
    let _ = ui.typewrite("Someone");
    let messages: Vec<Message> = ui.into_messages().collect();
    apply(&mut app, messages);
    let _ = app.update(Message::Modal(modal::Message::Close));
    assert!(app.modal().is_none());
    assert_eq!(app.in_out().players(), &save_game::Players::default(), "Close changes nothing");
}

#[test]
fn a_board_typed_as_bitboards_becomes_the_game() {
    use shirokuro_engine::{Color, Move, Position, Square};
    let (mut app, _dir) = app();
    let mut ui = screen(&app);
    let _ = ui.click(selector::id("menu_in_out")).expect("the In/Out menu title");
    let _ = ui.click(selector::id("bitboard_input")).expect("Input Board as Bitboard");
    let messages: Vec<Message> = ui.into_messages().collect();
    apply(&mut app, messages);
    // The position after f5, as Egaroucid's Output Board as Bitboard writes it (White to move).
    let mut ui = screen(&app);
    let _ = ui.click(selector::id("bitboard-player")).expect("the side to move's field");
    let _ = ui.typewrite("0x0000001000000000");
    let messages: Vec<Message> = ui.into_messages().collect();
    apply(&mut app, messages);
    let mut ui = screen(&app);
    let _ = ui.click(selector::id("bitboard-opponent")).expect("the opponent's field");
    let _ = ui.typewrite("0x000000081c000000");
    let messages: Vec<Message> = ui.into_messages().collect();
    apply(&mut app, messages);
    let mut ui = screen(&app);
    let _ = ui.click(selector::id("bitboard-white")).expect("Import as White's Turn");
    let messages: Vec<Message> = ui.into_messages().collect();
    apply(&mut app, messages);
    assert!(app.modal().is_none(), "the box closes");
    let after_f5 = Position::INITIAL.play(Move::Place(Square::F5)).unwrap();
    assert_eq!(app.game().position(), after_f5);
    assert_eq!(app.game().position().side_to_move, Color::White);
}

#[test]
fn overlapping_bitboards_are_refused_in_the_box() {
    let (mut app, _dir) = app();
    let _ = app.update(Message::InOut(in_out::Message::InputBitboard));
    for message in [
        modal::bitboard::Message::Player("ff".to_owned()),
        modal::bitboard::Message::Opponent("0x1".to_owned()),
        modal::bitboard::Message::Import(shirokuro_engine::Color::Black),
    ] {
        let _ = app.update(Message::Modal(modal::Message::Bitboard(message)));
    }
    assert!(matches!(app.modal(), Some(Modal::Bitboard(_))), "the box stays open");
    let mut ui = screen(&app);
    assert!(ui.find("The two numbers have discs on the same squares.").is_ok());
}
