//! `update()` tests of the players' clocks (Display ▸ Panels ▸ Timer): time charged to the side to move, the AI's
//! move budget, a flag that ends the game, Reset, and the clocks saved with the game. Time is driven by ticks that
//! carry their own instant, so nothing here waits.

use std::time::{Duration, Instant};

use shirokuro::context::Ctx;
use shirokuro::engine_worker::{Event, Job};
use shirokuro::game::{Action, ClockMessage, Game, Message, Order};
use shirokuro::i18n::Language;
use shirokuro::settings::{Display, Settings};
use shirokuro_engine::game_file::GameFile;
use shirokuro_engine::level::Selectivity;
use shirokuro_engine::think::Thought;
use shirokuro_engine::{Color, Move, Square};

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

fn ctx(settings: &Settings) -> Ctx<'_> {
    Ctx { settings, language: Language::English, book: None }
}

/// You as Black against the AI, the timer on with `minutes` a player.
fn timed(minutes: u8) -> Settings {
    Settings {
        ai_plays_black: false,
        ai_plays_white: true,
        display: Display { show_timer: true, timer_minutes: minutes, ..Display::default() },
        ..Settings::default()
    }
}

fn ready(settings: &Settings) -> Game {
    let mut game = Game::new(&ctx(settings));
    let _ = game.engine_ready(&ctx(settings));
    game
}

fn clock(game: &mut Game, message: ClockMessage, settings: &Settings) -> Action {
    game.update(Message::Clock(message), &ctx(settings))
}

fn think_budget(action: &Action) -> Option<Option<Duration>> {
    match action {
        Action::Engine(Order::Start(request)) => match &request.job {
            Job::Think { time, .. } => Some(*time),
            _ => None,
        },
        _ => None,
    }
}

#[test]
fn a_running_clock_gives_the_ai_a_share_of_its_time() {
    let settings = timed(5);
    let mut game = ready(&settings);
    // Stopped clocks: the AI searches at its level.
    let action = game.update(Message::SquareClicked(sq("f5")), &ctx(&settings));
    assert_eq!(think_budget(&action), Some(None));
    let _ = game.update(Message::Undo, &ctx(&settings));
    let _ = clock(&mut game, ClockMessage::Start, &settings);
    assert!(game.clocks().is_running());
    let action = game.update(Message::SquareClicked(sq("f5")), &ctx(&settings));
    let budget = think_budget(&action).flatten().expect("a budget");
    // Five minutes left, 59 empties: 30 own moves + 3 spare.
    assert!(budget > Duration::from_secs(8) && budget < Duration::from_secs(10), "{budget:?}");
    // Without a limit the clocks count up and the AI keeps to its level.
    let settings = timed(0);
    let mut game = ready(&settings);
    let _ = clock(&mut game, ClockMessage::Start, &settings);
    let action = game.update(Message::SquareClicked(sq("f5")), &ctx(&settings));
    assert_eq!(think_budget(&action), Some(None));
}

#[test]
fn time_is_charged_to_the_mover_and_recorded_with_each_position() {
    let settings = Settings { ai_plays_white: false, ..timed(0) };
    let mut game = ready(&settings);
    let t0 = Instant::now();
    let _ = clock(&mut game, ClockMessage::Start, &settings);
    let _ = clock(&mut game, ClockMessage::Tick(t0 + Duration::from_secs(7)), &settings);
    let _ = game.update(Message::SquareClicked(sq("f5")), &ctx(&settings));
    let _ = clock(&mut game, ClockMessage::Tick(t0 + Duration::from_secs(10)), &settings);
    let _ = game.update(Message::SquareClicked(sq("d6")), &ctx(&settings));
    // Seven seconds of ticks, and the moment between the Start and the first tick's instant.
    let black = game.clocks().used(Color::Black);
    assert!(black.abs_diff(Duration::from_secs(7)) < Duration::from_millis(200), "{black:?}");
    assert!(game.clocks().used(Color::White) >= Duration::from_secs(3));
    assert_eq!(game.record().node_at(1).unwrap().clock, [game.clocks().reading()[0], 0]);
    assert_eq!(game.record().node_at(2).unwrap().clock, game.clocks().reading());
    // Paused, time passes uncounted.
    let _ = clock(&mut game, ClockMessage::Pause, &settings);
    let _ = clock(&mut game, ClockMessage::Tick(t0 + Duration::from_secs(100)), &settings);
    assert_eq!(game.clocks().used(Color::Black), black);
    // Saved and opened again: the readings come back, the clocks stopped at the last one.
    let file = GameFile::parse(&game.game_file(String::new(), 1).to_json()).unwrap();
    assert_eq!(file.nodes[1].clock, game.record().node_at(1).unwrap().clock);
    let mut other = ready(&settings);
    let _ = other.load_game(&file, &ctx(&settings));
    assert_eq!(other.clocks().reading(), game.clocks().reading());
    assert!(!other.clocks().is_running());
}

