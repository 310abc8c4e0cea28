//! `train-net`'s teachers and averaging from the command line: a network taught by others trains, and settings that
//! cannot work are refused with what is wrong before any training.

use std::path::Path;
use std::process::{Command, Output};

fn cli(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shirokuro-cli")).args(args).current_dir(dir).output().expect("run shirokuro-cli")
}

fn ok(output: &Output) -> String {
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn refused(output: &Output) -> String {
    assert!(!output.status.success(), "{}", String::from_utf8_lossy(&output.stdout));
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A small network's settings on `labels.txt` (one epoch).
const SMALL: [&str; 11] =
    ["train-net", "--labels", "labels.txt", "--dim", "4", "--hidden", "4", "--buckets", "2", "--epochs", "1"];

#[test]
fn a_network_trains_on_its_teachers_values_and_bad_settings_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let games =
        ["selfplay", "--games", "20", "--level", "1", "--random-moves", "8-12", "--seed", "3", "--zero-weights"];
    let _ = ok(&cli(dir.path(), &[&games[..], &["--out", "games.txt"]].concat()));
    let label = ["label", "--records", "games.txt", "--results", "--min-discs", "20", "--max-discs", "50"];
    let _ = ok(&cli(dir.path(), &[&label[..], &["--out", "labels.txt"]].concat()));

    let teacher = ok(&cli(dir.path(), &[&SMALL[..], &["--out", "teacher.net"]].concat()));
    assert!(teacher.contains("epoch   1"), "{teacher}");
    // Taught on the labelled positions (half way) and on the same positions again with the teacher's values alone,
    // the weights averaged over the run's second half.
    let taught = [
        "--teacher",
        "teacher.net",
        "--teacher-share",
        "0.5",
        "--teacher-labels",
        "labels.txt",
        "--average-from",
        "0.5",
        "--out",
        "student.net",
    ];
    let student = ok(&cli(dir.path(), &[&SMALL[..], &taught[..]].concat()));
    assert!(student.contains("network written to student.net"), "{student}");
    // The held-out tenth: the student trains on the other nine tenths and the teacher's copies of all of them.
    let count = |text: &str| text.split_whitespace().next().unwrap().parse::<usize>().unwrap();
    let (alone, with_copies) = (count(&teacher), count(&student));
    let labels = std::fs::read_to_string(dir.path().join("labels.txt")).unwrap().lines().count();
    assert_eq!(with_copies, alone + labels, "teacher: {teacher}\nstudent: {student}");

    // Exact labels are trained on as they are, whatever the teachers say: with the labels moved all the way to the
    // teacher's value, the file as --exact-labels gives the network it gives with no teacher at all, and as --labels
    // another one.
    std::fs::write(dir.path().join("none.txt"), "").unwrap();
    let net = |args: &[&str], out: &str| {
        let text = ok(&cli(dir.path(), &[&["train-net"][..], args, &SMALL[3..], &["--out", out]].concat()));
        assert_eq!(count(&text), alone, "{args:?}: {text}");
        std::fs::read(dir.path().join(out)).unwrap()
    };
    let taught = ["--teacher", "teacher.net", "--teacher-share", "1"];
    let exact = ["--labels", "none.txt", "--exact-labels", "labels.txt"];
    let exact_taught = net(&[&exact[..], &taught].concat(), "a.net");
    let exact_alone = net(&exact, "b.net");
    let moved = net(&[&["--labels", "labels.txt"][..], &taught].concat(), "c.net");
    assert_eq!(exact_taught, exact_alone);
    assert_ne!(exact_taught, moved);
    // Positions with the teachers' values need teachers.
    let error = refused(&cli(dir.path(), &[&SMALL[..], &["--teacher-labels", "labels.txt"]].concat()));
    assert!(error.contains("--teacher-labels needs --teacher"), "{error}");
    // That is said before any label file is read (a missing one would be reported otherwise).
    let error = refused(&cli(dir.path(), &["train-net", "--labels", "missing.txt", "--teacher-labels", "labels.txt"]));
    assert!(error.contains("--teacher-labels needs --teacher"), "{error}");
    // A teacher must read the rows the network reads: one bucket against two.
    let one = ["train-net", "--labels", "labels.txt", "--dim", "4", "--hidden", "4", "--buckets", "1", "--epochs", "1"];
    let _ = ok(&cli(dir.path(), &[&one[..], &["--out", "one.net"]].concat()));
    let error = refused(&cli(dir.path(), &[&SMALL[..], &["--teacher", "one.net"]].concat()));
    assert!(error.contains("a teacher has 1 bucket(s)") && error.contains("has 2"), "{error}");
    // A teacher that is not a network file names the file.
    let error = refused(&cli(dir.path(), &[&SMALL[..], &["--teacher", "labels.txt"]].concat()));
    assert!(error.contains("cannot read the teacher labels.txt"), "{error}");
    // Fractions outside 0-1.
    for (option, value) in [("--average-from", "1.5"), ("--teacher-share", "1.1"), ("--average-from", "NaN")] {
        let error = refused(&cli(dir.path(), &[&SMALL[..], &[option, value]].concat()));
        assert!(error.contains(option), "{option} {value}: {error}");
    }
    assert!(!dir.path().join("out.net").exists());
}
