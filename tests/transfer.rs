//! Data transfer: out to the internet (a table's `transfer_out` a month, a pattern's per
//! request) at the region's tiers, counted over the region's month, with the free 100 GB
//! under `--free-tier`; and inter-region transfer of global tables, with prices imported
//! from the `AWSDataTransfer` offer. us-east-1 (bundled, the AWSDataTransfer offer's tiers):
//! $0.09 per GB for the first 10 TB (10,240 GB), $0.085 the next 40 TB, $0.07 the next
//! 100 TB, $0.05 over 150 TB (153,600 GB); 100 GB a month free across services.

mod common;

use common::{
    Case, cost, dec, estimate, estimate_with, line, quantity, temp_workload, try_estimate,
};
use ddbcost::api::Settings;

fn free_tier() -> Settings {
    Settings {
        free_tier: true,
        ..Settings::default()
    }
}

fn sum_transfer(e: &ddbcost::api::Estimate) -> rust_decimal::Decimal {
    e.line_items
        .iter()
        .filter(|l| l.price_key == "transfer_out_gb")
        .filter_map(|l| l.cost)
        .sum()
}

#[test]
fn infracost_tiers_157_000_gb() {
    // Infracost's data-transfer golden file, 157,000 GB out of a region at these tiers:
    // 10,240 × $0.09 = $921.60, 40,960 × $0.085 = $3,481.60, 102,400 × $0.07 = $7,168.00,
    // 3,400 × $0.05 = $170.00: $11,741.20.
    let e = estimate(
        "tables:\n  media:\n    storage: 1 GB\n    transfer_out: 157000 GB\n",
        "aws-us-east-1",
    );
    // The table's line at the first tier: 157,000 × $0.09 = $14,130.
    assert_eq!(cost(&e, "media/transfer-out"), dec("14130"));
    // The tiers past it price the difference: 40,960 × (0.085 − 0.09) = −$204.80,
    // 102,400 × (0.07 − 0.09) = −$2,048, 3,400 × (0.05 − 0.09) = −$136.
    assert_eq!(
        quantity(&e, "account/transfer-out/us-east-1/from-10240"),
        dec("40960")
    );
    assert_eq!(
        cost(&e, "account/transfer-out/us-east-1/from-10240"),
        dec("-204.8")
    );
    assert_eq!(
        cost(&e, "account/transfer-out/us-east-1/from-51200"),
        dec("-2048")
    );
    assert_eq!(
        quantity(&e, "account/transfer-out/us-east-1/from-153600"),
        dec("3400")
    );
    assert_eq!(
        cost(&e, "account/transfer-out/us-east-1/from-153600"),
        dec("-136")
    );
    assert_eq!(sum_transfer(&e), dec("11741.20"));
}

#[test]
fn a_pattern_sends_what_each_request_returns() {
    // 10 gets/s × 2,628,000 s = 26.28 M requests × 4 KB (4,096 B) = 107,642,880,000 B
    // ÷ 2^30 = 100.250244140625 GB × $0.09 = $9.02252197265625, all of it `get`'s.
    let e = estimate(
        "tables:\n  api:\n    item_size: 4 KB\n    storage: 1 GB\n    patterns:\n      get: { op: get, rate: 10/s, consistency: eventual, transfer_out: 4 KB }\n      put: { op: put, rate: 1/s }\n",
        "aws-us-east-1",
    );
    assert_eq!(quantity(&e, "api/transfer-out"), dec("100.250244140625"));
    assert_eq!(cost(&e, "api/transfer-out"), dec("9.02252197265625"));
    let l = line(&e, "api/transfer-out");
    assert_eq!(l.attribution.len(), 1);
    assert_eq!(&*l.attribution[0].pattern, "get");
    // Below 10 TB no tier line.
    assert!(
        !e.line_items
            .iter()
            .any(|l| l.key.starts_with("account/transfer-out/"))
    );
}

