//! Fuzzes the evaluation weights reader: no input may panic, and a file that parses must write back to bytes that
//! parse to the same weights.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shirokuro_engine::eval::weights;

fuzz_target!(|data: &[u8]| {
    if let Ok(parsed) = weights::parse(data) {
        let mut bytes = Vec::new();
        weights::write(&parsed, &mut bytes).expect("parsed weights can be written");
        assert_eq!(weights::parse(&bytes).expect("written weights parse"), parsed);
    }
});
