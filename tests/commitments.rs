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
            "estimate",
            &path,
            "--format",
            "focus",
            "--period",
            "2027-01",
            // A 730-hour month, as the figures below (January's own would be 744).
            "--month-hours",
            "730",
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

/// FOCUS bills an upfront fee in the month it was bought, whole, and amortizes it in the
/// effective cost: the reservation of `TWO_TABLES`, bought in 2027-02.
#[test]
fn focus_bills_the_upfront_fee_in_the_month_bought_and_amortizes_it() {
    let yaml = TWO_TABLES.replace("term: 1y }", "term: 1y, start: 2027-02 }");
    let (_dir, path) = temp_workload(&yaml);
    let export = |period: &str| {
        let out = Case::new()
            .args([
                "estimate",
                &path,
                "--format",
                "focus",
                "--period",
                period,
                "--month-hours",
                "730",
            ])
            .run()
            .success();
        common::csv_table(&out.stdout)
    };
    let sum = |header: &[String], rows: &[csv::StringRecord], name: &str| {
        let c = common::column(header, name);
        rows.iter()
            .map(|r| common::dec(&r[c]))
            .sum::<rust_decimal::Decimal>()
    };
    // The estimate (amortized): upfront $150 ÷ 12 = $12.50, hourly 730 × $0.0128 = $9.344,
    // 120 WCU × 730 h × $0.00065 = $56.94 less the 73,000 covered (−$47.45), 10 RCU × 730 h
    // × $0.00013 = $0.949: 12.5 + 9.344 + 56.94 − 47.45 + 0.949 = $32.283.
    let total = common::dec("32.283");
    for (period, billed_upfront) in [("2027-02", "150"), ("2027-03", "0")] {
        let (header, rows) = export(period);
        let col = |n: &str| common::column(&header, n);
        let upfront = rows
            .iter()
            .find(|r| &r[col("x_LineItemKey")] == "account/reserved/us-east-1/wcu/1y/upfront")
            .unwrap();
        // In its month: the whole fee, one block at $150, once; after: nothing.
        assert_eq!(
            common::dec(&upfront[col("BilledCost")]),
            common::dec(billed_upfront),
            "{period}"
        );
        assert_eq!(
            common::dec(&upfront[col("ListCost")]),
            common::dec(billed_upfront),
            "{period}"
        );
        assert_eq!(&upfront[col("ChargeCategory")], "Purchase");
        assert_eq!(&upfront[col("ChargeFrequency")], "One-Time");
        assert_eq!(
            common::dec(&upfront[col("EffectiveCost")]),
            common::dec("0")
        );
        // Effective: the estimate, the fee amortized; billed: the month's invoice, the
        // amortized $12.50 out and the fee billed this month in.
        assert_eq!(sum(&header, &rows, "EffectiveCost"), total, "{period}");
        assert_eq!(
            sum(&header, &rows, "BilledCost"),
            total - common::dec("12.5") + common::dec(billed_upfront),
            "{period}"
        );
    }
}

/// A forecast's FOCUS export bills a reservation's upfront fee in its month of purchase:
/// its `start`, or the forecast's first month for one without (bought then, as the forecast
/// assumes), and in no other month.
#[test]
fn a_forecasts_focus_bills_each_upfront_fee_in_its_month() {
    for (yaml, bought) in [
        (TWO_TABLES.to_string(), "2027-01"),
        (
            TWO_TABLES.replace("term: 1y }", "term: 1y, start: 2027-02 }"),
            "2027-02",
        ),
    ] {
        let (_dir, path) = temp_workload(&yaml);
        let out = Case::new()
            .args([
                "forecast", &path, "--months", "3", "--start", "2027-01", "--format", "focus",
            ])
            .run()
            .success();
        let (header, rows) = common::csv_table(&out.stdout);
        let col = |n: &str| common::column(&header, n);
        let billed: Vec<(String, rust_decimal::Decimal)> = rows
            .iter()
            .filter(|r| &r[col("x_LineItemKey")] == "account/reserved/us-east-1/wcu/1y/upfront")
            .map(|r| {
                (
                    r[col("BillingPeriodStart")][..7].to_string(),
                    common::dec(&r[col("BilledCost")]),
                )
            })
            .collect();
        // One block's $150, once, in the month bought; $0 in the others it is held.
        for (month, cost) in &billed {
            let expected = if month == bought { "150" } else { "0" };
            assert_eq!(*cost, common::dec(expected), "{bought}: {billed:?}");
        }
        assert!(billed.iter().any(|(m, _)| m == bought), "{billed:?}");
    }
}

