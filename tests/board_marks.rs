//! `update()` tests of the board's optional marks (Egaroucid's Display ▸ On Disc and the colourised hints): the
//! discs the last move flipped, the discs a hovered move would flip, the move numbers in both formats, and the hint
//! colours by loss.

use shirokuro::context::Ctx;
use shirokuro::engine_worker::{Event, HintKind};
use shirokuro::game::{Game, Message};
use shirokuro::i18n::Language;
use shirokuro::settings::{PlayOrder, Settings};
use shirokuro::widget::board::MoveNumber;
use shirokuro_engine::{Bitboard, Square};

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

fn squares(names: &[&str]) -> Bitboard {
    names.iter().fold(Bitboard::EMPTY, |b, n| b | sq(n).bitboard())
}

fn ctx(settings: &Settings) -> Ctx<'_> {
    Ctx { settings, language: Language::English, book: None }
}

fn game_after(settings: &Settings, moves: &[&str]) -> Game {
    let mut game = Game::new(&ctx(settings));
    let _ = game.engine_ready(&ctx(settings));
    for m in moves {
        let _ = game.update(Message::SquareClicked(sq(m)), &ctx(settings));
    }
    game
}

fn humans() -> Settings {
    Settings { ai_plays_black: false, ai_plays_white: false, ..Settings::default() }
}

#[test]
fn the_last_moves_flips_are_marked_only_when_asked() {
    let mut settings = humans();
    let game = game_after(&settings, &["f5", "d6"]);
    assert!(game.scene().flipped.is_empty(), "off by default");
    settings.display.show_flipped_last = true;
    let mut game = game_after(&settings, &["f5", "d6"]);
    // d6 flips d5 back to White.
    assert_eq!(game.scene().flipped, squares(&["d5"]));
    // Going back one move shows f5's flip.
    let _ = game.update(Message::Backward, &ctx(&settings));
    assert_eq!(game.scene().flipped, squares(&["e5"]));
    let _ = game.update(Message::First, &ctx(&settings));
    assert!(game.scene().flipped.is_empty());
}

#[test]
fn a_hovered_legal_move_shows_what_it_would_flip() {
    let mut settings = humans();
    settings.display.show_flipped_hover = true;
    let mut game = game_after(&settings, &[]);
    let _ = game.update(Message::SquareHovered(Some(sq("f5"))), &ctx(&settings));
    assert_eq!(game.scene().would_flip, squares(&["e5"]));
    // An illegal square flips nothing; leaving the board clears it.
    let _ = game.update(Message::SquareHovered(Some(sq("a1"))), &ctx(&settings));
    assert!(game.scene().would_flip.is_empty());
    let _ = game.update(Message::SquareHovered(Some(sq("f5"))), &ctx(&settings));
    let _ = game.update(Message::SquareHovered(None), &ctx(&settings));
    assert!(game.scene().would_flip.is_empty());
}

#[test]
fn move_numbers_follow_the_record_in_both_formats() {
    let mut settings = humans();
    let game = game_after(&settings, &["f5", "d6", "c3"]);
    assert!(game.scene().numbers.is_empty(), "off by default");
    settings.display.play_order = PlayOrder::Board;
    let game = game_after(&settings, &["f5", "f6", "f7"]);
    // f7 flips f6: in the board format its number sits on a black disc, as the board stands.
    assert_eq!(
        game.scene().numbers,
        vec![
            MoveNumber { square: sq("f5"), number: 1, black: true },
            MoveNumber { square: sq("f6"), number: 2, black: true },
            MoveNumber { square: sq("f7"), number: 3, black: true },
        ]
    );
    // The transcript format colours each number by the player who played it.
    settings.display.play_order = PlayOrder::Transcript;
    let mut game = game_after(&settings, &["f5", "f6", "f7"]);
    let colours: Vec<bool> = game.scene().numbers.iter().map(|n| n.black).collect();
    assert_eq!(colours, vec![true, false, true]);
    // Numbers stop at the ply shown.
    let _ = game.update(Message::Backward, &ctx(&settings));
    assert_eq!(game.scene().numbers.len(), 2);
}

#[test]
fn colourised_hints_carry_their_loss() {
    let mut settings = humans();
    settings.display.colorize_hints = true;
    let mut game = Game::new(&ctx(&settings));
    let action = game.engine_ready(&ctx(&settings));
    let shirokuro::game::Action::Engine(shirokuro::game::Order::Start(request)) = action else {
        panic!("hints are searched: {action:?}")
    };
    for (square, value) in [("f5", 2), ("d3", -3)] {
        let hint = Event::Hint {
            generation: request.generation,
            square: sq(square),
            value,
            kind: HintKind::Depth(1),
            pv: vec![],
        };
        let _ = game.on_engine(hint, &ctx(&settings));
    }
    let losses: Vec<(Square, Option<i32>)> = game.scene().hints.iter().map(|h| (h.square, h.loss)).collect();
    assert_eq!(losses, vec![(sq("f5"), Some(0)), (sq("d3"), Some(5))]);
    settings.display.colorize_hints = false;
    let _ = game.update(Message::SquareHovered(None), &ctx(&settings));
    let _ = game.on_engine(
        Event::Hint {
            generation: request.generation,
            square: sq("c4"),
            value: 0,
            kind: HintKind::Depth(1),
            pv: vec![],
        },
        &ctx(&settings),
    );
    assert!(game.scene().hints.iter().all(|h| h.loss.is_none()));
}