#[test]
fn a_fallen_flag_ends_the_game_until_the_clocks_are_reset() {
    let settings = timed(1);
    let mut game = ready(&settings);
    let t0 = Instant::now();
    let _ = clock(&mut game, ClockMessage::Start, &settings);
    let action = clock(&mut game, ClockMessage::Tick(t0 + Duration::from_secs(61)), &settings);
    assert_eq!(game.clocks().flag(), Some(Color::Black));
    assert!(!game.clocks().is_running());
    assert!(matches!(action, Action::Engine(_)), "the engine is told: {action:?}");
    let status = game.status(&ctx(&settings)).unwrap();
    assert_eq!(status, "Black's time is up: White wins.");
    // No more moves, and the clock cannot be started again.
    let _ = game.update(Message::SquareClicked(sq("f5")), &ctx(&settings));
    assert_eq!(game.record().ply(), 0);
    let _ = clock(&mut game, ClockMessage::Start, &settings);
    assert!(!game.clocks().is_running());
    // Reset lifts the flag; play goes on.
    let _ = clock(&mut game, ClockMessage::Reset, &settings);
    assert_eq!((game.clocks().flag(), game.clocks().used(Color::Black)), (None, Duration::ZERO));
    let _ = game.update(Message::SquareClicked(sq("f5")), &ctx(&settings));
    assert_eq!(game.record().ply(), 1);
}

#[test]
fn the_ais_move_is_refused_when_its_flag_fell_while_it_thought() {
    let settings = timed(1);
    let mut game = ready(&settings);
    let t0 = Instant::now();
    let _ = clock(&mut game, ClockMessage::Start, &settings);
    let action = game.update(Message::SquareClicked(sq("f5")), &ctx(&settings));
    let Action::Engine(Order::Start(request)) = action else { panic!("the AI thinks: {action:?}") };
    let _ = clock(&mut game, ClockMessage::Tick(t0 + Duration::from_secs(200)), &settings);
    assert_eq!(game.clocks().flag(), Some(Color::White));
    let thought = Thought {
        best_move: Some(Move::Place(sq("d6"))),
        score: 0,
        exact: false,
        depth: 1,
        nodes: 1,
        elapsed: Duration::ZERO,
        stopped: false,
        selectivity: Selectivity::Exact,
        pv: Vec::new(),
    };
    let _ = game.on_engine(Event::Thought { generation: request.generation, thought }, &ctx(&settings));
    assert_eq!(game.record().ply(), 1, "the late move is not played");
}

#[test]
fn the_timer_off_stops_the_clocks() {
    let mut settings = timed(0);
    let mut game = ready(&settings);
    let _ = clock(&mut game, ClockMessage::Start, &settings);
    settings.display.show_timer = false;
    let _ = clock(&mut game, ClockMessage::Tick(Instant::now() + Duration::from_secs(5)), &settings);
    assert!(!game.clocks().is_running());
    assert_eq!(game.clocks().used(Color::Black), Duration::ZERO);
}
