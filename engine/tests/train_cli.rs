//! `train --phases`: a weights file with another phase count than the shipped 30, made, fine-tuned, corrected by
//! `parity-lean` and played with, as a user runs the commands.

use std::path::Path;
use std::process::{Command, Output};

use shirokuro_engine::eval::{Features, weights};
use shirokuro_engine::{Board, Color};

fn cli(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shirokuro-cli")).args(args).current_dir(dir).output().expect("run shirokuro-cli")
}

fn ok(output: &Output) -> String {
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Labelled positions of 30 level-2 self-play games (the results as labels).
fn labels(dir: &Path) {
    let grow = [
        "corpus",
        "grow",
        "c",
        "--level",
        "2",
        "--games",
        "30",
        "--random-moves",
        "2-5",
        "--batches",
        "1",
        "-t",
        "1",
        "--hash-level",
        "12",
    ];
    let _ = ok(&cli(dir, &grow));
    let _ = ok(&cli(dir, &["corpus", "export", "c", "--out", "res.txt", "--positions", "all"]));
}

#[test]
fn sixty_phase_weights_are_trained_corrected_and_played() {
    let dir = tempfile::tempdir().unwrap();
    labels(dir.path());
    let train = |extra: &[&str]| {
        let mut args = vec!["train", "--records", "res.txt", "-t", "1"];
        args.extend_from_slice(extra);
        ok(&cli(dir.path(), &args))
    };
    let out = train(&["--phases", "60", "--epochs", "20", "--out", "w60.skw"]);
    // One report line per phase, one disc count each; the middle game's phases named.
    assert!(out.contains("\n   59   63-63 "), "{out}");
    assert!(out.contains("(phases 20-51)"), "{out}");
    let sixty = weights::load(&dir.path().join("w60.skw")).unwrap();
    assert_eq!(sixty.phases(), 60);
    assert!(sixty.bias.iter().any(|&b| b != 0), "the phases learnt something");

    // Fine-tuning keeps --init's phase count; starting 60 phases from the shipped 30 copies each phase in.
    let _ = train(&["--init", "w60.skw", "--epochs", "5", "--out", "again.skw"]);
    assert_eq!(weights::load(&dir.path().join("again.skw")).unwrap().phases(), 60);
    let missing = cli(dir.path(), &["train", "--records", "res.txt", "--init", "no-such.skw", "--out", "x.skw"]);
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no-such.skw"));
    let copied = train(&[
        "--phases",
        "60",
        "--init",
        concat!(env!("CARGO_MANIFEST_DIR"), "/../resources/eval/shirokuro-eval-2.skw"),
        "--epochs",
        "0",
        "--out",
        "copy.skw",
    ]);
    assert!(copied.contains("weights written to copy.skw"), "{copied}");
    let copy = weights::load(&dir.path().join("copy.skw")).unwrap();
    let shipped = weights::bundled().unwrap();
    let board = Board::INITIAL;
    let features = Features::new(board.player, board.opponent);
    assert_eq!(copy.phases(), 60);
    assert_eq!(copy.evaluate(&board, &features, Color::Black), shipped.evaluate(&board, &features, Color::Black));

    // parity-lean corrects both phases of a stage.
    let lean = ok(&cli(
        dir.path(),
        &["parity-lean", "--labels", "res.txt", "--weights", "w60.skw", "--min-positions", "5", "--out", "l60.skw"],
    ));
    assert!(lean.contains("stages corrected; weights written to l60.skw"), "{lean}");
    let corrected = weights::load(&dir.path().join("l60.skw")).unwrap();
    assert_eq!(corrected.phases(), 60);
    assert_eq!(corrected.patterns, sixty.patterns);

    // The engine plays with it.
    let games = ok(&cli(
        dir.path(),
        &["match", "--level-a", "2", "--level-b", "2", "--weights-a", "l60.skw", "--games", "2", "-t", "1"],
    ));
    assert!(games.contains("games: 4"), "{games}");

    // Out of range.
    for bad in ["0", "61"] {
        let out = cli(dir.path(), &["train", "--records", "res.txt", "--phases", bad, "--out", "bad.skw"]);
        assert!(!out.status.success());
        assert!(String::from_utf8_lossy(&out.stderr).contains("--phases"), "{}", String::from_utf8_lossy(&out.stderr));
    }
    assert!(!dir.path().join("bad.skw").exists());
}