#[test]
fn the_tiers_count_every_table_of_the_region() {
    // Two tables of 6,000 GB each: 12,000 GB in us-east-1, 1,760 GB past 10,240:
    // 1,760 × (0.085 − 0.09) = −$8.80. Alone, neither would reach the second tier.
    let e = estimate(
        "tables:\n  a:\n    storage: 1 GB\n    transfer_out: 6000 GB\n  b:\n    storage: 1 GB\n    transfer_out: 6000 GB\n",
        "aws-us-east-1",
    );
    assert_eq!(
        quantity(&e, "account/transfer-out/us-east-1/from-10240"),
        dec("1760")
    );
    assert_eq!(
        cost(&e, "account/transfer-out/us-east-1/from-10240"),
        dec("-8.8")
    );
    // 12,000 × 0.09 − 8.80 = $1,071.20 = 10,240 × 0.09 + 1,760 × 0.085 (921.60 + 149.60).
    assert_eq!(sum_transfer(&e), dec("1071.2"));
}

#[test]
fn the_free_100_gb_only_when_asked_and_the_tiers_count_past_it() {
    let w = "tables:\n  a:\n    storage: 1 GB\n    transfer_out: 150 GB\n";
    // Off: 150 × $0.09 = $13.50, no credit.
    let off = estimate(w, "aws-us-east-1");
    assert_eq!(sum_transfer(&off), dec("13.5"));
    // On: 100 GB credited at the first tier's price, −$9.00; 50 × $0.09 = $4.50 left.
    let on = estimate_with(w, "aws-us-east-1", free_tier());
    assert_eq!(quantity(&on, "account/free-tier/transfer-out"), dec("100"));
    assert_eq!(cost(&on, "account/free-tier/transfer-out"), dec("-9"));
    assert_eq!(sum_transfer(&on), dec("4.5"));

    // 10,290 GB: without the allowance 50 GB fall in the second tier (−$0.25); with it, the
    // 10,190 GB billed stay in the first.
    let w = "tables:\n  a:\n    storage: 1 GB\n    transfer_out: 10290 GB\n";
    let off = estimate(w, "aws-us-east-1");
    assert_eq!(
        cost(&off, "account/transfer-out/us-east-1/from-10240"),
        dec("-0.25")
    );
    let on = estimate_with(w, "aws-us-east-1", free_tier());
    assert!(
        !on.line_items
            .iter()
            .any(|l| l.key.starts_with("account/transfer-out/"))
    );
    // 10,190 × $0.09 = $917.10.
    assert_eq!(sum_transfer(&on), dec("917.1"));
}

#[test]
fn a_free_tier_without_the_allowance_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let prices = common::write_file(
        dir.path(),
        "p.yaml",
        "id: p\nregion: us-east-1\ncurrency: USD\nsource: test\neffective: 2026-01-01\nstandard: { storage_gb_month: 0.25 }\ntransfer_out_gb: 0.09\nfree_tier: { storage_gb: 25, stream_reads: 2.5M, rcu: 25, wcu: 25 }\n",
    );
    let err = try_estimate(
        "tables:\n  a:\n    storage: 1 GB\n    transfer_out: 150 GB\n",
        &prices,
        free_tier(),
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("transfer_out_free_gb"), "{err}");
}

#[test]
fn tiers_out_of_order_are_refused_by_path() {
    let (dir, workload) =
        temp_workload("tables:\n  a:\n    storage: 1 GB\n    transfer_out: 1 GB\n");
    let prices = common::write_file(
        dir.path(),
        "p.yaml",
        "id: p\nregion: us-east-1\ncurrency: USD\nsource: test\neffective: 2026-01-01\nstandard: { storage_gb_month: 0.25 }\ntransfer_out_gb: 0.09\ntransfer_out_tiers:\n  - { from: 51200, price: 0.07 }\n  - { from: 10240, price: 0.085 }\n",
    );
    Case::new()
        .args(["estimate", &workload, "--prices", &prices])
        .run()
        .code(1)
        .stderr_has("transfer_out_tiers[1].from")
        .stderr_has("must start above the one before it (51200 GB)");
    let prices = common::write_file(
        dir.path(),
        "q.yaml",
        "id: q\nregion: us-east-1\ncurrency: USD\nsource: test\neffective: 2026-01-01\nstandard: { storage_gb_month: 0.25 }\ntransfer_out_tiers:\n  - { from: 10240, price: 0.085 }\n",
    );
    Case::new()
        .args(["estimate", &workload, "--prices", &prices])
        .run()
        .code(1)
        .stderr_has("without `transfer_out_gb`");
    // A negative size is refused where it is written.
    let (_d, bad) = temp_workload("tables:\n  a:\n    storage: 1 GB\n    transfer_out: -5 GB\n");
    Case::new()
        .args(["estimate", &bad, "--prices", "aws-us-east-1"])
        .run()
        .code(1)
        .stderr_has("tables.a.transfer_out");
}

