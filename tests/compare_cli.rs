//! `ddbcost compare` and `ddbcost diff` end to end: scenarios, `--set`, the JSON contract,
//! budget gates, and their bad inputs. Figures are derived in comments from the rules.

mod common;

use common::{Case, dec, temp_workload};
use ddbcost::api::exports::CompareDoc;
use rust_decimal::Decimal;

fn compare_json(args: &[&str]) -> CompareDoc {
    let out = Case::new()
        .args(["compare"])
        .args(args)
        .args(["--format", "json"])
        .run()
        .success();
    serde_json::from_str(&out.stdout).expect("compare JSON parses")
}

fn component(doc: &CompareDoc, scenario: &str, component: &str) -> Decimal {
    let s = doc.scenarios.iter().find(|s| s.name == scenario).unwrap();
    s.line_items
        .iter()
        .filter(|l| l.component == component)
        .filter_map(|l| l.cost)
        .sum()
}

#[test]
fn cloudshop_tells_the_story_step_by_step() {
    let doc = compare_json(&["workloads/cloudshop.yaml"]);
    assert_eq!(doc.baseline.total, dec("1243.54"));
    let names: Vec<&str> = doc.scenarios.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        ["sparse-gsi-1", "eventual-reads", "provisioned-auto-scaling"]
    );

    // Step 1: gsi-1 only holds orders pending shipment: 6.3 M adds + 6.3 M removes, plus
    // gsi-2's 6.3 M puts = 18.9 M index writes × €5.00 = €94.50 (was 82 M, €410).
    assert_eq!(component(&doc, "sparse-gsi-1", "index-writes"), dec("94.5"));
    // Total: 1,243.54 − (410 − 94.50) = €928.04.
    assert_eq!(doc.scenarios[0].total, dec("928.04"));
    assert_eq!(doc.scenarios[0].step_delta, Some(dec("-315.5")));

    // Step 2: the table's 972,068,315 strong read units become 92 % eventual:
    // × (1 − 0.92 / 2) = × 0.54 → 524,916,890.1 units × €0.50 per million = €262.4584…;
    // the GSIs' 7,931,685 eventual units stay (€3.9658…). Reads: €266.4243….
    let reads = component(&doc, "eventual-reads", "reads");
    assert_eq!(reads, dec("262.45844505") + dec("3.9658425"));
    // The case's own arithmetic on all 980 M: 490 × 0.54 = €264.60; ours is €1.82 higher
    // because 7.9 M of the 980 M were GSI reads, eventual already.
    assert_eq!((reads - dec("264.6")).round_dp(2), dec("1.82"));

    // Step 3: provisioned with auto scaling; reads about the case's €171.
    let reads = component(&doc, "provisioned-auto-scaling", "reads");
    assert!(reads > dec("160") && reads < dec("175"), "{reads}");
    assert!(
        doc.notes.iter().any(|n| n.contains("28.9 %")),
        "{:?}",
        doc.notes
    );

    // The waterfall runs from the baseline to the last step through each step's delta.
    let w = doc.waterfall.expect("steps make a waterfall");
    assert_eq!(w.start, dec("1243.54"));
    let through: Decimal = w.start + w.steps.iter().map(|s| s.delta).sum::<Decimal>();
    assert_eq!(through, w.end);
    assert_eq!(w.end, doc.scenarios[2].total);
}

