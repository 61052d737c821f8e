//! Reserved capacity bought for the account (`commitments.reserved`) and pooled per region:
//! applied hour by hour to the region's provisioned Standard-class capacity of every table and
//! GSI. us-east-1 (DESIGN.md §4): WCU-hour $0.00065, RCU-hour $0.00013; reserved WCU, 1 year,
//! per 100 units: $150 upfront + $0.0128 an hour.

mod common;

use common::{Case, temp_workload};

fn json(yaml: &str, args: &[&str]) -> serde_json::Value {
    let (_dir, path) = temp_workload(yaml);
    let mut all = vec!["estimate", path.as_str(), "--format", "json"];
    all.extend_from_slice(args);
    serde_json::from_str(&Case::new().args(all).run().success().stdout).unwrap()
}

const TWO_TABLES: &str = "prices: aws-us-east-1
commitments:
  reserved:
    - { capacity: wcu, units: 100, term: 1y }
tables:
  a:
    capacity: { mode: provisioned, rcu: 5, wcu: 60 }
  b:
    capacity: { mode: provisioned, rcu: 5, wcu: 60 }
";

#[test]
fn one_reservation_serves_two_tables() {
    // Two tables of 60 WCU and one 100-WCU reservation: 120 WCU an hour, 100 covered, so all
    // 100 reserved units are used and 20 WCU an hour stay at the normal rate. Per table,
    // neither could use it (each has 60).
    let doc = json(TWO_TABLES, &[]);
    let line = |k: &str| common::json_line(&doc, k)["cost"].clone();
    // Upfront $150 / 12 months = $12.50.
    assert_eq!(line("account/reserved/us-east-1/wcu/1y/upfront"), "12.5");
    // Hourly: 1 block × 730 h × $0.0128 = $9.344.
    assert_eq!(line("account/reserved/us-east-1/wcu/1y/hourly"), "9.344");
    // Covered: 100 × 730 = 73,000 WCU-hours × −$0.00065 = −$47.45.
    assert_eq!(line("account/reserved/us-east-1/wcu/covered"), "-47.45");
    // The tables' WCU: 2 × 60 × 730 × $0.00065 = $56.94; their RCU: 2 × 5 × 730 × $0.00013
    // = $0.949. Total: 56.94 + 0.949 + 12.5 + 9.344 − 47.45 = $32.283 — the WCU alone
    // 56.94 − 47.45 + 9.344 + 12.5 = $31.334, against $56.94 without the reservation.
    assert_eq!(doc["total"], "32.283");
}

#[test]
fn unused_reserved_units_are_still_paid_and_shown() {
    // 200 reserved WCU for 120 provisioned: 120 × 730 = 87,600 covered, 80 × 730 = 58,400
    // unused; both blocks' fees are paid.
    let yaml = TWO_TABLES.replace("units: 100", "units: 200");
    let doc = json(&yaml, &[]);
    let covered = common::json_line(&doc, "account/reserved/us-east-1/wcu/covered");
    assert_eq!(covered["quantity"], "87600");
    assert!(
        covered["label"]
            .as_str()
            .unwrap()
            .contains("(58400 reserved unit-hours unused)")
    );
    // 2 blocks × 730 × $0.0128 = $18.688.
    assert_eq!(
        common::json_line(&doc, "account/reserved/us-east-1/wcu/1y/hourly")["cost"],
        "18.688"
    );
}

#[test]
fn standard_ia_and_on_demand_capacity_are_not_covered() {
    let yaml = "prices: aws-us-east-1
commitments:
  reserved:
    - { capacity: wcu, units: 100, term: 1y }
tables:
  ia:
    class: standard-ia
    capacity: { mode: provisioned, rcu: 5, wcu: 60 }
  od:
    item_size: 1 KB
    patterns:
      p: { op: put, rate: 1M/month }
";
    let doc = json(yaml, &[]);
    // Nothing eligible: nothing covered, the whole reservation unused (73,000 unit-hours).
    let covered = common::json_line(&doc, "account/reserved/us-east-1/wcu/covered");
    assert_eq!(covered["quantity"], "0");
    assert!(
        covered["label"]
            .as_str()
            .unwrap()
            .contains("(73000 reserved unit-hours unused)")
    );
}

#[test]
fn units_come_in_blocks_of_100() {
    let (_dir, path) = temp_workload(&TWO_TABLES.replace("units: 100", "units: 150"));
    Case::new()
        .args(["estimate", &path])
        .run()
        .code(1)
        .stderr_has("commitments.reserved[0].units")
        .stderr_has("blocks of 100 units");
}

#[test]
fn a_forecast_applies_a_reservation_from_its_start_for_its_term() {
    // Starting 2027-03 for a year: covered in March 2027 … February 2028, not before or after.
    let yaml = TWO_TABLES.replace("term: 1y }", "term: 1y, start: 2027-03 }");
    let (_dir, path) = temp_workload(&yaml);
    let out = Case::new()
        .args([
            "forecast", &path, "--months", "15", "--start", "2027-01", "--format", "json",
        ])
        .run()
        .success();
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let has = |i: usize| {
        doc["months"][i]["line_items"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["key"] == "account/reserved/us-east-1/wcu/covered")
    };
    assert!(!has(0) && !has(1));
    assert!(has(2) && has(13));
    assert!(!has(14));
    // Without it: 56.94 + 0.949 = $57.889; with it $32.283 (see above).
    assert_eq!(doc["months"][0]["total"], "57.889");
    assert_eq!(doc["months"][2]["total"], "32.283");
}

#[test]
fn focus_records_the_covered_capacity_as_a_credit() {
    let (_dir, path) = temp_workload(TWO_TABLES);
    let out = Case::new()
        .args([
            "estimate", &path, "--format", "focus", "--period", "2027-01",
        ])
        .run()
        .success();
    let (header, rows) = common::csv_table(&out.stdout);
    let key = common::column(&header, "x_LineItemKey");
    let category = common::column(&header, "ChargeCategory");
    let cost = common::column(&header, "BilledCost");
    let covered = rows
        .iter()
        .find(|r| &r[key] == "account/reserved/us-east-1/wcu/covered")
        .unwrap();
    assert_eq!(&covered[category], "Credit");
    assert_eq!(&covered[cost], "-47.45"); // 73,000 × −$0.00065
}
