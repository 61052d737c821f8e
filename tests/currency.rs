//! Currency: `--currency EUR --fx-rate 0.92 --fx-date 2026-11-30` (or `settings.fx`) shows an
//! estimate, a comparison or a diff in another currency at one stated, dated rate; every
//! report states it; FOCUS keeps list prices in `PricingCurrency`. us-east-1 list prices
//! (DESIGN.md §4): RRU $0.125, WRU $0.625 per million, storage $0.25 per GB-month;
//! Standard-IA RRU $0.155, WRU $0.78, storage $0.10.
//!
//! The workload below costs, in USD: reads 2 M × 0.125 = 0.25; writes 1 M × 0.625 = 0.625;
//! storage 10 GB × 0.25 = 2.50; total 3.375. At 1 USD = 0.92 EUR: 0.23, 0.575, 2.30 and 3.105.

mod common;

use common::{Case, column, csv_table, json_line, temp_workload};

const ORDERS: &str = "name: orders
prices: aws-us-east-1
tables:
  orders:
    item_size: 1 KB
    storage: 10 GB
    patterns:
      get: { op: get, rate: 2M/month, consistency: strong }
      put: { op: put, rate: 1M/month }
";

const FX: [&str; 8] = [
    "--currency",
    "EUR",
    "--fx-rate",
    "0.92",
    "--fx-date",
    "2026-11-30",
    "--fx-source",
    "ECB reference rate",
];

fn run(path: &str, args: &[&str]) -> common::Outcome {
    let mut all = vec!["estimate", path];
    all.extend_from_slice(args);
    all.extend_from_slice(&FX);
    Case::new().args(all).run().success()
}

#[test]
fn the_table_shows_converted_costs_and_states_the_rate() {
    let (_dir, path) = temp_workload(ORDERS);
    // Total €3.105, rounded half away from zero: € 3.11. Reads €0.23 at €0.115 per million
    // (0.125 × 0.92).
    run(&path, &[])
        .stdout_has("€ 3.11")
        .stdout_has("0.115")
        .stdout_has("Currency: costs and unit prices in EUR, converted from the price table's USD at 1 USD = 0.92 EUR (2026-11-30; ECB reference rate).")
        .stdout_has("Prices: aws-us-east-1 (us-east-1, USD)");
}

#[test]
fn json_carries_the_rate_and_both_prices() {
    let (_dir, path) = temp_workload(ORDERS);
    let out = run(&path, &["--format", "json"]);
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc["currency"], "EUR");
    assert_eq!(doc["total"], "3.105"); // 3.375 × 0.92
    assert_eq!(doc["fx"]["from"], "USD");
    assert_eq!(doc["fx"]["rate"], "0.92");
    assert_eq!(doc["fx"]["date"], "2026-11-30");
    assert_eq!(doc["fx"]["source"], "ECB reference rate");
    let reads = json_line(&doc, "orders/reads");
    assert_eq!(reads["unit_price"], "0.115"); // 0.125 × 0.92
    assert_eq!(reads["pricing_unit_price"], "0.125");
    assert_eq!(reads["cost"], "0.23"); // 2 M × 0.115
    assert_eq!(reads["pricing_cost"], "0.25"); // 2 M × 0.125
    let storage = json_line(&doc, "orders/storage");
    assert_eq!(storage["cost"], "2.3"); // 10 GB × 0.25 × 0.92
    // Without a conversion the document says so with `null` and no pricing fields.
    let plain = Case::new()
        .args(["estimate", &path, "--format", "json"])
        .run()
        .success();
    let doc: serde_json::Value = serde_json::from_str(&plain.stdout).unwrap();
    assert!(doc["fx"].is_null());
    assert!(
        json_line(&doc, "orders/reads")
            .get("pricing_unit_price")
            .is_none()
    );
}

