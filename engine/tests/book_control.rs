//! Progress and stop of the bulk book operations (load, save, merge, reduce): progress never goes back and ends at its
//! total, and a stop returns at the very next check — no report comes after the one that set the flag — with a result
//! that says it was stopped and leaves everything consistent.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use shirokuro_engine::book::edax::WriteOptions;
use shirokuro_engine::book::file::{ReadOptions, save_edax_with};
use shirokuro_engine::book::ops::{self, Control, Progress, REPORT_EVERY, Stage, Walk};
use shirokuro_engine::book::{Book, BookError, BookFormat, Entry, book_child, legal_moves, load_with, save, save_with};
use shirokuro_engine::{Board, Move};

mod book_common;

/// What a controlled run gave: its result, every report, and the index of the report whose callback set the stop flag
/// (`Some(0)` … ; `None` if it was never set there).
struct Run<T> {
    result: T,
    reports: Vec<Progress>,
    stopped_at: Option<usize>,
}

impl<T> Run<T> {
    /// The stop was honoured at the first check after it was set: no report followed the one that set it.
    fn assert_prompt(&self) {
        let at = self.stopped_at.expect("the stop flag was set from a report");
        assert_eq!(self.reports.len(), at + 1, "reports after the stop: {:?}", &self.reports[at..]);
    }
}

/// Runs `op` with a control whose stop flag starts as `preset` and is set from the progress callback when
/// `stop_when(index of the report, report)` is true.
fn controlled<T>(
    preset: bool,
    stop_when: impl Fn(usize, &Progress) -> bool + Sync,
    op: impl FnOnce(&Control<'_>) -> T,
) -> Run<T> {
    let stop = AtomicBool::new(preset);
    let reports = Mutex::new(Vec::new());
    let stopped_at = Mutex::new(None);
    let progress = |p: Progress| {
        let mut reports = reports.lock().unwrap();
        reports.push(p);
        if !stop.load(Ordering::SeqCst) && stop_when(reports.len() - 1, &p) {
            stop.store(true, Ordering::SeqCst);
            *stopped_at.lock().unwrap() = Some(reports.len() - 1);
        }
    };
    let result = op(&Control { stop: &stop, progress: &progress });
    Run { result, reports: reports.into_inner().unwrap(), stopped_at: stopped_at.into_inner().unwrap() }
}

fn never(_: usize, _: &Progress) -> bool {
    false
}

/// Within each stage, `done` and `total` never decrease and `done <= total`; the last report of each stage in
/// `stages` (which must all appear) is `done == total`.
fn assert_monotonic_to_the_end(reports: &[Progress], stages: &[Stage]) {
    for stage in stages {
        let of_stage: Vec<&Progress> = reports.iter().filter(|p| p.stage == *stage).collect();
        assert!(of_stage.len() >= 2, "{stage}: {} reports", of_stage.len());
        for pair in of_stage.windows(2) {
            assert!(pair[1].done >= pair[0].done && pair[1].total >= pair[0].total, "{stage}: {pair:?}");
        }
        assert!(of_stage.iter().all(|p| p.done <= p.total), "{stage}: done past the total");
        let last = of_stage.last().unwrap();
        assert!(last.total > 0 && last.done == last.total, "{stage}: ends at {last:?}");
    }
    assert!(reports.iter().all(|p| stages.contains(&p.stage)), "unexpected stage in {reports:?}");
}

/// Every (canonical board, entry) in a fixed order, to compare books.
fn entries(book: &Book) -> Vec<(u64, u64, Entry)> {
    let mut all: Vec<_> = book.iter().map(|(b, e)| (b.player.0, b.opponent.0, e)).collect();
    all.sort_unstable_by_key(|(p, o, _)| (*p, *o));
    all
}

/// A fresh directory for one test.
fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shirokuro-book-control-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    names
}

/// A book of every position along seeded random games of `plies` moves from the initial position (so all of them are
/// reachable over links), with random values and levels.
fn connected_book(seed: u64, games: usize, plies: usize) -> Book {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut book = Book::new();
    let _ = book.insert(&Board::INITIAL, Entry::new(0, 20));
    for _ in 0..games {
        let mut board = Board::INITIAL;
        for _ in 0..plies {
            let moves: Vec<Move> = legal_moves(&board).collect();
            if moves.is_empty() {
                break;
            }
            let Some((child, _)) = book_child(&board, moves[rng.random_range(0..moves.len())]) else { break };
            if !child.has_moves() {
                break;
            }
            if !book.contains(&child) {
                let _ = book.insert(&child, Entry::new(rng.random_range(-8..=8), rng.random_range(1..=30)));
            }
            board = child;
        }
    }
    book
}

