//! `corpus grow` killed at random moments: after each SIGKILL or SIGTERM the next run goes on where the last one
//! stopped, and the finished batches hold exactly the games of an uninterrupted run (same seed, same games).
#![cfg(unix)]

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use shirokuro_engine::corpus::{Corpus, GameRecord};

const GROW: [&str; 12] =
    ["corpus", "grow", "c", "--level", "3", "--games", "30", "--zero-weights", "-t", "1", "--hash-level", "12"];

fn cli(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shirokuro-cli")).args(args).current_dir(dir).output().expect("run shirokuro-cli")
}

/// Every game of the finished batches, as record lines.
fn games(dir: &Path) -> Vec<String> {
    let corpus = Corpus::open(dir).unwrap();
    let mut lines = Vec::new();
    for file in corpus.finished() {
        let (_, games) = corpus.read_batch(file.batch).unwrap();
        lines.extend(games.iter().map(GameRecord::record_line));
    }
    lines
}

#[test]
fn grow_survives_kills_and_ends_with_the_games_of_an_uninterrupted_run() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = StdRng::seed_from_u64(32);
    let mut stopped_by_term = 0;
    for round in 0..12 {
        let child = Command::new(env!("CARGO_BIN_EXE_shirokuro-cli"))
            .args(GROW)
            .current_dir(dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("run shirokuro-cli");
        std::thread::sleep(Duration::from_millis(rng.random_range(30..400)));
        let term = round % 2 == 1;
        let signal = if term { "-TERM" } else { "-KILL" };
        assert!(Command::new("kill").args([signal, &child.id().to_string()]).status().expect("kill").success());
        let status = child.wait_with_output().expect("it ends").status;
        if term && status.code() == Some(143) {
            stopped_by_term += 1;
        }
    }
    assert!(stopped_by_term > 0, "SIGTERM ends a run with 143 after keeping its games");
    // One more run to a round number of batches, then the same from nothing in another folder.
    let finished = Corpus::open(&dir.path().join("c")).unwrap().finished().len();
    let batches = (finished + 1).to_string();
    let output = cli(dir.path(), &[&GROW[..], &["--batches", "1"]].concat());
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let clean = tempfile::tempdir().unwrap();
    let output = cli(clean.path(), &[&GROW[..], &["--batches", &batches]].concat());
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let killed = games(&dir.path().join("c"));
    assert_eq!(killed.len(), 30 * (finished + 1));
    assert_eq!(killed, games(&clean.path().join("c")));

    // The games come out as records that `train` and `label` read.
    let output = cli(dir.path(), &["corpus", "export", "c", "--out", "games.txt"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let text = std::fs::read_to_string(dir.path().join("games.txt")).unwrap();
    assert_eq!(text.lines().collect::<Vec<_>>(), killed);
    // `label --results` reads any records as `export --positions all` reads the corpus: the same labels.
    let output = cli(dir.path(), &["corpus", "export", "c", "--out", "all.txt", "--positions", "all"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let args = ["label", "--records", "games.txt", "--results", "--min-discs", "4", "--max-discs", "64", "--out"];
    let output = cli(dir.path(), &[&args[..], &["results.txt"]].concat());
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let all = std::fs::read_to_string(dir.path().join("all.txt")).unwrap();
    assert!(all.lines().count() > killed.len() * 30, "every position of every game");
    assert_eq!(std::fs::read_to_string(dir.path().join("results.txt")).unwrap(), all);
    let stats = cli(dir.path(), &["corpus", "stats", "c"]);
    let said = String::from_utf8_lossy(&stats.stdout);
    assert!(said.contains(&format!("games: {}", killed.len())), "{said}");
}

#[test]
fn grow_refuses_other_settings_and_a_damaged_batch() {
    let dir = tempfile::tempdir().unwrap();
    let output = cli(dir.path(), &[&GROW[..], &["--batches", "1"]].concat());
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let output = cli(dir.path(), &["corpus", "grow", "c", "--level", "4", "--zero-weights", "--batches", "1"]);
    assert_eq!(output.status.code(), Some(2));
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains("batch-00000.selfplay.gz was played with level 3, not 4"), "{said}");
    // Left out, the settings come from the folder (zero weights included).
    let output = cli(dir.path(), &["corpus", "grow", "c", "--batches", "1"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(String::from_utf8_lossy(&output.stdout).contains("batches of 30 games at level 3"));

    std::fs::write(dir.path().join("c/batch-00001.selfplay.gz"), b"\x1f\x8b damaged").unwrap();
    let output = cli(dir.path(), &["corpus", "stats", "c"]);
    assert_eq!(output.status.code(), Some(2));
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains("batch-00001.selfplay.gz"), "{said}");
}
