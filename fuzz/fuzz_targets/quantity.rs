//! Any text as a quantity (`41M`, `400/s`, `3.5 KB`, `92%`) or a DynamoDB number: parsing must
//! not panic, and a parsed rate or size must convert without panicking.
#![no_main]
use ddbcost::load::quantity::{parse_count, parse_money, parse_rate, parse_share, parse_size};
use libfuzzer_sys::fuzz_target;
use rust_decimal::Decimal;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let _ = parse_count(text);
    let _ = parse_share(text);
    let _ = parse_money(text);
    if let Ok(rate) = parse_rate(text) {
        let _ = rate.monthly(Decimal::from(730));
    }
    if let Ok(size) = parse_size(text) {
        let _ = size.to_bytes();
        let _ = size.to_gb(Decimal::from(1_073_741_824u64), Decimal::from(1024));
    }
    let _ = ddbcost::size::rules::number_size(text);
    let _ = ddbcost::size::rules::base64_len(text);
});