// Database Savings Plans. us-east-1 on-demand writes: $0.625 per million WRU.

const PLAN: &str = "prices: aws-us-east-1
commitments:
  savings_plan:
    per_hour: 0.05
    rates: { source: issue 12 worked check, standard: { write_per_million: 0.8 } }
tables:
  events:
    item_size: 1KB
    patterns:
      put: { op: put, rate: 100M/month }
";

#[test]
fn the_savings_plan_worked_check() {
    // 100 M WRU × $0.625 = $62.50 a month = $0.0856164…/h, flat. At rate 0.8 the $0.05/h
    // commitment covers 0.05 ÷ 0.8 = $0.0625 of list-priced writes each hour:
    // 730 × (0.05 + 0.0856164… − 0.0625) = 36.5 + 62.5 − 45.625 = $53.375.
    let doc = json(PLAN, &[]);
    let line = |k: &str| common::json_line(&doc, k).clone();
    assert_eq!(line("events/writes")["cost"], "62.5");
    assert_eq!(line("account/savings-plan/commitment")["cost"], "36.5"); // 0.05 × 730
    let covered = line("account/savings-plan/us-east-1/standard.write_per_million/covered");
    assert_eq!(covered["quantity"], "73"); // 45.625 ÷ 0.625 = 73 M WRU
    assert_eq!(covered["cost"], "-45.625");
    assert_eq!(doc["total"], "53.375");
    let sp = &doc["savings_plan"];
    assert_eq!(sp["utilization"], "1"); // 0.05 used every hour
    assert_eq!(sp["coverage"], "0.73"); // 45.625 ÷ 62.5
    assert_eq!(sp["savings"], "9.125"); // 45.625 − 36.5
    // The table's footer says the same, rounded to cents.
    let (_dir, path) = temp_workload(PLAN);
    Case::new()
        .args(["estimate", &path])
        .run()
        .success()
        .stdout_has("Database Savings Plan: 0.05 USD an hour (36.50 USD this month); 100% of the commitment used; covers 73% of eligible usage (45.63 of 62.50 USD at list price); saves 9.13 USD against list; rates: issue 12 worked check.");
}

/// `yaml` with a daily profile: 12 quiet hours at 1 and 12 busy at 3 (0.5× and 1.5× the
/// average).
fn half_day(yaml: &str) -> String {
    yaml.replace(
        "    item_size: 1KB\n",
        "    item_size: 1KB\n    traffic: { hourly: [1,1,1,1,1,1,1,1,1,1,1,1,3,3,3,3,3,3,3,3,3,3,3,3] }\n",
    )
}

#[test]
fn the_plan_applies_hour_by_hour_not_on_the_average() {
    // The same writes, half the day at 0.5× and half at 1.5× the average: $0.042808…/h and
    // $0.128424…/h of list. Quiet hours: 0.042808 × 0.8 = $0.034247 < $0.05, all covered
    // (62.5 × 0.5 × ½ = $15.625 a month), the rest of the commitment unused; busy hours: $0.0625
    // covered (365 × 0.0625 = $22.8125). Total 62.5 + 36.5 − 38.4375 = $60.5625, not the
    // $53.375 of the flat average; used 15.625 × 0.8 + 365 × 0.05 = $30.75 of $36.50.
    let yaml = half_day(PLAN);
    let doc = json(&yaml, &[]);
    assert_eq!(doc["total"], "60.5625");
    assert_eq!(doc["savings_plan"]["used"], "30.75");
    assert_eq!(doc["savings_plan"]["covered"], "38.4375");
}

