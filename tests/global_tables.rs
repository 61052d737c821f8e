//! Global tables billed as AWS bills them (DESIGN §9; AWS Prescriptive Guidance, "DynamoDB
//! global tables FAQ"; the Developer Guide's `global-tables-billing.html`): every write to a
//! global table is a replicated write in every replica region, the one it was written in
//! included — rWRU on demand, rWCU provisioned — while GSI writes stay WRU/WCU; reserved
//! capacity never covers rWCU; a home region listed among the replicas is the home.

mod common;

use common::{Case, dec, root, write_file};
use rust_decimal::Decimal;
use serde_json::Value;

/// The estimate's JSON for `yaml`, with `args` after it.
fn estimate(yaml: &str, args: &[&str]) -> (Value, String) {
    let dir = tempfile::tempdir().unwrap();
    let file = write_file(dir.path(), "w.yaml", yaml);
    let out = Case::new()
        .args(["estimate", file.as_str(), "--format", "json"])
        .args(args)
        .run()
        .success();
    (serde_json::from_str(&out.stdout).unwrap(), out.stderr)
}

fn line<'a>(doc: &'a Value, key: &str) -> &'a Value {
    doc["line_items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["key"] == key)
        .unwrap_or_else(|| panic!("no line {key}: {doc}"))
}

fn d(v: &Value) -> Decimal {
    dec(v.as_str().unwrap_or_else(|| panic!("not a decimal: {v}")))
}

/// The Developer Guide's example: 5 writes/s written in us-east-1 and 5 in us-east-2 are
/// 10 rWRU/s in each region. One 1 KB item per write is one unit.
const DEVELOPER_GUIDE: &str = "prices: aws-us-east-1\ntables:\n  t:\n    item_size: 1 KB\n    key_size: 20 B\n    replicas: [us-east-2]\n    indexes:\n      g: { type: gsi, projection: keys-only, key_size: 20 B }\n    patterns:\n      put: { op: put, rate: 10/s }\n";

#[test]
fn every_write_is_a_replicated_write_in_every_region_its_own_included() {
    let (e, _) = estimate(DEVELOPER_GUIDE, &[]);
    // 10 rWRU/s × 3,600 s × 730 h = 26,280,000 = 26.28 M rWRU in us-east-1 …
    let home = line(&e, "t/writes");
    assert_eq!(home["component"], "replicated-writes");
    assert_eq!(home["price_key"], "standard.replicated_write_per_million");
    assert_eq!(home["unit"], "M rWRU");
    assert_eq!(d(&home["quantity"]), dec("26.28"));
    // … at $0.625 per million: 26.28 × 0.625 = $16.425.
    assert_eq!(d(&home["cost"]), dec("16.425"));
    assert!(
        home["label"]
            .as_str()
            .unwrap()
            .contains("its own region's too"),
        "{home}"
    );
    // … and the same 26.28 M rWRU in us-east-2.
    assert_eq!(
        d(&line(&e, "t/replica/us-east-2/writes")["quantity"]),
        dec("26.28")
    );
    // The GSI's writes stay ordinary WRU in both regions: the keys-only entry (20 B of
    // table key + 20 B of index key + 100 B of overhead) is one unit, 26.28 M WRU at $0.625.
    let gsi = line(&e, "t/gsi/g/writes");
    assert_eq!(gsi["price_key"], "standard.write_per_million");
    assert_eq!(d(&gsi["quantity"]), dec("26.28"));
    let replica_gsi = line(&e, "t/replica/us-east-2/gsi/g/writes");
    assert_eq!(replica_gsi["price_key"], "standard.write_per_million");
}

#[test]
fn before_2024_11_the_own_region_writes_cost_the_replicated_price() {
    // Until 2024-10-31 us-east-1 billed WRU at $1.25 and rWRU at $1.875 per million: the
    // 26.28 M writes of the example cost 26.28 × 1.875 = $49.275 at home, not
    // 26.28 × 1.25 = $32.85 (33 % less) as ordinary writes.
    let dir = tempfile::tempdir().unwrap();
    let table = std::fs::read_to_string(root().join("pricing/aws-us-east-1.yaml"))
        .unwrap()
        .replacen("id: aws-us-east-1", "id: before-2024-11", 1)
        .replacen("write_per_million: 0.625 ", "write_per_million: 1.25 ", 1)
        .replacen(
            "replicated_write_per_million: 0.625",
            "replicated_write_per_million: 1.875",
            1,
        );
    let prices = write_file(dir.path(), "before.yaml", &table);
    let (e, _) = estimate(
        &DEVELOPER_GUIDE.replace("prices: aws-us-east-1\n", ""),
        &["--prices", prices.as_str()],
    );
    let home = line(&e, "t/writes");
    assert_eq!(d(&home["unit_price"]), dec("1.875"));
    assert_eq!(d(&home["cost"]), dec("49.275"));
    // The GSI's writes: ordinary WRU at $1.25: 26.28 × 1.25 = $32.85.
    assert_eq!(d(&line(&e, "t/gsi/g/writes")["cost"]), dec("32.85"));
}

