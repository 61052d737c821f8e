//! Vector indexes (DynamoDB vector search): entries of an f32 vector (4 bytes a dimension)
//! plus the attributes copied, stored at the table's storage price; writes and searches
//! metered in bytes (`VectorWriteRequestBytes`, `VectorSearchRequestBytes`), each request
//! billed for at least the price table's minimum. The rules are checked on a price table
//! made up for the tests — $0.10 per GB written, $0.01 per GB searched, a 1 KB minimum per
//! request — and the bundled us-east-1 prices (DESIGN §9, from AWS's agent toolkit: $0.52
//! per GB written, $0.002 per GB searched, Standard-IA 125 %, 1,024 B at least a request)
//! at the end.

mod common;

use common::{Case, cost, dec, quantity, temp_workload};

const PRICES: &str = "id: vec\nregion: us-east-1\ncurrency: USD\nsource: made up for the tests\neffective: 2026-11-01\nstandard: { storage_gb_month: 0.25, read_per_million: 0.125, write_per_million: 0.625, vector_write_per_gb: 0.10, vector_search_per_gb: 0.01 }\nvector_min_request_bytes: 1 KB\n";

fn with_prices(yaml: &str) -> (tempfile::TempDir, String) {
    let (dir, workload) = temp_workload(yaml);
    common::write_file(dir.path(), "vec.yaml", PRICES);
    (dir, workload)
}

fn estimate(yaml: &str) -> ddbcost::api::Estimate {
    let dir = tempfile::tempdir().unwrap();
    let prices = common::write_file(dir.path(), "vec.yaml", PRICES);
    let (workload, _) = ddbcost::api::load(yaml, "inline.yaml").unwrap();
    let book = ddbcost::api::prices(&prices).unwrap();
    ddbcost::api::estimate(&workload, &book, &ddbcost::api::Settings::default()).unwrap()
}

const DOCS: &str = "tables:\n  docs:\n    item_size: 7 KB\n    items: 1M\n    vector_indexes:\n      embedding: { dimensions: 1536, projected_size: 100 B, writes: 2M/month, searches: 10/s, search_bytes: 40 KB }\n";

#[test]
fn storage_writes_and_searches_are_metered_in_bytes() {
    let e = estimate(DOCS);
    // An entry: 1,536 × 4 B = 6,144 B of vector + 100 B copied = 6,244 B; 1 M of them =
    // 6,244,000,000 B ÷ 2^30 GB × $0.25.
    let gb = dec("6244000000") / dec("1073741824");
    assert_eq!(quantity(&e, "docs/vector/embedding/storage"), gb);
    assert_eq!(cost(&e, "docs/vector/embedding/storage"), gb * dec("0.25"));
    // Writes: 2 M × 6,244 B (above the 1 KB minimum) = 12,488,000,000 B ÷ 2^30 × $0.10.
    let written = dec("12488000000") / dec("1073741824");
    assert_eq!(quantity(&e, "docs/vector/embedding/writes"), written);
    assert_eq!(
        cost(&e, "docs/vector/embedding/writes"),
        written * dec("0.1")
    );
    // Searches: 10/s × 2,628,000 s = 26.28 M × 40 KB (40,960 B) = 1,076,428,800,000 B
    // ÷ 2^30 = 1,002.50244140625 GB × $0.01 = $10.0250244140625.
    assert_eq!(
        quantity(&e, "docs/vector/embedding/searches"),
        dec("1002.50244140625")
    );
    assert_eq!(
        cost(&e, "docs/vector/embedding/searches"),
        dec("10.0250244140625")
    );
}

#[test]
fn each_request_is_billed_for_at_least_the_minimum() {
    // 8 dimensions = 32 B written, searches of 500 B: each billed as 1 KB (1,024 B).
    // 1 M writes × 1,024 B = 1,024,000,000 B ÷ 2^30 = 0.95367431640625 GB.
    let e = estimate(
        "tables:\n  t:\n    storage: 1 GB\n    vector_indexes:\n      v: { dimensions: 8, items: 10, writes: 1M/month, searches: 1M/month, search_bytes: 500 B }\n",
    );
    assert_eq!(quantity(&e, "t/vector/v/writes"), dec("0.95367431640625"));
    assert_eq!(quantity(&e, "t/vector/v/searches"), dec("0.95367431640625"));
}