#[test]
fn reservations_apply_before_the_plan() {
    // Two tables of 60 WCU, 100 reserved: 20 WCU an hour left at $0.00065 = $0.013/h of
    // list. A $0.0052/h plan at rate 0.8 covers 0.0052 ÷ 0.8 = $0.0065/h = 10 WCU an hour:
    // 10 × 730 = 7,300 WCU-hours, a credit of 7,300 × $0.00065 = $4.745.
    let yaml = TWO_TABLES.replace(
        "    - { capacity: wcu, units: 100, term: 1y }\n",
        "    - { capacity: wcu, units: 100, term: 1y }\n  savings_plan:\n    per_hour: 0.0052\n    rates: { source: test, standard: { wcu_hour: 0.8 } }\n",
    );
    let doc = json(&yaml, &[]);
    let covered = common::json_line(
        &doc,
        "account/savings-plan/us-east-1/standard.wcu_hour/covered",
    );
    assert_eq!(covered["quantity"], "7300");
    assert_eq!(covered["cost"], "-4.745");
    // RCU has no rate: not covered, and said so.
    assert!(
        doc["warnings"]
            .to_string()
            .contains("no rate for `standard.rcu_hour`")
    );
    // The reservation's total (32.283, above) + the plan 0.0052 × 730 = 3.796 − 4.745.
    assert_eq!(doc["total"], "31.334");
}

#[test]
fn a_plan_without_known_rates_is_refused() {
    let yaml = PLAN.replace(
        "    rates: { source: issue 12 worked check, standard: { write_per_million: 0.8 } }\n",
        "",
    );
    let (_dir, path) = temp_workload(&yaml);
    Case::new()
        .args(["estimate", &path])
        .run()
        .code(1)
        .stderr_has("rates for us-east-1 are unknown")
        .stderr_has("savings_plan_rates")
        .stderr_has("events/writes");
}

#[test]
fn plan_terms_amounts_and_rates_are_checked() {
    for (from, to, says) in [
        ("per_hour: 0.05", "per_hour: 0", "commits to nothing"),
        (
            "per_hour: 0.05",
            "per_hour: 0.05\n    term: 3y",
            "sold for 1 year",
        ),
        (
            "write_per_million: 0.8",
            "write_per_million: 1.2",
            "outside [0, 1]",
        ),
        (
            "write_per_million: 0.8",
            "storage_gb_month: 0.8",
            "unknown field `storage_gb_month`",
        ),
    ] {
        let (_dir, path) = temp_workload(&PLAN.replace(from, to));
        Case::new()
            .args(["estimate", &path])
            .run()
            .code(1)
            .stderr_has(says)
            .stderr_has("commitments.savings_plan");
    }
}

#[test]
fn focus_amortizes_commitments_and_shows_what_is_unused() {
    // The half-day profile above: $36.50 committed, $30.75 used, $5.75 unused.
    let yaml = half_day(PLAN);
    let (_dir, path) = temp_workload(&yaml);
    let out = Case::new()
        .args([
            "estimate",
            &path,
            "--format",
            "focus",
            "--period",
            "2027-01",
            // A 730-hour month, as the figures below (January's own would be 744).
            "--month-hours",
            "730",
        ])
        .run()
        .success();
    let (header, rows) = common::csv_table(&out.stdout);
    let col = |n: &str| common::column(&header, n);
    let row = |key: &str| {
        rows.iter()
            .find(|r| &r[col("x_LineItemKey")] == key)
            .unwrap_or_else(|| panic!("{key}"))
    };
    let commitment = row("account/savings-plan/commitment");
    assert_eq!(&commitment[col("ChargeCategory")], "Purchase");
    assert_eq!(&commitment[col("BilledCost")], "36.5");
    assert_eq!(&commitment[col("EffectiveCost")], "0.0");
    assert_eq!(&commitment[col("CommitmentDiscountCategory")], "Spend");
    // The covered writes: billed −38.4375, effective −38.4375 + 30.75 used = −7.6875.
    let covered = row("account/savings-plan/us-east-1/standard.write_per_million/covered");
    assert_eq!(&covered[col("EffectiveCost")], "-7.6875");
    let unused = row("account/savings-plan/unused");
    assert_eq!(&unused[col("CommitmentDiscountStatus")], "Unused");
    assert_eq!(&unused[col("EffectiveCost")], "5.75"); // 36.5 − 30.75
    assert_eq!(&unused[col("BilledCost")], "0.0");
    // Both columns add up to the total: 62.5 + 36.5 − 38.4375 = 60.5625.
    let sum = |c: usize| -> rust_decimal::Decimal { rows.iter().map(|r| common::dec(&r[c])).sum() };
    assert_eq!(sum(col("BilledCost")), common::dec("60.5625"));
    assert_eq!(sum(col("EffectiveCost")), common::dec("60.5625"));
}

