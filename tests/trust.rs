//! Regression tests for the trust issue (#9): one test per defect, named after it, each stating
//! the DynamoDB rule or the user's expectation it holds the tool to. Figures are derived in the
//! comments from the rule and the us-east-1 list prices (reads $0.125 and writes $0.625 per
//! million request units, storage $0.25 per GB-month, PITR $0.20 per GB-month, RCU-hour
//! $0.00013, WCU-hour $0.00065).

mod common;

use common::{Case, cost, dec, estimate, quantity, temp_workload, try_estimate};
use ddbcost::api::Settings;
use rust_decimal::Decimal;

/// `compare --format json` of `path` (extra args appended), parsed.
fn compare_json(path: &str, extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["compare", path, "--format", "json"];
    args.extend_from_slice(extra);
    let out = Case::new().args(args).run().success();
    serde_json::from_str(&out.stdout).expect("compare JSON")
}

fn total_of(doc: &serde_json::Value, scenario: &str) -> Decimal {
    let s = doc["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == scenario)
        .unwrap_or_else(|| panic!("no scenario {scenario}"));
    dec(s["total"].as_str().unwrap())
}

const ONE_TABLE: &str = "prices: aws-us-east-1
tables:
  orders:
    item_size: 1 KB
    items: 1M
    patterns:
      put: { op: put, rate: 1/s }
";

// §1 ---------------------------------------------------------------------------------------

#[test]
fn compare_does_not_panic_when_two_alternatives_add_the_same_line() {
    // Two alternatives both turn PITR on: the `orders/pitr` line is new in the first and
    // present again in the second. Each column must equal its standalone estimate:
    // 1M items × (1,024 + 100) B = 1.124e9 B / 2^30 = 1.046800613 GB × $0.20 = $0.2093601226.
    let text = format!(
        "{ONE_TABLE}scenarios:\n  alternatives:\n    - {{ name: a, patch: {{ tables: {{ orders: {{ pitr: true }} }} }} }}\n    - {{ name: b, patch: {{ tables: {{ orders: {{ pitr: true, class: standard }} }} }} }}\n"
    );
    let (_dir, path) = temp_workload(&text);
    let doc = compare_json(&path, &[]);
    let pitr_row = doc["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["key"] == "orders/pitr")
        .unwrap();
    assert!(pitr_row["baseline"].is_null());
    let expected = dec("1124000000") / dec("1073741824") * dec("0.20");
    for cell in pitr_row["scenarios"].as_array().unwrap() {
        assert_eq!(
            dec(cell.as_str().unwrap()).round_dp(10),
            expected.round_dp(10)
        );
    }
}

#[test]
fn compare_does_not_panic_when_steps_turn_a_line_on_off_and_on() {
    let text = format!(
        "{ONE_TABLE}scenarios:\n  steps:\n    - {{ name: on, patch: {{ tables: {{ orders: {{ pitr: true }} }} }} }}\n    - {{ name: off, patch: {{ tables: {{ orders: {{ pitr: false }} }} }} }}\n    - {{ name: on-again, patch: {{ tables: {{ orders: {{ pitr: true }} }} }} }}\n"
    );
    let (_dir, path) = temp_workload(&text);
    let doc = compare_json(&path, &[]);
    // Steps are cumulative: `off` is the baseline again, `on-again` equals `on`.
    let base = dec(doc["baseline"]["total"].as_str().unwrap());
    assert_eq!(total_of(&doc, "off"), base);
    assert_eq!(total_of(&doc, "on"), total_of(&doc, "on-again"));
    // Each step's own delta: +PITR, −PITR, +PITR.
    let steps = doc["scenarios"].as_array().unwrap();
    let own: Vec<Decimal> = steps
        .iter()
        .map(|s| dec(s["step_delta"].as_str().unwrap()))
        .collect();
    assert_eq!(own[0], -own[1]);
    assert_eq!(own[0], own[2]);
}

// §2 ---------------------------------------------------------------------------------------

#[test]
fn floats_in_the_what_if_path_an_empty_patch_equals_the_baseline_to_every_digit() {
    // 1234.5678901234567891 has 20 significant digits: through f64 it would lose the last
    // five. An empty patch must leave the total unchanged, exactly.
    let text = "prices: aws-us-east-1
tables:
  t:
    item_size: 1 KB
    patterns:
      p: { op: put, rate: 1234.5678901234567891/s }
scenarios:
  alternatives:
    - { name: same, patch: {} }
";
    let (_dir, path) = temp_workload(text);
    let doc = compare_json(&path, &[]);
    let base = dec(doc["baseline"]["total"].as_str().unwrap());
    assert_eq!(total_of(&doc, "same"), base);
    // And the rule: 1234.5678901234567891/s × 2,628,000 s × 1 WRU × $0.625 / 10^6.
    let expected = dec("1234.5678901234567891") * dec("2628000") * dec("0.625") / dec("1000000");
    assert_eq!(base, expected);
}

#[test]
fn floats_in_the_what_if_path_set_values_keep_every_digit() {
    // `--set` reads its value as text too: 28 significant digits survive.
    let (_dir, path) = temp_workload(ONE_TABLE);
    let out = Case::new()
        .args([
            "estimate",
            &path,
            "--format",
            "json",
            "--set",
            "tables.orders.patterns.put.rate=0.1234567890123456789012345678/s",
        ])
        .run()
        .success();
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let total = dec(doc["total"].as_str().unwrap());
    // Writes: rate × 2,628,000 s × $0.625 / 10^6; storage: 1.046800613… GB × $0.25.
    let writes =
        dec("0.1234567890123456789012345678") * dec("2628000") * dec("0.625") / dec("1000000");
    let storage = dec("1124000000") / dec("1073741824") * dec("0.25");
    assert_eq!(total.round_dp(20), (writes + storage).round_dp(20));
}

// §3 ---------------------------------------------------------------------------------------

#[test]
fn panics_from_unchecked_arithmetic_extreme_multipliers_are_an_error() {
    // 7e28 × 24 does not fit in a decimal: refused with the path, never exit 101.
    let text = "prices: aws-us-east-1
tables:
  t:
    item_size: 1 KB
    traffic: { hourly: [7e28, 7e28, 7e28, 7e28, 7e28, 7e28, 7e28, 7e28, 7e28, 7e28, 7e28, 7e28, 7e28, 7e28, 7e28, 7e28, 7e28, 7e28, 7e28, 7e28, 7e28, 7e28, 7e28, 7e28] }
    patterns:
      p: { op: put, rate: 1/s }
";
    let (_dir, path) = temp_workload(text);
    Case::new()
        .args(["estimate", &path])
        .run()
        .code(1)
        .stderr_has("tables.t.traffic");
}

#[test]
fn panics_from_unchecked_arithmetic_table_and_lsi_reads_at_the_maxima() {
    // The documented maxima: 10^12 requests a second, 10^15 items per operation. Reads on
    // the table and its LSI added together overflow: an error, not a panic.
    let text = "prices: aws-us-east-1
tables:
  t:
    item_size: 400 KB
    key_size: 10 B
    indexes:
      l: { type: lsi, projection: all, key_size: 10 B }
    patterns:
      a: { op: query, rate: 1000000000000/s, items: 1000000000000000, consistency: strong }
      b: { op: query, index: l, rate: 1000000000000/s, items: 1000000000000000, consistency: strong }
";
    let (_dir, path) = temp_workload(text);
    let out = Case::new().args(["estimate", &path]).run();
    assert_eq!(out.code, 1, "stderr: {}", out.stderr);
    assert!(
        out.stderr.contains("too large to compute exactly"),
        "{}",
        out.stderr
    );
}

#[test]
fn panics_from_unchecked_arithmetic_extreme_custom_prices_in_every_format() {
    // A custom price table with extreme prices: percentages and the break-even note must
    // degrade to "—" or an error, never a panic, in every format.
    let dir = tempfile::tempdir().unwrap();
    let prices = dir.path().join("extreme.yaml");
    let base = std::fs::read_to_string(common::root().join("pricing/aws-us-east-1.yaml")).unwrap();
    let extreme = base
        .replace(
            "rcu_hour: 0.00013",
            "rcu_hour: 79000000000000000000000000000",
        )
        .replace(
            "read_per_million: 0.125",
            "read_per_million: 0.0000000000000000000000000001",
        );
    std::fs::write(&prices, extreme).unwrap();
    let workload = dir.path().join("w.yaml");
    std::fs::write(
        &workload,
        "tables:\n  t:\n    item_size: 1 KB\n    patterns:\n      g: { op: get, rate: 1/s, consistency: strong }\nscenarios:\n  alternatives:\n    - { name: prov, patch: { tables: { t: { capacity: { mode: provisioned, rcu: 1, wcu: 1 } } } } }\n",
    )
    .unwrap();
    let (w, p) = (workload.to_string_lossy(), prices.to_string_lossy());
    for format in ["table", "json", "csv", "markdown", "html"] {
        let out = Case::new()
            .args(["compare", &w, "--prices", &p, "--format", format])
            .run();
        assert!(
            out.code == 0 || out.code == 1,
            "{format}: exit {} {}",
            out.code,
            out.stderr
        );
        assert!(!out.stderr.contains("panicked"), "{format}: {}", out.stderr);
    }
}

// §4 ---------------------------------------------------------------------------------------

#[test]
fn silently_misread_fields_hours_written_4_0_are_4_hours() {
    // `hours: 4.0` is four hours (not the digits 40), and `start: 18.0` is 18:00.
    let write = |hours: &str, start: &str| {
        format!(
            "prices: aws-us-east-1\ntables:\n  t:\n    item_size: 1 KB\n    capacity: {{ mode: provisioned, auto_scaling: {{ target: 50% }} }}\n    traffic: {{ peak: {{ times_off_peak: 3, hours: {hours}, start: {start} }} }}\n    patterns:\n      p: {{ op: put, rate: 10/s }}\n"
        )
    };
    let a = estimate(&write("4", "18"), "aws-us-east-1");
    let b = estimate(&write("4.0", "18.0"), "aws-us-east-1");
    assert_eq!(a.total, b.total);
}

#[test]
fn silently_misread_fields_a_fraction_where_none_makes_sense_is_refused() {
    for (field, yaml) in [
        (
            "tables.t.traffic.peak.hours",
            "traffic: { peak: { times_off_peak: 3, hours: 4.5 } }",
        ),
        (
            "tables.t.capacity.rcu",
            "capacity: { mode: provisioned, rcu: 2.5, wcu: 1 }",
        ),
        (
            "tables.t.capacity.reserved.rcu",
            "capacity: { mode: provisioned, rcu: 200, wcu: 1, reserved: { rcu: 100.5, term: 1y } }",
        ),
    ] {
        let text = format!(
            "prices: aws-us-east-1\ntables:\n  t:\n    item_size: 1 KB\n    {yaml}\n    patterns:\n      p: {{ op: put, rate: 1/s }}\n"
        );
        let err = try_estimate(&text, "aws-us-east-1", Settings::default()).unwrap_err();
        assert_eq!(err.path.as_deref(), Some(field), "{err}");
        assert!(err.message.contains("whole number"), "{err}");
    }
}

// §5 ---------------------------------------------------------------------------------------

#[test]
fn compare_scenario_step_shows_its_own_delta_beside_the_cumulative_one() {
    // CloudShop: the eventual-reads step alone saves €223.58 (reads €490 → €266.42); the
    // cumulative delta includes the sparse GSI step before it (1,243.54 → 704.46 = −539.08).
    let doc = compare_json(
        "workloads/cloudshop.yaml",
        &["--scenario", "eventual-reads"],
    );
    let s = &doc["scenarios"][0];
    assert_eq!(
        dec(s["delta"].as_str().unwrap()).round_dp(2),
        dec("-539.08")
    );
    assert_eq!(
        dec(s["step_delta"].as_str().unwrap()).round_dp(2),
        dec("-223.58")
    );
    // The table view labels both.
    Case::new()
        .args([
            "compare",
            "workloads/cloudshop.yaml",
            "--scenario",
            "eventual-reads",
        ])
        .run()
        .success()
        .stdout_has("Δ vs baseline (steps: cumulative)")
        .stdout_has("Δ of the step alone")
        .stdout_has("-223.58")
        .stdout_has("(steps not shown)");
}

// §6 ---------------------------------------------------------------------------------------

#[test]
fn a_peak_times_average_is_that_multiple_of_the_days_average() {
    // `times_average: 3, hours: 4`: each peak hour carries 3× the day's average hour, so the
    // other 20 hours share 24 − 12 = 12 average hours: 0.6 each. Fixed capacity shows the
    // throttling hours; the monthly request total is unchanged by any profile.
    let with = |traffic: &str| {
        format!(
            "prices: aws-us-east-1\ntables:\n  t:\n    item_size: 1 KB\n    {traffic}\n    patterns:\n      p: {{ op: put, rate: 100/s }}\n"
        )
    };
    let flat = estimate(&with("traffic: { flat: true }"), "aws-us-east-1");
    let peak = estimate(
        &with("traffic: { peak: { times_average: 3, hours: 4, start: 18 } }"),
        "aws-us-east-1",
    );
    assert_eq!(
        flat.total, peak.total,
        "a profile never changes the month's total"
    );
    // Auto scaling at 50 %: the peak hour needs 3 × 100 / 0.5 = 600 WCU, the others
    // 0.6 × 100 / 0.5 = 120: average (4 × 600 + 20 × 120) / 24 = 200 WCU × 730 h.
    let scaled = estimate(
        &with(
            "traffic: { peak: { times_average: 3, hours: 4, start: 18 } }\n    capacity: { mode: provisioned, rcu: 1, auto_scaling: { target: 50% } }",
        ),
        "aws-us-east-1",
    );
    assert_eq!(quantity(&scaled, "t/writes"), dec("200") * dec("730"));
}

#[test]
fn a_bare_multiplier_is_refused_as_ambiguous() {
    let text = "prices: aws-us-east-1\ntables:\n  t:\n    item_size: 1 KB\n    traffic: { peak: { multiplier: 3, hours: 4 } }\n    patterns:\n      p: { op: put, rate: 1/s }\n";
    let err = try_estimate(text, "aws-us-east-1", Settings::default()).unwrap_err();
    assert!(err.message.contains("ambiguous"), "{err}");
    assert!(err.help.unwrap().contains("times_off_peak: 3"));
}

// §7 ---------------------------------------------------------------------------------------

#[test]
fn repeated_set_without_alt_is_one_alternative() {
    // Reading 1: `--set A --set B` changes both fields in one alternative named `--set`.
    let doc = compare_json(
        "workloads/cloudshop.yaml",
        &[
            "--scenario=--set",
            "--set",
            "settings.month_hours=720",
            "--set",
            "settings.gb=decimal",
        ],
    );
    assert_eq!(doc["scenarios"].as_array().unwrap().len(), 1);
    assert_eq!(
        doc["scenarios"][0]["description"],
        "settings.month_hours=720, settings.gb=decimal"
    );
}

#[test]
fn alt_groups_the_sets_that_follow_it() {
    // Reading 2: `--alt a --set A --alt b --set B` makes two alternatives, each from the
    // baseline.
    let doc = compare_json(
        "workloads/cloudshop.yaml",
        &[
            "--scenario",
            "short",
            "--scenario",
            "decimal",
            "--alt",
            "short",
            "--set",
            "settings.month_hours=720",
            "--alt",
            "decimal",
            "--set",
            "settings.gb=decimal",
        ],
    );
    let names: Vec<&str> = doc["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["short", "decimal"]);
    Case::new()
        .args(["compare", "workloads/cloudshop.yaml", "--alt", "empty"])
        .run()
        .code(2)
        .stderr_has("--alt empty has no --set after it");
}

// §8 ---------------------------------------------------------------------------------------

#[test]
fn an_overwriting_put_that_changes_no_indexed_attribute_writes_no_index_entry() {
    // Measured on DynamoDB: replacing an item whose GSI key and projected attributes do not
    // change consumes 1 WCU in all (the table), no index write. `overwrites: 100%` with the
    // index's default update rules (nothing moves, nothing projected changes) → 0 index WRU.
    let text = "prices: aws-us-east-1
tables:
  t:
    item_size: 500 B
    key_size: 20 B
    indexes:
      g: { type: gsi, projection: keys-only, key_size: 20 B }
    patterns:
      replace: { op: put, rate: 1M/month, overwrites: 100% }
      insert: { op: put, rate: 1M/month }
";
    let e = estimate(text, "aws-us-east-1");
    // Table: 2M puts × 1 WRU = 2 M WRU. Index: only the 1M inserts write an entry: 1 M WRU.
    assert_eq!(quantity(&e, "t/writes"), dec("2"));
    assert_eq!(quantity(&e, "t/gsi/g/writes"), dec("1"));
    assert_eq!(cost(&e, "t/gsi/g/writes"), dec("0.625"));
}

#[test]
fn an_identical_overwrite_writes_1_wcu_and_an_overwrite_says_what_it_changes() {
    // Measured on DynamoDB: an identical overwrite of a 1 KB item consumes 1 WCU, whatever
    // its indexes project. Two GSIs projecting ALL; 1 M overwriting puts of 1 KB a month.
    let text = |changes: &str| {
        format!(
            "prices: aws-us-east-1
tables:
  t:
    item_size: 1 KB
    key_size: 20 B
    indexes:
      a: {{ type: gsi, projection: all, key_size: 20 B }}
      k: {{ type: gsi, projection: keys-only, key_size: 20 B }}
    patterns:
      replace: {{ op: put, rate: 1M/month, overwrites: 100%{changes} }}
"
        )
    };
    // Plain `overwrites: 100%` = nothing changes: 1 M WRU on the table, no index write
    // ($0.625), not the 3 WCU per put that following each ALL index's update rule gave.
    let e = estimate(&text(""), "aws-us-east-1");
    assert_eq!(quantity(&e, "t/writes"), dec("1"));
    assert_eq!(quantity(&e, "t/gsi/a/writes"), dec("0"));
    assert_eq!(quantity(&e, "t/gsi/k/writes"), dec("0"));
    assert_eq!(e.total, dec("0.625")); // 1 M × $0.625
    // Projected attributes change: 1 write on the ALL index (its entry is the 1 KB item:
    // 1 WRU), none on the KEYS_ONLY one.
    let e = estimate(&text(", overwrite_changes: projected"), "aws-us-east-1");
    assert_eq!(quantity(&e, "t/gsi/a/writes"), dec("1"));
    assert_eq!(quantity(&e, "t/gsi/k/writes"), dec("0"));
    // An index key changes: the old entry deleted and the new one put on each index, 2 × 1 M
    // each (a KEYS_ONLY entry of 20 + 20 B + 100 B is 1 WRU too): 1 + 2 + 2 = 5 M WRU = $3.125.
    let e = estimate(&text(", overwrite_changes: keys"), "aws-us-east-1");
    assert_eq!(quantity(&e, "t/gsi/a/writes"), dec("2"));
    assert_eq!(quantity(&e, "t/gsi/k/writes"), dec("2"));
    assert_eq!(e.total, dec("3.125")); // 5 M × $0.625
    // `updates`: each index's update rule, ALL's default 1 write for a projected change and
    // KEYS_ONLY's 0 — the old reading, available when wanted.
    let e = estimate(&text(", overwrite_changes: updates"), "aws-us-east-1");
    assert_eq!(quantity(&e, "t/gsi/a/writes"), dec("1"));
    assert_eq!(quantity(&e, "t/gsi/k/writes"), dec("0"));
    // Said without `overwrites`, it is refused: it would describe nothing.
    let bad = text("").replace("overwrites: 100%", "overwrite_changes: keys");
    let err = ddbcost::api::load(&bad, "inline.yaml")
        .unwrap_err()
        .to_string();
    assert!(err.contains("states no `overwrites`"), "{err}");
}

#[test]
fn backups_restores_and_exports_state_their_size_in_gb() {
    // Infracost's golden file prices 460 GB of on-demand backups for a 230 GB table: at
    // us-east-1's $0.10 per GB-month, 460 × 0.10 = $46.00.
    let e = estimate(
        "prices: aws-us-east-1
tables:
  t:
    storage: 230 GB
    backups: { stored: 460 GB }
",
        "aws-us-east-1",
    );
    assert_eq!(quantity(&e, "t/backups"), dec("460"));
    assert_eq!(cost(&e, "t/backups"), dec("46")); // 460 × $0.10
    // calculator.aws: 100,004 GB of backups and 100,005 GB restored a month, and 30 GB of full
    // exports: 100,004 × 0.10 = $10,000.40; 100,005 × 0.15 = $15,000.75; 30 × 0.10 = $3.00.
    let e = estimate(
        "prices: aws-us-east-1
tables:
  t:
    storage: 10 GB
    backups: { stored: 100004 GB, restored_per_month: 100005 GB, exported_per_month: 30 GB }
",
        "aws-us-east-1",
    );
    assert_eq!(cost(&e, "t/backups"), dec("10000.4"));
    assert_eq!(cost(&e, "t/restores"), dec("15000.75"));
    assert_eq!(cost(&e, "t/exports"), dec("3"));
    // With nothing known of the table, a stated size still prices its line.
    let e = estimate(
        "prices: aws-us-east-1\ntables:\n  t:\n    backups: { stored: 460 GB }\n",
        "aws-us-east-1",
    );
    assert_eq!(cost(&e, "t/backups"), dec("46"));
    // A count and a size for the same line are refused: which one bills?
    let err = ddbcost::api::load(
        "prices: aws-us-east-1\ntables:\n  t:\n    storage: 1 GB\n    backups: { retained: 2, stored: 460 GB }\n",
        "inline.yaml",
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("`retained` (a count, sized from the table) and `stored` (a size) both say how much is billed"), "{err}");
}

// §9 ---------------------------------------------------------------------------------------

#[test]
fn item_sizes_of_a_mix_are_rounded_per_class_not_on_the_mean() {
    // The chat table: 10 % of messages 4.5 KB, 90 % 1.8 KB. A strong Get rounds each item:
    // 0.1 × 2 + 0.9 × 1 = 1.1 RCU (the mean, 2.07 KB, would say 1). A put: 0.1 × 5 + 0.9 × 2
    // = 2.3 WCU (the mean would say 3).
    let text = "prices: aws-us-east-1
tables:
  chat:
    item_size: [{ size: 4.5 KB, share: 10% }, { size: 1.8 KB, share: 90% }]
    patterns:
      get: { op: get, rate: 1M/month, consistency: strong }
      put: { op: put, rate: 1M/month }
";
    let e = estimate(text, "aws-us-east-1");
    assert_eq!(quantity(&e, "chat/reads"), dec("1.1"));
    assert_eq!(quantity(&e, "chat/writes"), dec("2.3"));
}

#[test]
fn a_batch_get_of_a_small_and_a_large_item_reads_three_units() {
    // BatchGet of a 1.5 KB and a 6.5 KB item: 1 + 2 = 3 RCU, not 2 × ceil(4 KB mean) = 2.
    let text = "prices: aws-us-east-1
tables:
  t:
    item_size: [{ size: 1.5 KB, share: 50% }, { size: 6.5 KB, share: 50% }]
    patterns:
      b: { op: batch-get, items: 2, rate: 1M/month, consistency: strong }
";
    let e = estimate(text, "aws-us-east-1");
    // Per item: (1 + 2) / 2 = 1.5 RCU × 2 items = 3 RCU per call × 1M calls = 3 M RRU.
    assert_eq!(quantity(&e, "t/reads"), dec("3"));
}

#[test]
fn a_sample_item_size_uses_its_distribution_not_its_mean() {
    // A sample of two items, 1,500 B and 6,600 B: a Get reads (1 + 2) / 2 = 1.5 RCU.
    let dir = tempfile::tempdir().unwrap();
    let small = "a".repeat(1496);
    let large = "a".repeat(6596);
    std::fs::write(
        dir.path().join("s.json"),
        format!("{{\"k\":\"{small}\"}}\n{{\"k\":\"{large}\"}}\n"),
    )
    .unwrap();
    let w = dir.path().join("w.yaml");
    std::fs::write(
        &w,
        "prices: aws-us-east-1\ntables:\n  t:\n    item_size: { sample: s.json }\n    patterns:\n      g: { op: get, rate: 1M/month, consistency: strong }\n",
    )
    .unwrap();
    let out = Case::new()
        .args(["estimate", &w.to_string_lossy(), "--format", "json"])
        .run()
        .success();
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let reads = common::json_line(&doc, "t/reads");
    // k (1 B) + value: 1,497 B → 1 unit, 6,597 B → 2 units; mean 4,047 B would say 1.
    assert_eq!(dec(reads["quantity"].as_str().unwrap()), dec("1.5"));
}

#[test]
fn shares_of_item_sizes_must_add_up_to_one() {
    let text = "prices: aws-us-east-1\ntables:\n  t:\n    item_size: [{ size: 1 KB, share: 50% }, { size: 2 KB, share: 40% }]\n";
    let err = try_estimate(text, "aws-us-east-1", Settings::default()).unwrap_err();
    assert!(err.message.contains("add up to 0.9, not 1"), "{err}");
}

// §10 --------------------------------------------------------------------------------------

#[test]
fn capacity_is_settable_per_dimension() {
    // Fixed WCU, auto-scaled RCU: writes 5 × 730 = 3,650 WCU-hours; reads at a 70 % target
    // of 7 RCU/s flat = 10 RCU × 730 = 7,300 RCU-hours.
    let text = "prices: aws-us-east-1
tables:
  t:
    item_size: 1 KB
    capacity: { mode: provisioned, wcu: 5, auto_scaling: { target: 70%, min_rcu: 1 } }
    patterns:
      g: { op: get, rate: 7/s, consistency: strong }
      p: { op: put, rate: 1/s }
";
    let e = estimate(text, "aws-us-east-1");
    assert_eq!(quantity(&e, "t/writes"), dec("3650"));
    assert_eq!(quantity(&e, "t/reads"), dec("7300"));
    assert_eq!(cost(&e, "t/writes"), dec("3650") * dec("0.00065"));
}

#[test]
fn zero_capacity_units_are_refused() {
    // AWS's minimum provisioned capacity is 1 unit.
    let text = "prices: aws-us-east-1\ntables:\n  t:\n    item_size: 1 KB\n    capacity: { mode: provisioned, rcu: 0, wcu: 1 }\n";
    let err = try_estimate(text, "aws-us-east-1", Settings::default()).unwrap_err();
    assert!(err.message.contains("at least 1"), "{err}");
    assert_eq!(err.path.as_deref(), Some("tables.t.capacity.rcu"));
}

// §11 --------------------------------------------------------------------------------------

#[test]
fn a_ttl_retention_derives_the_items_stored() {
    // 10 puts a second kept 90 days: 10 × 86,400 × 90 = 77,760,000 items of 1 KB + 100 B =
    // 87,402,240,000 B / 2^30 = 81.39972… GB × $0.25. TTL deletes: as many as inserts,
    // 10 × 2,628,000 = 26.28 M a month.
    let text = "prices: aws-us-east-1
tables:
  sessions:
    item_size: 1 KB
    ttl: 90 days
    patterns:
      put: { op: put, rate: 10/s }
";
    let e = estimate(text, "aws-us-east-1");
    let gb = dec("77760000") * dec("1124") / dec("1073741824");
    assert_eq!(quantity(&e, "sessions/storage"), gb);
    assert_eq!(quantity(&e, "sessions/ttl-deletes"), dec("26.28"));
    let label = &common::line(&e, "sessions/storage").label.to_string();
    assert!(
        label.contains("77760000 items") && label.contains("90 days"),
        "{label}"
    );
}

// §12 --------------------------------------------------------------------------------------

#[test]
fn unknown_replication_transfer_depends_on_usage() {
    // A provisioned global table without write patterns: nobody knows the bytes written.
    let text = "prices: aws-us-east-1
tables:
  t:
    item_size: 1 KB
    items: 1M
    replicas: [us-east-2]
    capacity: { mode: provisioned, rcu: 5, wcu: 5 }
";
    let e = estimate(text, "aws-us-east-1");
    let transfer = common::line(&e, "t/replica/us-east-2/transfer");
    assert!(transfer.quantity.is_none() && transfer.cost.is_none());
    assert!(
        e.excluded
            .contains(&"t/replica/us-east-2/transfer".to_string())
    );
}

// §13 --------------------------------------------------------------------------------------

#[test]
fn exports_sum_to_one_month_of_one_scenario() {
    // The finance CSV of a comparison: summing `cost` over one `scenario` gives its total,
    // and `delta` over a scenario gives its change; no row is a total.
    let out = Case::new()
        .args([
            "compare",
            "workloads/cloudshop.yaml",
            "--format",
            "csv",
            "--period",
            "2026-12",
            // Compared with the 730-hour estimates below (December's own month is 744 h).
            "--month-hours",
            "730",
        ])
        .run()
        .success();
    let doc = compare_json("workloads/cloudshop.yaml", &[]);
    let (header, rows) = common::csv_table(&out.stdout);
    let col = |n: &str| common::column(&header, n);
    assert!(rows.iter().all(|r| &r[col("key")] != "TOTAL"));
    let base_total = dec(doc["baseline"]["total"].as_str().unwrap());
    for s in doc["scenarios"].as_array().unwrap() {
        let name = s["name"].as_str().unwrap();
        let mine = rows.iter().filter(|r| &r[col("scenario")] == name);
        let (mut sum, mut delta) = (Decimal::ZERO, Decimal::ZERO);
        for r in mine {
            if !r[col("cost")].is_empty() {
                sum += dec(&r[col("cost")]);
            }
            if !r[col("delta")].is_empty() {
                delta += dec(&r[col("delta")]);
            }
        }
        assert_eq!(sum, dec(s["total"].as_str().unwrap()), "{name}");
        assert_eq!(delta, sum - base_total, "{name}");
    }
}

// §15 --------------------------------------------------------------------------------------

#[test]
fn a_dash_reads_standard_input_and_writes_standard_output() {
    use std::io::Write;
    use std::process::Stdio;
    let run = |args: &[&str], input: &str| {
        let mut child = common::ddbcost()
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        child.wait_with_output().unwrap()
    };
    let dir = tempfile::tempdir().unwrap();
    let out = run(&["estimate", "-", "--format", "json", "-o", "-"], ONE_TABLE);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("\"total\""));
    assert!(!common::root().join("-").exists(), "no file named `-`");
    // `size -`: one item of "k" (1 B) + "abc" (3 B) = 4 B.
    let out = run(&["size", "-", "--format", "json"], "{\"k\":\"abc\"}\n");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["total_bytes"], "4");
    // `size --per-item --output FILE` writes the file.
    let sample = dir.path().join("items.json");
    std::fs::write(&sample, "{\"k\":\"abc\"}\n").unwrap();
    let file = dir.path().join("rows.csv");
    Case::new()
        .args([
            "size",
            &sample.to_string_lossy(),
            "--per-item",
            "--output",
            &file.to_string_lossy(),
        ])
        .run()
        .success();
    let rows = std::fs::read_to_string(&file).unwrap();
    assert!(rows.starts_with("file,line,bytes,read_units_strong,write_units\n"));
    assert!(rows.contains(",1,4,1,1\n"), "{rows}");
}

#[test]
fn options_a_format_would_ignore_are_usage_errors() {
    for args in [
        &["prices", "--format", "focus"][..],
        &["size", "workloads/samples/order.json", "--format", "html"],
        &[
            "estimate",
            "workloads/cloudshop.yaml",
            "--format",
            "json",
            "--by",
            "pattern",
        ],
        &["estimate", "workloads/cloudshop.yaml", "--excel"],
        &[
            "estimate",
            "workloads/cloudshop.yaml",
            "--period",
            "2026-12",
        ],
        &[
            "size",
            "workloads/samples/order.json",
            "--per-item",
            "--jobs",
            "2",
        ],
    ] {
        Case::new().args(args).run().code(2);
    }
}

// §16 --------------------------------------------------------------------------------------

#[test]
fn size_merge_checks_the_format_version_and_the_counts() {
    let out = Case::new()
        .args(["size", "workloads/samples/order.json", "--format", "json"])
        .run()
        .success();
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p.to_string_lossy().into_owned()
    };
    let other_schema = write(
        "v0.json",
        &out.stdout.replace("ddbcost.size/v1", "ddbcost.size/v0"),
    );
    Case::new()
        .args(["size", "--merge", &other_schema])
        .run()
        .code(1)
        .stderr_has("schema");
    // A count near 2^64 twice: refused, never wrapped.
    let mut doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let size = doc["histogram"][0][0].clone();
    doc["histogram"] = serde_json::json!([[size, u64::MAX]]);
    doc["items"] = serde_json::json!(u64::MAX);
    let huge = write("huge.json", &doc.to_string());
    Case::new()
        .args(["size", "--merge", &huge, &huge])
        .run()
        .code(1)
        .stderr_has("2^64");
    // Counts that disagree with the histogram.
    doc["items"] = serde_json::json!(3);
    let lying = write("lying.json", &doc.to_string());
    Case::new()
        .args(["size", "--merge", &lying])
        .run()
        .code(1)
        .stderr_has("the histogram counts");
}

