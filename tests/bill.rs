//! `ddbcost bill`: the DynamoDB rows of a bill — CUR 2.0 (CSV, gzip CSV, a delivery folder
//! with its manifest), the legacy CUR, FOCUS 1.2 with AWS columns — per table, region and
//! component, every row counted once, and the workload built from it. The fixture is built
//! from the CUR 2.0 dictionary: November 2026 (720 h) of two us-east-1 tables and an
//! account, each figure derived below from its rows.

mod common;

use common::{Case, dec, write_file};
use serde_json::Value;

const ACCOUNT: &str = "111122223333";

/// The columns of the fixture, as CUR 2.0 names them (a subset of its 125, with the ones
/// ddbcost reads and a map column).
const CUR2: [&str; 20] = [
    "identity_line_item_id",
    "bill_billing_period_start_date",
    "line_item_line_item_type",
    "line_item_usage_start_date",
    "line_item_usage_end_date",
    "line_item_product_code",
    "line_item_usage_type",
    "line_item_operation",
    "line_item_resource_id",
    "line_item_usage_amount",
    "line_item_currency_code",
    "line_item_unblended_cost",
    "pricing_public_on_demand_cost",
    "reservation_effective_cost",
    "reservation_unused_amortized_upfront_fee_for_billing_period",
    "reservation_unused_recurring_fee",
    "savings_plan_savings_plan_effective_cost",
    "savings_plan_total_commitment_to_date",
    "savings_plan_used_commitment",
    "resource_tags",
];

/// One fixture row: (type, start second of November, usage type, operation, table or "",
/// region of the ARN, amount, unblended cost, reservation effective cost).
struct R<'a>(
    &'a str,
    i64,
    &'a str,
    &'a str,
    &'a str,
    &'a str,
    &'a str,
    &'a str,
    &'a str,
);

fn iso(seconds_into_november: i64) -> String {
    let day = seconds_into_november / 86_400 + 1;
    let s = seconds_into_november % 86_400;
    format!(
        "2026-11-{day:02}T{:02}:{:02}:00Z",
        s / 3_600,
        s % 3_600 / 60
    )
}

/// The fixture's DynamoDB rows.
fn spec() -> Vec<R<'static>> {
    let mut spec: Vec<R> = Vec::new();
    for d in 0..30 {
        let t = d * 86_400;
        // orders, on demand, a day at a time.
        spec.push(R(
            "Usage",
            t,
            "ReadRequestUnits",
            "PayPerRequestThroughput",
            "orders",
            "us-east-1",
            "10000000",
            "1.25",
            "",
        ));
        spec.push(R(
            "Usage",
            t,
            "WriteRequestUnits",
            "PayPerRequestThroughput",
            "orders",
            "us-east-1",
            "2000000",
            "1.25",
            "",
        ));
        spec.push(R(
            "Usage",
            t,
            "TimedStorage-ByteHrs",
            "StandardStorage",
            "orders",
            "us-east-1",
            "0.5",
            "0.125",
            "",
        ));
        spec.push(R(
            "Usage",
            t,
            "TimedPITRStorage-ByteHrs",
            "PointInTimeRecoveryBackupStorage",
            "orders",
            "us-east-1",
            "0.5",
            "0.1",
            "",
        ));
        spec.push(R(
            "Usage",
            t,
            "Streams-Requests",
            "GetRecords",
            "orders",
            "us-east-1",
            "100000",
            "0.002",
            "",
        ));
        // Its replica in us-east-2.
        spec.push(R(
            "Usage",
            t,
            "USE2-ReplWriteRequestUnits",
            "PayPerRequestThroughput",
            "orders",
            "us-east-2",
            "2000000",
            "1.875",
            "",
        ));
    }
    spec.extend(hourly());
    spec.extend(account());
    spec
}

/// events, provisioned, an hour at a time.
fn hourly() -> Vec<R<'static>> {
    let mut spec = Vec::new();
    for h in 0..720 {
        let t = h * 3_600;
        // events, provisioned: 150 WCU, 100 of them reserved; 20 RCU.
        spec.push(R(
            "Usage",
            t,
            "WriteCapacityUnit-Hrs",
            "CommittedThroughput",
            "events",
            "us-east-1",
            "50",
            "0.0325",
            "",
        ));
        spec.push(R(
            "DiscountedUsage",
            t,
            "WriteCapacityUnit-Hrs",
            "CommittedThroughput",
            "events",
            "us-east-1",
            "100",
            "0",
            "0.03",
        ));
        spec.push(R(
            "Usage",
            t,
            "ReadCapacityUnit-Hrs",
            "CommittedThroughput",
            "events",
            "us-east-1",
            "20",
            "0.0026",
            "",
        ));
    }
    spec
}

/// The account's rows: the reserved fee, a tax, a credit, a usage type nobody maps.
fn account() -> Vec<R<'static>> {
    vec![
        R(
            "RIFee",
            0,
            "HeavyUsage:dynamodb.write",
            "CommittedThroughput",
            "",
            "",
            "720",
            "9.216",
            "",
        ),
        R("Tax", 0, "", "", "", "", "0", "5", ""),
        R(
            "Credit",
            0,
            "TimedStorage-ByteHrs",
            "StandardStorage",
            "orders",
            "us-east-1",
            "0",
            "-0.25",
            "",
        ),
        R(
            "Usage",
            0,
            "VectorSearchUnits",
            "VectorSearch",
            "orders",
            "us-east-1",
            "1000",
            "1",
            "",
        ),
    ]
}

fn rows() -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = spec()
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let arn = if r.4.is_empty() {
                String::new()
            } else {
                format!("arn:aws:dynamodb:{}:{ACCOUNT}:table/{}", r.5, r.4)
            };
            let end = if r.2.contains("Capacity") {
                r.1 + 3_600
            } else {
                r.1 + 86_400
            };
            vec![
                format!("id-{i}"),
                "2026-11-01T00:00:00.000Z".into(),
                r.0.into(),
                iso(r.1),
                iso(end.min(30 * 86_400 - 60)),
                "AmazonDynamoDB".into(),
                r.2.into(),
                r.3.into(),
                arn,
                r.6.into(),
                "USD".into(),
                r.7.into(),
                r.7.into(),
                r.8.into(),
                if r.0 == "RIFee" {
                    "0".into()
                } else {
                    String::new()
                },
                if r.0 == "RIFee" {
                    "0".into()
                } else {
                    String::new()
                },
                String::new(),
                String::new(),
                String::new(),
                "{\"user:team\":\"shop\"}".into(),
            ]
        })
        .collect();
    // Another service's row: counted, not summed.
    let mut s3 = out[0].clone();
    s3[5] = "AmazonS3".into();
    s3[6] = "TimedStorage-ByteHrs".into();
    s3[11] = "12".into();
    out.push(s3);
    out
}

fn csv_of(header: &[&str], rows: &[Vec<String>]) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(header).unwrap();
    for r in rows {
        w.write_record(r).unwrap();
    }
    String::from_utf8(w.into_inner().unwrap()).unwrap()
}

fn bill_json(args: &[&str]) -> Value {
    let mut all = vec!["bill"];
    all.extend(args);
    all.extend(["--format", "json"]);
    let out = Case::new().args(&all).run().success();
    serde_json::from_str(&out.stdout).unwrap()
}

fn line<'a>(doc: &'a Value, table: Option<&str>, component: &str, meter: &str) -> &'a Value {
    doc["lines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| {
            l["table"].as_str() == table && l["component"] == component && l["meter"] == meter
        })
        .unwrap_or_else(|| panic!("no line {table:?} {component} {meter}"))
}

fn s(v: &Value) -> rust_decimal::Decimal {
    dec(v.as_str().unwrap_or_else(|| panic!("not a decimal: {v}")))
}

