#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic, reason = "tests")]

use std::io::{Read, Write};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::*;
use crate::eval::Weights;
use crate::level::Level;
use crate::tools::arena::{SelfPlayGame, SelfPlayOptions, play_selfplay};

fn series(games: u32) -> Series {
    Series {
        level: Level::new(2).unwrap(),
        random_moves: (6, 12),
        base_seed: 40,
        games_per_batch: games,
        eval: EvalId::zero(),
    }
}

fn options(games: u32) -> GrowOptions {
    GrowOptions::new(Arc::new(Weights::zero()), series(games), "test".to_owned()).threads(2).hash_level(12)
}

fn lines(games: &[GameRecord]) -> Vec<String> {
    games.iter().map(GameRecord::record_line).collect()
}

/// The games of batch `batch` as `play_selfplay` plays them with the batch's seed.
fn expected(batch: u32, games: u32) -> Vec<String> {
    let series = series(games);
    let options = SelfPlayOptions {
        weights: Arc::new(Weights::zero()),
        level: series.level,
        plan: None,
        min_random_moves: 6,
        max_random_moves: 12,
        seed: series.base_seed + u64::from(batch),
        hash_level: 12,
    };
    play_selfplay(games as usize, &options, &|_| {}).unwrap().iter().map(SelfPlayGame::record_line).collect()
}

fn no_stop() -> AtomicBool {
    AtomicBool::new(false)
}

#[test]
fn grown_batches_hold_the_seeded_games_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let report = grow(dir.path(), &options(6).batches(2), &mut |_| {}, &no_stop()).unwrap();
    assert_eq!(report, GrowReport { finished: vec![0, 1], games: 12, stopped: false });
    let corpus = Corpus::open(dir.path()).unwrap();
    assert!(corpus.parts().is_empty());
    for batch in 0..2 {
        let (header, games) = corpus.read_batch(batch).unwrap();
        assert_eq!((header.batch, header.seed(), &header.series), (batch, 40 + u64::from(batch), &series(6)));
        assert_eq!(games.iter().map(|g| g.index).collect::<Vec<_>>(), (0..6).collect::<Vec<_>>());
        assert_eq!(lines(&games), expected(batch, 6));
        assert!(games.iter().all(|g| (6..=12).contains(&g.random_moves)));
    }
    // A second run goes on with batch 2.
    let report = grow(dir.path(), &options(6).batches(1), &mut |_| {}, &no_stop()).unwrap();
    assert_eq!(report.finished, vec![2]);
}

#[test]
fn a_stopped_run_continues_where_it_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let stop = AtomicBool::new(false);
    let mut seen = 0;
    let report = grow(
        dir.path(),
        &options(10).batches(1).threads(1),
        &mut |event| {
            if let GrowEvent::Game { .. } = event {
                seen += 1;
                if seen == 4 {
                    stop.store(true, Ordering::SeqCst);
                }
            }
        },
        &stop,
    )
    .unwrap();
    assert!(report.stopped);
    assert!(report.finished.is_empty());
    // The game under way when the flag went up may have been finished and kept too.
    let first = report.games;
    assert!((4..=5).contains(&first), "{first}");
    let corpus = Corpus::open(dir.path()).unwrap();
    assert_eq!(corpus.parts().len(), 1);
    assert!(corpus.finished().is_empty());

    let mut resumed = None;
    let report = grow(
        dir.path(),
        &options(10).batches(1),
        &mut |event| {
            if let GrowEvent::Batch { opened: Opened::Resumed { games, dropped, .. }, .. } = event {
                resumed = Some((games, dropped));
            }
        },
        &no_stop(),
    )
    .unwrap();
    assert_eq!(resumed, Some((first, 0)));
    assert_eq!((report.finished, report.games), (vec![0], 10 - first));
    let (_, games) = Corpus::open(dir.path()).unwrap().read_batch(0).unwrap();
    assert_eq!(lines(&games), expected(0, 10));
}

