//! Any text as a quantity (`41M`, `400/s`, `3.5 KB`, `92%`, `$12`) in each place a workload
//! takes one — a count, a rate, a size, a share, a money amount — through the loader and,
//! when it loads, the engine; and as a DynamoDB number or base64 value for the sizer. Nothing
//! may panic: what cannot be read is refused with an error.
#![no_main]
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};

/// A one-table workload with `text` at one quantity's place.
fn workloads(text: &str) -> [Value; 6] {
    let t = Value::String(text.to_string());
    let table = |extra: Value| {
        let mut base = json!({
            "item_size": "1 KB",
            "patterns": {"p": {"op": "get", "rate": "10/s", "consistency": "eventual"}}
        });
        ddbcost::api::merge_patch(&mut base, &extra);
        json!({"prices": "aws-us-east-1", "tables": {"t": base}})
    };
    [
        table(json!({"items": t})),
        table(json!({"item_size": t})),
        table(json!({"patterns": {"p": {"rate": t}}})),
        table(json!({"patterns": {"p": {"consistency": format!("{text} eventual")}}})),
        table(json!({"indexes": {"g": {"type": "gsi", "projection": "all", "key_share": t}}})),
        json!({
            "prices": "aws-us-east-1",
            "tables": {"t": {"item_size": "1 KB"}},
            "commitments": {"savings_plan": {"per_hour": t, "term": "1y", "rates": {"source": "fuzz", "standard": {"read_per_million": "0.85"}}}}
        }),
    ]
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(book) = ddbcost::api::prices("aws-us-east-1") else { return };
    let settings = ddbcost::api::Settings::default();
    for doc in workloads(text) {
        if let Ok((w, _)) = ddbcost::api::load_value(doc, "fuzz.yaml") {
            let _ = ddbcost::api::estimate(&w, &book, &settings);
        }
    }
    let _ = ddbcost::api::size::number_size(text);
    let _ = ddbcost::api::size::base64_len(text);
});
