//! Fuzzes the network file reader: no input may panic, and a network that parses must write back to bytes that parse
//! to the same network.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shirokuro_engine::eval::net::Net;

fuzz_target!(|data: &[u8]| {
    if let Ok(net) = Net::parse(data) {
        let bytes = net.to_bytes().expect("a parsed network can be written");
        assert_eq!(Net::parse(&bytes).expect("a written network parses").to_bytes().expect("written again"), bytes);
    }
});
