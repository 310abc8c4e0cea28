//! `book deviate` killed at random moments, 20 rounds: after SIGKILL the book still loads (saves are atomic); after
//! SIGTERM the run saves and exits with 143, and the file holds every position it says the book has.
#![cfg(unix)]

use std::process::{Command, Stdio};
use std::time::Duration;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use shirokuro_engine::book;
use shirokuro_engine::book::file::ReadOptions;

#[test]
fn deviate_survives_kills_and_loses_nothing_on_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("k.egbk3");
    let mut rng = StdRng::seed_from_u64(20);
    for round in 0..20 {
        let child = Command::new(env!("CARGO_BIN_EXE_shirokuro-cli"))
            .args(["book", "deviate", "k.egbk3", "--level", "3", "--depth", "30", "--threads", "1"])
            .args(["--hash-level", "12", "--save-every", "1"])
            .current_dir(dir.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("run shirokuro-cli");
        std::thread::sleep(Duration::from_millis(rng.random_range(50..600)));
        let term = round % 2 == 1;
        let signal = if term { "-TERM" } else { "-KILL" };
        let killed = Command::new("kill").args([signal, &child.id().to_string()]).status().expect("kill");
        assert!(killed.success());
        let output = child.wait_with_output().expect("it ends");
        // Whatever happened, the book on disk loads.
        let on_disk = match book::load(&file, None, ReadOptions::default()) {
            Ok((book, _)) => book.len(),
            Err(error) if !file.exists() => {
                assert!(!term, "round {round}: a stopped run saves: {error}");
                continue;
            }
            Err(error) => panic!("round {round}: the book does not load after {signal}: {error}"),
        };
        if term {
            // 143: stopped by the signal; 0: the run had finished (the book stopped growing) before it came.
            assert!(matches!(output.status.code(), Some(143 | 0)), "round {round}: {:?}", output.status);
            // The last line says how many positions the book has: all of them are on disk.
            let said = String::from_utf8_lossy(&output.stdout);
            let in_book = said
                .split(" in the book)")
                .next()
                .and_then(|before| before.rsplit('(').next())
                .and_then(|n| n.trim().parse::<usize>().ok());
            if let Some(in_book) = in_book {
                assert_eq!(on_disk, in_book, "round {round}: {said}");
            }
        }
    }
    // No temporary file is left over for long: the next save removes those of killed runs.
    let _ = Command::new(env!("CARGO_BIN_EXE_shirokuro-cli"))
        .args(["book", "fix", "k.egbk3"])
        .current_dir(dir.path())
        .output()
        .expect("run shirokuro-cli");
    let leftovers = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().contains(".tmp-"))
        .count();
    assert_eq!(leftovers, 0);
}
