//! From game records to labelled positions to weights.

use shirokuro_engine::format::records::{RecordFormat, parse_records};
use shirokuro_engine::search::{SolveMode, SolveOptions, Solver};
use shirokuro_engine::tools::train::{LabelOptions, TrainOptions, label_records, train};
use shirokuro_engine::{Color, Position};

fn sample(name: &str) -> String {
    std::fs::read_to_string(format!("{}/tests/data/records/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

#[test]
fn labels_follow_the_rules_for_each_kind_of_position() {
    let text = sample("wthor-1977-2025-sample.txt");
    let records = parse_records(&text, RecordFormat::Wthor).unwrap();
    let options = LabelOptions { solve_empties: 10, theoretical_empties: 10 };
    let samples = label_records(&records, &options);
    let solver = Solver::new(SolveOptions::default().with_hash_level(16)).unwrap();

    // Replay the first finished game by hand and check every label.
    let record = records.iter().find(|r| r.final_black_disc_diff.is_some()).unwrap();
    let theoretical = match record.recorded {
        shirokuro_engine::format::records::RecordedResult::BlackDiscs { theoretical, .. } => {
            2 * i32::from(theoretical) - 64
        }
        _ => unreachable!("WTHOR records carry a theoretical score"),
    };
    let mut position: Position = record.start;
    let mut expected = Vec::new();
    for &mv in record.moves.iter().chain(std::iter::once(&shirokuro_engine::Move::Pass)) {
        if position.board.has_moves() {
            let e = position.board.empty_count();
            let label = if e <= 10 {
                solver.solve(&position.board, SolveMode::Exact).score
            } else if position.side_to_move == Color::Black {
                theoretical
            } else {
                -theoretical
            };
            expected.push((position.board, label as i8));
        }
        match position.play(mv) {
            Ok(next) => position = next,
            Err(_) => break,
        }
    }
    let got: Vec<_> = samples.iter().take(expected.len()).map(|s| (s.board, s.score)).collect();
    assert_eq!(got, expected);
    // Unfinished games contribute nothing; finished ones one sample per position with a move.
    assert!(samples.len() > 40 * records.iter().filter(|r| r.final_black_disc_diff.is_some()).count());
}

#[test]
fn training_on_records_reports_every_phase() {
    let text = sample("logistello-logbook-sample.txt");
    let records = parse_records(&text, RecordFormat::Logistello).unwrap();
    let samples = label_records(&records, &LabelOptions { solve_empties: 8, theoretical_empties: 8 });
    let options = TrainOptions { epochs: 30, ..TrainOptions::default() };
    let (weights, reports) = train(&samples, &options, &|_| {});
    assert_eq!(reports.len(), shirokuro_engine::eval::PHASES);
    let counted: usize = reports.iter().map(|r| r.train_count + r.validation_count).sum();
    assert_eq!(counted, samples.len());
    // The weights survive the file format.
    let mut bytes = Vec::new();
    shirokuro_engine::eval::weights::write(&weights, &mut bytes).unwrap();
    assert_eq!(shirokuro_engine::eval::weights::parse(&bytes).unwrap(), weights);
}

/// The shipped weights (and the earlier files: the first, a version-1 file, and the second, which the shipped one is
/// fine-tuned from) load and give a sensible value at the start (the game is balanced there); the bundled copy is the
/// shipped file.
#[test]
fn shipped_weights_load_and_evaluate() {
    for name in ["shirokuro-eval-0.skw", "shirokuro-eval-1.skw", "shirokuro-eval-2.skw"] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../resources/eval").join(name);
        let weights = shirokuro_engine::eval::weights::load(&path).unwrap();
        let start = Position::INITIAL;
        let features = shirokuro_engine::eval::Features::new(start.black(), start.white());
        let value = weights.evaluate(&start.board, &features, start.side_to_move);
        assert!(value.abs() <= 4, "{name}: initial position evaluates to {value}");
        if name == shirokuro_engine::eval::weights::SHIPPED_FILE {
            assert_eq!(weights, shirokuro_engine::eval::weights::bundled().unwrap());
            assert!(weights.discs.iter().flatten().any(|&v| v != 0), "the disc-count table is trained");
        }
    }
}
