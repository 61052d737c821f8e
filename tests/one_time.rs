//! What a change costs once (issue #51, first part), every figure derived by hand from the
//! rule and the us-east-1 list prices: $0.625 per million write request units, $0.00065 a
//! WCU-hour, $0.15 per GB imported from S3 (pricing/aws-us-east-1.yaml).

mod common;

use common::{Case, dec, write_file};
use serde_json::Value;

/// `orders`: 4,000,000 items of 1.5 KB (2 write units each), on demand unless `capacity`
/// says otherwise; `indexes` and `extra` tables as given.
fn workload(capacity: &str, indexes: &str, extra: &str) -> String {
    format!(
        "prices: aws-us-east-1\ntables:\n  orders:\n    items: 4M\n    item_size: 1.5 KB\n    key_size: 40 B\n{capacity}{indexes}    patterns:\n      put: {{ op: put, rate: 1M/month }}\n{extra}"
    )
}

fn diff_json(before: &str, after: &str) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let b = write_file(dir.path(), "before.yaml", before);
    let a = write_file(dir.path(), "after.yaml", after);
    let out = Case::new()
        .args(["diff", &b, &a, "--format", "json"])
        .run()
        .success();
    serde_json::from_str(&out.stdout).unwrap()
}

fn money(v: &Value) -> rust_decimal::Decimal {
    dec(v.as_str().unwrap_or_else(|| panic!("not a figure: {v}")))
}

const GSI: &str = "    indexes:\n      by-status: { type: gsi, projection: all }\n";

#[test]
fn a_gsi_added_on_demand_is_backfilled_at_its_write_units() {
    let doc = diff_json(&workload("", "", ""), &workload("", GSI, ""));
    let s = &doc["scenarios"][0];
    let once = &s["one_time"][0];
    assert_eq!(once["table"], "orders");
    assert_eq!(once["change"], "GSI backfill");
    // 4,000,000 items, each an entry of 1.5 KB (ALL) = 2 write units: 8,000,000 units ×
    // $0.625 per million = $5.00.
    assert_eq!(money(&once["cost"]), dec("5"));
    assert!(
        once["what"]
            .as_str()
            .unwrap()
            .contains("8,000,000 write units")
    );
    assert_eq!(once["hours"], Value::Null);
    assert_eq!(money(&s["one_time_total"]), dec("5"));
    // The GSI raises the month (its writes and storage): no payback.
    assert_eq!(s["payback_months"], Value::Null);
}

#[test]
fn a_provisioned_gsi_is_backfilled_at_its_write_capacity_in_hours() {
    let before = workload(
        "    capacity: { mode: provisioned, rcu: 100, wcu: 100 }\n",
        "",
        "",
    );
    let after = workload(
        "    capacity: { mode: provisioned, rcu: 100, wcu: 100 }\n",
        "    indexes:\n      by-status: { type: gsi, projection: all, rcu: 10, wcu: 1000 }\n",
        "",
    );
    let once = diff_json(&before, &after)["scenarios"][0]["one_time"][0].clone();
    // 8,000,000 write units at 1,000 WCU (3,600,000 units an hour): 8 ÷ 3.6 = 2.2222… hours,
    // × 1,000 WCU × $0.00065 = $1.4444….
    assert_eq!(money(&once["hours"]).round_dp(6), dec("2.222222"));
    assert_eq!(money(&once["cost"]).round_dp(6), dec("1.444444"));
}

#[test]
fn a_new_table_is_loaded_by_the_cheaper_of_an_import_and_writes() {
    // `archive`: 100 GB stated, items of 1 KB: 100 × 2^30 ÷ (1,024 + 100) bytes =
    // 107,374,182,400 ÷ 1,124 = 95,528,632.03… → 95,528,632 whole items.
    let archive = "  archive:\n    storage: 100 GB\n    item_size: 1 KB\n    patterns:\n      get: { op: get, rate: 1M/month, consistency: eventual }\n";
    let doc = diff_json(&workload("", "", ""), &workload("", "", archive));
    let once = &doc["scenarios"][0]["one_time"][0];
    assert_eq!(once["table"], "archive");
    assert_eq!(once["change"], "first load");
    // An import: 100 GB × $0.15 = $15.00; written instead: 95,528,632 units × $0.625 per
    // million = $59.705395 — the import is the one-time cost, the writes said.
    assert_eq!(money(&once["cost"]), dec("15"));
    let note = once["note"].as_str().unwrap();
    assert!(note.contains("95,528,632 write units, 59.71 USD"), "{note}");
}

