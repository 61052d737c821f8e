//! `ddbcost forecast`: month after month, with growth, seasons, launch months and stored items
//! that move. us-east-1 list prices (DESIGN.md §4): WRU $0.625 and RRU $0.125 per million,
//! storage $0.25 per GB-month (GB = 2^30 B); an item is stored with 100 B of overhead.

mod common;

use common::{Case, column, csv_table, temp_workload};

fn json(yaml: &str, args: &[&str]) -> serde_json::Value {
    let (_dir, path) = temp_workload(yaml);
    let mut all = vec!["forecast", path.as_str(), "--format", "json"];
    all.extend_from_slice(args);
    let out = Case::new().args(all).run().success();
    serde_json::from_str(&out.stdout).unwrap()
}

fn month_total(doc: &serde_json::Value, i: usize) -> String {
    doc["months"][i]["total"].as_str().unwrap().to_string()
}

fn line(doc: &serde_json::Value, i: usize, key: &str) -> serde_json::Value {
    doc["months"][i]["line_items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["key"] == key)
        .unwrap_or_else(|| panic!("month {i} has no {key}"))
        .clone()
}

#[test]
fn twelve_months_of_three_percent_growth() {
    // 1 M updates of 1 KB a month (no inserts): month 1 is 1 M WRU × $0.625 = $0.625, month k
    // × 1.03^(k−1). Twelve months: 0.625 × Σ 1.03^(k−1) = 0.625 × 14.1920295615392981815947
    // = $8.8700184759620613634966875 (each power exact: 1.03^11 has 22 decimals).
    let doc = json(
        "prices: aws-us-east-1
tables:
  t:
    item_size: 1 KB
    growth: 3%/month
    patterns:
      u: { op: update, rate: 1M/month }
",
        &["--months", "12", "--start", "2027-01"],
    );
    assert_eq!(doc["schema"], "ddbcost.forecast/v1");
    assert_eq!(doc["currency"], "USD");
    assert_eq!(doc["months"].as_array().unwrap().len(), 12);
    assert_eq!(doc["months"][0]["period"], "2027-01");
    assert_eq!(doc["months"][11]["period"], "2027-12");
    assert_eq!(month_total(&doc, 0), "0.625");
    assert_eq!(month_total(&doc, 1), "0.64375"); // 0.625 × 1.03
    assert_eq!(doc["total"], "8.8700184759620613634966875");
}

#[test]
fn a_month_that_starts_empty_bills_half_its_inserts() {
    // A new table inserting 10 M items of 1 KB in its first month: the average is 5 M items ×
    // (1,024 + 100) B = 5,620,000,000 B = 5.233… GiB × $0.25 = $1.308508217334747314453125.
    // Month 2 starts with 10 M and inserts 10 M more: average 15 M → 3 × that.
    let doc = json(
        "prices: aws-us-east-1
tables:
  t:
    item_size: 1 KB
    from: 2027-01
    patterns:
      p: { op: put, rate: 10M/month }
",
        &["--months", "2", "--start", "2027-01"],
    );
    assert_eq!(
        line(&doc, 0, "t/storage")["cost"],
        "1.308508217334747314453125"
    );
    assert_eq!(
        line(&doc, 1, "t/storage")["cost"],
        "3.925524652004241943359375"
    );
}

#[test]
fn launch_months_and_seasons() {
    // Reads start in 2027-02; December's are × 1.8. 10 M eventual reads of 1 KB = 5 M RRU ×
    // $0.125 = $0.625; in December $1.125.
    let doc = json(
        "prices: aws-us-east-1
tables:
  t:
    item_size: 1 KB
    patterns:
      r: { op: get, rate: 10M/month, consistency: eventual, from: 2027-02, seasonal: { dec: 1.8 } }
",
        &["--months", "12", "--start", "2027-01"],
    );
    assert_eq!(month_total(&doc, 0), "0");
    assert_eq!(month_total(&doc, 1), "0.625");
    assert_eq!(month_total(&doc, 11), "1.125");
}

#[test]
fn ttl_expires_what_was_inserted_one_retention_earlier() {
    // An existing table of 10 M items, 10 M inserts a month, a 1-month retention: it has been
    // inserting at that rate, so each month expires as many as it inserts — steady at 10 M:
    // 10 M × 1,124 B / 2^30 × $0.25 = $2.61701643466949462890625 every month.
    let doc = json(
        "prices: aws-us-east-1
tables:
  t:
    items: 10M
    item_size: 1 KB
    ttl: 1 month
    patterns:
      p: { op: put, rate: 10M/month }
",
        &["--months", "3", "--start", "2027-01"],
    );
    for m in 0..3 {
        assert_eq!(
            line(&doc, m, "t/storage")["cost"],
            "2.61701643466949462890625"
        );
    }
}

#[test]
fn exports_carry_one_billing_period_per_month_and_reconcile() {
    let (_dir, path) = temp_workload(
        "prices: aws-us-east-1
tables:
  t:
    item_size: 1 KB
    growth: 3%/month
    patterns:
      u: { op: update, rate: 1M/month }
",
    );
    let out = Case::new()
        .args([
            "forecast", &path, "--months", "12", "--start", "2027-01", "--format", "csv",
        ])
        .run()
        .success();
    let (header, rows) = csv_table(&out.stdout);
    let start = column(&header, "billing_period_start");
    let cost = column(&header, "cost");
    // Per month: the writes, and storage (no item count: depends on usage, no cost).
    assert_eq!(rows.len(), 24);
    assert_eq!(&rows[0][start], "2027-01-01");
    assert_eq!(&rows[23][start], "2027-12-01");
    // The column sums to the forecast's total (see the growth test).
    let sum: rust_decimal::Decimal = rows
        .iter()
        .filter(|r| !r[cost].is_empty())
        .map(|r| r[cost].parse::<rust_decimal::Decimal>().unwrap())
        .sum();
    assert_eq!(sum.to_string(), "8.8700184759620613634966875");
    let out = Case::new()
        .args([
            "forecast", &path, "--months", "12", "--start", "2027-01", "--format", "focus",
        ])
        .run()
        .success();
    let (header, rows) = csv_table(&out.stdout);
    let p = column(&header, "BillingPeriodStart");
    assert_eq!(rows.len(), 12);
    assert!(rows[0][p].starts_with("2027-01-01"));
    assert!(rows[11][p].starts_with("2027-12-01"));
}

#[test]
fn a_growth_list_shorter_than_the_horizon_is_refused() {
    let (_dir, path) = temp_workload(
        "prices: aws-us-east-1
tables:
  t:
    item_size: 1 KB
    growth: [1, 1.1]
    patterns:
      u: { op: update, rate: 1M/month }
",
    );
    Case::new()
        .args(["forecast", &path, "--months", "3", "--start", "2027-01"])
        .run()
        .code(1)
        .stderr_has("tables.t.growth: lists 2 month(s), and the forecast has a month 3");
    Case::new()
        .args(["forecast", &path, "--months", "0"])
        .run()
        .code(2)
        .stderr_has("--months 0 is outside 1–120");
}

#[test]
fn the_html_report_charts_the_months() {
    let (_dir, path) = temp_workload(
        "prices: aws-us-east-1
tables:
  t:
    item_size: 1 KB
    growth: 3%/month
    patterns:
      u: { op: update, rate: 1M/month }
",
    );
    let out = Case::new()
        .args([
            "forecast", &path, "--months", "12", "--start", "2027-01", "--format", "html",
        ])
        .run()
        .success();
    assert!(out.stdout.contains("<svg"));
    assert!(out.stdout.contains("Cost by component and month (USD)"));
    assert!(out.stdout.contains("<td>2027-12</td>"));
    // The total as in the growth test, rounded: $8.87.
    assert!(out.stdout.contains("$ 8.87"));
}

mod properties {
    use proptest::prelude::*;
    use rust_decimal::Decimal;

    proptest! {
        /// Any growth the loader accepts, any season, any launch: a forecast never panics,
        /// and its total is exactly the sum of its months.
        #[test]
        fn forecasts_add_up(
            pct in -99i64..=1000,
            season in 0u32..=1000,
            launch in 0u32..=24,
            months in 1u32..=36,
        ) {
            let yaml = format!(
                "prices: aws-us-east-1
tables:
  t:
    items: 1M
    item_size: 1 KB
    ttl: 45 days
    growth: {pct}%/month
    seasonal: {{ jul: {season} }}
    patterns:
      p: {{ op: put, rate: 2M/month, from: {}-{:02} }}
      r: {{ op: get, rate: 5M/month, consistency: eventual }}
      d: {{ op: delete, rate: 100K/month }}
",
                2027 + launch / 12,
                launch % 12 + 1
            );
            let (w, _) = ddbcost::api::load(&yaml, "p.yaml").unwrap();
            let book = ddbcost::api::PriceBook {
                primary: ddbcost::api::price_table("aws-us-east-1").unwrap(),
                others: Vec::new(),
            };
            if let Ok(f) = ddbcost::api::forecast(&w, &book, &ddbcost::api::Settings::default(), (2027, 1), months) {
                let sum = f.months.iter().try_fold(Decimal::ZERO, |a, m| a.checked_add(m.estimate.total));
                prop_assert_eq!(sum, Some(f.total));
                prop_assert_eq!(f.months.len(), months as usize);
            }
        }
    }
}
