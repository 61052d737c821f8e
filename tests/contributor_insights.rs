//! CloudWatch Contributor Insights on a table and a GSI (DESIGN §9): DynamoDB's rules — most
//! accessed and most throttled partition keys, and the same for sort keys where there is one
//! — at $0.50 a rule-month, and the events the most-accessed rules match (every request that
//! reaches the table or GSI) at $0.03 a million (the bundled us-east-1 `cloudwatch` section).

mod common;

use common::{Case, cost, dec, estimate, quantity, write_file};

const ORDERS: &str = "tables:\n  orders:\n    item_size: 1 KB\n    key_size: 30 B\n    key: { partition: pk, sort: sk }\n    contributor_insights: true\n    indexes:\n      by-status: { type: gsi, projection: keys-only, key_size: 20 B, key: { partition: status }, contributor_insights: true }\n    patterns:\n      get: { op: get, rate: 100/s, consistency: eventual }\n      by-status: { op: query, index: by-status, rate: 10/s, items: 5 }\n      put: { op: put, rate: 20/s }\n";

#[test]
fn a_table_and_a_gsi_pay_their_rules_and_the_events_they_match() {
    let e = estimate(ORDERS, "aws-us-east-1");
    // The table has a sort key: 4 rules × $0.50 = $2.
    assert_eq!(quantity(&e, "orders/contributor-insights/rules"), dec("4"));
    assert_eq!(cost(&e, "orders/contributor-insights/rules"), dec("2"));
    // Its requests: gets 100/s + puts 20/s = 120/s × 2,628,000 s = 315,360,000 a month, each
    // matched by the 2 most-accessed rules: 630.72 M events × $0.03 = $18.9216.
    assert_eq!(
        quantity(&e, "orders/contributor-insights/events"),
        dec("630.72")
    );
    assert_eq!(
        cost(&e, "orders/contributor-insights/events"),
        dec("18.9216")
    );
    // The GSI has no sort key: 2 rules, $1; its requests are its queries (10/s) and every
    // write (20/s): 30/s × 2,628,000 = 78.84 M, one most-accessed rule: × $0.03 = $2.3652.
    assert_eq!(
        cost(&e, "orders/gsi/by-status/contributor-insights/rules"),
        dec("1")
    );
    assert_eq!(
        cost(&e, "orders/gsi/by-status/contributor-insights/events"),
        dec("2.3652")
    );
    // Without the setting, no such line.
    let off = estimate(
        &ORDERS.replace("contributor_insights: true", "contributor_insights: false"),
        "aws-us-east-1",
    );
    assert!(
        off.line_items
            .iter()
            .all(|l| !l.key.contains("contributor-insights"))
    );
}

#[test]
fn a_price_table_without_cloudwatch_prices_names_them() {
    let dir = tempfile::tempdir().unwrap();
    let w = write_file(
        dir.path(),
        "w.yaml",
        &format!("prices: aws-eu-west-1\n{ORDERS}"),
    );
    Case::new()
        .args(["estimate", w.as_str()])
        .run()
        .code(1)
        .stderr_has("cloudwatch.contributor_insights_rule_month");
}

#[test]
fn its_focus_rows_are_cloudwatchs() {
    let dir = tempfile::tempdir().unwrap();
    let w = write_file(
        dir.path(),
        "w.yaml",
        &format!("prices: aws-us-east-1\n{ORDERS}"),
    );
    let out = dir.path().join("focus.csv");
    Case::new()
        .args([
            "estimate",
            w.as_str(),
            "--format",
            "focus",
            "--period",
            "2026-12",
            "-o",
        ])
        .args([out.to_str().unwrap()])
        .run()
        .success();
    let text = std::fs::read_to_string(&out).unwrap();
    let (header, rows) = common::csv_table(&text);
    let service = common::column(&header, "ServiceName");
    let sku = common::column(&header, "x_LineItemKey");
    let insights: Vec<_> = rows
        .iter()
        .filter(|r| r.get(sku).unwrap_or("").contains("contributor-insights"))
        .collect();
    assert_eq!(insights.len(), 4);
    assert!(
        insights
            .iter()
            .all(|r| r.get(service) == Some("Amazon CloudWatch"))
    );
    // `.ci/run` runs the official FOCUS validator on tests/fixtures/focus/contributor-insights.yaml.
}
