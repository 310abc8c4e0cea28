//! The temporary files of [`save`](super::save) and the removal of those that a killed save left behind.
//!
//! A save writes `.<name>.tmp-<pid>-<call>-<nanos>` next to the file (`pid` the saving process, `call` a counter of
//! that process, `nanos` the clock's nanoseconds) and renames it over the file; a kill between the two leaves it, as
//! large as the file. The next save of the same file removes such leftovers when their process is gone: on Linux when
//! `/proc/<pid>` is missing (and the file has not changed for [`QUIET_DEAD`], in case a process of another machine
//! or container sharing the folder is writing it); where processes cannot be looked up, only files untouched for
//! [`QUIET_UNKNOWN`]. Nothing else is touched: only names of this pattern for this very file.

use std::ffi::{OsStr, OsString};
use std::fs;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// How long a leftover of a process that is gone must have been untouched before it is removed.
pub const QUIET_DEAD: Duration = Duration::from_secs(60);

/// How long a leftover must have been untouched before it is removed where processes cannot be looked up.
pub const QUIET_UNKNOWN: Duration = Duration::from_secs(24 * 60 * 60);

/// A new temporary name for a save of the file `name`, unique per process and call: `.<name>.tmp-<pid>-<call>-<nanos>`.
#[must_use]
pub fn temporary_name(name: &OsStr) -> OsString {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let call = COUNTER.fetch_add(1, Ordering::Relaxed);
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
    let mut tmp = OsString::from(".");
    tmp.push(name);
    tmp.push(format!(".tmp-{}-{call}-{nanos}", std::process::id()));
    tmp
}

/// The process id in `file` when it is a temporary name of a save of `name` (`.<name>.tmp-<pid>-<call>-<nanos>`, each
/// number in decimal digits).
#[must_use]
pub fn temporary_pid(file: &OsStr, name: &OsStr) -> Option<u32> {
    let rest = file.as_encoded_bytes().strip_prefix(b".")?;
    let rest = rest.strip_prefix(name.as_encoded_bytes())?;
    let rest = rest.strip_prefix(b".tmp-")?;
    let mut numbers = rest.split(|&b| b == b'-');
    let pid = numbers.next()?;
    let all_digits = |part: &[u8]| !part.is_empty() && part.iter().all(u8::is_ascii_digit);
    let (call, nanos) = (numbers.next()?, numbers.next()?);
    if numbers.next().is_some() || ![pid, call, nanos].into_iter().all(all_digits) {
        return None;
    }
    std::str::from_utf8(pid).ok()?.parse().ok()
}

/// Whether a process is running, as far as this system can tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Process {
    /// It is running (or it is this process).
    Running,
    /// It is gone.
    Gone,
    /// This system cannot tell.
    Unknown,
}

/// Whether process `pid` runs: this process does; on Linux `/proc/<pid>` tells; elsewhere it is unknown.
#[must_use]
pub fn process(pid: u32) -> Process {
    if pid == std::process::id() {
        return Process::Running;
    }
    if cfg!(target_os = "linux") && Path::new("/proc/self").exists() {
        return if Path::new("/proc").join(pid.to_string()).exists() { Process::Running } else { Process::Gone };
    }
    Process::Unknown
}

/// Removes the leftovers of killed saves of the file `name` in `dir` (see the [module docs](self)); the number
/// removed. Best effort: a folder or file that cannot be read or removed is left as it is.
pub fn remove(dir: &Path, name: &OsStr) -> usize {
    let Ok(entries) = fs::read_dir(dir) else { return 0 };
    let now = SystemTime::now();
    let mut removed = 0;
    for entry in entries.flatten() {
        let Some(pid) = temporary_pid(&entry.file_name(), name) else { continue };
        // Not followed: a link or folder of that name is nobody's temporary file.
        let Ok(meta) = entry.metadata() else { continue };
        if !meta.is_file() {
            continue;
        }
        let quiet = meta.modified().ok().and_then(|modified| now.duration_since(modified).ok()).unwrap_or_default();
        let stale = match process(pid) {
            Process::Running => false,
            Process::Gone => quiet >= QUIET_DEAD,
            Process::Unknown => quiet >= QUIET_UNKNOWN,
        };
        if stale && fs::remove_file(entry.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}
