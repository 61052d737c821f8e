//! The allocation of whole bills (issue #50), for any bill and any logs: through the same
//! path `ddbcost allocate` takes (`api::allocate::report_text`: the bill read as `bill` reads
//! it, the log read as `--log` reads it, the JSON report), every billed line's parties add up
//! to the line exactly, the rows to the total, the rounded rows to the rounded total; a
//! tenant whose requests consumed nothing gets nothing; and merging two tenants in the logs
//! merges their costs.
#![allow(clippy::arithmetic_side_effects)] // test arithmetic over small generated figures

mod common;

use common::dec;
use ddbcost::api::ReportFormat;
use ddbcost::api::allocate::report_text;
use proptest::prelude::*;
use rust_decimal::Decimal;
use serde_json::Value;

const HEADER: &str = "line_item_line_item_type,line_item_usage_start_date,line_item_product_code,line_item_usage_type,line_item_resource_id,line_item_usage_amount,line_item_currency_code,line_item_unblended_cost\n";

/// Meters of every kind of driver: request units, provisioned hours (consumed units against
/// capacity provided), storage and PITR (no export: bytes nobody measured), a stream's
/// reads and a replica's writes (by write units), and a usage type no rule maps.
const METERS: [&str; 9] = [
    "ReadRequestUnits",
    "WriteRequestUnits",
    "ReadCapacityUnit-Hrs",
    "WriteCapacityUnit-Hrs",
    "TimedStorage-ByteHrs",
    "TimedPITRStorage-ByteHrs",
    "Streams-Requests",
    "USE2-ReplWriteRequestUnits",
    "SomethingNew-Units",
];
const TABLES: [&str; 2] = ["t", "u"];
const TENANTS: [&str; 4] = ["a", "b", "c", "d"];
const OPERATIONS: [&str; 4] = ["GetItem", "PutItem", "Query", "DeleteItem"];

/// (line type credit?, meter, table, usage amount, cost)
type BillLine = (bool, usize, usize, Decimal, Decimal);
/// (operation, table, tenant (4: none), table units, index units)
type LogLine = (usize, usize, usize, Decimal, Decimal);

fn units() -> impl Strategy<Value = Decimal> {
    prop_oneof![
        Just(Decimal::ZERO),
        (1i64..10_000_000, 0u32..=2).prop_map(|(m, s)| Decimal::new(m, s)),
    ]
}

fn bill_line() -> impl Strategy<Value = BillLine> {
    (
        proptest::bool::weighted(0.1),
        0..METERS.len(),
        0..TABLES.len(),
        (1i64..1_000_000_000, 0u32..=3).prop_map(|(m, s)| Decimal::new(m, s)),
        (0i64..100_000_000_000, 0u32..=8).prop_map(|(m, s)| Decimal::new(m, s)),
    )
}

fn log_line() -> impl Strategy<Value = LogLine> {
    (
        0..OPERATIONS.len(),
        0..TABLES.len(),
        0..=TENANTS.len(),
        units(),
        units(),
    )
}

fn bill_text(lines: &[BillLine]) -> String {
    let mut text = HEADER.to_string();
    for (credit, meter, table, amount, cost) in lines {
        let (kind, cost) = if *credit {
            ("Credit", -*cost)
        } else {
            ("Usage", *cost)
        };
        text.push_str(&format!(
            "{kind},2026-11-01T00:00:00Z,AmazonDynamoDB,{},arn:aws:dynamodb:us-east-1:1:table/{},{amount},USD,{cost}\n",
            METERS[*meter], TABLES[*table]
        ));
    }
    text
}

/// A log: every line's key names its tenant (`ORG#a`) or none (`USER#9`); a write's index
/// units are on the GSI `g`.
fn log_text(lines: &[LogLine], rename: Option<(&str, &str)>) -> String {
    let mut text = String::new();
    for (op, table, tenant, own, index) in lines {
        let key = TENANTS.get(*tenant).map_or_else(
            || "USER#9".to_string(),
            |t| {
                let t = match rename {
                    Some((from, to)) if *t == from => to,
                    _ => t,
                };
                format!("ORG#{t}")
            },
        );
        let total = *own + *index;
        text.push_str(&format!(
            r#"{{"operation":"{}","Key":{{"PK":{{"S":"{key}"}}}},"ConsumedCapacity":{{"TableName":"{}","CapacityUnits":{total},"Table":{{"CapacityUnits":{own}}},"GlobalSecondaryIndexes":{{"g":{{"CapacityUnits":{index}}}}}}}}}"#,
            OPERATIONS[*op], TABLES[*table]
        ));
        text.push('\n');
    }
    text
}

