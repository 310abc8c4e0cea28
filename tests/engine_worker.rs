//! The engine worker with the real engine: start-up without weights, a move, streamed hints, and a stop that returns
//! quickly and produces no result.

use std::time::{Duration, Instant};

use iced::futures::executor::block_on;
use iced::futures::{Stream, StreamExt};
use shirokuro::engine_worker::{self, EngineOptions, Event, Handle, Job, Request};
use shirokuro_engine::Position;
use shirokuro_engine::level::Level;
use shirokuro_engine::think::Thought;

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
    let mut events = Box::pin(engine_worker::spawn(&std::path::PathBuf::from("/nonexistent/weights.skw")));
    assert!(matches!(next(&mut events), Event::WeightsFailed(_)), "missing weights are reported");
    let Event::Ready(handle) = next(&mut events) else { panic!("ready") };
    handle.configure(EngineOptions { threads: 1, hash_level: 16, network: None });
    assert!(matches!(next(&mut events), Event::Configured));
    (handle, events)
}

#[test]
fn the_worker_moves_and_streams_hints() {
    let (handle, mut events) = started();
    handle.send(Request {
        generation: 1,
        job: Job::Think {
            position: Position::INITIAL,
            level: Level::clamped(2),
            book: None,
            loss: None,
            time: None,
            sparring: None,
        },
    });
    let Event::Thought { generation: 1, thought } = next(&mut events) else { panic!("a thought") };
    assert!(thought.best_move.is_some());
    assert!(matches!(next(&mut events), Event::Done { generation: 1 }));
    handle.send(Request {
        generation: 2,
        job: Job::Hints { position: Position::INITIAL, level: Level::clamped(1), book: None },
    });
    let mut squares = Vec::new();
    loop {
        match next(&mut events) {
            Event::Hint { generation: 2, square, .. } => squares.push(square),
            Event::Done { generation: 2 } => break,
            other => panic!("unexpected {other:?}"),
        }
    }
    squares.sort_unstable();
    assert_eq!(squares.len(), 4, "one value per legal move");
}

#[test]
fn cancel_stops_a_long_search_quickly_without_a_result() {
    let (handle, mut events) = started();
    // Level 60 solves the initial position exactly: hours of work.
    handle.send(Request {
        generation: 5,
        job: Job::Think {
            position: Position::INITIAL,
            level: Level::clamped(60),
            book: None,
            loss: None,
            time: None,
            sparring: None,
        },
    });
    std::thread::sleep(Duration::from_millis(100));
    let cancelled = Instant::now();
    handle.cancel(6);
    // The next job runs as soon as the stopped one returns; its result is the first non-log event.
    handle.send(Request {
        generation: 7,
        job: Job::Think {
            position: Position::INITIAL,
            level: Level::clamped(1),
            book: None,
            loss: None,
            time: None,
            sparring: None,
        },
    });
    let Event::Thought { generation, .. } = next(&mut events) else { panic!("a thought") };
    assert_eq!(generation, 7, "the stopped search reported nothing");
    assert!(cancelled.elapsed() < Duration::from_secs(2), "stopped in {:?}", cancelled.elapsed());
}

#[test]
fn a_move_by_the_clock_ends_when_its_time_is_spent() {
    let (handle, mut events) = started();
    // Level 60 from the initial position would take hours; a quarter of a second is what it gets.
    let sent = Instant::now();
    handle.send(Request {
        generation: 3,
        job: Job::Think {
            position: Position::INITIAL,
            level: Level::clamped(60),
            book: None,
            loss: None,
            time: Some(Duration::from_millis(250)),
            sparring: None,
        },
    });
    let Event::Thought { generation: 3, thought } = next(&mut events) else { panic!("a thought") };
    assert!(Position::INITIAL.board.is_legal(thought.best_move.expect("a move")));
    assert!(!thought.stopped && thought.depth >= 1, "{thought:?}");
    assert!(sent.elapsed() < Duration::from_secs(5), "answered in {:?}", sent.elapsed());
}