#[test]
fn no_reservation_covers_a_global_tables_writes() {
    let provisioned = "prices: aws-us-east-1\ntables:\n  t:\n    item_size: 1 KB\n    replicas: [us-east-2]\n    capacity: { mode: provisioned, rcu: 100, wcu: 200, reserved: { rcu: 0, wcu: 100, term: 1y } }\n    patterns:\n      put: { op: put, rate: 10/s }\n";
    let (e, stderr) = estimate(provisioned, &[]);
    // 200 rWCU × 730 h = 146,000 rWCU-hours, every one billed: × $0.00065 = $94.90.
    let home = line(&e, "t/writes");
    assert_eq!(home["price_key"], "standard.replicated_wcu_hour");
    assert_eq!(home["unit"], "rWCU-hour");
    assert_eq!(d(&home["quantity"]), dec("146000"));
    assert_eq!(d(&home["cost"]), dec("94.9"));
    // The reservation is still paid: its hourly fee, 1 block × $0.0128 × 730 h = $9.344 …
    assert_eq!(d(&line(&e, "t/reserved/wcu/hourly")["cost"]), dec("9.344"));
    // … and it is said to cover nothing.
    assert!(
        stderr.contains("reserved capacity never covers rWCU"),
        "{stderr}"
    );
    // The same table with no replica: the reservation covers 100 of the 200 WCU, so
    // (200 − 100) × 730 = 73,000 WCU-hours are billed at the normal price.
    let (e, _) = estimate(&provisioned.replace("    replicas: [us-east-2]\n", ""), &[]);
    assert_eq!(d(&line(&e, "t/writes")["quantity"]), dec("73000"));
}

#[test]
fn the_home_region_listed_among_the_replicas_is_the_home() {
    let listed =
        DEVELOPER_GUIDE.replace("replicas: [us-east-2]", "replicas: [us-east-1, us-east-2]");
    let (e, stderr) = estimate(&listed, &[]);
    let (plain, _) = estimate(DEVELOPER_GUIDE, &[]);
    assert!(
        stderr.contains("lists its own region `us-east-1` among its replicas"),
        "{stderr}"
    );
    // The same bill as with the other region alone: no replica line in us-east-1.
    assert_eq!(e["total"], plain["total"]);
    assert!(
        e["line_items"]
            .as_array()
            .unwrap()
            .iter()
            .all(|l| !l["key"].as_str().unwrap().contains("replica/us-east-1"))
    );
}

#[test]
fn a_bill_of_a_global_table_reconciles_line_for_line() {
    // November 2026 (720 h) of a two-region table written 1 unit a second: 2,592,000 rWRU
    // in each region, $1.62 each (2.592 × 0.625), nothing else billed.
    let dir = tempfile::tempdir().unwrap();
    let mut bill = String::from(
        "line_item_line_item_type,line_item_usage_start_date,line_item_product_code,line_item_usage_type,line_item_resource_id,line_item_usage_amount,line_item_currency_code,line_item_unblended_cost\n",
    );
    bill.push_str("Usage,2026-11-01T00:00:00Z,AmazonDynamoDB,ReplWriteRequestUnits,arn:aws:dynamodb:us-east-1:1:table/t,2592000,USD,1.62\n");
    bill.push_str("Usage,2026-11-01T00:00:00Z,AmazonDynamoDB,USE2-ReplWriteRequestUnits,arn:aws:dynamodb:us-east-2:1:table/t,2592000,USD,1.62\n");
    let bill = write_file(dir.path(), "bill.csv", &bill);
    let workload = write_file(
        dir.path(),
        "w.yaml",
        "prices: aws-us-east-1\ntables:\n  t:\n    item_size: 1 KB\n    items: 0\n    replicas: [us-east-2]\n    patterns:\n      put: { op: put, rate: 1/s }\n",
    );
    let out = Case::new()
        .args([
            "reconcile",
            workload.as_str(),
            "--bill",
            bill.as_str(),
            "--format",
            "json",
        ])
        .run()
        .success();
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    for line in doc["rows"].as_array().unwrap() {
        if line["component"] == "replicated-writes" {
            assert_eq!(d(&line["variance"]), Decimal::ZERO, "{line}");
        }
    }
    let writes: Vec<&Value> = doc["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["component"] == "replicated-writes")
        .collect();
    assert_eq!(writes.len(), 2, "{doc}");
    // And the bill read back as a workload is a global table again.
    let out = Case::new()
        .args([
            "bill",
            bill.as_str(),
            "--to-workload",
            dir.path().join("back.yaml").to_str().unwrap(),
        ])
        .run()
        .success();
    let _ = out;
    let back = std::fs::read_to_string(dir.path().join("back.yaml")).unwrap();
    assert!(
        back.contains("replicas:") && back.contains("us-east-2"),
        "{back}"
    );
    assert!(back.contains("write_units: 2592000"), "{back}");
}
