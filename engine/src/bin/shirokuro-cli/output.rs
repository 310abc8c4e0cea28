//! Output that never aborts: `shirokuro-cli perft 3 | head -1` or a `book deviate` whose log pipe closes. Rust's
//! print macros panic when stdout or stderr is a closed pipe; the command's macros (`out!`, `outln!`, `err!`, `errln!`)
//! write through here instead. A closed pipe is remembered, the output that follows is dropped, a long command that
//! registered its stop flag stops (and saves) as on Ctrl-C, and the program ends with 141 (128 + SIGPIPE), as a
//! program killed by the pipe would.

use std::fmt;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

/// Exit status after a closed output: 128 + SIGPIPE (13).
pub const EXIT_CLOSED: u8 = 141;

static CLOSED: AtomicBool = AtomicBool::new(false);
static STOP: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// Whether stdout or stderr was found closed.
pub fn closed() -> bool {
    CLOSED.load(Ordering::SeqCst)
}

/// Makes a closed output set `stop`, so that the long work under way ends at its next check and saves.
pub fn stop_when_closed(stop: Arc<AtomicBool>) {
    let _first = STOP.set(stop);
}

/// Writes to stdout (what `out!` and `outln!` expand to).
pub fn to_stdout(args: fmt::Arguments<'_>) {
    write_or_note(io::stdout().lock(), args);
}

/// Writes to stderr (what `err!` and `errln!` expand to).
pub fn to_stderr(args: fmt::Arguments<'_>) {
    write_or_note(io::stderr().lock(), args);
}

fn write_or_note(mut stream: impl Write, args: fmt::Arguments<'_>) {
    if closed() {
        return;
    }
    if let Err(error) = stream.write_fmt(args).and_then(|()| stream.flush())
        && error.kind() == io::ErrorKind::BrokenPipe
    {
        CLOSED.store(true, Ordering::SeqCst);
        if let Some(stop) = STOP.get() {
            stop.store(true, Ordering::SeqCst);
        }
    }
}
