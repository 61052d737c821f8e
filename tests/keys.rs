//! Key spread and partitions in workloads (issue #13, parts 2 and 3): `keys:` on a table, an
//! index or a pattern states what a spread check measured, and `estimate` warns with the
//! numbers; every estimate states the minimum partitions of each table. A partition serves
//! 3,000 RCU/s and 1,000 WCU/s and holds about 10 GB (DESIGN.md).

mod common;

use common::{Case, temp_workload};

fn json(yaml: &str, args: &[&str]) -> serde_json::Value {
    let (_dir, path) = temp_workload(yaml);
    let mut all = vec!["estimate", path.as_str(), "--format", "json"];
    all.extend_from_slice(args);
    serde_json::from_str(&Case::new().args(all).run().success().stdout).unwrap()
}

fn warnings(doc: &serde_json::Value) -> String {
    doc["warnings"].to_string()
}

/// One on-demand table writing 1 KB items at 2,000 a second, flat: 2,000 WCU/s all day.
const WRITES: &str = "prices: aws-us-east-1
tables:
  events:
    item_size: 1 KB
    storage: 25 GB
    keys: { distinct: 500, busiest_write_share: 60% }
    patterns:
      put: { op: put, rate: 2000/s }
";

#[test]
fn partitions_by_size_and_by_throughput() {
    let doc = json(WRITES, &[]);
    let p = &doc["partitions"][0];
    assert_eq!(p["table"], "events");
    // 25 GB ÷ 10 GB = 2.5 → 3 partitions by size.
    assert_eq!(p["by_size"], "3");
    // 0 RCU/s ÷ 3,000 + 2,000 WCU/s ÷ 1,000 = 2 by throughput.
    assert_eq!(p["peak_wcu"], "2000");
    assert_eq!(p["by_throughput"], "2");
    assert_eq!(p["minimum"], "3");
}

#[test]
fn a_hot_key_says_how_many_suffixes_it_needs() {
    // 60 % of 2,000 WCU/s = 1,200 WCU/s on one value, above a partition's 1,000:
    // ⌈1,200 ÷ 1,000⌉ = 2 suffixes, and each read of that value becomes 2 queries.
    let w = warnings(&json(WRITES, &[]));
    assert!(
        w.contains("the partition key of table `events` is hot"),
        "{w}"
    );
    assert!(
        w.contains("60% of 2000 WCU/s at the peak hour = 1200 WCU/s"),
        "{w}"
    );
    assert!(w.contains("at least 2 suffixes (value#0 … value#1)"), "{w}");
    assert!(w.contains("then takes 2 queries"), "{w}");
}

#[test]
fn fewer_values_than_partitions_the_peak_needs() {
    // A date key: 1 value a day, 2,000 WCU/s need ⌈2,000 ÷ 1,000⌉ = 2 partitions.
    let yaml = WRITES.replace(
        "keys: { distinct: 500, busiest_write_share: 60% }",
        "keys: { distinct: 1 }",
    );
    let w = warnings(&json(&yaml, &[]));
    assert!(
        w.contains("has 1 distinct values, fewer than the 2 partitions"),
        "{w}"
    );
}

#[test]
fn a_concentrated_key_is_at_risk_with_its_headroom() {
    // 30 % of 200 WCU/s = 60 WCU/s: not hot, but one value takes ≥ 25 %: it reaches 1,000
    // at 1,000 ÷ 60 = 16.7× today's peak.
    let yaml = WRITES
        .replace("rate: 2000/s", "rate: 200/s")
        .replace("busiest_write_share: 60%", "busiest_write_share: 30%");
    let w = warnings(&json(&yaml, &[]));
    assert!(w.contains("is at risk: one value takes 30% of its writes (60 WCU/s at the peak hour) among 500 values"), "{w}");
    assert!(w.contains("at 16.7× today's peak"), "{w}");
    // Well spread (1 % of 200 WCU/s = 2 WCU/s): no warning about the key.
    let yaml = yaml.replace("busiest_write_share: 30%", "busiest_write_share: 1%");
    assert!(!warnings(&json(&yaml, &[])).contains("partition key"));
}