#[test]
fn cloudshop_step_3_sizes_reads_hour_by_hour() {
    // Recompute the table's RCU independently: table reads after step 2 are
    // 524,916,890.1 units a month (gsi reads have their own capacity), an average of
    // 524,916,890.1 / (730 × 3,600) units/s, shaped by the 24 hourly multipliers (normalized
    // to a mean of 1); each hour provisions ceil(demand / 0.5), at least 250.
    let multipliers = [
        "0.35", "0.25", "0.2", "0.2", "0.25", "0.4", "0.6", "0.8", "1.0", "1.1", "1.2", "1.3",
        "1.4", "1.3", "1.2", "1.2", "1.3", "1.5", "1.7", "1.9", "1.9", "1.6", "1.1", "0.6",
    ];
    let m: Vec<Decimal> = multipliers.iter().map(|s| dec(s)).collect();
    let mean = m.iter().sum::<Decimal>() / Decimal::from(24);
    let average = dec("524916890.1") / dec("2628000");
    let units: Decimal = m
        .iter()
        .map(|x| (average * (*x / mean) / dec("0.5")).ceil().max(dec("250")))
        .sum();
    // unit-hours = Σ units × 730 / 24; × €0.00052 per RCU-hour (assumed price).
    let expected = units * dec("730") / dec("24") * dec("0.00052");
    let doc = compare_json(&[
        "workloads/cloudshop.yaml",
        "--scenario",
        "provisioned-auto-scaling",
    ]);
    let line = doc.scenarios[0]
        .line_items
        .iter()
        .find(|l| l.key == "orders/reads")
        .unwrap();
    assert_eq!(line.cost.unwrap().round_dp(10), expected.round_dp(10));
}

#[test]
fn the_compare_json_contract() {
    let out = Case::new()
        .args(["compare", "workloads/cloudshop.yaml", "--format", "json"])
        .run()
        .success();
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert!(v["baseline"]["total"].is_string());
    assert!(v["baseline"]["line_items"][0]["key"].is_string());
    let s = &v["scenarios"][0];
    for field in ["name", "total", "delta"] {
        assert!(s[field].is_string(), "{field}");
    }
    assert!(s["line_items"][0]["cost"].is_string());
}

#[test]
fn lines_are_joined_on_keys_not_labels() {
    // Provisioned capacity uses the same keys as the on-demand lines it replaces.
    let doc = compare_json(&["workloads/cloudshop.yaml"]);
    let reads = doc.rows.iter().find(|r| r.key == "orders/reads").unwrap();
    assert!(reads.baseline.is_some() && reads.scenarios.iter().all(Option::is_some));
    let keys: std::collections::HashSet<&str> = doc.rows.iter().map(|r| r.key.as_str()).collect();
    assert_eq!(keys.len(), doc.rows.len(), "one row per key");
}

#[test]
fn saas_alternatives_price_seed_000s_choices() {
    let doc = compare_json(&["workloads/saas-dashboard.yaml"]);
    // Multi-table: 8.5 units per render instead of 7.5; 608,333.3… renders a month
    // (20,000 × 730 / 24) × 1 more unit × $0.125 per million = $0.0760416…
    let base = doc
        .baseline
        .line_items
        .iter()
        .find(|l| l.key == "app-main/reads")
        .unwrap()
        .cost
        .unwrap();
    let multi = doc.scenarios[0]
        .line_items
        .iter()
        .find(|l| l.key == "app-main/reads")
        .unwrap()
        .cost
        .unwrap();
    assert_eq!((multi - base).round_dp(7), dec("0.0760417"));
    assert!(doc.scenarios[0].delta > Decimal::ZERO);
    assert!(doc.scenarios[1].delta < Decimal::ZERO);
}

#[test]
fn set_makes_a_quick_alternative() {
    // Standard-IA storage is $0.10 instead of $0.25; its requests cost more.
    let doc = compare_json(&[
        "workloads/marketplace-us-east-1.yaml",
        "--set",
        "tables.listings.class=standard-ia",
    ]);
    assert_eq!(doc.scenarios.len(), 1);
    assert_eq!(doc.scenarios[0].name, "--set");
    let storage = doc.scenarios[0]
        .line_items
        .iter()
        .find(|l| l.key == "listings/storage")
        .unwrap();
    assert_eq!(storage.unit_price, Some(dec("0.1")));
    // --set also works on estimate.
    Case::new()
        .args([
            "estimate",
            "workloads/cloudshop.yaml",
            "--set",
            "tables.orders.pitr=false",
        ])
        .run()
        .success()
        .stdout_has("€ 1,175.54"); // 1,243.54 − €68 of PITR
}

