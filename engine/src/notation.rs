//! Notation (in progress).