// §17 --------------------------------------------------------------------------------------

#[test]
fn a_workload_of_a_thousand_tables_loads() {
    // The node budget scales with the input: 1,000 tables of a few patterns each load.
    let mut text = String::from("prices: aws-us-east-1\ntables:\n");
    for i in 0..1000 {
        text.push_str(&format!(
            "  t{i}:\n    item_size: 1 KB\n    items: 1M\n    indexes:\n      g: {{ type: gsi, projection: all }}\n    patterns:\n      get: {{ op: get, rate: 1/s, consistency: eventual }}\n      put: {{ op: put, rate: 1/s }}\n"
        ));
    }
    let e = estimate(&text, "aws-us-east-1");
    assert_eq!(e.table_subtotals().len(), 1000);
}

// §14 --------------------------------------------------------------------------------------

#[test]
fn the_free_tier_label_states_the_price_tables_allowance() {
    // A price table granting 10 GB: the credit line says 10 GB (10 GB × $0.25 = −$2.50).
    let dir = tempfile::tempdir().unwrap();
    let base = std::fs::read_to_string(common::root().join("pricing/aws-us-east-1.yaml")).unwrap();
    let prices = dir.path().join("ten.yaml");
    std::fs::write(&prices, base.replace("storage_gb: 25", "storage_gb: 10")).unwrap();
    let w = dir.path().join("w.yaml");
    std::fs::write(&w, "tables:\n  t:\n    storage: 100 GB\n").unwrap();
    let out = Case::new()
        .args([
            "estimate",
            &w.to_string_lossy(),
            "--prices",
            &prices.to_string_lossy(),
            "--free-tier",
            "--format",
            "json",
        ])
        .run()
        .success();
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let credit = common::json_line(&doc, "account/free-tier/storage");
    assert_eq!(credit["label"], "Free tier: 10 GB storage (Standard)");
    assert_eq!(dec(credit["cost"].as_str().unwrap()), dec("-2.50"));
}