#[test]
fn a_region_without_a_transfer_out_price_is_refused_by_name() {
    // eu-west-1's bundled table states no transfer prices (DESIGN.md §4).
    let err = try_estimate(
        "tables:\n  a:\n    storage: 1 GB\n    transfer_out: 5 GB\n",
        "aws-eu-west-1",
        Settings::default(),
    )
    .unwrap_err()
    .to_string();
    assert!(err.contains("transfer_out_gb"), "{err}");
}

const DDB_LONDON: &str = "tests/fixtures/pricelist/data-transfer/dynamodb-eu-west-2.json";
const DDB_OFFER: &str = "tests/fixtures/pricelist/offer-index.json";
const TRANSFER: &str = "tests/fixtures/pricelist/data-transfer/index.json";

/// `prices import` of `inputs` into a new folder.
fn import(inputs: &[&str]) -> (tempfile::TempDir, common::Outcome) {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().to_string_lossy().into_owned();
    let out = Case::new()
        .args(["prices", "import"])
        .args(inputs)
        .args(["--output-dir", &out_dir])
        .run();
    (dir, out)
}

/// A eu-west-2 global table with a us-west-1 replica (`.ci/run` validates its FOCUS export).
const LONDON: &str = "tests/fixtures/focus/london-global.yaml";

#[test]
fn the_transfer_offer_fills_each_priced_regions_transfer() {
    let (dir, out) = import(&[DDB_LONDON, DDB_OFFER, TRANSFER]);
    let out = out.success();
    // Kinds DynamoDB does not bill (intra-region, inbound) and regions no DynamoDB offer
    // priced are said, not dropped silently.
    out.stderr_has("2 data-transfer SKU(s) of other kinds")
        .stderr_has("without AmazonDynamoDB prices in this import skipped: ap-southeast-1");
    let book =
        ddbcost::api::prices(&dir.path().join("aws-eu-west-2.yaml").to_string_lossy()).unwrap();
    let t = &book.primary;
    // The offer's EUW2-USW1-AWS-Out-Bytes at $0.02 per GB; EUW2-DataTransfer-Out-Bytes's
    // tiers (0–10,240 GB $0.09, then $0.085, $0.07, $0.05).
    assert_eq!(
        t.transfer_to("us-west-1").map(|(_, p)| p),
        Some(dec("0.02"))
    );
    assert_eq!(
        t.get(&ddbcost::api::PriceKey::TransferOutGb),
        Some(dec("0.09"))
    );
    assert_eq!(
        t.transfer_out_tiers,
        [
            (dec("10240"), dec("0.085")),
            (dec("51200"), dec("0.07")),
            (dec("153600"), dec("0.05"))
        ]
    );
    assert!(
        t.source
            .contains("AWSDataTransfer, offer version 20261001000000"),
        "{}",
        t.source
    );
    // us-east-1 → us-east-2 at the offer's $0.01.
    let east =
        ddbcost::api::prices(&dir.path().join("aws-us-east-1.yaml").to_string_lossy()).unwrap();
    assert_eq!(
        east.primary.transfer_to("us-east-2").map(|(_, p)| p),
        Some(dec("0.01"))
    );
}

#[test]
fn a_london_global_table_with_a_california_replica_is_priced() {
    let workload = common::root().join(LONDON).to_string_lossy().into_owned();
    // Without transfer prices the replication transfer has no price: refused by name.
    let (dir, out) = import(&[DDB_LONDON, DDB_OFFER]);
    out.success();
    let prices_dir = dir.path().to_string_lossy().into_owned();
    Case::new()
        .args(["estimate", &workload, "--prices-dir", &prices_dir])
        .run()
        .code(1)
        .stderr_has("inter_region_transfer_gb")
        .stderr_has("aws-eu-west-2");
    // With them, every line is priced.
    let (dir, out) = import(&[DDB_LONDON, DDB_OFFER, TRANSFER]);
    out.success();
    let prices_dir = dir.path().to_string_lossy().into_owned();
    let out = Case::new()
        .args([
            "estimate",
            &workload,
            "--prices-dir",
            &prices_dir,
            "--format",
            "json",
        ])
        .run()
        .success();
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let cost = |k: &str| dec(common::json_line(&doc, k)["cost"].as_str().unwrap());
    // Replication: 1 M puts × 1 KB = 1,024,000,000 B ÷ 2^30 = 0.95367431640625 GB × $0.02
    // (EUW2-USW1-AWS-Out-Bytes) = $0.019073486328125.
    assert_eq!(
        cost("orders/replica/us-west-1/transfer"),
        dec("0.019073486328125")
    );
    // Replicated writes in us-west-1: 1 M rWRU × $0.6975 (the imported us-west-1 table).
    assert_eq!(cost("orders/replica/us-west-1/writes"), dec("0.6975"));
    // To the internet: 2 M gets × 1 KB = 2,048,000,000 B ÷ 2^30 = 1.9073486328125 GB × $0.09
    // = $0.171661376953125.
    assert_eq!(cost("orders/transfer-out"), dec("0.171661376953125"));
    // The table of the replica's region is named as a source of the bill.
    assert!(
        doc["other_price_tables"]
            .to_string()
            .contains("aws-us-west-1")
    );
}

