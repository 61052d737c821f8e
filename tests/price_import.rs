//! `ddbcost prices import`: the AWS Price List (bulk offer file, gzipped or not, and
//! `aws pricing get-products` pages) becomes one price table per region. The fixtures in
//! `tests/fixtures/pricelist/` are written in the official shape (`products` keyed by SKU with
//! `attributes.usagetype`/`group`/`regionCode`, `terms.OnDemand|Reserved[sku][offer]
//! .priceDimensions` with per-unit `pricePerUnit.USD` strings and `beginRange`/`endRange`
//! tiers); the prices are AWS's us-east-1 list prices of DESIGN.md §4.

mod common;

use common::{Case, dec};

fn import(args: &[&str]) -> (tempfile::TempDir, common::Outcome) {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().to_string_lossy().into_owned();
    let mut all = vec!["prices", "import"];
    all.extend_from_slice(args);
    all.extend(["--output-dir", &out_dir]);
    let out = Case::new().args(all).run();
    (dir, out)
}

const OFFER_GZ: &str = "tests/fixtures/pricelist/offer-index.json.gz";
const OFFER: &str = "tests/fixtures/pricelist/offer-index.json";
const PAGE: &str = "tests/fixtures/pricelist/get-products-page.json";

#[test]
fn the_offer_file_becomes_one_table_per_region_with_exact_prices() {
    let (dir, out) = import(&[OFFER_GZ, PAGE]);
    let out = out.success();
    for region in ["us-east-1", "eu-west-1", "us-west-1", "us-east-2"] {
        assert!(
            out.stdout.contains(&format!("aws-{region}:")),
            "{}",
            out.stdout
        );
    }
    let text = std::fs::read_to_string(dir.path().join("aws-us-east-1.yaml")).unwrap();
    let table = ddbcost::api::parse_price_table(&text, "aws-us-east-1.yaml").expect("valid");
    use ddbcost::api::{CapacityKind, PriceKey, ReservedTerm, TableClass};
    let p = |k: PriceKey| table.get(&k);
    // Per-unit prices × 10^6: 0.0000001250 → $0.125 per million RRU; 0.0000006250 → $0.625.
    assert_eq!(
        p(PriceKey::ReadPerMillion(TableClass::Standard)),
        Some(dec("0.125"))
    );
    assert_eq!(
        p(PriceKey::WritePerMillion(TableClass::Standard)),
        Some(dec("0.625"))
    );
    assert_eq!(
        p(PriceKey::ReadPerMillion(TableClass::StandardIa)),
        Some(dec("0.155"))
    );
    // Unit-hours and GB-months as they are; the tier after the free one is the price.
    assert_eq!(
        p(PriceKey::RcuHour(TableClass::Standard)),
        Some(dec("0.00013"))
    );
    assert_eq!(
        p(PriceKey::StorageGbMonth(TableClass::Standard)),
        Some(dec("0.25"))
    );
    // Streams: 0.0000002 per request × 10^6 = $0.20 per million (after 2.5 M free).
    assert_eq!(p(PriceKey::StreamReadsPerMillion), Some(dec("0.2")));
    // Reserved: per-unit fees × 100 per block: 1.50 × 100 = 150 upfront, 0.000128 × 100 =
    // 0.0128 an hour (WCU, 1 year).
    assert_eq!(
        p(PriceKey::ReservedUpfront(
            CapacityKind::Wcu,
            ReservedTerm::OneYear
        )),
        Some(dec("150"))
    );
    assert_eq!(
        p(PriceKey::ReservedHourly(
            CapacityKind::Wcu,
            ReservedTerm::OneYear
        )),
        Some(dec("0.0128"))
    );
    // Absent from the list, absent from the table: never 0.
    assert_eq!(p(PriceKey::BackupGbMonth), None);
    assert_eq!(p(PriceKey::WritePerMillion(TableClass::StandardIa)), None);
    // Provenance: the offer's publication date and version, and the files.
    assert_eq!(table.effective, "2024-11-01");
    assert!(
        table.source.contains("offer version 20241101000000"),
        "{}",
        table.source
    );
    assert!(table.source.contains("offer-index.json.gz"));
    // Free tier: 25 GB, 2.5 M stream reads, 18,600 unit-hours / 744 h = 25 RCU and WCU.
    assert!(
        text.contains("storage_gb: 25\n  stream_reads: 2500000\n  rcu: 25\n  wcu: 25"),
        "{text}"
    );
    // eu-west-1 has no regionCode attribute in the fixture: the `EU-` prefix decides.
    let eu = std::fs::read_to_string(dir.path().join("aws-eu-west-1.yaml")).unwrap();
    assert!(eu.contains("read_per_million: 0.1415") && eu.contains("write_per_million: 0.705"));
    // The get-products page: its entry is a JSON string holding one product.
    let ohio = std::fs::read_to_string(dir.path().join("aws-us-east-2.yaml")).unwrap();
    assert!(ohio.contains("read_per_million: 0.125"), "{ohio}");
}