#[test]
fn a_forecast_applies_the_plan_for_its_year() {
    // From 2027-02 for 12 months: a forecast from 2027-01 over 14 months has it in months
    // 2–13 only: $62.50 in January and February 2028, $53.375 in between.
    // Every put overwrites (no new items, so no storage that grows over the months).
    let yaml = PLAN
        .replace("per_hour: 0.05", "per_hour: 0.05\n    start: 2027-02")
        .replace("rate: 100M/month }", "rate: 100M/month, overwrites: 1 }");
    let (_dir, path) = temp_workload(&yaml);
    let out = Case::new()
        .args([
            "forecast", &path, "--months", "14", "--start", "2027-01", "--format", "json",
        ])
        .run()
        .success();
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let totals: Vec<&str> = doc["months"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["total"].as_str().unwrap())
        .collect();
    assert_eq!(totals[0], "62.5");
    assert!(totals[1..13].iter().all(|t| *t == "53.375"), "{totals:?}");
    assert_eq!(totals[13], "62.5");
    // 2 × 62.5 + 12 × 53.375 = 765.5.
    assert_eq!(doc["total"], "765.5");
}

// Commitment advice (`forecast --advise`).

fn advice(yaml: &str, months: &str) -> serde_json::Value {
    let (_dir, path) = temp_workload(yaml);
    let out = Case::new()
        .args([
            "forecast", &path, "--months", months, "--start", "2027-01", "--format", "json",
            "--advise",
        ])
        .run()
        .success();
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    doc["commitment_options"].clone()
}

fn option<'a>(a: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    a["options"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["name"] == name)
        .unwrap_or_else(|| panic!("no option {name}: {a}"))
}

#[test]
fn advice_finds_the_reservation_blocks_that_pay() {
    // Two tables of 60 WCU and 5 RCU, flat, over 12 months; us-east-1.
    // A first 100-WCU 1y block: fees 150/12 + 0.0128 × 730 = 12.5 + 9.344 = $21.844 a month,
    // covers 100 × 730 × $0.00065 = $47.45: it pays. A second covers the last 20 WCU only
    // ($9.49 < $21.844): it does not. 100 RCU for 10 provisioned: 30/12 + 0.0025 × 730 =
    // $4.325 for $0.949 covered: none.
    let yaml = TWO_TABLES.replace(
        "    - { capacity: wcu, units: 100, term: 1y }\n",
        "    []\n",
    );
    let yaml = yaml.replace("  reserved:\n    []\n", "  reserved: []\n");
    let a = advice(&yaml, "12");
    let none = option(&a, "no commitments");
    // 12 × (2 × 60 × 730 × 0.00065 + 2 × 5 × 730 × 0.00013) = 12 × (56.94 + 0.949) = 694.668.
    assert_eq!(none["total"], "694.668");
    let reserved = option(&a, "reserved capacity, 1 year");
    assert_eq!(reserved["reservations"].as_array().unwrap().len(), 1);
    assert_eq!(reserved["reservations"][0]["capacity"], "wcu");
    assert_eq!(reserved["reservations"][0]["units"], "100");
    // 12 × 32.283 (the pooled case above) = 387.396.
    assert_eq!(reserved["total"], "387.396");
    // Provisioned capacity does not follow traffic: nothing goes unused at −30 %.
    assert_eq!(reserved["unused_lower_traffic"], "0");
    // A 3-year term is longer than the horizon: not priced, and said so.
    assert!(a["notes"].to_string().contains("shorter than the term"));
    assert!(!a.to_string().contains("reserved capacity, 3 years\""));
}

