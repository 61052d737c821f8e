//! `ddbcost keys` end to end, on generated key distributions (uniform, Zipf, one dominant
//! value, a status-like key with 5 values, a date key), access logs in CSV and JSON Lines,
//! merged summaries, write sharding priced with the engine, and refused input. Every share,
//! unit and verdict is derived in a comment from the rule: a partition serves 3,000 RCU and
//! 1,000 WCU a second; one value ≥ 25 % of reads or writes is at risk.

mod common;

use common::{Case, dec};
use serde_json::Value;

fn write(dir: &std::path::Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

/// Items in plain JSON, `counts[i]` items under value `name(i)` of attribute `pk`.
fn items(counts: &[(String, u64)]) -> String {
    let mut out = String::new();
    let mut n = 0;
    for (value, count) in counts {
        for _ in 0..*count {
            n += 1;
            out.push_str(&format!("{{\"pk\":\"{value}\",\"sk\":\"item#{n}\"}}\n"));
        }
    }
    out
}

fn keys_json(args: &[&str]) -> Value {
    let out = Case::new()
        .args(["keys"])
        .args(args)
        .args(["--format", "json"])
        .run()
        .success();
    serde_json::from_str(&out.stdout).expect("keys JSON parses")
}

fn attr(doc: &Value, i: usize) -> &Value {
    &doc["attributes"][i]
}

fn share(v: &Value) -> rust_decimal::Decimal {
    dec(v
        .as_str()
        .unwrap_or_else(|| panic!("a decimal string, got {v}")))
}

#[test]
fn a_uniform_key_is_well_spread() {
    let dir = tempfile::tempdir().unwrap();
    // 200 values × 5 items = 1,000 items.
    let counts: Vec<(String, u64)> = (0..200).map(|i| (format!("user#{i}"), 5)).collect();
    let file = write(dir.path(), "items.json", &items(&counts));
    let doc = keys_json(&[
        &file,
        "--key",
        "pk",
        "--peak-rate",
        "reads=3000,writes=1000",
    ]);
    let a = attr(&doc, 0);
    assert_eq!(a["distinct"], 200);
    let m = &a["measures"]["items"];
    // Busiest value 5 / 1,000 = 0.5 %; busiest 10 = 50 / 1,000 = 5 %; busiest 100 = 50 %.
    assert_eq!(share(&m["top_1_share"]), dec("0.005"));
    assert_eq!(share(&m["top_10_share"]), dec("0.05"));
    assert_eq!(share(&m["top_100_share"]), dec("0.5"));
    // 80 % of 1,000 items = 800 = 160 values × 5 (80 % of the values).
    assert_eq!(m["values_holding_80_percent"], 160);
    // No log: traffic follows items, 0.5 % of 3,000 RCU/s = 15, of 1,000 WCU/s = 5; the
    // peak needs ⌈3,000/3,000 + 1,000/1,000⌉ = 2 partitions ≤ 200 values.
    assert_eq!(share(&a["busiest_read_units_per_second"]), dec("15"));
    assert_eq!(share(&a["busiest_write_units_per_second"]), dec("5"));
    assert_eq!(share(&a["partitions_needed"]), dec("2"));
    assert_eq!(a["verdict"], "well spread");
    assert_eq!(a["reasons"].as_array().unwrap().len(), 0);
    assert_eq!(
        a["workload_keys"],
        "keys: { distinct: 200, busiest_share: 0.5% }"
    );
}

#[test]
fn a_zipf_key_is_hot_at_a_high_peak() {
    let dir = tempfile::tempdir().unwrap();
    // Zipf with s = 1: value k (1-based) has ⌊10,000 / k⌋ items, k = 1..1,000.
    let counts: Vec<(String, u64)> = (1..=1000u64)
        .map(|k| (format!("k{k}"), 10_000 / k))
        .collect();
    let total: u64 = counts.iter().map(|c| c.1).sum();
    let top10: u64 = counts.iter().take(10).map(|c| c.1).sum();
    let file = write(dir.path(), "zipf.json", &items(&counts));
    let doc = keys_json(&[&file, "--key", "pk", "--peak-rate", "writes=8000"]);
    let a = attr(&doc, 0);
    let m = &a["measures"]["items"];
    assert_eq!(m["total"], total.to_string());
    // Busiest = 10,000 items; busiest 10 = Σ⌊10,000/k⌋ for k ≤ 10 = 10,000 + 5,000 + 3,333
    // + 2,500 + 2,000 + 1,666 + 1,428 + 1,250 + 1,111 + 1,000 = 29,288.
    assert_eq!(top10, 29_288);
    assert_eq!(m["top_1"], "10000");
    assert_eq!(m["top_10"], "29288");
    let busiest = dec("10000") / rust_decimal::Decimal::from(total);
    assert_eq!(share(&m["top_1_share"]), busiest);
    // The busiest value takes 10,000/total of 8,000 WCU/s: between 1,000 and 2,000, so hot
    // on writes with ⌈busiest ÷ 1,000⌉ = 2 suffixes.
    let wcu = dec("8000") * busiest;
    assert!(wcu > dec("1000") && wcu <= dec("2000"), "{wcu}");
    assert_eq!(a["verdict"], "hot");
    assert_eq!(share(&a["suffixes"]), dec("2"));
    assert!(
        a["reasons"][0]
            .as_str()
            .unwrap()
            .contains("at least 2 suffixes")
    );
}

#[test]
fn one_dominant_value_is_at_risk_even_without_a_peak() {
    let dir = tempfile::tempdir().unwrap();
    // One value with 900 items, 100 values with 1: 900 / 1,000 = 90 % ≥ 25 %.
    let mut counts = vec![("big".to_string(), 900)];
    counts.extend((0..100).map(|i| (format!("small{i}"), 1)));
    let file = write(dir.path(), "items.json", &items(&counts));
    let doc = keys_json(&[&file, "--key", "pk"]);
    let a = attr(&doc, 0);
    assert_eq!(share(&a["measures"]["items"]["top_1_share"]), dec("0.9"));
    assert_eq!(a["measures"]["items"]["values_holding_80_percent"], 1);
    assert_eq!(a["verdict"], "at risk");
    assert_eq!(a["busiest"][0]["value"], "big");
    assert!(a["reasons"][0].as_str().unwrap().contains("90%"));
    // No peak: the notes say what is not checked.
    assert!(
        a["notes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n.as_str().unwrap().contains("no peak given"))
    );
}

#[test]
fn a_status_key_has_fewer_values_than_the_peak_needs() {
    let dir = tempfile::tempdir().unwrap();
    // An order-status GSI key: 5 statuses, 100 orders each (20 % each).
    let mut text = String::new();
    for (i, status) in ["pending", "paid", "shipped", "delivered", "cancelled"]
        .iter()
        .enumerate()
    {
        for n in 0..100 {
            text.push_str(&format!(
                "{{\"pk\":\"order#{i}-{n}\",\"status\":\"{status}\",\"date\":\"2026-11-{:02}\"}}\n",
                n % 30 + 1
            ));
        }
    }
    let file = write(dir.path(), "orders.json", &text);
    let doc = keys_json(&[
        &file,
        "--key",
        "pk",
        "--index",
        "by-status:status",
        "--peak-rate",
        "by-status:reads=14000,writes=400",
    ]);
    let a = attr(&doc, 1);
    assert_eq!(a["label"], "status (index by-status)");
    assert_eq!(a["distinct"], 5);
    // 20 % of 14,000 RCU/s = 2,800 ≤ 3,000 and of 400 WCU/s = 80 ≤ 1,000: not hot. The peak
    // needs ⌈14,000/3,000 + 400/1,000⌉ = ⌈5.07⌉ = 6 partitions > 5 values: at risk, by name.
    assert_eq!(share(&a["busiest_read_units_per_second"]), dec("2800"));
    assert_eq!(share(&a["partitions_needed"]), dec("6"));
    assert_eq!(a["low_cardinality"], true);
    assert_eq!(a["verdict"], "at risk");
    let reason = a["reasons"][0].as_str().unwrap();
    assert!(
        reason.contains(
            "`status` of index `by-status` has 5 distinct values, fewer than the 6 partitions"
        ),
        "{reason}"
    );
    // The table key (500 orders, one item each) got no peak: concentration only, 0.2 %.
    assert_eq!(attr(&doc, 0)["verdict"], "well spread");
}

#[test]
fn a_date_key_takes_all_of_todays_writes_from_the_log() {
    let dir = tempfile::tempdir().unwrap();
    // Items for 30 days; the access log writes only today's date (the seed's warning).
    let mut text = String::new();
    for day in 1..=30 {
        text.push_str(&format!(
            "{{\"day\":\"2026-11-{day:02}\",\"id\":\"e{day}\"}}\n"
        ));
    }
    let items = write(dir.path(), "events.json", &text);
    let mut log = String::from("day,operation,units\n");
    for _ in 0..40 {
        log.push_str("2026-11-30,PutItem,1\n");
    }
    for day in 1..=20 {
        log.push_str(&format!("2026-11-{day:02},Query,0.5\n"));
    }
    let log = write(dir.path(), "access.csv", &log);
    let doc = keys_json(&[
        &items,
        "--key",
        "day",
        "--log",
        &log,
        "--peak-rate",
        "reads=600,writes=1500",
    ]);
    let a = attr(&doc, 0);
    assert_eq!(doc["log_lines"], 60);
    assert_eq!(a["traffic_counted"], true);
    // Writes: 40 units, all on 2026-11-30 → 100 %; reads: 20 × 0.5 = 10 units, 0.5 on the
    // busiest → 5 %.
    assert_eq!(a["measures"]["writes"]["total"], "40");
    assert_eq!(share(&a["measures"]["writes"]["top_1_share"]), dec("1"));
    assert_eq!(a["measures"]["reads"]["total"], "10");
    assert_eq!(share(&a["measures"]["reads"]["top_1_share"]), dec("0.05"));
    // 100 % of 1,500 WCU/s on one value: hot, ⌈1.5⌉ = 2 suffixes.
    assert_eq!(share(&a["busiest_write_units_per_second"]), dec("1500"));
    assert_eq!(a["verdict"], "hot");
    assert_eq!(share(&a["suffixes"]), dec("2"));
    assert_eq!(a["busiest"][0]["value"], "2026-11-30");
    // Today's value: 1 item + 40 write units.
    assert_eq!(a["busiest"][0]["items"], 1);
    assert_eq!(share(&a["busiest"][0]["write_units"]), dec("40"));
}

#[test]
fn json_lines_logs_size_units_from_item_sizes() {
    let dir = tempfile::tempdir().unwrap();
    let log = write(
        dir.path(),
        "log.jsonl",
        // Transact write of 1,500 B: ⌈1,500/1,024⌉ = 2 units × 2 = 4; query of 5,000 B:
        // ⌈5,000/4,096⌉ = 2; get with stated units 0.5; a put with no size: 1 unit; an
        // index read of GSI value "x" (no size): 1 unit.
        "{\"pk\":\"a\",\"operation\":\"TransactWriteItems\",\"item_size\":1500}\n\
         {\"pk\":\"a\",\"operation\":\"Query\",\"item_size\":5000,\"extra\":[1,2]}\n\
         {\"pk\":\"b\",\"operation\":\"GetItem\",\"units\":0.5}\n\
         \n\
         {\"pk\":\"b\",\"operation\":\"put\"}\n\
         {\"pk\":\"x\",\"operation\":\"Query\",\"index\":\"g\"}\n",
    );
    let doc = keys_json(&["--log", &log, "--key", "pk", "--index", "g:gpk"]);
    let t = attr(&doc, 0);
    // Table: writes 4 + 1 = 5, reads 2 + 0.5 = 2.5.
    assert_eq!(t["measures"]["writes"]["total"], "5");
    assert_eq!(t["measures"]["reads"]["total"], "2.5");
    assert_eq!(t["distinct"], 2);
    let g = attr(&doc, 1);
    assert_eq!(g["measures"]["reads"]["total"], "1");
    assert_eq!(g["busiest"][0]["value"], "x");
    assert_eq!(doc["log_lines"], 5);
}

#[test]
fn summaries_of_pieces_merge_to_the_whole() {
    let dir = tempfile::tempdir().unwrap();
    let counts: Vec<(String, u64)> = (1..=300u64).map(|k| (format!("v{k}"), 600 / k)).collect();
    let all = items(&counts);
    let lines: Vec<&str> = all.lines().collect();
    let (a, b) = lines.split_at(lines.len() / 3);
    let whole = write(dir.path(), "whole.json", &(lines.join("\n") + "\n"));
    let pa = write(dir.path(), "a.json", &(a.join("\n") + "\n"));
    let pb = write(dir.path(), "b.json", &(b.join("\n") + "\n"));
    let log = write(
        dir.path(),
        "log.csv",
        "pk,operation\nv7,GetItem\nv7,PutItem\nv9,Scan\n",
    );
    let run = |args: &[&str], out: &str| {
        Case::new()
            .args(["keys"])
            .args(args)
            .args(["--key", "pk", "--format", "json", "-o", out])
            .run()
            .success();
    };
    let sa = dir.path().join("sa.json").to_string_lossy().into_owned();
    let sb = dir.path().join("sb.json").to_string_lossy().into_owned();
    run(&[&pa, "--log", &log], &sa);
    run(&[&pb], &sb);
    let merged = keys_json(&["--merge", &sa, &sb]);
    let direct = keys_json(&[&whole, "--key", "pk", "--log", &log]);
    let strip = |doc: &Value| {
        let mut d = doc.clone();
        let mut values: Vec<String> = d["attributes"][0]["values"]
            .as_array()
            .unwrap()
            .iter()
            .map(std::string::ToString::to_string)
            .collect();
        values.sort();
        d["attributes"][0]["values"] = Value::Null;
        d["files"] = Value::Null; // 2 pieces vs 1 file
        d["input_bytes"] = Value::Null;
        (d, values)
    };
    assert_eq!(strip(&merged), strip(&direct));
    // v7: ⌊600/7⌋ = 85 items, 1 read and 1 write unit.
    let v7 = direct["attributes"][0]["values"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v[0] == "v7")
        .unwrap()
        .clone();
    assert_eq!(v7[1], 85);
    assert_eq!(v7[4], 2); // read units in halves
    assert_eq!(v7[5], 2);
}

#[test]
fn write_sharding_is_priced_with_the_engine() {
    let dir = tempfile::tempdir().unwrap();
    let workload = write(
        dir.path(),
        "w.yaml",
        "prices: aws-us-east-1\n\
         tables:\n  events:\n    capacity: { mode: on-demand }\n    item_size: 800 B\n    \
         key: { partition: device, sort: at }\n    patterns:\n      record:\n        op: put\n        \
         rate: 3000/s\n      latest:\n        op: get\n        rate: 100/s\n        consistency: strong\n",
    );
    // Half the items (and so, with no log, half the writes) on one device.
    let mut text = String::new();
    for i in 0..200 {
        let device = if i % 2 == 0 {
            "dev-0".to_string()
        } else {
            format!("dev-{}", i % 50 + 1)
        };
        text.push_str(&format!("{{\"device\":\"{device}\",\"at\":\"{i}\"}}\n"));
    }
    let file = write(dir.path(), "ev.json", &text);
    let doc = keys_json(&[&file, "--workload", &workload]);
    let a = attr(&doc, 0);
    // 50 % of 3,000 WCU/s = 1,500 > 1,000: hot, ⌈1.5⌉ = 2 suffixes.
    assert_eq!(a["verdict"], "hot");
    let s = &a["sharding"];
    assert_eq!(s["patterns"], serde_json::json!(["latest"]));
    // The get doubles: 100 more reads a second × 730 h × 3,600 s = 262,800,000 more
    // strong reads of 800 B (1 unit each) × $0.125 per million = $32.85 a month.
    assert_eq!(share(&s["monthly_delta"]), dec("32.85"));
    assert_eq!(s["currency"], "USD");
    // The table view says it in words.
    Case::new()
        .args(["keys", &file, "--workload", &workload])
        .run()
        .success()
        .stdout_has("Write sharding with 2 suffixes: the reads of `latest` become 2 requests each")
        .stdout_has("(+32.85)");
    // Through the one pricing service: a 720-hour month, in euros at 0.9 — 100 × 720 × 3,600
    // = 259,200,000 more reads × $0.125 per million = $32.40, × 0.9 = €29.16.
    let doc = keys_json(&[
        &file,
        "--workload",
        &workload,
        "--month-hours",
        "720",
        "--currency",
        "EUR",
        "--fx-rate",
        "0.9",
        "--fx-date",
        "2026-11-30",
    ]);
    let s = &attr(&doc, 0)["sharding"];
    assert_eq!(share(&s["monthly_delta"]), dec("29.16"));
    assert_eq!(s["currency"], "EUR");
}

#[test]
fn lsi_entries_count_in_item_collections() {
    let dir = tempfile::tempdir().unwrap();
    // Two items under "c1": "pk" (2) + "c1" (2) + "sk" (2) + "1" (1) + "d" (1) + "x" (1) = 9 B
    // each; the LSI projects ALL, so each also has a 9 B entry: 36 B in c1's collection.
    let file = write(
        dir.path(),
        "items.json",
        "{\"pk\":\"c1\",\"sk\":\"1\",\"d\":\"x\"}\n{\"pk\":\"c1\",\"sk\":\"2\",\"d\":\"y\"}\n",
    );
    let doc = keys_json(&[&file, "--key", "pk", "--sort-key", "sk", "--lsi", "by-d:d"]);
    assert_eq!(doc["has_lsi"], true);
    let c = &attr(&doc, 0)["collection"];
    assert_eq!(c["value"], "c1");
    assert_eq!(c["bytes"], 36);
}

#[test]
fn markdown_and_html_show_the_verdict_and_the_charts() {
    let dir = tempfile::tempdir().unwrap();
    let mut counts = vec![("<script>".to_string(), 30)];
    counts.extend((0..10).map(|i| (format!("v{i}"), 1)));
    let file = write(dir.path(), "items.json", &items(&counts));
    Case::new()
        .args(["keys", &file, "--key", "pk", "--format", "markdown"])
        .run()
        .success()
        .stdout_has("### pk (table key): at risk")
        .stdout_has("| Busiest value | 75% |");
    let html = dir.path().join("keys.html");
    Case::new()
        .args(["keys", &file, "--key", "pk", "--format", "html", "-o"])
        .args([html.to_str().unwrap()])
        .run()
        .success();
    let page = std::fs::read_to_string(&html).unwrap();
    assert_eq!(page.matches("<svg").count(), 2, "bars and curve");
    assert!(page.contains("at risk"));
    assert!(!page.contains("<script>"), "values are escaped");
    assert!(page.contains("&lt;script&gt;"));
}

#[test]
fn bad_input_is_refused_with_its_place() {
    let dir = tempfile::tempdir().unwrap();
    let items = write(dir.path(), "i.json", "{\"pk\":\"a\"}\n");
    let cases: [(&str, &str, i32, &str); 5] = [
        (
            "pk,operation\na,GetItem\nb,ListTables\n",
            "log.csv",
            1,
            "unknown operation `ListTables`",
        ),
        (
            "pk,operation,units\na,GetItem,0.25\n",
            "u.csv",
            1,
            "not a non-negative multiple of 0.5",
        ),
        ("key,operation\na,GetItem\n", "k.csv", 1, "no `pk` column"),
        (
            "pk,operation,index\na,Query,gsi-9\n",
            "i.csv",
            1,
            "index `gsi-9`",
        ),
        (
            "{\"pk\":\"a\",\"operation\":\"GetItem\"\n",
            "bad.jsonl",
            1,
            "unreadable JSON log line",
        ),
    ];
    for (text, name, code, message) in cases {
        let log = write(dir.path(), name, text);
        Case::new()
            .args(["keys", &items, "--key", "pk", "--log", &log])
            .run()
            .code(code)
            .stderr_has(message)
            .stderr_has(name);
    }
    // The line of the bad CSV row.
    let log = write(dir.path(), "l3.csv", "pk,operation\na,GetItem\nb,Nope\n");
    Case::new()
        .args(["keys", &items, "--key", "pk", "--log", &log])
        .run()
        .code(1)
        .stderr_has("l3.csv:3");
    // Usage errors: nothing to read, no key, --merge with --key, two peaks.
    Case::new()
        .args(["keys", "--key", "pk"])
        .run()
        .code(2)
        .stderr_has("nothing to read");
    Case::new()
        .args(["keys", &items])
        .run()
        .code(2)
        .stderr_has("partition key");
    Case::new()
        .args(["keys", "--merge", &items, "--key", "pk"])
        .run()
        .code(2);
    Case::new()
        .args(["keys", &items, "--key", "pk", "--peak-rate", "reads=-1"])
        .run()
        .code(2)
        .stderr_has("negative");
    Case::new()
        .args([
            "keys",
            &items,
            "--workload",
            "workloads/cloudshop.yaml",
            "--peak-rate",
            "reads=1",
            "--key",
            "pk",
        ])
        .run()
        .code(2)
        .stderr_has("both give the peak");
    // A summary that is not one.
    Case::new()
        .args(["keys", "--merge", &items])
        .run()
        .code(1)
        .stderr_has("not a keys summary");
}

#[test]
fn reads_gzip_folders_and_standard_input_and_takes_keys_from_the_workload() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let export = dir.path().join("export/data");
    std::fs::create_dir_all(&export).unwrap();
    // An export folder: one gzip file of DynamoDB JSON lines, and a manifest (skipped).
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    for i in 0..30 {
        writeln!(
            gz,
            "{{\"Item\":{{\"tenant\":{{\"S\":\"t{}\"}},\"id\":{{\"N\":\"{i}\"}},\"state\":{{\"S\":\"{}\"}},\"at\":{{\"S\":\"d{i}\"}}}}}}",
            i % 3,
            if i < 24 { "open" } else { "closed" }
        )
        .unwrap();
    }
    std::fs::write(export.join("part-0.json.gz"), gz.finish().unwrap()).unwrap();
    write(
        &dir.path().join("export"),
        "manifest-summary.json",
        "{\"not\":\"items\"}",
    );
    let workload = write(
        dir.path(),
        "w.yaml",
        "prices: aws-us-east-1\n\
         tables:\n  tickets:\n    item_size: 100 B\n    key_size: 10 B\n    key: { partition: tenant, sort: id }\n    \
         indexes:\n      by-state:\n        type: gsi\n        projection: keys-only\n        \
         key_size: 8 B\n        key: { partition: state }\n      by-date:\n        type: lsi\n        projection: all\n        \
         key: { partition: tenant, sort: at }\n    patterns:\n      open:\n        op: put\n        rate: 10/s\n",
    );
    let folder = dir.path().join("export").to_string_lossy().into_owned();
    let doc = keys_json(&[&folder, "--workload", &workload]);
    assert_eq!(doc["files"], 1);
    assert_eq!(doc["items"], 30);
    assert_eq!(doc["has_lsi"], true);
    // tenant: 3 values × 10 items; state (GSI by-state): open 24 of 30 = 80 %.
    assert_eq!(attr(&doc, 0)["label"], "tenant (table key)");
    assert_eq!(attr(&doc, 0)["distinct"], 3);
    assert_eq!(attr(&doc, 1)["label"], "state (index by-state)");
    assert_eq!(
        share(&attr(&doc, 1)["measures"]["items"]["top_1_share"]),
        dec("0.8")
    );
    // Every tenant's collection holds its items and their LSI (ALL) entries: twice the items.
    let c = &attr(&doc, 0)["collection"];
    let busiest_bytes = attr(&doc, 0)["busiest"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["value"] == c["value"])
        .unwrap()["bytes"]
        .as_u64()
        .unwrap();
    assert_eq!(c["bytes"].as_u64().unwrap(), 2 * busiest_bytes);
    // Standard input: the same items, plain.
    let out = Case::new()
        .args(["keys", "-", "--key", "pk", "--format", "json"])
        .stdin("{\"pk\":\"a\"}\n{\"pk\":\"a\"}\n{\"pk\":\"b\"}\n")
        .run()
        .success();
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    // a: 2 of 3 items.
    assert_eq!(attr(&doc, 0)["busiest"][0]["value"], "a");
    assert_eq!(attr(&doc, 0)["busiest"][0]["items"], 2);
}

#[test]
fn a_gzip_log_and_a_log_on_standard_input_count_the_same() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let text = "pk,operation,units\na,GetItem,1\na,PutItem,2\nb,Query,0.5\n";
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(text.as_bytes()).unwrap();
    let path = dir.path().join("access.csv.gz");
    std::fs::write(&path, gz.finish().unwrap()).unwrap();
    let from_gz = keys_json(&["--log", path.to_str().unwrap(), "--key", "pk"]);
    let out = Case::new()
        .args(["keys", "--log", "-", "--key", "pk", "--format", "json"])
        .stdin(text)
        .run()
        .success();
    let from_stdin: Value = serde_json::from_str(&out.stdout).unwrap();
    // Reads 1 + 0.5 = 1.5 units, writes 2, over 2 values.
    for doc in [&from_gz, &from_stdin] {
        let a = attr(doc, 0);
        assert_eq!(a["measures"]["reads"]["total"], "1.5");
        assert_eq!(a["measures"]["writes"]["total"], "2");
        assert_eq!(a["distinct"], 2);
    }
}

