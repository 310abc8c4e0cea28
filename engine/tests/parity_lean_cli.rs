//! `corpus export --positions` (game results as labels, optionally cut at an exact solve) and `parity-lean` (the
//! evaluation's lean by the parity of the empties, and the weights with it removed), run as a user runs them.

use std::path::Path;
use std::process::{Command, Output};

use shirokuro_engine::corpus::{Corpus, Labels};
use shirokuro_engine::eval::weights;

fn cli(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shirokuro-cli")).args(args).current_dir(dir).output().expect("run shirokuro-cli")
}

fn ok(output: &Output) -> String {
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// A corpus of 40 level-3 games with the shipped evaluation, 2-5 random moves each.
fn corpus(dir: &Path) {
    let _ = ok(&cli(
        dir,
        &[
            "corpus",
            "grow",
            "c",
            "--level",
            "3",
            "--games",
            "40",
            "--random-moves",
            "2-5",
            "--batches",
            "1",
            "-t",
            "1",
            "--hash-level",
            "12",
        ],
    ));
}

/// `(board, score)` of each `board64 X score` line.
fn read_labels(path: &Path) -> Vec<(String, i32)> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|line| {
            let fields: Vec<&str> = line.split(' ').collect();
            assert_eq!(fields.len(), 3, "{line}");
            assert_eq!(fields[0].len(), 64);
            assert_eq!(fields[1], "X");
            (fields[0].to_owned(), fields[2].parse().unwrap())
        })
        .collect()
}

#[test]
fn positions_are_exported_with_results_and_with_an_exact_cut() {
    let dir = tempfile::tempdir().unwrap();
    corpus(dir.path());
    let out = ok(&cli(dir.path(), &["corpus", "export", "c", "--out", "res.txt", "--positions", "engine"]));
    let corpus = Corpus::open(&dir.path().join("c")).unwrap();
    let (_, games) = corpus.read_batch(0).unwrap();
    let expected: usize = games.iter().map(|g| g.moves.len() - usize::from(g.random_moves)).sum();
    let results = read_labels(&dir.path().join("res.txt"));
    assert_eq!(results.len(), expected);
    assert!(out.starts_with(&format!("{expected} positions")), "{out}");
    let all = ok(&cli(dir.path(), &["corpus", "export", "c", "--out", "all.txt", "--positions", "all"]));
    let total: usize = games.iter().map(|g| g.moves.len()).sum();
    assert!(all.starts_with(&format!("{total} positions")), "{all}");

    let out = ok(&cli(
        dir.path(),
        &["corpus", "export", "c", "--out", "cut.txt", "--positions", "engine", "--cut-empties", "14", "-t", "1"],
    ));
    assert!(out.starts_with(&format!("{expected} positions")), "{out}");
    let cut = read_labels(&dir.path().join("cut.txt"));
    assert_eq!(cut.len(), results.len());
    // Level 3 is exact from 14 empties at most, so the cut is not the result everywhere, but the boards are the same
    // and from the cut on so are the labels.
    let mut start = 0;
    let mut differ = 0;
    for game in &games {
        let n = game.moves.len() - usize::from(game.random_moves);
        let (r, c) = (&results[start..start + n], &cut[start..start + n]);
        assert!(r.iter().zip(c).all(|(a, b)| a.0 == b.0));
        let cut_at = r.iter().position(|(board, _)| board.matches('-').count() <= 14);
        if let Some(at) = cut_at {
            assert_eq!(r[at + 1..], c[at + 1..]);
            // Before the cut, one value seen from alternating sides (no passes that early in these games).
            differ += usize::from(r[at].1 != c[at].1);
        }
        start += n;
    }
    assert!(differ > 0, "level 3 does not play the last 14 empties perfectly in every game");
    let labels = games[0].labelled_positions(Labels::FromEngineMoves, 0).unwrap();
    assert_eq!(labels[0].to_line(), format!("{} X {}", results[0].0, results[0].1));

    let bad = cli(dir.path(), &["corpus", "export", "c", "--out", "x.txt", "--cut-empties", "14"]);
    assert!(!bad.status.success(), "--cut-empties needs --positions");
}

#[test]
fn parity_lean_measures_and_removes_the_lean() {
    let dir = tempfile::tempdir().unwrap();
    corpus(dir.path());
    let _ = ok(&cli(dir.path(), &["corpus", "export", "c", "--out", "res.txt", "--positions", "all"]));
    let out = ok(&cli(
        dir.path(),
        &["parity-lean", "--labels", "res.txt", "--min-positions", "5", "--phases", "2-27", "--out", "w.skw"],
    ));
    assert!(out.contains("stage  moves"), "{out}");
    assert!(out.contains("stages corrected; weights written to w.skw"), "{out}");
    let shipped = weights::bundled().unwrap();
    let corrected = weights::load(&dir.path().join("w.skw")).unwrap();
    assert_eq!(corrected.patterns, shipped.patterns);
    assert_eq!(corrected.discs[0], shipped.discs[0], "phase 0 is outside 2-27");
    assert_ne!(corrected.discs, shipped.discs);
    // Measured again, the corrected weights have no lean left in the corrected phases.
    let again = ok(&cli(dir.path(), &["parity-lean", "--labels", "res.txt", "--weights", "w.skw"]));
    for line in again.lines().skip(2) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let phase: usize = fields[0].parse().unwrap();
        if (2..=27).contains(&phase)
            && fields[2].parse::<usize>().unwrap() >= 5
            && fields[4].parse::<usize>().unwrap() >= 5
        {
            let lean: f64 = fields[6].parse().unwrap();
            assert!(lean.abs() < 0.1, "{line}");
        }
    }

    let bad = cli(dir.path(), &["parity-lean", "--labels", "res.txt", "--phases", "5-30"]);
    assert!(String::from_utf8_lossy(&bad.stderr).contains("expected stages as A-B between 0 and 29"));
    std::fs::write(dir.path().join("broken.txt"), "this is no position\n").unwrap();
    let bad = cli(dir.path(), &["parity-lean", "--labels", "broken.txt"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("broken.txt"));
}