#[test]
fn advice_finds_the_plan_commitment_and_its_risk() {
    // The worked check's writes (100 M WRU a month, $0.085616…/h of list), rate 0.8, every put
    // an overwrite (no storage growth). Below 0.8 × 0.085616 = $0.0685/h each $ committed
    // covers $1.25 of list; above it covers nothing more. In steps of $0.001: at 0.068 a month
    // costs 730 × 0.068 + 62.5 − 730 × 0.085 = 49.64 + 62.5 − 62.05 = $50.09; at 0.069
    // everything is covered: 730 × 0.069 = $50.37. So 0.068: 12 × 50.09 = $601.08.
    let yaml = PLAN.replace("rate: 100M/month }", "rate: 100M/month, overwrites: 1 }");
    let a = advice(&yaml, "12");
    let plan = option(&a, "Database Savings Plan");
    assert_eq!(plan["savings_plan_per_hour"], "0.068");
    assert_eq!(plan["total"], "601.08");
    // At the expected traffic the $49.64 a month committed covers $62.05 of the $62.50 of
    // list (49.64 ÷ 0.8): all of it is used, none unused.
    assert_eq!(plan["unused"], "0");
    // 30 % less traffic: $43.75 a month of list, 43.75 × 0.8 = $35 of commitment used out of
    // 730 × 0.068 = $49.64: $14.64 unused a month, 12 × 14.64 = $175.68; the year costs
    // 12 × 49.64 = $595.68 against 12 × 43.75 = $525 without the plan.
    assert_eq!(plan["total_lower_traffic"], "595.68");
    assert_eq!(plan["unused_lower_traffic"], "175.68");
    assert_eq!(option(&a, "no commitments")["total_lower_traffic"], "525");
    // As stated ($0.05/h): 12 × 53.375.
    assert_eq!(option(&a, "as stated in the workload")["total"], "640.5");
}

/// One month of `workloads/commitments-us-east-1.yaml` in a forecast from 2027-01, derived
/// from the rules and us-east-1's list prices (on demand: $0.625 per million WRU, $0.125 per
/// million RRU; provisioned: $0.00065 per WCU-hour, $0.00013 per RCU-hour; storage $0.25 per
/// GB-month; 1-year reservations of 100 units: WCU $150 upfront + $0.0128/h, RCU $30 +
/// $0.0025/h): the month's total and the plan's unused commitment. `k` counts months from
/// the start, `traffic` scales every rate (1, or 0.7 for the −30 % column).
fn commitments_month(
    k: u32,
    traffic: rust_decimal::Decimal,
    reserved: bool,
    plan_per_hour: Option<&str>,
) -> (rust_decimal::Decimal, rust_decimal::Decimal) {
    use common::dec;
    use rust_decimal::Decimal;
    let hours = Decimal::from(730);
    let growth = (0..k).fold(Decimal::ONE, |g, _| g * dec("1.03")) * traffic;
    // events: 50 puts/s of 2 KB = 2 WRU each, 200 eventual gets/s of ≤ 4 KB = 0.5 RRU each:
    // 100 units/s × 2,628,000 s = 262.8 M of each a month, × 1.03^k (growth: 3%/month).
    let units = dec("262800000") * growth;
    let writes = units * dec("0.625") / dec("1000000");
    let reads = units * dec("0.125") / dec("1000000");
    // accounts and sessions: 60 WCU and 50 RCU each, fixed, every hour.
    let provisioned =
        dec("2") * (dec("60") * hours * dec("0.00065") + dec("50") * hours * dec("0.00013"));
    // Storage, GB = 2^30 B, items + 100 B each: accounts 2 M × 1,124 B, sessions 5 M × 900 B;
    // events start at 50 M and insert 131.4 M × 1.03^j in month j (billed on the month's
    // average: the start plus half the month's inserts) of 2,148 B.
    let gb = Decimal::from(1u64 << 30);
    let inserts =
        |j: u32| dec("131400000") * (0..j).fold(Decimal::ONE, |g, _| g * dec("1.03")) * traffic;
    let start = dec("50000000") + (0..k).map(inserts).sum::<Decimal>();
    let storage = (dec("2000000") * dec("1124")
        + dec("5000000") * dec("900")
        + (start + inserts(k) / dec("2")) * dec("2148"))
        / gb
        * dec("0.25");
    let mut total = writes + reads + provisioned + storage;
    if reserved {
        // 100 RCU: 30 / 12 + 0.0025 × 730 = $4.325 for 100 × 730 × 0.00013 = $9.49 covered;
        // 100 WCU: 150 / 12 + 0.0128 × 730 = $21.844 for 100 × 730 × 0.00065 = $47.45.
        total +=
            dec("30") / dec("12") + dec("0.0025") * hours - dec("100") * hours * dec("0.00013");
        total +=
            dec("150") / dec("12") + dec("0.0128") * hours - dec("100") * hours * dec("0.00065");
    }
    let mut unused = Decimal::ZERO;
    if let Some(commitment) = plan_per_hour {
        // Hour by hour over the day (busy 08:00–18:00 weighs 2, the rest 1: 34 in all), the
        // commitment covers the lowest rate first — writes at 0.8 of list, reads at 0.85,
        // provisioned units left unreserved at 0.9 — until it is used up.
        let commitment = dec(commitment);
        let weight = |h: usize| {
            if (8..18).contains(&h) {
                dec("2")
            } else {
                Decimal::ONE
            }
        };
        let per_hour = hours / dec("24");
        let (unreserved_wcu, unreserved_rcu) = if reserved { (20, 0) } else { (120, 100) };
        let (mut covered, mut used) = (Decimal::ZERO, Decimal::ZERO);
        for h in 0..24 {
            let share = weight(h) / dec("34") / per_hour;
            let pools = [
                (dec("0.8"), writes * share),
                (dec("0.85"), reads * share),
                (
                    dec("0.9"),
                    Decimal::from(unreserved_wcu) * dec("0.00065")
                        + Decimal::from(unreserved_rcu) * dec("0.00013"),
                ),
            ];
            let mut left = commitment;
            for (rate, spend) in pools {
                let u = left.min(spend * rate);
                left -= u;
                used += u;
                covered += u / rate;
            }
        }
        total += commitment * hours - covered * per_hour;
        unused = (commitment * dec("24") - used) * per_hour;
    }
    (total, unused)
}