#[test]
fn the_finance_csv_states_the_pricing_currency_and_the_rate() {
    let (_dir, path) = temp_workload(ORDERS);
    let out = run(&path, &["--format", "csv", "--period", "2026-12"]);
    let (header, rows) = csv_table(&out.stdout);
    let col = |n: &str| column(&header, n);
    let writes = rows
        .iter()
        .find(|r| &r[col("key")] == "orders/writes")
        .unwrap();
    assert_eq!(&writes[col("currency")], "EUR");
    assert_eq!(&writes[col("unit_price")], "0.575"); // 0.625 × 0.92
    assert_eq!(&writes[col("cost")], "0.575"); // 1 M × 0.575
    assert_eq!(&writes[col("pricing_currency")], "USD");
    assert_eq!(&writes[col("pricing_unit_price")], "0.625");
    assert_eq!(&writes[col("fx_rate")], "0.92");
    assert_eq!(&writes[col("fx_date")], "2026-11-30");
    assert_eq!(&writes[col("fx_source")], "ECB reference rate");
}

#[test]
fn focus_bills_in_the_shown_currency_and_prices_in_the_listed_one() {
    let (_dir, path) = temp_workload(ORDERS);
    let out = run(&path, &["--format", "focus", "--period", "2026-12"]);
    let (header, rows) = csv_table(&out.stdout);
    let col = |n: &str| column(&header, n);
    let reads = rows
        .iter()
        .find(|r| &r[col("x_LineItemKey")] == "orders/reads")
        .unwrap();
    assert_eq!(&reads[col("BillingCurrency")], "EUR");
    assert_eq!(&reads[col("PricingCurrency")], "USD");
    assert_eq!(&reads[col("BilledCost")], "0.23"); // 2 M × 0.125 × 0.92
    assert_eq!(&reads[col("ListUnitPrice")], "0.115"); // 0.125 × 0.92, in EUR
    assert_eq!(&reads[col("ListCost")], "0.23"); // ListUnitPrice × PricingQuantity (2)
    assert_eq!(&reads[col("PricingCurrencyListUnitPrice")], "0.125");
    assert_eq!(&reads[col("PricingCurrencyContractedUnitPrice")], "0.125");
    assert_eq!(&reads[col("PricingCurrencyEffectiveCost")], "0.25"); // 2 M × 0.125
    assert_eq!(&reads[col("x_FxRate")], "0.92");
    assert_eq!(&reads[col("x_FxDate")], "2026-11-30");
}

#[test]
fn the_workload_may_state_the_conversion_and_the_command_line_overrides_it() {
    let yaml = format!(
        "{ORDERS}settings:\n  fx: {{ currency: EUR, rate: 0.92, date: 2026-11-30, source: \"ECB\" }}\n"
    );
    let (_dir, path) = temp_workload(&yaml);
    let out = Case::new()
        .args(["estimate", &path, "--format", "json"])
        .run()
        .success();
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc["total"], "3.105"); // 3.375 × 0.92
    assert_eq!(doc["fx"]["source"], "ECB");
    // `--currency GBP` with its own rate: 3.375 × 0.79 = 2.66625.
    let out = Case::new()
        .args([
            "estimate",
            &path,
            "--format",
            "json",
            "--currency",
            "GBP",
            "--fx-rate",
            "0.79",
            "--fx-date",
            "2026-11-30",
        ])
        .run()
        .success();
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc["currency"], "GBP");
    assert_eq!(doc["total"], "2.66625");
    assert_eq!(doc["fx"]["source"], "stated on the command line");
    // `--currency USD`: the prices' own currency, no conversion.
    let out = Case::new()
        .args(["estimate", &path, "--format", "json", "--currency", "USD"])
        .run()
        .success();
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc["total"], "3.375");
    assert!(doc["fx"].is_null());
}

