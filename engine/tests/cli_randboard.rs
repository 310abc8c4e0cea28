//! `shirokuro-cli randboard` as a user runs it.

use std::process::Command;

use shirokuro_engine::notation::{parse_board, parse_transcript};

fn randboard(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_shirokuro-cli"))
        .arg("randboard")
        .args(["--threads", "1", "--hash-level", "14", "--level", "3"])
        .args(args)
        .output()
        .expect("run shirokuro-cli randboard")
}

#[test]
fn prints_reproducible_transcripts_and_boards_in_the_range() {
    let args = ["-n", "3", "--moves", "16", "--min", "-3", "--max", "3", "--seed", "9"];
    let first = randboard(&args);
    assert!(first.status.success(), "{}", String::from_utf8_lossy(&first.stderr));
    let text = String::from_utf8(first.stdout).unwrap();
    assert_eq!(text.lines().count(), 3, "{text}");
    for line in text.lines() {
        let game = parse_transcript(line).expect("a transcript");
        assert_eq!(game.moves.iter().filter(|mv| **mv != shirokuro_engine::Move::Pass).count(), 16, "{line}");
    }
    assert_eq!(String::from_utf8(randboard(&args).stdout).unwrap(), text, "the same seed, the same positions");

    let boards = randboard(&["--moves", "16", "--min", "-3", "--max", "3", "--seed", "9", "--format", "board"]);
    let boards = String::from_utf8(boards.stdout).unwrap();
    let (board, score) = boards.trim_end().rsplit_once(' ').expect("board and score");
    // The first board is the end of the first transcript, and its score (for the side to move) is in the range.
    let end = parse_transcript(text.lines().next().unwrap()).unwrap().end;
    assert_eq!(parse_board(board).unwrap(), end);
    assert!((-3..=3).contains(&score.parse::<i32>().unwrap()), "{boards}");
}

#[test]
fn bad_options_and_unreachable_ranges_are_reported() {
    for (args, needle) in [
        (&["--min", "5", "--max", "2"][..], "score range 5..2"),
        (&["--moves", "0"][..], "0 moves"),
        (&["--moves", "3", "--min", "60", "--max", "64"][..], "widen the range"),
    ] {
        let out = randboard(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}