/// The README's `forecast --advise` rows for `workloads/commitments-us-east-1.yaml`, derived
/// month by month (`commitments_month`) and summed over 12 months.
#[test]
fn readme_commitment_options_are_derived() {
    use common::dec;
    use rust_decimal::Decimal;
    let out = Case::new()
        .args([
            "forecast",
            "workloads/commitments-us-east-1.yaml",
            "--months",
            "12",
            "--start",
            "2027-01",
            "--advise",
            "--format",
            "json",
        ])
        .run()
        .success();
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let a = &doc["commitment_options"];
    let year = |traffic: &str, reserved: bool, plan: Option<&str>| {
        (0..12).fold((Decimal::ZERO, Decimal::ZERO), |(t, u), k| {
            let (mt, mu) = commitments_month(k, dec(traffic), reserved, plan);
            (t + mt, u + mu)
        })
    };
    let close = |engine: &serde_json::Value, derived: Decimal, shown: &str| {
        let engine = dec(engine.as_str().unwrap());
        assert!(
            (engine - derived).abs() < dec("0.000000001"),
            "{engine} vs {derived}"
        );
        assert_eq!(derived.round_dp(2), dec(shown), "{derived}");
    };
    // Rows of the README: option → total, total at −30 %, unused at −30 %.
    for (name, reserved, plan, total, lower, unused) in [
        ("no commitments", false, None, "9181.35", "6761.77", "0"),
        (
            "reserved capacity, 1 year",
            true,
            None,
            "8812.10",
            "6392.52",
            "0",
        ),
        (
            "Database Savings Plan",
            false,
            Some("0.25"),
            "8707.28",
            "6552.59",
            "207.26",
        ),
        (
            "reserved capacity 1 year + Database Savings Plan",
            true,
            Some("0.18"),
            "8444.99",
            "6275.42",
            "208.28",
        ),
    ] {
        let o = option(a, name);
        let (t, _) = year("1", reserved, plan);
        let (t7, u7) = year("0.7", reserved, plan);
        close(&o["total"], t, total);
        close(&o["total_lower_traffic"], t7, lower);
        close(&o["unused_lower_traffic"], u7, unused);
    }
    // The best option saves 9,181.3541 − 8,444.9855 = $736.37 over the year.
    let (none, _) = year("1", false, None);
    let (best, _) = year("1", true, Some("0.18"));
    assert_eq!((none - best).round_dp(2), dec("736.37"));
}

