//! Game-record import: WTHOR binaries (real files, fixtures, truncation, bit flips, round trips) and the text record
//! formats (samples in `tests/data/records/`, see its README; the full public files are read from the shared reference
//! data only when present).

use std::path::Path;

use shirokuro_engine::format::wthor::{self, NameKind, WthorError};
use shirokuro_engine::format::{
    RecordError, RecordErrorKind, RecordFormat, RecordedResult, Winner, parse_records, parse_records_lenient,
};
use shirokuro_engine::notation::{BoardTextError, TranscriptError};
use shirokuro_engine::{Move, Square};

const REFERENCE: &str = "/work/shared/reference/games";
const FIXTURE_WTB: &[u8] = include_bytes!("data/records/WTH_1985-first12.wtb");

fn reference(name: &str) -> Option<Vec<u8>> {
    let path = Path::new(REFERENCE).join(name);
    match std::fs::read(&path) {
        Ok(data) => Some(data),
        Err(_) => {
            eprintln!("skipping: {} is not available", path.display());
            None
        }
    }
}

fn fixture(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/records").join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn real_wthor_files_replay_and_round_trip() {
    for (name, year, games) in [("WTH_1985.wtb", 1985, 954), ("WTH_2024.wtb", 2024, 2891)] {
        let Some(data) = reference(&format!("wthor-binaries/{name}")) else { return };
        let file = wthor::parse(&data).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!((file.header.game_year, file.header.game_count, file.games.len()), (year, games, games as usize));
        assert_eq!((file.header.board_size, file.header.depth), (8, 24));
        let mut finished = 0;
        for game in &file.games {
            assert!(game.placement_count() <= 60);
            if game.is_finished() {
                finished += 1;
                assert_eq!(game.to_game_record().recorded_matches_replay(), Some(true), "{name}: {game:?}");
            }
        }
        assert!(finished >= games as usize - 10, "{name}: {finished} finished");
        assert_eq!(wthor::to_bytes(&file).unwrap(), data, "{name}: byte-identical round trip");
    }
}

#[test]
fn real_name_files() {
    for (name, kind, count, samples) in [
        ("WTH.JOU", NameKind::Players, 4448, [(1, "Tastet Marc"), (2, "Penloup Dominique")]),
        ("WTH.TRN", NameKind::Tournaments, 492, [(0, "Diverses parties"), (1, "World Championship")]),
    ] {
        let Some(data) = reference(&format!("wthor-binaries/{name}")) else { return };
        let file = wthor::parse_names(&data, kind).unwrap();
        assert_eq!(file.names.len(), count);
        for (number, expected) in samples {
            assert_eq!(file.get(number), Some(expected));
        }
        assert_eq!(wthor::names_to_bytes(&file, kind).unwrap(), data);
        if kind == NameKind::Tournaments {
            assert!(file.names.iter().any(|n| n == "Préqualif de Paris"), "latin-1 is decoded");
        }
    }
}

#[test]
fn fixture_wtb_parses_and_round_trips() {
    let file = wthor::parse(FIXTURE_WTB).unwrap();
    assert_eq!(file.games.len(), 12);
    let first = &file.games[0];
    assert_eq!((first.tournament, first.black_player, first.white_player), (2, 741, 568));
    assert_eq!((first.black_discs, first.theoretical_black_discs), (36, 25));
    assert_eq!(first.moves[..3], [Move::Place(Square::F5), Move::Place(Square::F4), Move::Place(Square::E3)]);
    assert_eq!(first.final_black_disc_diff(), Some(8));
    assert_eq!(wthor::to_bytes(&file).unwrap(), FIXTURE_WTB);
}

#[test]
fn value_round_trip_with_passes() {
    // A game with passes, built from its moves: the writer leaves passes out, the reader puts them back.
    let records = parse_records(&fixture("egaroucid3-selfplay-sample.txt"), RecordFormat::Egaroucid3).unwrap();
    let with_pass = records.iter().find(|r| r.moves.contains(&Move::Pass));
    let mut games = Vec::new();
    for record in records.iter().take(5).chain(with_pass) {
        games.push(wthor::WthorGame::new(7, (1, 2), (33, 32), &record.moves).unwrap());
        assert_eq!(games.last().unwrap().moves, record.moves);
    }
    let file = wthor::WthorFile {
        header: wthor::WthorHeader {
            game_count: games.len() as u32,
            game_year: 2021,
            board_size: 8,
            ..Default::default()
        },
        games,
    };
    assert_eq!(wthor::parse(&wthor::to_bytes(&file).unwrap()).unwrap(), file);

    let err = wthor::WthorGame::new(0, (0, 0), (0, 0), &[Move::Place(Square::F5), Move::Place(Square::F5)]);
    assert_eq!(err.unwrap_err().to_string(), "game 0: illegal move 2 (f5) at offset 1: f5 is occupied");
}

