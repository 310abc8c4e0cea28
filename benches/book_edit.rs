//! The book worker with a large book: how long a right-click edit takes to reach the app, and what the book costs in
//! memory (the book is held once, shared with its readers).
//!
//! `cargo bench --bench book_edit -- [POSITIONS]` (default 2,000,000): makes a random book of that many positions,
//! saves it, has the worker load it, then times 20 edits from the moment the job is sent to the change event (the
//! save that follows each edit is not waited for). Prints the resident memory before and after the load.

use std::time::{Duration, Instant};

use iced::futures::StreamExt;
use iced::futures::executor::block_on;
use shirokuro::book::{Event, Handle, Job};
use shirokuro_engine::book::{self, BookFormat};
use shirokuro_engine::{Board, Move, Position};

mod common;
use common::{finished, next_change, random_book, resident_mib};

fn main() {
    let positions: usize = std::env::args().skip(1).find_map(|a| a.parse().ok()).unwrap_or(2_000_000);
    let dir = std::env::temp_dir().join(format!("shirokuro-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let file = dir.join("book.egbk3");
    {
        let book = random_book(positions, 7);
        book::save(&book, &file, BookFormat::Egbk3).expect("the book is saved");
    }
    let before = resident_mib();
    let weights = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("resources/eval/shirokuro-eval-2.skw");
    let mut events = Box::pin(shirokuro::book::worker::spawn(&weights));
    let Some(Event::Ready(handle)) = block_on(events.next()) else { panic!("ready first") };
    let handle: Handle = handle;
    let started = Instant::now();
    handle.send(Job::Load { file: file.clone() });
    next_change(&mut events);
    finished(&mut events);
    let load = started.elapsed();
    let after = resident_mib();

    let mut latencies: Vec<Duration> = Vec::new();
    let board = Position::INITIAL.board;
    for (i, square) in board.moves().into_iter().cycle().take(20).enumerate() {
        let value = i32::try_from(i % 10).unwrap_or(0);
        let sent = Instant::now();
        handle.send(Job::Edit { board: Board::INITIAL, mv: Move::Place(square), value: Some(value) });
        next_change(&mut events);
        latencies.push(sent.elapsed());
        // Let the save that follows the edit finish before the next edit.
        finished(&mut events);
    }
    latencies.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!("book: {positions} positions, loaded by the worker in {:.2} s", load.as_secs_f64());
    println!("resident memory: {before:.0} MiB before the load, {after:.0} MiB after (+{:.0} MiB)", after - before);
    println!(
        "edit -> change event: min {:.3} ms, median {:.3} ms, max {:.3} ms (20 edits)",
        ms(latencies[0]),
        ms(latencies[latencies.len() / 2]),
        ms(latencies[latencies.len() - 1])
    );
    let _ = std::fs::remove_dir_all(&dir);
}
