//! `ddbcost sweep`: every combination priced, the cheapest first, the grid as CSV and JSON,
//! refused combinations listed with their reason. Totals derived in comments from
//! aws-us-east-1 prices ($0.25 / $0.10 per GB-month Standard / Standard-IA storage, $0.125 /
//! $0.155 per million read units; 10 reads a second = 26.28 M a month).

mod common;

use common::{Case, dec};
use serde_json::Value;

const W: &str = "prices: aws-us-east-1\ntables:\n  t:\n    storage: 100 GB\n    item_size: 1 KB\n    patterns:\n      read:\n        op: get\n        rate: 10/s\n        consistency: strong\n";

#[test]
fn every_combination_is_priced_and_the_cheapest_comes_first() {
    let (_dir, file) = common::temp_workload(W);
    let out = Case::new()
        .args([
            "sweep",
            &file,
            "--vary",
            "tables.t.class=standard,standard-ia",
            "--vary",
            "tables.t.patterns.read.consistency=strong,eventual",
            "--format",
            "json",
        ])
        .run()
        .success();
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc["designs"], 4);
    // Standard, strong: 100 × 0.25 + 26.28 × 0.125 = 25 + 3.285 = 28.285; eventual: 25 +
    // 1.6425 = 26.6425. Standard-IA, strong: 10 + 26.28 × 0.155 = 14.0734; eventual: 10 +
    // 2.0367 = 12.0367.
    let totals: Vec<_> = doc["grid"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| dec(d["monthly_total"].as_str().unwrap()).normalize())
        .collect();
    assert_eq!(
        totals,
        [
            dec("28.285"),
            dec("26.6425"),
            dec("14.0734"),
            dec("12.0367")
        ]
    );
    let cheapest = &doc["cheapest"][0];
    assert_eq!(cheapest["values"]["tables.t.class"], "standard-ia");
    assert_eq!(
        cheapest["values"]["tables.t.patterns.read.consistency"],
        "eventual"
    );
    // The same design through `estimate --set` (the compare path): the same total.
    let e = Case::new()
        .args([
            "estimate",
            &file,
            "--set",
            "tables.t.class=standard-ia",
            "--set",
            "tables.t.patterns.read.consistency=eventual",
            "--format",
            "json",
        ])
        .run()
        .success();
    let e: Value = serde_json::from_str(&e.stdout).unwrap();
    assert_eq!(dec(e["total"].as_str().unwrap()), dec("12.0367"));
}

#[test]
fn the_grid_as_csv_with_refused_designs_and_a_budget() {
    let (_dir, file) = common::temp_workload(W);
    let out = Case::new()
        .args([
            "sweep",
            &file,
            "--vary",
            "tables.t.patterns.read.consistency=strong,eventual,sometimes",
            "--format",
            "csv",
        ])
        .run()
        .success();
    let (header, rows) = common::csv_table(&out.stdout);
    assert_eq!(
        header,
        [
            "tables.t.patterns.read.consistency",
            "monthly_total",
            "currency",
            "refused"
        ]
    );
    assert_eq!(rows.len(), 3);
    assert_eq!(&rows[0][1], "28.285");
    assert!(
        rows[2][3].contains("unknown consistency `sometimes`"),
        "{:?}",
        rows[2]
    );
    // A budget of $27 keeps the eventual design only (26.6425).
    Case::new()
        .args([
            "sweep",
            &file,
            "--vary",
            "tables.t.patterns.read.consistency=strong,eventual",
            "--max-total",
            "27",
        ])
        .run()
        .success()
        .stdout_has("2 design(s) priced (0 refused)")
        .stdout_has("1 within 27.00 USD")
        .stdout_has("26.64");
}

#[test]
fn a_path_that_names_nothing_is_refused() {
    let (_dir, file) = common::temp_workload(W);
    Case::new()
        .args(["sweep", &file, "--vary", "tables.nope.class=standard"])
        .run()
        .code(2)
        .stderr_has("nope");
    Case::new()
        .args(["sweep", &file, "--vary", "tables.t.class"])
        .run()
        .code(2)
        .stderr_has("expected PATH=V1,V2");
}

