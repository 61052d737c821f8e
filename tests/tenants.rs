//! `estimate --by tenant`: a table's tenants priced before launch — tiers and a Zipf spread —
//! with every figure derived by hand from the rule and the us-east-1 list prices
//! ($0.125 per million read request units, $0.625 per million write request units, $0.25
//! per GB-month of standard storage), and the refusals of a spread that does not add up.

mod common;

use common::{Case, dec, temp_workload};
use serde_json::Value;

/// `saas`: reads $1.00 (8M strong 1 KB gets × 1 RRU × $0.125/M), writes $1.00 (1.6M puts of
/// 1 KB × 1 WRU × $0.625/M), storage $1.00 (4 GB × $0.25); `other` (no tenants) reads $1.00.
fn workload(tenants: &str) -> String {
    format!(
        "prices: aws-us-east-1\ntables:\n  saas:\n    item_size: 1 KB\n    storage: 4 GB\n{tenants}    patterns:\n      get: {{ op: get, rate: 8M/month, consistency: strong }}\n      put: {{ op: put, rate: 1.6M/month }}\n  other:\n    item_size: 1 KB\n    storage: 0 GB\n    patterns:\n      get: {{ op: get, rate: 8M/month, consistency: strong }}\n"
    )
}

const TIERS: &str = "    tenants:\n      key: PK\n      pattern: 'ORG#([^#]+)'\n      tiers:\n        big: { count: 2, share: 50%, storage_share: 25%, patterns: { put: 80% } }\n        small: { count: 8, share: 50%, storage_share: 75%, patterns: { put: 20% } }\n";

fn json(yaml: &str) -> Value {
    let (_dir, path) = temp_workload(yaml);
    let out = Case::new()
        .args(["estimate", &path, "--by", "tenant", "--format", "json"])
        .run()
        .success();
    serde_json::from_str(&out.stdout).unwrap()
}

fn row<'a>(doc: &'a Value, group: &str) -> &'a Value {
    doc["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["group"] == group)
        .unwrap_or_else(|| panic!("no row {group}: {doc}"))
}

#[test]
fn tiers_take_their_share_of_each_pattern_and_of_the_bytes() {
    let doc = json(&workload(TIERS));
    // big: reads 1.00 × 50% + writes 1.00 × 80% (its own share of `put`) + storage 1.00 ×
    // 25% = 1.55, for 2 tenants: 0.775 each.
    assert_eq!(
        dec(row(&doc, "big")["total"].as_str().unwrap()),
        dec("1.55")
    );
    assert_eq!(
        dec(row(&doc, "big")["per_tenant"].as_str().unwrap()),
        dec("0.775")
    );
    // small: 0.50 + 0.20 + 0.75 = 1.45, for 8 tenants: 0.18125 each.
    assert_eq!(
        dec(row(&doc, "small")["total"].as_str().unwrap()),
        dec("1.45")
    );
    assert_eq!(
        dec(row(&doc, "small")["per_tenant"].as_str().unwrap()),
        dec("0.18125")
    );
    // `other` states no tenants: its $1.00 of reads is a remainder; the total is $4.00.
    assert_eq!(
        dec(row(&doc, "(remainder) tables without tenants")["total"]
            .as_str()
            .unwrap()),
        dec("1")
    );
    assert_eq!(dec(doc["total"].as_str().unwrap()), dec("4"));
    // Ranked by cost, the 10 tenants are big, big, then 8 small: the 5th (the median,
    // (10 + 1) ÷ 2 rounded down) is small's 0.18125; the busiest big's 0.775.
    let t = &doc["tables"][0];
    assert_eq!(t["tenants"], 10);
    assert_eq!(dec(t["median_tenant"].as_str().unwrap()), dec("0.18125"));
    assert_eq!(dec(t["busiest_tenant"].as_str().unwrap()), dec("0.775"));
}