#[test]
fn a_cur2_month_is_summed_by_table_component_and_region_every_row_once() {
    let dir = tempfile::tempdir().unwrap();
    let f = write_file(dir.path(), "cur.csv", &csv_of(&CUR2, &rows()));
    let doc = bill_json(&[&f]);
    assert_eq!(doc["schema"], "ddbcost.bill/v1");
    assert_eq!(doc["billing_period"], "2026-11");
    // Rows: orders 5 × 30 + its replica 30 + events 3 × 720 + the RI fee, the tax, the credit
    // and the unmapped row = 2,344 DynamoDB rows, + 1 of S3 = 2,345 read.
    assert_eq!(doc["rows"]["read"], 2_345);
    assert_eq!(doc["rows"]["dynamodb"], 2_344);
    assert_eq!(doc["rows"]["other_services"], 1);
    assert_eq!(doc["rows"]["account_level"], 1);
    assert_eq!(doc["rows"]["kept_apart"], 2);
    assert_eq!(doc["rows"]["not_mapped"], 1);
    assert_eq!(doc["rows"]["matched_to_tables"], 2_340);
    // orders' reads: 30 × 10,000,000 = 300,000,000 units, 30 × $1.25 = $37.50.
    let reads = line(&doc, Some("orders"), "reads", "ReadRequestUnits");
    assert_eq!(s(&reads["quantity"]), dec("300000000"));
    assert_eq!(s(&reads["unblended"]), dec("37.5"));
    // Storage: 30 × 0.5 = 15 GB-months, $3.75.
    let storage = line(&doc, Some("orders"), "storage", "TimedStorage-ByteHrs");
    assert_eq!(s(&storage["quantity"]), dec("15"));
    // The replica's writes, in us-east-2 by their prefix: 60,000,000 units, $56.25.
    let repl = line(
        &doc,
        Some("orders"),
        "replicated-writes",
        "ReplWriteRequestUnits",
    );
    assert_eq!(repl["region"], "us-east-2");
    assert_eq!(s(&repl["quantity"]), dec("60000000"));
    assert_eq!(s(&repl["unblended"]), dec("56.25"));
    // events' writes: 720 × (50 + 100) = 108,000 WCU-hours; unblended 720 × $0.0325 = $23.40
    // (the reserved hours bill 0), effective $23.40 + 720 × $0.03 = $45.00.
    let writes = line(&doc, Some("events"), "writes", "WriteCapacityUnit-Hrs");
    assert_eq!(writes["rows"], 1_440);
    assert_eq!(s(&writes["quantity"]), dec("108000"));
    assert_eq!(s(&writes["unblended"]), dec("23.4"));
    assert_eq!(s(&writes["effective"]), dec("45"));
    // The reserved fee is the account's: $9.216 billed, nothing unused (effective 0).
    let fee = line(&doc, None, "reserved-capacity", "HeavyUsage:dynamodb.write");
    assert_eq!(s(&fee["unblended"]), dec("9.216"));
    assert_eq!(s(&fee["effective"]), dec("0"));
    // Kept apart and named: the tax and the credit; listed with its cost: the usage type
    // nobody maps.
    assert_eq!(s(&line(&doc, None, "tax", "Tax")["unblended"]), dec("5"));
    assert_eq!(
        s(&line(&doc, None, "credit", "Credit")["unblended"]),
        dec("-0.25")
    );
    assert_eq!(
        s(&line(&doc, None, "not mapped", "VectorSearchUnits")["unblended"]),
        dec("1")
    );
    // Totals, unblended: orders 37.50 + 37.50 + 3.75 + 3.00 + 0.06 = 81.81, the replica
    // 56.25, events 23.40 + 0 + 720 × 0.0026 = 25.272, the fee 9.216, the tax 5, the
    // credit −0.25, the unmapped 1: $178.298. Effective: the same but events 45 + 1.872 =
    // 46.872 and the fee 0: $190.682.
    assert_eq!(s(&doc["total"]["unblended"]), dec("178.298"));
    assert_eq!(s(&doc["total"]["effective"]), dec("190.682"));
    // The lines add up to the totals exactly.
    let sum: rust_decimal::Decimal = doc["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| s(&l["unblended"]))
        .sum();
    assert_eq!(sum, s(&doc["total"]["unblended"]));
}

#[test]
fn the_same_rows_read_alike_gzipped_in_a_delivery_folder_and_as_legacy_cur() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let text = csv_of(&CUR2, &rows());
    let plain = write_file(dir.path(), "cur.csv", &text);
    let want = bill_json(&[&plain]);
    // A Data Exports delivery: data/BILLING_PERIOD=2026-11/ parts and the manifest listing
    // them; the rows split over two gzip parts.
    let export = dir.path().join("export");
    let data = export.join("data/BILLING_PERIOD=2026-11");
    std::fs::create_dir_all(&data).unwrap();
    std::fs::create_dir_all(export.join("metadata/BILLING_PERIOD=2026-11")).unwrap();
    let all = rows();
    let (a, b) = all.split_at(1_000);
    for (name, part) in [("cur-00001.csv.gz", a), ("cur-00002.csv.gz", b)] {
        let mut enc = flate2::write::GzEncoder::new(
            std::fs::File::create(data.join(name)).unwrap(),
            flate2::Compression::default(),
        );
        enc.write_all(csv_of(&CUR2, part).as_bytes()).unwrap();
        enc.finish().unwrap();
    }
    let manifest = serde_json::json!({
        "dataFiles": [
            "s3://bucket/prefix/cur/data/BILLING_PERIOD=2026-11/cur-00001.csv.gz",
            "s3://bucket/prefix/cur/data/BILLING_PERIOD=2026-11/cur-00002.csv.gz",
        ],
    });
    write_file(
        &export.join("metadata/BILLING_PERIOD=2026-11"),
        "cur-Manifest.json",
        &manifest.to_string(),
    );
    let folder = bill_json(&[export.to_str().unwrap()]);
    assert_eq!(folder["lines"], want["lines"]);
    assert_eq!(folder["total"], want["total"]);
    // A part the manifest names and the folder lacks: the bill is not whole, refused.
    std::fs::remove_file(data.join("cur-00002.csv.gz")).unwrap();
    Case::new()
        .args(["bill", export.to_str().unwrap()])
        .run()
        .code(1)
        .stderr_has("names the part")
        .stderr_has("cur-00002.csv.gz");
    // The legacy CUR: the same fields under slashed names.
    let legacy: Vec<String> = CUR2
        .iter()
        .map(|c| match *c {
            "identity_line_item_id" => "identity/LineItemId".to_string(),
            "bill_billing_period_start_date" => "bill/BillingPeriodStartDate".to_string(),
            "line_item_line_item_type" => "lineItem/LineItemType".to_string(),
            "line_item_usage_start_date" => "lineItem/UsageStartDate".to_string(),
            "line_item_usage_end_date" => "lineItem/UsageEndDate".to_string(),
            "line_item_product_code" => "lineItem/ProductCode".to_string(),
            "line_item_usage_type" => "lineItem/UsageType".to_string(),
            "line_item_operation" => "lineItem/Operation".to_string(),
            "line_item_resource_id" => "lineItem/ResourceId".to_string(),
            "line_item_usage_amount" => "lineItem/UsageAmount".to_string(),
            "line_item_currency_code" => "lineItem/CurrencyCode".to_string(),
            "line_item_unblended_cost" => "lineItem/UnblendedCost".to_string(),
            "pricing_public_on_demand_cost" => "pricing/publicOnDemandCost".to_string(),
            "reservation_effective_cost" => "reservation/EffectiveCost".to_string(),
            "reservation_unused_amortized_upfront_fee_for_billing_period" => {
                "reservation/UnusedAmortizedUpfrontFeeForBillingPeriod".to_string()
            }
            "reservation_unused_recurring_fee" => "reservation/UnusedRecurringFee".to_string(),
            "savings_plan_savings_plan_effective_cost" => {
                "savingsPlan/SavingsPlanEffectiveCost".to_string()
            }
            "savings_plan_total_commitment_to_date" => {
                "savingsPlan/TotalCommitmentToDate".to_string()
            }
            "savings_plan_used_commitment" => "savingsPlan/UsedCommitment".to_string(),
            other => other.to_string(),
        })
        .collect();
    let refs: Vec<&str> = legacy.iter().map(String::as_str).collect();
    let old = write_file(dir.path(), "legacy.csv", &csv_of(&refs, &rows()));
    let doc = bill_json(&[&old]);
    assert_eq!(doc["lines"], want["lines"]);
    assert_eq!(doc["total"], want["total"]);
}