#[test]
fn the_worker_reports_every_level_of_the_focus() {
    let (handle, mut events) = started();
    handle.send(Request { generation: 4, job: Job::Focus { position: Position::INITIAL, level: Level::clamped(2) } });
    let mut levels = Vec::new();
    loop {
        match next(&mut events) {
            Event::Focus { generation: 4, level, values, .. } => {
                assert_eq!(values.len(), 4, "one value per disc");
                levels.push(level);
            }
            Event::Done { generation: 4 } => break,
            other => panic!("unexpected {other:?}"),
        }
    }
    assert_eq!(levels, [1, 2]);
}

#[test]
fn the_worker_makes_random_boards() {
    use shirokuro_engine::random_board::{RandomBoardError, RandomBoardSpec};
    let (handle, mut events) = started();
    let spec = RandomBoardSpec::new(10, -64, 64, Level::clamped(2)).unwrap();
    handle.send(Request { generation: 1, job: Job::RandomBoard { spec, seed: 3 } });
    // Progress first (the first report is sent at once, then at most ten a second), then the board.
    let mut reports = 0;
    let board = loop {
        match next(&mut events) {
            Event::RandomProgress { generation: 1, progress } => {
                assert!((1..=10).contains(&progress.move_number), "{progress:?}");
                reports += 1;
            }
            Event::RandomBoard { generation: 1, result: Ok(board) } => break board,
            other => panic!("a board, not {other:?}"),
        }
    };
    assert!(reports >= 1, "the generator's progress reached the app");
    assert_eq!(board.line.iter().filter(|mv| mv.square().is_some()).count(), 10);
    assert!(matches!(next(&mut events), Event::Done { generation: 1 }));
    // An impossible range comes back as an error, not as silence.
    let spec = RandomBoardSpec::new(2, 60, 64, Level::clamped(1)).unwrap();
    handle.send(Request { generation: 2, job: Job::RandomBoard { spec, seed: 3 } });
    let result = loop {
        match next(&mut events) {
            Event::RandomProgress { .. } => {}
            Event::RandomBoard { generation: 2, result } => break result,
            other => panic!("a result, not {other:?}"),
        }
    };
    assert!(matches!(result, Err(RandomBoardError::NotFound { moves: 2, .. })), "{result:?}");
}

#[test]
fn the_worker_plays_with_the_loss_curves() {
    use shirokuro_engine::think::loss_curves::LossCurves;
    let (handle, mut events) = started();
    let position = shirokuro_engine::notation::parse_transcript("f5d6c3d3c4").unwrap().end;
    let loss = Some(LossCurves::flat(64, 100));
    handle.send(Request {
        generation: 1,
        job: Job::Think { position, level: Level::clamped(2), book: None, loss, time: None, sparring: None },
    });
    let Event::Thought { generation: 1, thought } = next(&mut events) else { panic!("a thought") };
    assert!(position.board.is_legal(thought.best_move.unwrap()));
    assert!(matches!(next(&mut events), Event::Done { generation: 1 }));
}

/// The app's AI and the command line's (`play`, GTP, NBoard: `Thinker::choose`) pick the same book move from the
/// same position, book and seed; different seeds pick different moves among the book's equal best.
#[test]
fn the_app_and_the_command_line_choose_the_same_move() {
    use std::sync::Arc;

    use shirokuro::book::SharedBook;
    use shirokuro_engine::book::{Book, Entry};
    use shirokuro_engine::eval::Weights;
    use shirokuro_engine::rng::GameRng;
    use shirokuro_engine::search::SolveOptions;
    use shirokuro_engine::think::{Policy, Source, Thinker};
    use shirokuro_engine::{Move, Square};

    // The four first moves are one position up to symmetry: all four are book moves worth 0.
    let mut book = Book::new();
    let after_f5 = Position::INITIAL.play(Move::Place(Square::F5)).unwrap();
    let _ = book.insert(&after_f5.board, Entry::new(0, 21));
    let direct = Thinker::new(Arc::new(Weights::zero()), SolveOptions::default().with_hash_level(14)).unwrap();
    let shared = SharedBook::new(book.clone());
    let level = Level::new(3).unwrap();
    let (handle, mut events) = started();
    let mut moves = std::collections::HashSet::new();
    for seed in 0..8u64 {
        let cli =
            direct.choose(&Position::INITIAL, &Policy::new(level), Some(&book), &mut GameRng::new(seed), &mut |_| {});
        assert_eq!(cli.source, Source::Book);
        handle.seed(seed);
        let generation = seed + 100;
        let job = Job::Think {
            position: Position::INITIAL,
            level,
            book: Some(shared.clone()),
            loss: None,
            time: None,
            sparring: None,
        };
        handle.send(Request { generation, job });
        let Event::Thought { thought, .. } = next(&mut events) else { panic!("a move") };
        assert_eq!(thought.best_move, cli.mv, "seed {seed}");
        assert!(matches!(next(&mut events), Event::Done { .. }));
        let _ = moves.insert(cli.mv);
    }
    assert!(moves.len() >= 2, "8 seeds all chose {moves:?}");
}