#[test]
fn key_values_are_shown_without_acting_on_the_terminal() {
    // An export whose busiest value holds an escape sequence (written `\u001b` in its JSON)
    // and another a right-to-left override: the table, Markdown and HTML show them escaped,
    // the JSON summary keeps the values as they are (the summary `--merge` reads back).
    let dir = tempfile::tempdir().unwrap();
    let mut counts = vec![
        ("red\\u001b[31m".to_string(), 30),
        ("abc\u{202E}fed".to_string(), 20),
    ];
    counts.extend((0..10).map(|i| (format!("v{i}"), 1)));
    let file = write(dir.path(), "items.json", &items(&counts));
    for format in ["table", "markdown", "html"] {
        let out = Case::new()
            .args(["keys", &file, "--key", "pk", "--format", format])
            .run()
            .success();
        assert!(
            !out.stdout.contains('\u{1b}') && !out.stdout.contains('\u{202E}'),
            "{format}: {}",
            out.stdout
        );
        assert!(
            out.stdout.contains("red\\u{1b}"),
            "{format}: {}",
            out.stdout
        );
        assert!(
            out.stdout.contains("abc\\u{202e}fed"),
            "{format}: {}",
            out.stdout
        );
    }
    let doc = keys_json(&[&file, "--key", "pk"]);
    let values = doc["attributes"][0]["values"].to_string();
    assert!(values.contains("red\\u001b[31m"), "{values}");
}
