//! Starting a book from nothing with `shirokuro-cli book`, as a user does: `book new`, and `deviate` / `store` /
//! `merge` on a file that does not exist yet, all with the shipped evaluation unless told otherwise.

use std::path::Path;
use std::process::{Command, Output};

use shirokuro_engine::Board;
use shirokuro_engine::book::file::ReadOptions;
use shirokuro_engine::book::{self, BookFormat};

fn cli(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shirokuro-cli")).args(args).current_dir(dir).output().expect("run shirokuro-cli")
}

fn ok(output: &Output) -> String {
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn book_new_writes_an_empty_book_and_refuses_to_replace_one() {
    let dir = tempfile::tempdir().unwrap();
    let _ = ok(&cli(&["book", "new", "a.egbk3"], dir.path()));
    let _ = ok(&cli(&["book", "new", "b.dat"], dir.path()));
    let (egbk3, format) = book::load(&dir.path().join("a.egbk3"), None, ReadOptions::default()).unwrap();
    assert_eq!((egbk3.len(), format), (0, BookFormat::Egbk3));
    let (edax, format) = book::load(&dir.path().join("b.dat"), None, ReadOptions::default()).unwrap();
    assert_eq!((edax.len(), format), (0, BookFormat::Edax), "the .dat extension asks for Edax's format");
    let again = cli(&["book", "new", "a.egbk3"], dir.path());
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("exists already"), "{again:?}");
}

#[test]
fn deviate_store_and_merge_create_a_missing_book_and_say_so() {
    let dir = tempfile::tempdir().unwrap();
    // No --weights: the shipped evaluation is used (it used to stop with "give --weights FILE").
    let said = ok(&cli(&["book", "deviate", "d.egbk3", "--level", "1", "--depth", "4", "--threads", "1"], dir.path()));
    assert!(said.contains("d.egbk3 does not exist: starting a new, empty egbk3 book there"), "{said}");
    let (deviated, _) = book::load(&dir.path().join("d.egbk3"), None, ReadOptions::default()).unwrap();
    assert!(deviated.contains(&Board::INITIAL), "the root is learned");
    assert!(deviated.len() > 4, "{} positions", deviated.len());

    let said = ok(&cli(&["book", "store", "s.egbk3", "--moves", "f5d6c3", "--level", "1"], dir.path()));
    assert!(said.contains("s.egbk3 does not exist"), "{said}");
    let (stored, _) = book::load(&dir.path().join("s.egbk3"), None, ReadOptions::default()).unwrap();
    assert!(stored.len() >= 4, "the line and its best children: {}", stored.len());

    let said = ok(&cli(&["book", "merge", "m.egbk3", "s.egbk3", "d.egbk3"], dir.path()));
    assert!(said.contains("m.egbk3 does not exist"), "{said}");
    let (merged, _) = book::load(&dir.path().join("m.egbk3"), None, ReadOptions::default()).unwrap();
    assert!(merged.len() >= deviated.len().max(stored.len()), "{} positions", merged.len());
}

#[test]
fn book_quality_samples_positions_and_compares_them_with_a_search() {
    let dir = tempfile::tempdir().unwrap();
    let _ = ok(&cli(&["book", "deviate", "q.egbk3", "--level", "1", "--depth", "6", "--threads", "1"], dir.path()));
    let args = ["book", "quality", "q.egbk3", "--samples", "5", "--plies", "2-6", "--bands", "4", "--level", "2"];
    let output = cli(&args, dir.path());
    let _ = ok(&output);
    let report = String::from_utf8_lossy(&output.stdout);
    assert!(report.contains("book vs level 2: 5 positions"), "{report}");
    for band in ["2-4", "5-6", "all"] {
        assert!(report.lines().any(|l| l.trim_start().starts_with(band)), "{band} in {report}");
    }
    // The same seed draws the same sample, so the same report.
    let again = cli(&args, dir.path());
    let strip_time = |text: &str| text.lines().skip(1).collect::<Vec<_>>().join("\n");
    assert_eq!(strip_time(&String::from_utf8_lossy(&again.stdout)), strip_time(&report));
}

#[test]
fn book_quality_keeps_its_results_and_shards_add_up_to_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let _ = ok(&cli(&["book", "deviate", "q.egbk3", "--level", "1", "--depth", "6", "--threads", "1"], dir.path()));
    let base = ["book", "quality", "q.egbk3", "--samples", "6", "--plies", "2-6", "--level", "2", "--threads", "1"];
    let run = |extra: &[&str]| {
        let args: Vec<&str> = base.iter().chain(extra).copied().collect();
        let output = cli(&args, dir.path());
        let _ = ok(&output);
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    let table = |report: &str| report.lines().skip(1).collect::<Vec<_>>().join("\n");
    let whole = run(&[]);
    let _ = run(&["--results", "q1.txt", "--shard", "1/2"]);
    let _ = run(&["--results", "q2.txt", "--shard", "2/2"]);
    let first = std::fs::read_to_string(dir.path().join("q1.txt")).unwrap();
    let second = std::fs::read_to_string(dir.path().join("q2.txt")).unwrap();
    assert_eq!(first.lines().count() + second.lines().count(), 2 + 6, "{first}{second}");
    std::fs::write(dir.path().join("q.txt"), format!("{first}{second}")).unwrap();
    let joined = run(&["--results", "q.txt"]);
    assert!(joined.contains("6 positions (nothing searched in this run)"), "{joined}");
    assert_eq!(table(&joined), table(&whole));
    // Another level is another sample: the file is refused, not mixed.
    let args: Vec<&str> =
        base.iter().copied().chain(["--results", "q.txt"]).map(|a| if a == "2" { "3" } else { a }).collect();
    let refused = cli(&args, dir.path());
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("made for another sample"));
}