#[test]
fn the_bill_builds_a_workload_that_estimates_its_usage_at_list_prices() {
    let dir = tempfile::tempdir().unwrap();
    let f = write_file(dir.path(), "cur.csv", &csv_of(&CUR2, &rows()));
    let out = dir.path().join("from-bill.yaml").display().to_string();
    Case::new()
        .args(["bill", &f, "--to-workload", &out])
        .run()
        .success();
    let yaml = std::fs::read_to_string(&out).unwrap();
    assert!(yaml.contains("month_hours: 720"), "{yaml}");
    // What a workload cannot state is said with its cost: the replica's writes in us-east-2.
    assert!(
        yaml.contains("replicated-writes ReplWriteRequestUnits in us-east-2 (56.25 USD)"),
        "{yaml}"
    );
    let est = Case::new()
        .args(["estimate", &out, "--format", "json"])
        .run()
        .success();
    let doc: Value = serde_json::from_str(&est.stdout).unwrap();
    let cost = |key: &str| {
        s(&doc["line_items"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["key"] == key)
            .unwrap_or_else(|| panic!("no line {key}: {doc}"))["cost"])
    };
    // orders on demand: 300,000,000 RRU × $0.125/M = $37.50; 60,000,000 WRU × $0.625/M =
    // $37.50; 15 GB × $0.25 = $3.75 — what the bill billed.
    assert_eq!(cost("orders/reads"), dec("37.5"));
    assert_eq!(cost("orders/writes"), dec("37.5"));
    assert_eq!(cost("orders/storage"), dec("3.75"));
    // events provisioned: ⌈108,000 ÷ 720⌉ = 150 WCU × 720 h × $0.00065 = $70.20 at list
    // (the bill paid less: 100 of them were reserved); 20 RCU × 720 × $0.00013 = $1.872.
    assert_eq!(cost("events/writes"), dec("70.2"));
    assert_eq!(cost("events/reads"), dec("1.872"));
    // `advise` and `compare` take it like any workload.
    Case::new().args(["advise", &out]).run().success();
    Case::new()
        .args(["compare", &out, "--set", "tables.orders.class=standard-ia"])
        .run()
        .success();
}

#[test]
fn what_is_not_a_bill_is_refused_with_its_file_row_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let refuse = |file: &str, needle: &str| {
        Case::new()
            .args(["bill", file])
            .run()
            .code(1)
            .stderr_has(needle);
    };
    let not = write_file(d, "x.csv", "a,b\n1,2\n");
    refuse(&not, "not a bill");
    let mut header = CUR2.to_vec();
    header.retain(|c| *c != "line_item_unblended_cost");
    let mut r = rows();
    for row in &mut r {
        row.remove(11);
    }
    let missing = write_file(d, "m.csv", &csv_of(&header, &r));
    refuse(&missing, "without its `line_item_unblended_cost` column");
    // One value changed at a time: (row, column, value, what is said).
    for (i, (row, col, value, needle)) in [
        (
            3,
            9,
            "-5",
            "row 4, column `line_item_usage_amount`: negative usage (-5)",
        ),
        (
            2,
            11,
            "lots",
            "row 3, column `line_item_unblended_cost`: `lots` is not a number",
        ),
        (5, 10, "EUR", "DynamoDB rows in USD and in EUR"),
    ]
    .into_iter()
    .enumerate()
    {
        let mut r = rows();
        r[row][col] = value.into();
        let f = write_file(d, &format!("changed-{i}.csv"), &csv_of(&CUR2, &r));
        refuse(&f, needle);
    }
    // Two billing periods: refused without `--period`, one read with it.
    let mut r = rows();
    let mut december = r[0].clone();
    december[1] = "2026-12-01T00:00:00.000Z".into();
    december[3] = "2026-12-01T00:00:00Z".into();
    r.push(december);
    let periods = write_file(d, "p.csv", &csv_of(&CUR2, &r));
    refuse(
        &periods,
        "the bill holds 2 billing periods (2026-11, 2026-12)",
    );
    let doc = bill_json(&[&periods, "--period", "2026-11"]);
    assert_eq!(doc["rows"]["other_periods"], 1);
    Case::new()
        .args(["bill", &periods, "--period", "November"])
        .run()
        .code(2)
        .stderr_has("invalid value 'November' for '--period <YYYY-MM>': `November` is not a month");
    // Only another service's rows.
    let mut r = rows();
    r.retain(|row| row[5] == "AmazonS3");
    let s3 = write_file(d, "s3.csv", &csv_of(&CUR2, &r));
    refuse(
        &s3,
        "no DynamoDB row (product code AmazonDynamoDB) in 1 rows",
    );
}

/// 2026-11-01T00:00:00Z in Unix seconds.
const NOV_1: i64 = 1_793_491_200;

/// Milliseconds of a fixture time (`2026-MM-DDTHH:MM:SS…`, November or December 2026).
fn millis(t: &str) -> i64 {
    let num = |a: usize, b: usize| t[a..b].parse::<i64>().unwrap();
    let days = if &t[5..7] == "12" { 30 } else { 0 } + num(8, 10) - 1;
    (NOV_1 + days * 86_400 + num(11, 13) * 3_600 + num(14, 16) * 60) * 1_000
}

/// The rows as a CUR 2.0 Parquet file, as Data Exports types them: amounts and costs
/// DOUBLE, times TIMESTAMP(MILLIS), the rest UTF8, every column nullable; Snappy.
fn parquet_of(path: &std::path::Path, rows: &[Vec<String>]) {
    parquet_typed(path, rows, Pq::Double, "MILLIS");
}

/// How `parquet_typed` writes the cost and amount columns.
#[derive(Clone, Copy, PartialEq)]
enum Pq {
    Double,
    /// The numbers as UTF8 text.
    Text,
    /// BOOLEAN (true where a cost is not zero): not a cost at all.
    Boolean,
}

