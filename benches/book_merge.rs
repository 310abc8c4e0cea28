//! Book ▸ Merge as the app runs it: how often the progress bar gets news, and how soon Stop gives control back.
//!
//! `cargo bench --bench book_merge -- [POSITIONS]` (default 1,000,000): makes two random books of that many
//! positions (different games), saves them, has the app's book worker load the first, then merges the second into it
//! (read, merge, save) while timing the worker's events as the app receives them: the gaps between successive
//! progress events from the start to the end of the operation. Then it loads the first book again and stops a merge
//! at several moments (25 to 300 ms after the request: a merge of two 1 M books takes about a third of a second here),
//! timing each Stop from the request to the merge's end event (control is back) and to the end of the save that keeps
//! what the stopped merge did.

use std::time::{Duration, Instant};

use iced::futures::StreamExt;
use iced::futures::executor::block_on;
use shirokuro::book::{Event, Handle, Job, Operation};
use shirokuro_engine::book::{self, BookFormat};

mod common;
use common::{finished, next_change, random_book};

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    let positions: usize = std::env::args().skip(1).find_map(|a| a.parse().ok()).unwrap_or(1_000_000);
    let dir = std::env::temp_dir().join(format!("shirokuro-bench-merge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let (first, second) = (dir.join("first.egbk3"), dir.join("second.egbk3"));
    book::save(&random_book(positions, 7), &first, BookFormat::Egbk3).expect("the first book is saved");
    book::save(&random_book(positions, 8), &second, BookFormat::Egbk3).expect("the second book is saved");
    let weights = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("resources/eval/shirokuro-eval-2.skw");
    let mut events = Box::pin(shirokuro::book::worker::spawn(&weights));
    let Some(Event::Ready(handle)) = block_on(events.next()) else { panic!("ready first") };
    let handle: Handle = handle;
    let load = |events: &mut std::pin::Pin<Box<_>>| {
        let working = dir.join("working.egbk3");
        let _bytes = std::fs::copy(&first, &working).expect("a working copy");
        handle.send(Job::Load { file: working });
        next_change(events);
        finished(events);
    };

    // A whole merge: the times of its events as received.
    load(&mut events);
    let started = Instant::now();
    handle.send(Job::Merge { from: second.clone() });
    let mut stamps = vec![Duration::ZERO];
    let mut progress_events = 0;
    let merged = loop {
        match block_on(events.next()) {
            Some(Event::Progress { .. }) => {
                progress_events += 1;
                stamps.push(started.elapsed());
            }
            Some(Event::Book(book)) => break book.len(),
            Some(_) => {}
            None => panic!("the worker ended"),
        }
    };
    finished(&mut events);
    stamps.push(started.elapsed());
    let total = started.elapsed();
    let mut gaps: Vec<Duration> = stamps.windows(2).map(|w| w[1] - w[0]).collect();
    gaps.sort();
    println!("books: {positions} + {positions} positions, merged into {merged}");
    println!(
        "merge (read, merge, save) in {:.2} s: {progress_events} progress events; gap between events \
         min {:.0} ms, median {:.0} ms, max {:.0} ms",
        total.as_secs_f64(),
        ms(gaps[0]),
        ms(gaps[gaps.len() / 2]),
        ms(gaps[gaps.len() - 1])
    );

    // Stop at several moments of the merge.
    for after in [25u64, 50, 100, 150, 200, 250, 300] {
        load(&mut events);
        handle.send(Job::Merge { from: second.clone() });
        std::thread::sleep(Duration::from_millis(after));
        let asked = Instant::now();
        handle.stop();
        let outcome = loop {
            match block_on(events.next()) {
                Some(Event::Finished { operation: Operation::Merge, outcome }) => break outcome,
                Some(_) => {}
                None => panic!("the worker ended"),
            }
        };
        let back = asked.elapsed();
        // What a stopped merge did is saved as a step of its own; Book Info, queued behind it, marks the end.
        handle.send(Job::Info);
        let mut saved = None;
        loop {
            match block_on(events.next()) {
                Some(Event::Finished { operation: Operation::Save, .. }) => saved = Some(asked.elapsed()),
                Some(Event::Info(_)) => break,
                Some(_) => {}
                None => panic!("the worker ended"),
            }
        }
        let saved =
            saved.map_or_else(|| "nothing to save".to_owned(), |d| format!("saved {:.1} ms after the stop", ms(d)));
        println!("stop after {after} ms: control back in {:.1} ms, {saved} ({outcome:?})", ms(back));
    }
    let _ = std::fs::remove_dir_all(&dir);
}
