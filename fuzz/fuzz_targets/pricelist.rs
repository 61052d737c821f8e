//! Any bytes as an AWS Price List (offer file, gzip or `get-products` page) through
//! `prices import`: parsing, mapping and rendering must not panic, and every price table the
//! import writes must load back as a valid price table (what we write, we can read).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(list) = ddbcost::api::import::price_list(data, "fuzz.json") else { return };
    let Ok(import) = ddbcost::api::import::price_lists(&[list]) else { return };
    for table in import.tables.values() {
        let yaml = ddbcost::api::import::price_table_yaml(table, &import);
        if let Err(e) = ddbcost::api::parse_price_table(&yaml, "imported.yaml") {
            panic!("an imported table does not load: {e:?}\n{yaml}");
        }
    }
});