#[test]
fn an_imported_table_prices_a_bill_to_the_last_decimal() {
    let (dir, out) = import(&[OFFER]);
    out.success();
    let prices = dir.path().join("aws-us-east-1.yaml");
    let (_w, workload) = common::temp_workload(
        "tables:\n  t:\n    item_size: 1 KB\n    items: 2M\n    pitr: true\n    patterns:\n      g: { op: get, rate: 3M/month, consistency: strong }\n      p: { op: put, rate: 1M/month }\n",
    );
    let out = Case::new()
        .args([
            "estimate",
            &workload,
            "--prices",
            &prices.to_string_lossy(),
            "--format",
            "json",
        ])
        .run()
        .success();
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    // Reads 3 M × $0.125 = 0.375; writes 1 M × $0.625 = 0.625; storage and PITR on
    // 2 M × 1,124 B = 2,248,000,000 B / 2^30 GB × ($0.25 + $0.20).
    let gb = dec("2248000000") / dec("1073741824");
    let expected = dec("0.375") + dec("0.625") + gb * dec("0.25") + gb * dec("0.20");
    assert_eq!(dec(doc["total"].as_str().unwrap()), expected);
}

#[test]
fn skus_that_map_to_nothing_are_counted_and_listed_with_verbose() {
    let (_dir, out) = import(&[OFFER]);
    out.success()
        .stderr_has("1 SKU(s) map to no ddbcost price (--verbose lists them)");
    let (_dir, out) = import(&[OFFER, "--verbose"]);
    out.success()
        .stderr_has("SomethingNew-Units (SKU USE1DAXISH): no price-table field");
}

#[test]
fn re_running_replaces_the_tables() {
    let (dir, out) = import(&[OFFER]);
    out.success();
    let path = dir.path().join("aws-us-east-1.yaml");
    std::fs::write(&path, "stale").unwrap();
    Case::new()
        .args([
            "prices",
            "import",
            OFFER,
            "--output-dir",
            &dir.path().to_string_lossy(),
        ])
        .run()
        .success();
    assert!(
        std::fs::read_to_string(&path)
            .unwrap()
            .starts_with("# Imported")
    );
}

