//! `ddbcost anomalies` (issue #51, part 4): a generated 60-day CUR 2.0 export at daily
//! granularity with changes injected on known days — each found on its day, with its shape,
//! its money a month and its mechanism, from the bill alone and with the tables' CloudWatch
//! metrics, and nothing else flagged; a quiet 60 days flags nothing. Prices: us-east-1,
//! $0.125 per million read request units, $0.625 per million write request units,
//! $0.00013 a RCU-hour, $0.25 a GB-month.

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
            // Day 20 = 2026-09-21: a GSI on users (its backfill that day).
            s("2026-09-21", "users", "WriteRequestUnits", "step"),
            // Day 25 = 2026-09-26: sessions' TTL stops, its storage grows.
            s("2026-09-26", "sessions", "TimedStorage-ByteHrs", "growth"),
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
    // users: $1.00 a day; then $4.50 (1.6M + 1.6M + 4M backfill units × $0.625 per
    // million), $2.00, $2.00: the median $2.00, $1.00 a day more: $30.42 a month. The bill
    // alone sees units: 1.6M → 3.2M (the median of 7.2M, 3.2M, 3.2M).
    let users = by("WriteRequestUnits", "users");
    assert_eq!(users["mechanism"]["kind"], "units");
    assert_eq!(figure(&users["mechanism"]["after"]), dec("3200000"));
    assert_eq!(figure(&users["per_month"]).round_dp(2), dec("30.42"));
    // sessions: 10 GB more a day from day 25: its cost a day grows 10 × 24 ÷ 730 × $0.25 =
    // $0.0821917… a day (to 10 places, as billed); a month of it adds 10 × 30.41666… GB =
    // 304.1666… GB, × $0.25 = $76.04 a month to the month after.
    let storage = by("TimedStorage-ByteHrs", "sessions");
    assert_eq!(storage["mechanism"]["kind"], "growth");
    assert_eq!(figure(&storage["before_per_day"]), dec("0"));
    assert_eq!(
        figure(&storage["after_per_day"]).round_dp(6),
        dec("0.082192")
    );
    assert_eq!(figure(&storage["per_month"]).round_dp(2), dec("76.04"));
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
    assert_eq!(doc["meters"], 7);
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
            "ddbcost anomalies: 2026-09-01 to 2026-10-30 (60 days), 8 meter(s), 7 departure(s)",
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
    assert_eq!(page.matches("<section>").count(), 7);
    assert_eq!(page.matches("<svg").count(), 7);
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
    let cw = root().join("workloads/samples/anomalies/cloudwatch-daily-2026-09-10.csv");
    let metrics = common::daily_bill::metrics(true);
    if std::env::var_os("DDBCOST_REGENERATE").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, bill(true)).unwrap();
        std::fs::write(&cw, &metrics).unwrap();
    }
    assert_eq!(std::fs::read_to_string(&path).unwrap(), bill(true));
    assert_eq!(std::fs::read_to_string(&cw).unwrap(), metrics);
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
                } else if x["shape"] == "growth" {
                    // A growth's month: what a month of it adds to the month after.
                    prop_assert_eq!(d(&x["per_month"]), excess * month * month);
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
            s(
                "2026-09-01",
                "sessions",
                "WriteRequestUnits",
                "from-the-start"
            ),
            s("2026-09-01", "users", "WriteRequestUnits", "from-the-start"),
            // The replica the design does not have, from its first day.
            s("2026-09-16", "orders", "ReplWriteRequestUnits", "began"),
            // users, not in the design (billed at $1.00 a day from the first day), steps
            // again from that rate: $4.50, $2.00, $2.00 (a GSI's backfill and writes).
            s("2026-09-21", "users", "WriteRequestUnits", "units"),
            // sessions' storage, not in the workload: below $1 a day until day 27, when
            // 130 GB × 24 ÷ 730 × $0.25 = $1.07 a day passes the floor; billed before.
            s(
                "2026-09-28",
                "sessions",
                "TimedStorage-ByteHrs",
                "from-the-start"
            ),
            // Writes at $2.00 a day against the design's $1.00.
            s("2026-10-01", "orders", "WriteRequestUnits", "units"),
            // catalog steps again from its $2.00 a day: the scan's $40.00.
            s("2026-10-11", "catalog", "ReadRequestUnits", "units"),
            // events from its $31.20 a day: the same hours at the reservation's $12.00.
            s("2026-10-16", "events", "ReadCapacityUnit-Hrs", "price"),
            // The one day of 5× reads against the design's $1.00.
            s("2026-10-21", "orders", "ReadRequestUnits", "units"),
        ],
        "{doc}"
    );
    // orders' reads match the design every other day: $1.00 against $1.00.
    let reads = &doc["departures"][10];
    // The scan, set against catalog's own $2.00 a day: $38 × 30.41666… = $1,155.83 a month.
    let scan = &doc["departures"][8];
    assert_eq!(dec(scan["before_per_day"].as_str().unwrap()), dec("2"));
    assert_eq!(
        dec(scan["per_month"].as_str().unwrap()).round_dp(2),
        dec("1155.83")
    );
    assert_eq!(dec(reads["before_per_day"].as_str().unwrap()), dec("1"));
}