/// `parquet_of` with the cost and amount columns as `costs`, and times at `unit`
/// (`MILLIS`, `MICROS` or `NANOS`).
fn parquet_typed(path: &std::path::Path, rows: &[Vec<String>], costs: Pq, unit: &str) {
    use parquet::data_type::{BoolType, ByteArray, ByteArrayType, DoubleType, Int64Type};
    use parquet::file::properties::WriterProperties;
    use parquet::file::writer::SerializedFileWriter;
    let doubles = [9, 11, 12, 13, 14, 15, 16, 17, 18];
    let times = [1, 3, 4];
    let per_second: i64 = match unit {
        "MILLIS" => 1_000,
        "MICROS" => 1_000_000,
        _ => 1_000_000_000,
    };
    let fields: Vec<String> = CUR2
        .iter()
        .enumerate()
        .map(|(i, c)| {
            if doubles.contains(&i) {
                match costs {
                    Pq::Double => format!("OPTIONAL DOUBLE {c};"),
                    Pq::Text => format!("OPTIONAL BINARY {c} (UTF8);"),
                    Pq::Boolean => format!("OPTIONAL BOOLEAN {c};"),
                }
            } else if times.contains(&i) {
                format!("OPTIONAL INT64 {c} (TIMESTAMP({unit},true));")
            } else {
                format!("OPTIONAL BINARY {c} (UTF8);")
            }
        })
        .collect();
    let schema = parquet::schema::parser::parse_message_type(&format!(
        "message schema {{ {} }}",
        fields.join(" ")
    ))
    .unwrap();
    let props = WriterProperties::builder()
        .set_compression(parquet::basic::Compression::SNAPPY)
        .set_max_row_group_size(1_000)
        .build();
    let file = std::fs::File::create(path).unwrap();
    let mut w = SerializedFileWriter::new(
        file,
        std::sync::Arc::new(schema),
        std::sync::Arc::new(props),
    )
    .unwrap();
    for chunk in rows.chunks(1_000) {
        let mut rg = w.next_row_group().unwrap();
        let mut i = 0;
        while let Some(mut col) = rg.next_column().unwrap() {
            let cells: Vec<&str> = chunk.iter().map(|r| r[i].as_str()).collect();
            let defs: Vec<i16> = cells.iter().map(|c| i16::from(!c.is_empty())).collect();
            let present = cells.iter().filter(|c| !c.is_empty());
            if doubles.contains(&i) && costs == Pq::Boolean {
                let v: Vec<bool> = present.map(|c| *c != "0").collect();
                col.typed::<BoolType>()
                    .write_batch(&v, Some(&defs), None)
                    .unwrap();
            } else if doubles.contains(&i) && costs == Pq::Double {
                let v: Vec<f64> = present.map(|c| c.parse().unwrap()).collect();
                col.typed::<DoubleType>()
                    .write_batch(&v, Some(&defs), None)
                    .unwrap();
            } else if times.contains(&i) {
                let v: Vec<i64> = present.map(|c| millis(c) / 1_000 * per_second).collect();
                col.typed::<Int64Type>()
                    .write_batch(&v, Some(&defs), None)
                    .unwrap();
            } else {
                let v: Vec<ByteArray> = present.map(|c| ByteArray::from(*c)).collect();
                col.typed::<ByteArrayType>()
                    .write_batch(&v, Some(&defs), None)
                    .unwrap();
            }
            col.close().unwrap();
            i += 1;
        }
        rg.close().unwrap();
    }
    w.close().unwrap();
}

#[test]
fn parquet_and_csv_of_the_same_rows_give_byte_identical_reports() {
    let dir = tempfile::tempdir().unwrap();
    let r = rows();
    let csv = write_file(dir.path(), "cur.csv", &csv_of(&CUR2, &r));
    let pq = dir.path().join("cur.snappy.parquet");
    parquet_of(&pq, &r);
    let pq = pq.display().to_string();
    for format in ["table", "json", "csv", "markdown"] {
        let a = Case::new()
            .args(["bill", &csv, "--format", format])
            .run()
            .success();
        let b = Case::new()
            .args(["bill", &pq, "--format", format])
            .run()
            .success();
        // Only the file names differ.
        assert_eq!(
            a.stdout.replace(&csv, "F"),
            b.stdout.replace(&pq, "F"),
            "{format}"
        );
    }
    // A truncated Parquet file is refused, named.
    let bytes = std::fs::read(&pq).unwrap();
    let cut = dir.path().join("cut.parquet");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    Case::new()
        .args(["bill", cut.to_str().unwrap()])
        .run()
        .code(1)
        .stderr_has("not a readable Parquet file")
        .stderr_has("cut.parquet");
}

#[test]
fn a_focus_export_with_aws_columns_reads_like_the_cur() {
    let dir = tempfile::tempdir().unwrap();
    let cur = write_file(dir.path(), "cur.csv", &csv_of(&CUR2, &rows()));
    let want = bill_json(&[&cur]);
    // The FOCUS 1.2 export of the same rows: costs as BilledCost and EffectiveCost, the
    // usage type and operation as x_ columns, the reservation's usage `Used` with its id,
    // the reservation's recurring fee a `Purchase`.
    let header = [
        "BillingPeriodStart",
        "ChargeCategory",
        "ChargePeriodStart",
        "ChargePeriodEnd",
        "ServiceName",
        "x_ServiceCode",
        "x_UsageType",
        "x_Operation",
        "ResourceId",
        "ConsumedQuantity",
        "BillingCurrency",
        "BilledCost",
        "EffectiveCost",
        "ListCost",
        "CommitmentDiscountId",
        "CommitmentDiscountStatus",
    ];
    let focus: Vec<Vec<String>> = rows()
        .iter()
        .map(|r| {
            let (category, id, status) = match r[2].as_str() {
                "DiscountedUsage" => (
                    "Usage",
                    "arn:aws:dynamodb:us-east-1:111122223333:reserved-capacity/rc-1",
                    "Used",
                ),
                "RIFee" => (
                    "Purchase",
                    "arn:aws:dynamodb:us-east-1:111122223333:reserved-capacity/rc-1",
                    "",
                ),
                "Tax" => ("Tax", "", ""),
                "Credit" => ("Credit", "", ""),
                _ => ("Usage", "", ""),
            };
            let effective = match r[2].as_str() {
                "DiscountedUsage" => r[13].clone(),
                "RIFee" => "0".to_string(),
                _ => r[11].clone(),
            };
            vec![
                r[1].clone(),
                category.to_string(),
                r[3].clone(),
                r[4].clone(),
                if r[5] == "AmazonDynamoDB" {
                    "Amazon DynamoDB".into()
                } else {
                    "Amazon Simple Storage Service".into()
                },
                r[5].clone(),
                r[6].clone(),
                r[7].clone(),
                r[8].clone(),
                r[9].clone(),
                r[10].clone(),
                r[11].clone(),
                effective,
                r[12].clone(),
                id.to_string(),
                status.to_string(),
            ]
        })
        .collect();
    let f = write_file(dir.path(), "focus.csv", &csv_of(&header, &focus));
    let doc = bill_json(&[&f]);
    assert_eq!(doc["lines"], want["lines"]);
    assert_eq!(doc["total"], want["total"]);
}

const WORKLOAD: &str = "prices: aws-us-east-1
tables:
  orders:
    capacity: { mode: on-demand }
    pitr: true
    stream: { consumers: { app: { kind: reader, records_per_call: 1 } } }
    observed: { read_units: 300000000, write_units: 60000000, storage: 15 GB, pitr: 15 GB, stream_read_requests: 3000000 }
  events:
    capacity: { mode: provisioned, rcu: 20, wcu: 150 }
    observed: { storage: 0 GB }
  carts:
    capacity: { mode: on-demand }
    observed: { write_units: 1000000, storage: 0 GB }
";