#[test]
fn the_table_view_adds_up_and_shows_a_thousand_tenants() {
    let (_dir, path) = temp_workload(&workload(TIERS));
    // Per 1,000 small tenants: 0.18125 × 1,000 = 181.25.
    Case::new()
        .args(["estimate", &path, "--by", "tenant"])
        .run()
        .success()
        .stdout_has("│ saas  │ small")
        .stdout_has("181.25")
        .stdout_has("(remainder) tables without tenants")
        .stdout_has("the median tenant costs 0.18 a month, the busiest 0.78");
    let out = Case::new()
        .args(["estimate", &path, "--by", "tenant", "--format", "csv"])
        .run()
        .success();
    // The rounded totals add up to the total: 1.55 + 1.45 + 1.00 = 4.00.
    let (header, rows) = common::csv_table(&out.stdout);
    let i = common::column(&header, "total_rounded");
    let sum: rust_decimal::Decimal = rows.iter().map(|r| dec(&r[i])).sum();
    assert_eq!(sum, dec("4.00"));
    Case::new()
        .args(["estimate", &path, "--by", "tenant", "--format", "markdown"])
        .run()
        .success()
        .stdout_has("|---");
    Case::new()
        .args(["estimate", &path, "--by", "tenant", "--format", "focus"])
        .run()
        .code(2)
        .stderr_has("`--by tenant` shapes");
}

#[test]
fn a_zipf_spread_ranks_the_tenants() {
    let doc = json(&workload(
        "    tenants: { key: PK, pattern: 'ORG#(.+)', count: 3, zipf: 1 }\n",
    ));
    // Weights 1, 1/2, 1/3 (Σ 11/6): shares 6/11, 3/11, 2/11 of the table's $3.00 —
    // 18/11 = 1.636363…, 9/11 = 0.818181…, 6/11 = 0.545454….
    let each = |g: &str| dec(row(&doc, g)["total"].as_str().unwrap()).round_dp(10);
    assert_eq!(each("#1"), dec("1.6363636364"));
    assert_eq!(each("#2"), dec("0.8181818182"));
    assert_eq!(each("#3"), dec("0.5454545455"));
    // The median of 3 is the 2nd.
    let median = dec(doc["tables"][0]["median_tenant"].as_str().unwrap()).round_dp(10);
    assert_eq!(median, dec("0.8181818182"));
    // Past the 5 busiest, the tail is one group: with 8 tenants, #6–#8.
    let doc = json(&workload(
        "    tenants: { key: PK, pattern: 'ORG#(.+)', count: 8, zipf: 0 }\n",
    ));
    // zipf 0: all alike, 3.00 ÷ 8 = 0.375 each; the tail of 3 takes 1.125.
    assert_eq!(
        dec(row(&doc, "#6–#8")["total"].as_str().unwrap()).round_dp(12),
        dec("1.125")
    );
    assert_eq!(
        dec(row(&doc, "#1")["total"].as_str().unwrap()).round_dp(12),
        dec("0.375")
    );
}

