//! `label` killed at random moments: each run keeps its finished labels in OUT.resume, the next run goes on from
//! there, and the file it ends with is byte for byte the one of a run never stopped. A checkpoint of other settings is
//! refused, not continued.
#![cfg(unix)]

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const LABEL: [&str; 15] = [
    "label",
    "--records",
    "games.txt",
    "--per-game",
    "8",
    "--depth",
    "8",
    "--exact-empties",
    "14",
    "-t",
    "1",
    "--checkpoint-every",
    "16",
    "--seed",
    "5",
];

fn cli(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shirokuro-cli")).args(args).current_dir(dir).output().expect("run shirokuro-cli")
}

/// The checkpoint's number of labels (its lines after the first), 0 when there is none.
fn kept(path: &Path) -> usize {
    std::fs::read_to_string(path).map_or(0, |text| text.lines().count().saturating_sub(1))
}

#[test]
fn label_survives_kills_and_ends_with_the_labels_of_an_uninterrupted_run() {
    let dir = tempfile::tempdir().unwrap();
    let games =
        ["selfplay", "--games", "30", "--level", "1", "--random-moves", "8-12", "--seed", "4", "--zero-weights"];
    let output = cli(dir.path(), &[&games[..], &["--out", "games.txt"]].concat());
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let output = cli(dir.path(), &[&LABEL[..], &["--out", "clean.txt"]].concat());
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let clean = std::fs::read_to_string(dir.path().join("clean.txt")).unwrap();
    assert!(clean.lines().count() > 200, "{clean}");

    let resume = dir.path().join("out.txt.resume");
    let mut rng = StdRng::seed_from_u64(9);
    let (mut stopped_by_term, mut grew, mut refused) = (0, 0, false);
    let mut before = 0;
    for round in 0..40 {
        let child = Command::new(env!("CARGO_BIN_EXE_shirokuro-cli"))
            .args([&LABEL[..], &["--out", "out.txt"]].concat())
            .current_dir(dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("run shirokuro-cli");
        std::thread::sleep(Duration::from_millis(rng.random_range(20..150)));
        let term = round % 2 == 1;
        let signal = if term { "-TERM" } else { "-KILL" };
        // The run may have ended already: then `kill` finds no process, which is fine.
        let _ = Command::new("kill").args([signal, &child.id().to_string()]).status();
        let status = child.wait_with_output().expect("it ends").status;
        if term && status.code() == Some(143) {
            stopped_by_term += 1;
        }
        if dir.path().join("out.txt").exists() {
            break;
        }
        let now = kept(&resume);
        assert!(now >= before, "a run never loses what an earlier one kept: {before} then {now}");
        grew += usize::from(now > before);
        before = now;
        if now > 0 && !refused {
            // A checkpoint of other settings is refused and kept as it is.
            let text = std::fs::read(&resume).unwrap();
            let other = [&LABEL[..6], &["9"], &LABEL[7..], &["--out", "out.txt"]].concat();
            let output = cli(dir.path(), &other);
            assert!(!output.status.success());
            let said = String::from_utf8_lossy(&output.stderr);
            assert!(said.contains("checkpoint of another run") && said.contains("depth 8"), "{said}");
            assert_eq!(std::fs::read(&resume).unwrap(), text);
            refused = true;
        }
    }
    assert!(refused && stopped_by_term > 0, "SIGTERM ends a run with 143 after keeping its labels");
    assert!(grew > 1, "the checkpoint grew over several runs");
    if !dir.path().join("out.txt").exists() {
        let output = cli(dir.path(), &[&LABEL[..], &["--out", "out.txt"]].concat());
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        assert!(String::from_utf8_lossy(&output.stdout).contains("going on after the"));
    }
    assert_eq!(std::fs::read_to_string(dir.path().join("out.txt")).unwrap(), clean);
    assert!(!resume.exists(), "the checkpoint goes when the labels are written");
}

#[test]
fn a_destination_that_cannot_take_the_labels_is_refused_before_any_search() {
    let dir = tempfile::tempdir().unwrap();
    let games = [
        "selfplay",
        "--games",
        "2",
        "--level",
        "1",
        "--random-moves",
        "8",
        "--seed",
        "4",
        "--zero-weights",
        "--out",
        "games.txt",
    ];
    assert!(cli(dir.path(), &games).status.success());
    std::fs::create_dir(dir.path().join("folder")).unwrap();
    let output = cli(dir.path(), &[&LABEL[..], &["--out", "folder"]].concat());
    assert!(!output.status.success());
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains("folder") && said.contains("not a regular file"), "{said}");
    assert!(!said.contains("labelled"), "no search ran: {said}");
    assert!(!dir.path().join("folder.resume").exists(), "no checkpoint is made beside it");
}