#[test]
fn every_truncated_prefix_is_rejected_with_its_offset() {
    for len in 0..FIXTURE_WTB.len() {
        let err = wthor::parse(&FIXTURE_WTB[..len]).unwrap_err();
        match err {
            WthorError::TruncatedHeader(eof) => assert_eq!(eof.offset + eof.available, len, "{err}"),
            WthorError::Truncated { offset, record, declared } => {
                assert_eq!((offset, record, declared), (len, (len - 16) / 68, 12), "{err}");
            }
            other => panic!("prefix {len}: unexpected {other}"),
        }
        assert!(err.to_string().contains(&format!("offset {}", if len < 16 { len.min(4) } else { len })) || len < 16);
    }
    let mut long = FIXTURE_WTB.to_vec();
    long.push(0);
    assert_eq!(
        wthor::parse(&long).unwrap_err(),
        WthorError::TrailingBytes { offset: FIXTURE_WTB.len(), count: 1, declared: 12 }
    );
}

#[test]
fn single_bit_flips_never_panic() {
    let mut data = FIXTURE_WTB.to_vec();
    let (mut ok, mut rejected) = (0, 0);
    for bit in 0..data.len() * 8 {
        data[bit / 8] ^= 1 << (bit % 8);
        match wthor::parse(&data) {
            Ok(file) => {
                ok += 1;
                let again = wthor::parse(&wthor::to_bytes(&file).unwrap()).unwrap();
                assert_eq!(again, file);
            }
            Err(error) => {
                rejected += 1;
                assert!(!error.to_string().is_empty());
            }
        }
        for kind in [NameKind::Players, NameKind::Tournaments] {
            if let Ok(names) = wthor::parse_names(&data, kind) {
                let bytes = wthor::names_to_bytes(&names, kind).unwrap();
                assert_eq!(wthor::parse_names(&bytes, kind).unwrap(), names);
            }
        }
        data[bit / 8] ^= 1 << (bit % 8);
    }
    assert!(ok > 0 && rejected > 0, "{ok} parsed, {rejected} rejected");
}

#[test]
fn wthor_errors_name_game_and_offset() {
    let game = |index: usize| 16 + 68 * index;
    let cases: [(usize, u8, &str); 5] = [
        (game(1) + 8, 99, "game 1: bad move byte 99 at offset 92 (move 1): expected 11-88 or 0"),
        (game(1) + 8, 11, "game 1: illegal move 1 (a1) at offset 92: a1 flips no disc"),
        (game(0) + 9, 56, "game 0: illegal move 2 (f5) at offset 25: f5 is occupied"),
        (game(2) + 6, 65, "game 2: black disc count 65 at offset 158 is above 64"),
        (12, 10, "unsupported board size 10 at offset 12: expected 0 or 8 (8x8)"),
    ];
    for (offset, byte, message) in cases {
        let mut data = FIXTURE_WTB.to_vec();
        data[offset] = byte;
        assert_eq!(wthor::parse(&data).unwrap_err().to_string(), message);
    }
    // A zero move byte ends the moves: nothing but zeros may follow it.
    let mut data = FIXTURE_WTB.to_vec();
    data[game(0) + 8 + 58] = 0;
    let byte = data[game(0) + 8 + 59];
    assert_eq!(
        wthor::parse(&data).unwrap_err(),
        WthorError::MoveAfterEnd { game: 0, move_number: 60, offset: game(0) + 8 + 59, byte }
    );
    // The header's count must match the data.
    let mut data = FIXTURE_WTB.to_vec();
    data[4] = 13;
    assert_eq!(
        wthor::parse(&data).unwrap_err().to_string(),
        "data ends at offset 832 inside record 12 of the 13 declared in the header"
    );
}

const SAMPLES: [(&str, RecordFormat); 7] = [
    ("wthor-1977-2025-sample.txt", RecordFormat::Wthor),
    ("playok-2023-sample.txt", RecordFormat::Wthor),
    ("logistello-logbook-sample.txt", RecordFormat::Logistello),
    ("egaroucid3-selfplay-sample.txt", RecordFormat::Egaroucid3),
    ("egaroucid-early-selfplay-sample.txt", RecordFormat::WinLoss),
    ("eothello-games-sample.csv", RecordFormat::EOthelloCsv),
    ("exact-positions-50k-sample.txt", RecordFormat::ExactPosition),
];

