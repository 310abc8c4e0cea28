//! What the book benches share: a random book of a given size, the process's resident memory, and waiting for the
//! book worker's events.

#![allow(dead_code, reason = "each bench uses a part")]

use iced::futures::executor::block_on;
use iced::futures::{Stream, StreamExt};
use shirokuro::book::Event;
use shirokuro_engine::book::{Book, Entry};
use shirokuro_engine::rng::GameRng;
use shirokuro_engine::{Move, Position};

/// Resident memory of this process, in MiB (Linux; 0 elsewhere).
pub fn resident_mib() -> f64 {
    let pages = std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1).and_then(|v| v.parse::<f64>().ok()))
        .unwrap_or(0.0);
    pages * 4096.0 / (1024.0 * 1024.0)
}

/// A random book: positions reached by random games (drawn from `seed`), with random values.
pub fn random_book(positions: usize, seed: u64) -> Book {
    let mut rng = GameRng::new(seed);
    let mut book = Book::with_capacity(positions);
    while book.len() < positions {
        let mut position = Position::INITIAL;
        for _ in 0..60 {
            let moves: Vec<_> = position.board.moves().into_iter().collect();
            if moves.is_empty() {
                break;
            }
            let square = moves[(rng.next_u64() % moves.len() as u64) as usize];
            let Ok(next) = position.play(Move::Place(square)) else { break };
            position = next;
            let value = i8::try_from((rng.next_u64() % 129) as i32 - 64).unwrap_or(0);
            let _ = book.insert(&position.board, Entry::new(value, 21));
            if book.len() >= positions {
                break;
            }
        }
    }
    book
}

pub fn next_change(events: &mut (impl Stream<Item = Event> + Unpin)) {
    loop {
        match block_on(events.next()) {
            Some(Event::Book(_)) => return,
            Some(_) => {}
            None => panic!("the worker ended"),
        }
    }
}

pub fn finished(events: &mut (impl Stream<Item = Event> + Unpin)) {
    loop {
        match block_on(events.next()) {
            Some(Event::Finished { .. }) => return,
            Some(_) => {}
            None => panic!("the worker ended"),
        }
    }
}