#[test]
fn a_first_batch_leaves_the_numbers_below_it_and_their_parts_alone() {
    let dir = tempfile::tempdir().unwrap();
    // An unfinished batch 0, as a run on another machine leaves it.
    let stop = AtomicBool::new(false);
    let mut seen = 0;
    let on_game = &mut |event| {
        if let GrowEvent::Game { .. } = event {
            seen += 1;
            if seen == 2 {
                stop.store(true, Ordering::SeqCst);
            }
        }
    };
    let _report = grow(dir.path(), &options(6).batches(1).threads(1), on_game, &stop).unwrap();
    let corpus = Corpus::open(dir.path()).unwrap();
    let part = corpus.parts()[0].path.clone();
    let before = std::fs::read(&part).unwrap();

    let report = grow(dir.path(), &options(6).batches(2).first_batch(5), &mut |_| {}, &no_stop()).unwrap();
    assert_eq!(report.finished, vec![5, 6]);
    assert_eq!(std::fs::read(&part).unwrap(), before, "the part below the first batch is not touched");
    for batch in [5, 6] {
        let (header, games) = Corpus::open(dir.path()).unwrap().read_batch(batch).unwrap();
        assert_eq!(header.seed(), 40 + u64::from(batch));
        assert_eq!(lines(&games), expected(batch, 6));
    }

    // A run from 0 continues the part, then takes the free numbers from the bottom.
    let report = grow(dir.path(), &options(6).batches(3), &mut |_| {}, &no_stop()).unwrap();
    assert_eq!(report.finished, vec![0, 1, 2]);
    let (_, games) = Corpus::open(dir.path()).unwrap().read_batch(0).unwrap();
    assert_eq!(lines(&games), expected(0, 6));
}

#[test]
fn a_damaged_end_of_the_batch_being_played_is_cut_off_and_played_again() {
    let dir = tempfile::tempdir().unwrap();
    let stop = AtomicBool::new(false);
    let mut seen = 0;
    let stop_after_three = &mut |event: GrowEvent| {
        if let GrowEvent::Game { .. } = event {
            seen += 1;
            if seen == 3 {
                stop.store(true, Ordering::SeqCst);
            }
        }
    };
    let kept = grow(dir.path(), &options(8).threads(1), stop_after_three, &stop).unwrap().games;
    let part = dir.path().join(part_name(0));
    let full = std::fs::read(&part).unwrap();
    // A kill in the middle of an append: the last record cut short, then bytes that are no game at all.
    for damage in [full.len() - 3, full.len() - 30] {
        let mut bytes = full[..damage].to_vec();
        std::fs::write(&part, &bytes).unwrap();
        if damage < full.len() - 10 {
            bytes.extend_from_slice(&[0; 40]);
            std::fs::write(&part, &bytes).unwrap();
        }
        let mut resumed = None;
        let report = grow(
            dir.path(),
            &options(8).batches(1),
            &mut |event| {
                if let GrowEvent::Batch { opened: Opened::Resumed { games, dropped, why }, .. } = event {
                    resumed = Some((games, dropped, why.is_some()));
                }
            },
            &no_stop(),
        )
        .unwrap();
        let (games, dropped, why) = resumed.unwrap();
        assert_eq!(games, kept - 1);
        assert!(dropped > 0 && why);
        assert_eq!(report.finished, vec![0]);
        let (_, played) = Corpus::open(dir.path()).unwrap().read_batch(0).unwrap();
        assert_eq!(lines(&played), expected(0, 8));
        // Back to the stopped state for the next kind of damage.
        std::fs::remove_file(dir.path().join(finished_name(0))).unwrap();
        std::fs::write(&part, &full).unwrap();
    }
}

#[test]
fn a_folder_of_another_series_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let _report = grow(dir.path(), &options(3).batches(1), &mut |_| {}, &no_stop()).unwrap();
    let mut other = series(3);
    other.level = Level::new(3).unwrap();
    let options = GrowOptions::new(Arc::new(Weights::zero()), other, "test".to_owned()).batches(1);
    let error = grow(dir.path(), &options, &mut |_| {}, &no_stop()).unwrap_err();
    assert!(matches!(error, CorpusError::Mismatch { key: "level", .. }), "{error}");
    assert!(error.to_string().contains("batch-00000.selfplay.gz was played with level 2, not 3"), "{error}");
}

#[test]
fn a_finished_batch_left_with_its_part_loses_the_part() {
    let dir = tempfile::tempdir().unwrap();
    let _report = grow(dir.path(), &options(3).batches(1), &mut |_| {}, &no_stop()).unwrap();
    let header = Corpus::open(dir.path()).unwrap().read_header(0).unwrap();
    std::fs::write(dir.path().join(part_name(0)), header.to_text()).unwrap();
    let mut removed = false;
    let report = grow(
        dir.path(),
        &options(3).batches(1),
        &mut |event| removed |= matches!(event, GrowEvent::StaleRemoved { .. }),
        &no_stop(),
    )
    .unwrap();
    assert!(removed);
    assert_eq!(report.finished, vec![1]);
}

/// Rewrites the finished batch 0 after `change` edits its decompressed bytes.
fn tamper(dir: &Path, change: impl FnOnce(&mut Vec<u8>, usize)) {
    let path = dir.join(finished_name(0));
    let mut bytes = Vec::new();
    let _read = flate2::read::GzDecoder::new(std::fs::File::open(&path).unwrap()).read_to_end(&mut bytes).unwrap();
    let (_, start) = Header::parse(&bytes).unwrap();
    change(&mut bytes, start);
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(&bytes).unwrap();
    std::fs::write(&path, encoder.finish().unwrap()).unwrap();
}