#[test]
fn vector_indexes_are_refused_where_they_cannot_be() {
    for (yaml, says) in [
        (
            "tables:\n  t:\n    storage: 1 GB\n    capacity: { mode: provisioned, rcu: 5, wcu: 5 }\n    vector_indexes:\n      v: { dimensions: 8 }\n",
            "on-demand capacity mode only",
        ),
        (
            "tables:\n  t:\n    storage: 1 GB\n    vector_indexes:\n      v: { dimensions: 8, searches: 5/s }\n",
            "searches without `search_bytes`",
        ),
        (
            "tables:\n  t:\n    storage: 1 GB\n    vector_indexes:\n      v: { dimensions: 200000 }\n",
            "a vector index holds at most 4096",
        ),
        (
            "tables:\n  t:\n    storage: 1 GB\n    vector_indexes:\n      v: { dimensions: 8, projected_size: 400 KB }\n",
            "no vector an item of at most 400 KB holds",
        ),
        (
            "tables:\n  t:\n    storage: 1 GB\n    vector_indexes:\n      v: { dimensions: 8, dims: 3 }\n",
            "unknown field",
        ),
    ] {
        let (dir, workload) = with_prices(yaml);
        Case::new()
            .args([
                "estimate",
                &workload,
                "--prices",
                &dir.path().join("vec.yaml").to_string_lossy(),
            ])
            .run()
            .code(1)
            .stderr_has(says);
    }
    // A bundled table without vector prices (eu-west-1: no source gives them): the line's
    // price is named.
    let (_d, workload) = temp_workload(DOCS);
    Case::new()
        .args(["estimate", &workload, "--prices", "aws-eu-west-1"])
        .run()
        .code(1)
        .stderr_has("standard.vector_write_per_gb");
    // A table with the prices but no minimum per request: named too.
    let dir = tempfile::tempdir().unwrap();
    let prices = common::write_file(
        dir.path(),
        "p.yaml",
        &PRICES.replace("vector_min_request_bytes: 1 KB\n", ""),
    );
    let (_d, workload) = temp_workload(DOCS);
    Case::new()
        .args(["estimate", &workload, "--prices", &prices])
        .run()
        .code(1)
        .stderr_has("vector_min_request_bytes");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

    /// For any dimensions, writes and search size, each line is its bytes (at least the 1 KB
    /// minimum a request) × its requests ÷ 2^30 at its price, exactly; a `--set` of the
    /// writes prices as if written.
    #[test]
    fn vector_lines_follow_the_rule(
        dims in 1u32..=4_096,
        writes in 1u32..5_000_000,
        search in 1u32..200_000,
    ) {
        let yaml = format!(
            "tables:\n  t:\n    storage: 1 GB\n    vector_indexes:\n      v: {{ dimensions: {dims}, items: 1000, writes: {writes}/month, searches: 1M/month, search_bytes: {search} B }}\n"
        );
        let e = estimate(&yaml);
        let gb = dec("1073741824");
        let entry = rust_decimal::Decimal::from(dims) * dec("4");
        let billed = |b: rust_decimal::Decimal| b.max(dec("1024"));
        let w = rust_decimal::Decimal::from(writes) * billed(entry) / gb;
        proptest::prop_assert_eq!(quantity(&e, "t/vector/v/writes"), w);
        proptest::prop_assert_eq!(cost(&e, "t/vector/v/writes"), w * dec("0.1"));
        let s = dec("1000000") * billed(rust_decimal::Decimal::from(search)) / gb;
        proptest::prop_assert_eq!(quantity(&e, "t/vector/v/searches"), s);
        proptest::prop_assert_eq!(cost(&e, "t/vector/v/storage"), dec("1000") * entry / gb * dec("0.25"));

        let (dir, workload) = with_prices(&yaml.replace(&format!("writes: {writes}/month"), "writes: 1/month"));
        let out = Case::new()
            .args(["compare", &workload, "--prices", &dir.path().join("vec.yaml").to_string_lossy(), "--format", "json"])
            .args(["--set", &format!("tables.t.vector_indexes.v.writes={writes}/month")])
            .run()
            .success();
        let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
        proptest::prop_assert_eq!(dec(doc["scenarios"][0]["total"].as_str().unwrap()), e.total);
    }
}

/// Priced with the bundled us-east-1 table.
fn bundled(yaml: &str) -> ddbcost::api::Estimate {
    let (workload, _) = ddbcost::api::load(yaml, "inline.yaml").unwrap();
    let book = ddbcost::api::prices("aws-us-east-1").unwrap();
    ddbcost::api::estimate(&workload, &book, &ddbcost::api::Settings::default()).unwrap()
}