#[test]
fn an_empty_patch_equals_the_baseline() {
    let (_dir, path) = temp_workload(
        "prices: aws-us-east-1\ntables:\n  t:\n    item_size: 1 KB\n    patterns:\n      p: { op: put, rate: 1/s }\nscenarios:\n  alternatives:\n    - name: nothing\n      patch: {}\n",
    );
    let doc = compare_json(&[&path]);
    assert_eq!(doc.scenarios[0].total, doc.baseline.total);
    assert_eq!(doc.scenarios[0].delta, Decimal::ZERO);
}

#[test]
fn a_patch_naming_what_does_not_exist_is_refused() {
    let (_dir, path) = temp_workload(
        "prices: aws-us-east-1\ntables:\n  orders:\n    item_size: 1 KB\n    patterns:\n      get-order: { op: get, rate: 1/s, consistency: strong }\nscenarios:\n  steps:\n    - name: eventual\n      patch: { tables: { orders: { patterns: { get-ordr: { consistency: eventual } } } } }\n",
    );
    Case::new()
        .args(["compare", &path])
        .run()
        .code(1)
        .stderr_has("changes pattern `get-ordr`, which does not exist")
        .stderr_has("scenarios.steps[0].patch.tables.orders.patterns.get-ordr")
        .stderr_has("Consider `get-order`");
    let (_dir, path) = temp_workload(
        "prices: aws-us-east-1\ntables:\n  orders:\n    item_size: 1 KB\nscenarios:\n  alternatives:\n    - name: ia\n      patch: { tables: { order: { class: standard-ia } } }\n",
    );
    Case::new()
        .args(["compare", &path])
        .run()
        .code(1)
        .stderr_has("table `order`")
        .stderr_has("Consider `orders`");
}

#[test]
fn bad_set_arguments_are_usage_errors() {
    Case::new()
        .args([
            "compare",
            "workloads/cloudshop.yaml",
            "--set",
            "tables.ordrs.class=standard-ia",
        ])
        .run()
        .code(2)
        .stderr_has("table `ordrs`")
        .stderr_has("Consider `orders`");
    Case::new()
        .args([
            "compare",
            "workloads/cloudshop.yaml",
            "--set",
            "tables.orders.class",
        ])
        .run()
        .code(2)
        .stderr_has("expected PATH=VALUE");
    // A value the workload refuses: the merged document names the scenario.
    Case::new()
        .args([
            "compare",
            "workloads/cloudshop.yaml",
            "--set",
            "tables.orders.class=standard-iaa",
        ])
        .run()
        .code(1)
        .stderr_has("scenario `--set`")
        .stderr_has("unknown variant `standard-iaa`");
    Case::new()
        .args([
            "compare",
            "workloads/cloudshop.yaml",
            "--scenario",
            "sparse-gsi",
        ])
        .run()
        .code(2)
        .stderr_has("Consider `sparse-gsi-1`");
}

#[test]
fn a_workload_without_scenarios_cannot_be_compared_without_set() {
    Case::new()
        .args(["compare", "workloads/marketplace-us-east-1.yaml"])
        .run()
        .code(2)
        .stderr_has("has no scenarios");
}

#[test]
fn target_utilization_outside_20_to_90_percent_is_refused() {
    let (_dir, path) = temp_workload(
        "tables:\n  t:\n    capacity: { mode: provisioned, auto_scaling: { target: 95% } }\n",
    );
    Case::new()
        .args(["estimate", &path, "--prices", "aws-us-east-1"])
        .run()
        .code(1)
        .stderr_has("outside 20–90 %")
        .stderr_has("tables.t.capacity.auto_scaling.target");
}

