//! Settings ▸ AI Style: the human-like sparring partner through the game (`update()`), the engine worker (the real
//! engine) and the settings file.

use std::time::Duration;

use iced::futures::executor::block_on;
use iced::futures::{Stream, StreamExt};
use shirokuro::context::Ctx;
use shirokuro::engine_worker::{self, EngineOptions, Event, Handle, Job, Request};
use shirokuro::game::{Action, Game, Order};
use shirokuro::i18n::Language;
use shirokuro::settings::{AiStyle, Change, Settings};
use shirokuro_engine::level::{Level, Selectivity};
use shirokuro_engine::think::Thought;
use shirokuro_engine::think::sparring::Strength;
use shirokuro_engine::{Move, Square};

fn ctx(settings: &Settings) -> Ctx<'_> {
    Ctx { settings, language: Language::English, book: None }
}

fn think_job(action: &Action) -> Option<(u64, Job)> {
    match action {
        Action::Engine(Order::Start(request)) if matches!(request.job, Job::Think { .. }) => {
            Some((request.generation, request.job.clone()))
        }
        _ => None,
    }
}

fn thought(best: Move) -> Thought {
    Thought {
        best_move: Some(best),
        score: 0,
        exact: false,
        depth: 1,
        nodes: 10,
        elapsed: Duration::from_millis(1),
        stopped: false,
        selectivity: Selectivity::Exact,
        pv: vec![best],
    }
}

/// The AI plays both sides with the partner on: each request carries what the partner lost before it on the line,
/// and going back forgets the moves taken back.
#[test]
fn the_game_counts_the_partners_losses_move_by_move() {
    let mut settings = Settings { ai_plays_black: true, ai_plays_white: true, ..Settings::default() };
    let _ = settings.apply(Change::AiStyle(AiStyle::at(Strength::Casual)));
    let mut game = Game::new(&ctx(&settings));
    let _ = game.engine_ready(&ctx(&settings));
    let action = game.update(shirokuro::game::Message::StartPressed, &ctx(&settings));
    let (generation, job) = think_job(&action).expect("the AI moves");
    let Job::Think { sparring: Some(sparring), .. } = job else { panic!("the partner plays: {job:?}") };
    assert_eq!((sparring.style, sparring.lost), (Strength::Casual.style(), 0));
    let mut generation = generation;
    for (mv, loss, lost_before_next) in [("f5", 3, 3), ("d6", 2, 5), ("c3", 0, 5)] {
        let _ = game.on_engine(Event::SparringLoss { generation, loss }, &ctx(&settings));
        let square: Square = mv.parse().unwrap();
        let action =
            game.on_engine(Event::Thought { generation, thought: thought(Move::Place(square)) }, &ctx(&settings));
        let action = match think_job(&action) {
            Some(_) => action,
            None => game.on_engine(Event::Done { generation }, &ctx(&settings)),
        };
        let (next, job) = think_job(&action).expect("the AI moves again");
        let Job::Think { sparring: Some(sparring), .. } = job else { panic!("{job:?}") };
        assert_eq!(sparring.lost, lost_before_next, "after {mv}");
        generation = next;
    }
    // With the engine as the AI style, no sparring part.
    let engine = Settings { ai_style: AiStyle { human_like: false, ..settings.ai_style }, ..settings.clone() };
    let mut game = Game::new(&ctx(&engine));
    let _ = game.engine_ready(&ctx(&engine));
    let action = game.update(shirokuro::game::Message::StartPressed, &ctx(&engine));
    assert!(matches!(think_job(&action), Some((_, Job::Think { sparring: None, .. }))));
}

/// The next event that is not a log line.
fn next(events: &mut (impl Stream<Item = Event> + Unpin)) -> Event {
    loop {
        match block_on(events.next()).expect("the worker is alive") {
            Event::Log(_) => {}
            event => return event,
        }
    }
}

fn started() -> (Handle, impl Stream<Item = Event> + Unpin) {
    let weights = shirokuro::settings::Paths::inside(std::path::Path::new("/unused")).weights_file();
    let mut events = Box::pin(engine_worker::spawn(&weights));
    let handle = loop {
        match next(&mut events) {
            Event::Ready(handle) => break handle,
            Event::WeightsFailed(_) => {}
            other => panic!("{other:?}"),
        }
    };
    handle.configure(EngineOptions { threads: 1, hash_level: 16, network: None });
    assert!(matches!(next(&mut events), Event::Configured));
    (handle, events)
}

/// The worker plays the partner's move and reports its loss first, within the maximum.
#[test]
fn the_worker_reports_the_partners_loss_before_its_move() {
    let (handle, mut events) = started();
    let position = shirokuro_engine::notation::parse_transcript("f5d6c3d3c4").unwrap().end;
    let style = Strength::Beginner.style();
    let sparring = Some(shirokuro_engine::think::Sparring { style, lost: 0 });
    for generation in 1..=5 {
        let job = Job::Think { position, level: Level::clamped(3), book: None, loss: None, time: None, sparring };
        handle.send(Request { generation, job });
        let Event::SparringLoss { generation: g, loss } = next(&mut events) else { panic!("the loss first") };
        assert_eq!(g, generation);
        assert!((0..=i32::from(style.max_loss)).contains(&loss), "{loss}");
        let Event::Thought { thought, .. } = next(&mut events) else { panic!("then the move") };
        assert!(position.board.is_legal(thought.best_move.unwrap()));
        assert!(matches!(next(&mut events), Event::Done { .. }));
    }
}

/// `[ai_style]` in the settings file: read back as written; a value out of range is reported and the rest kept.
#[test]
fn the_ai_style_is_saved_and_read_back() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("settings.toml");
    let mut settings = Settings::default();
    let _ = settings.apply(Change::AiStyle(AiStyle { human_like: true, average_loss: 7, max_loss: 12 }));
    shirokuro::settings::save(&settings, &path).unwrap();
    let shirokuro::settings::Loaded { settings: loaded, notices } = shirokuro::settings::load(&path);
    assert_eq!(loaded.ai_style, settings.ai_style);
    assert!(notices.is_empty(), "{notices:?}");
    let text = std::fs::read_to_string(&path).unwrap().replace("max_loss = 12", "max_loss = 99");
    std::fs::write(&path, text).unwrap();
    let shirokuro::settings::Loaded { settings: loaded, notices } = shirokuro::settings::load(&path);
    assert_eq!((loaded.ai_style.average_loss, loaded.ai_style.max_loss), (7, AiStyle::default().max_loss));
    assert_eq!(notices.len(), 1, "{notices:?}");
    // Out-of-range changes are clamped.
    let _ = settings.apply(Change::AiStyle(AiStyle { human_like: true, average_loss: 0, max_loss: 200 }));
    assert_eq!((settings.ai_style.average_loss, settings.ai_style.max_loss), (1, 64));
}