#[test]
fn a_bad_workload_rate_is_refused_with_its_path() {
    let yaml = format!("{ORDERS}settings:\n  fx: {{ currency: EUR, rate: 0, date: 2026-11-30 }}\n");
    let (_dir, path) = temp_workload(&yaml);
    Case::new()
        .args(["estimate", &path])
        .run()
        .code(1)
        .stderr_has("settings.fx.rate")
        .stderr_has("is not a positive exchange rate");
    let yaml =
        format!("{ORDERS}settings:\n  fx: {{ currency: euro, rate: 0.92, date: 2026-11-30 }}\n");
    let (_dir, path) = temp_workload(&yaml);
    Case::new()
        .args(["estimate", &path])
        .run()
        .code(1)
        .stderr_has("settings.fx.currency");
}

#[test]
fn a_comparison_converts_every_scenario_and_its_deltas() {
    let (_dir, path) = temp_workload(ORDERS);
    let mut args = vec![
        "compare",
        path.as_str(),
        "--set",
        "tables.orders.class=standard-ia",
        "--format",
        "json",
    ];
    args.extend_from_slice(&FX);
    let out = Case::new().args(args).run().success();
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc["baseline"]["total"], "3.105");
    // Standard-IA in USD: 2 × 0.155 + 1 × 0.78 + 10 × 0.10 = 2.09; × 0.92 = 1.9228.
    let s = &doc["scenarios"][0];
    assert_eq!(s["total"], "1.9228");
    // 1.9228 − 3.105 = −1.1822.
    assert_eq!(s["delta"], "-1.1822");
}

#[test]
fn a_diff_across_currencies_works_with_a_rate() {
    // cloudshop.yaml is priced in EUR (€1,243.54, the seeds' case); the inline workload in USD.
    let (_dir, path) = temp_workload(ORDERS);
    let cloudshop = common::root().join("workloads/cloudshop.yaml");
    let cloudshop = cloudshop.to_str().unwrap();
    Case::new()
        .args(["diff", cloudshop, &path])
        .run()
        .code(1)
        .stderr_has("a diff needs one currency")
        .stderr_has("--currency EUR --fx-rate USD=RATE");
    let out = Case::new()
        .args([
            "diff",
            cloudshop,
            &path,
            "--format",
            "json",
            "--currency",
            "EUR",
            "--fx-rate",
            "USD=0.92",
            "--fx-date",
            "2026-11-30",
        ])
        .run()
        .success();
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc["baseline"]["total"], "1243.54");
    assert!(doc["baseline"]["fx"].is_null());
    let s = &doc["scenarios"][0];
    assert_eq!(s["total"], "3.105"); // 3.375 × 0.92
    assert_eq!(s["delta"], "-1240.435"); // 3.105 − 1243.54
}

#[test]
fn a_rate_per_currency_picks_the_one_the_prices_are_in() {
    let (_dir, path) = temp_workload(ORDERS);
    let out = Case::new()
        .args([
            "estimate",
            &path,
            "--format",
            "json",
            "--currency",
            "EUR",
            "--fx-rate",
            "JPY=0.0061",
            "--fx-rate",
            "USD=0.92",
            "--fx-date",
            "2026-11-30",
        ])
        .run()
        .success();
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc["total"], "3.105"); // the USD rate: 3.375 × 0.92
    Case::new()
        .args([
            "estimate",
            &path,
            "--currency",
            "EUR",
            "--fx-rate",
            "JPY=0.0061",
            "--fx-date",
            "2026-11-30",
        ])
        .run()
        .code(2)
        .stderr_has("no exchange rate from USD to EUR");
}

#[test]
fn the_readme_figures_are_the_usd_ones_times_the_rate() {
    // README's Currency example: the marketplace's reads component is $679.11047 (its CSV
    // by component); × 0.92 = €624.7816324 → 624.78.
    let path = common::root().join("workloads/marketplace-us-east-1.yaml");
    let path = path.to_str().unwrap();
    Case::new()
        .args(["estimate", path, "--by", "component", "--format", "csv"])
        .run()
        .success()
        .stdout_has("reads,679.11047,679.11,USD");
    run(path, &["--by", "component", "--format", "csv"]).stdout_has("reads,624.7816324,624.78,EUR");
}

mod properties {
    use proptest::prelude::*;
    use rust_decimal::Decimal;

