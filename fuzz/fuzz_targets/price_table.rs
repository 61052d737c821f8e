//! Any text as a price table: parsing must not panic.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = ddbcost::api::parse_price_table(text, "fuzz.yaml");
    }
});
