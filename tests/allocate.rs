//! `ddbcost allocate` on the binary: a month's bill of the SaaS seed's single table split by
//! organisation from a log of requests with `ConsumedCapacity`, worked by hand.

mod common;

use common::{Case, dec, write_file};
use rust_decimal::Decimal;
use serde_json::Value;

const HEADER: &str = "line_item_line_item_type,line_item_usage_start_date,line_item_product_code,line_item_usage_type,line_item_resource_id,line_item_usage_amount,line_item_currency_code,line_item_unblended_cost\n";

/// November 2026 of table `saas`: reads $10, writes $20, storage $2.50.
fn bill() -> String {
    format!(
        "{HEADER}Usage,2026-11-01T00:00:00Z,AmazonDynamoDB,ReadRequestUnits,arn:aws:dynamodb:us-east-1:1:table/saas,80000000,USD,10\nUsage,2026-11-01T00:00:00Z,AmazonDynamoDB,WriteRequestUnits,arn:aws:dynamodb:us-east-1:1:table/saas,32000000,USD,20\nUsage,2026-11-01T00:00:00Z,AmazonDynamoDB,TimedStorage-ByteHrs,arn:aws:dynamodb:us-east-1:1:table/saas,10,USD,2.5\n"
    )
}

/// Requests: org 1 reads 6 units and writes 3 (1 on the table, 2 on a GSI); org 2 reads 3
/// units (half-unit eventual gets ×6) and writes 1; a scan with no tenant reads 1 unit.
fn log() -> String {
    let get = |org: u32| {
        format!(
            "{{\"operation\":\"GetItem\",\"Key\":{{\"PK\":{{\"S\":\"ORG#{org}#U\"}}}},\"ConsumedCapacity\":{{\"TableName\":\"saas\",\"CapacityUnits\":0.5}}}}\n"
        )
    };
    let mut out = String::new();
    for _ in 0..12 {
        out.push_str(&get(1));
    }
    for _ in 0..6 {
        out.push_str(&get(2));
    }
    out.push_str("{\"operation\":\"PutItem\",\"Item\":{\"PK\":{\"S\":\"ORG#1#D\"}},\"ConsumedCapacity\":{\"TableName\":\"saas\",\"CapacityUnits\":3,\"Table\":{\"CapacityUnits\":1},\"GlobalSecondaryIndexes\":{\"g\":{\"CapacityUnits\":2}}}}\n");
    out.push_str("{\"operation\":\"PutItem\",\"Item\":{\"PK\":{\"S\":\"ORG#2#D\"}},\"ConsumedCapacity\":{\"TableName\":\"saas\",\"CapacityUnits\":1}}\n");
    out.push_str("{\"operation\":\"Scan\",\"ConsumedCapacity\":{\"TableName\":\"saas\",\"CapacityUnits\":1}}\n");
    out
}