#[test]
fn reserved_capacity_is_priced_and_refused_where_not_offered() {
    // 200 RCU fixed, 100 reserved for 1 year (us-east-1: $30 upfront + $0.0025/h per 100):
    // upfront 30 / 12 = $2.50 a month; hourly 1 × 730 × 0.0025 = $1.825; the other 100 RCU at
    // $0.00013 × 730 = $9.49. WCU: 10 × 730 × 0.00065 = $4.745. Total $18.56.
    let (_dir, path) = temp_workload(
        "tables:\n  t:\n    capacity: { mode: provisioned, rcu: 200, wcu: 10, reserved: { rcu: 100, term: 1y } }\n",
    );
    let out = Case::new()
        .args([
            "estimate",
            &path,
            "--prices",
            "aws-us-east-1",
            "--format",
            "json",
        ])
        .run()
        .success();
    let doc: ddbcost::api::exports::EstimateDoc = serde_json::from_str(&out.stdout).unwrap();
    let cost = |k: &str| {
        doc.line_items
            .iter()
            .find(|l| l.key == k)
            .unwrap()
            .cost
            .unwrap()
    };
    assert_eq!(cost("t/reserved/rcu/upfront"), dec("2.5"));
    assert_eq!(cost("t/reserved/rcu/hourly"), dec("1.825"));
    assert_eq!(cost("t/reads"), dec("9.49"));
    assert_eq!(doc.total, dec("18.56"));
    for (yaml, message) in [
        (
            "tables:\n  t:\n    class: standard-ia\n    capacity: { mode: provisioned, rcu: 200, wcu: 10, reserved: { rcu: 100, term: 1y } }\n",
            "not offered for Standard-IA",
        ),
        (
            "tables:\n  t:\n    capacity: { mode: on-demand, reserved: { rcu: 100, term: 1y } }\n",
            "not offered for on-demand",
        ),
        (
            "tables:\n  t:\n    capacity: { mode: provisioned, rcu: 200, wcu: 10, reserved: { rcu: 150, term: 3y } }\n",
            "blocks of 100",
        ),
    ] {
        let (_dir, path) = temp_workload(yaml);
        Case::new()
            .args(["estimate", &path, "--prices", "aws-us-east-1"])
            .run()
            .code(1)
            .stderr_has(message);
    }
}

#[test]
fn a_traffic_profile_must_have_24_hours() {
    let (_dir, path) = temp_workload("tables:\n  t:\n    traffic: { hourly: [1, 2, 3] }\n");
    Case::new()
        .args(["estimate", &path, "--prices", "aws-us-east-1"])
        .run()
        .code(1)
        .stderr_has("3 hourly multipliers; a day has 24");
}

#[test]
fn diff_prints_markdown_and_gates_budgets() {
    let (_a, old) = temp_workload(
        "prices: aws-us-east-1\ntables:\n  t:\n    item_size: 1 KB\n    patterns:\n      p: { op: put, rate: 1/s }\n",
    );
    let (_b, new) = temp_workload(
        "prices: aws-us-east-1\ntables:\n  t:\n    item_size: 1 KB\n    patterns:\n      p: { op: put, rate: 2/s }\n",
    );
    // 1/s → 2.628 M WRU × $0.625 = $1.6425; 2/s → $3.285: +$1.6425, +100 %.
    Case::new()
        .args(["diff", &old, &new, "--format", "markdown"])
        .run()
        .success()
        .stdout_has("| baseline |  | 1.64 |")
        .stdout_has("+1.64")
        .stdout_has("+100 %")
        .stdout_has("### Line items that change");
    Case::new()
        .args(["diff", &old, &new, "--fail-above", "3"])
        .run()
        .code(3)
        .stderr_has("above the limit of 3.00 USD");
    Case::new()
        .args(["diff", &old, &new, "--fail-above", "4"])
        .run()
        .success();
    Case::new()
        .args(["diff", &old, &new, "--fail-increase", "50%"])
        .run()
        .code(3)
        .stderr_has("rises 100 %");
    Case::new()
        .args(["diff", &old, &new, "--fail-increase", "150"])
        .run()
        .success();
    // The report is printed even when the gate fails.
    Case::new()
        .args(["diff", &old, &new, "--fail-above", "1"])
        .run()
        .code(3)
        .stdout_has("TOTAL");
}

#[test]
fn diff_refuses_two_currencies() {
    Case::new()
        .args([
            "diff",
            "workloads/cloudshop.yaml",
            "workloads/saas-dashboard.yaml",
        ])
        .run()
        .code(1)
        .stderr_has("is priced in EUR")
        .stderr_has("in USD");
}