#[test]
fn a_file_that_is_not_a_dynamodb_price_list_is_refused() {
    let (_dir, out) = import(&["workloads/cloudshop.yaml"]);
    out.code(1)
        .stderr_has("is not an AWS Price List for AmazonDynamoDB");
    let dir = tempfile::tempdir().unwrap();
    let s3 = dir.path().join("s3.json");
    std::fs::write(&s3, r#"{"offerCode":"AmazonS3","products":{},"terms":{}}"#).unwrap();
    let (_d, out) = import(&[&s3.to_string_lossy()]);
    out.code(1).stderr_has("its offer is `AmazonS3`");
}

#[test]
fn a_price_directory_prices_a_replica_the_bundled_tables_cannot() {
    // The bundled us-west-1 table knows replicated writes only: a us-west-1 replica's storage
    // has no price. An imported us-west-1 table in a price directory fills the gap.
    let (dir, out) = import(&[OFFER]);
    out.success();
    // Keep only the imported us-west-1 table; the primary stays the bundled us-east-1.
    for f in ["aws-us-east-1.yaml", "aws-eu-west-1.yaml"] {
        std::fs::remove_file(dir.path().join(f)).unwrap();
    }
    let (_w, workload) = common::temp_workload(
        "prices: aws-us-east-1\ntables:\n  t:\n    item_size: 1 KB\n    items: 1M\n    replicas: [us-west-1]\n    patterns:\n      p: { op: put, rate: 1M/month }\n",
    );
    Case::new()
        .args(["estimate", &workload])
        .run()
        .code(1)
        .stderr_has("storage_gb_month")
        .stderr_has("ddbcost prices import");
    let prices_dir = dir.path().to_string_lossy().into_owned();
    let check = |out: common::Outcome| {
        let doc: serde_json::Value = serde_json::from_str(&out.success().stdout).unwrap();
        // Replica storage: 1M × 1,172 B (1,024 + 100 + 48 for a global table) / 2^30 GB ×
        // $0.28 (the imported us-west-1 price); replicated writes 1 M × $0.6975.
        let gb = dec("1172000000") / dec("1073741824");
        let storage = common::json_line(&doc, "t/replica/us-west-1/storage");
        assert_eq!(dec(storage["cost"].as_str().unwrap()), gb * dec("0.28"));
        let writes = common::json_line(&doc, "t/replica/us-west-1/writes");
        assert_eq!(dec(writes["cost"].as_str().unwrap()), dec("0.6975"));
    };
    // On the command line…
    check(
        Case::new()
            .args([
                "estimate",
                &workload,
                "--format",
                "json",
                "--prices-dir",
                &prices_dir,
            ])
            .run(),
    );
    // …in the environment…
    let out = common::ddbcost()
        .args(["estimate", &workload, "--format", "json"])
        .env("DDBCOST_PRICES", &prices_dir)
        .output()
        .unwrap();
    check(common::Outcome {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    });
    // …or in the workload, relative to its folder.
    let wdir = tempfile::tempdir().unwrap();
    let sub = wdir.path().join("prices");
    std::fs::create_dir(&sub).unwrap();
    std::fs::copy(
        dir.path().join("aws-us-west-1.yaml"),
        sub.join("aws-us-west-1.yaml"),
    )
    .unwrap();
    let w = wdir.path().join("w.yaml");
    std::fs::write(
        &w,
        "prices: aws-us-east-1\nprice_dirs: [prices]\ntables:\n  t:\n    item_size: 1 KB\n    items: 1M\n    replicas: [us-west-1]\n    patterns:\n      p: { op: put, rate: 1M/month }\n",
    )
    .unwrap();
    check(
        Case::new()
            .args(["estimate", &w.to_string_lossy(), "--format", "json"])
            .run(),
    );
}

#[test]
fn prices_diff_lists_changed_prices_and_moves_workload_totals() {
    // us-east-1 with the read price doubled (0.125 → 0.25 per million RRU). A workload of
    // 3 M strong 1 KB gets = 3 M RRU and 1 GB of storage: before 3 × 0.125 + 1 × 0.25 =
    // 0.625; after 3 × 0.25 + 0.25 = 1.00; +0.375 = +60 %.
    let dir = tempfile::tempdir().unwrap();
    let base = std::fs::read_to_string(common::root().join("pricing/aws-us-east-1.yaml")).unwrap();
    let after = dir.path().join("after.yaml");
    std::fs::write(
        &after,
        base.replace("read_per_million: 0.125 ", "read_per_million: 0.25  "),
    )
    .unwrap();
    let (_w, workload) = common::temp_workload(
        "name: reads\ntables:\n  t:\n    item_size: 1 KB\n    storage: 1 GB\n    patterns:\n      g: { op: get, rate: 3M/month, consistency: strong }\n",
    );
    Case::new()
        .args([
            "prices",
            "diff",
            "aws-us-east-1",
            &after.to_string_lossy(),
            "--workload",
            &workload,
        ])
        .run()
        .success()
        .stdout_has("│ us-east-1 │ standard.read_per_million │ 0.125  │ 0.25  │ +100 % │")
        .stdout_has("1 price(s) changed.")
        .stdout_has("│ reads    │ 0.63   │ 1.00  │ 0.38 (+60 %) │");
}

/// The fixture offer file with `edit` applied to its parsed JSON, written to a temp file.
fn edited_offer(edit: impl FnOnce(&mut serde_json::Value)) -> (tempfile::TempDir, String) {
    let mut doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(OFFER).unwrap()).unwrap();
    edit(&mut doc);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("offer.json");
    std::fs::write(&path, doc.to_string()).unwrap();
    let p = path.to_string_lossy().into_owned();
    (dir, p)
}