#[test]
fn reconcile_names_each_variance_and_the_billed_side_adds_up_to_the_bill() {
    let dir = tempfile::tempdir().unwrap();
    let bill = write_file(dir.path(), "cur.csv", &csv_of(&CUR2, &rows()));
    let w = write_file(dir.path(), "w.yaml", WORKLOAD);
    let out = Case::new()
        .args(["reconcile", &w, "--bill", &bill, "--format", "json"])
        .run()
        .success();
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc["schema"], "ddbcost.reconcile/v1");
    // Estimated for November's 720 hours.
    assert_eq!(doc["hours"], "720");
    let row = |table: Option<&str>, component: &str, meter: &str| {
        doc["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| {
                r["table"].as_str() == table && r["component"] == component && r["meter"] == meter
            })
            .unwrap_or_else(|| panic!("no row {table:?} {component} {meter}: {doc}"))
            .clone()
    };
    // orders' reads: 300,000,000 RRU × $0.125/M = $37.50 estimated, $37.50 billed.
    let reads = row(Some("orders"), "reads", "ReadRequestUnits");
    assert_eq!(reads["cause"], "matches");
    assert_eq!(s(&reads["estimated"]["cost"]), dec("37.5"));
    assert_eq!(s(&reads["variance"]), dec("0"));
    // Stream reads: 3,000,000 × $0.20/M = $0.60 at list; billed $0.06, with no commitment
    // row: a rate below list, −$0.54 (−90 %).
    let streams = row(Some("orders"), "stream-reads", "Streams-Requests");
    assert_eq!(streams["cause"], "rate");
    assert_eq!(s(&streams["estimated"]["cost"]), dec("0.6"));
    assert_eq!(s(&streams["variance"]), dec("-0.54"));
    assert_eq!(s(&streams["variance_share"]), dec("-0.9"));
    assert!(
        streams["cause_text"]
            .as_str()
            .unwrap()
            .contains("the bill shows no commitment")
    );
    // events' writes: 150 WCU × 720 h = 108,000 WCU-hours, both sides; $70.20 at list,
    // $23.40 billed: below list, and the bill shows the reservation that covered 72,000 h.
    let writes = row(Some("events"), "writes", "WriteCapacityUnit-Hrs");
    assert_eq!(s(&writes["estimated"]["quantity"]), dec("108000"));
    assert_eq!(s(&writes["billed"]["quantity"]), dec("108000"));
    assert_eq!(s(&writes["estimated"]["cost"]), dec("70.2"));
    assert_eq!(s(&writes["variance"]), dec("-46.8"));
    assert!(
        writes["cause_text"]
            .as_str()
            .unwrap()
            .contains("reserved capacity covered part")
    );
    // events' reads: 20 RCU × 720 h × $0.00013 = $1.872, as billed.
    assert_eq!(
        row(Some("events"), "reads", "ReadCapacityUnit-Hrs")["cause"],
        "matches"
    );
    // Billed and absent from the workload: orders' replica in us-east-2.
    assert_eq!(
        row(Some("orders"), "replicated-writes", "ReplWriteRequestUnits")["cause"],
        "not-in-workload"
    );
    // In the workload, not billed: carts (1,000,000 WRU × $0.625/M = $0.625).
    let carts = row(Some("carts"), "writes", "WriteRequestUnits");
    assert_eq!(carts["cause"], "table-not-billed");
    assert_eq!(s(&carts["variance"]), dec("-0.625"));
    // Kept apart, and the account's.
    assert_eq!(row(None, "tax", "Tax")["cause"], "apart");
    assert_eq!(
        row(None, "not mapped", "VectorSearchUnits")["cause"],
        "apart"
    );
    assert_eq!(
        row(None, "reserved-capacity", "HeavyUsage:dynamodb.write")["cause"],
        "account"
    );
    // Totals: estimated 37.50 + 37.50 + 3.75 + 3.00 + 0.60 (orders) + 70.20 + 1.872
    // (events) + 0.625 (carts) = $155.047; billed $178.298 (the bill's DynamoDB total), which
    // the rows' billed column adds up to exactly.
    assert_eq!(s(&doc["total"]["estimated"]), dec("155.047"));
    assert_eq!(s(&doc["total"]["billed_unblended"]), dec("178.298"));
    assert_eq!(s(&doc["total"]["variance"]), dec("23.251"));
    let billed: rust_decimal::Decimal = doc["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["billed"]["unblended"].as_str().map(dec))
        .sum();
    assert_eq!(billed, dec("178.298"));
    assert_eq!(doc["rows_read"]["other_services_skipped"], 1);
    // The table view says it in words.
    Case::new()
        .args(["reconcile", &w, "--bill", &bill])
        .run()
        .success()
        .stdout_has("rate below list: reserved capacity covered part of it")
        .stdout_has("table in the workload, not billed");
}

#[test]
fn a_workload_reconciles_with_its_own_focus_export_to_the_cent() {
    // ddbcost's FOCUS export of an estimate, read back as a bill: every table's line
    // matches (quantities in the usage types' units: 262.8 M RRU = 262,800,000), and the
    // totals agree exactly (the commitments' lines are the account's on both sides, keyed
    // differently: their variances cancel).
    let dir = tempfile::tempdir().unwrap();
    let w = common::root().join("workloads/commitments-us-east-1.yaml");
    let w = w.to_str().unwrap();
    let focus = Case::new()
        .args(["estimate", w, "--format", "focus"])
        .run()
        .success();
    let f = write_file(dir.path(), "own.csv", &focus.stdout);
    let out = Case::new()
        .args([
            "reconcile",
            w,
            "--bill",
            &f,
            "--month-hours",
            "730",
            "--format",
            "json",
        ])
        .run()
        .success();
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    let rows = doc["rows"].as_array().unwrap();
    let tables: Vec<&Value> = rows.iter().filter(|r| r["table"].is_string()).collect();
    assert_eq!(tables.len(), 9, "{tables:#?}");
    for r in &tables {
        assert_eq!(r["cause"], "matches", "{r}");
    }
    let reads = tables
        .iter()
        .find(|r| r["table"] == "events" && r["component"] == "reads")
        .unwrap();
    assert_eq!(s(&reads["billed"]["quantity"]), dec("262800000"));
    // The reservation's upfront fee ($150 a block, one block, bought in a month the workload
    // does not state) is billed when bought, not in this month: the estimate amortizes it,
    // $150 ÷ 12 = $12.50, which the effective cost carries and the billed cost does not.
    assert_eq!(s(&doc["total"]["variance"]), dec("-12.5"));
    assert_eq!(
        s(&doc["total"]["estimated"]),
        s(&doc["total"]["billed_effective"])
    );
}

/// Every bundled example, read back from its own FOCUS export: every line of a table
/// matches (CloudShop's price table has a region of its own, which only `x_Region` holds;
/// the marketplace's free lines and its replica's transfer are named as the estimate names
/// them), and the totals agree exactly.
#[test]
fn every_bundled_example_reconciles_with_its_own_focus_export_line_for_line() {
    let dir = tempfile::tempdir().unwrap();
    for name in [
        "cloudshop",
        "marketplace-us-east-1",
        "saas-dashboard",
        "commitments-us-east-1",
    ] {
        let w = common::root().join(format!("workloads/{name}.yaml"));
        let w = w.to_str().unwrap();
        let focus = Case::new()
            .args(["estimate", w, "--format", "focus", "--period", "2026-11"])
            .run()
            .success();
        let f = write_file(dir.path(), &format!("{name}.csv"), &focus.stdout);
        let out = Case::new()
            .args(["reconcile", w, "--bill", &f, "--format", "json"])
            .run()
            .success();
        let doc: Value = serde_json::from_str(&out.stdout).unwrap();
        let rows = doc["rows"].as_array().unwrap();
        let tables: Vec<&Value> = rows.iter().filter(|r| r["table"].is_string()).collect();
        assert!(!tables.is_empty(), "{name}");
        for r in &tables {
            assert_eq!(r["cause"], "matches", "{name}: {r}");
        }
        // The effective cost is the estimate's (amortized) view; the billed cost lacks the
        // amortized upfront fee of a reservation bought in another month: $150 ÷ 12 for
        // the commitments example's one block, nothing elsewhere.
        assert_eq!(
            s(&doc["total"]["estimated"]),
            s(&doc["total"]["billed_effective"]),
            "{name}"
        );
        let upfront = if name == "commitments-us-east-1" {
            dec("-12.5")
        } else {
            dec("0")
        };
        assert_eq!(s(&doc["total"]["variance"]), upfront, "{name}");
        if name == "commitments-us-east-1" {
            // The figures docs/reports.md quotes, to the cent: the example's estimate for
            // November (720 h) and that less the $12.50 amortized upfront fee.
            let cents = |v: &Value| s(v).round_dp(2);
            assert_eq!(cents(&doc["total"]["estimated"]), dec("247.01"));
            assert_eq!(cents(&doc["total"]["billed_unblended"]), dec("234.51"));
        }
    }
}