#[test]
fn markdown_escapes_pipes() {
    let (_dir, path) =
        temp_workload("name: a|b\nprices: aws-us-east-1\ntables:\n  t:\n    storage: 1 GB\n");
    Case::new()
        .args(["estimate", &path, "--format", "markdown"])
        .run()
        .success()
        .stdout_has("a\\|b");
}

#[test]
fn a_switch_to_on_demand_is_one_line_of_patch() {
    // A provisioned table with auto scaling (and an index with its own units). The patch
    // `capacity: { mode: on-demand }` alone drops the provisioned settings it leaves, in the
    // scenario and in `--set`: 3 M writes of 1 KB at $0.625 per million = $1.875, the GSI's
    // writes (its entry 1 KB: 3 M WRU) another $1.875: $3.75.
    let (_dir, path) = temp_workload(
        "prices: aws-us-east-1
tables:
  t:
    item_size: 1 KB
    capacity:
      mode: provisioned
      auto_scaling: { min_rcu: 5, max_rcu: 100, min_wcu: 5, max_wcu: 100, target: 70% }
    indexes:
      g: { type: gsi, projection: all, key_size: 20 B, rcu: 5, wcu: 5 }
    patterns:
      put: { op: put, rate: 3M/month }
scenarios:
  alternatives:
    - name: on-demand
      patch: { tables: { t: { capacity: { mode: on-demand } } } }
",
    );
    let doc = compare_json(&[&path]);
    assert_eq!(doc.scenarios[0].total, dec("3.75"));
    let out = Case::new()
        .args([
            "estimate",
            &path,
            "--set",
            "tables.t.capacity.mode=on-demand",
            "--format",
            "json",
        ])
        .run()
        .success();
    let est: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(est["total"], "3.75");
    // Back again, stating the units: the on-demand settings the patch leaves are dropped.
    let (_dir, path) = temp_workload(
        "prices: aws-us-east-1
tables:
  t:
    item_size: 1 KB
    capacity: { mode: on-demand, max_write_units: 100 }
    patterns:
      put: { op: put, rate: 3M/month }
scenarios:
  alternatives:
    - name: provisioned
      patch: { tables: { t: { capacity: { mode: provisioned, rcu: 1, wcu: 2 } } } }
",
    );
    // 730 h × (1 × $0.00013 + 2 × $0.00065) = 0.0949 + 0.949 = $1.0439.
    let doc = compare_json(&[&path]);
    assert_eq!(doc.scenarios[0].total, dec("1.0439"));
}

#[test]
fn a_projection_that_hides_what_a_query_reads_is_refused_with_the_reason() {
    // The panel's query reads `status` (the index key) and `total`. Projecting KEYS_ONLY would
    // show a saving while the application fetched `total` from the table by reads no line
    // prices: the scenario is refused, naming the attribute; INCLUDE total is accepted.
    let base = "prices: aws-us-east-1
tables:
  t:
    item_size: 2 KB
    key_size: 20 B
    key: { partition: pk }
    indexes:
      by-status: { type: gsi, projection: all, key_size: 10 B, key: { partition: status } }
    patterns:
      create: { op: put, rate: 10/s }
      panel: { op: query, index: by-status, rate: 1/s, items: 10, reads_attributes: [status, total] }
scenarios:
  alternatives:
";
    let (_dir, path) = temp_workload(&format!(
        "{base}    - name: keys-only\n      patch: {{ tables: {{ t: {{ indexes: {{ by-status: {{ projection: keys-only }} }} }} }} }}\n"
    ));
    Case::new()
        .args(["compare", &path])
        .run()
        .code(1)
        .stderr_has("scenario `keys-only`")
        .stderr_has(
            "pattern `panel` reads `total`, which index `by-status` does not project (KEYS_ONLY)",
        )
        .stderr_has("`include: [total]`");
    let (_dir, path) = temp_workload(&format!(
        "{base}    - name: include\n      patch: {{ tables: {{ t: {{ indexes: {{ by-status: {{ projection: include, include: [total], projected_size: 8 B }} }} }} }} }}\n"
    ));
    // As tests/advise.rs derives it: INCLUDE total saves $16.425 of index writes and $0.657
    // of panel reads, $17.082.
    let doc = compare_json(&[&path]);
    assert_eq!(doc.scenarios[0].delta, dec("-17.082"));
}