#[test]
fn an_ambiguous_sku_is_refused_by_name_never_picked_at_random() {
    let dim = "/terms/OnDemand/EURRU/EURRU.JRTCKXETXF/priceDimensions/EURRU.JRTCKXETXF.R";
    // Two currencies for one price.
    let (_d, two_currencies) = edited_offer(|doc| {
        doc.pointer_mut(&format!("{dim}/pricePerUnit")).unwrap()["CNY"] = "0.000001".into();
    });
    // Two on-demand terms for one SKU.
    let (_d2, two_terms) = edited_offer(|doc| {
        let term = doc["terms"]["OnDemand"]["EURRU"]["EURRU.JRTCKXETXF"].clone();
        doc["terms"]["OnDemand"]["EURRU"]["EURRU.OTHER"] = term;
    });
    // Overlapping tiers: 0–Inf and 10–Inf.
    let (_d3, overlapping) = edited_offer(|doc| {
        let mut tier = doc.pointer(dim).unwrap().clone();
        tier["beginRange"] = "10".into();
        doc.pointer_mut("/terms/OnDemand/EURRU/EURRU.JRTCKXETXF/priceDimensions")
            .unwrap()["EURRU.JRTCKXETXF.S"] = tier;
    });
    for (file, why) in [
        (
            &two_currencies,
            "states its price in 2 currencies (CNY, USD)",
        ),
        (&two_terms, "has 2 on-demand terms"),
        (&overlapping, "has tiers that overlap"),
    ] {
        let (_out_dir, out) = import(&[file.as_str()]);
        out.code(1)
            .stderr_has("SKU EURRU (EU-ReadRequestUnits)")
            .stderr_has(why)
            .stderr_has("ddbcost does not choose between them");
    }
    // A price too small for 28 decimal places is refused, not read as 0: written out, or
    // with an exponent.
    let tiny_text = "0.0000000000000000000000000000125"; // 1.25e-29
    let (_d4, tiny) = edited_offer(|doc| {
        doc.pointer_mut(&format!("{dim}/pricePerUnit")).unwrap()["USD"] = tiny_text.into();
    });
    let (_out_dir, out) = import(&[tiny.as_str()]);
    out.code(1).stderr_has(&format!(
        "SKU EURRU has the price `{tiny_text}`, smaller than a decimal of 28 places holds"
    ));
    let (_d5, tiny) = edited_offer(|doc| {
        doc.pointer_mut(&format!("{dim}/pricePerUnit")).unwrap()["USD"] = "1.25e-29".into();
    });
    let (_out_dir, out) = import(&[tiny.as_str()]);
    out.code(1).stderr_has("SKU EURRU has the price `1.25e-29`");
    // The same list read twice gives the same tables, byte for byte.
    let (a, _) = import(&[OFFER]);
    let (b, _) = import(&[OFFER]);
    for name in ["aws-eu-west-1.yaml", "aws-us-east-1.yaml"] {
        assert_eq!(
            std::fs::read(a.path().join(name)).unwrap(),
            std::fs::read(b.path().join(name)).unwrap()
        );
    }
}

/// A SKU whose only tier is a free tier (0 up to 25 GB, nothing priced after it) gives the
/// allowance but no price: the price stays absent and the SKU is listed, never priced 0.
#[test]
fn a_sku_with_only_a_free_tier_is_not_priced_zero() {
    let (_d, offer) = edited_offer(|doc| {
        doc["terms"]["OnDemand"]["EUSTO"]["EUSTO.JRTCKXETXF"]["priceDimensions"]
            .as_object_mut()
            .unwrap()
            .remove("EUSTO.JRTCKXETXF.P");
    });
    let (dir, out) = import(&[offer.as_str(), "--verbose"]);
    out.success().stderr_has(
        "EU-TimedStorage-ByteHrs (SKU EUSTO): only a free tier, no price after it: `standard.storage_gb_month` stays absent",
    );
    let eu = std::fs::read_to_string(dir.path().join("aws-eu-west-1.yaml")).unwrap();
    assert!(!eu.contains("storage_gb_month"), "{eu}");
}

/// When nothing maps, the error's `--verbose` lists each SKU and why, as it says it will.
#[test]
fn verbose_lists_what_a_list_of_nothing_usable_holds() {
    let (_d, offer) = edited_offer(|doc| {
        let products = doc["products"].as_object_mut().unwrap();
        products.retain(|k, _| k == "USE1DAXISH");
    });
    let (_o, out) = import(&[offer.as_str()]);
    out.code(1)
        .stderr_has("(1 SKU(s) read, none mapped)")
        .stderr_has("`--verbose` lists each SKU");
    let (_o, out) = import(&[offer.as_str(), "--verbose"]);
    out.code(1).stderr_has(
        "SomethingNew-Units (SKU USE1DAXISH): no price-table field for this usage type",
    );
}