#[test]
fn a_spread_that_does_not_add_up_is_refused_where_it_is_written() {
    let cases = [
        (
            TIERS.replacen("share: 50%, storage", "share: 40%, storage", 1),
            "the tiers' shares add up to 0.9, not 1",
        ),
        (
            TIERS.replace("put: 20%", "put: 30%"),
            "shares of pattern `put` add up to 1.1, not 1",
        ),
        (
            TIERS.replace("put: 80%", "puts: 80%"),
            "the table has no pattern `puts`",
        ),
        (
            "    tenants: { key: PK, pattern: 'ORG#(', count: 3, zipf: 1 }\n".to_string(),
            "the pattern does not compile",
        ),
        (
            "    tenants: { key: PK, pattern: 'ORG#(.+)', count: 0, zipf: 1 }\n".to_string(),
            "a table has 1 to 1000000 tenants, not 0",
        ),
        (
            "    tenants: { key: PK, pattern: 'ORG#(.+)', count: 3 }\n".to_string(),
            "either by `tiers`, or by `count` and `zipf`",
        ),
        (
            "    tenants: { key: PK, pattern: 'ORG#(.+)', count: 3, zipf: 9 }\n".to_string(),
            "a Zipf exponent from 0 to 4",
        ),
        (
            "    tenants: { key: PK, pattern: 'ORG#(.+)', count: 3, zipff: 1 }\n".to_string(),
            "zipff",
        ),
    ];
    for (tenants, message) in cases {
        let (_dir, path) = temp_workload(&workload(&tenants));
        Case::new()
            .args(["estimate", &path, "--by", "tenant"])
            .run()
            .code(1)
            .stderr_has(message)
            .stderr_has("tables.saas.tenants");
    }
    // A workload whose tables state no tenants.
    let (_dir, path) = temp_workload(&workload(""));
    Case::new()
        .args(["estimate", &path, "--by", "tenant"])
        .run()
        .code(2)
        .stderr_has("no table of this workload states its `tenants:`");
}

