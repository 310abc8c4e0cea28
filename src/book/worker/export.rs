//! Export Book (and with Level, and for Edax with Extra Calc): the book, or a copy changed for the export, written
//! to the chosen file with progress and Stop; the book in use is never changed.

use std::path::Path;
use std::sync::atomic::Ordering;

use shirokuro_engine::Board;
use shirokuro_engine::book::{self, BookError, BookFormat, learn, ops};

use super::{JobResult, Worker};
use crate::book::operation::{ExtraCalc, Operation, export_format};

impl Worker {
    /// Writes the book to `to` (the format from the name, Edax's with an extra calc); with `level` every level of the
    /// written copy is that one; with `extra` the copy's missing leaves are searched first.
    pub(super) fn export(
        &mut self,
        operation: Operation,
        to: &Path,
        level: Option<u8>,
        extra: Option<ExtraCalc>,
    ) -> JobResult {
        let format = if extra.is_some() { BookFormat::Edax } else { export_format(to) };
        let book = self.book.wait_read();
        // With a level or an extra calc, a copy is written (the book in use keeps its levels and leaves); the
        // book is held twice while it is written.
        let mut copy = (level.is_some() || extra.is_some()).then(|| book.clone());
        if let (Some(copy), Some(level)) = (&mut copy, level) {
            ops::overwrite_levels(copy, level);
        }
        if let (Some(copy), Some(extra)) = (&mut copy, extra) {
            drop(book);
            let make = self.searchers(extra.hash_level)?;
            let settings = learn::LeafSettings {
                walk: ops::Walk::UNLIMITED,
                level: extra.leaf_level,
                only_invalid: true,
                threads: extra.threads,
            };
            let _report = self.with_progress(operation, |control| {
                learn::recalculate_leaves(copy, &Board::INITIAL, settings, &make, control)
            });
            if self.stop.load(Ordering::SeqCst) {
                // Stopped: nothing is written.
                return Ok((0, true, false));
            }
            let saved = self.with_progress(operation, |control| book::save_with(copy, to, format, control));
            return match saved {
                Ok(()) => Ok((0, false, false)),
                Err(BookError::Stopped { .. }) => Ok((0, true, false)),
                Err(error) => Err(error.into()),
            };
        }
        let written = copy.as_ref().unwrap_or(&book);
        let saved = self.with_progress(operation, |control| book::save_with(written, to, format, control));
        match saved {
            Ok(()) => Ok((0, false, false)),
            // The file is left as it was.
            Err(BookError::Stopped { .. }) => Ok((0, true, false)),
            Err(error) => Err(error.into()),
        }
    }
}