/// `prices diff` compares like with like: never USD with EUR, a folder against itself shows
/// nothing (even with two tables of one region), and a table that is gone is listed.
#[test]
fn prices_diff_matches_tables_by_id_refuses_two_currencies_and_lists_removed_tables() {
    Case::new()
        .args(["prices", "diff", "aws-us-east-1", "cloudshop-eur"])
        .run()
        .code(1)
        .stderr_has("`aws-us-east-1` is in USD and `cloudshop-eur` in EUR: prices in two currencies are not compared");
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    std::fs::create_dir_all(&a).unwrap();
    std::fs::create_dir_all(&b).unwrap();
    let east = std::fs::read_to_string(common::root().join("pricing/aws-us-east-1.yaml")).unwrap();
    let custom = east
        .replace("id: aws-us-east-1", "id: negotiated-us-east-1")
        .replace("read_per_million: 0.125 ", "read_per_million: 0.5   ");
    for d in [&a, &b] {
        std::fs::write(d.join("aws-us-east-1.yaml"), &east).unwrap();
        std::fs::write(d.join("negotiated.yaml"), &custom).unwrap();
    }
    std::fs::copy(
        common::root().join("pricing/aws-eu-west-1.yaml"),
        a.join("aws-eu-west-1.yaml"),
    )
    .unwrap();
    let (a, b) = (a.to_string_lossy(), b.to_string_lossy());
    // Against itself: each table is matched by id, so two of us-east-1 change nothing.
    Case::new()
        .args(["prices", "diff", &a, &a])
        .run()
        .success()
        .stdout_has("0 price(s) changed.");
    // eu-west-1 is gone from the second folder.
    Case::new()
        .args(["prices", "diff", &a, &b])
        .run()
        .success()
        .stdout_has("│ eu-west-1 │ (removed table) │ aws-eu-west-1 │")
        .stdout_has("0 price(s) changed; 0 table(s) new, 1 removed.");
}

/// `prices` and `prices show` count a table's known prices the same way: every price in the
/// table, the transfer to a named region included.
#[test]
fn prices_and_prices_show_count_the_same_prices() {
    let list = Case::new()
        .args(["prices", "--format", "json"])
        .run()
        .success();
    let rows: serde_json::Value = serde_json::from_str(&list.stdout).unwrap();
    for row in rows.as_array().unwrap() {
        let id = row["id"].as_str().unwrap();
        let show = Case::new().args(["prices", "show", id]).run().success();
        let known = format!("{} of ", row["prices"]);
        assert!(
            show.stdout.contains(&known),
            "{id}: {known} in {}",
            show.stdout
        );
    }
    // us-east-1 lists its transfer to us-east-2 ($0.01/GB) after the default.
    Case::new()
        .args(["prices", "show", "aws-us-east-1"])
        .run()
        .success()
        .stdout_has("inter_region_transfer_gb.us-east-2")
        // Every price but Standard-IA replicated WCU (37 of 38, vector and Contributor
        // Insights prices included).
        .stdout_has("37 of 38 prices known");
}

// Database Savings Plans rates from the Savings Plans price list (AWSDatabaseSavingsPlans).
// The fixtures' rates are made up; the list prices are the offer fixture's (DESIGN.md §4).
const PLAN_INDEX: &str = "tests/fixtures/pricelist/savings-plans/region_index.json";
const PLAN_CSV: &str = "tests/fixtures/pricelist/savings-plans/eu-west-1-index.csv";