#[test]
fn text_samples_parse_detect_and_agree() {
    for (name, format) in SAMPLES {
        let text = fixture(name);
        assert_eq!(RecordFormat::detect(&text), Some(format), "{name}");
        let records = parse_records(&text, format).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(records.len() >= 50, "{name}: {}", records.len());
        for record in &records {
            assert_ne!(record.recorded_matches_replay(), Some(false), "{name} line {}", record.line);
            if record.is_finished() || format == RecordFormat::ExactPosition {
                assert!(record.final_black_disc_diff.is_some());
            }
        }
    }
    let wthor = parse_records(&fixture("wthor-1977-2025-sample.txt"), RecordFormat::Wthor).unwrap();
    assert_eq!(wthor[0].recorded, RecordedResult::BlackDiscs { black: 34, theoretical: 41 });
    assert_eq!(wthor[0].final_black_disc_diff, Some(4));
    let playok = parse_records(&fixture("playok-2023-sample.txt"), RecordFormat::Wthor).unwrap();
    let empty = playok.last().unwrap();
    assert_eq!((empty.line, empty.moves.len(), empty.final_black_disc_diff), (51, 0, None));
    let csv = parse_records(&fixture("eothello-games-sample.csv"), RecordFormat::EOthelloCsv).unwrap();
    assert_eq!((csv[0].line, csv[0].id, csv[0].recorded), (2, Some(1_056_798), RecordedResult::Winner(Winner::Black)));
    let logistello = parse_records(&fixture("logistello-logbook-sample.txt"), RecordFormat::Logistello).unwrap();
    assert_eq!(logistello[0].recorded, RecordedResult::LogistelloDiff { diff: -4, extra: 10 });
    let exact = parse_records(&fixture("exact-positions-50k-sample.txt"), RecordFormat::ExactPosition).unwrap();
    assert_eq!((exact[0].recorded, exact[0].final_black_disc_diff), (RecordedResult::Exact(-4), Some(-4)));
}

#[test]
fn full_reference_files_first_2000_lines() {
    for (name, format) in SAMPLES {
        let file = name.replace("-sample", "");
        let Some(data) = reference(&file) else { return };
        let text = String::from_utf8(data).unwrap();
        let head: String = text.lines().take(2000).flat_map(|line| [line, "\n"]).collect();
        assert_eq!(RecordFormat::detect(&head), Some(format), "{file}");
        let records = parse_records(&head, format).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert!(records.len() >= 1999, "{file}");
    }
}

fn error(text: &str, format: RecordFormat) -> RecordError {
    parse_records(text, format).unwrap_err()
}

#[test]
fn text_errors_name_line_and_offset() {
    let e = error("f5d6 1\n\n# comment\nf5d6 2\n", RecordFormat::WinLoss);
    assert_eq!(e.line, 4);
    assert_eq!(e.to_string(), "line 4: invalid result \"2\" at offset 5: expected an integer from -1 to 1");

    let e = error("f5d6 30\n", RecordFormat::Wthor);
    assert!(matches!(e.kind, RecordErrorKind::FieldCount { expected: 3, found: 2, offset: 7, .. }), "{e}");
    let e = error("f5d6 30 30 x\n", RecordFormat::Wthor);
    assert!(matches!(e.kind, RecordErrorKind::FieldCount { found: 4, offset: 11, .. }), "{e}");

    let e = error("f5d6c3 -4 10\nf5e6 0 10\n", RecordFormat::Logistello);
    assert_eq!(e.line, 2);
    assert_eq!(e.to_string(), "line 2: move 2 (e6) at offset 2: e6 flips no disc");

    // CSV: the transcript's offsets are moved to the line.
    let e = error("Othello_game_id,winner,game_moves\n17,1,f5d6z3\n", RecordFormat::EOthelloCsv);
    assert!(matches!(e.kind, RecordErrorKind::Transcript(TranscriptError::InvalidChar { offset: 9, found: 'z', .. })));
    assert_eq!(e.line, 2);

    let board = "-".repeat(27) + "OX" + &"-".repeat(6) + "XO" + &"-".repeat(27);
    let e = error(&format!("{board} X 0\n{board} Q 0\n"), RecordFormat::ExactPosition);
    assert_eq!(e.line, 2);
    assert_eq!(e.kind, RecordErrorKind::Board(BoardTextError::InvalidSide { offset: 65, found: 'Q' }));
    let e = error(&format!("{board} X 65\n"), RecordFormat::ExactPosition);
    assert!(matches!(e.kind, RecordErrorKind::InvalidNumber { field: "score", offset: 67, .. }), "{e}");
}

#[test]
fn lenient_mode_skips_and_reports_bad_lines() {
    let text = "f5d6c3 4\nf5f5 2\nbogus\nf5d6 -4\n";
    let result = parse_records_lenient(text, RecordFormat::Egaroucid3);
    assert_eq!(result.records.iter().map(|r| r.line).collect::<Vec<_>>(), [1, 4]);
    assert_eq!(result.skipped.iter().map(|e| e.line).collect::<Vec<_>>(), [2, 3]);
    assert_eq!(result.skipped[1].to_string(), "line 3: expected 2 fields (moves diff), found 1 (offset 5)");
    assert!(parse_records(text, RecordFormat::Egaroucid3).is_err());
}

#[test]
fn detection_needs_an_unambiguous_sample() {
    assert_eq!(RecordFormat::detect(""), None);
    assert_eq!(RecordFormat::detect("hello world"), None);
    // Unfinished games agree with every convention: `f5d6 1` could be a result or a disc difference.
    assert_eq!(RecordFormat::detect("f5d6 1\n"), None);
    for format in RecordFormat::ALL {
        assert_eq!(format.name().parse::<RecordFormat>(), Ok(format));
    }
}