#[test]
fn a_projection_change_rebuilds_the_index_and_a_saving_pays_it_back() {
    let all = "    indexes:\n      by-status: { type: gsi, projection: all, key_size: 20 B }\n";
    let keys =
        "    indexes:\n      by-status: { type: gsi, projection: keys-only, key_size: 20 B }\n";
    let doc = diff_json(&workload("", all, ""), &workload("", keys, ""));
    let s = &doc["scenarios"][0];
    let once = &s["one_time"][0];
    // KEYS_ONLY entries of 40 + 20 bytes: 1 write unit each, 4,000,000 × $0.625 per
    // million = $2.50, the index deleted and created again.
    assert_eq!(money(&once["cost"]), dec("2.5"));
    assert!(once["what"].as_str().unwrap().contains("rebuilt"));
    // The month falls (1M puts write a 1-unit entry instead of 2, and the index stores 60-byte
    // entries instead of whole items): the payback is the one-time cost ÷ the monthly saving.
    let delta = money(&s["delta"]);
    assert!(delta < dec("0"));
    assert_eq!(money(&s["payback_months"]), dec("2.5") / -delta);
}

#[test]
fn switches_cost_nothing_and_say_aws_s_limits() {
    let provisioned = workload(
        "    capacity: { mode: provisioned, rcu: 100, wcu: 100 }\n",
        "",
        "",
    );
    let ia = workload("    class: standard-ia\n", "", "");
    let doc = diff_json(&workload("", "", ""), &provisioned);
    let once = &doc["scenarios"][0]["one_time"][0];
    assert_eq!(once["change"], "capacity mode switch");
    assert_eq!(money(&once["cost"]), dec("0"));
    assert!(
        once["note"]
            .as_str()
            .unwrap()
            .contains("4 times in 24 hours")
    );
    let doc = diff_json(&workload("", "", ""), &ia);
    let once = &doc["scenarios"][0]["one_time"][0];
    assert_eq!(once["change"], "table class switch");
    assert!(
        once["note"]
            .as_str()
            .unwrap()
            .contains("two table class changes")
    );
}

#[test]
fn the_pull_request_shows_the_one_time_cost_and_the_gate_bounds_it() {
    let dir = tempfile::tempdir().unwrap();
    // The bundled template pair: `prod-orders` (20,000,000 items of 1 KB, from the usage
    // file) gets GSI `by-customer` projecting ALL: 20,000,000 × 1 write unit × $0.625 per
    // million = $12.50; `prod-sessions` goes provisioned (no charge).
    let args = [
        "diff",
        "workloads/iac/orders.template.yaml",
        "workloads/iac/orders-v2.template.yaml",
        "--usage",
        "workloads/iac/orders.usage.yaml",
        "--region",
        "us-east-1",
        "--format",
        "markdown",
    ];
    let out = Case::new().args(args).run().success();
    let md = &out.stdout;
    assert!(md.contains("| One-time (USD) |"), "{md}");
    assert!(md.contains("### One-time costs"));
    assert!(md.contains("| prod-orders | GSI backfill | GSI `by-customer` backfilled: 20,000,000 items carrying its key × 1 write unit(s) = 20,000,000 write units | 12.50 |"), "{md}");
    assert!(
        md.contains("| prod-sessions | capacity mode switch | on-demand → provisioned | 0.00 |")
    );
    // The month falls by $28.07 (the sessions table's provisioned capacity): $12.50 ÷
    // $28.07… pays back in under half a month.
    assert!(
        md.contains(
            "12.50 USD once, -28.07 USD a month; the saving pays it back in 0.4453 month(s)."
        ),
        "{md}"
    );
    // The gate: $12.50 once is above $10 (exit 3, every gate named), within $20.
    let mut gated: Vec<&str> = args.to_vec();
    gated.extend(["--fail-one-time-above", "10"]);
    Case::new()
        .args(&gated)
        .run()
        .code(3)
        .stderr_has("the change costs 12.50 USD once, above the limit of 10.00 USD");
    let mut within: Vec<&str> = args.to_vec();
    within.extend(["--fail-one-time-above", "20"]);
    Case::new().args(&within).run().success();
    // Items unknown: the backfill cannot be priced, said, and the gate refuses it.
    let before = write_file(
        dir.path(),
        "b.yaml",
        "prices: aws-us-east-1\ntables:\n  t:\n    item_size: 1 KB\n    patterns:\n      put: { op: put, rate: 1M/month }\n",
    );
    let after = write_file(
        dir.path(),
        "a.yaml",
        "prices: aws-us-east-1\ntables:\n  t:\n    item_size: 1 KB\n    indexes:\n      g: { type: gsi, projection: all }\n    patterns:\n      put: { op: put, rate: 1M/month }\n",
    );
    let out = Case::new().args(["diff", &before, &after]).run().success();
    assert!(
        out.stdout
            .contains("the table's items or item size are not stated"),
        "{}",
        out.stdout
    );
    Case::new()
        .args(["diff", &before, &after, "--fail-one-time-above", "100"])
        .run()
        .code(3)
        .stderr_has("what the change costs once cannot be known");
}