#[test]
fn savings_plans_rates_become_each_regions_savings_plan_rates() {
    let (dir, out) = import(&[OFFER, PLAN_INDEX, PLAN_CSV, "--verbose"]);
    let out = out
        .success()
        .stdout_has("aws-us-east-1: 9 prices, free tier, reserved rcu_1y/rcu_3y/wcu_1y/wcu_3y, 4 savings plan rates ->")
        .stdout_has("aws-eu-west-1: 3 prices, 2 savings plan rates ->")
        // The index names ap-northeast-1 too; its file is not beside it.
        .stderr_has("1 region(s) named by `tests/fixtures/pricelist/savings-plans/region_index.json` are not beside it and were not read: ap-northeast-1")
        .stderr_has("1 savings plan rate(s) for services other than DynamoDB skipped")
        // Reported, never guessed: no us-east-1 replicated WCU list price in the offer, and
        // storage is not covered by a plan.
        .stderr_has("ReplWriteCapacityUnit-Hrs (SKU TESTDBSP1YRNOUP): savings plan rate: `standard.replicated_wcu_hour` has no list price in the inputs for us-east-1")
        .stderr_has("EU-TimedStorage-ByteHrs (SKU TESTDBSP1YRNOUP): savings plan rate: `standard.storage_gb_month` is not throughput a Database Savings Plan covers");
    let _ = out;
    let text = std::fs::read_to_string(dir.path().join("aws-us-east-1.yaml")).unwrap();
    let table = ddbcost::api::parse_price_table(&text, "aws-us-east-1.yaml").expect("valid");
    use ddbcost::api::{PriceKey, TableClass};
    let rates = table.savings_plan_rates.as_ref().expect("rates imported");
    let rate = |k: PriceKey| rates.rates.get(&k).copied();
    let s = TableClass::Standard;
    // Discounted ÷ list, per unit: 0.0000005 ÷ 0.000000625 = 0.8 (writes);
    // 0.0000001 ÷ 0.000000125 = 0.8 (reads); 0.000585 ÷ 0.00065 = 0.9 (WCU-hours);
    // 0.000117 ÷ 0.00013 = 0.9 (RCU-hours).
    assert_eq!(rate(PriceKey::WritePerMillion(s)), Some(dec("0.8")));
    assert_eq!(rate(PriceKey::ReadPerMillion(s)), Some(dec("0.8")));
    assert_eq!(rate(PriceKey::WcuHour(s)), Some(dec("0.9")));
    assert_eq!(rate(PriceKey::RcuHour(s)), Some(dec("0.9")));
    assert_eq!(rates.rates.len(), 4);
    assert_eq!(rates.effective.as_deref(), Some("2026-11-30"));
    assert!(rates.source.contains("AWSDatabaseSavingsPlans (1-year No Upfront), version 20261130180000, from tests/fixtures/pricelist/savings-plans/us-east-1/index.json"), "{}", rates.source);
    // The CSV twin, eu-west-1: 0.000000564 ÷ 0.000000705 = 0.8; 0.0000001132 ÷ 0.0000001415 = 0.8.
    let text = std::fs::read_to_string(dir.path().join("aws-eu-west-1.yaml")).unwrap();
    let eu = ddbcost::api::parse_price_table(&text, "aws-eu-west-1.yaml").expect("valid");
    let eu = eu.savings_plan_rates.expect("rates imported");
    assert_eq!(
        eu.rates.get(&PriceKey::WritePerMillion(s)),
        Some(&dec("0.8"))
    );
    assert_eq!(
        eu.rates.get(&PriceKey::ReadPerMillion(s)),
        Some(&dec("0.8"))
    );
    assert!(
        eu.source
            .ends_with("from tests/fixtures/pricelist/savings-plans/eu-west-1-index.csv"),
        "{}",
        eu.source
    );
    // A region with list prices and no plan rates states none.
    let west = std::fs::read_to_string(dir.path().join("aws-us-west-1.yaml")).unwrap();
    assert!(!west.contains("savings_plan_rates"), "{west}");
}

#[test]
fn a_plan_at_imported_rates_needs_no_hand_typed_rate() {
    let (dir, out) = import(&[OFFER, PLAN_INDEX]);
    out.success();
    // The worked check of tests/commitments.rs, its rates now from the price list: 100 M WRU
    // × $0.625 = $62.50 a month, flat; at the imported 0.8 the $0.05/h commitment covers
    // 0.05 ÷ 0.8 = $0.0625 of list-priced writes an hour: 730 × (0.05 + 0.0856164… − 0.0625)
    // = 36.5 + 62.5 − 45.625 = $53.375.
    let (_w, workload) = common::temp_workload(
        "prices: aws-us-east-1\ncommitments:\n  savings_plan:\n    per_hour: 0.05\ntables:\n  events:\n    item_size: 1KB\n    patterns:\n      put: { op: put, rate: 100M/month }\n",
    );
    let out = Case::new()
        .args([
            "estimate",
            &workload,
            "--prices-dir",
            &dir.path().to_string_lossy(),
            "--format",
            "json",
        ])
        .run()
        .success();
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc["total"], "53.375");
    assert_eq!(doc["savings_plan"]["coverage"], "0.73"); // 45.625 ÷ 62.5
    let sources = doc["savings_plan"]["rate_sources"].to_string();
    assert!(
        sources.contains("AWSDatabaseSavingsPlans") && sources.contains("(effective 2026-11-30)"),
        "{sources}"
    );
}