#[test]
fn bundled_us_east_1_prices_a_keys_only_1024_dimension_index() {
    // 1,024 dimensions × 4 B = 4,096 B + 40 B of keys copied (KEYS_ONLY) = 4,136 B an entry.
    let yaml = "tables:\n  docs:\n    item_size: 5 KB\n    items: 1M\n    vector_indexes:\n      e: { dimensions: 1024, projected_size: 40 B, writes: 1M/month, searches: 1M/month, search_bytes: 20 KB }\n";
    let e = bundled(yaml);
    // Writes: 1 M × 4,136 B = 4,136,000,000 B ÷ 2^30 GB × $0.52.
    let written = dec("4136000000") / dec("1073741824");
    assert_eq!(quantity(&e, "docs/vector/e/writes"), written);
    assert_eq!(cost(&e, "docs/vector/e/writes"), written * dec("0.52"));
    // Searches: 1 M × 20 KB (20,480 B) = 20,480,000,000 B ÷ 2^30 = 19.073486328125 GB
    // × $0.002 = $0.03814697265625.
    assert_eq!(
        quantity(&e, "docs/vector/e/searches"),
        dec("19.073486328125")
    );
    assert_eq!(cost(&e, "docs/vector/e/searches"), dec("0.03814697265625"));
    // On Standard-IA: 125 %: $0.65 a GB written, $0.0025 a GB searched.
    let ia = bundled(&yaml.replace("    item_size", "    class: standard-ia\n    item_size"));
    assert_eq!(cost(&ia, "docs/vector/e/writes"), written * dec("0.65"));
    assert_eq!(
        cost(&ia, "docs/vector/e/searches"),
        dec("0.0476837158203125")
    );
}

#[test]
fn a_write_to_two_vector_indexes_is_billed_the_minimum_on_each() {
    // Two indexes of 16 dimensions (64 B entries): a write that changes both is a request to
    // each index, each billed 1,024 B at least (the rule ddbcost applies per index request:
    // the toolkit's docs say "per request" and its code calls the rule unsettled). 1 M
    // writes: 2 × 1,024,000,000 B ÷ 2^30 = 2 × 0.95367431640625 GB × $0.52.
    let yaml = "tables:\n  docs:\n    item_size: 1 KB\n    items: 1000\n    vector_indexes:\n      a: { dimensions: 16, writes: 1M/month }\n      b: { dimensions: 16, writes: 1M/month }\n";
    let e = bundled(yaml);
    for index in ["a", "b"] {
        let key = format!("docs/vector/{index}/writes");
        assert_eq!(quantity(&e, &key), dec("0.95367431640625"));
        assert_eq!(cost(&e, &key), dec("0.95367431640625") * dec("0.52"));
    }
}

#[test]
fn dynamodbs_vector_limits_are_refused_at_their_path() {
    let six: String = (0..6).fold(String::new(), |mut s, i| {
        s.push_str(&format!("      v{i}: {{ dimensions: 8 }}\n"));
        s
    });
    let (_d, w) = temp_workload(&format!(
        "prices: aws-us-east-1\ntables:\n  docs:\n    item_size: 1 KB\n    vector_indexes:\n{six}"
    ));
    Case::new()
        .args(["estimate", w.as_str()])
        .run()
        .code(1)
        .stderr_has("at most 5 vector indexes; `v5` is the 6th")
        .stderr_has("tables.docs.vector_indexes.v5");
    let (_d, w) = temp_workload(
        "prices: aws-us-east-1\ntables:\n  docs:\n    item_size: 1 KB\n    vector_indexes:\n      v: { dimensions: 5000 }\n",
    );
    Case::new()
        .args(["estimate", w.as_str()])
        .run()
        .code(1)
        .stderr_has("5000 dimensions: a vector index holds at most 4096")
        .stderr_has("tables.docs.vector_indexes.v.dimensions");
}

#[test]
fn a_region_without_vector_prices_says_no_source_gives_them() {
    let (_d, w) = temp_workload(
        "prices: aws-eu-west-1\ntables:\n  docs:\n    item_size: 1 KB\n    vector_indexes:\n      v: { dimensions: 8, writes: 1M/month }\n",
    );
    Case::new()
        .args(["estimate", w.as_str()])
        .run()
        .code(1)
        .stderr_has("aws-eu-west-1")
        .stderr_has("No published source gives vector index prices for this region");
}
