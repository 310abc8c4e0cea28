//! `shirokuro-cli book bench-control`: how often loading, merging (and saving) a book report progress, and how soon
//! they return once their stop flag is set.
//!
//! Each operation runs with a [`Control`] whose progress callback only records the time; the gaps are measured from
//! the call to the first report, between reports, and from the last report to the return. With `--stop-after-ms`,
//! each operation runs once more while another thread sets the stop flag after that many milliseconds; the time from
//! the flag to the return is printed.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use shirokuro_engine::book::file::ReadOptions;
use shirokuro_engine::book::ops::{Control, Progress};
use shirokuro_engine::book::{Book, BookError, BookFormat, MergeReport, load_with, save_with};

/// One run of an operation under a [`Control`].
struct Measured<T> {
    result: T,
    /// The call, every progress report, and the return.
    times: Vec<Instant>,
    /// When the stop flag was set, if it was set before the operation returned.
    stop_set: Option<Instant>,
}

impl<T> Measured<T> {
    fn elapsed_ms(&self) -> f64 {
        match (self.times.first(), self.times.last()) {
            (Some(first), Some(last)) => ms(last.duration_since(*first)),
            _ => 0.0,
        }
    }

    /// The gaps between consecutive times, sorted.
    fn gaps(&self) -> Vec<Duration> {
        let mut gaps: Vec<Duration> = self.times.windows(2).map(|w| w[1].duration_since(w[0])).collect();
        gaps.sort_unstable();
        gaps
    }

    /// "N reports, largest gap X ms, median gap Y ms".
    fn gap_summary(&self) -> String {
        let gaps = self.gaps();
        let largest = gaps.last().copied().unwrap_or_default();
        let median = gaps.get(gaps.len() / 2).copied().unwrap_or_default();
        format!(
            "{} reports, largest gap {:.1} ms, median gap {:.1} ms",
            self.times.len().saturating_sub(2),
            ms(largest),
            ms(median)
        )
    }

    /// How long the operation took to return after the stop flag was set, or why it was not measured.
    fn stop_summary(&self) -> String {
        match (self.stop_set, self.times.last()) {
            (Some(set), Some(end)) => format!("returned {:.1} ms after the stop flag", ms(end.duration_since(set))),
            _ => format!("finished in {:.1} ms, before the stop flag", self.elapsed_ms()),
        }
    }
}

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}

/// Runs `op` with a control that records the time of every report; with `stop_after`, another thread sets the stop
/// flag that long after the call unless the operation returned first.
fn measure<T: Send>(stop_after: Option<Duration>, op: impl FnOnce(&Control<'_>) -> T + Send) -> Measured<T> {
    let stop = AtomicBool::new(false);
    let finished = AtomicBool::new(false);
    let reports = Mutex::new(Vec::with_capacity(4096));
    let stop_set = Mutex::new(None);
    let record = |_: Progress| reports.lock().unwrap_or_else(PoisonError::into_inner).push(Instant::now());
    let start = Instant::now();
    let (result, end) = thread::scope(|scope| {
        if let Some(after) = stop_after {
            let deadline = start + after;
            let (stop, finished, stop_set) = (&stop, &finished, &stop_set);
            let _stopper = scope.spawn(move || {
                while !finished.load(Ordering::SeqCst) {
                    let now = Instant::now();
                    if now >= deadline {
                        *stop_set.lock().unwrap_or_else(PoisonError::into_inner) = Some(Instant::now());
                        stop.store(true, Ordering::SeqCst);
                        return;
                    }
                    thread::sleep((deadline - now).min(Duration::from_micros(200)));
                }
            });
        }
        let result = op(&Control { stop: &stop, progress: &record });
        let end = Instant::now();
        finished.store(true, Ordering::SeqCst);
        (result, end)
    });
    let mut times = vec![start];
    times.extend(reports.into_inner().unwrap_or_else(PoisonError::into_inner));
    times.push(end);
    let stop_set = stop_set.into_inner().unwrap_or_else(PoisonError::into_inner).filter(|set| *set <= end);
    Measured { result, times, stop_set }
}

fn load(path: &Path, control: &Control<'_>) -> Result<Book, BookError> {
    load_with(path, None, ReadOptions::default(), control).map(|(book, _)| book)
}

/// Loads `first` and `second` and merges `second` into `first` (and saves the result to `out`), printing the gaps
/// between progress reports; with `stop_after`, runs each again with a stop after that long.
pub(super) fn run(first: &Path, second: &Path, out: Option<&Path>, stop_after: Option<Duration>) -> Result<(), String> {
    let loaded = measure(None, |c| load(first, c));
    let book = loaded.result.as_ref().map_err(ToString::to_string)?;
    outln!(
        "load {}: {} positions in {:.1} ms; {}",
        first.display(),
        book.len(),
        loaded.elapsed_ms(),
        loaded.gap_summary()
    );
    let loaded_other = measure(None, |c| load(second, c));
    let other = loaded_other.result.as_ref().map_err(ToString::to_string)?;
    outln!(
        "load {}: {} positions in {:.1} ms; {}",
        second.display(),
        other.len(),
        loaded_other.elapsed_ms(),
        loaded_other.gap_summary()
    );
    let mut merged = book.clone();
    let merge = measure(None, |c| merged.merge_with(other, c));
    outln!(
        "merge: {} positions in, {} new, {} in all, in {:.1} ms; {}",
        merge.result.merged,
        merge.result.added,
        merged.len(),
        merge.elapsed_ms(),
        merge.gap_summary()
    );
    if let Some(out) = out {
        let saved = measure(None, |c| save_with(&merged, out, BookFormat::Egbk3, c));
        if let Err(error) = &saved.result {
            return Err(error.to_string());
        }
        outln!("save {}: {:.1} ms; {}", out.display(), saved.elapsed_ms(), saved.gap_summary());
    }
    let Some(after) = stop_after else { return Ok(()) };
    let label = format!("stop after {} ms", after.as_millis());
    let stopped_load = measure(Some(after), |c| load(first, c));
    let outcome = match &stopped_load.result {
        Ok(book) => format!("loaded all {} positions", book.len()),
        Err(BookError::Stopped { .. }) => "stopped (BookError::Stopped, no book)".to_owned(),
        Err(error) => return Err(error.to_string()),
    };
    outln!("{label}: load {}: {outcome}; {}", first.display(), stopped_load.stop_summary());
    let mut partial = book.clone();
    let stopped_merge = measure(Some(after), |c| partial.merge_with(other, c));
    let MergeReport { merged: done, stopped, .. } = stopped_merge.result;
    let outcome = if stopped { "stopped" } else { "finished" };
    outln!(
        "{label}: merge: {outcome} with {done} of {} positions merged ({} in the book); {}",
        other.len(),
        partial.len(),
        stopped_merge.stop_summary()
    );
    if let Some(out) = out {
        let before = std::fs::read(out).ok();
        let stopped_save = measure(Some(after), |c| save_with(&merged, out, BookFormat::Egbk3, c));
        let outcome = match &stopped_save.result {
            Ok(()) => "finished".to_owned(),
            Err(BookError::Stopped { .. }) => {
                let untouched = std::fs::read(out).ok() == before;
                format!("stopped (BookError::Stopped), previous file untouched: {untouched}")
            }
            Err(error) => return Err(error.to_string()),
        };
        outln!("{label}: save {}: {outcome}; {}", out.display(), stopped_save.stop_summary());
    }
    Ok(())
}
