//! The book file a long `shirokuro-cli book` command writes is never lost or clobbered (docs/reliability.md,
//! "Files"): a second writer of a locked book refuses, a read-only destination is refused before any search, a
//! destination that fails during the run keeps the work in a rescue file, the `.bak` is the book as it was before the
//! run, and leftovers of killed saves are removed.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use shirokuro_engine::book::file::ReadOptions;
use shirokuro_engine::book::{self, Book};

fn cli(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_shirokuro-cli")).args(args).current_dir(dir).output().expect("run shirokuro-cli")
}

fn stderr_of(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn load(path: &Path) -> Book {
    book::load(path, None, ReadOptions::default()).unwrap_or_else(|e| panic!("{e}")).0
}

/// A small book made by a short deviate: a few dozen positions.
fn small_book(dir: &Path, name: &str) -> Vec<u8> {
    let output = cli(&["book", "deviate", name, "--level", "1", "--depth", "4", "--threads", "1"], dir);
    assert!(output.status.success(), "{}", stderr_of(&output));
    std::fs::read(dir.join(name)).unwrap()
}

/// A command running in the background whose stderr is collected as it comes.
struct Running {
    child: Child,
    stderr: Arc<Mutex<String>>,
}

impl Running {
    fn start(args: &[&str], dir: &Path) -> Running {
        let mut child = Command::new(env!("CARGO_BIN_EXE_shirokuro-cli"))
            .args(args)
            .current_dir(dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run shirokuro-cli");
        let stderr = Arc::new(Mutex::new(String::new()));
        let mut pipe = child.stderr.take().unwrap();
        let collected = Arc::clone(&stderr);
        let _reader = std::thread::spawn(move || {
            let mut buffer = [0; 4096];
            while let Ok(n @ 1..) = pipe.read(&mut buffer) {
                collected.lock().unwrap().push_str(&String::from_utf8_lossy(&buffer[..n]));
            }
        });
        Running { child, stderr }
    }

    fn said(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    /// Waits (at most `limit`) until `ready` holds; fails the test, saying what the command said, if it does not.
    fn wait_for(&mut self, what: &str, limit: Duration, ready: impl Fn(&Running) -> bool) {
        let start = Instant::now();
        while !ready(self) {
            if let Ok(Some(status)) = self.child.try_wait() {
                panic!("the command ended ({status}) before {what}: {}", self.said());
            }
            assert!(start.elapsed() < limit, "no {what} after {limit:?}: {}", self.said());
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Sends SIGTERM and waits for the end: the exit code and everything said on stderr.
    fn terminate(&mut self) -> (Option<i32>, String) {
        let pid = self.child.id().to_string();
        assert!(Command::new("kill").args(["-TERM", &pid]).status().unwrap().success());
        let status = self.child.wait().unwrap();
        // The reader thread ends with the pipe; give it a moment to take the last lines.
        std::thread::sleep(Duration::from_millis(200));
        (status.code(), self.said())
    }
}

/// The most positions a deviate's progress lines (`deviate: N / 0`) say it added.
fn added(said: &str) -> u64 {
    said.split("deviate: ").skip(1).filter_map(|rest| rest.split(' ').next()?.parse().ok()).max().unwrap_or(0)
}

impl Drop for Running {
    /// A test that fails half-way leaves no command running.
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

#[cfg(unix)]
#[test]
fn a_second_writer_of_a_locked_book_refuses_and_the_first_keeps_its_work() {
    let dir = tempfile::tempdir().unwrap();
    let before_bytes = small_book(dir.path(), "b.egbk3");
    let before = load(&dir.path().join("b.egbk3"));
    // A deviate far too long to finish, saving only when stopped.
    let args =
        ["book", "deviate", "b.egbk3", "--level", "8", "--depth", "40", "--threads", "1", "--save-every", "3600"];
    let mut first = Running::start(&args, dir.path());
    let pid = first.child.id().to_string();
    let lock = dir.path().join("b.egbk3.lock");
    // The holder writes its process id into the lock file once the lock is its own.
    first.wait_for("the lock", Duration::from_secs(60), |_| {
        std::fs::read_to_string(&lock).is_ok_and(|text| text.trim() == pid)
    });
    for second in [
        &["book", "deviate", "b.egbk3", "--level", "1", "--depth", "4", "--threads", "1"][..],
        &["book", "store", "b.egbk3", "--moves", "f5d6", "--level", "1"],
        &["book", "merge", "b.egbk3", "b.egbk3"],
    ] {
        let started = Instant::now();
        let output = cli(second, dir.path());
        let said = stderr_of(&output);
        assert_eq!(output.status.code(), Some(2), "{second:?}: {said}");
        assert!(
            said.contains(&format!("b.egbk3 is being written by another run (process {pid}, which holds")),
            "{second:?}: {said}"
        );
        assert!(said.contains("nothing was changed"), "{said}");
        assert!(!said.contains("loaded"), "refused before loading: {said}");
        assert!(started.elapsed() < Duration::from_secs(20), "refused at once");
    }
    assert_eq!(std::fs::read(dir.path().join("b.egbk3")).unwrap(), before_bytes, "nothing written yet");
    first.wait_for("a position learned", Duration::from_secs(120), |run| added(&run.said()) > 0);
    let (code, said) = first.terminate();
    assert_eq!(code, Some(143), "{said}");
    // Nothing was lost: the first run's save holds the book before it and what it learned.
    let after = load(&dir.path().join("b.egbk3"));
    assert!(after.len() > before.len(), "{} -> {} positions: {said}", before.len(), after.len());
    assert!(before.iter().all(|(board, _)| after.contains(&board)));
    assert_eq!(std::fs::read(dir.path().join("b.egbk3.bak")).unwrap(), before_bytes);
    // The lock was released with the run: the next writer goes ahead.
    let output = cli(&["book", "store", "b.egbk3", "--moves", "f5d6", "--level", "1"], dir.path());
    assert!(output.status.success(), "{}", stderr_of(&output));
}

#[test]
fn deviate_refuses_a_read_only_book_or_a_folder_before_searching() {
    let dir = tempfile::tempdir().unwrap();
    let before = small_book(dir.path(), "r.egbk3");
    let path = dir.path().join("r.egbk3");
    let mut permissions = std::fs::metadata(&path).unwrap().permissions();
    permissions.set_readonly(true);
    std::fs::set_permissions(&path, permissions).unwrap();
    // Level 30 to depth 50 would search for hours: a refusal within seconds came before any search. The permissions
    // decide, so this holds for an administrator too.
    let slow = ["--level", "30", "--depth", "50", "--threads", "1", "--save-every", "0"];
    let started = Instant::now();
    let output = cli(&[&["book", "deviate", "r.egbk3"][..], &slow].concat(), dir.path());
    let said = stderr_of(&output);
    assert_eq!(output.status.code(), Some(2), "{said}");
    assert!(said.contains("cannot save r.egbk3") && said.contains("read-only"), "{said}");
    assert!(started.elapsed() < Duration::from_secs(30), "refused at the start: {said}");
    assert_eq!(std::fs::read(&path).unwrap(), before);
    assert!(!dir.path().join("r.egbk3.bak").exists());

    std::fs::create_dir(dir.path().join("folder.egbk3")).unwrap();
    let output = cli(&[&["book", "deviate", "r.egbk3", "--out", "folder.egbk3"][..], &slow].concat(), dir.path());
    let said = stderr_of(&output);
    assert_eq!(output.status.code(), Some(2), "{said}");
    assert!(said.contains("cannot save folder.egbk3") && said.contains("it is a folder, not a regular file"), "{said}");
    assert!(dir.path().join("folder.egbk3").is_dir());
}

/// The rescue files in `dir`.
fn rescues(dir: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with("m.rescue-"))
        .collect();
    found.sort();
    found
}

#[cfg(unix)]
#[test]
fn a_deviate_whose_destination_fails_mid_run_keeps_its_work_in_a_rescue_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("m.egbk3");
    // Saves after every loop. The destination is replaced by a folder after the first save: saving over a folder fails
    // whatever the user's rights (a read-only folder would not stop an administrator, and tests may run as one).
    let args = ["book", "deviate", "m.egbk3", "--level", "4", "--depth", "40", "--threads", "1", "--save-every", "0"];
    let mut run = Running::start(&args, dir.path());
    run.wait_for("a first save", Duration::from_secs(120), |run| run.said().contains("saved "));
    let first_save = load(&path).len();
    // A save may rename a new file in between the two steps: then again.
    while !path.is_dir() {
        let _ = std::fs::remove_file(&path);
        let _ = std::fs::create_dir(&path);
    }
    run.wait_for("a failed save", Duration::from_secs(300), |run| {
        run.said().contains("the book stays in memory; the next save tries again")
    });
    // It goes on after the failed save: later save points fail too, and the work of the run is still in memory.
    let (code, said) = run.terminate();
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains("m.egbk3 was not saved: the book of this run"), "{said}");
    let rescue = rescues(dir.path());
    assert_eq!(rescue.len(), 1, "{said}");
    let name = rescue[0].file_name().unwrap().to_string_lossy();
    assert!(said.contains(&format!("was written to {name} instead")), "{said}");
    let rescued = load(&rescue[0]);
    assert!(rescued.len() > first_save, "{first_save} positions saved, {} rescued: {said}", rescued.len());
    assert!(path.is_dir(), "the folder in the way is left alone");
}

#[test]
fn a_long_runs_bak_is_the_book_before_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let before = small_book(dir.path(), "k.egbk3");
    // Saves after every loop that adds something, then at the end.
    let args = ["book", "deviate", "k.egbk3", "--level", "1", "--depth", "8", "--threads", "1", "--save-every", "0"];
    let output = cli(&[&args[..], &["--max-loops", "3"]].concat(), dir.path());
    let said = stderr_of(&output);
    assert!(output.status.success(), "{said}");
    assert!(said.matches("saved k.egbk3").count() >= 2, "several autosaves: {said}");
    assert_ne!(std::fs::read(dir.path().join("k.egbk3")).unwrap(), before);
    assert_eq!(std::fs::read(dir.path().join("k.egbk3.bak")).unwrap(), before, "the .bak is the book before the run");
}

#[cfg(target_os = "linux")]
#[test]
fn leftovers_of_an_interrupted_save_are_removed_and_said() {
    let dir = tempfile::tempdir().unwrap();
    let _ = small_book(dir.path(), "e.egbk3");
    // A save killed part-way by a process that is gone (a process id above Linux's largest), an hour ago.
    let leftover = dir.path().join(".e.egbk3.tmp-4000000000-3-12345");
    std::fs::write(&leftover, b"half a book").unwrap();
    let file = std::fs::File::options().write(true).open(&leftover).unwrap();
    file.set_modified(std::time::SystemTime::now() - Duration::from_secs(3600)).unwrap();
    drop(file);
    let output = cli(&["book", "edit", "e.egbk3", "--move", "f5", "--value", "2"], dir.path());
    let said = stderr_of(&output);
    assert!(output.status.success(), "{said}");
    assert!(said.contains("removed 1 leftover temporary file of an interrupted save"), "{said}");
    assert!(!leftover.exists());
}
