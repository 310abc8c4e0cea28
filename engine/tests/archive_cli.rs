//! `shirokuro-cli archive`: import, stats, lookup (with `--repeat`), game, and a failed import that leaves no
//! archive behind.

use std::process::Command;

fn cli(args: &[&str]) -> (bool, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_shirokuro-cli")).args(args).output().unwrap();
    let text = |bytes: Vec<u8>| String::from_utf8(bytes).unwrap();
    (output.status.success(), text(output.stdout), text(output.stderr))
}

#[test]
fn import_stats_lookup_and_game() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("games.csv");
    std::fs::write(&csv, "1,1,f5d6c3\n2,-1,f5d6c3\n3,0,f5f6e6\n4,1,c4c3\n").unwrap();
    let archive = dir.path().join("a.sqlite");
    let (a, c) = (archive.to_str().unwrap(), csv.to_str().unwrap());

    let (ok, out, err) = cli(&["archive", "import", a, c]);
    assert!(ok, "{out}{err}");
    assert!(out.contains("games added:      4"), "{out}");
    let (ok, out, _) = cli(&["archive", "import", a, c]);
    assert!(ok && out.contains("duplicates:       4"), "{out}");

    let (ok, out, _) = cli(&["archive", "stats", a]);
    assert!(ok && out.contains("games:        4"), "{out}");

    let (ok, out, err) = cli(&["archive", "lookup", a, "--moves", "f5", "--repeat", "3", "--games", "2"]);
    assert!(ok, "{out}{err}");
    assert!(out.contains("White to move: 4 games"), "{out}");
    assert!(out.lines().any(|l| l.starts_with("d6 ") && l.contains("  2  ")), "{out}");
    assert!(out.lines().any(|l| l.starts_with("f6 ") && l.contains("  2  ")), "{out}");
    assert!(out.contains("lookup x3: min"), "{out}");
    let (ok, out, _) = cli(&["archive", "game", a, "4"]);
    assert!(ok && out.contains("moves: c4c3") && out.contains("source: games.csv"), "{out}");
}

#[test]
fn a_failed_import_leaves_no_new_archive() {
    let dir = tempfile::tempdir().unwrap();
    let junk = dir.path().join("notes.txt");
    std::fs::write(&junk, "not a game\n").unwrap();
    let archive = dir.path().join("new.sqlite");
    let (ok, _, err) = cli(&["archive", "import", archive.to_str().unwrap(), junk.to_str().unwrap()]);
    assert!(!ok);
    assert!(err.contains("notes.txt") && err.contains("nothing was imported"), "{err}");
    assert!(!archive.exists());
}
