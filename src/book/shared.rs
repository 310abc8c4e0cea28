//! The one copy of the opening book, shared by the book worker (which changes it) and its readers (the engine's
//! book moves and hint values, the info panel's count).
//!
//! Readers never wait: [`SharedBook::read`] gives the book only when no change is being made to it, so while a
//! long operation (Deviate, Fix, Merge …) holds it the AI and the hints simply play and search without the book, as
//! if none were loaded. A right-click edit holds it for microseconds. Nothing is ever copied: the book is in memory
//! once.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, RwLock, RwLockReadGuard, RwLockWriteGuard};

use shirokuro_engine::book::Book;

/// A handle to the shared book; clones are handles to the same book, and two handles are equal when they are.
#[derive(Debug, Clone, Default)]
pub struct SharedBook {
    book: Arc<RwLock<Book>>,
    /// Positions in the book, kept up to date by the worker so that the count can be shown at any time.
    positions: Arc<AtomicUsize>,
}

impl PartialEq for SharedBook {
    fn eq(&self, other: &SharedBook) -> bool {
        Arc::ptr_eq(&self.book, &other.book)
    }
}

impl Eq for SharedBook {}

impl SharedBook {
    /// Shares `book`.
    #[must_use]
    pub fn new(book: Book) -> SharedBook {
        let positions = Arc::new(AtomicUsize::new(book.len()));
        SharedBook { book: Arc::new(RwLock::new(book)), positions }
    }

    /// The book, unless a change is being made to it right now (then `None`: go on without the book).
    #[must_use]
    pub fn read(&self) -> Option<RwLockReadGuard<'_, Book>> {
        match self.book.try_read() {
            Ok(book) => Some(book),
            // A panic while changing it is not expected; the book is still whole (each change is one call).
            Err(std::sync::TryLockError::Poisoned(poisoned)) => Some(poisoned.into_inner()),
            Err(std::sync::TryLockError::WouldBlock) => None,
        }
    }

    /// Positions in the book (as of the last change).
    #[must_use]
    pub fn len(&self) -> usize {
        self.positions.load(Ordering::Relaxed)
    }

    /// Whether the book is empty (as of the last change).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The book to read, waiting for a change to end (the worker's own reads).
    pub(super) fn wait_read(&self) -> RwLockReadGuard<'_, Book> {
        self.book.read().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The book to change (the worker only); readers go without it until the guard is dropped.
    pub(super) fn write(&self) -> RwLockWriteGuard<'_, Book> {
        self.book.write().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Records the book's size after a change.
    pub(super) fn count(&self) {
        let positions = self.wait_read().len();
        self.positions.store(positions, Ordering::Relaxed);
    }
}