#[test]
fn each_cell_is_read_beside_its_own_label() {
    // A provisioned table of 20 WCU, an alternative at 40 and one on demand: the baseline's
    // label `(20 × 730 h)` must not stand beside the cost of 40 WCU or of request units.
    let (_dir, path) = temp_workload(
        "name: t\nprices: aws-us-east-1\ntables:\n  t:\n    capacity: { mode: provisioned, rcu: 10, wcu: 20 }\n    item_size: 1KB\n    patterns:\n      put: { op: put, rate: 1/s }\n",
    );
    let args = [
        path.as_str(),
        "--alt",
        "double",
        "--set",
        "tables.t.capacity.wcu=40",
        "--alt",
        "od",
        "--set",
        "tables.t.capacity={mode: on-demand}",
    ];
    let doc = compare_json(&args);
    let writes = doc.rows.iter().find(|r| r.key == "t/writes").unwrap();
    assert_eq!(writes.label, "Provisioned WCU, table `t` (20 × 730 h)");
    assert_eq!(
        writes.labels,
        [
            Some("Provisioned WCU, table `t` (40 × 730 h)".to_string()),
            Some("Write request units".to_string())
        ]
    );
    // 20 WCU × 730 h × $0.00065 = $9.49; 40 WCU: $18.98; on demand, 1 write/s of 1 KB ×
    // 2,628,000 s a month = 2.628 M WRU × $0.625 per million = $1.6425.
    assert_eq!(writes.baseline, Some(dec("9.49")));
    assert_eq!(writes.scenarios, [Some(dec("18.98")), Some(dec("1.6425"))]);

    let out = Case::new().args(["compare"]).args(args).run().success();
    let cell_lines: Vec<&str> = out
        .stdout
        .lines()
        .skip_while(|l| !l.contains("(20 × 730 h)"))
        .take(3)
        .collect();
    assert!(
        cell_lines[1].contains("double: Provisioned WCU, table `t` (40 × 730 h)"),
        "{}",
        out.stdout
    );
    assert!(
        cell_lines[2].contains("od: Write request units"),
        "{}",
        out.stdout
    );

    let md = Case::new()
        .args(["compare"])
        .args(args)
        .args(["--format", "markdown"])
        .run()
        .success();
    assert!(
        md.stdout.contains("(20 × 730 h) — double: Provisioned WCU, table `t` (40 × 730 h) — od: Write request units |"),
        "{}",
        md.stdout
    );
}

/// One refused alternative does not hide the others: they are printed, the refused one is
/// named in the notes and its error said on standard error, and the run exits 1.
#[test]
fn a_refused_alternative_leaves_the_others_shown() {
    let out = common::Case::new()
        .args([
            "compare",
            "workloads/cloudshop.yaml",
            // CloudShop's price table has no Standard-IA prices: refused.
            "--alt",
            "ia",
            "--set",
            "tables.orders.class=standard-ia",
            "--alt",
            "busier",
            "--set",
            "tables.orders.patterns.create-order.rate=5/s",
            "--format",
            "json",
        ])
        .run()
        .code(1)
        .stderr_has("price `standard_ia.read_per_million` is not in price table `cloudshop-eur`")
        .stderr_has("1 alternative(s) refused (`ia`), each said above; the others are shown");
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let names: Vec<&str> = doc["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"busier"), "{names:?}");
    assert!(!names.contains(&"ia"), "{names:?}");
    assert!(doc["notes"].as_array().unwrap().iter().any(|n| {
        n.as_str()
            .unwrap()
            .starts_with("alternative `ia` is not shown: refused")
    }));
    // Every alternative refused: the first's error alone, nothing printed.
    common::Case::new()
        .args([
            "compare",
            "workloads/cloudshop.yaml",
            "--scenario",
            "ia",
            "--alt",
            "ia",
            "--set",
            "tables.orders.class=standard-ia",
        ])
        .run()
        .code(1)
        .stderr_has("standard_ia.read_per_million");
}
