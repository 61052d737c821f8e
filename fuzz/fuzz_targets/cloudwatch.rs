//! Any bytes as CloudWatch data through `ddbcost usage`: `get-metric-data` output (named by
//! ddbcost's labels, or by a queries file), a CSV, or `get-metric-statistics` output for a
//! named table — the first byte picks which — read, merged, and decided on (the simulation, every option, the verdict) and
//! rendered. Nothing may panic; what cannot be read is refused with an error. The same input
//! read holding at most 3 points at once (a survey, then shards of tables) must give the
//! same figures, or refuse too.
#![no_main]
use libfuzzer_sys::fuzz_target;

const QUERIES: &str = r#"[{"Id": "m0", "MetricStat": {"Metric": {"Namespace": "AWS/DynamoDB", "MetricName": "ConsumedWriteCapacityUnits", "Dimensions": [{"Name": "TableName", "Value": "t"}]}, "Period": 60, "Stat": "Sum"}}]"#;

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let Ok(book) = ddbcost::api::prices("aws-us-east-1") else { return };
    let (inputs, queries) = match mode % 4 {
        0 => (vec![("m.json".to_string(), text.to_string())], Vec::new()),
        1 => (
            vec![("m.json".to_string(), text.to_string())],
            vec![("q.json".to_string(), QUERIES.to_string())],
        ),
        2 => (
            vec![("m.csv".to_string(), format!("timestamp,table,index,metric,statistic,value\n{text}"))],
            Vec::new(),
        ),
        _ => (vec![("t:g=stats.json".to_string(), text.to_string())], Vec::new()),
    };
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