#[test]
fn compare_shows_each_scenario_s_one_time_cost() {
    let dir = tempfile::tempdir().unwrap();
    let w = write_file(
        dir.path(),
        "w.yaml",
        &format!(
            "{}scenarios:\n  alternatives:\n    - name: with-gsi\n      patch:\n        tables: {{ orders: {{ indexes: {{ by-status: {{ type: gsi, projection: all }} }} }} }}\n",
            workload("", "", "")
        ),
    );
    let out = Case::new()
        .args(["compare", &w, "--format", "json"])
        .run()
        .success();
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    // As in the first test: $5.00 to backfill the GSI.
    assert_eq!(money(&doc["scenarios"][0]["one_time_total"]), dec("5"));
    Case::new()
        .args(["compare", &w])
        .run()
        .success()
        .stdout_has("One-time costs")
        .stdout_has("with-gsi: 5.00 USD once");
}

#[test]
fn work_stated_once_is_priced_where_the_version_before_did_not_state_it() {
    let gsi = "    indexes:\n      by-status: { type: gsi, projection: all }\n";
    let once = "    once:\n      rewrite: { items: 2M, indexes: [by-status] }\n      restore: 10 GB\n      export: 20 GB\n      import: 4 GB\n      warm_throughput: { reads: 12000, writes: 4000, price: 7.5 }\n";
    let doc = diff_json(
        &workload("", gsi, ""),
        &workload("", &format!("{gsi}{once}"), ""),
    );
    let s = &doc["scenarios"][0];
    let cost = |change: &str| {
        s["one_time"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["change"] == change)
            .map_or_else(|| panic!("no {change}: {s}"), |o| money(&o["cost"]))
    };
    // A rewrite of 2,000,000 items of 1.5 KB: 2 write units for the item and 2 for its
    // `by-status` entry (ALL) = 4 a item, 8,000,000 units × $0.625 per million = $5.00.
    assert_eq!(cost("rewrite"), dec("5"));
    // 10 GB restored × $0.15 = $1.50; 20 GB exported × $0.10 = $2.00; 4 GB imported × $0.15
    // = $0.60; the warm throughput at the $7.50 stated.
    assert_eq!(cost("restore"), dec("1.5"));
    assert_eq!(cost("export"), dec("2"));
    assert_eq!(cost("import"), dec("0.6"));
    assert_eq!(cost("warm throughput"), dec("7.5"));
    // 5 + 1.5 + 2 + 0.6 + 7.5 = $16.60 in all.
    assert_eq!(money(&s["one_time_total"]), dec("16.6"));
    // The same statements on both sides: done before, nothing once.
    let same = workload("", &format!("{gsi}{once}"), "");
    let doc = diff_json(&same, &same);
    assert_eq!(doc["scenarios"][0]["one_time"], serde_json::json!([]));
    // A warm throughput without a price is stated, not priced: the total cannot be known.
    let unpriced = "    once:\n      warm_throughput: { reads: 12000 }\n";
    let doc = diff_json(&workload("", "", ""), &workload("", unpriced, ""));
    let s = &doc["scenarios"][0];
    assert_eq!(s["one_time"][0]["cost"], Value::Null);
    assert_eq!(s["one_time_total"], Value::Null);
    assert!(
        s["one_time"][0]["note"]
            .as_str()
            .unwrap()
            .contains("no public price")
    );
}