#[test]
fn advice_prints_a_table_of_options_and_refuses_exports() {
    let (_dir, path) = temp_workload(PLAN);
    Case::new()
        .args([
            "forecast", &path, "--months", "12", "--start", "2027-01", "--advise",
        ])
        .run()
        .success()
        .stdout_has("Commitment options")
        .stdout_has("Total at −30 % traffic")
        .stdout_has("plan 0.068/h");
    // Shorter than a year: no commitment is priced, and the notes say why.
    Case::new()
        .args([
            "forecast", &path, "--months", "6", "--start", "2027-01", "--advise",
        ])
        .run()
        .success()
        .stdout_has("shorter than the plan's year");
    Case::new()
        .args([
            "forecast", &path, "--months", "3", "--advise", "--format", "csv",
        ])
        .run()
        .code(2)
        .stderr_has("--advise");
}

mod properties {
    use proptest::prelude::*;
    use rust_decimal::Decimal;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// Any commitment, rates, profile and reservation the loader accepts: the estimate
        /// never panics, the plan adds at most its commitment to the bill and saves at most
        /// what it covers, its shares stay within [0, 1], and FOCUS's BilledCost and
        /// EffectiveCost both add up to the total.
        #[test]
        fn a_plan_costs_at_most_its_commitment_and_focus_reconciles(
            per_hour_milli in 1u32..=2_000,
            read_rate in 1u32..=100,
            write_rate in 1u32..=100,
            busy in 1u32..=20,
            blocks in 0u32..=3,
            wcu in 1u32..=400,
        ) {
            let plan = format!(
                "  savings_plan:\n    per_hour: {}\n    rates: {{ source: p, standard: {{ read_per_million: {}, write_per_million: {}, wcu_hour: 0.9 }} }}\n",
                Decimal::new(i64::from(per_hour_milli), 3),
                Decimal::new(i64::from(read_rate), 2),
                Decimal::new(i64::from(write_rate), 2),
            );
            let reserved = if blocks > 0 {
                format!("  reserved:\n    - {{ capacity: wcu, units: {}, term: 1y }}\n", blocks * 100)
            } else {
                String::new()
            };
            let body = format!(
                "tables:
  od:
    item_size: 1 KB
    traffic: {{ hourly: [1,1,1,1,1,1,1,1,{busy},{busy},{busy},{busy},1,1,1,1,1,1,1,1,1,1,1,1] }}
    patterns:
      put: {{ op: put, rate: 40/s, overwrites: 1 }}
      get: {{ op: get, rate: 300/s, consistency: eventual }}
  pr:
    capacity: {{ mode: provisioned, rcu: 10, wcu: {wcu} }}
    item_size: 1 KB
    patterns:
      put: {{ op: put, rate: 5/s, overwrites: 1 }}
"
            );
            let with = format!("prices: aws-us-east-1\ncommitments:\n{reserved}{plan}{body}");
            let without = format!("prices: aws-us-east-1\ncommitments:\n{reserved}{body}");
            let e = super::common::estimate(&with, "aws-us-east-1");
            let base = super::common::estimate(&without, "aws-us-east-1");
            let sp = e.savings_plan.clone().unwrap();
            let sum: Decimal = e.line_items.iter().filter_map(|l| l.cost).sum();
            prop_assert_eq!(sum, e.total);
            prop_assert!(e.total - base.total <= sp.commitment);
            prop_assert!(base.total - e.total <= sp.covered);
            prop_assert!(sp.coverage() >= Decimal::ZERO && sp.coverage() <= Decimal::ONE);
            prop_assert!(sp.utilization() >= Decimal::ZERO && sp.utilization() <= Decimal::ONE);
            let (csv, _) = ddbcost::api::exports::focus(&[("baseline", &e)], ddbcost::api::exports::Period { year: 2027, month: 1 }).unwrap();
            let (header, rows) = super::common::csv_table(&csv);
            let total = |name: &str| -> Decimal {
                let c = super::common::column(&header, name);
                rows.iter().map(|r| super::common::dec(&r[c])).sum()
            };
            // The upfront fee is billed in the month bought (none stated here: another
            // month), so BilledCost is the total less its amortized share: $150 ÷ 12 = $12.50
            // a block of WCU (the bundled table's 1-year upfront).
            let amortized = Decimal::from(blocks) * Decimal::new(125, 1);
            prop_assert_eq!(total("BilledCost"), e.total - amortized);
            // Effective shares divide (fees × used ÷ bought): equal to 20 decimal places.
            prop_assert_eq!(total("EffectiveCost").round_dp(20), e.total.round_dp(20));
        }
    }
}

