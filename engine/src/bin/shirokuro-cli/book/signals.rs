//! Stopping the long book commands by a signal: Ctrl-C (SIGINT), and on Unix SIGTERM and SIGHUP, set the
//! operation's stop flag, so it ends between searches and saves; the command then exits with 128 + the signal's number.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

/// Exit status after a stop by a signal: 128 + its number, as a shell reports a process killed by it (130 for
/// Ctrl-C, 143 for SIGTERM, 129 for SIGHUP).
pub fn exit_status(signal: i32) -> u8 {
    u8::try_from(128 + signal).unwrap_or(1)
}

/// Makes Ctrl-C (SIGINT), and on Unix SIGTERM and SIGHUP (a batch system's stop, a closed terminal), set `stop` and
/// record the signal in `signal`: the operation ends at its next check (between searches) and the command saves what
/// it did. A second signal quits at once; the file on disk is then the last complete save (saves are atomic).
#[cfg(unix)]
pub fn stop_on_signals(stop: Arc<AtomicBool>, signal: Arc<AtomicI32>) {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = match signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) {
        Ok(signals) => signals,
        Err(error) => {
            errln!("warning: a signal will kill the command without saving: {error}");
            return;
        }
    };
    let name = |s: i32| match s {
        SIGINT => "Ctrl-C",
        SIGTERM => "SIGTERM",
        _ => "SIGHUP",
    };
    let watcher = std::thread::Builder::new().name("signals".to_owned()).spawn(move || {
        for s in signals.forever() {
            if stop.load(Ordering::SeqCst) {
                errln!("\n{}: quitting without saving (the book file holds the last complete save)", name(s));
                std::process::exit(i32::from(exit_status(s)));
            }
            // The signal first, so that whoever sees the stop also sees which signal it was.
            signal.store(s, Ordering::SeqCst);
            stop.store(true, Ordering::SeqCst);
            errln!(
                "\n{}: stopping after the searches under way, then saving (a second signal quits without saving)",
                name(s)
            );
        }
    });
    if let Err(error) = watcher {
        errln!("warning: a signal will kill the command without saving: {error}");
    }
}

/// Makes Ctrl-C set `stop` (see the Unix version; other signals are not caught here).
#[cfg(not(unix))]
pub fn stop_on_signals(stop: Arc<AtomicBool>, signal: Arc<AtomicI32>) {
    const SIGINT: i32 = 2;
    let handler = move || {
        if stop.load(Ordering::SeqCst) {
            errln!("\nCtrl-C again: quitting without saving (the book file holds the last complete save)");
            std::process::exit(i32::from(exit_status(SIGINT)));
        }
        signal.store(SIGINT, Ordering::SeqCst);
        stop.store(true, Ordering::SeqCst);
        errln!("\nCtrl-C: stopping after the searches under way, then saving (Ctrl-C again quits without saving)");
    };
    if let Err(error) = ctrlc::set_handler(handler) {
        errln!("warning: Ctrl-C will kill the command without saving: {error}");
    }
}
