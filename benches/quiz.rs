//! Operate ▸ Best-Move Quiz: how long a position takes to make (the random board, then every move's value, on one
//! thread), and how long the student waits after Next when the quiz keeps `AHEAD` positions in the making on
//! `AHEAD` threads while the student thinks.
//!
//! `cargo bench --bench quiz -- [POSITIONS] [EMPTIES…]` (default 12 positions at 14, 20, 24 and 30 empties). For
//! each setting it prints the making time (min / median / max) and, replaying those times, the wait after each Next
//! for a student who answers at once (the worst case) and after 5 s: the target is a position within 300 ms.

use std::sync::Arc;
use std::time::{Duration, Instant};

use shirokuro::study::quiz::{AHEAD, QuizSettings, make_position};
use shirokuro_engine::eval::weights;

/// The waits after each Next: positions are made `AHEAD` at a time in the order asked, each on its own thread and
/// starting as soon as a thread is free; the student answers `think` after a position appears.
fn waits(made: &[Duration], think: Duration) -> Vec<Duration> {
    let mut free = [Duration::ZERO; AHEAD];
    let ready: Vec<Duration> = made
        .iter()
        .map(|took| {
            let (slot, start) =
                free.iter().copied().enumerate().min_by_key(|(_, at)| *at).unwrap_or((0, Duration::ZERO));
            free[slot] = start + *took;
            free[slot]
        })
        .collect();
    let mut now = Duration::ZERO;
    let mut waits = Vec::new();
    for (i, at) in ready.iter().enumerate() {
        // The first position is made while the quiz opens: its wait is not after a Next.
        if i > 0 {
            waits.push(at.saturating_sub(now));
        }
        now = now.max(*at) + think;
    }
    waits
}

fn summary(times: &mut [Duration]) -> String {
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    match (times.first(), times.get(times.len() / 2), times.last()) {
        (Some(min), Some(median), Some(max)) => format!("{:.0} / {:.0} / {:.0} ms", ms(*min), ms(*median), ms(*max)),
        _ => "-".to_owned(),
    }
}

fn main() {
    let args: Vec<u8> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let count = usize::from(args.first().copied().unwrap_or(12));
    let settings: Vec<u8> = if args.len() > 1 { args[1..].to_vec() } else { vec![14, 20, 24, 30] };
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("resources/eval/shirokuro-eval-2.skw");
    let weights = Arc::new(weights::load(&path).expect("the shipped weights"));
    for empties in settings {
        let source = QuizSettings { empties, ..QuizSettings::default() }.source();
        let mut made = Vec::new();
        for seed in 0..count as u64 {
            let start = Instant::now();
            let answers = make_position(Arc::clone(&weights), source, seed + 1);
            made.push(start.elapsed());
            if let Err(error) = answers {
                println!("{empties} empties, seed {}: {error}", seed + 1);
            }
        }
        let mut at_once = waits(&made, Duration::ZERO);
        let mut after_5s = waits(&made, Duration::from_secs(5));
        let served = |w: &[Duration]| w.iter().filter(|d| d.as_millis() < 300).count();
        println!(
            "{empties} empties: making {} | wait after Next, answering at once {} ({} of {} under 300 ms), after 5 s {} ({} of {})",
            summary(&mut made),
            summary(&mut at_once),
            served(&at_once),
            at_once.len(),
            summary(&mut after_5s),
            served(&after_5s),
            after_5s.len()
        );
    }
}