#[test]
fn compare_prices_a_plan_changed_with_set() {
    // The worked check at $0.068/h instead of $0.05: 730 × 0.068 + 62.5 − 730 × 0.085 =
    // 49.64 + 62.5 − 62.05 = $50.09 (0.068 ÷ 0.8 = $0.085/h of the $0.085616…/h covered),
    // 53.375 − 50.09 = $3.285 less.
    let (_dir, path) = temp_workload(PLAN);
    let out = Case::new()
        .args([
            "compare",
            &path,
            "--set",
            "commitments.savings_plan.per_hour=0.068",
            "--format",
            "json",
        ])
        .run()
        .success();
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc["scenarios"][0]["total"], "50.09");
    assert_eq!(doc["scenarios"][0]["delta"], "-3.285");
    // A negative commitment through `--set` is refused with its path.
    Case::new()
        .args([
            "compare",
            &path,
            "--set",
            "commitments.savings_plan.per_hour=-1",
        ])
        .run()
        .code(1)
        .stderr_has("commitments.savings_plan.per_hour");
}

#[test]
fn advice_is_shown_in_the_estimates_currency() {
    // The plan option of the worked check, $601.08 over 12 months, at 0.92 EUR per USD:
    // 601.08 × 0.92 = €552.9936; its unused fees at −30 % traffic, 175.68 × 0.92 = €161.6256.
    let yaml = PLAN.replace("rate: 100M/month }", "rate: 100M/month, overwrites: 1 }");
    let (_dir, path) = temp_workload(&yaml);
    let out = Case::new()
        .args([
            "forecast",
            &path,
            "--months",
            "12",
            "--start",
            "2027-01",
            "--format",
            "json",
            "--advise",
            "--currency",
            "EUR",
            "--fx-rate",
            "0.92",
            "--fx-date",
            "2026-11-30",
        ])
        .run()
        .success();
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc["currency"], "EUR");
    let plan = option(&doc["commitment_options"], "Database Savings Plan");
    assert_eq!(plan["total"], "552.9936");
    assert_eq!(plan["unused_lower_traffic"], "161.6256");
}

#[test]
fn a_commitment_without_a_start_lasts_its_term_from_the_forecasts_first_month() {
    // A 1-year plan with no `start` in a 24-month forecast: its commitment ($0.05 × 730 h =
    // $36.50) and its cover ($45.625, the worked check) in months 1–12 only.
    let (_dir, path) = temp_workload(PLAN);
    let out = Case::new()
        .args([
            "forecast", &path, "--months", "24", "--start", "2027-01", "--format", "json",
        ])
        .run()
        .success();
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let cost = |i: usize, key: &str| {
        doc["months"][i]["line_items"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["key"] == key)
            .map(|l| l["cost"].as_str().unwrap().to_string())
    };
    let commitment = "account/savings-plan/commitment";
    let covered = "account/savings-plan/us-east-1/standard.write_per_million/covered";
    for month in [0, 11] {
        assert_eq!(cost(month, commitment).as_deref(), Some("36.5"));
        assert_eq!(cost(month, covered).as_deref(), Some("-45.625"));
    }
    for month in [12, 23] {
        assert_eq!(cost(month, commitment), None);
        assert_eq!(cost(month, covered), None);
    }
    // A reservation without a start: 1 year from the first month too — covered in month 12,
    // not in month 13 (without it: 56.94 + 0.949 = $57.889; with it $32.283).
    let (_dir, path) = temp_workload(TWO_TABLES);
    let out = Case::new()
        .args([
            "forecast", &path, "--months", "13", "--start", "2027-01", "--format", "json",
        ])
        .run()
        .success();
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc["months"][11]["total"], "32.283");
    assert_eq!(doc["months"][12]["total"], "57.889");
}