fn allocate(bill: &str, log: &str) -> Value {
    let json = report_text(
        "cur.csv",
        bill,
        log,
        Some("PK=ORG#([^#]+)"),
        ReportFormat::Json,
    )
    .unwrap();
    serde_json::from_str(&json).unwrap()
}

fn money(v: &Value) -> Decimal {
    dec(v.as_str().unwrap())
}

/// A party's (tenant or remainder) total over the rows, zero when it has no row.
fn row(doc: &Value, name: &str) -> Decimal {
    doc["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["name"] == name && r["remainder"] == false)
        .map(|r| money(&r["unblended"]))
        .sum()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Σ parties = the line, per billed line and per cost column, exactly; Σ rows = the
    /// total; the rounded rows add up to the total rounded to the cent.
    #[test]
    fn every_line_adds_up_exactly(
        bill in proptest::collection::vec(bill_line(), 1..12),
        log in proptest::collection::vec(log_line(), 0..40),
    ) {
        let doc = allocate(&bill_text(&bill), &log_text(&log, None));
        let lines = doc["lines"].as_array().unwrap();
        prop_assert!(!lines.is_empty());
        for line in lines {
            for column in ["unblended", "effective"] {
                let parties: Decimal = line["parties"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|p| money(&p[column]))
                    .sum();
                prop_assert_eq!(parties, money(&line[column]), "{} of {}", column, line);
            }
        }
        // The lines are the bill's: every cost of the file, credits included.
        let billed: Decimal = bill.iter().map(|(c, _, _, _, cost)| if *c { -*cost } else { *cost }).sum();
        prop_assert_eq!(money(&doc["total"]["unblended"]), billed);
        let rows = doc["rows"].as_array().unwrap();
        let by_rows: Decimal = rows.iter().map(|r| money(&r["unblended"])).sum();
        prop_assert_eq!(by_rows, billed);
        let rounded: Decimal = rows.iter().map(|r| money(&r["unblended_rounded"])).sum();
        prop_assert_eq!(
            rounded,
            billed.round_dp_with_strategy(2, rust_decimal::RoundingStrategy::MidpointAwayFromZero)
        );
    }

    /// A tenant whose requests consumed no unit gets nothing, whatever the bill.
    #[test]
    fn a_tenant_with_no_usage_gets_nothing(
        bill in proptest::collection::vec(bill_line(), 1..12),
        log in proptest::collection::vec(log_line(), 0..30),
    ) {
        // Tenant d's requests, all of zero units: requests seen, nothing consumed.
        let log: Vec<LogLine> = log
            .into_iter()
            .map(|(op, table, tenant, own, index)| {
                if tenant == 3 { (op, table, tenant, Decimal::ZERO, Decimal::ZERO) } else { (op, table, tenant, own, index) }
            })
            .collect();
        let doc = allocate(&bill_text(&bill), &log_text(&log, None));
        prop_assert_eq!(row(&doc, "d"), Decimal::ZERO);
    }

    /// Merging two tenants (b's requests logged as a's) merges their costs: a's cost after
    /// is a's plus b's before, to within the 12th decimal place each share is truncated at
    /// (one 10⁻¹² a billed line and driver, at most).
    #[test]
    fn merging_two_tenants_merges_their_costs(
        bill in proptest::collection::vec(bill_line(), 1..12),
        log in proptest::collection::vec(log_line(), 0..30),
    ) {
        let bill = bill_text(&bill);
        let apart = allocate(&bill, &log_text(&log, None));
        let merged = allocate(&bill, &log_text(&log, Some(("b", "a"))));
        let lines = Decimal::from(apart["lines"].as_array().unwrap().len());
        let before = row(&apart, "a") + row(&apart, "b");
        let after = row(&merged, "a");
        prop_assert!((after - before).abs() <= lines * dec("0.000000000004"), "{} vs {}", after, before);
        prop_assert_eq!(row(&merged, "b"), Decimal::ZERO);
        // The others are untouched.
        for other in ["c", "d"] {
            prop_assert!((row(&merged, other) - row(&apart, other)).abs() <= lines * dec("0.000000000004"));
        }
    }
}