#[test]
fn damage_in_a_finished_batch_is_reported_with_file_and_game() {
    let dir = tempfile::tempdir().unwrap();
    let _report = grow(dir.path(), &options(3).batches(1), &mut |_| {}, &no_stop()).unwrap();
    let corpus = Corpus::open(dir.path()).unwrap();
    let (_, games) = corpus.read_batch(0).unwrap();
    let first_length = 7 + games[0].moves.len();

    // The second game's first move changed to a1 (never legal there).
    tamper(dir.path(), |bytes, start| bytes[start + first_length + 7] = 0);
    let error = corpus.read_batch(0).unwrap_err();
    assert!(
        matches!(error, CorpusError::Record { ordinal: 2, reason: RecordError::Illegal { number: 1, .. }, .. }),
        "{error}"
    );
    assert!(error.to_string().contains("batch-00000.selfplay.gz: game 2"), "{error}");

    // Put back, then the last game dropped.
    tamper(dir.path(), |bytes, start| bytes[start + first_length + 7] = games[1].moves[0].index());
    assert!(corpus.read_batch(0).is_ok());
    let last_length = 7 + games[2].moves.len();
    tamper(dir.path(), |bytes, _| bytes.truncate(bytes.len() - last_length));
    let error = corpus.read_batch(0).unwrap_err();
    assert!(matches!(error, CorpusError::Games { problem: GamesProblem::Missing { found: 2, games: 3 }, .. }));

    // A header that is not one.
    std::fs::write(dir.path().join(finished_name(0)), b"not gzip").unwrap();
    assert!(matches!(corpus.read_batch(0).unwrap_err(), CorpusError::Io { step: FileStep::Read, .. }));
}

#[test]
fn records_round_trip_and_bad_ones_say_why() {
    let dir = tempfile::tempdir().unwrap();
    let _report = grow(dir.path(), &options(2).batches(1), &mut |_| {}, &no_stop()).unwrap();
    let (_, games) = Corpus::open(dir.path()).unwrap().read_batch(0).unwrap();
    let game = &games[1];
    let mut bytes = Vec::new();
    game.encode(&mut bytes);
    assert_eq!(GameRecord::decode(&bytes).unwrap(), (game.clone(), bytes.len()));

    let cut = GameRecord::decode(&bytes[..bytes.len() - 1]).unwrap_err();
    assert!(matches!(cut, RecordError::Truncated { .. }));
    let mut wrong = bytes.clone();
    wrong[5] = wrong[5].wrapping_add(2);
    assert!(matches!(GameRecord::decode(&wrong).unwrap_err(), RecordError::WrongResult { .. }));
    let mut no_square = bytes.clone();
    no_square[9] = 64;
    assert!(matches!(GameRecord::decode(&no_square).unwrap_err(), RecordError::BadSquare { number: 3, byte: 64 }));
    let mut short = bytes.clone();
    short[6] -= 1;
    let _last = short.pop();
    assert!(matches!(GameRecord::decode(&short).unwrap_err(), RecordError::NotOver { .. }));
    let mut long = bytes;
    long[6] = 61;
    assert!(matches!(GameRecord::decode(&long).unwrap_err(), RecordError::TooManyMoves(61)));
}

#[test]
fn headers_round_trip_and_bad_ones_say_why() {
    let header = Header {
        series: series(1000),
        batch: 7,
        engine: "shirokuro-engine 0.1.0".to_owned(),
        started: "2026-11-27T12:00:00Z".to_owned(),
        command: "shirokuro-cli corpus grow\nsecond line".to_owned(),
    };
    let text = header.to_text();
    assert!(text.contains("seed: 47\n") && text.contains("random-moves: 6-12\n"), "{text}");
    let (parsed, length) = Header::parse(text.as_bytes()).unwrap();
    assert_eq!(length, text.len());
    assert_eq!(parsed.command, "shirokuro-cli corpus grow second line");
    assert_eq!(Header { command: header.command.clone(), ..parsed }, header);

    let bad = |text: &str| Header::parse(text.as_bytes()).unwrap_err();
    assert_eq!(bad("PK\u{3}\u{4}\n\n"), HeaderError::NotACorpusFile);
    assert!(matches!(bad("shirokuro self-play games, format 2\n\n"), HeaderError::UnknownVersion(_)));
    assert_eq!(bad(text.trim_end()), HeaderError::NoEnd);
    assert_eq!(bad(&text.replace("seed: 47", "seed: 48")), HeaderError::BadValue { key: "seed", value: "48".into() });
    assert_eq!(bad(&text.replace("level: 2\n", "")), HeaderError::Missing("level"));
    assert_eq!(bad(&text.replace("level: 2", "level")), HeaderError::BadLine { line: 4 });
}
