//! `ddbcost anomalies` (issue #51, part 4, from the bill alone): a generated 60-day CUR 2.0
//! export at daily granularity with changes injected on known days — each found on its day,
//! with its shape, its money a month and its mechanism, and nothing else flagged; a quiet
//! 60 days flags nothing. Prices: us-east-1, $0.125 per million read request units, $0.625
//! per million write request units, $0.00013 a RCU-hour.

mod common;

use common::{Case, dec, root, write_file};
use serde_json::Value;

use common::daily_bill::bill;

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
    // The one day: $1 → $5, $4 more that day, and no rate a month.
    let spike = by("ReadRequestUnits", "orders");
    assert_eq!(figure(&spike["after_per_day"]), dec("5"));
    assert_eq!(figure(&spike["excess_per_day"]), dec("4"));
    assert_eq!(spike["per_month"], Value::Null);
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
    let page = Case::new()
        .args(["anomalies", &f, "--format", "html"])
        .run()
        .success()
        .stdout;
    // A section and a chart per departure, the rule stated.
    assert_eq!(page.matches("<section>").count(), 5);
    assert_eq!(page.matches("<svg").count(), 5);
    assert!(page.contains("2026-10-11 — catalog us-east-1 ReadRequestUnits"));
    assert!(page.contains("Rule: a meter"));
    Case::new()
        .args(["anomalies", &f, "--min-change", "x"])
        .run()
        .code(2)
        .stderr_has("--min-change `x` is not a percentage");
}

/// `DDBCOST_REGENERATE=1 cargo test --test anomalies` writes the bundled sample again.
#[test]
fn the_bundled_sample_is_what_the_generator_writes() {
    let path = root().join("workloads/samples/anomalies/cur-daily-2026-09-10.csv");
    if std::env::var_os("DDBCOST_REGENERATE").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, bill(true)).unwrap();
    }
    assert_eq!(std::fs::read_to_string(&path).unwrap(), bill(true));
}

mod any_bill {
    //! For any daily series: read or refused, never a panic; a departure's excess is its
    //! after minus its before, exactly, and its money a month that excess × 730 ÷ 24; a
    //! series that never changes flags nothing.
    #![allow(clippy::arithmetic_side_effects)] // test arithmetic over small generated figures

    use proptest::prelude::*;
    use rust_decimal::Decimal;

    use super::common::daily_bill::HEADER;

    fn csv(days: &[(u8, u8, i64)]) -> String {
        let mut out = HEADER.to_string();
        for (day, meter, cents) in days {
            let usage = [
                "ReadRequestUnits",
                "WriteRequestUnits",
                "TimedStorage-ByteHrs",
            ][usize::from(*meter % 3)];
            out.push_str(&format!(
                "Usage,2026-11-{:02}T00:00:00Z,AmazonDynamoDB,{usage},arn:aws:dynamodb:us-east-1:1:table/t,{},USD,{}\n",
                day % 28 + 1,
                cents.abs() * 1000,
                Decimal::new(*cents, 2)
            ));
        }
        out
    }

    fn d(v: &serde_json::Value) -> Decimal {
        v.as_str().unwrap().parse().unwrap()
    }

    proptest! {
        #[test]
        fn any_series_is_read_and_adds_up(
            days in proptest::collection::vec((0u8..28, 0u8..3, -500i64..100_000), 1..120),
            window in 3usize..10,
            percent in 1i64..300,
        ) {
            let out = ddbcost::api::anomalies::report_text(
                "b.csv", &csv(&days), window, Decimal::from(percent), Decimal::ONE,
                ddbcost::api::ReportFormat::Json,
            );
            let Ok(json) = out else { return Ok(()) };
            let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
            let month = Decimal::from(730) / Decimal::from(24);
            for x in doc["departures"].as_array().unwrap() {
                let excess = d(&x["excess_per_day"]);
                prop_assert_eq!(excess, d(&x["after_per_day"]) - d(&x["before_per_day"]));
                if x["shape"] == "one day" {
                    prop_assert!(x["per_month"].is_null());
                } else {
                    prop_assert_eq!(d(&x["per_month"]), excess * month);
                }
            }
            for format in [ddbcost::api::ReportFormat::Table, ddbcost::api::ReportFormat::Markdown] {
                let text = ddbcost::api::anomalies::report_text(
                    "b.csv", &csv(&days), window, Decimal::from(percent), Decimal::ONE, format,
                );
                prop_assert!(text.is_ok());
            }
        }

        #[test]
        fn a_steady_series_flags_nothing(cents in 1i64..1_000_000, n in 8u8..28) {
            let days: Vec<(u8, u8, i64)> = (0..n).map(|day| (day, 0, cents)).collect();
            let json = ddbcost::api::anomalies::report_text(
                "b.csv", &csv(&days), 7, Decimal::from(50), Decimal::ONE,
                ddbcost::api::ReportFormat::Json,
            ).unwrap();
            let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
            prop_assert_eq!(doc["departures"].as_array().unwrap().len(), 0);
        }
    }
}

#[test]
fn a_workload_sets_each_day_against_its_estimate() {
    let dir = tempfile::tempdir().unwrap();
    let f = write_file(dir.path(), "cur.csv", &bill(true));
    // As designed: `orders` reads 8M strong 1 KB items a day ($1.00 at $0.125 per million)
    // and writes 1.6M ($1.00 at $0.625 per million); no other table. A 730-hour month is
    // 30.41666… days, so the estimate is $1.00 a day each.
    let w = write_file(
        dir.path(),
        "w.yaml",
        "prices: aws-us-east-1\ntables:\n  orders:\n    item_size: 1 KB\n    storage: 0 GB\n    patterns:\n      get: { op: get, rate: 8M/day, consistency: strong }\n      put: { op: put, rate: 1.6M/day }\n",
    );
    let out = Case::new()
        .args(["anomalies", &f, "--workload", &w, "--format", "json"])
        .run()
        .success();
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    assert!(
        doc["rule"]["baseline"]
            .as_str()
            .unwrap()
            .starts_with("workload:")
    );
    let seen: Vec<(String, String, String, String)> = doc["departures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["day"].as_str().unwrap().into(),
                d["table"].as_str().unwrap().into(),
                d["meter"].as_str().unwrap().into(),
                d["mechanism"]["kind"].as_str().unwrap().into(),
            )
        })
        .collect();
    let s = |a: &str, b: &str, c: &str, d: &str| (a.into(), b.into(), c.into(), d.into());
    assert_eq!(
        seen,
        vec![
            // The tables the workload lacks, billed from the first day.
            s(
                "2026-09-01",
                "catalog",
                "ReadRequestUnits",
                "from-the-start"
            ),
            s(
                "2026-09-01",
                "events",
                "ReadCapacityUnit-Hrs",
                "from-the-start"
            ),
            // The replica the design does not have, from its first day.
            s("2026-09-16", "orders", "ReplWriteRequestUnits", "began"),
            // Writes at $2.00 a day against the design's $1.00.
            s("2026-10-01", "orders", "WriteRequestUnits", "units"),
            // The one day of 5× reads against the design's $1.00.
            s("2026-10-21", "orders", "ReadRequestUnits", "units"),
        ],
        "{doc}"
    );
    // orders' reads match the design every other day: $1.00 against $1.00.
    let reads = &doc["departures"][4];
    assert_eq!(dec(reads["before_per_day"].as_str().unwrap()), dec("1"));
}
