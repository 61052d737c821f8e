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
