//! `level-profile`: a level's thinking time by the search its plan runs and by empties, as a user runs it.

use std::process::{Command, Output};

fn cli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shirokuro-cli")).args(args).output().expect("run shirokuro-cli")
}

#[test]
fn a_level_is_profiled_by_stage_and_by_empties() {
    let output =
        cli(&["level-profile", "--level", "4", "--games", "2", "--band", "10", "-t", "1", "--hash-level", "12"]);
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(text.starts_with("level 4 (bundled MPC model): 2 games after 10-19 random moves (seed 1)"), "{text}");
    // Level 4: depth 4 in the midgame, exact from 8 empties.
    let midgame = text.lines().find(|l| l.starts_with("midgame (")).expect("a midgame row");
    let exact = text.lines().find(|l| l.starts_with("exact (")).expect("an exact row");
    assert!(exact.starts_with("exact (1-8)"), "{exact}");
    assert!(midgame.starts_with("midgame (9-"), "{midgame}");
    let moves = |line: &str| line.split_whitespace().nth(2).and_then(|m| m.parse::<u64>().ok()).expect("moves");
    let all = text.lines().find(|l| l.starts_with("all ")).expect("a total");
    let all_moves: u64 = all.split_whitespace().nth(1).and_then(|m| m.parse().ok()).expect("moves");
    assert_eq!(moves(midgame) + moves(exact), all_moves);
    let bands: u64 = text
        .lines()
        .filter(|l| l.contains(" empties "))
        .map(|l| l.split_whitespace().nth(2).and_then(|m| m.parse::<u64>().ok()).expect("moves"))
        .sum();
    assert_eq!(bands, all_moves, "{text}");
    assert!(text.contains("10-1 empties"), "{text}");

    let bad = cli(&["level-profile", "--level", "4", "--games", "1", "--mpc", "no-such-model.txt"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("no-such-model.txt"));
    let bad = cli(&["level-profile", "--level", "4", "--band", "0"]);
    assert!(!bad.status.success(), "a band of no empties");
}
