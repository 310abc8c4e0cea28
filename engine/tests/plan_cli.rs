//! `match --plan-a/--plan-b` and `level-profile --plan`: a level's search plan changed for a tuning run, as a user
//! runs it.

use std::process::{Command, Output};

fn cli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shirokuro-cli")).args(args).output().expect("run shirokuro-cli")
}

/// A two-opening match of engine A (`a`) against level 2, one thread, and its standard output.
fn match_against_level_2(a: &[&str]) -> String {
    let mut args = vec!["match", "--level-b", "2", "--games", "2", "-t", "1", "--hash-level", "12"];
    args.extend_from_slice(a);
    let output = cli(&args);
    assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The lines that depend only on the games played (not on the time they took or on how A is described).
fn games_lines(text: &str) -> Vec<&str> {
    text.lines().filter(|l| (l.starts_with("A: ") && l.contains("wins")) || l.starts_with("nodes:")).collect()
}

#[test]
fn a_level_written_as_a_plan_plays_the_same_games_and_a_changed_plan_does_not() {
    let level = match_against_level_2(&["--level-a", "3"]);
    assert!(level.starts_with("A: level 3 ("), "{level}");
    // Level 3: depth 3 in the midgame at 100 %, exact from 6 empties.
    let same = match_against_level_2(&["--plan-a", "3@100;6@100"]);
    assert!(same.starts_with("A: plan 3@100;6@100 ("), "{same}");
    assert_eq!(games_lines(&level), games_lines(&same));
    assert_eq!(games_lines(&level).len(), 2, "{level}");
    assert!(same.contains("thinking: A "), "{same}");
    // Exact from 12 empties instead: more of A's nodes go to exact solves, so the count changes.
    let deeper = match_against_level_2(&["--plan-a", "3@100;12@100"]);
    let nodes = |text: &str| text.lines().find(|l| l.starts_with("nodes:")).map(str::to_owned).expect("nodes");
    assert_ne!(nodes(&level), nodes(&deeper));
}

#[test]
fn bad_plans_and_a_level_with_a_plan_are_refused() {
    let refused = |args: &[&str]| {
        let output = cli(args);
        assert!(!output.status.success(), "{args:?} was accepted");
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    let message = refused(&["match", "--plan-a", "15@74;27@98", "--level-b", "2"]);
    assert!(message.contains("100 %"), "{message}");
    let message = refused(&["match", "--plan-a", "15@75;27@100", "--level-b", "2"]);
    assert!(message.contains("\"75\" is not a selectivity"), "{message}");
    let message = refused(&["match", "--plan-a", "15@74", "--level-b", "2"]);
    assert!(message.contains("15@74;27@98,24@99,22@100"), "{message}");
    let message = refused(&["match", "--level-a", "3", "--plan-a", "3@100;6@100", "--level-b", "2"]);
    assert!(message.contains("cannot be used with"), "{message}");
    let message = refused(&["match", "--level-b", "2"]);
    assert!(message.contains("--level-a"), "{message}");
    let message = refused(&["level-profile", "--plan", "4@100;8@99"]);
    assert!(message.contains("100 %"), "{message}");
    let message = refused(&["level-profile", "--games", "1"]);
    assert!(message.contains("--level"), "{message}");
}

#[test]
fn level_profile_groups_a_plan_by_its_own_stages() {
    let output = cli(&["level-profile", "--plan", "4@100;6@100", "--games", "2", "-t", "1", "--hash-level", "12"]);
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(text.starts_with("plan 4@100;6@100 (bundled MPC model): 2 games"), "{text}");
    let exact = text.lines().find(|l| l.starts_with("exact (")).expect("an exact row");
    assert!(exact.starts_with("exact (1-6)"), "{exact}");
    assert!(text.lines().any(|l| l.starts_with("midgame (7-")), "{text}");
}