#[test]
fn a_bill_is_split_by_tenant_to_the_cent() {
    let dir = tempfile::tempdir().unwrap();
    let bill = write_file(dir.path(), "bill.csv", &bill());
    let log = write_file(dir.path(), "app.log", &log());
    let out = Case::new()
        .args([
            "allocate",
            "--bill",
            bill.as_str(),
            "--log",
            log.as_str(),
            "--tenant",
            "PK=ORG#([0-9]+)",
            "--format",
            "json",
        ])
        .run()
        .success();
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    let row = |name: &str| {
        doc["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["name"].as_str().unwrap().starts_with(name))
            .unwrap_or_else(|| panic!("no row {name}: {doc}"))
            .clone()
    };
    let u = |r: &Value| dec(r["unblended"].as_str().unwrap());
    // Reads $10 over 6 + 3 + 1 (untenanted) = 10 units: org 1 $6, org 2 $3, untenanted $1.
    // Writes $20 over 3 + 1 = 4 units: org 1 $15, org 2 $5.
    assert_eq!(u(&row("1")), dec("21"));
    assert_eq!(u(&row("2")), dec("8"));
    assert_eq!(u(&row("untenanted")), dec("1"));
    // Storage $2.50: no bytes per tenant without an export.
    assert_eq!(u(&row("not measured")), dec("2.5"));
    // Σ rows = the bill: 21 + 8 + 1 + 2.5 = $32.50.
    let sum: Decimal = doc["rows"].as_array().unwrap().iter().map(u).sum();
    assert_eq!(sum, dec("32.5"));
    assert_eq!(doc["total"]["unblended"], "32.5");
    // The table view says the same.
    Case::new()
        .args([
            "allocate",
            "--bill",
            bill.as_str(),
            "--log",
            log.as_str(),
            "--tenant",
            "PK=ORG#([0-9]+)",
        ])
        .run()
        .success()
        .stdout_has("(remainder) untenanted requests")
        .stdout_has("32.50");
}

#[test]
fn a_bad_tenant_pattern_is_a_usage_error() {
    Case::new()
        .args([
            "allocate", "--bill", "b.csv", "--log", "l.log", "--tenant", "PK=(",
        ])
        .run()
        .code(2)
        .stderr_has("does not compile");
}

/// An export of `saas` in DynamoDB JSON: org 1 has three items, org 2 one; each item is
/// `PK` (2 bytes of name + 7 of value) and `d` (1 + 10): 20 bytes, 120 with DynamoDB's
/// 100 bytes of overhead an item.
fn export() -> String {
    let item = |pk: &str| {
        format!("{{\"Item\":{{\"PK\":{{\"S\":\"{pk}\"}},\"d\":{{\"S\":\"0123456789\"}}}}}}\n")
    };
    [
        item("ORG#1#A"),
        item("ORG#1#B"),
        item("ORG#1#C"),
        item("ORG#2#A"),
    ]
    .concat()
}

fn allocate_args<'a>(bill: &'a str, log: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "allocate",
        "--bill",
        bill,
        "--log",
        log,
        "--tenant",
        "PK=ORG#([0-9]+)",
    ];
    args.extend_from_slice(extra);
    args
}

