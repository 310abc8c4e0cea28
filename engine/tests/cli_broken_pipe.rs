//! A closed pipe on stdout or stderr ends `shirokuro-cli` quietly with 141 (128 + SIGPIPE) instead of aborting, and a
//! long book command saves what it learned first.

use std::process::{Command, Stdio};

use shirokuro_engine::book;
use shirokuro_engine::book::file::ReadOptions;

/// Runs the command with the reading end of `stdout` (or of stderr) closed before it writes; its exit code.
fn with_closed(args: &[&str], dir: &std::path::Path, close_stderr: bool) -> Option<i32> {
    let mut command = Command::new(env!("CARGO_BIN_EXE_shirokuro-cli"));
    let _ = command.args(args).current_dir(dir).stdin(Stdio::null());
    if close_stderr {
        let _ = command.stdout(Stdio::null()).stderr(Stdio::piped());
    } else {
        let _ = command.stdout(Stdio::piped()).stderr(Stdio::null());
    }
    let mut child = command.spawn().expect("run shirokuro-cli");
    drop(child.stdout.take());
    drop(child.stderr.take());
    child.wait().expect("it ends").code()
}

#[test]
fn commands_whose_reader_is_gone_end_quietly() {
    let dir = tempfile::tempdir().unwrap();
    for args in [&["perft", "7"][..], &["levels"], &["book", "generate", "g.egbk3", "--positions", "2000"]] {
        let code = with_closed(args, dir.path(), false);
        // 141 when it wrote after the pipe closed; 0 when it was done before; never a panic (101) or an abort.
        assert!(matches!(code, Some(0 | 141)), "{args:?}: {code:?}");
    }
    let code = with_closed(&["book", "info", "g.egbk3"], dir.path(), false);
    assert_eq!(code, Some(141), "book info writes its counts to a closed stdout");
}

#[test]
fn a_deviate_whose_log_is_gone_saves_what_it_learned_and_ends_with_141() {
    let dir = tempfile::tempdir().unwrap();
    let args =
        ["book", "deviate", "d.egbk3", "--level", "2", "--depth", "20", "--threads", "1", "--save-every", "3600"];
    let code = with_closed(&args, dir.path(), true);
    assert_eq!(code, Some(141));
    let (saved, _) = book::load(&dir.path().join("d.egbk3"), None, ReadOptions::default()).expect("the book was saved");
    assert!(!saved.is_empty());
}