#[test]
fn savings_plans_files_need_their_offer_and_their_region_files() {
    // Rates alone: each is a share of a list price nobody gave.
    let (_dir, out) = import(&[PLAN_CSV]);
    out.code(1)
        .stderr_has("Savings Plans rates alone make no price table")
        .stderr_has("AmazonDynamoDB offer file");
    // A region index whose region files are not beside it.
    let lonely = tempfile::tempdir().unwrap();
    let index = lonely.path().join("region_index.json");
    std::fs::copy(PLAN_INDEX, &index).unwrap();
    let (_dir, out) = import(&[OFFER, &index.to_string_lossy()]);
    out.code(1)
        .stderr_has("is a region index naming 2 region file(s), none of them beside it")
        .stderr_has("us-east-1/index.json` from https://pricing.us-east-1.amazonaws.com/savingsPlan/v1.0/aws/AWSDatabaseSavingsPlans/20261130180000/us-east-1/index.json");
    // A CSV without the rate columns.
    let bad = lonely.path().join("index.csv");
    std::fs::write(
        &bad,
        "\"FormatVersion\",\"v1.0\"\n\"SKU\",\"Price\"\n\"X\",\"1\"\n",
    )
    .unwrap();
    let (_dir, out) = import(&[OFFER, &bad.to_string_lossy()]);
    out.code(1).stderr_has(
        "is not an AWS Savings Plans price list: no header row naming `DiscountedRate`",
    );
    // A plan file in another currency than the list prices.
    let eur = lonely.path().join("eur.csv");
    std::fs::write(
        &eur,
        std::fs::read_to_string(PLAN_CSV)
            .unwrap()
            .replace("\"USD\"", "\"EUR\""),
    )
    .unwrap();
    let (_dir, out) = import(&[OFFER, &eur.to_string_lossy()]);
    out.code(1)
        .stderr_has("rates EU-WriteRequestUnits in EUR, the list prices are in USD");
    // A discounted price above list (0.000001 against 0.000000705 a WRU) is no discount:
    // reported with the unmapped SKUs, the table written without it.
    let csv = std::fs::read_to_string(PLAN_CSV).unwrap();
    let above = lonely.path().join("above.csv");
    std::fs::write(&above, csv.replace("\"0.000000564\"", "\"0.000001\"")).unwrap();
    let (dir, out) = import(&[OFFER, &above.to_string_lossy(), "--verbose"]);
    out.success().stderr_has(
        "EU-WriteRequestUnits (SKU TESTDBSP1YRNOUP): savings plan rate: a discounted price of 0.000001 per unit against a list price of 0.000000705 is a share of",
    );
    let eu = std::fs::read_to_string(dir.path().join("aws-eu-west-1.yaml")).unwrap();
    assert!(
        eu.contains("    read_per_million: 0.8") && !eu.contains("    write_per_million: 0.8"),
        "{eu}"
    );
    // Two rates for one price under two operations, 0.000000564 ÷ 0.000000705 = 0.8 and
    // 0.000000423 ÷ 0.000000705 = 0.6: refused, not chosen.
    let write_row = csv
        .lines()
        .find(|l| l.contains("EU-WriteRequestUnits"))
        .unwrap();
    let other = write_row
        .replace("\"0.000000564\"", "\"0.000000423\"")
        .replace("PayPerRequestThroughput", "OtherThroughput");
    let two = lonely.path().join("two.csv");
    std::fs::write(&two, format!("{csv}{other}\n")).unwrap();
    let (_dir, out) = import(&[OFFER, &two.to_string_lossy()]);
    out.code(1)
        .stderr_has("the savings plan rates `standard.write_per_million` at 0.8 and at 0.6")
        .stderr_has("ddbcost does not choose between them");
}
