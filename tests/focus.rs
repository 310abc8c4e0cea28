//! Display ▸ On Board ▸ AI's Focus: after the hints, the engine is asked for each disc's worth; the values tint the
//! squares (orange for Black, blue for White, by tanh of a fifth of the value, as Egaroucid) and the info panel
//! names the level. The worker's side is in tests/engine_worker.rs.

use shirokuro::context::Ctx;
use shirokuro::engine_worker::{Event, Job, Request};
use shirokuro::game::{Action, Game, Order};
use shirokuro::i18n::Language;
use shirokuro::settings::{Display, Settings};
use shirokuro_engine::{Position, Square};

fn ctx(settings: &Settings) -> Ctx<'_> {
    Ctx { settings, language: Language::English, book: None }
}

#[test]
fn the_focus_follows_the_hints_and_tints_the_discs() {
    let settings = Settings {
        ai_plays_black: false,
        ai_plays_white: false,
        display: Display { show_focus: true, ..Display::default() },
        ..Settings::default()
    };
    let mut game = Game::new(&ctx(&settings));
    let action = game.engine_ready(&ctx(&settings));
    let Action::Engine(Order::Start(Request { generation, job: Job::Hints { .. } })) = action else {
        panic!("hints first: {action:?}")
    };
    let action = game.on_engine(Event::Done { generation }, &ctx(&settings));
    let Action::Engine(Order::Start(Request { generation, job: Job::Focus { position, level } })) = action else {
        panic!("then the focus: {action:?}")
    };
    assert_eq!((position, level.get()), (Position::INITIAL, 10), "the level is capped at 10");
    let sq = |n: &str| n.parse::<Square>().unwrap();
    let values = vec![(sq("d4"), -50), (sq("e4"), 0), (sq("d5"), 30), (sq("e5"), 200)];
    let _ = game.on_engine(Event::Focus { generation, position, level: 3, values }, &ctx(&settings));
    let tints: Vec<(Square, i8)> = game.scene().focus.clone();
    // tanh(0.2 × −5) = −0.76, tanh(0.6) = 0.54, tanh(4) = 1.0.
    assert_eq!(tints, vec![(sq("d4"), -76), (sq("e4"), 0), (sq("d5"), 54), (sq("e5"), 100)]);
    assert_eq!(game.focus_level(), Some(3));
    // Off: no tint.
    let off = Settings { display: Display::default(), ..settings.clone() };
    game.language_changed(&ctx(&off));
    assert!(game.scene().focus.is_empty());
}

#[test]
fn hint_values_on_the_ais_turn_come_before_its_search() {
    use shirokuro::engine_worker::HintKind;
    let settings = Settings {
        ai_plays_black: false,
        ai_plays_white: true,
        display: Display { hints_on_ai_turn: true, ..Display::default() },
        ..Settings::default()
    };
    let mut game = Game::new(&ctx(&settings));
    let _ = game.engine_ready(&ctx(&settings));
    let sq = |n: &str| n.parse::<Square>().unwrap();
    let action = game.update(shirokuro::game::Message::SquareClicked(sq("f5")), &ctx(&settings));
    let Action::Engine(Order::Start(Request { generation, job: Job::Hints { .. } })) = action else {
        panic!("the AI's move values first: {action:?}")
    };
    assert!(game.is_thinking());
    for (square, value) in [("d6", -2), ("f6", -3), ("f4", -4)] {
        let hint = Event::Hint { generation, square: sq(square), value, kind: HintKind::Depth(5), pv: Vec::new() };
        let _ = game.on_engine(hint, &ctx(&settings));
    }
    let action = game.on_engine(Event::Done { generation }, &ctx(&settings));
    assert!(matches!(action, Action::Engine(Order::Start(Request { job: Job::Think { .. }, .. }))), "{action:?}");
    assert_eq!(game.scene().hints.len(), 3, "the values stay while the AI searches");
    // Off: the AI searches at once.
    let off = Settings { display: Display::default(), ..settings.clone() };
    let mut game = Game::new(&ctx(&off));
    let _ = game.engine_ready(&ctx(&off));
    let action = game.update(shirokuro::game::Message::SquareClicked(sq("f5")), &ctx(&off));
    assert!(matches!(action, Action::Engine(Order::Start(Request { job: Job::Think { .. }, .. }))));
}
