//! Game ▸ Review as the app runs it: the engine worker reviews a 60-move game on its own thread while this thread
//! plays the UI's part — each `Reviewed` event through `App::update` and a fresh `App::view` — and times that part.
//!
//! `cargo bench --bench review -- [LEVEL] [EXACT_FROM] [THREADS]` (default 10 20 2). Prints the review's wall time
//! and the UI thread's time per event (min / median / max): the UI stays responsive when that is well under a frame.

use std::time::{Duration, Instant};

use iced::futures::StreamExt;
use iced::futures::executor::block_on;
use shirokuro::app::App;
use shirokuro::engine_worker::{self, EngineOptions, Event, Job, Request};
use shirokuro::message::Message;
use shirokuro::settings::{Loaded, Paths, ReviewSettings, Settings};

/// The first game of the WTHOR set (1977), 60 moves.
const GAME: &str = "f5d6c3f3f4d3c4g6f6e6c5c6d7d8e7g5e3d2g4h3f7b5h5g3b4b6c8b8c7e8f8g8h4h6e2d1c1a3a6a5e1f2g7c2a4h8a2b7\
                    f1b3b1b2h7a7a8a1g1g2h2h1";

fn main() {
    let args: Vec<u8> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let level = args.first().copied().unwrap_or(10);
    let exact_from = args.get(1).copied().unwrap_or(20);
    let threads = u16::from(args.get(2).copied().unwrap_or(2));
    let dir = std::env::temp_dir().join(format!("shirokuro-review-bench-{}", std::process::id()));
    let review = ReviewSettings { level, exact_from, ..ReviewSettings::default() };
    let settings = Settings { ai_plays_black: false, ai_plays_white: false, review, ..Settings::default() };
    let mut app = App::new(Paths::inside(&dir), Loaded { settings, notices: Vec::new() });
    let _ = app.update(Message::Engine(Event::Configured));
    let _ = app.update(Message::InOut(shirokuro::in_out::Message::ClipboardRead(Some(GAME.to_owned()))));
    let _ = app.update(Message::Game(shirokuro::game::Message::Review(shirokuro::review::Message::Start)));
    let generation = app.game().generation();
    let options = app.game().review().expect("a review").options();
    let positions: Vec<_> =
        app.game().review().expect("a review").line().iter().map(|at| at.position).enumerate().rev().collect();

    let weights = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("resources/eval/shirokuro-eval-2.skw");
    let mut events = Box::pin(engine_worker::spawn(&weights));
    let handle = loop {
        if let Some(Event::Ready(handle)) = block_on(events.next()) {
            break handle;
        }
    };
    // The patterns alone, as in the figures of docs/benchmarks.md.
    handle.configure(EngineOptions { threads, hash_level: 20, network: None });
    while !matches!(block_on(events.next()), Some(Event::Configured)) {}
    let started = Instant::now();
    handle.send(Request { generation, job: Job::Review { positions, options, book: None } });
    let mut ui: Vec<Duration> = Vec::new();
    loop {
        let Some(event) = block_on(events.next()) else { break };
        let done = matches!(event, Event::Done { .. });
        let t = Instant::now();
        let _ = app.update(Message::Engine(event));
        drop(app.view());
        ui.push(t.elapsed());
        if done {
            break;
        }
    }
    let wall = started.elapsed();
    ui.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let review = app.game().review().expect("the review");
    let [black, white] = review.summaries();
    println!(
        "review of a {}-move game at level {level}, exact from {exact_from} empties, {threads} threads: {:.2} s",
        review.line().len() - 1,
        wall.as_secs_f64()
    );
    println!("losses: Black {}, White {}", black.total_loss, white.total_loss);
    println!(
        "UI thread per event (update + view), {} events: min {:.3} ms, median {:.3} ms, max {:.3} ms",
        ui.len(),
        ms(ui[0]),
        ms(ui[ui.len() / 2]),
        ms(ui[ui.len() - 1])
    );
    let _ = std::fs::remove_dir_all(&dir);
}
