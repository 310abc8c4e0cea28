//! Fuzz target: the game-record importers on arbitrary bytes. WTHOR `.wtb` and name files are parsed from the raw
//! bytes (whatever parses must write and parse back to the same value); every text record format reads the bytes as
//! lossy UTF-8 (strict and lenient parses must agree, and format detection must not panic).
#![no_main]

use libfuzzer_sys::fuzz_target;
use shirokuro_engine::format::wthor::{self, NameKind};
use shirokuro_engine::format::{RecordFormat, parse_records, parse_records_lenient};

fuzz_target!(|data: &[u8]| {
    match wthor::parse(data) {
        Ok(file) => {
            let bytes = wthor::to_bytes(&file).expect("a parsed file writes back");
            assert_eq!(wthor::parse(&bytes).as_ref(), Ok(&file));
        }
        Err(error) => drop(error.to_string()),
    }
    for kind in [NameKind::Players, NameKind::Tournaments] {
        if let Ok(names) = wthor::parse_names(data, kind) {
            let bytes = wthor::names_to_bytes(&names, kind).expect("parsed names write back");
            assert_eq!(wthor::parse_names(&bytes, kind).as_ref(), Ok(&names));
        }
    }

    let text = String::from_utf8_lossy(data);
    let _ = RecordFormat::detect(&text);
    for format in RecordFormat::ALL {
        let lenient = parse_records_lenient(&text, format);
        match parse_records(&text, format) {
            Ok(records) => {
                assert!(lenient.skipped.is_empty());
                assert_eq!(records, lenient.records);
                for record in &records {
                    let _ = record.recorded_matches_replay();
                }
            }
            Err(error) => assert_eq!(lenient.skipped.first(), Some(&error)),
        }
    }
});
