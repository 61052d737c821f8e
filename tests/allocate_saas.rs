//! The SaaS dashboard seed's month (`tests/common/saas.rs`: 200 organisations, their
//! requests with `ConsumedCapacity`, an export, a CUR bill) split by `ddbcost allocate`, three
//! organisations worked by hand; the sample bundled in `workloads/samples/saas/` is what the
//! generator writes.

mod common;

use std::io::Read;

use common::{Case, dec, root, saas};
use serde_json::Value;

fn gunzip(path: &std::path::Path) -> String {
    let mut s = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(path).unwrap())
        .read_to_string(&mut s)
        .unwrap();
    s
}

/// `DDBCOST_REGENERATE=1 cargo test --test allocate_saas` writes the sample again.
#[test]
fn the_bundled_sample_is_what_the_generator_writes() {
    let dir = root().join("workloads/samples/saas");
    let files = [
        ("requests-2026-11.jsonl.gz", saas::log()),
        ("export/data/items.json.gz", saas::export_items()),
    ];
    if std::env::var_os("DDBCOST_REGENERATE").is_some() {
        std::fs::create_dir_all(dir.join("export/data")).unwrap();
        for (name, text) in &files {
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
            std::io::Write::write_all(&mut gz, text.as_bytes()).unwrap();
            std::fs::write(dir.join(name), gz.finish().unwrap()).unwrap();
        }
        std::fs::write(dir.join("export/manifest-summary.json"), saas::MANIFEST).unwrap();
        std::fs::write(dir.join("cur-2026-11.csv"), saas::bill()).unwrap();
    }
    for (name, text) in &files {
        assert_eq!(&gunzip(&dir.join(name)), text, "{name}");
    }
    assert_eq!(
        std::fs::read_to_string(dir.join("export/manifest-summary.json")).unwrap(),
        saas::MANIFEST
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("cur-2026-11.csv")).unwrap(),
        saas::bill()
    );
}

const ARGS: [&str; 9] = saas::ALLOCATE;

