//! `ddbcost anomalies` (issue #51, part 4, from the bill alone): a generated 60-day CUR 2.0
//! export at daily granularity with changes injected on known days — each found on its day,
//! with its shape, its money a month and its mechanism, and nothing else flagged; a quiet
//! 60 days flags nothing. Prices: us-east-1, $0.125 per million read request units, $0.625
//! per million write request units, $0.00013 a RCU-hour.

mod common;

use common::{Case, dec, write_file};
use serde_json::Value;

const HEADER: &str = "line_item_line_item_type,line_item_usage_start_date,line_item_product_code,line_item_usage_type,line_item_resource_id,line_item_usage_amount,line_item_currency_code,line_item_unblended_cost\n";

/// One day's row.
fn row(day: u32, table: &str, usage_type: &str, amount: &str, cost: &str) -> String {
    // 2026-09-01 + day (September has 30 days).
    let (month, dom) = if day < 30 {
        (9, day + 1)
    } else {
        (10, day - 29)
    };
    format!(
        "Usage,2026-{month:02}-{dom:02}T00:00:00Z,AmazonDynamoDB,{usage_type},arn:aws:dynamodb:us-east-1:1:table/{table},{amount},USD,{cost}\n"
    )
}

/// 60 days; `changes` injects the four changes.
fn bill(changes: bool) -> String {
    let mut out = HEADER.to_string();
    for day in 0..60 {
        // orders: 8M reads a day ($1.00), 1.6M writes ($1.00); from day 30 items past 1 KB
        // write 2 units each: 3.2M ($2.00). Day 50, one day of 5× reads (a batch job).
        let reads = if changes && day == 50 {
            ("40000000", "5")
        } else {
            ("8000000", "1")
        };
        out.push_str(&row(day, "orders", "ReadRequestUnits", reads.0, reads.1));
        let writes = if changes && day >= 30 {
            ("3200000", "2")
        } else {
            ("1600000", "1")
        };
        out.push_str(&row(day, "orders", "WriteRequestUnits", writes.0, writes.1));
        // From day 15, a replica in us-east-2: 2M replicated writes a day ($1.25).
        if changes && day >= 15 {
            out.push_str(&row(
                day,
                "orders",
                "USE2-ReplWriteRequestUnits",
                "2000000",
                "1.25",
            ));
        }
        // catalog: 16M reads a day ($2.00); from day 40 a query turned scan, 20×: 320M ($40).
        let scan = if changes && day >= 40 {
            ("320000000", "40")
        } else {
            ("16000000", "2")
        };
        out.push_str(&row(day, "catalog", "ReadRequestUnits", scan.0, scan.1));
        // events: 10,000 RCU all day, 240,000 RCU-hours × $0.00013 = $31.20; from day 45 a
        // reservation covers them at $0.00005: $12.00 a day for the same hours.
        let rcu = if changes && day >= 45 { "12" } else { "31.2" };
        out.push_str(&row(day, "events", "ReadCapacityUnit-Hrs", "240000", rcu));
        // A tax line: left out.
        out.push_str(&format!(
            "Tax,2026-09-01T00:00:00Z,AmazonDynamoDB,,,0,USD,{}\n",
            if day == 20 { "99" } else { "0.3" }
        ));
    }
    out
}

fn run_json(text: &str) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let f = write_file(dir.path(), "cur.csv", text);
    let out = Case::new()
        .args(["anomalies", &f, "--format", "json"])
        .run()
        .success();
    serde_json::from_str(&out.stdout).unwrap()
}