#[test]
fn a_pattern_key_uses_the_patterns_own_peak() {
    // Reads of 1 KB items, eventual: 0.5 unit each at 8,000/s = 4,000 RCU/s, flat; a pattern
    // whose busiest value takes 80 % puts 3,200 RCU/s on one partition (> 3,000): hot.
    let yaml = "prices: aws-us-east-1
tables:
  t:
    item_size: 1 KB
    patterns:
      get: { op: get, rate: 8000/s, consistency: eventual, keys: { busiest_read_share: 80% } }
";
    let w = warnings(&json(yaml, &[]));
    assert!(w.contains("the key of pattern `get` is hot"), "{w}");
    assert!(
        w.contains("80% of 4000 RCU/s at the peak hour = 3200 RCU/s"),
        "{w}"
    );
}

#[test]
fn cloudshop_records_the_seed_spread_check_without_warning() {
    // 41,200 keys, 2.1 % of reads, 0.8 % of writes: far below a partition's limits.
    let out = Case::new()
        .args(["estimate", "workloads/cloudshop.yaml", "--format", "json"])
        .run()
        .success();
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert!(
        !warnings(&doc).contains("partition key"),
        "{}",
        warnings(&doc)
    );
    // Its 210 GB (observed) need ⌈210 ÷ 10⌉ = 21 partitions; throughput needs fewer.
    assert_eq!(doc["partitions"][0]["by_size"], "21");
    assert_eq!(doc["partitions"][0]["minimum"], "21");
    // The seed's first design keyed on the order status: 6 values, 71 % of the writes in
    // "delivered". On GSI-1 it is flagged at risk, with its numbers.
    let out = Case::new()
        .args([
            "estimate",
            "workloads/cloudshop.yaml",
            "--format",
            "json",
            "--set",
            "tables.orders.indexes.gsi-1.keys={ distinct: 6, busiest_write_share: 71% }",
        ])
        .run()
        .success();
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let w = warnings(&doc);
    assert!(
        w.contains(
            "the partition key of GSI `gsi-1` is at risk: one value takes 71% of its writes"
        ),
        "{w}"
    );
    assert!(w.contains("among 6 values"), "{w}");
}

#[test]
fn key_spreads_are_checked_on_load() {
    for (keys, says) in [
        (
            "{ distinct: 10, busiest_share: 1% }",
            "the busiest of 10 values takes at least 1/10",
        ),
        ("{ distinct: 0 }", "at least one distinct value"),
        ("{ busiest_write_share: 120% }", "outside [0, 1]"),
        ("{ distinct: 2.5 }", "whole number"),
        ("{ distinct: 10, busiest: 1% }", "unknown field `busiest`"),
    ] {
        let yaml = WRITES.replace("{ distinct: 500, busiest_write_share: 60% }", keys);
        let (_dir, path) = temp_workload(&yaml);
        Case::new()
            .args(["estimate", &path])
            .run()
            .code(1)
            .stderr_has(says)
            .stderr_has("tables.events.keys");
    }
}

mod properties {
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// Any spread and rate the loader accepts: the estimate never panics, and on flat
        /// traffic the key is hot exactly when share × WCU/s exceeds 1,000.
        #[test]
        fn hot_exactly_above_a_partition(
            distinct in 1u32..=100_000,
            share_bp in 0u32..=10_000,
            rate in 1u32..=100_000,
        ) {
            let share = rust_decimal::Decimal::new(i64::from(share_bp), 4);
            let floor = rust_decimal::Decimal::ONE / rust_decimal::Decimal::from(distinct);
            let yaml = format!(
                "prices: aws-us-east-1\ntables:\n  t:\n    item_size: 1 KB\n    keys: {{ distinct: {distinct}, busiest_write_share: {share} }}\n    patterns:\n      put: {{ op: put, rate: {rate}/s }}\n"
            );
            let loaded = ddbcost::api::load(&yaml, "p.yaml");
            if share < floor {
                prop_assert!(loaded.is_err());
                return Ok(());
            }
            let e = super::common::estimate(&yaml, "aws-us-east-1");
            let hot = e.warnings.iter().any(|w| w.to_string().contains(" is hot"));
            // 1 KB items: one WCU per put, so the peak is `rate` WCU/s.
            prop_assert_eq!(hot, share * rust_decimal::Decimal::from(rate) > rust_decimal::Decimal::from(1000));
        }
    }
}
