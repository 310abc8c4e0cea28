//! `update()` tests of the board's optional marks (Egaroucid's Display ▸ On Disc and the colourised hints): the
//! discs the last move flipped, the discs a hovered move would flip, the move numbers in both formats, and the
//! colourised hints.

use shirokuro::context::Ctx;
use shirokuro::engine_worker::{Event, HintKind};
use shirokuro::game::{Action, Game, Message, Order};
use shirokuro::i18n::Language;
use shirokuro::settings::{PlayOrder, Settings};
use shirokuro::widget::board::{HintTone, MoveNumber};
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
fn colourised_hints_say_the_sign_and_the_certainty_as_egaroucid() {
    let mut settings = humans();
    settings.display.colorize_hints = true;
    let mut game = Game::new(&ctx(&settings));
    let action = game.engine_ready(&ctx(&settings));
    let Action::Engine(Order::Start(request)) = action else { panic!("hints are searched: {action:?}") };
    let hints = [
        ("f5", 2, HintKind::Depth(1)),
        ("d3", -3, HintKind::Depth(1)),
        ("c4", 0, HintKind::Percent(100)),
        ("e6", 1, HintKind::Percent(100)),
    ];
    for (square, value, kind) in hints {
        let hint = Event::Hint { generation: request.generation, square: sq(square), value, kind, pv: vec![] };
        let _ = game.on_engine(hint, &ctx(&settings));
    }
    let mut tones: Vec<(Square, Option<HintTone>)> = game.scene().hints.iter().map(|h| (h.square, h.tone)).collect();
    tones.sort_by_key(|(square, _)| square.index());
    let mut expected = vec![
        (sq("f5"), Some(HintTone::Estimate)),
        (sq("d3"), Some(HintTone::Losing)),
        (sq("c4"), Some(HintTone::CertainDraw)),
        (sq("e6"), Some(HintTone::CertainWin)),
    ];
    expected.sort_by_key(|(square, _)| square.index());
    assert_eq!(tones, expected);
    settings.display.colorize_hints = false;
    let _ = game.on_engine(
        Event::Hint {
            generation: request.generation,
            square: sq("f5"),
            value: 3,
            kind: HintKind::Depth(2),
            pv: vec![],
        },
        &ctx(&settings),
    );
    assert!(game.scene().hints.iter().all(|h| h.tone.is_none()));
}
