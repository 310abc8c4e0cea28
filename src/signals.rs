//! The system's requests to end the app: SIGTERM, SIGHUP and SIGINT (a logout, `kill`, Ctrl-C in the terminal that
//! started it) become one message, handled as a click on the window's close button: the app finishes what it must save
//! first (see `App`'s close handling).

use iced::Subscription;
use iced::futures::Stream;
use iced::futures::channel::mpsc::unbounded;

/// One `()` per signal.
pub fn subscription() -> Subscription<()> {
    Subscription::run(listen)
}

fn listen() -> impl Stream<Item = ()> {
    let (sender, receiver) = unbounded();
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        match signal_hook::iterator::Signals::new([SIGTERM, SIGHUP, SIGINT]) {
            Ok(mut signals) => {
                let watcher = std::thread::Builder::new().name("shirokuro-signals".to_owned()).spawn(move || {
                    for _signal in signals.forever() {
                        if sender.unbounded_send(()).is_err() {
                            return;
                        }
                    }
                });
                if let Err(error) = watcher {
                    tracing::warn!("signals end the app without saving: {error}");
                }
            }
            Err(error) => tracing::warn!("signals end the app without saving: {error}"),
        }
    }
    #[cfg(not(unix))]
    drop(sender);
    receiver
}