#[test]
fn each_injected_change_is_found_on_its_day_and_nothing_else() {
    let doc = run_json(&bill(true));
    let found = doc["departures"].as_array().unwrap();
    let seen: Vec<(String, String, String, String)> = found
        .iter()
        .map(|d| {
            (
                d["day"].as_str().unwrap().to_string(),
                d["table"].as_str().unwrap().to_string(),
                d["meter"].as_str().unwrap().to_string(),
                d["shape"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let s = |a: &str, b: &str, c: &str, d: &str| (a.into(), b.into(), c.into(), d.into());
    assert_eq!(
        seen,
        vec![
            // Day 15 = 2026-09-16: the replica's meter begins.
            s("2026-09-16", "orders", "ReplWriteRequestUnits", "step"),
            // Day 30 = 2026-10-01: the writes double.
            s("2026-10-01", "orders", "WriteRequestUnits", "step"),
            // Day 40 = 2026-10-11: the scan.
            s("2026-10-11", "catalog", "ReadRequestUnits", "step"),
            // Day 45 = 2026-10-16: the reservation.
            s("2026-10-16", "events", "ReadCapacityUnit-Hrs", "step"),
            // Day 50 = 2026-10-21: one day of 5× reads.
            s("2026-10-21", "orders", "ReadRequestUnits", "one day"),
        ],
        "{doc}"
    );
    let by = |meter: &str, table: &str| {
        found
            .iter()
            .find(|d| d["meter"] == meter && d["table"] == table)
            .unwrap()
            .clone()
    };
    let figure = |v: &Value| dec(v.as_str().unwrap());
    // The replica: $0 → $1.25 a day; × 730 ÷ 24 = 30.41666… days: $38.02 a month.
    let repl = by("ReplWriteRequestUnits", "orders");
    assert_eq!(repl["mechanism"]["kind"], "began");
    assert!(
        repl["mechanism"]["text"]
            .as_str()
            .unwrap()
            .contains("a replica region")
    );
    assert_eq!(figure(&repl["per_month"]).round_dp(2), dec("38.02"));
    assert_eq!(repl["region"], "us-east-2");
    // The writes: 1.6M → 3.2M units a day at the same $0.625 per million: units, $1.00 a day
    // more, $30.42 a month.
    let writes = by("WriteRequestUnits", "orders");
    assert_eq!(writes["mechanism"]["kind"], "units");
    assert_eq!(figure(&writes["mechanism"]["before"]), dec("1600000"));
    assert_eq!(figure(&writes["mechanism"]["after"]), dec("3200000"));
    assert_eq!(figure(&writes["per_month"]).round_dp(2), dec("30.42"));
    // The scan: $2 → $40 a day: $38 × 30.41666… = $1,155.83 a month.
    let scan = by("ReadRequestUnits", "catalog");
    assert_eq!(figure(&scan["per_month"]).round_dp(2), dec("1155.83"));
    // The reservation: the same 240,000 RCU-hours a day at $0.00005 instead of $0.00013:
    // price; (12 − 31.2) × 30.41666… = −$584.00 a month.
    let rcu = by("ReadCapacityUnit-Hrs", "events");
    assert_eq!(rcu["mechanism"]["kind"], "price");
    assert_eq!(figure(&rcu["mechanism"]["before"]), dec("0.00013"));
    assert_eq!(figure(&rcu["mechanism"]["after"]), dec("0.00005"));
    assert_eq!(figure(&rcu["per_month"]).round_dp(2), dec("-584"));
    // The one day: $1 → $5.
    let spike = by("ReadRequestUnits", "orders");
    assert_eq!(figure(&spike["after_per_day"]), dec("5"));
    // The tax lines (a $99 one on day 20) are left out, and said.
    assert_eq!(doc["left_out"]["credits, refunds and taxes"], 60);
    assert_eq!(doc["first_day"], "2026-09-01");
    assert_eq!(doc["last_day"], "2026-10-30");
}

#[test]
fn a_quiet_sixty_days_flags_nothing() {
    let doc = run_json(&bill(false));
    assert_eq!(doc["departures"], serde_json::json!([]));
    assert_eq!(doc["meters"], 4);
}

#[test]
fn the_table_view_states_the_rule_and_a_redelivered_file_counts_once() {
    let dir = tempfile::tempdir().unwrap();
    let f = write_file(dir.path(), "cur.csv", &bill(true));
    let again = write_file(dir.path(), "cur-copy.csv", &bill(true));
    let out = Case::new()
        .args(["anomalies", &f, &again])
        .run()
        .success()
        .stdout_has(
            "ddbcost anomalies: 2026-09-01 to 2026-10-30 (60 days), 5 meter(s), 5 departure(s)",
        )
        .stdout_has("Rule: a meter's baseline is the median of its cost on the 7 days before")
        .stderr_has("counted once");
    // Read once: the replica is still $1.25 a day, not $2.50.
    assert!(out.stdout.contains("1.25"), "{}", out.stdout);
    Case::new()
        .args(["anomalies", &f, "--format", "markdown"])
        .run()
        .success()
        .stdout_has("## ddbcost anomalies")
        .stdout_has("| Day | Table | Meter |");
    Case::new()
        .args(["anomalies", &f, "--min-change", "x"])
        .run()
        .code(2)
        .stderr_has("--min-change `x` is not a percentage");
}
