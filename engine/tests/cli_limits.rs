//! Hostile options and lines, as a reviewer tried them: refused with a message, never a hang, an abort or an endless
//! loop.

use std::io::Write;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn cli(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_shirokuro-cli"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run shirokuro-cli");
    let mut stdin = child.stdin.take().unwrap();
    // The child may stop reading early; a failed write is its business.
    let _ = stdin.write_all(input);
    drop(stdin);
    child.wait_with_output().expect("it ends")
}

#[test]
fn out_of_range_threads_and_hash_levels_are_refused_with_the_range() {
    for (args, needle) in [
        (&["solve", "none.obf", "--hash-level", "31"][..], "the hash level is 10 to 30"),
        (&["gtp", "--hash-level", "32"], "the hash level is 10 to 30"),
        (&["book", "deviate", "b.egbk3", "--hash-level", "255"], "the hash level is 10 to 30"),
        (&["gtp", "--threads", "100000"], "threads are 1 to"),
        (&["book", "deviate", "b.egbk3", "--threads", "0"], "threads are 1 to"),
    ] {
        let output = cli(args, b"");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
    }
}

#[test]
fn play_takes_huge_counts_and_bytes_that_are_not_text_and_goes_on() {
    let start = Instant::now();
    let input = b"f5\nundo 18446744073709551615\nredo 10000000000\n\xff\xfe\nd6\nquit\n";
    let output = cli(&["play", "--mode", "3", "--level", "1"], input);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(start.elapsed() < Duration::from_secs(10), "took {:?}", start.elapsed());
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("error: invalid character"), "the bytes are an unknown command: {text}");
    // f5 was undone and redone, then d6 was played after the bad line: the game went on.
    assert!(text.contains("ply 2"), "{text}");
}

#[test]
fn protocol_lines_over_a_mebibyte_are_refused_not_kept_or_echoed() {
    let mut input = vec![b'x'; 3 << 20];
    input.extend_from_slice(b"\nname\nquit\n");
    let output = cli(&["gtp", "--level", "1", "--hash-level", "12"], &input);
    assert!(output.status.success());
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("= Shirokuro"), "the next command is answered: {stdout}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("a line of 3145729 bytes was ignored"), "{stderr}");
    assert!(stderr.len() < 1000, "the line is not echoed ({} bytes on stderr)", stderr.len());

    let mut input = b"hello ".to_vec();
    input.extend_from_slice(&vec![b'y'; 500_000]);
    input.extend_from_slice(b"\nping 1\nquit\n");
    let output = cli(&["nboard", "--level", "1", "--hash-level", "12"], &input);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.len() < 1000, "an unknown command is quoted shortly ({} bytes on stderr)", stderr.len());
    assert!(String::from_utf8_lossy(&output.stdout).contains("pong 1"));
}

#[cfg(unix)]
#[test]
fn a_device_or_a_pipe_given_as_a_book_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("book.fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().map(|s| s.success()).unwrap_or(false);
    let mut paths = vec!["/dev/zero".to_owned()];
    if made {
        paths.push(fifo.display().to_string());
    } else {
        eprintln!("mkfifo is missing: the pipe case is not checked");
    }
    for path in paths {
        let start = Instant::now();
        let output = cli(&["book", "info", &path], b"");
        assert_eq!(output.status.code(), Some(2), "{path}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("not a regular file"), "{path}: {stderr}");
        assert!(start.elapsed() < Duration::from_secs(5), "{path}: {:?}", start.elapsed());
    }
}
