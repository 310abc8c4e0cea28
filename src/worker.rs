//! The scaffold both background workers (the engine's and the book's) stand on: one named OS thread per worker, a
//! command channel into it and an event stream out of it, as an iced subscription.
//!
//! A worker's body gets an [`Outbox`] for its events and the receiving end of its commands; its first event is
//! usually a handle holding the command sender. The stream ends when the thread does.

use std::hash::Hash;
use std::sync::mpsc::{Receiver, Sender};

use iced::Subscription;
use iced::futures::Stream;
use iced::futures::channel::mpsc::{UnboundedReceiver, UnboundedSender, unbounded};

/// The worker's end of its event stream.
#[derive(Debug)]
pub struct Outbox<E> {
    events: UnboundedSender<E>,
}

impl<E> Clone for Outbox<E> {
    fn clone(&self) -> Outbox<E> {
        Outbox { events: self.events.clone() }
    }
}

impl<E> Outbox<E> {
    /// Sends an event; `false` once the app has dropped the stream (the worker should then end).
    pub fn emit(&self, event: E) -> bool {
        self.events.unbounded_send(event).is_ok()
    }
}

/// Starts a worker thread named `name` running `body` with its outbox and command inbox; returns the command sender
/// and the event stream. When the thread cannot be started the stream simply ends (and the error is logged).
pub fn spawn<C, E>(
    name: &str,
    body: impl FnOnce(Outbox<E>, Sender<C>, Receiver<C>) + Send + 'static,
) -> UnboundedReceiver<E>
where
    C: Send + 'static,
    E: Send + 'static,
{
    let (events, stream) = unbounded();
    let (commands, inbox) = std::sync::mpsc::channel();
    let outbox = Outbox { events };
    let spawned = std::thread::Builder::new().name(name.to_owned()).spawn(move || body(outbox, commands, inbox));
    if let Err(error) = spawned {
        tracing::error!("cannot start the {name} thread: {error}");
    }
    stream
}

/// A worker as an iced subscription keyed by `key` (a new key starts a new worker).
pub fn subscription<K, E, S>(key: K, start: fn(&K) -> S) -> Subscription<E>
where
    K: Hash + 'static,
    E: 'static,
    S: Stream<Item = E> + Send + 'static,
{
    Subscription::run_with(key, start)
}

/// Runs `work` on a short-lived thread named `name` and waits for it without blocking the executor (the explorer's
/// archive reads, the study history's writes, the quiz's searches).
///
/// # Errors
/// The system's error when the thread cannot be started, or "ended without an answer" when it panicked.
pub async fn off_thread<T: Send + 'static>(
    name: &str,
    work: impl FnOnce() -> T + Send + 'static,
) -> std::io::Result<T> {
    let (sender, receiver) = iced::futures::channel::oneshot::channel();
    let _thread = std::thread::Builder::new().name(name.to_owned()).spawn(move || {
        let _ = sender.send(work());
    })?;
    receiver.await.map_err(|_| std::io::Error::other(format!("the {name} thread ended without an answer")))
}
