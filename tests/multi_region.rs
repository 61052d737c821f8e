//! Multi-region workloads: a table may state its own `region`; it is priced with that
//! region's table (same currency), its lines carry the region, and FOCUS fills `RegionId`
//! per row. eu-west-1 list prices (DESIGN.md §4): RRU $0.1415 and WRU $0.705 per million,
//! storage $0.283 per GB-month; us-east-1: RRU $0.125, WRU $0.625, storage $0.25.

mod common;

use common::{Case, cost, dec, estimate};

const TWO_REGIONS: &str = "prices: aws-us-east-1
tables:
  us:
    item_size: 1 KB
    storage: 10 GB
    patterns:
      g: { op: get, rate: 2M/month, consistency: strong }
  eu:
    region: eu-west-1
    item_size: 1 KB
    storage: 10 GB
    patterns:
      g: { op: get, rate: 2M/month, consistency: strong }
      p: { op: put, rate: 1M/month }
";

#[test]
fn each_table_is_priced_in_its_own_region() {
    let e = estimate(TWO_REGIONS, "aws-us-east-1");
    // us: 2 M RRU × $0.125 = $0.25; 10 GB × $0.25 = $2.50.
    assert_eq!(cost(&e, "us/reads"), dec("0.25"));
    assert_eq!(cost(&e, "us/storage"), dec("2.5"));
    // eu: 2 M RRU × $0.1415 = $0.283; 1 M WRU × $0.705; 10 GB × $0.283 = $2.83.
    assert_eq!(cost(&e, "eu/reads"), dec("0.283"));
    assert_eq!(cost(&e, "eu/writes"), dec("0.705"));
    assert_eq!(cost(&e, "eu/storage"), dec("2.83"));
    let region = |key: &str| common::line(&e, key).region.to_string();
    assert_eq!(region("eu/reads"), "eu-west-1");
    assert_eq!(region("us/reads"), "us-east-1");
}

#[test]
fn focus_states_each_rows_region() {
    let (_dir, path) = common::temp_workload(TWO_REGIONS);
    let out = Case::new()
        .args([
            "estimate", &path, "--format", "focus", "--period", "2026-12",
        ])
        .run()
        .success();
    let (header, rows) = common::csv_table(&out.stdout);
    let region = common::column(&header, "RegionId");
    let resource = common::column(&header, "ResourceName");
    for r in &rows {
        let expected = if &r[resource] == "eu" {
            "eu-west-1"
        } else {
            "us-east-1"
        };
        assert_eq!(&r[region], expected, "{r:?}");
    }
}

#[test]
fn by_region_sums_each_regions_lines() {
    // us-east-1: 0.25 + 2.50 = 2.75; eu-west-1: 0.283 + 0.705 + 2.83 = 3.818.
    let (_dir, path) = common::temp_workload(TWO_REGIONS);
    Case::new()
        .args(["estimate", &path, "--format", "csv", "--by", "region"])
        .run()
        .success()
        .stdout_has("region,cost,cost_rounded,currency\nus-east-1,2.75,2.75,USD\neu-west-1,3.818,3.82,USD\n");
}

const FREE_TIER_TWO_REGIONS: &str = "prices: aws-us-east-1
tables:
  us:
    item_size: 1 KB
    storage: 10 GB
    patterns:
      g: { op: get, rate: 2M/month, consistency: strong }
  ohio:
    region: us-east-2
    item_size: 1 KB
    storage: 40 GB
    capacity: { mode: provisioned, rcu: 10, wcu: 5 }
    patterns:
      g: { op: get, rate: 2M/month, consistency: strong }
";

#[test]
fn the_free_tier_is_each_regions_own() {
    let settings = ddbcost::api::Settings {
        free_tier: true,
        ..ddbcost::api::Settings::default()
    };
    let e = common::estimate_with(FREE_TIER_TWO_REGIONS, "aws-us-east-1", settings);
    // us-east-1: 10 GB used of its 25 free: −10 × $0.25 = −$2.50.
    assert_eq!(cost(&e, "account/free-tier/storage"), dec("-2.5"));
    // us-east-2 has its own 25 GB: 40 GB used, 25 credited: −25 × $0.25 = −$6.25.
    assert_eq!(
        cost(&e, "account/free-tier/us-east-2/storage"),
        dec("-6.25")
    );
    // Its provisioned capacity: 10 RCU × 730 h = 7,300 RCU-hours, all within 25 × 730:
    // −7,300 × $0.00013 = −$0.949; 5 WCU × 730 = 3,650 × $0.00065 = −$2.3725.
    assert_eq!(cost(&e, "account/free-tier/us-east-2/rcu"), dec("-0.949"));
    assert_eq!(cost(&e, "account/free-tier/us-east-2/wcu"), dec("-2.3725"));
    let l = common::line(&e, "account/free-tier/us-east-2/storage");
    assert_eq!(&*l.region, "us-east-2");
    assert!(l.label.to_string().ends_with("in us-east-2"), "{}", l.label);
}

#[test]
fn a_region_without_a_stated_allowance_is_refused_under_free_tier() {
    // eu-central-1's bundled table states no free tier: asking for it must not invent one.
    let yaml = "prices: aws-us-east-1
tables:
  fra:
    region: eu-central-1
    item_size: 1 KB
    storage: 40 GB
    patterns:
      g: { op: get, rate: 2M/month, consistency: eventual }
";
    let settings = ddbcost::api::Settings {
        free_tier: true,
        ..ddbcost::api::Settings::default()
    };
    let err = common::try_estimate(yaml, "aws-us-east-1", settings).unwrap_err();
    assert!(err.to_string().contains("aws-eu-central-1"), "{err}");
}

#[test]
fn an_unknown_quantity_needs_no_price_and_a_known_one_is_priced() {
    // us-west-1's bundled table knows replicated writes (0.6975 per million rWRU) and no
    // storage price. The replica's storage is unknown (no items, no size): it depends on usage
    // and needs no price, so the estimate is not refused for it; the replicated writes are
    // priced: 3 M rWRU × $0.6975 = $2.0925.
    let text = "prices: aws-us-east-1
tables:
  t:
    item_size: 1 KB
    replicas: [us-west-1]
    patterns:
      put: { op: put, rate: 3M/month }
";
    let e = common::estimate(text, "aws-us-east-1");
    assert_eq!(
        common::cost(&e, "t/replica/us-west-1/writes"),
        common::dec("2.0925")
    );
    let storage = common::line(&e, "t/replica/us-west-1/storage");
    assert_eq!(storage.quantity, None);
    assert_eq!(storage.price_missing_from.as_deref(), Some("aws-us-west-1"));
    let (_dir, path) = common::temp_workload(text);
    let out = Case::new().args(["estimate", &path]).run().success();
    assert!(
        out.stdout.contains("(price not in table aws-us-west-1)"),
        "{}",
        out.stdout
    );
    let out = Case::new()
        .args(["estimate", &path, "--format", "json"])
        .run()
        .success();
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let line = common::json_line(&doc, "t/replica/us-west-1/storage");
    assert_eq!(line["unit_price"], serde_json::Value::Null);
    assert_eq!(line["price_missing_from"], "aws-us-west-1");
    // Once the size is known, the price is needed, and its absence is refused by name.
    let sized = text.replace(
        "    item_size: 1 KB\n",
        "    item_size: 1 KB\n    storage: 10 GB\n",
    );
    let err = common::try_estimate(&sized, "aws-us-east-1", ddbcost::api::Settings::default())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("`standard.storage_gb_month` is not in price table `aws-us-west-1`"),
        "{err}"
    );
}