#[test]
fn loads_report_the_read_then_the_records_up_to_their_totals() {
    let dir = temp_dir("load-progress");
    let book = book_common::random_book(1, 5_000);
    for format in [BookFormat::Egbk3, BookFormat::Edax] {
        let path = dir.join(format!("book.{format}"));
        save(&book, &path, format).unwrap();
        let run = controlled(false, never, |c| load_with(&path, None, ReadOptions::default(), c));
        let (loaded, found) = run.result.unwrap();
        assert_eq!((found, loaded.len()), (format, book.len()));
        assert_monotonic_to_the_end(&run.reports, &[Stage::Read, Stage::Load]);
        let size = std::fs::metadata(&path).unwrap().len();
        assert_eq!(run.reports.iter().rfind(|p| p.stage == Stage::Read).unwrap().total, size);
        // Records of the file: every position (Edax adds the positions before a pass).
        assert!(run.reports.last().unwrap().total >= book.len() as u64);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_stopped_load_returns_stopped_and_no_book() {
    let dir = temp_dir("load-stop");
    let book = book_common::random_book(2, 5_000);
    for format in [BookFormat::Egbk3, BookFormat::Edax] {
        let path = dir.join(format!("book.{format}"));
        save(&book, &path, format).unwrap();
        let load = |c: &Control<'_>| load_with(&path, Some(format), ReadOptions::default(), c);
        let before = controlled(true, never, load);
        assert!(
            matches!(before.result, Err(BookError::Stopped { ref path }) if path.ends_with(format!("book.{format}")))
        );
        for stage in [Stage::Read, Stage::Load] {
            let run = controlled(false, |_, p| p.stage == stage, load);
            assert!(matches!(run.result, Err(BookError::Stopped { .. })), "{format} stopped at {stage}");
            run.assert_prompt();
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn saves_report_progress_up_to_their_totals() {
    let dir = temp_dir("save-progress");
    let book = book_common::random_book(3, 5_000);
    let egbk3 = dir.join("book.egbk3");
    let run = controlled(false, never, |c| save_with(&book, &egbk3, BookFormat::Egbk3, c));
    run.result.unwrap();
    assert_monotonic_to_the_end(&run.reports, &[Stage::Save]);
    assert_eq!(run.reports.last().unwrap().total, book.len() as u64);
    let dat = dir.join("book.dat");
    let run = controlled(false, never, |c| save_edax_with(&book, &dat, &WriteOptions::default(), c));
    run.result.unwrap();
    assert_monotonic_to_the_end(&run.reports, &[Stage::Save]);
    assert_eq!(run.reports.last().unwrap().total, 2 * book.len() as u64);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_stopped_save_leaves_the_previous_file_and_no_temporary_file() {
    let dir = temp_dir("save-stop");
    let old = book_common::random_book(4, 300);
    let new = book_common::random_book(5, 80_000);
    let egbk3 = dir.join("book.egbk3");
    let dat = dir.join("book.dat");
    save(&old, &egbk3, BookFormat::Egbk3).unwrap();
    save(&old, &dat, BookFormat::Edax).unwrap();
    let (old_egbk3, old_dat) = (std::fs::read(&egbk3).unwrap(), std::fs::read(&dat).unwrap());
    // Before the call, at the first report, and (egbk3) after the first of two chunks of records was written.
    for (preset, report) in [(true, usize::MAX), (false, 0), (false, 3)] {
        let stop_when = move |i: usize, _: &Progress| i == report;
        let run = controlled(preset, stop_when, |c| save_with(&new, &egbk3, BookFormat::Egbk3, c));
        assert!(matches!(run.result, Err(BookError::Stopped { .. })), "egbk3 stopped at report {report}");
        let run = controlled(preset, stop_when, |c| save_edax_with(&new, &dat, &WriteOptions::default(), c));
        assert!(matches!(run.result, Err(BookError::Stopped { .. })), "edax stopped at report {report}");
        if !preset {
            run.assert_prompt();
        }
        assert_eq!(std::fs::read(&egbk3).unwrap(), old_egbk3);
        assert_eq!(std::fs::read(&dat).unwrap(), old_dat);
        // No temporary file, and no backup: the previous file was never replaced.
        assert_eq!(files_in(&dir), ["book.dat", "book.egbk3"]);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn merge_reports_each_position_twice_up_to_the_total() {
    let (a, b) = (book_common::random_book(6, 20_000), book_common::random_book(7, 40_000));
    let mut expected = a.clone();
    expected.merge(&b);
    let mut merged = a.clone();
    let run = controlled(false, never, |c| merged.merge_with(&b, c));
    assert_eq!(run.result.merged, b.len() as u64);
    assert!(!run.result.stopped);
    assert_eq!(run.result.added, (expected.len() - a.len()) as u64);
    assert_monotonic_to_the_end(&run.reports, &[Stage::Merge]);
    assert_eq!(run.reports.last().unwrap().total, 2 * b.len() as u64);
    assert!(run.reports.len() >= 4, "{} reports for 40 000 positions", run.reports.len());
    assert_eq!(entries(&merged), entries(&expected));
}

#[test]
fn a_stopped_merge_keeps_what_it_merged_and_resuming_completes_it() {
    let (a, b) = (book_common::random_book(8, 20_000), book_common::random_book(9, 40_000));
    let mut expected = a.clone();
    expected.merge(&b);

    let mut untouched = a.clone();
    let run = controlled(true, never, |c| untouched.merge_with(&b, c));
    assert!(run.result.stopped);
    assert_eq!((run.result.merged, run.result.added), (0, 0));
    assert_eq!(entries(&untouched), entries(&a));

    // Stopped while checking for room: nothing merged yet.
    let mut checking = a.clone();
    let run = controlled(false, |_, p| p.done > 0, |c| checking.merge_with(&b, c));
    run.assert_prompt();
    assert!(run.result.stopped && run.result.merged == 0);
    assert_eq!(entries(&checking), entries(&a));

    // Stopped while the table grows for the new positions (reported at the done of the check, which ended on its
    // first report of that done): the book stays as it was.
    let positions = b.len() as u64;
    let seen_at_end_of_check = AtomicUsize::new(0);
    let mut growing = a.clone();
    let stop_when =
        |_: usize, p: &Progress| p.done == positions && seen_at_end_of_check.fetch_add(1, Ordering::SeqCst) == 1;
    let run = controlled(false, stop_when, |c| growing.merge_with(&b, c));
    run.assert_prompt();
    assert!(run.result.stopped && run.result.merged == 0);
    assert_eq!(entries(&growing), entries(&a));
    assert_eq!(growing.memory_bytes(), a.memory_bytes(), "the table did not grow");

    // Stopped while merging: the first positions of `b` are in, whole, and the rest can be merged later.
    let mut partial = a.clone();
    let run = controlled(false, |_, p| p.done > positions, |c| partial.merge_with(&b, c));
    run.assert_prompt();
    let report = run.result;
    assert!(report.stopped);
    assert_eq!(report.merged, REPORT_EVERY);
    assert_eq!(partial.len() as u64, a.len() as u64 + report.added);
    for (board, _) in b.iter().take(usize::try_from(report.merged).unwrap()) {
        assert_eq!(partial.get_canonical(&board), expected.get_canonical(&board));
    }
    assert!(partial.len() < expected.len());
    partial.merge(&b);
    assert_eq!(entries(&partial), entries(&expected));
}

#[test]
fn reduce_reports_its_walks_up_to_the_total_and_matches_the_uncontrolled_one() {
    let book = connected_book(10, 3_000, 24);
    assert!(book.len() > 2 * REPORT_EVERY as usize, "{} positions", book.len());
    let walk = Walk { depth: 12, ..Walk::UNLIMITED };
    let mut expected = book.clone();
    let plain = ops::reduce(&mut expected, &Board::INITIAL, walk);
    assert!(plain.kept > 0 && plain.deleted > 0, "{plain:?}");
    let mut reduced = book.clone();
    let run = controlled(false, never, |c| ops::reduce_with(&mut reduced, &Board::INITIAL, walk, c));
    assert_eq!(run.result, plain);
    assert_monotonic_to_the_end(&run.reports, &[Stage::Reduce]);
    assert_eq!(run.reports.last().unwrap().total, book.len() as u64);
    assert_eq!(entries(&reduced), entries(&expected));
}

#[test]
fn a_stopped_reduce_leaves_the_book_unchanged() {
    let book = connected_book(11, 3_000, 24);
    let walk = Walk { depth: 12, ..Walk::UNLIMITED };
    for (preset, report) in [(true, usize::MAX), (false, 0), (false, 1)] {
        let mut reduced = book.clone();
        let run = controlled(preset, |i, _| i == report, |c| ops::reduce_with(&mut reduced, &Board::INITIAL, walk, c));
        assert!(run.result.stopped, "stopped at report {report}");
        assert_eq!((run.result.kept, run.result.deleted), (0, 0));
        if !preset {
            run.assert_prompt();
        }
        assert_eq!(entries(&reduced), entries(&book));
    }
}
