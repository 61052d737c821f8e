//! Any text as a workload file: loading must not panic, and a workload that loads must price
//! (or be refused with an error) without panicking — as one month, and as a 14-month forecast
//! (growth, seasons, launch months, moving storage, reservations and savings plans by month)
//! whose months add up to its total; a month's savings plan keeps its shares within [0, 1];
//! and every patch `advise` proposes for it loads and prices (or is refused) without panicking.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok((workload, _)) = ddbcost::api::load(text, "fuzz.yaml") else { return };
    let Ok(book) = ddbcost::api::prices("aws-us-east-1") else { return };
    let settings = ddbcost::api::Settings::default();
    if let Ok(e) = ddbcost::api::estimate(&workload, &book, &settings) {
        // A savings plan's shares stay within [0, 1]; FOCUS renders its commitments.
        if let Some(sp) = &e.savings_plan {
            assert!(sp.coverage() <= rust_decimal::Decimal::ONE, "coverage ≤ 1");
            assert!(sp.utilization() <= rust_decimal::Decimal::ONE, "utilization ≤ 1");
        }
        let _ = ddbcost::api::exports::document(&e);
        let _ = ddbcost::api::exports::focus(
            &[("fuzz", &e)],
            ddbcost::api::exports::Period { year: 2027, month: 1 },
        );
    }
    if let Ok(f) = ddbcost::api::forecast(&workload, &book, &settings, (2026, 12), 14) {
        let sum = f
            .months
            .iter()
            .try_fold(rust_decimal::Decimal::ZERO, |a, m| a.checked_add(m.estimate.total));
        assert_eq!(sum, Some(f.total), "the months add up to the forecast's total");
        let _ = ddbcost::api::exports::forecast_json(&f, "fuzz");
        let _ = ddbcost::api::exports::forecast_focus(&f);
    }
    // The advisor's path: every candidate patch merged into the document, reloaded and
    // priced; a patch never makes the loader or the engine panic.
    if let Ok((base, _)) = ddbcost::api::scenarios(text, "fuzz.yaml", &[]) {
        for c in ddbcost::api::advice_candidates(&workload, &book) {
            let mut doc = base.clone();
            ddbcost::api::merge_patch(&mut doc, &c.patch);
            if let Ok((w, _)) = ddbcost::api::load_value(doc, "fuzz.yaml") {
                let _ = ddbcost::api::estimate(&w, &book, &settings);
            }
        }
    }
});
