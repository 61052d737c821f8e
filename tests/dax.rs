//! DynamoDB Accelerator (DAX): a table's cluster is priced per node-hour from the `AmazonDAX`
//! price list (imported like the others), and the table's reads fall by the share of the
//! eventually consistent reads its cache serves; strong and transactional reads and writes
//! pass through. us-east-1 list prices (bundled): RRU $0.125, WRU $0.625 per million; the DAX
//! fixture's dax.r5.large at $0.269 an hour (made up for the tests).

mod common;

use common::{Case, cost, dec, quantity, temp_workload};

/// `prices import` of the AmazonDynamoDB and AmazonDAX fixtures into a new folder.
fn imported() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().to_string_lossy().into_owned();
    Case::new()
        .args([
            "prices",
            "import",
            "tests/fixtures/pricelist/offer-index.json",
            "tests/fixtures/pricelist/dax/index.json",
            "--output-dir",
            &out_dir,
        ])
        .run()
        .success()
        .stderr_has("1 DAX SKU(s) that are not node-hours skipped")
        .stderr_has("without AmazonDynamoDB prices in this import skipped: ap-south-1");
    dir
}

fn estimate_in(dir: &tempfile::TempDir, yaml: &str) -> ddbcost::api::Estimate {
    let (workload, _) = ddbcost::api::load(yaml, "inline.yaml").unwrap();
    let book =
        ddbcost::api::prices(&dir.path().join("aws-us-east-1.yaml").to_string_lossy()).unwrap();
    ddbcost::api::estimate(&workload, &book, &ddbcost::api::Settings::default()).unwrap()
}

const CATALOG: &str = "tests/fixtures/focus/dax-catalog.yaml";

#[test]
fn three_nodes_absorbing_80_percent_of_eventual_reads() {
    let dir = imported();
    let text = std::fs::read_to_string(common::root().join(CATALOG)).unwrap();
    let e = estimate_in(&dir, &text);
    // 3 nodes × 730 h = 2,190 node-hours × $0.269 = $589.11.
    assert_eq!(quantity(&e, "catalog/dax"), dec("2190"));
    assert_eq!(cost(&e, "catalog/dax"), dec("589.11"));
    // Reads reaching the table: `browse`, 1,000 eventual gets/s × 2,628,000 s × ½ =
    // 1,314 M RRU, 80 % served by the cache: 262.8 M; `checkout`, 100 strong gets/s:
    // 262.8 M, all passed through; `mixed`, 100/s at 92 % eventual: 262.8 M × (0.08 +
    // 0.46 × 0.2) = 45.2016 M. Total 570.8016 M × $0.125 = $71.3502.
    assert_eq!(quantity(&e, "catalog/reads"), dec("570.8016"));
    assert_eq!(cost(&e, "catalog/reads"), dec("71.3502"));
    // A query on the GSI (eventual) is cached too: 10/s × 2,628,000 × ½ × 0.2 = 2.628 M.
    assert_eq!(quantity(&e, "catalog/gsi/by-brand/reads"), dec("2.628"));
    // Writes pass through: 10 puts/s of 1 KB = 26.28 M WRU × $0.625 = $16.425 (and 26.28 M
    // index writes on `by-brand`, KEYS_ONLY).
    assert_eq!(cost(&e, "catalog/writes"), dec("16.425"));

    // Without the cluster the same reads cost 1,314 + 262.8 + 262.8 × 0.54 = 1,718.712 M
    // × $0.125 = $214.839: DAX saves $143.4888 of reads for $589.11 of nodes.
    let without = text.replace(
        "    dax: { node_type: dax.r5.large, nodes: 3, hits: 80% }\n",
        "",
    );
    assert_ne!(without, text);
    let e = estimate_in(&dir, &without);
    assert_eq!(cost(&e, "catalog/reads"), dec("214.839"));
}

#[test]
fn transactions_and_strong_reads_pass_through() {
    let dir = imported();
    // A transact-get of 2 × 1 KB items: 2 items × 2 units = 4 RRU each, 1/s × 2,628,000 s =
    // 10.512 M RRU whatever the cache holds.
    let e = estimate_in(
        &dir,
        "tables:\n  t:\n    item_size: 1 KB\n    storage: 1 GB\n    dax: { node_type: dax.t3.small, nodes: 1, hours: 100, hits: 99% }\n    patterns:\n      tx: { op: transact-get, items: 2, rate: 1/s }\n",
    );
    assert_eq!(quantity(&e, "t/reads"), dec("10.512"));
    // 1 node × 100 h × $0.04 = $4.00.
    assert_eq!(cost(&e, "t/dax"), dec("4"));
}

