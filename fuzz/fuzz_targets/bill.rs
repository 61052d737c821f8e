//! Any bytes as an AWS bill through `ddbcost bill`: after a CUR 2.0, legacy CUR or FOCUS
//! header (or none: the bytes' own first line), as CSV text; or as a Parquet file — the first
//! byte picks which — read, placed, summed and rendered. Nothing may panic (a Parquet decoder
//! that does is contained and the file refused); what cannot be read is refused; and what
//! is read adds up: the lines' unblended costs sum to the total exactly. The same text read
//! day by day (`ddbcost anomalies`): each departure's excess is its after minus its before.
#![no_main]
use libfuzzer_sys::fuzz_target;

const CUR2: &str = "line_item_line_item_type,line_item_usage_start_date,line_item_usage_end_date,line_item_product_code,line_item_usage_type,line_item_operation,line_item_resource_id,line_item_usage_amount,line_item_currency_code,line_item_unblended_cost,pricing_public_on_demand_cost,reservation_effective_cost,bill_billing_period_start_date\n";
const LEGACY: &str = "lineItem/LineItemType,lineItem/UsageStartDate,lineItem/ProductCode,lineItem/UsageType,lineItem/ResourceId,lineItem/UsageAmount,lineItem/CurrencyCode,lineItem/UnblendedCost\n";
const FOCUS: &str = "ChargeCategory,ChargePeriodStart,x_ServiceCode,x_UsageType,ResourceId,ConsumedQuantity,BillingCurrency,BilledCost,EffectiveCost,CommitmentDiscountId,CommitmentDiscountStatus\n";

fn check(out: Result<String, ddbcost::api::Error>) {
    let Ok(json) = out else { return };
    let doc: serde_json::Value = serde_json::from_str(&json).expect("bill JSON parses");
    let d = |v: &serde_json::Value| v.as_str().and_then(|s| s.parse::<rust_decimal::Decimal>().ok());
    let mut sum = rust_decimal::Decimal::ZERO;
    for l in doc["lines"].as_array().expect("lines") {
        sum += d(&l["unblended"]).expect("a decimal");
    }
    assert_eq!(Some(sum), d(&doc["total"]["unblended"]), "the lines add up to the total");
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else { return };
    if mode % 5 == 4 {
        // Parquet bytes, from a file as the command reads them.
        let Ok(dir) = tempfile::tempdir() else { return };
        let path = dir.path().join("bill.parquet");
        if std::fs::write(&path, rest).is_err() {
            return;
        }
        let file = path.display().to_string();
        // Apache's decoder panics on some hostile files (an index out of bounds in its RLE
        // decoder, found here); ddbcost contains such a panic and refuses the file. libFuzzer's
        // hook would abort on the contained panic, so a silent hook stands in while the file is
        // read (the CSV modes keep ddbcost's own parsing under the aborting hook).
        let hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let out = ddbcost::api::bill::report(&[file], None, ddbcost::api::ReportFormat::Json);
        std::panic::set_hook(hook);
        check(out);
        return;
    }
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let header = match mode % 5 {
        0 => CUR2,
        1 => LEGACY,
        2 => FOCUS,
        _ => "",
    };
    let csv = format!("{header}{text}");
    for format in [ddbcost::api::ReportFormat::Table, ddbcost::api::ReportFormat::Markdown] {
        let _ = ddbcost::api::bill::report_text("bill.csv", &csv, None, format);
    }
    check(ddbcost::api::bill::report_text("bill.csv", &csv, None, ddbcost::api::ReportFormat::Json));
    let window = usize::from(mode % 7) + 3;
    let percent = rust_decimal::Decimal::from(50);
    let _ = ddbcost::api::anomalies::report_text("bill.csv", &csv, window, percent, rust_decimal::Decimal::ONE, ddbcost::api::ReportFormat::Table);
    if let Ok(json) = ddbcost::api::anomalies::report_text("bill.csv", &csv, window, percent, rust_decimal::Decimal::ONE, ddbcost::api::ReportFormat::Json) {
        let doc: serde_json::Value = serde_json::from_str(&json).expect("anomalies JSON parses");
        let d = |v: &serde_json::Value| v.as_str().and_then(|s| s.parse::<rust_decimal::Decimal>().ok()).expect("a decimal");
        for x in doc["departures"].as_array().expect("departures") {
            assert_eq!(d(&x["excess_per_day"]), d(&x["after_per_day"]) - d(&x["before_per_day"]), "excess = after − before");
        }
    }
});