#[test]
fn every_focus_field_is_ascii_whatever_the_names_hold() {
    // Table, pattern and workload names in other scripts: FOCUS text stays ASCII.
    let (_dir, path) = temp_workload(
        "name: Commandes — été\nprices: aws-us-east-1\ntables:\n  commandes-été:\n    item_size: 1 KB\n    patterns:\n      écrire→x: { op: put, rate: 1/s }\n",
    );
    let out = Case::new()
        .args([
            "estimate", &path, "--format", "focus", "--period", "2026-12",
        ])
        .run()
        .success();
    assert!(out.stdout.is_ascii(), "{}", out.stdout);
}

#[test]
fn a_gsi_fixes_one_dimension_and_inherits_the_tables_auto_scaling_for_the_other() {
    // The table scales reads and writes at 50 %; its GSI fixes 3 WCU and inherits auto
    // scaling for reads: GSI writes = 3 × 730 = 2,190 WCU-hours, exactly.
    let text = "prices: aws-us-east-1
tables:
  t:
    item_size: 1 KB
    capacity: { mode: provisioned, auto_scaling: { target: 50% } }
    indexes:
      g: { type: gsi, projection: all, wcu: 3 }
    patterns:
      q: { op: query, index: g, items: 1, rate: 10/s }
      p: { op: put, rate: 1/s }
";
    let e = estimate(text, "aws-us-east-1");
    assert_eq!(quantity(&e, "t/gsi/g/writes"), dec("2190"));
    // Reads scale: 10 queries/s × 0.5 RCU (eventual) = 5 RCU/s at 50 % → 10 RCU × 730 h.
    assert_eq!(quantity(&e, "t/gsi/g/reads"), dec("7300"));
}