#[test]
fn commitments_are_sized_by_pricing_the_bills_hours_with_each_amount() {
    let dir = tempfile::tempdir().unwrap();
    let f = write_file(dir.path(), "cur.csv", &csv_of(&CUR2, &rows()));
    let doc = bill_json(&[&f, "--commitments"]);
    let c = &doc["commitments"];
    let find = |cap: &str, term: &str| {
        c["reserved"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["capacity"] == cap && r["term"] == term)
            .unwrap_or_else(|| panic!("no {cap} {term}: {c}"))
            .clone()
    };
    // events: 150 WCU every hour of November's 720, 100 of them reserved (owned at least
    // 100). With none reserved: 150 × 720 × $0.00065 = $70.20. A 1-year block costs
    // $0.0128 an hour + $150 spread over 8,760 h, ≈ $0.02992 an hour, against the $0.065
    // (100 units) or $0.0325 (the last 50) it saves: two blocks, 200 WCU, for
    // 2 × (720 × 0.0128 + 720 × 150 ÷ 8,760) over the period, nothing left on demand.
    let wcu = find("wcu", "1y");
    assert_eq!(s(&wcu["units"]), dec("200"));
    assert_eq!(s(&wcu["owned_at_least"]), dec("100"));
    assert_eq!(s(&wcu["busiest_hour"]), dec("150"));
    assert_eq!(s(&wcu["without"]), dec("70.2"));
    let two_blocks =
        dec("2") * (dec("720") * dec("0.0128") + dec("720") * dec("150") / dec("8760"));
    assert_eq!(s(&wcu["with"]), two_blocks);
    // Utilization: 150 of 200 units every hour = 75 %.
    assert_eq!(s(&wcu["utilization"]), dec("0.75"));
    // 3 years: $0.0081 an hour + $180 over 26,280 h ≈ $0.01495 a block-hour: also 200.
    assert_eq!(s(&find("wcu", "3y")["units"]), dec("200"));
    // 20 RCU an hour save 20 × $0.00013 = $0.0026 an hour, less than a block costs
    // ($0.0025 + $30 ÷ 8,760 ≈ $0.00592; 3 years ≈ $0.00297): none.
    assert_eq!(s(&find("rcu", "1y")["units"]), dec("0"));
    assert_eq!(s(&find("rcu", "3y")["units"]), dec("0"));
    // The bundled tables state no savings-plan rates: said, not guessed.
    assert!(c["savings_plan"].is_null());
    assert!(
        c["notes"].to_string().contains("no rates for us-east-1"),
        "{c}"
    );
}

#[test]
fn a_savings_plan_is_sized_on_the_hourly_eligible_spend_at_the_tables_rates() {
    let dir = tempfile::tempdir().unwrap();
    // A price table with plan rates: us-east-1's, and 0.8 of list on every eligible price.
    let prices = dir.path().join("prices");
    std::fs::create_dir_all(&prices).unwrap();
    let bundled =
        std::fs::read_to_string(common::root().join("pricing/aws-us-east-1.yaml")).unwrap();
    write_file(
        &prices,
        "aws-us-east-1.yaml",
        &format!(
            "{bundled}\nsavings_plan_rates:\n  source: \"test rates\"\n  standard: {{ read_per_million: 0.8, write_per_million: 0.8, rcu_hour: 0.8, wcu_hour: 0.8 }}\n"
        ),
    );
    // 360 hours of 1,600,000 WRU ($1.00 at $0.625/M) then 360 of 800,000 ($0.50).
    let rows: Vec<Vec<String>> = (0..720)
        .map(|h| {
            let amount = if h < 360 { "1600000" } else { "800000" };
            let cost = if h < 360 { "1" } else { "0.5" };
            let mut r = vec![String::new(); CUR2.len()];
            r[0] = format!("w{h}");
            r[1] = "2026-11-01T00:00:00.000Z".into();
            r[2] = "Usage".into();
            r[3] = iso(h * 3_600);
            r[4] = iso(h * 3_600 + 3_540);
            r[5] = "AmazonDynamoDB".into();
            r[6] = "WriteRequestUnits".into();
            r[8] = format!("arn:aws:dynamodb:us-east-1:{ACCOUNT}:table/orders");
            r[9] = amount.into();
            r[10] = "USD".into();
            r[11] = cost.into();
            r
        })
        .collect();
    let f = write_file(dir.path(), "cur.csv", &csv_of(&CUR2, &rows));
    let doc = bill_json(&[
        &f,
        "--commitments",
        "--prices-dir",
        prices.to_str().unwrap(),
    ]);
    let plan = &doc["commitments"]["savings_plan"];
    // At the plan's rate the hours are worth $0.80 and $0.40. With c an hour committed, an
    // hour costs c + list × (1 − min(c, p) ÷ p): for c ≤ 0.4 the total is 360 × (1.5 − 0.5c),
    // falling; above, 360 × (1 + 0.75c), rising. So c = $0.40: 360 × 1.3 = $468 against
    // 360 × 1.5 = $540 without.
    assert_eq!(s(&plan["per_hour"]), dec("0.4"));
    assert_eq!(s(&plan["without"]), dec("540"));
    assert_eq!(s(&plan["with"]), dec("468"));
    assert!(
        doc["commitments"]["notes"]
            .to_string()
            .contains("no Standard provisioned capacity")
    );
}

