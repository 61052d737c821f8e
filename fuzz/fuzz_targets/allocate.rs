//! Any bytes as a bill, a request log and a Contributor Insights report through `ddbcost
//! allocate`: the first byte picks the split (by tenant or by pattern label), the rest is cut
//! at NULs into a CUR 2.0 bill's rows, a log of JSON Lines and a report of table `t`'s top
//! keys (`get-insight-rule-report` JSON). Nothing may panic; what cannot be read is refused;
//! and what is read adds up exactly: the rows to the total, each line's parties to the line.
//! Each log line reads by hand as serde reads it, or is left to serde.
#![no_main]
use libfuzzer_sys::fuzz_target;
use rust_decimal::Decimal;

const CUR2: &str = "line_item_line_item_type,line_item_usage_start_date,line_item_product_code,line_item_usage_type,line_item_resource_id,line_item_usage_amount,line_item_currency_code,line_item_unblended_cost,reservation_effective_cost\n";

fn d(v: &serde_json::Value) -> Decimal {
    v.as_str().and_then(|s| s.parse().ok()).expect("a decimal")
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let (bill, rest) = text.split_once('\0').unwrap_or((text, ""));
    let (log, report) = match rest.split_once('\0') {
        Some((log, report)) => (log, Some(("t", report))),
        None => (rest, None),
    };
    for line in log.lines() {
        // The line reader by hand and serde's: one answer, the reading or the error.
        assert_eq!(
            ddbcost::api::allocate::line_reading(line, true),
            ddbcost::api::allocate::line_reading(line, false),
            "the line reader disagrees with serde"
        );
    }
    let bill = format!("{CUR2}{bill}");
    let tenant = (mode % 2 == 0).then_some("PK=ORG#([^#]+)");
    let _ = ddbcost::api::allocate::report_text_with_insights("b.csv", &bill, log, report, tenant, ddbcost::api::ReportFormat::Table);
    let Ok(json) = ddbcost::api::allocate::report_text_with_insights("b.csv", &bill, log, report, tenant, ddbcost::api::ReportFormat::Json) else {
        return;
    };
    let doc: serde_json::Value = serde_json::from_str(&json).expect("allocate JSON parses");
    let sum: Decimal = doc["rows"].as_array().expect("rows").iter().map(|r| d(&r["unblended"])).sum();
    assert_eq!(sum, d(&doc["total"]["unblended"]), "the rows add up to the total");
    for line in doc["lines"].as_array().expect("lines") {
        let parts: Decimal = line["parties"].as_array().expect("parties").iter().map(|p| d(&p["unblended"])).sum();
        assert_eq!(parts, d(&line["unblended"]), "a line's parties add up to it");
    }
});