/// Events up to `Configured`, log lines included.
fn until_configured(events: &mut (impl Stream<Item = Event> + Unpin)) -> Vec<Event> {
    let mut seen = Vec::new();
    loop {
        match block_on(events.next()).expect("the worker is alive") {
            Event::Configured => return seen,
            event => seen.push(event),
        }
    }
}

/// The AI's move at level 5 from the start.
fn think(handle: &Handle, events: &mut (impl Stream<Item = Event> + Unpin), generation: u64) -> Thought {
    handle.send(Request {
        generation,
        job: Job::Think {
            position: Position::INITIAL,
            level: Level::clamped(5),
            book: None,
            loss: None,
            time: None,
            sparring: None,
        },
    });
    let Event::Thought { thought, .. } = next(events) else { panic!("a thought") };
    assert!(matches!(next(events), Event::Done { .. }));
    thought
}

#[test]
fn the_network_is_added_when_asked_and_a_bad_one_is_reported_with_the_patterns_playing() {
    use shirokuro::log::LogLine;
    use shirokuro::settings::{Evaluation, Paths};
    let paths = Paths::inside(std::path::Path::new("/unused"));
    let mut events = Box::pin(engine_worker::spawn(&paths.weights_file()));
    let Event::Ready(handle) = next(&mut events) else { panic!("ready") };
    let ready_with_network = |seen: &[Event]| {
        seen.iter().find_map(|e| match e {
            Event::Log(LogLine::EngineReady { network, .. }) => Some(*network),
            _ => None,
        })
    };
    let network = paths.network_file(Evaluation::Network);
    assert!(network.as_ref().is_some_and(|f| f.is_file()), "the shipped network is in the resources");
    handle.configure(EngineOptions { threads: 1, hash_level: 16, network });
    let seen = until_configured(&mut events);
    assert_eq!(ready_with_network(&seen), Some(true), "{seen:?}");
    let with_network = think(&handle, &mut events, 1);
    assert!(with_network.best_move.is_some());

    let broken = std::path::Path::new("/nonexistent").join(shirokuro_engine::eval::weights::SHIPPED_NETWORK_FILE);
    handle.configure(EngineOptions { threads: 1, hash_level: 16, network: Some(broken.clone()) });
    let seen = until_configured(&mut events);
    assert!(
        seen.iter().any(|e| matches!(e, Event::NetworkFailed(error) if error.to_string().contains("/nonexistent/"))),
        "{seen:?}"
    );
    assert_eq!(ready_with_network(&seen), Some(false), "the patterns play alone: {seen:?}");
    assert!(think(&handle, &mut events, 2).best_move.is_some());

    handle.configure(EngineOptions { threads: 1, hash_level: 16, network: None });
    assert_eq!(ready_with_network(&until_configured(&mut events)), Some(false));
    let patterns = think(&handle, &mut events, 3);
    // Each evaluation searches its own tree (the table is new after each configure, so this is not the cache).
    assert_ne!((patterns.score, patterns.nodes), (with_network.score, with_network.nodes));
}