#[test]
fn the_athena_sql_run_on_duckdb_gives_the_report_the_files_give() {
    let Some(python) = common::duckdb_python() else {
        common::skip_without(
            "duckdb",
            "runs the printed Athena SQL on the Parquet fixture",
        );
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let pq = dir.path().join("cur.parquet");
    parquet_of(&pq, &rows());
    let sql = Case::new()
        .args([
            "bill",
            "--athena-sql",
            "--period",
            "2026-11",
            "--athena-table",
            "cur",
        ])
        .run()
        .success()
        .stdout;
    // The same SQL from `reconcile`.
    let w = write_file(dir.path(), "w.yaml", WORKLOAD);
    let again = Case::new()
        .args([
            "reconcile",
            &w,
            "--athena-sql",
            "--period",
            "2026-11",
            "--athena-table",
            "cur",
        ])
        .run()
        .success()
        .stdout;
    assert_eq!(sql, again);
    let out = dir.path().join("athena.csv");
    let script = format!(
        "import duckdb, sys\ncon = duckdb.connect()\ncon.execute(\"SET TimeZone = 'UTC'\")\ncon.execute(\"CREATE VIEW cur AS SELECT * FROM read_parquet('{}')\")\ncon.execute('COPY (' + sys.stdin.read() + ') TO \\'{}\\' (HEADER)')\n",
        pq.display(),
        out.display()
    );
    let mut child = std::process::Command::new(&python)
        .args(["-c", &script])
        .stdin(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(sql.as_bytes())
            .unwrap();
    }
    assert!(child.wait().unwrap().success(), "duckdb ran the SQL");
    let direct = bill_json(&[pq.to_str().unwrap()]);
    let queried = bill_json(&[out.to_str().unwrap()]);
    // The same lines and totals (the query leaves out the other services' rows).
    assert_eq!(queried["lines"], direct["lines"]);
    assert_eq!(queried["total"], direct["total"]);
    assert_eq!(queried["rows"]["other_services"], 0);
    assert_eq!(direct["rows"]["other_services"], 1);
}

mod every_row_once {
    //! For any generated bill, every row is counted once and the report adds up exactly.
    #![allow(clippy::arithmetic_side_effects)] // test arithmetic over small generated figures

    use proptest::prelude::*;
    use rust_decimal::Decimal;

    const TYPES: [&str; 6] = [
        "Usage",
        "DiscountedUsage",
        "Credit",
        "Tax",
        "RIFee",
        "Refund",
    ];
    const USAGE: [&str; 7] = [
        "ReadRequestUnits",
        "EU-WriteCapacityUnit-Hrs",
        "TimedStorage-ByteHrs",
        "USE2-ReplWriteRequestUnits",
        "HeavyUsage:dynamodb.write",
        "SomethingNew-Units",
        "",
    ];

    fn row() -> impl Strategy<Value = (usize, usize, usize, bool, i64, i64)> {
        (
            0..6usize,
            0..7usize,
            0..3usize,
            any::<bool>(),
            0..10_000_000i64,
            -5_000i64..50_000,
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn the_lines_add_up_to_the_rows(rows in proptest::collection::vec(row(), 1..40)) {
            let mut csv = String::from("line_item_line_item_type,line_item_usage_start_date,line_item_product_code,line_item_usage_type,line_item_resource_id,line_item_usage_amount,line_item_currency_code,line_item_unblended_cost\n");
            let mut dynamodb = 0u64;
            let mut other = 0u64;
            let mut total = Decimal::ZERO;
            for (t, u, table, s3, amount, cost) in &rows {
                // Usage never negative; costs in ten-thousandths of a dollar, any sign.
                let cost = Decimal::new(*cost, 4);
                let resource = if *table == 0 {
                    String::new()
                } else {
                    format!("arn:aws:dynamodb:us-east-1:1:table/t{table}")
                };
                let product = if *s3 { "AmazonS3" } else { "AmazonDynamoDB" };
                csv.push_str(&format!(
                    "{},2026-11-01T00:00:00Z,{product},{},{resource},{amount},USD,{cost}\n",
                    TYPES[*t], USAGE[*u]
                ));
                if *s3 {
                    other += 1;
                } else {
                    dynamodb += 1;
                    total += cost;
                }
            }
            let out = ddbcost::api::bill::report_text("p.csv", &csv, None, ddbcost::api::ReportFormat::Json);
            if dynamodb == 0 {
                prop_assert!(out.is_err());
                return Ok(());
            }
            let doc: serde_json::Value = serde_json::from_str(&out.unwrap()).unwrap();
            let d = |v: &serde_json::Value| v.as_str().unwrap().parse::<Decimal>().unwrap();
            prop_assert_eq!(doc["rows"]["dynamodb"].as_u64(), Some(dynamodb));
            prop_assert_eq!(doc["rows"]["other_services"].as_u64(), Some(other));
            prop_assert_eq!(d(&doc["total"]["unblended"]), total);
            let lines = doc["lines"].as_array().unwrap();
            let rows_counted: u64 = lines.iter().map(|l| l["rows"].as_u64().unwrap()).sum();
            prop_assert_eq!(rows_counted, dynamodb);
            let sum: Decimal = lines.iter().map(|l| d(&l["unblended"])).sum();
            prop_assert_eq!(sum, total);
        }
    }
}

#[test]
fn savings_plan_rows_count_their_usage_once_and_cost_what_the_plan_says() {
    // The fixture and a savings plan's rows for one hour of orders' writes: the covered usage
    // (1,000,000 WRU, $0.625 at list, $0.50 at the plan's effective cost), its negation
    // (−$0.625, nothing effective), and the plan's hourly fee, billed under the plan's own
    // product code (a Database Savings Plan covers other databases too: another service here).
    let mut all = rows();
    let base = all[1].clone(); // a WriteRequestUnits row of orders
    let mut covered = base.clone();
    covered[2] = "SavingsPlanCoveredUsage".into();
    covered[9] = "1000000".into();
    covered[11] = "0.625".into();
    covered[16] = "0.5".into();
    let mut negation = base.clone();
    negation[2] = "SavingsPlanNegation".into();
    negation[9] = "0".into();
    negation[11] = "-0.625".into();
    let mut fee = base;
    fee[2] = "SavingsPlanRecurringFee".into();
    fee[5] = "DatabaseSavingsPlans".into();
    fee[8] = format!("arn:aws:savingsplans::{ACCOUNT}:savingsplan/sp-1");
    fee[11] = "0.5".into();
    all.extend([covered, negation, fee]);
    let dir = tempfile::tempdir().unwrap();
    let f = write_file(dir.path(), "cur.csv", &csv_of(&CUR2, &all));
    let doc = bill_json(&[&f]);
    // orders' writes: 30 × 2,000,000 + 1,000,000 covered = 61,000,000 WRU used (the negation
    // counts no usage); unblended 37.50 + 0.625 − 0.625 = $37.50; effective 37.50 + 0.50 =
    // $38.00.
    let writes = line(&doc, Some("orders"), "writes", "WriteRequestUnits");
    assert_eq!(writes["rows"], 32);
    assert_eq!(s(&writes["quantity"]), dec("61000000"));
    assert_eq!(s(&writes["unblended"]), dec("37.5"));
    assert_eq!(s(&writes["effective"]), dec("38"));
    // The totals: unblended unchanged ($178.298), effective 190.682 + 0.50 = $191.182; the
    // fee is the plan's product's row, counted among other services.
    assert_eq!(s(&doc["total"]["unblended"]), dec("178.298"));
    assert_eq!(s(&doc["total"]["effective"]), dec("191.182"));
    assert_eq!(doc["rows"]["other_services"], 2);
    let charge = |name: &str| {
        doc["by_charge"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["charge"] == name)
            .unwrap_or_else(|| panic!("no {name}"))
            .clone()
    };
    assert_eq!(
        s(&charge("usage covered by a savings plan")["effective"]),
        dec("0.5")
    );
    assert_eq!(
        s(&charge("savings plan negation")["unblended"]),
        dec("-0.625")
    );
}

#[test]
fn a_parquet_file_that_makes_the_decoder_panic_is_refused_quietly() {
    // Found by the `bill` fuzz target: Apache's decoder indexes out of bounds on this file
    // (its dictionary page lies). The panic is contained: a refusal, no backtrace.
    let f = common::root().join("tests/fixtures/bill/decoder-panics.parquet");
    let out = Case::new()
        .args(["bill", f.to_str().unwrap()])
        .env("RUST_BACKTRACE", "1")
        .run()
        .code(1)
        .stderr_has("not a readable Parquet file (the Parquet decoder failed on it)");
    assert!(!out.stderr.contains("panicked"), "{}", out.stderr);
}

#[test]
fn a_bills_names_are_shown_without_acting_on_the_terminal() {
    // The same month, with an escape sequence in every ARN's table name (`orders\e[2J`): the
    // table, Markdown and HTML of `bill` and `reconcile` show it as `\u{1b}`, the CSV and
    // JSON keep the bill's text.
    let dir = tempfile::tempdir().unwrap();
    let mut rows = rows();
    for r in &mut rows {
        r[8] = r[8].replace("table/orders", "table/orders\u{1b}[2J");
    }
    let f = write_file(dir.path(), "cur.csv", &csv_of(&CUR2, &rows));
    // Reconciled with a workload, the bill's `orders\e[2J` is a table the workload lacks:
    // its rows are billed only, and shown escaped too.
    let w = write_file(dir.path(), "w.yaml", WORKLOAD);
    let bill = ["bill", f.as_str()];
    let reconcile = ["reconcile", w.as_str(), "--bill", f.as_str()];
    for command in [&bill[..], &reconcile[..]] {
        for format in ["table", "markdown", "html"] {
            let out = Case::new()
                .args(command)
                .args(["--format", format])
                .run()
                .success();
            let what = format!("{} {format}", command[0]);
            assert!(!out.stdout.contains('\u{1b}'), "{what}: {}", out.stdout);
            assert!(
                out.stdout.contains("orders\\u{1b}"),
                "{what}: {}",
                out.stdout
            );
        }
    }
    // The CSV keeps the bill's text, as the JSON below does.
    let csv = Case::new()
        .args(["bill", &f, "--format", "csv"])
        .run()
        .success();
    assert!(csv.stdout.contains("orders\u{1b}[2J,"), "{}", csv.stdout);
    let doc = bill_json(&[&f]);
    // orders' reads, as before: 30 × 10,000,000 = 300,000,000 units, under the bill's name.
    let reads = line(&doc, Some("orders\u{1b}[2J"), "reads", "ReadRequestUnits");
    assert_eq!(s(&reads["quantity"]), dec("300000000"));
}

#[test]
fn parquet_columns_are_checked_against_the_dictionary_and_any_time_unit_reads() {
    let dir = tempfile::tempdir().unwrap();
    let r = rows();
    let csv = write_file(dir.path(), "cur.csv", &csv_of(&CUR2, &r));
    let want = bill_json(&[&csv]);
    // Nanosecond and microsecond timestamps, and costs written as text: the same bill.
    for (name, costs, unit) in [
        ("nanos.parquet", Pq::Double, "NANOS"),
        ("micros.parquet", Pq::Double, "MICROS"),
        ("text.parquet", Pq::Text, "MILLIS"),
    ] {
        let pq = dir.path().join(name);
        parquet_typed(&pq, &r, costs, unit);
        let doc = bill_json(&[pq.to_str().unwrap()]);
        assert_eq!(doc["lines"], want["lines"], "{name}");
        assert_eq!(doc["total"], want["total"], "{name}");
    }
    // A cost column that is not a number is refused with the column and the file, before
    // any row is read as 0.
    let pq = dir.path().join("bool.parquet");
    parquet_typed(&pq, &r, Pq::Boolean, "MILLIS");
    Case::new()
        .args(["bill", pq.to_str().unwrap()])
        .run()
        .code(1)
        .stderr_has("column `line_item_usage_amount` is BOOLEAN: a cost or quantity is a number")
        .stderr_has("bool.parquet");
}

#[test]
fn a_null_cost_is_counted_as_missing_and_said() {
    let dir = tempfile::tempdir().unwrap();
    let mut r = rows();
    // The first row (orders' reads of November 1st, $1.25) loses its cost.
    r[0][11] = String::new();
    let pq = dir.path().join("null.parquet");
    parquet_of(&pq, &r);
    let out = Case::new()
        .args(["bill", pq.to_str().unwrap(), "--format", "json"])
        .run()
        .success()
        .stderr_has("1 DynamoDB row(s) have no cost (null or empty): counted as 0");
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(
        doc["notes"],
        serde_json::json!(["1 DynamoDB row(s) have no cost (null or empty): counted as 0"])
    );
}

#[test]
fn the_same_bill_given_twice_counts_once() {
    let dir = tempfile::tempdir().unwrap();
    let text = csv_of(&CUR2, &rows());
    let a = write_file(dir.path(), "cur.csv", &text);
    let copy = write_file(dir.path(), "copy-of-cur.csv", &text);
    let want = bill_json(&[&a]);
    for args in [
        vec![a.as_str(), a.as_str()],
        vec![a.as_str(), copy.as_str()],
    ] {
        let out = Case::new()
            .args(["bill"])
            .args(&args)
            .args(["--format", "json"])
            .run()
            .success()
            .stderr_has("is the same bill file as")
            .stderr_has(": counted once");
        let doc: Value = serde_json::from_str(&out.stdout).unwrap();
        assert_eq!(doc["total"], want["total"]);
    }
}

/// A legacy CUR delivery folder as AWS writes it when it keeps report versions:
/// `report/20261101-20261201/<assemblyId>/report-1.csv.gz` with its manifest, once per
/// delivery, and the period's own manifest pointing at the latest assembly.
fn legacy_delivery(
    root: &std::path::Path,
    assemblies: &[(&str, &[Vec<String>])],
    current: Option<&str>,
) {
    use std::io::Write;
    let period = root.join("report/20261101-20261201");
    for (id, rows) in assemblies {
        let folder = period.join(id);
        std::fs::create_dir_all(&folder).unwrap();
        let mut enc = flate2::write::GzEncoder::new(
            std::fs::File::create(folder.join("report-1.csv.gz")).unwrap(),
            flate2::Compression::default(),
        );
        enc.write_all(csv_of(&CUR2, rows).as_bytes()).unwrap();
        enc.finish().unwrap();
        let manifest = serde_json::json!({
            "assemblyId": id,
            "billingPeriod": {"start": "20261101T000000.000Z", "end": "20261201T000000.000Z"},
            "reportKeys": [format!("prefix/report/20261101-20261201/{id}/report-1.csv.gz")],
        });
        write_file(&folder, "report-Manifest.json", &manifest.to_string());
    }
    if let Some(id) = current {
        let manifest = serde_json::json!({
            "assemblyId": id,
            "billingPeriod": {"start": "20261101T000000.000Z", "end": "20261201T000000.000Z"},
            "reportKeys": [format!("prefix/report/20261101-20261201/{id}/report-1.csv.gz")],
        });
        write_file(&period, "report-Manifest.json", &manifest.to_string());
    }
}

#[test]
fn a_delivery_folder_with_two_assemblies_reads_the_current_one() {
    let dir = tempfile::tempdir().unwrap();
    let all = rows();
    // The first delivery of the month held its first 500 rows; the second, the whole month.
    let early: Vec<Vec<String>> = all[..500].to_vec();
    let plain = write_file(dir.path(), "cur.csv", &csv_of(&CUR2, &all));
    let want = bill_json(&[&plain]);
    let folder = dir.path().join("delivery");
    legacy_delivery(
        &folder,
        &[("aaaa-1111", &early), ("bbbb-2222", &all)],
        Some("bbbb-2222"),
    );
    let out = Case::new()
        .args(["bill", folder.to_str().unwrap(), "--format", "json"])
        .run()
        .success()
        .stderr_has("billing period 2026-11: 3 deliveries in")
        .stderr_has("aaaa-1111/report-1.csv.gz");
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    // Every row once: what the single file totals, not the two assemblies summed.
    assert_eq!(doc["total"], want["total"]);
    assert_eq!(doc["lines"], want["lines"]);
    // Without the period's manifest, two deliveries that differ: refused, both named.
    let bare = dir.path().join("bare");
    legacy_delivery(&bare, &[("aaaa-1111", &early), ("bbbb-2222", &all)], None);
    Case::new()
        .args(["bill", bare.to_str().unwrap()])
        .run()
        .code(1)
        .stderr_has("holds 2 deliveries of billing period 2026-11")
        .stderr_has("none is the period's current manifest");
}

mod split {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(12))]
        /// A bill split into any set of parts, delivered with a manifest listing them, totals
        /// what the single file does.
        #[test]
        fn a_bill_split_into_any_parts_totals_the_same(cuts in prop::collection::btree_set(1usize..1_200, 0..6)) {
            let dir = tempfile::tempdir().unwrap();
            let all = rows();
            let plain = write_file(dir.path(), "cur.csv", &csv_of(&CUR2, &all));
            let want = bill_json(&[&plain]);
            let export = dir.path().join("export");
            let data = export.join("data/BILLING_PERIOD=2026-11");
            std::fs::create_dir_all(&data).unwrap();
            let mut bounds: Vec<usize> = cuts.into_iter().filter(|c| *c < all.len()).collect();
            bounds.insert(0, 0);
            bounds.push(all.len());
            let mut keys = Vec::new();
            for (n, w) in bounds.windows(2).enumerate() {
                let name = format!("cur-{n:05}.csv");
                write_file(&data, &name, &csv_of(&CUR2, &all[w[0]..w[1]]));
                keys.push(format!("s3://bucket/cur/data/BILLING_PERIOD=2026-11/{name}"));
            }
            let meta = export.join("metadata/BILLING_PERIOD=2026-11");
            std::fs::create_dir_all(&meta).unwrap();
            write_file(&meta, "cur-Manifest.json", &serde_json::json!({"dataFiles": keys}).to_string());
            let doc = bill_json(&[export.to_str().unwrap()]);
            prop_assert_eq!(&doc["total"], &want["total"]);
            prop_assert_eq!(&doc["lines"], &want["lines"]);
        }
    }
}
