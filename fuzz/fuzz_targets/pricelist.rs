//! Any bytes as an AWS Price List (offer file, gzip or `get-products` page, Savings Plans
//! region file as JSON or CSV, region index) through `prices import`: parsing, mapping and
//! rendering must not panic, and every price table the import writes must load back as a
//! valid price table (what we write, we can read). Each input is imported alone and beside
//! the offer fixture, so that Savings Plans rates meet list prices to divide by.
#![no_main]
use libfuzzer_sys::fuzz_target;

const OFFER: &[u8] = include_bytes!("../../tests/fixtures/pricelist/offer-index.json");

fuzz_target!(|data: &[u8]| {
    let Ok(list) = ddbcost::api::import::price_list(data, "fuzz.json") else { return };
    let offer = ddbcost::api::import::price_list(OFFER, "offer.json").expect("the fixture parses");
    for lists in [vec![list.clone()], vec![offer, list]] {
        let Ok(import) = ddbcost::api::import::price_lists(&lists) else { continue };
        for table in import.tables.values() {
            let yaml = ddbcost::api::import::price_table_yaml(table, &import);
            if let Err(e) = ddbcost::api::parse_price_table(&yaml, "imported.yaml") {
                panic!("an imported table does not load: {e:?}\n{yaml}");
            }
        }
    }
});