mod with_metrics {
    //! With the tables' CloudWatch metrics (`--metrics`, a point a day): each injected
    //! change's mechanism as measured, the money still the bill's; metrics that show
    //! nothing leave a departure unexplained, said so.

    use super::common::daily_bill::{bill, metrics};
    use super::common::{Case, dec, write_file};
    use serde_json::Value;

    fn run(bill_text: &str, metrics_text: &str, name: &str) -> Value {
        let dir = tempfile::tempdir().unwrap();
        let b = write_file(dir.path(), "cur.csv", bill_text);
        let m = write_file(dir.path(), name, metrics_text);
        let out = Case::new()
            .args(["anomalies", &b, "--metrics", &m, "--format", "json"])
            .run()
            .success();
        serde_json::from_str(&out.stdout).unwrap()
    }

    fn kinds(doc: &Value) -> Vec<(String, String, String)> {
        doc["departures"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                (
                    d["day"].as_str().unwrap().to_string(),
                    d["table"].as_str().unwrap().to_string(),
                    d["mechanism"]["kind"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    }

    fn k(a: &str, b: &str, c: &str) -> (String, String, String) {
        (a.into(), b.into(), c.into())
    }

    #[test]
    fn each_change_is_explained_by_what_was_measured() {
        let doc = run(&bill(true), &metrics(true), "metrics.csv");
        assert_eq!(
            kinds(&doc),
            vec![
                // ReplicationLatency to us-east-2 measured from day 15.
                k("2026-09-16", "orders", "replica"),
                // GSI by-email's write units begin on day 20.
                k("2026-09-21", "users", "index-began"),
                // TTL deletions: 2M a day, then none.
                k("2026-09-26", "sessions", "ttl-stopped"),
                // 3.2M write units ÷ 1.6M PutItem = 2 a request, was 1.6M ÷ 1.6M = 1.
                k("2026-10-01", "orders", "units-per-request"),
                // Scans begin: 160M items ÷ 160,000 scans = 1,000 a request, where
                // 32M items ÷ 32M queries = 1.
                k("2026-10-11", "catalog", "items-per-request"),
                // The bill alone: the same units at another price.
                k("2026-10-16", "events", "price"),
                // 40M GetItem that day, 8M before; 1 unit each both.
                k("2026-10-21", "orders", "requests"),
            ],
            "{doc}"
        );
        let at = |i: usize| doc["departures"][i].clone();
        let figure = |v: &Value| dec(v.as_str().unwrap());
        assert_eq!(doc["rule"]["metrics_series"], 19);
        let replica = at(0);
        assert!(
            replica["mechanism"]["text"]
                .as_str()
                .unwrap()
                .contains("ReplicationLatency to it from 2026-09-16")
        );
        let index = at(1);
        assert_eq!(figure(&index["mechanism"]["after"]), dec("1600000"));
        let text = index["mechanism"]["text"].as_str().unwrap();
        assert!(text.contains("GSI `by-email` began"), "{text}");
        // Its backfill: 4M items, a write unit each, measured on day 20.
        assert!(
            text.contains("its backfill consumed 4,000,000 write units"),
            "{text}"
        );
        let ttl = at(2);
        assert_eq!(figure(&ttl["mechanism"]["before"]), dec("2000000"));
        assert_eq!(figure(&ttl["mechanism"]["after"]), dec("0"));
        // The money is the bill's: 10 GB a day × 30.41666… days × $0.25 = $76.04.
        assert_eq!(figure(&ttl["per_month"]).round_dp(2), dec("76.04"));
        let size = at(3);
        assert_eq!(figure(&size["mechanism"]["before"]), dec("1"));
        assert_eq!(figure(&size["mechanism"]["after"]), dec("2"));
        assert!(
            size["mechanism"]["text"]
                .as_str()
                .unwrap()
                .contains("items past a 1 KB boundary")
        );
        let scan = at(4);
        assert_eq!(figure(&scan["mechanism"]["before"]), dec("1"));
        assert_eq!(figure(&scan["mechanism"]["after"]), dec("1000"));
        // $2 → $40 a day: $38 × 30.41666… = $1,155.83 a month.
        assert_eq!(figure(&scan["per_month"]).round_dp(2), dec("1155.83"));
        let requests = at(6);
        assert_eq!(figure(&requests["mechanism"]["before"]), dec("8000000"));
        assert_eq!(figure(&requests["mechanism"]["after"]), dec("40000000"));
    }

    #[test]
    fn a_quiet_sixty_days_with_its_metrics_flags_nothing() {
        let doc = run(&bill(false), &metrics(false), "metrics.csv");
        assert_eq!(doc["departures"], serde_json::json!([]));
    }

    #[test]
    fn metrics_that_show_no_change_leave_a_departure_unexplained() {
        // The bill changes, the metrics stay quiet: what the bill alone tells (a meter that
        // began, a price) stands; the rest is unexplained, and said so.
        let doc = run(&bill(true), &metrics(false), "metrics.csv");
        assert_eq!(
            kinds(&doc),
            vec![
                k("2026-09-16", "orders", "began"),
                k("2026-09-21", "users", "unexplained"),
                k("2026-09-26", "sessions", "unexplained"),
                k("2026-10-01", "orders", "unexplained"),
                k("2026-10-11", "catalog", "unexplained"),
                k("2026-10-16", "events", "price"),
                k("2026-10-21", "orders", "unexplained"),
            ],
            "{doc}"
        );
        assert!(
            doc["departures"][1]["mechanism"]["text"]
                .as_str()
                .unwrap()
                .starts_with("not explained: the table's CloudWatch metrics show no")
        );
    }

    /// The CSV of metrics as `get-metric-data` pages: each series a result named by the
    /// label `usage query` writes, split over two pages.
    fn as_pages(csv: &str) -> (String, String) {
        let mut series: Vec<(String, Vec<String>, Vec<String>)> = Vec::new();
        for line in csv.lines().skip(1) {
            let f: Vec<&str> = line.split(',').collect();
            let label = format!(
                "ddbcost:{}:{}:{}:{}:86400{}",
                f[1],
                f[2],
                f[3],
                f[4],
                if f[6].is_empty() {
                    String::new()
                } else {
                    format!(":{}", f[6])
                }
            );
            match series.last_mut() {
                Some((l, t, v)) if *l == label => {
                    t.push(f[0].to_string());
                    v.push(f[5].to_string());
                }
                _ => series.push((label, vec![f[0].to_string()], vec![f[5].to_string()])),
            }
        }
        let page = |part: &[(String, Vec<String>, Vec<String>)], token: bool| {
            let results: Vec<Value> = part
                .iter()
                .enumerate()
                .map(|(i, (l, t, v))| {
                    serde_json::json!({
                        "Id": format!("m{i}"), "Label": l, "Timestamps": t,
                        "Values": v.iter().map(|x| x.parse::<u64>().unwrap()).collect::<Vec<_>>(),
                        "StatusCode": "Complete"
                    })
                })
                .collect();
            let mut doc = serde_json::json!({"MetricDataResults": results, "Messages": []});
            if token {
                doc["NextToken"] = "next".into();
            }
            doc.to_string()
        };
        let half = series.len() / 2;
        (page(&series[..half], true), page(&series[half..], false))
    }

    #[test]
    fn get_metric_data_pages_read_as_the_csv_does() {
        let (one, two) = as_pages(&metrics(true));
        let dir = tempfile::tempdir().unwrap();
        let b = write_file(dir.path(), "cur.csv", &bill(true));
        let p1 = write_file(dir.path(), "metrics-1-1.json", &one);
        let p2 = write_file(dir.path(), "metrics-1-2.json", &two);
        let out = Case::new()
            .args(["anomalies", &b, "--metrics", &p1, &p2, "--format", "json"])
            .run()
            .success();
        let pages: Value = serde_json::from_str(&out.stdout).unwrap();
        let csv = run(&bill(true), &metrics(true), "metrics.csv");
        assert_eq!(pages["departures"], csv["departures"]);
        // The fetch `usage query --requests` writes asks for what these pages hold.
        let script = Case::new()
            .args([
                "usage",
                "query",
                "--table",
                "orders",
                "--gsi",
                "orders:by-day",
                "--days",
                "60",
                "--period",
                "86400",
                "--end",
                "2026-10-31",
                "--requests",
            ])
            .run()
            .success()
            .stdout;
        for label in [
            "ddbcost:orders::SuccessfulRequestLatency:SampleCount:86400:Operation=GetItem",
            "ddbcost:orders::SuccessfulRequestLatency:SampleCount:86400:Operation=TransactWriteItems",
            "ddbcost:orders::ReturnedItemCount:Sum:86400:Operation=Scan",
            "ddbcost:orders::TimeToLiveDeletedItemCount:Sum:86400",
            "ddbcost:orders:by-day:OnlineIndexConsumedWriteCapacity:Sum:86400",
        ] {
            assert!(script.contains(label), "{label}\n{script}");
        }
        assert!(script.contains("\"Name\": \"Operation\""));
    }

    #[test]
    fn metrics_of_the_wrong_shape_are_refused_with_their_place() {
        let dir = tempfile::tempdir().unwrap();
        let b = write_file(dir.path(), "cur.csv", &bill(true));
        // Requests read by their Sum, not their SampleCount.
        let wrong = metrics(true).replace(
            "SuccessfulRequestLatency,SampleCount",
            "SuccessfulRequestLatency,Average",
        );
        let m = write_file(dir.path(), "m.csv", &wrong);
        Case::new()
            .args(["anomalies", &b, "--metrics", &m])
            .run()
            .code(1)
            .stderr_has("SuccessfulRequestLatency (Operation Query) of table `catalog`: statistic Average, where anomalies adds a day's SampleCount")
            .stderr_has("m.csv");
        // A dimension the metric is not kept by.
        let wrong = metrics(true).replace("Operation=PutItem", "ReceivingRegion=PutItem");
        let m = write_file(dir.path(), "m2.csv", &wrong);
        Case::new()
            .args(["anomalies", &b, "--metrics", &m])
            .run()
            .code(1)
            .stderr_has("line ")
            .stderr_has(
                "dimension `ReceivingRegion`: SuccessfulRequestLatency is kept by Operation",
            );
    }
}

mod any_metrics {
    //! For any CloudWatch rows beside the generated bill: read or refused, never a panic;
    //! the departures and their money are the bill's alone — metrics only explain.
    use proptest::prelude::*;
    use rust_decimal::Decimal;

    use super::common::daily_bill::{METRICS_HEADER, bill};

    const METRICS: [&str; 6] = [
        "ConsumedReadCapacityUnits,Sum",
        "ConsumedWriteCapacityUnits,Sum",
        "SuccessfulRequestLatency,SampleCount",
        "ReturnedItemCount,Sum",
        "TimeToLiveDeletedItemCount,Sum",
        "OnlineIndexConsumedWriteCapacity,Sum",
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn metrics_explain_and_never_move_money(
            rows in proptest::collection::vec(
                (0u32..60, 0usize..5, 0usize..6, 0usize..4, 0u64..1_000_000_000, any::<bool>()),
                0..200,
            )
        ) {
            let tables = ["orders", "catalog", "users", "sessions", "events"];
            let ops = ["Operation=Scan", "Operation=Query", "Operation=PutItem", "Operation=GetItem"];
            // One value a series and day; each series also at days 0 and 1 (so its period,
            // inferred, is a day) — the shapes CloudWatch gives, with any values.
            let mut points = std::collections::BTreeMap::new();
            for (day, t, m, d, v, gsi) in &rows {
                let kept_by_operation = (2..4).contains(m);
                let dim = if kept_by_operation { ops[*d] } else { "" };
                let index = if *gsi && !kept_by_operation && *m != 4 { "g" } else { "" };
                let series = (tables[*t], index, METRICS[*m], dim);
                points.insert((series, *day), *v);
                points.entry((series, 0)).or_insert(0);
                points.entry((series, 1)).or_insert(0);
            }
            let mut csv = METRICS_HEADER.to_string();
            for (((table, index, metric, dim), day), v) in &points {
                let (month, dom) = if *day < 30 { (9, day + 1) } else { (10, day - 29) };
                csv.push_str(&format!(
                    "2026-{month:02}-{dom:02}T00:00:00Z,{table},{index},{metric},{v},{dim}\n"
                ));
            }
            let read = !rows.is_empty();
            let rule = (7, Decimal::from(50), Decimal::ONE);
            let json = ddbcost::api::ReportFormat::Json;
            let alone = ddbcost::api::anomalies::explained_text("b.csv", &bill(true), &[], rule, json).unwrap();
            let with = ddbcost::api::anomalies::explained_text(
                "b.csv", &bill(true), &[("m.csv".to_string(), csv)], rule, json,
            );
            // Well-formed series are read.
            prop_assert_eq!(with.is_ok(), true, "{:?}", with.as_ref().err());
            let with = with.unwrap();
            let a: serde_json::Value = serde_json::from_str(&alone).unwrap();
            let w: serde_json::Value = serde_json::from_str(&with).unwrap();
            let money = |v: &serde_json::Value| -> Vec<(serde_json::Value, serde_json::Value)> {
                v["departures"].as_array().unwrap().iter()
                    .map(|d| (d["day"].clone(), d["per_month"].clone())).collect()
            };
            prop_assert_eq!(money(&a), money(&w));
            if read {
                prop_assert!(w["rule"]["metrics_series"].as_u64().unwrap() > 0);
            }
        }
    }
}

mod other_shapes {
    //! The same 60 days as a legacy CUR, as FOCUS, and at hourly granularity (each day's
    //! row split over four 6-hour rows of a quarter each: a quarter of a decimal is always
    //! exact): the same departures, on the same days, with the same money.

    use super::common::daily_bill::{HEADER, bill};
    use super::run_json;
    use rust_decimal::Decimal;
    use serde_json::Value;

    /// What a departure is: its day, table, meter, shape and money a month.
    fn departures(doc: &Value) -> Vec<String> {
        doc["departures"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                format!(
                    "{} {} {} {} {} {}",
                    d["day"],
                    d["table"],
                    d["meter"],
                    d["shape"],
                    d["per_month"],
                    d["mechanism"]["kind"]
                )
            })
            .collect()
    }

    fn rows(text: &str) -> Vec<Vec<String>> {
        text.lines()
            .skip(1)
            .map(|l| l.split(',').map(str::to_string).collect())
            .collect()
    }

    fn expected() -> Vec<String> {
        let found = departures(&run_json(&bill(true)));
        assert_eq!(found.len(), 7, "{found:?}");
        found
    }

    #[test]
    fn a_legacy_cur_gives_the_same_departures() {
        let header = "lineItem/LineItemType,lineItem/UsageStartDate,lineItem/ProductCode,lineItem/UsageType,lineItem/ResourceId,lineItem/UsageAmount,lineItem/CurrencyCode,lineItem/UnblendedCost\n";
        let legacy = bill(true).replacen(HEADER, header, 1);
        assert_ne!(legacy, bill(true));
        assert_eq!(departures(&run_json(&legacy)), expected());
    }

    #[test]
    fn a_focus_export_gives_the_same_departures() {
        let mut focus = String::from(
            "ChargeCategory,ChargePeriodStart,ChargePeriodEnd,x_ServiceCode,ServiceName,x_UsageType,ResourceId,ConsumedQuantity,BillingCurrency,BilledCost,EffectiveCost\n",
        );
        for r in rows(&bill(true)) {
            // A day's charge period: from its start to the next day's.
            let end = next_day(&r[1]);
            focus.push_str(&format!(
                "{},{},{end},{},Amazon DynamoDB,{},{},{},{},{},{}\n",
                r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[7]
            ));
        }
        assert_eq!(departures(&run_json(&focus)), expected());
    }

    #[test]
    fn hourly_rows_give_the_same_departures() {
        let quarter = |s: &str| (s.parse::<Decimal>().unwrap() / Decimal::from(4)).normalize();
        let mut hourly = HEADER.to_string();
        for r in rows(&bill(true)) {
            for hour in ["00", "06", "12", "18"] {
                let start = r[1].replace("T00:", &format!("T{hour}:"));
                hourly.push_str(&format!(
                    "{},{start},{},{},{},{},{},{}\n",
                    r[0],
                    r[2],
                    r[3],
                    r[4],
                    quarter(&r[5]),
                    r[6],
                    quarter(&r[7])
                ));
            }
        }
        assert_eq!(departures(&run_json(&hourly)), expected());
    }

    /// `2026-09-30T00:00:00Z` → `2026-10-01T00:00:00Z` (the bill's days are September's and
    /// October's).
    fn next_day(start: &str) -> String {
        let (month, day): (u32, u32) =
            (start[5..7].parse().unwrap(), start[8..10].parse().unwrap());
        let (m, d) = match (month, day) {
            (9, 30) => (10, 1),
            (10, 31) => (11, 1),
            (m, d) => (m, d + 1),
        };
        format!("2026-{m:02}-{d:02}T00:00:00Z")
    }
}