    use ddbcost::api::Fx;

    fn fx(rate: Decimal) -> Fx {
        Fx {
            from: "USD".into(),
            to: "EUR".into(),
            rate,
            date: "2026-11-30".into(),
            source: "property".into(),
        }
    }

    /// The marketplace example priced in USD, once.
    fn marketplace() -> &'static ddbcost::api::Estimate {
        static ESTIMATE: std::sync::OnceLock<ddbcost::api::Estimate> = std::sync::OnceLock::new();
        ESTIMATE.get_or_init(|| {
            let path = super::common::root().join("workloads/marketplace-us-east-1.yaml");
            // As the command line prices it (its samples measured from its folder).
            ddbcost::api::Session::on_day(20_789)
                .estimate(path.to_str().unwrap())
                .unwrap()
        })
    }

    proptest! {
        /// Any rate `--fx-rate` accepts (positive, at most 1,000,000, at most 10 decimals):
        /// each line is its listed cost × the rate, the shares add up to the line (to the 28th
        /// significant digit), and the lines to the total: their exact sum, rounded once.
        #[test]
        fn conversion_is_exact(
            (scale, mantissa) in (0u32..=10).prop_flat_map(|s| (Just(s), 1u64..=10u64.pow(6 + s)))
        ) {
            let rate = Decimal::from_i128_with_scale(i128::from(mantissa), scale);
            prop_assert!(ddbcost::api::parse_fx_rate(&rate.to_string()).is_ok());
            let e = marketplace().clone();
            {
                let c = ddbcost::api::convert(e, &fx(rate)).unwrap();
                let mut costs = Vec::new();
                for l in &c.line_items {
                    prop_assert_eq!(l.unit_price, l.pricing_unit_price.checked_mul(rate).unwrap());
                    if let (Some(cost), Some(listed)) = (l.cost, l.pricing_cost) {
                        prop_assert_eq!(cost, listed.checked_mul(rate).unwrap());
                        if !l.attribution.is_empty() {
                            // A decimal holds 28 significant digits: a product that needs
                            // more (a storage cost with 24 decimals × a rate with 10) is rounded
                            // at the last one, so the shares may miss by that digit, never more
                            // than 10^-18 (far below a millionth of a cent).
                            let shares: Decimal = l.attribution.iter().map(|a| a.cost).sum();
                            let off = shares.checked_sub(cost).unwrap().abs();
                            prop_assert!(off <= Decimal::new(1, 18), "{shares} vs {cost}");
                        }
                        costs.push(cost);
                    }
                }
                prop_assert_eq!(super::common::exact_total(costs), c.total);
            }
        }
    }
}

#[test]
fn an_absurd_rate_is_refused() {
    let (_dir, path) = temp_workload(ORDERS);
    for rate in ["79228162514264337593543950335", "1000001", "0.00000000001"] {
        Case::new()
            .args([
                "estimate",
                &path,
                "--currency",
                "EUR",
                "--fx-rate",
                rate,
                "--fx-date",
                "2026-11-30",
            ])
            .run()
            .code(2)
            .stderr_has("rates are at most 1,000,000 with at most 10 decimal places");
    }
}

/// A currency with no minor unit (ISO 4217: the guaraní) is shown without decimals: CloudShop's
/// €1,243.54 × 8,500 PYG a euro = 10,570,090 PYG.
#[test]
fn a_zero_decimal_currency_is_shown_without_decimals() {
    let out = common::Case::new()
        .args([
            "estimate",
            "workloads/cloudshop.yaml",
            "--currency",
            "PYG",
            "--fx-rate",
            "EUR=8500",
            "--fx-date",
            "2026-12-01",
        ])
        .run()
        .success();
    assert!(out.stdout.contains("10,570,090"), "{}", out.stdout);
    assert!(!out.stdout.contains("10,570,090.00"), "{}", out.stdout);
    assert!(out.stdout.contains("0 decimal(s) of PYG"));
}