#[test]
fn a_node_type_the_table_does_not_price_is_refused_by_name() {
    let dir = imported();
    let (_w, workload) = temp_workload(
        "tables:\n  t:\n    storage: 1 GB\n    dax: { node_type: dax.r6g.large, nodes: 3, hits: 50% }\n",
    );
    Case::new()
        .args([
            "estimate",
            &workload,
            "--prices",
            &dir.path().join("aws-us-east-1.yaml").to_string_lossy(),
        ])
        .run()
        .code(1)
        .stderr_has("dax_node_hour.dax.r6g.large")
        .stderr_has("t/dax");
}

#[test]
fn bad_clusters_are_refused_where_they_are_written() {
    for (dax, says) in [
        (
            "{ node_type: r5.large, nodes: 3, hits: 50% }",
            "is not a DAX node type",
        ),
        (
            "{ node_type: dax.r5.large, nodes: 12, hits: 50% }",
            "1 to 11 nodes",
        ),
        (
            "{ node_type: dax.r5.large, nodes: 2.5, hits: 50% }",
            "whole number",
        ),
        (
            "{ node_type: dax.r5.large, nodes: 3, hits: 120% }",
            "tables.t.dax.hits",
        ),
        (
            "{ node_type: dax.r5.large, nodes: 3, hours: 800, hits: 50% }",
            "0 to 744 hours",
        ),
        ("{ node_type: dax.r5.large, nodes: 3 }", "hits"),
        (
            "{ node_type: dax.r5.large, nodes: 3, hits: 50%, hit: 1 }",
            "unknown field",
        ),
    ] {
        let (_w, workload) = temp_workload(&format!(
            "tables:\n  t:\n    storage: 1 GB\n    dax: {dax}\n"
        ));
        Case::new()
            .args(["estimate", &workload, "--prices", "aws-us-east-1"])
            .run()
            .code(1)
            .stderr_has(says);
    }
}