#[test]
fn storage_is_split_by_the_bytes_of_an_export() {
    let dir = tempfile::tempdir().unwrap();
    let bill = write_file(dir.path(), "bill.csv", &bill());
    let log = write_file(dir.path(), "app.log", &log());
    let items = write_file(dir.path(), "export.json", &export());
    let out = Case::new()
        .args(allocate_args(
            &bill,
            &log,
            &["--export", &format!("saas={items}"), "--format", "json"],
        ))
        .run()
        .success();
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    let named = |name: &str| {
        doc["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["name"] == name)
            .map_or_else(
                || panic!("no row {name}: {doc}"),
                |r| dec(r["unblended"].as_str().unwrap()),
            )
    };
    // Storage $2.50 over 360 + 120 bytes: org 1 2.5 × 360/480 = 1.875, org 2 0.625;
    // with their reads and writes (21 and 8, above): 22.875 and 8.625.
    assert_eq!(named("1"), dec("22.875"));
    assert_eq!(named("2"), dec("8.625"));
    assert!(
        !out.stdout.contains("not measured"),
        "nothing is left unmeasured: {}",
        out.stdout
    );
    // The bill has one table: the export's table may go unsaid.
    Case::new()
        .args(allocate_args(&bill, &log, &["--export", &items]))
        .run()
        .success()
        .stdout_has("22.88");
}

#[test]
fn the_csv_has_a_row_per_tenant_per_line_adding_up_to_the_bill() {
    let dir = tempfile::tempdir().unwrap();
    let bill = write_file(dir.path(), "bill.csv", &bill());
    let log = write_file(dir.path(), "app.log", &log());
    let out = Case::new()
        .args(allocate_args(&bill, &log, &["--format", "csv"]))
        .run()
        .success();
    let (header, rows) = common::csv_table(&out.stdout);
    let sum = |col: &str| -> Decimal {
        let i = common::column(&header, col);
        rows.iter().map(|r| dec(&r[i])).sum()
    };
    // Reads: org 1 $6, org 2 $3, untenanted $1; writes: org 1 $15, org 2 $5; storage $2.50
    // unmeasured: six rows adding up to $32.50, exact and rounded.
    assert_eq!(rows.len(), 6, "{}", out.stdout);
    assert_eq!(sum("unblended_cost"), dec("32.5"));
    assert_eq!(sum("unblended_cost_rounded"), dec("32.50"));
    assert!(
        out.stdout
            .starts_with("billing_period,currency,table,region,component,meter,tenant,remainder,")
    );
    assert!(
        out.stdout
            .contains("2026-11,USD,saas,us-east-1,writes,WriteRequestUnits,1,false,15,"),
        "{}",
        out.stdout
    );
    // Markdown: the same rows as a table.
    Case::new()
        .args(allocate_args(&bill, &log, &["--format", "markdown"]))
        .run()
        .success()
        .stdout_has("| (remainder) untenanted requests ")
        .stdout_has("| 32.50     |")
        .stdout_has("|---");
}

#[test]
fn a_bill_is_split_by_pattern_label() {
    let dir = tempfile::tempdir().unwrap();
    let bill = write_file(dir.path(), "bill.csv", &bill());
    // org 1's 12 gets are labelled `get-user`, org 2's 6 `get-team`; the rest is unlabelled.
    let labelled = log()
        .replacen(
            "\"operation\":\"GetItem\",\"Key\":{\"PK\":{\"S\":\"ORG#1",
            "\"pattern\":\"get-user\",\"operation\":\"GetItem\",\"Key\":{\"PK\":{\"S\":\"ORG#1",
            12,
        )
        .replacen(
            "\"operation\":\"GetItem\",\"Key\":{\"PK\":{\"S\":\"ORG#2",
            "\"pattern\":\"get-team\",\"operation\":\"GetItem\",\"Key\":{\"PK\":{\"S\":\"ORG#2",
            6,
        );
    let log = write_file(dir.path(), "app.log", &labelled);
    let out = Case::new()
        .args([
            "allocate", "--bill", &bill, "--log", &log, "--by", "pattern", "--format", "json",
        ])
        .run()
        .success();
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    let named = |name: &str| {
        doc["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["name"] == name)
            .map(|r| dec(r["unblended"].as_str().unwrap()))
    };
    // Reads $10 over 6 + 3 + 1 units: get-user $6, get-team $3, the unlabelled scan $1; the
    // writes ($20) are unlabelled: $21 unlabelled in all, storage $2.50 unmeasured.
    assert_eq!(named("get-user"), Some(dec("6")));
    assert_eq!(named("get-team"), Some(dec("3")));
    assert_eq!(named("unlabelled requests"), Some(dec("21")));
    assert_eq!(doc["by"], "pattern");
    // An export cannot give bytes per pattern.
    Case::new()
        .args([
            "allocate", "--bill", &bill, "--log", &log, "--by", "pattern", "--export", "x",
        ])
        .run()
        .code(2)
        .stderr_has("--export and --insights measure tenants");
    // Splitting by tenant needs --tenant.
    Case::new()
        .args(["allocate", "--bill", &bill, "--log", &log])
        .run()
        .code(2)
        .stderr_has("--by tenant needs --tenant");
}

#[test]
fn provisioned_capacity_nobody_consumed_is_named_or_spread() {
    let dir = tempfile::tempdir().unwrap();
    // 1 RCU for 1 hour ($0.13): 3,600 read units provided.
    let bill = write_file(
        dir.path(),
        "bill.csv",
        &format!(
            "{HEADER}Usage,2026-11-01T00:00:00Z,AmazonDynamoDB,ReadCapacityUnit-Hrs,arn:aws:dynamodb:us-east-1:1:table/saas,1,USD,0.13\n"
        ),
    );
    let log = write_file(dir.path(), "app.log", &log());
    let out = Case::new()
        .args(allocate_args(&bill, &log, &["--format", "json"]))
        .run()
        .success();
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    let named = |doc: &Value, name: &str| {
        doc["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["name"] == name)
            .map(|r| dec(r["unblended"].as_str().unwrap()))
    };
    // 10 units consumed of 3,600: org 1 0.13 × 6/3,600, org 2 0.13 × 3/3,600 (to 10^-12,
    // toward zero), the rest not consumed.
    assert_eq!(named(&doc, "1"), Some(dec("0.000216666666")));
    assert_eq!(named(&doc, "2"), Some(dec("0.000108333333")));
    // 0.13 × 3,590/3,600 = 0.129638888888…
    assert_eq!(
        named(&doc, "provisioned capacity not consumed"),
        Some(dec("0.129638888888"))
    );
    let out = Case::new()
        .args(allocate_args(
            &bill,
            &log,
            &["--format", "json", "--spread-unused"],
        ))
        .run()
        .success();
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    // Spread: 0.13 × 6/10 = 0.078, 0.13 × 3/10 = 0.039.
    assert_eq!(named(&doc, "1"), Some(dec("0.078")));
    assert_eq!(named(&doc, "2"), Some(dec("0.039")));
    assert_eq!(named(&doc, "provisioned capacity not consumed"), None);
}

#[test]
fn a_contributor_insights_report_splits_a_table_the_logs_miss() {
    let dir = tempfile::tempdir().unwrap();
    // `saas` as above, and `legacy`: reads $10 the logs never show.
    let bill = write_file(
        dir.path(),
        "bill.csv",
        &format!(
            "{}Usage,2026-11-01T00:00:00Z,AmazonDynamoDB,ReadRequestUnits,arn:aws:dynamodb:us-east-1:1:table/legacy,80000000,USD,10\n",
            bill()
        ),
    );
    let log = write_file(dir.path(), "app.log", &log());
    // The report: 1,000 units in all, ORG#1 600 and ORG#9 300 among its top keys.
    let report = write_file(
        dir.path(),
        "ci.json",
        r#"{"KeyLabels":["PK"],"AggregationStatistic":"Sum","AggregateValue":1000.0,"ApproximateUniqueCount":40,"Contributors":[{"Keys":["ORG#1"],"ApproximateAggregateValue":600.0},{"Keys":["ORG#9"],"ApproximateAggregateValue":300.0}],"MetricDatapoints":[]}"#,
    );
    let out = Case::new()
        .args(allocate_args(
            &bill,
            &log,
            &[
                "--insights",
                &format!("legacy={report}"),
                "--format",
                "json",
            ],
        ))
        .run()
        .success();
    let out = out
        .stderr_has("table `legacy` is split by its Contributor Insights report")
        .stderr_has("approximate");
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    let named = |name: &str| {
        doc["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["name"] == name)
            .map(|r| dec(r["unblended"].as_str().unwrap()))
    };
    // legacy's $10 over 600 + 300 + the 100 past the top keys: org 1 $6 (with its $21 of
    // saas: $27), org 9 $3, past the top keys $1.
    assert_eq!(named("1"), Some(dec("27")));
    assert_eq!(named("9"), Some(dec("3")));
    assert_eq!(
        named("keys past Contributor Insights' top contributors"),
        Some(dec("1"))
    );
    // A report of a table the logs measure is not used, and said so.
    Case::new()
        .args(allocate_args(
            &bill,
            &log,
            &["--insights", &format!("saas={report}")],
        ))
        .run()
        .success()
        .stderr_has("the logs measure table `saas` exactly");
}

#[test]
fn a_report_past_the_record_budget_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let bill = write_file(dir.path(), "bill.csv", &bill());
    let log = write_file(dir.path(), "app.log", &log());
    // A Contributor Insights report is one JSON document: one record, held to
    // --max-record-bytes (here the least it takes, 1,024 bytes), refused with the flag that
    // raises it; the same report within the budget is read.
    let contributors: Vec<String> = (1..=40)
        .map(|i| format!(r#"{{"Keys":["ORG#{i}"],"ApproximateAggregateValue":10.0}}"#))
        .collect();
    let report = write_file(
        dir.path(),
        "ci.json",
        &format!(
            r#"{{"KeyLabels":["PK"],"AggregationStatistic":"Sum","AggregateValue":1000.0,"Contributors":[{}]}}"#,
            contributors.join(",")
        ),
    );
    assert!(std::fs::metadata(&report).unwrap().len() > 1024);
    let spec = format!("legacy={report}");
    Case::new()
        .args(allocate_args(
            &bill,
            &log,
            &["--insights", &spec, "--max-record-bytes", "1024"],
        ))
        .run()
        .code(1)
        .stderr_has("ci.json")
        .stderr_has("--max-record-bytes");
    Case::new()
        .args(allocate_args(&bill, &log, &["--insights", &spec]))
        .run()
        .success();
}