#[test]
fn a_transfer_offer_as_get_products_pages_reads_the_same() {
    // `aws pricing get-products --service-code AWSDataTransfer`: each product with its terms
    // as a JSON string.
    let offer: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(common::root().join(TRANSFER)).unwrap())
            .unwrap();
    let entries: Vec<String> = offer["products"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(sku, product)| {
            serde_json::json!({
                "product": product,
                "serviceCode": "AWSDataTransfer",
                "terms": { "OnDemand": offer["terms"]["OnDemand"][sku] },
                "version": offer["version"],
                "publicationDate": offer["publicationDate"],
            })
            .to_string()
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let page = common::write_file(
        dir.path(),
        "page.json",
        &serde_json::json!({ "FormatVersion": "aws_v1", "PriceList": entries }).to_string(),
    );
    let (from_offer, out) = import(&[DDB_LONDON, TRANSFER]);
    out.success();
    let (from_page, out) = import(&[DDB_LONDON, &page]);
    out.success();
    let read = |d: &tempfile::TempDir| {
        let t = ddbcost::api::prices(&d.path().join("aws-eu-west-2.yaml").to_string_lossy())
            .unwrap()
            .primary;
        (t.prices, t.transfer_out_tiers)
    };
    assert_eq!(read(&from_offer), read(&from_page));
}

#[test]
fn transfer_prices_alone_make_no_table() {
    let (_dir, out) = import(&[TRANSFER]);
    out.code(1)
        .stderr_has("data-transfer or DAX prices alone make no price table");
}

#[test]
fn the_focus_fixture_of_tiers_is_the_derived_bill() {
    // tests/fixtures/focus/transfer-tiers.yaml: 157,000 GB from `media` and 100.250244140625
    // GB from `api` (10 gets/s × 4 KB): 157,100.250244140625 GB in us-east-1. With the free
    // 100 GB, 157,000.250244140625 GB are billed: 10,240 × 0.09 + 40,960 × 0.085 +
    // 102,400 × 0.07 + 3,400.250244140625 × 0.05 = 921.60 + 3,481.60 + 7,168 +
    // 170.01251220703125 = $11,741.21251220703125.
    let text =
        std::fs::read_to_string(common::root().join("tests/fixtures/focus/transfer-tiers.yaml"))
            .unwrap();
    let e = estimate_with(&text, "aws-us-east-1", free_tier());
    assert_eq!(sum_transfer(&e), dec("11741.21251220703125"));
}

/// AWS's us-east-1 tiers, as the bundled table states them: (first GB, price per GB).
const TIERS: [(u64, &str); 4] = [
    (0, "0.09"),
    (10_240, "0.085"),
    (51_200, "0.07"),
    (153_600, "0.05"),
];

/// The tiered cost of `gb` GB in a month, tier by tier (independent of the engine).
fn tiered(gb: rust_decimal::Decimal) -> rust_decimal::Decimal {
    let mut total = rust_decimal::Decimal::ZERO;
    for (i, (from, price)) in TIERS.iter().enumerate() {
        let from = rust_decimal::Decimal::from(*from);
        let to = TIERS
            .get(i + 1)
            .map(|(t, _)| rust_decimal::Decimal::from(*t));
        let inside = match to {
            Some(to) => gb.min(to) - from,
            None => gb - from,
        };
        if inside > rust_decimal::Decimal::ZERO {
            total += inside * dec(price);
        }
    }
    total
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// However the month's GB split over tables, and with or without the free allowance,
    /// the transfer lines add up to the tiered cost of the region's billed GB.
    #[test]
    fn transfer_lines_add_up_to_the_tiered_month(
        a in 0u64..200_000,
        b in 0u64..200_000,
        thousandths in 0u64..1000,
        free in proptest::prelude::any::<bool>(),
    ) {
        let a_gb = format!("{a}.{thousandths:03}");
        let w = format!(
            "tables:\n  a:\n    storage: 1 GB\n    transfer_out: {a_gb} GB\n  b:\n    storage: 1 GB\n    transfer_out: {b} GB\n"
        );
        let settings = if free { free_tier() } else { Settings::default() };
        let e = estimate_with(&w, "aws-us-east-1", settings);
        let month = dec(&a_gb) + rust_decimal::Decimal::from(b);
        let billed = if free { (month - dec("100")).max(rust_decimal::Decimal::ZERO) } else { month };
        proptest::prop_assert_eq!(sum_transfer(&e), tiered(billed));
    }

    /// A `--set` of the size travels to the same figure as the size written in the file.
    #[test]
    fn a_set_transfer_out_prices_as_if_written(gb in 1u64..300_000) {
        let (_w, workload) = temp_workload(
            "tables:\n  a:\n    storage: 1 GB\n    transfer_out: 1 GB\n",
        );
        let out = Case::new()
            .args(["compare", &workload, "--prices", "aws-us-east-1", "--format", "json"])
            .args(["--set", &format!("tables.a.transfer_out={gb} GB")])
            .run()
            .success();
        let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
        let total = dec(doc["scenarios"][0]["total"].as_str().unwrap());
        // Storage 1 GB × $0.25 + the tiered transfer.
        proptest::prop_assert_eq!(total, dec("0.25") + tiered(rust_decimal::Decimal::from(gb)));
    }
}

#[test]
fn prices_show_lists_the_tiers_and_the_allowance() {
    Case::new()
        .args(["prices", "show", "aws-us-east-1"])
        .run()
        .success()
        .stdout_has("from 10,240 GB 0.085; from 51,200 GB 0.07; from 153,600 GB 0.05")
        .stdout_has("(`transfer_out_free_gb`): 100 GB");
}

#[test]
fn a_read_can_send_what_it_returns() {
    // `transfer_out: returned`: a query of 10 items of 1 KB sends 10,240 B; 1/s × 2,628,000 s
    // = 26,910,720,000 B; a get of 4 KB sends 4,096 B a request.
    let e = estimate(
        "tables:\n  t:\n    item_size: 1 KB\n    storage: 1 GB\n    patterns:\n      list: { op: query, items: 10, rate: 1/s, consistency: eventual, transfer_out: returned }\n      one: { op: get, item_size: 4 KB, rate: 1/s, consistency: eventual, transfer_out: returned }\n",
        "aws-us-east-1",
    );
    // (10,240 + 4,096) × 2,628,000 = 37,675,008,000 B ÷ 2^30 = 35.08758544921875 GB.
    assert_eq!(
        quantity(&e, "t/transfer-out"),
        dec("37675008000") / dec("1073741824")
    );
    // A write returns nothing to say `returned` of.
    let (_d, bad) = temp_workload(
        "tables:\n  t:\n    item_size: 1 KB\n    storage: 1 GB\n    patterns:\n      w: { op: put, rate: 1/s, transfer_out: returned }\n",
    );
    Case::new()
        .args(["estimate", &bad, "--prices", "aws-us-east-1"])
        .run()
        .code(1)
        .stderr_has("tables.t.patterns.w.transfer_out")
        .stderr_has("this pattern writes");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

    /// `transfer_out: returned` sends a query's items × their size, whatever they are.
    #[test]
    fn a_read_sends_its_items(size in 1u32..=409_600, items in 1u32..=100, rate in 1u32..10_000) {
        let e = estimate(
            &format!("tables:\n  t:\n    storage: 1 GB\n    patterns:\n      q: {{ op: query, item_size: {size} B, items: {items}, rate: {rate}/month, consistency: eventual, transfer_out: returned }}\n"),
            "aws-us-east-1",
        );
        let bytes = rust_decimal::Decimal::from(size) * rust_decimal::Decimal::from(items) * rust_decimal::Decimal::from(rate);
        proptest::prop_assert_eq!(quantity(&e, "t/transfer-out"), bytes / dec("1073741824"));
    }
}