#[test]
fn a_sweep_where_every_design_is_refused_fails() {
    let (_dir, file) = common::temp_workload(W);
    Case::new()
        .args([
            "sweep",
            &file,
            "--vary",
            "tables.t.patterns.read.rate=-1/s,-2/s",
        ])
        .run()
        .code(1)
        .stderr_has("every one of the 2 design(s) was refused; the first:");
}

#[test]
fn a_vary_path_naming_an_unknown_field_is_a_usage_error() {
    let (_dir, file) = common::temp_workload(W);
    Case::new()
        .args([
            "sweep",
            &file,
            "--vary",
            "tables.t.clas=standard,standard-ia",
        ])
        .run()
        .code(2)
        .stderr_has("unknown field `clas`");
}

#[test]
fn the_same_vary_path_twice_is_a_usage_error() {
    let (_dir, file) = common::temp_workload(W);
    Case::new()
        .args([
            "sweep",
            &file,
            "--vary",
            "tables.t.class=standard",
            "--vary",
            "tables.t.class=standard-ia",
        ])
        .run()
        .code(2)
        .stderr_has("--vary `tables.t.class` is given twice");
}

#[test]
fn a_forecast_past_9999_11_is_refused() {
    let (_dir, file) = common::temp_workload(W);
    Case::new()
        .args(["forecast", &file, "--months", "3", "--start", "9999-10"])
        .run()
        .code(2)
        .stderr_has("runs past 9999-11");
    Case::new()
        .args([
            "estimate", &file, "--period", "9999-12", "--format", "focus",
        ])
        .run()
        .code(2)
        .stderr_has("ends in year 10000");
    // The last month prices, and its period ends on 9999-12-01: four-digit years throughout.
    let out = Case::new()
        .args([
            "forecast", &file, "--months", "2", "--start", "9999-10", "--format", "focus",
        ])
        .run()
        .success();
    assert!(
        out.stdout.contains("9999-12-01T00:00:00Z"),
        "{}",
        out.stdout
    );
    assert!(!out.stdout.contains("10000-"), "{}", out.stdout);
}

/// A sweep over an INCLUDE index's projection prices each value: switching it to `keys-only`
/// or `all` drops what only an INCLUDE projection has (`include`, `projected_size`), as a
/// capacity mode switch drops the other mode's settings — not a refusal of every design but
/// one. With 1,000,000 items: `all` stores each whole 2 KB item again in the index, INCLUDE
/// its keys and 300 B, KEYS_ONLY its keys alone, so the three totals are in that order.
#[test]
fn a_sweep_over_projections_prices_each_one() {
    let (_dir, path) = common::temp_workload(
        "prices: aws-us-east-1\ntables:\n  orders:\n    items: 1M\n    item_size: 2 KB\n    key_size: 40 B\n    indexes:\n      by-status: { type: gsi, projection: include, include: [status, total], projected_size: 300 B, key_size: 30 B }\n    patterns:\n      put: { op: put, rate: 10/s }\n",
    );
    let out = common::Case::new()
        .args([
            "sweep",
            &path,
            "--vary",
            "tables.orders.indexes.by-status.projection=[keys-only, all, include]",
            "--format",
            "json",
        ])
        .run()
        .success();
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc["refused"], 0, "{doc}");
    let grid = doc["grid"].as_array().unwrap();
    assert_eq!(grid.len(), 3);
    assert!(grid.iter().all(|d| d["monthly_total"].is_string()), "{doc}");
    let total = |p: &str| {
        grid.iter()
            .find(|d| d["values"]["tables.orders.indexes.by-status.projection"] == p)
            .map(|d| common::dec(d["monthly_total"].as_str().unwrap()))
            .unwrap()
    };
    assert!(total("all") > total("include"));
    assert!(total("include") > total("keys-only"));
}