#[test]
fn a_rewrite_naming_an_index_the_table_lacks_is_refused_where_it_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let w = write_file(
        dir.path(),
        "w.yaml",
        &workload(
            "",
            "    once:\n      rewrite: { items: 2M, indexes: [by-statu] }\n",
            "",
        ),
    );
    Case::new()
        .args(["estimate", &w])
        .run()
        .code(1)
        .stderr_has("tables.orders.once.rewrite.indexes[0]")
        .stderr_has("`by-statu` is not a GSI of this table");
    let typo = write_file(
        dir.path(),
        "t.yaml",
        &workload("", "    once:\n      restor: 10 GB\n", ""),
    );
    Case::new()
        .args(["estimate", &typo])
        .run()
        .code(1)
        .stderr_has("unknown field `restor`");
}

#[test]
fn a_step_costs_once_what_it_changes_itself() {
    let dir = tempfile::tempdir().unwrap();
    // Step 1 adds the GSI ($5.00 to backfill, as above); step 2 moves the table to
    // Standard-IA, which costs nothing once — and does not backfill the GSI again.
    let w = write_file(
        dir.path(),
        "w.yaml",
        &format!(
            "{}scenarios:\n  steps:\n    - name: add-gsi\n      patch:\n        tables: {{ orders: {{ indexes: {{ by-status: {{ type: gsi, projection: all }} }} }} }}\n    - name: to-ia\n      patch:\n        tables: {{ orders: {{ class: standard-ia }} }}\n",
            workload("", "", "")
        ),
    );
    let out = Case::new()
        .args(["compare", &w, "--format", "json"])
        .run()
        .success();
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(money(&doc["scenarios"][0]["one_time_total"]), dec("5"));
    let second = &doc["scenarios"][1];
    assert_eq!(money(&second["one_time_total"]), dec("0"));
    assert_eq!(second["one_time"].as_array().unwrap().len(), 1);
    assert_eq!(second["one_time"][0]["change"], "table class switch");
}

mod checked_afterwards {
    //! `reconcile --before` (issue #51, part 3): the change's predicted one-time work set
    //! against the bill of the month it ran in, and the backfill CloudWatch measured. The
    //! month: November 2026, 720 hours.

    use super::common::{Case, dec, write_file};
    use super::money;
    use serde_json::Value;

    /// `orders`: 4,000,000 items of 1.5 KB (2 write units each), a put a second; `extra`
    /// before its patterns.
    fn orders(extra: &str) -> String {
        format!(
            "prices: aws-us-east-1\ntables:\n  orders:\n    items: 4M\n    item_size: 1.5 KB\n    key_size: 40 B\n{extra}    patterns:\n      put: {{ op: put, rate: 1/s }}\n"
        )
    }

    const CUR: &str = "line_item_line_item_type,line_item_usage_start_date,line_item_product_code,line_item_usage_type,line_item_resource_id,line_item_usage_amount,line_item_currency_code,line_item_unblended_cost\n";

    fn bill(write_units: &str, cost: &str) -> String {
        format!(
            "{CUR}Usage,2026-11-10T00:00:00Z,AmazonDynamoDB,WriteRequestUnits,arn:aws:dynamodb:us-east-1:1:table/orders,{write_units},USD,{cost}\n"
        )
    }

