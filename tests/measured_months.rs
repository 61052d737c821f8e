//! Months of their real length: measured counts keep their window (`observed.hours`), so
//! whatever prices a calendar month — `reconcile` against a billing period, CSV and FOCUS
//! exports with `--period` — prices that month's hours (672–744) and rescales them; the
//! 730-hour month stays the convention for undated estimates. Figures at us-east-1 prices
//! ($0.625 per million WRU, $0.125 per million RRU, $0.00065 per WCU-hour).

mod common;

use common::cloudwatch::{page, points, result, s, usage_json};
use common::{Case, dec, write_file};
use serde_json::Value;

const ARN: &str = "arn:aws:dynamodb:us-east-1:111122223333:table/orders";

/// A CUR 2.0 CSV of November 2026 for `orders` on demand: each day 8,640,000 WRU ($5.40) and
/// 4,320,000 RRU ($0.54).
fn november_cur() -> String {
    let header = [
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
    ];
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(header).unwrap();
    for day in 1..=30 {
        let start = format!("2026-11-{day:02}T00:00:00Z");
        let end = if day == 30 {
            "2026-12-01T00:00:00Z".to_string()
        } else {
            format!("2026-11-{:02}T00:00:00Z", day + 1)
        };
        for (usage, amount, cost) in [
            ("WriteRequestUnits", "8640000", "5.4"),
            ("ReadRequestUnits", "4320000", "0.54"),
        ] {
            w.write_record([
                format!("{usage}-{day}").as_str(),
                "2026-11-01T00:00:00Z",
                "Usage",
                &start,
                &end,
                "AmazonDynamoDB",
                usage,
                "PayPerRequestThroughput",
                ARN,
                amount,
                "USD",
                cost,
                cost,
            ])
            .unwrap();
        }
    }
    String::from_utf8(w.into_inner().unwrap()).unwrap()
}

#[test]
fn november_reconciles_against_its_own_measured_workload_with_no_variance() {
    let dir = tempfile::tempdir().unwrap();
    // November measured whole: 30 days of 5-minute points (8,640), 100 WCU/s (30,000 a
    // point) and 50 RCU/s (15,000).
    let metrics = write_file(
        dir.path(),
        "m.json",
        &page(&[
            result(
                "ddbcost:orders::ConsumedWriteCapacityUnits:Sum:300",
                &points(8_640, 300, "30000"),
            ),
            result(
                "ddbcost:orders::ConsumedReadCapacityUnits:Sum:300",
                &points(8_640, 300, "15000"),
            ),
        ]),
    );
    let w = write_file(
        dir.path(),
        "w.yaml",
        "prices: aws-us-east-1\ntables:\n  orders:\n    item_size: 1 KB\n    capacity: { mode: on-demand }\n    patterns: {}\n",
    );
    let measured = dir.path().join("measured.yaml").display().to_string();
    usage_json(
        std::slice::from_ref(&metrics),
        &["--workload", &w, "--measured-workload", &measured],
    );
    // The window's own counts and hours: 100 × 2,592,000 s = 259,200,000 WRU in 720 h.
    let yaml = std::fs::read_to_string(&measured).unwrap();
    assert!(yaml.contains("hours: 720"), "{yaml}");
    assert!(yaml.contains("write_units: 259200000"), "{yaml}");
    // Undated, the estimate is a 730-hour month: 259.2 M × 730 ÷ 720 = 262.8 M WRU × $0.625
    // = $164.25.
    let e = Case::new()
        .args(["estimate", &measured, "--format", "json"])
        .run()
        .success();
    let e: Value = serde_json::from_str(&e.stdout).unwrap();
    assert_eq!(
        s(&common::json_line(&e, "orders/writes")["cost"]),
        dec("164.25")
    );
    // And it says so.
    let said = e["warnings"].to_string();
    assert!(
        said.contains("table `orders`: the observed counts were measured over 720 h and are priced for a 730-hour month (× 730 ÷ 720)"),
        "{said}"
    );
    // Against November's bill (720 h): 259.2 M WRU = $162.00 and 129.6 M RRU = $16.20 on
    // both sides, every line matching, no variance.
    let bill = write_file(dir.path(), "cur.csv", &november_cur());
    let out = Case::new()
        .args(["reconcile", &measured, "--bill", &bill, "--format", "json"])
        .run()
        .success();
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    for component in ["reads", "writes"] {
        let r = doc["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["table"] == "orders" && r["component"] == component)
            .unwrap();
        assert_eq!(r["cause"], "matches", "{r}");
        assert_eq!(s(&r["variance"]), dec("0"), "{r}");
    }
    assert_eq!(s(&doc["total"]["estimated"]), dec("178.2"));
    assert_eq!(s(&doc["total"]["variance"]), dec("0"));
}

#[test]
fn an_export_dated_in_a_month_bills_that_months_hours() {
    let dir = tempfile::tempdir().unwrap();
    let w = write_file(
        dir.path(),
        "w.yaml",
        "prices: aws-us-east-1\ntables:\n  events:\n    item_size: 1 KB\n    capacity: { mode: provisioned, rcu: 10, wcu: 100 }\n    patterns: {}\n",
    );
    let quantity = |period: Option<&str>, extra: &[&str]| {
        let mut args = vec!["estimate", w.as_str(), "--format", "csv"];
        if let Some(p) = period {
            args.extend(["--period", p]);
        }
        args.extend(extra);
        let out = Case::new().args(&args).run().success();
        let (header, rows) = common::csv_table(&out.stdout);
        let key = common::column(&header, "key");
        let q = common::column(&header, "usage_quantity");
        let row = rows.iter().find(|r| &r[key] == "events/writes").unwrap();
        dec(&row[q])
    };
    // 100 WCU for the hours of the month: November 720, December 744, February 2027 672;
    // undated, 730. `--month-hours` still decides when given.
    assert_eq!(quantity(Some("2026-11"), &[]), dec("72000"));
    assert_eq!(quantity(Some("2026-12"), &[]), dec("74400"));
    assert_eq!(quantity(Some("2027-02"), &[]), dec("67200"));
    assert_eq!(quantity(None, &[]), dec("73000"));
    assert_eq!(
        quantity(Some("2026-11"), &["--month-hours", "730"]),
        dec("73000")
    );
    // FOCUS the same: November's WCU-hours are 72,000.
    let out = Case::new()
        .args(["estimate", &w, "--format", "focus", "--period", "2026-11"])
        .run()
        .success();
    let (header, rows) = common::csv_table(&out.stdout);
    let q = common::column(&header, "ConsumedQuantity");
    assert!(
        rows.iter().any(|r| dec(&r[q]) == dec("72000")),
        "{}",
        out.stdout
    );
}

#[test]
fn a_month_is_parsed_once_for_every_command() {
    // The same refusal from every command that takes a month, before any input is read.
    for args in [
        vec!["estimate", "no/such.yaml", "--period", "0000-01"],
        vec!["bill", "no/such.csv", "--period", "0000-01"],
        vec![
            "reconcile",
            "no/such.yaml",
            "--bill",
            "no/such.csv",
            "--period",
            "0000-01",
        ],
        vec![
            "forecast",
            "no/such.yaml",
            "--months",
            "2",
            "--start",
            "0000-01",
        ],
    ] {
        Case::new()
            .args(&args)
            .run()
            .code(2)
            .stderr_has("`0000-01` is not a month; expected YYYY-MM such as 2026-12");
    }
}
