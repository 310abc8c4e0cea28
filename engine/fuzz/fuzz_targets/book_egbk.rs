//! Fuzzes the egbk book reader (see `book_common.rs`).
#![no_main]

mod book_common;

use libfuzzer_sys::fuzz_target;
use shirokuro_engine::book::BookFormat;

fuzz_target!(|data: &[u8]| book_common::check(data, BookFormat::Egbk));