#[test]
fn compare_moves_each_tenant_with_a_change() {
    let (_dir, path) = temp_workload(&workload(TIERS));
    let out = Case::new()
        .args([
            "compare",
            &path,
            "--set",
            "tables.saas.patterns.get.consistency=eventual",
            "--by",
            "tenant",
            "--format",
            "json",
        ])
        .run()
        .success();
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    let row = |g: &str| {
        doc["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["group"] == g)
            .unwrap()
            .clone()
    };
    // Eventual reads halve the $1.00 of reads: big's 50% falls from 0.50 to 0.25, so one of
    // its 2 tenants goes from 0.775 to (1.55 − 0.25) ÷ 2 = 0.65 (−0.125); a small tenant
    // from 0.18125 to (1.45 − 0.25) ÷ 8 = 0.15 (−0.03125).
    let big = row("big");
    assert_eq!(dec(big["baseline"].as_str().unwrap()), dec("0.775"));
    assert_eq!(
        dec(big["scenarios"][0]["value"].as_str().unwrap()),
        dec("0.65")
    );
    assert_eq!(
        dec(big["scenarios"][0]["delta"].as_str().unwrap()),
        dec("-0.125")
    );
    let small = row("small");
    assert_eq!(
        dec(small["scenarios"][0]["delta"].as_str().unwrap()),
        dec("-0.03125")
    );
    // By tag, and refusals.
    Case::new()
        .args([
            "compare",
            &path,
            "--set",
            "tables.saas.class=standard-ia",
            "--by",
            "component",
        ])
        .run()
        .code(2)
        .stderr_has("`compare --by` takes `tenant` or `tag:KEY`");
}

#[test]
fn a_forecast_moves_each_tenant_month_by_month() {
    // 10 % more requests a month; storage stated (4 GB) stays.
    let (_dir, path) = temp_workload(&workload(TIERS).replace(
        "    storage: 4 GB\n",
        "    storage: 4 GB\n    growth: 10%/month\n",
    ));
    let out = Case::new()
        .args([
            "forecast", &path, "--months", "2", "--start", "2027-01", "--by", "tenant", "--format",
            "json",
        ])
        .run()
        .success();
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc["first"], "2027-01");
    let big = doc["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["group"] == "big")
        .unwrap()
        .clone();
    // January: 0.775 (as the estimate: rates per month, storage stated). February: reads
    // 0.50 × 1.1 + writes 0.80 × 1.1 + storage 0.25 = 1.68 for 2 tenants: 0.84 (+0.065).
    assert_eq!(dec(big["baseline"].as_str().unwrap()), dec("0.775"));
    assert_eq!(
        dec(big["scenarios"][0]["value"].as_str().unwrap()),
        dec("0.84")
    );
    assert_eq!(
        dec(big["scenarios"][0]["delta"].as_str().unwrap()),
        dec("0.065")
    );
    Case::new()
        .args([
            "forecast", &path, "--months", "2", "--by", "tenant", "--advise",
        ])
        .run()
        .code(2)
        .stderr_has("without `--advise`");
}

#[test]
fn a_sweep_prices_each_design_per_tenant() {
    let (_dir, path) = temp_workload(&workload(TIERS));
    let out = Case::new()
        .args([
            "sweep",
            &path,
            "--vary",
            "tables.saas.patterns.get.consistency=strong,eventual",
            "--vary",
            "tables.saas.patterns.put.rate=1.6M/month,3.2M/month",
            "--by",
            "tenant",
            "--format",
            "csv",
        ])
        .run()
        .success();
    let (header, rows) = common::csv_table(&out.stdout);
    let big = common::column(&header, "by:big (saas)");
    let small = common::column(&header, "by:small (saas)");
    let at = |consistency: &str, rate: &str, col: usize| {
        let r = rows
            .iter()
            .find(|r| &r[0] == consistency && &r[1] == rate)
            .unwrap();
        dec(&r[col])
    };
    // Strong, 1.6M puts: the baseline, big 0.775 and small 0.18125 (as above).
    assert_eq!(at("strong", "1.6M/month", big), dec("0.775"));
    assert_eq!(at("strong", "1.6M/month", small), dec("0.18125"));
    // Eventual reads: big (1.55 − 0.25) ÷ 2 = 0.65; small (1.45 − 0.25) ÷ 8 = 0.15.
    assert_eq!(at("eventual", "1.6M/month", big), dec("0.65"));
    assert_eq!(at("eventual", "1.6M/month", small), dec("0.15"));
    // Twice the puts ($2.00 of writes): big takes 80 % of them, 1.60, so (0.25 + 1.60 +
    // 0.25) ÷ 2 = 1.05 with eventual reads; small 20 %, 0.40: (0.25 + 0.40 + 0.75) ÷ 8 =
    // 0.175.
    assert_eq!(at("eventual", "3.2M/month", big), dec("1.05"));
    assert_eq!(at("eventual", "3.2M/month", small), dec("0.175"));
    // The table view: a column per tier, and the baseline's figures named.
    Case::new()
        .args([
            "sweep",
            &path,
            "--vary",
            "tables.saas.patterns.get.consistency=strong,eventual",
            "--by",
            "tenant",
        ])
        .run()
        .success()
        .stdout_has("big (saas)")
        .stdout_has("By group: one tenant's monthly cost (the baseline: big (saas) 0.78, small (saas) 0.18)");
    // By tag: each value's total; a breakdown sweep does not take.
    let tagged = workload(TIERS).replace("  saas:\n", "  saas:\n    tags: { team: growth }\n");
    let (_d2, tagged) = temp_workload(&tagged);
    let out = Case::new()
        .args([
            "sweep",
            &tagged,
            "--vary",
            "tables.saas.patterns.get.consistency=strong,eventual",
            "--by",
            "tag:team",
            "--format",
            "json",
        ])
        .run()
        .success();
    let doc: Value = serde_json::from_str(&out.stdout).unwrap();
    // growth: the tagged table's $3.00 (strong), $2.50 with eventual reads; `other` carries no
    // tag ($1.00 strong).
    assert_eq!(
        dec(doc["by"]["baseline"]["growth"].as_str().unwrap()),
        dec("3")
    );
    let eventual = doc["grid"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["values"]["tables.saas.patterns.get.consistency"] == "eventual")
        .unwrap();
    assert_eq!(dec(eventual["by"]["growth"].as_str().unwrap()), dec("2.5"));
    Case::new()
        .args([
            "sweep",
            &path,
            "--vary",
            "tables.saas.class=standard,standard-ia",
            "--by",
            "component",
        ])
        .run()
        .code(2)
        .stderr_has("`sweep --by` takes `tenant` or `tag:KEY`");
}
