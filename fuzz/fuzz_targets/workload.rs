//! Any text as a workload file: loading must not panic, and a workload that loads must price
//! (or be refused with an error) without panicking.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok((workload, _)) = ddbcost::load::parse_workload(text, "fuzz.yaml") else { return };
    let Ok(primary) = ddbcost::load::prices::resolve("aws-us-east-1") else { return };
    let others = ddbcost::load::prices::bundled().unwrap_or_default();
    let book = ddbcost::model::PriceBook { primary, others };
    let _ = ddbcost::engine::estimate(&workload, &book, &ddbcost::model::Settings::default());
});
