//! Stopping a long command that keeps its files whole at every moment (an archive import, growing the self-play
//! corpus) by a signal: Ctrl-C (SIGINT), and on Unix SIGTERM and SIGHUP, raise the command's stop flag; it ends
//! cleanly and exits with 128 + the signal's number. A second signal quits at once, which such a command survives (the
//! archive's transaction is rolled back from its journal, the corpus drops a half-written game when it next runs).
//! Modelled on the book commands' `book/signals.rs`, which save at the end instead.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize};

/// Exit status after a stop by a signal (0 stands for "no signal": then 130, as for Ctrl-C).
pub fn exit_status(signal: usize) -> u8 {
    let signal = if signal == 0 { 2 } else { signal };
    u8::try_from(signal.saturating_add(128)).unwrap_or(1)
}

/// Makes the signals raise `stop` (`what` names the consequence of a signal if they cannot); returns where the number of the signal that did is recorded.
#[cfg(unix)]
pub fn stop_on_signals(stop: Arc<AtomicBool>, what: &'static str) -> Arc<AtomicUsize> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    use signal_hook::flag;
    let which = Arc::new(AtomicUsize::new(0));
    for signal in [SIGINT, SIGTERM, SIGHUP] {
        let number = usize::try_from(signal).unwrap_or(0);
        // A second signal, with the flag already up, ends the program at once.
        let registered = flag::register_conditional_shutdown(signal, i32::from(exit_status(number)), Arc::clone(&stop))
            .and_then(|_| flag::register_usize(signal, Arc::clone(&which), number))
            .and_then(|_| flag::register(signal, Arc::clone(&stop)));
        if let Err(error) = registered {
            errln!("warning: a signal will kill {what}: {error}");
        }
    }
    which
}

/// Makes Ctrl-C raise `stop` (other signals are not caught here).
#[cfg(not(unix))]
pub fn stop_on_signals(stop: Arc<AtomicBool>, what: &'static str) -> Arc<AtomicUsize> {
    use std::sync::atomic::Ordering;
    let which = Arc::new(AtomicUsize::new(0));
    let seen = Arc::clone(&which);
    let handler = move || {
        if stop.load(Ordering::SeqCst) {
            std::process::exit(i32::from(exit_status(2)));
        }
        seen.store(2, Ordering::SeqCst);
        stop.store(true, Ordering::SeqCst);
    };
    if let Err(error) = ctrlc::set_handler(handler) {
        errln!("warning: Ctrl-C will kill {what}: {error}");
    }
    which
}