#[test]
fn three_organisations_of_the_seed_worked_by_hand() {
    let out = Case::new()
        .args(ARGS)
        .args(["--format", "json"])
        .run()
        .success();
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    let named = |name: &str| {
        doc["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["name"] == name)
            .map_or_else(
                || panic!("no row {name}"),
                |r| dec(r["unblended"].as_str().unwrap()),
            )
    };
    // Reads $38.63 over 3,863 units: $0.01 a unit. Writes $14.375 over 230: $0.0625.
    // Storage $1.58935 over 158,935 bytes: 10^-5 a byte; PITR $0.31787: 2 × 10^-6.
    // o001: 750 read units (100 × 7.5) = 7.50; 25 (the batch) + 2 (a project: 1 on the
    // table, 1 on GSI2) write units = 1.6875; 26,600 bytes = 0.266 + 0.0532.
    assert_eq!(named("o001"), dec("9.5067"));
    // o002: 15 read units = 0.15; 1 write unit = 0.0625; 665 bytes = 0.00665 + 0.00133.
    assert_eq!(named("o002"), dec("0.22048"));
    // o200: o002's, and a transaction of 2 items (4 units) = 0.25 more.
    assert_eq!(named("o200"), dec("0.47048"));
    // The operator's scan (128 units) names no organisation: $1.28. Tax: $3.50 apart.
    assert_eq!(named("untenanted requests"), dec("1.28"));
    assert_eq!(
        named("credits, refunds, taxes and unmapped usage"),
        dec("3.5")
    );
    // 200 organisations, each with a row; Σ rows = the bill: 38.63 + 14.375 + 1.58935 +
    // 0.31787 + 3.50 = 58.41222.
    let rows = doc["rows"].as_array().unwrap();
    assert_eq!(rows.iter().filter(|r| r["remainder"] == false).count(), 200);
    let sum: rust_decimal::Decimal = rows
        .iter()
        .map(|r| dec(r["unblended"].as_str().unwrap()))
        .sum();
    assert_eq!(sum, dec("58.41222"));
    let shown: rust_decimal::Decimal = rows
        .iter()
        .map(|r| dec(r["unblended_rounded"].as_str().unwrap()))
        .sum();
    assert_eq!(shown, dec("58.41"));
}

#[test]
fn by_pattern_the_seed_splits_into_its_access_patterns() {
    let out = Case::new()
        .args(&ARGS[..7])
        .args(["--by", "pattern", "--format", "json"])
        .run()
        .success();
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    let named = |name: &str| {
        doc["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["name"] == name)
            .map(|r| dec(r["unblended"].as_str().unwrap()))
    };
    // dashboard: (750 + 199 × 15) = 3,735 read units × $0.01 = 37.35; operator-report:
    // 128 × 0.01 = 1.28; create-task: (25 + 199) × 0.0625 = 14.00; create-project 2 ×
    // 0.0625 = 0.125; create-organization 4 × 0.0625 = 0.25.
    assert_eq!(named("dashboard"), Some(dec("37.35")));
    assert_eq!(named("operator-report"), Some(dec("1.28")));
    assert_eq!(named("create-task"), Some(dec("14")));
    assert_eq!(named("create-project"), Some(dec("0.125")));
    assert_eq!(named("create-organization"), Some(dec("0.25")));
}

#[test]
fn the_seeds_patterns_are_set_against_their_design() {
    // The tenant comes from the workload's `tenants:` (no --tenant).
    let out = Case::new()
        .args([
            "allocate",
            "--bill",
            "workloads/samples/saas/cur-2026-11.csv",
            "--log",
            "workloads/samples/saas/requests-2026-11.jsonl.gz",
            "--workload",
            "workloads/saas-dashboard.yaml",
            "--format",
            "json",
        ])
        .run()
        .success();
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(
        doc["rows"][0]["name"], "o001",
        "the tenant read from `tenants:`"
    );
    let pattern = |name: &str| {
        doc["patterns"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["pattern"] == name)
            .unwrap_or_else(|| panic!("no pattern {name}"))
            .clone()
    };
    // dashboard: 498 queries (100 + 199 × 2) of 7.5 units; designed: 511 items × 114 B =
    // 58,254 B → 15 units of 4 KB, eventual: 7.5. As designed.
    let d = pattern("dashboard");
    assert_eq!(d["requests"], 498);
    assert_eq!(dec(d["units_per_request"].as_str().unwrap()), dec("7.5"));
    assert_eq!(
        dec(d["designed_units_per_request"].as_str().unwrap()),
        dec("7.5")
    );
    assert_eq!(d["verdict"], "as designed");
    // create-task: 200 requests (a batch of 25, 199 puts) for 224 write units: 1.12 a
    // request against 1 (a 150 B put). Its designed cost, priced for the bill's month
    // (November: 720 hours): 3,000 a day × 720 h ÷ 24 = 90,000 puts × 1 WRU × $0.625 a
    // million = $0.05625; × 0.12 = $0.00675 a month more.
    let t = pattern("create-task");
    assert_eq!(dec(t["units_per_request"].as_str().unwrap()), dec("1.12"));
    assert_eq!(dec(t["monthly_delta"].as_str().unwrap()), dec("0.00675"));
    assert!(
        t["verdict"]
            .as_str()
            .unwrap()
            .starts_with("more write units a request")
    );
    // The operator's scan is no pattern of the workload.
    assert_eq!(pattern("operator-report")["verdict"], "not in the workload");
}

#[test]
fn the_html_page_shows_the_costliest_tenants_and_adds_up() {
    let out = Case::new()
        .args(ARGS)
        .args(["--format", "html", "--top", "3"])
        .run()
        .success();
    // The bars: the ten costliest by default in the chart, o001 first; the table: three one
    // by one and the 197 others summed; the total $58.41.
    assert!(out.stdout.starts_with("<!DOCTYPE html>"));
    assert!(out.stdout.contains("<svg"), "a chart");
    assert!(out.stdout.contains("<td>o001</td>"));
    assert!(out.stdout.contains("(197 other tenants)"));
    assert!(out.stdout.contains("<th class=\"n\">58.41</th>"));
}
