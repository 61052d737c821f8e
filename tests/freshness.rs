//! Freshness of prices: a price table that took effect more than 365 days before the month
//! priced (`--period`, else today) gets a note on standard error and in the report's warnings;
//! `--max-price-age DAYS` makes such an age an error (exit 1), for CI. CloudShop's table took
//! effect on 2025-03-01.

mod common;

use common::Case;

fn csv(period: &str, extra: &[&str]) -> common::Outcome {
    let mut args = vec![
        "estimate",
        "workloads/cloudshop.yaml",
        "--format",
        "csv",
        "--period",
        period,
    ];
    args.extend_from_slice(extra);
    Case::new().args(args).run()
}

#[test]
fn a_table_older_than_a_year_gets_a_note() {
    // 2025-03-01 → 2026-12-01: 306 days to 2026-01-01, then 334 = 640 days.
    csv("2026-12", &[])
        .success()
        .stderr_has("note: price table `cloudshop-eur` took effect on 2025-03-01, 640 days before the start of 2026-12");
    // Three months later it is fresh: no note.
    let out = csv("2025-06", &[]).success();
    assert!(!out.stderr.contains("took effect"), "{}", out.stderr);
}

#[test]
fn max_price_age_makes_an_old_table_an_error() {
    csv("2026-12", &["--max-price-age", "600"])
        .code(1)
        .stderr_has("640 days before the start of 2026-12: more than --max-price-age 600")
        .stderr_has("ddbcost prices import");
    csv("2026-12", &["--max-price-age", "640"]).success();
}
