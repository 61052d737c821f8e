//! Any bytes as CloudWatch data through `ddbcost usage`: `get-metric-data` output (named by
//! ddbcost's labels, or by a queries file), a CSV, or `get-metric-statistics` output for a
//! named table, or the CSV with its `dimension` column — the first byte picks which — read,
//! merged, and decided on (the simulation, every option, the verdict) and rendered. Nothing
//! may panic; what cannot be read is refused with an error. The same input read holding at
//! most 3 points at once (a survey, then shards of tables) must give the same figures, or
//! refuse too. A page read by hand reads as serde reads it. The same data explains a daily
//! bill's departures (`anomalies --metrics`): never a panic, and the money stays the bill's.
#![no_main]
use libfuzzer_sys::fuzz_target;

const QUERIES: &str = r#"[{"Id": "m0", "MetricStat": {"Metric": {"Namespace": "AWS/DynamoDB", "MetricName": "ConsumedWriteCapacityUnits", "Dimensions": [{"Name": "TableName", "Value": "t"}]}, "Period": 60, "Stat": "Sum"}}]"#;

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let Ok(book) = ddbcost::api::prices("aws-us-east-1") else { return };
    let (inputs, queries) = match mode % 5 {
        0 => (vec![("m.json".to_string(), text.to_string())], Vec::new()),
        1 => (
            vec![("m.json".to_string(), text.to_string())],
            vec![("q.json".to_string(), QUERIES.to_string())],
        ),
        2 => (
            vec![("m.csv".to_string(), format!("timestamp,table,index,metric,statistic,value\n{text}"))],
            Vec::new(),
        ),
        // The CSV with its optional `dimension` column (`Operation=Scan`).
        3 => (
            vec![("m.csv".to_string(), format!("timestamp,table,index,metric,statistic,value,dimension\n{text}"))],
            Vec::new(),
        ),
        _ => (vec![("t:g=stats.json".to_string(), text.to_string())], Vec::new()),
    };
    if mode % 5 == 0 {
        // The page reader by hand and serde's: one answer, the reading or the error.
        assert_eq!(
            ddbcost::api::usage::page_reading(text, true),
            ddbcost::api::usage::page_reading(text, false),
            "the page reader disagrees with serde"
        );
    }
    anomalies(&inputs);
    let target = rust_decimal::Decimal::new(7, 1);
    let hours = rust_decimal::Decimal::from(730);
    for format in [
        ddbcost::api::ReportFormat::Table,
        ddbcost::api::ReportFormat::Markdown,
    ] {
        let _ = ddbcost::api::usage::decide(&inputs, &queries, None, &book, target, hours, format);
    }
    let json = ddbcost::api::ReportFormat::Json;
    let whole = ddbcost::api::usage::decide(&inputs, &queries, None, &book, target, hours, json);
    let sharded = ddbcost::api::usage::decide_holding(
        &inputs,
        &queries,
        None,
        &book,
        (target, hours),
        3,
        json,
    );
    match (whole, sharded) {
        (Ok(a), Ok(b)) => {
            let strip = |t: &str| {
                let mut v: serde_json::Value = serde_json::from_str(t).expect("usage JSON parses");
                if let Some(p) = v["points"].as_object_mut() {
                    p.remove("passes");
                    p.remove("max_held");
                }
                v
            };
            assert_eq!(strip(&a), strip(&b), "sharded reading differs");
        }
        // Both refuse (a shard may meet another of the input's faults first).
        (Err(_), Err(_)) => {}
        (a, b) => panic!("one way refused, the other not: {:?} / {:?}", a.is_ok(), b.is_ok()),
    }
});

/// A bill of table `t` whose reads step from $1 to $3 a day on its 11th day, explained by
/// the fuzzed data: the departure is found with or without it, its money the same.
fn anomalies(inputs: &[(String, String)]) {
    let mut bill = String::from("line_item_line_item_type,line_item_usage_start_date,line_item_product_code,line_item_usage_type,line_item_resource_id,line_item_usage_amount,line_item_currency_code,line_item_unblended_cost\n");
    for day in 1..=15 {
        let cost = if day <= 10 { 1 } else { 3 };
        bill.push_str(&format!("Usage,2026-11-{day:02}T00:00:00Z,AmazonDynamoDB,ReadRequestUnits,arn:aws:dynamodb:us-east-1:1:table/t,{},USD,{cost}\n", cost * 8_000_000));
    }
    let rule = (7, rust_decimal::Decimal::from(50), rust_decimal::Decimal::ONE);
    let json = ddbcost::api::ReportFormat::Json;
    let Ok(alone) = ddbcost::api::anomalies::explained_text("b.csv", &bill, &[], rule, json) else {
        panic!("the bill alone is read")
    };
    let _ = ddbcost::api::anomalies::explained_text("b.csv", &bill, inputs, rule, ddbcost::api::ReportFormat::Table);
    if let Ok(with) = ddbcost::api::anomalies::explained_text("b.csv", &bill, inputs, rule, json) {
        let a: serde_json::Value = serde_json::from_str(&alone).expect("JSON");
        let w: serde_json::Value = serde_json::from_str(&with).expect("JSON");
        assert_eq!(a["departures"][0]["per_month"], w["departures"][0]["per_month"], "metrics move no money");
        assert_eq!(a["departures"].as_array().map(Vec::len), w["departures"].as_array().map(Vec::len));
    }
}