#[test]
fn advise_proposes_dax_for_a_hot_read_key_when_it_pays() {
    let dir = imported();
    let prices_dir = dir.path().to_string_lossy().into_owned();
    let advise = |share: &str| -> serde_json::Value {
        let (_w, workload) = temp_workload(&format!(
            "prices: aws-us-east-1\ntables:\n  catalog:\n    item_size: 1 KB\n    storage: 10 GB\n    patterns:\n      browse: {{ op: get, rate: 5000/s, consistency: eventual, keys: {{ distinct: 100000, busiest_read_share: {share} }} }}\n"
        ));
        let out = Case::new()
            .args([
                "advise",
                &workload,
                "--prices-dir",
                &prices_dir,
                "--format",
                "json",
            ])
            .run()
            .success();
        serde_json::from_str(&out.stdout).unwrap()
    };
    let dax = |doc: &serde_json::Value| {
        doc["suggestions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == "dax-catalog")
            .cloned()
    };
    // 5,000 eventual gets/s × 2,628,000 s × ½ = 6,570 M RRU; the busiest key's 40 % hit the
    // cache: 2,628 M RRU × $0.125 = $328.50 saved, for the cheapest cluster the table
    // prices, 3 × dax.t3.small × 730 h × $0.04 = $87.60: $240.90 a month.
    let doc = advise("40%");
    let s = dax(&doc).expect("DAX is proposed");
    assert_eq!(dec(s["monthly_saving"].as_str().unwrap()), dec("240.9"));
    // Its break-even: $87.60 ÷ $0.125 per million = 700.8 M read units saved a month.
    let assumes = s["assumes"].as_str().unwrap();
    assert!(assumes.contains("700.8 M read request units"), "{assumes}");
    assert!(assumes.contains("87.6 USD a month"), "{assumes}");
    // At 5 %: 328.5 M RRU × $0.125 = $41.06 saved, less than the $87.60 cluster: not proposed.
    assert!(dax(&advise("5%")).is_none());
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

    /// Behind a cluster serving `hits`, a pattern at a share `e` eventual reaches the table at
    /// 1 − e + e/2 × (1 − hits) of its strong units, exactly, for every share; the cluster's
    /// line is nodes × hours × price; a `--set` of the hits prices as if written.
    #[test]
    fn reads_behind_dax_follow_the_rule(
        eventual_pct in 0u32..=100,
        hits_pct in 0u32..=100,
        nodes in 1u32..=11,
        rate in 1u32..10_000,
    ) {
        let dir = imported();
        let prices = dir.path().join("aws-us-east-1.yaml").to_string_lossy().into_owned();
        let yaml = format!(
            "tables:\n  t:\n    item_size: 1 KB\n    storage: 1 GB\n    dax: {{ node_type: dax.t3.small, nodes: {nodes}, hits: {hits_pct}% }}\n    patterns:\n      r: {{ op: get, rate: {rate}/s, consistency: {eventual_pct}% eventual }}\n"
        );
        let e = estimate_in(&dir, &yaml);
        let strong = rust_decimal::Decimal::from(rate) * dec("2.628");
        let e_share = rust_decimal::Decimal::from(eventual_pct) / dec("100");
        let h = rust_decimal::Decimal::from(hits_pct) / dec("100");
        let expected = strong
            * (rust_decimal::Decimal::ONE - e_share + e_share / dec("2") * (rust_decimal::Decimal::ONE - h));
        proptest::prop_assert_eq!(quantity(&e, "t/reads"), expected);
        proptest::prop_assert_eq!(
            cost(&e, "t/dax"),
            rust_decimal::Decimal::from(nodes) * dec("730") * dec("0.04")
        );
        // The same hits set from the command line.
        let (_w, workload) = temp_workload(&yaml.replace(&format!("hits: {hits_pct}%"), "hits: 0%"));
        let out = Case::new()
            .args(["compare", &workload, "--prices", &prices, "--format", "json"])
            .args(["--set", &format!("tables.t.dax.hits={hits_pct}%")])
            .run()
            .success();
        let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
        let total = dec(doc["scenarios"][0]["total"].as_str().unwrap());
        proptest::prop_assert_eq!(total, e.total);
    }
}

#[test]
fn keys_prices_dax_for_a_key_hot_on_reads() {
    let dir = imported();
    let prices = dir
        .path()
        .join("aws-us-east-1.yaml")
        .to_string_lossy()
        .into_owned();
    let (wdir, workload) = temp_workload(&format!(
        "prices: {prices}\ntables:\n  catalog:\n    item_size: 1 KB\n    key: {{ partition: sku }}\n    patterns:\n      view: {{ op: get, rate: 20000/s, consistency: eventual }}\n"
    ));
    // Half the items (and so, with no log, half the reads) on one sku.
    let mut text = String::new();
    for i in 0..200 {
        let sku = if i % 2 == 0 {
            "s-0".to_string()
        } else {
            format!("s-{}", i % 50 + 1)
        };
        text.push_str(&format!("{{\"sku\":\"{sku}\"}}\n"));
    }
    let items = common::write_file(wdir.path(), "items.json", &text);
    let out = Case::new()
        .args(["keys", &items, "--workload", &workload, "--format", "json"])
        .run()
        .success();
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let a = &doc["attributes"][0];
    // 20,000 eventual gets/s of 1 KB = 10,000 RCU/s; the busiest sku's 50 % = 5,000 > 3,000.
    assert_eq!(a["verdict"], "hot");
    let d = &a["dax"];
    assert_eq!(d["node_type"], "dax.t3.small");
    assert_eq!(dec(&d["hits"].to_string().replace('"', "")), dec("0.5"));
    // Before: 20,000 × 2,628,000 × ½ = 26,280 M RRU × $0.125 = $3,285; after, half served by
    // the cache: $1,642.50, plus the cluster, 3 × 730 h × $0.04 = $87.60: Δ = −$1,554.90.
    let num = |v: &serde_json::Value| dec(&v.to_string().replace('"', ""));
    assert_eq!(num(&d["monthly_cluster"]), dec("87.6"));
    assert_eq!(num(&d["monthly_delta"]), dec("-1554.9"));
    // It pays for itself from 87.60 ÷ 3,285 = 2.666…% of the eventual reads from cache.
    assert_eq!(num(&d["break_even_hits"]).round_dp(6), dec("0.026667"));
    Case::new()
        .args(["keys", &items, "--workload", &workload])
        .run()
        .success()
        .stdout_has("DAX (3 × dax.t3.small) serving the busiest value's 50% of the eventual reads")
        .stdout_has("(-1,554.90; the cluster 87.60)")
        .stdout_has("it pays for itself from 2.67% of eventual reads served from cache");
}