    #[test]
    fn a_backfill_is_set_against_the_bill_and_what_cloudwatch_measured() {
        let dir = tempfile::tempdir().unwrap();
        let before = write_file(dir.path(), "before.yaml", &orders(""));
        let after = write_file(dir.path(), "after.yaml", &orders(super::GSI));
        // The month after the change: 2,592,000 puts (1 a second × 720 h × 3,600 s) × (2
        // write units for the item + 2 for its GSI entry) = 10,368,000 estimated; billed
        // 18,568,000 (× $0.625 per million = $11.605).
        let cur = write_file(dir.path(), "cur.csv", &bill("18568000", "11.605"));
        // The backfill as measured: 7,900,000 + 100,000 write units in November; a point of
        // December is outside the period.
        let cw = write_file(
            dir.path(),
            "cw.csv",
            "timestamp,table,index,metric,statistic,value\n2026-11-10T00:00:00Z,orders,by-status,OnlineIndexConsumedWriteCapacity,Sum,7900000\n2026-11-11T00:00:00Z,orders,by-status,OnlineIndexConsumedWriteCapacity,Sum,100000\n2026-12-01T00:00:00Z,orders,by-status,OnlineIndexConsumedWriteCapacity,Sum,5\n",
        );
        let out = Case::new()
            .args([
                "reconcile",
                &after,
                "--bill",
                &cur,
                "--before",
                &before,
                "--metrics",
                &cw,
                "--format",
                "json",
            ])
            .run()
            .success();
        let doc: Value = serde_json::from_str(&out.stdout).unwrap();
        let once = &doc["one_time"][0];
        assert_eq!(once["table"], "orders");
        assert_eq!(once["component"], "writes");
        assert_eq!(once["items"][0]["change"], "GSI backfill");
        // Predicted: 4,000,000 items × 2 write units = 8,000,000, × $0.625 per million = $5.
        assert_eq!(money(&once["predicted"]), dec("8000000"));
        assert_eq!(money(&once["predicted_cost"]), dec("5"));
        // Billed beyond the estimate: 18,568,000 − 10,368,000 = 8,200,000 units; $11.605 −
        // 10,368,000 × $0.625 per million ($6.48) = $5.125.
        let beyond = &once["billed_beyond_estimate"];
        assert_eq!(money(&beyond["quantity"]), dec("8200000"));
        assert_eq!(money(&beyond["unblended"]), dec("5.125"));
        assert_eq!(money(&once["measured_backfill_units"]), dec("8000000"));
        assert!(
            once["text"]
                .as_str()
                .unwrap()
                .contains("exceed the prediction by 200,000 write units")
        );
        // The table view states it under the reconciliation, with its rule.
        Case::new()
            .args(["reconcile", &after, "--bill", &cur, "--before", &before])
            .run()
            .success()
            .stdout_has("One-time work")
            .stdout_has("8,200,000 write units")
            .stdout_has("a change made during it leaves the difference");
        // A bill short of the backfill says so.
        let short = write_file(dir.path(), "short.csv", &bill("14368000", "8.98"));
        let out = Case::new()
            .args([
                "reconcile",
                &after,
                "--bill",
                &short,
                "--before",
                &before,
                "--format",
                "markdown",
            ])
            .run()
            .success();
        // 14,368,000 − 10,368,000 = 4,000,000 billed beyond, 4,000,000 short of 8,000,000.
        assert!(
            out.stdout
                .contains("fall short of the prediction by 4,000,000 write units"),
            "{}",
            out.stdout
        );
        assert!(out.stdout.contains("### One-time work"));
    }

    #[test]
    fn work_stated_under_once_is_checked_without_a_before() {
        let dir = tempfile::tempdir().unwrap();
        // A TTL backfill: 1,000,000 items rewritten, 2 write units each = 2,000,000 units,
        // $1.25. The month: 2,592,000 puts × 2 = 5,184,000 estimated; billed 7,184,000.
        let after = write_file(
            dir.path(),
            "after.yaml",
            &orders("    once:\n      rewrite: { items: 1M }\n"),
        );
        let cur = write_file(dir.path(), "cur.csv", &bill("7184000", "4.49"));
        let out = Case::new()
            .args(["reconcile", &after, "--bill", &cur, "--format", "json"])
            .run()
            .success();
        let doc: Value = serde_json::from_str(&out.stdout).unwrap();
        let once = &doc["one_time"][0];
        assert_eq!(once["items"][0]["change"], "rewrite");
        assert_eq!(money(&once["predicted"]), dec("2000000"));
        assert_eq!(money(&once["predicted_cost"]), dec("1.25"));
        // 7,184,000 − 5,184,000 = 2,000,000: exactly the rewrite.
        assert_eq!(
            money(&once["billed_beyond_estimate"]["quantity"]),
            dec("2000000")
        );
        assert_eq!(once["measured_backfill_units"], Value::Null);
        // Without one-time work, the document has none, and `--metrics` has nothing to
        // measure.
        let plain = write_file(dir.path(), "plain.yaml", &orders(""));
        let out = Case::new()
            .args(["reconcile", &plain, "--bill", &cur, "--format", "json"])
            .run()
            .success();
        let doc: Value = serde_json::from_str(&out.stdout).unwrap();
        assert_eq!(doc.get("one_time"), None);
        let cw = write_file(
            dir.path(),
            "cw.csv",
            "timestamp,table,index,metric,statistic,value\n",
        );
        Case::new()
            .args(["reconcile", &plain, "--bill", &cur, "--metrics", &cw])
            .run()
            .code(2)
            .stderr_has("give the workload before it (`--before`)");
        // The CSV and the page carry the rows only: refused with the one-time work.
        Case::new()
            .args(["reconcile", &after, "--bill", &cur, "--format", "csv"])
            .run()
            .code(2)
            .stderr_has("in a table, JSON or Markdown");
    }
}
