//! `ddbcost estimate` and `ddbcost prices` end to end, through the binary. Machine output is
//! checked by deserializing it, never by comparing strings.

mod common;

use common::{Case, dec, root, temp_workload};
use ddbcost::api::exports::EstimateDoc;
use rust_decimal::Decimal;

fn json(args: &[&str]) -> EstimateDoc {
    let out = Case::new()
        .args(["estimate"])
        .args(args)
        .args(["--format", "json"])
        .run()
        .success();
    serde_json::from_str(&out.stdout).expect("estimate JSON parses")
}

fn component_sum(doc: &EstimateDoc, component: &str) -> Decimal {
    doc.line_items
        .iter()
        .filter(|l| l.component == component)
        .filter_map(|l| l.cost)
        .sum()
}

#[test]
fn cloudshop_reproduces_the_case_line_by_line() {
    let doc = json(&["workloads/cloudshop.yaml"]);
    assert_eq!(doc.currency, "EUR");
    // Reads: 980 M read units (table 972,068,315 + gsi-1 7,884,000 + gsi-2 47,685) at
    // €0.50 per million = €490.
    let read_units: Decimal = doc
        .line_items
        .iter()
        .filter(|l| l.component == "reads")
        .filter_map(|l| l.quantity)
        .sum();
    assert_eq!(read_units, dec("980"));
    assert_eq!(component_sum(&doc, "reads"), dec("490"));
    // Writes: 6.3 M puts + 34.7 M updates, 1 unit each = 41 M × €5.00 = €205.
    assert_eq!(component_sum(&doc, "writes"), dec("205"));
    // Index writes: gsi-1 6.3 M + 2 × 34.7 M = 75.7 M, gsi-2 6.3 M: 82 M × €5.00 = €410.
    assert_eq!(component_sum(&doc, "index-writes"), dec("410"));
    // Storage: 210 GB observed × €0.25 = €52.50 (the case shows €53).
    assert_eq!(component_sum(&doc, "storage"), dec("52.5"));
    // Stream: 41 M records, two readers at 1 record per call = 82 M × €0.22 = €18.04.
    assert_eq!(component_sum(&doc, "stream-reads"), dec("18.04"));
    // PITR: 340 GB observed × €0.20 = €68.
    assert_eq!(component_sum(&doc, "pitr"), dec("68"));
    // Total: 490 + 205 + 410 + 52.50 + 18.04 + 68 = €1,243.54.
    assert_eq!(doc.total, dec("1243.54"));
    assert_eq!(doc.total_rounded, dec("1243.54"));
    // The lines reconcile with the total exactly.
    let sum: Decimal = doc.line_items.iter().filter_map(|l| l.cost).sum();
    assert_eq!(sum, doc.total);
    // Per-pattern attribution covers the whole bill.
    let patterns: Decimal = doc.patterns.iter().map(|p| p.cost).sum();
    assert_eq!(patterns, doc.total);
}

#[test]
fn the_json_contract_has_the_documented_fields() {
    let out = Case::new()
        .args(["estimate", "workloads/cloudshop.yaml", "--format", "json"])
        .run()
        .success();
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert!(v["total"].is_string(), "total is a decimal string");
    assert!(v["currency"].is_string());
    let item = &v["line_items"][0];
    for field in [
        "key",
        "table",
        "component",
        "label",
        "quantity",
        "unit",
        "unit_price",
        "cost",
    ] {
        assert!(
            item[field].is_string(),
            "line item field {field} is a string: {item}"
        );
    }
    assert!(item["patterns"].is_array());
    assert_eq!(item["key"], "orders/reads");
}

#[test]
fn every_bundled_workload_estimates_in_every_format() {
    let mut count = 0;
    for entry in std::fs::read_dir(root().join("workloads")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("yaml") {
            continue;
        }
        count += 1;
        let p = path.to_string_lossy().into_owned();
        let dir = tempfile::tempdir().unwrap();
        for format in ["table", "json", "csv", "markdown", "focus", "html"] {
            let out = dir.path().join(format!("report.{format}"));
            let out = out.to_string_lossy();
            let bys: &[&str] = if matches!(format, "table" | "csv" | "markdown") {
                &["line", "pattern", "component", "region"]
            } else {
                &["line"]
            };
            for by in bys {
                Case::new()
                    .args(["estimate", &p, "--format", format, "--by", by, "-o", &out])
                    .run()
                    .success();
                assert!(
                    std::fs::metadata(&*out).unwrap().len() > 0,
                    "{p} {format} {by}"
                );
            }
            // A comparison in the same format, where the workload has scenarios.
            if std::fs::read_to_string(&path)
                .unwrap()
                .contains("\nscenarios:")
            {
                let mut args = vec!["compare", &p, "--format", format, "-o", &out];
                let first;
                if format == "focus" {
                    // One scenario per FOCUS file.
                    let json = Case::new()
                        .args(["compare", &p, "--format", "json"])
                        .run()
                        .success();
                    let doc: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
                    first = doc["scenarios"][0]["name"].as_str().unwrap().to_string();
                    args.extend(["--scenario", first.as_str()]);
                }
                Case::new().args(args).run().success();
                assert!(
                    std::fs::metadata(&*out).unwrap().len() > 0,
                    "{p} compare {format}"
                );
            }
        }
        // JSON: lines reconcile with the total, and every known line has a rounded cost.
        let doc = json(&[&p]);
        let sum = common::exact_total(doc.line_items.iter().filter_map(|l| l.cost));
        assert_eq!(sum, doc.total, "{p}");
        assert!(doc.total > Decimal::ZERO, "{p}");
    }
    assert!(count >= 3, "at least three bundled examples");
}

#[test]
fn the_saas_dashboard_query_costs_what_the_rules_say() {
    let doc = json(&["workloads/saas-dashboard.yaml"]);
    // One query per render: 511 items × 114 B = 58,254 B → 15 units of 4 KB, eventual 7.5.
    // 20,000 renders a day × 730 / 24 days = 608,333.33… renders × 7.5 = 4,562,500 RRU
    // = 4.5625 M × $0.125 = $0.5703125.
    let reads = doc
        .line_items
        .iter()
        .find(|l| l.key == "app-main/reads")
        .unwrap();
    let dashboard = reads
        .attribution
        .iter()
        .find(|a| a.pattern == "dashboard")
        .unwrap();
    assert_eq!(dashboard.cost.round_dp(7), dec("0.5703125"));
    // create-organization: a 2-item transaction of 250 B items, 20 a day → 608.33 a month ×
    // 2 items × 1 unit × 2 = 2,433.33 WRU; GSI1 gets 0.5 writes per item: 608.33 WRU.
    let gsi1 = doc
        .line_items
        .iter()
        .find(|l| l.key == "app-main/gsi/GSI1/writes")
        .unwrap();
    assert_eq!(gsi1.quantity.unwrap().round_dp(8), dec("0.00060833"));
}

#[test]
fn csv_has_one_row_per_line_item_and_reconciles() {
    let out = Case::new()
        .args([
            "estimate",
            "workloads/marketplace-us-east-1.yaml",
            "--format",
            "csv",
            "--period",
            "2026-12",
            // The figures below are for a 730-hour month; a dated export is priced for its
            // month's hours unless `--month-hours` says otherwise.
            "--month-hours",
            "730",
        ])
        .run()
        .success();
    let doc = json(&["workloads/marketplace-us-east-1.yaml"]);
    let mut reader = csv::Reader::from_reader(out.stdout.as_bytes());
    let header: Vec<String> = reader
        .headers()
        .unwrap()
        .iter()
        .map(str::to_string)
        .collect();
    assert_eq!(header, ddbcost::api::exports::FINANCE_HEADER);
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    // One row per line item and nothing else: no total row among the data (a column sum in a
    // finance tool must give the month once, not twice).
    assert_eq!(rows.len(), doc.line_items.len());
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    assert_eq!(&rows[0][col("billing_period_start")], "2026-12-01");
    assert_eq!(&rows[0][col("billing_period_end")], "2027-01-01");
    assert_eq!(&rows[0][col("scenario")], "baseline");
    let lines = &rows[..];
    let sum = common::exact_total(
        lines
            .iter()
            .filter(|r| !r[col("cost")].is_empty())
            .map(|r| dec(&r[col("cost")])),
    );
    // Summing the whole `cost` column exactly gives the month's total (the engine's total
    // is that exact sum rounded once at the 28th digit, as `exact_total` rounds it).
    assert_eq!(sum, doc.total);
    assert!(lines.iter().all(|r| &r[col("key")] != "TOTAL"));
    // No thousands separators, `.` decimals.
    assert!(lines.iter().all(|r| !r[col("cost")].contains(',')));
}

#[test]
fn csv_rounded_lines_add_up_to_the_rounded_total() {
    // Three tables of 8,000 WRU a month × $0.625 per million = $0.005 each. Each rounded on
    // its own (half away from zero) would be $0.01, $0.03 in all, while the exact total of
    // $0.015 rounds to $0.02: the rounded column is apportioned by largest remainder — each
    // first rounded down to $0.00, and the $0.02 the sum lacks goes a cent each to the
    // largest remainders ($0.005 all: the first two lines).
    let (_dir, path) = temp_workload(
        "prices: aws-us-east-1\ntables:\n  a:\n    item_size: 1 KB\n    patterns: { p: { op: put, rate: 8000/month } }\n  b:\n    item_size: 1 KB\n    patterns: { p: { op: put, rate: 8000/month } }\n  c:\n    item_size: 1 KB\n    patterns: { p: { op: put, rate: 8000/month } }\n",
    );
    let out = Case::new()
        .args(["estimate", &path, "--format", "csv", "--period", "2026-12"])
        .run()
        .success();
    assert!(!out.stderr.contains("rounded lines"), "{}", out.stderr);
    let (header, rows) = common::csv_table(&out.stdout);
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let rounded: Vec<&str> = rows
        .iter()
        .map(|r| &r[col("cost_rounded")])
        .filter(|v| !v.is_empty())
        .collect();
    assert_eq!(rounded, ["0.01", "0.01", "0.00"]);
}

#[test]
fn excel_csv_has_a_bom_crlf_and_guards_formulas() {
    let (_dir, path) = temp_workload(
        "name: =HYPERLINK(\"x\")\nprices: aws-us-east-1\ntables:\n  \"@t\":\n    storage: 1 GB\n",
    );
    let out = Case::new()
        .args([
            "estimate", &path, "--format", "csv", "--excel", "--period", "2026-12",
        ])
        .run()
        .success();
    assert!(out.stdout.starts_with('\u{feff}'), "byte-order mark");
    assert!(out.stdout.contains("\r\n"), "CRLF");
    assert!(
        out.stdout.contains(",'@t,"),
        "a text cell starting with @ is guarded: {}",
        out.stdout
    );
}

#[test]
fn focus_list_cost_is_unit_price_times_quantity() {
    let out = Case::new()
        .args([
            "compare",
            "workloads/cloudshop.yaml",
            "--format",
            "focus",
            "--scenario",
            "provisioned-auto-scaling",
            "--period",
            "2026-12",
            // The figures below are for a 730-hour month; a dated export is priced for its
            // month's hours unless `--month-hours` says otherwise.
            "--month-hours",
            "730",
        ])
        .run()
        .success();
    let mut reader = csv::Reader::from_reader(out.stdout.as_bytes());
    let header: Vec<String> = reader
        .headers()
        .unwrap()
        .iter()
        .map(str::to_string)
        .collect();
    for column in [
        "BilledCost",
        "EffectiveCost",
        "ListCost",
        "ContractedCost",
        "BillingCurrency",
        "ChargeCategory",
        "ChargePeriodStart",
        "ChargePeriodEnd",
        "ServiceName",
        "ServiceCategory",
        "PricingQuantity",
        "PricingUnit",
        "ListUnitPrice",
        "RegionId",
        "ResourceName",
        "x_CostType",
        "x_Scenario",
        "x_PriceTable",
        "x_PriceTableDate",
    ] {
        assert!(header.iter().any(|h| h == column), "{column}");
    }
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert!(rows.len() > 5, "the scenario's lines");
    for r in &rows {
        assert_eq!(
            dec(&r[col("ListCost")]),
            dec(&r[col("ListUnitPrice")]) * dec(&r[col("PricingQuantity")])
        );
        assert_eq!(&r[col("ServiceName")], "Amazon DynamoDB");
        assert_eq!(&r[col("x_CostType")], "Estimate");
        assert_eq!(&r[col("ChargePeriodStart")], "2026-12-01T00:00:00Z");
    }
    // One scenario per FOCUS file: summing BilledCost over the whole file gives that
    // scenario's month, the total `compare --format json` reports for it.
    assert!(
        rows.iter()
            .all(|r| &r[col("x_Scenario")] == "provisioned-auto-scaling")
    );
    let billed: Decimal = rows.iter().map(|r| dec(&r[col("BilledCost")])).sum();
    let out = Case::new()
        .args(["compare", "workloads/cloudshop.yaml", "--format", "json"])
        .run()
        .success();
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let scenario = doc["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "provisioned-auto-scaling")
        .unwrap();
    assert_eq!(billed, dec(scenario["total"].as_str().unwrap()));
}

#[test]
fn focus_of_an_estimate_sums_to_one_month() {
    // The baseline alone: its BilledCost adds up to its total, €1,243.54 (asserted with its
    // arithmetic in `cloudshop_reproduces_the_case_line_by_line`).
    let out = Case::new()
        .args([
            "estimate",
            "workloads/cloudshop.yaml",
            "--format",
            "focus",
            "--period",
            "2026-12",
            // The figures below are for a 730-hour month; a dated export is priced for its
            // month's hours unless `--month-hours` says otherwise.
            "--month-hours",
            "730",
        ])
        .run()
        .success();
    let (header, rows) = common::csv_table(&out.stdout);
    let billed: Decimal = rows
        .iter()
        .map(|r| dec(&r[common::column(&header, "BilledCost")]))
        .sum();
    assert_eq!(billed, dec("1243.54"));
}

#[test]
fn focus_of_a_comparison_of_several_scenarios_is_refused() {
    // Stacking the baseline and three scenarios in one FOCUS file would sum to four months.
    Case::new()
        .args(["compare", "workloads/cloudshop.yaml", "--format", "focus"])
        .run()
        .code(2)
        .stderr_has("a FOCUS export holds one month of one scenario")
        .stderr_has("--scenario NAME");
}

#[test]
fn a_period_that_is_not_a_month_is_refused() {
    Case::new()
        .args([
            "estimate",
            "workloads/cloudshop.yaml",
            "--format",
            "csv",
            "--period",
            "2026-13",
        ])
        .run()
        .code(2)
        .stderr_has("invalid value '2026-13' for '--period <YYYY-MM>': `2026-13` is not a month");
}

#[test]
fn the_table_view_shows_totals_and_the_settings_in_force() {
    Case::new()
        .args(["estimate", "workloads/cloudshop.yaml"])
        .run()
        .success()
        .stdout_has("€ 1,243.54")
        .stdout_has("Subtotal orders")
        .stdout_has("cloudshop-eur")
        .stdout_has("effective 2025-03-01")
        .stdout_has("730-hour month")
        .stdout_has("GB = binary")
        .stdout_has("free tier off")
        .stdout_has("rounded half away from zero");
}

#[test]
fn by_pattern_attributes_costs_to_patterns() {
    Case::new()
        .args(["estimate", "workloads/cloudshop.yaml", "--by", "pattern"])
        .run()
        .success()
        .stdout_has("orders/other-status-changes")
        .stdout_has("(not attributable to a pattern)");
}

#[test]
fn settings_from_the_command_line() {
    // --month-hours 365 halves the monthly rate of a per-second pattern: 1 put/s × 365 h ×
    // 3,600 = 1,314,000 WRU × $0.625 per million = $0.82125.
    let (_dir, path) = temp_workload(
        "tables:\n  t:\n    item_size: 1 KB\n    patterns:\n      p: { op: put, rate: 1/s }\n",
    );
    let out = Case::new()
        .args([
            "estimate",
            &path,
            "--prices",
            "aws-us-east-1",
            "--month-hours",
            "365",
            "--format",
            "json",
        ])
        .run()
        .success();
    let doc: EstimateDoc = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc.total, dec("0.82125"));
    assert_eq!(doc.settings.month_hours, dec("365"));
    // The free tier and the GB convention are reported as set.
    let out = Case::new()
        .args([
            "estimate",
            &path,
            "--prices",
            "aws-us-east-1",
            "--gb",
            "decimal",
            "--free-tier",
            "--format",
            "json",
        ])
        .run()
        .success();
    let doc: EstimateDoc = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc.settings.gb, "decimal");
    assert!(doc.settings.free_tier);
}

#[test]
fn output_is_written_atomically_and_replaces_an_existing_file() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("report.json");
    std::fs::write(&target, "old contents").unwrap();
    let t = target.to_string_lossy().into_owned();
    Case::new()
        .args([
            "estimate",
            "workloads/cloudshop.yaml",
            "--format",
            "json",
            "--output",
            &t,
        ])
        .run()
        .success();
    let doc: EstimateDoc =
        serde_json::from_str(&std::fs::read_to_string(&target).unwrap()).unwrap();
    assert_eq!(doc.total, dec("1243.54"));
    // No temporary file is left behind.
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 1, "{names:?}");
}

#[test]
fn a_failed_run_leaves_an_existing_report_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("report.json");
    std::fs::write(&target, "previous report").unwrap();
    let t = target.to_string_lossy().into_owned();
    Case::new()
        .args(["estimate", "workloads/does-not-exist.yaml", "--output", &t])
        .run()
        .code(1);
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "previous report");
}

#[test]
fn prices_lists_the_bundled_tables() {
    Case::new()
        .args(["prices"])
        .run()
        .success()
        .stdout_has("aws-us-east-1")
        .stdout_has("aws-us-east-2")
        .stdout_has("aws-eu-west-1")
        .stdout_has("aws-eu-central-1")
        .stdout_has("cloudshop-eur")
        .stdout_has("2024-11-01");
    let out = Case::new()
        .args(["prices", "--format", "json"])
        .run()
        .success();
    let v: Vec<serde_json::Value> = serde_json::from_str(&out.stdout).unwrap();
    let eur = v.iter().find(|t| t["id"] == "cloudshop-eur").unwrap();
    assert_eq!(eur["currency"], "EUR");
}

#[test]
fn a_price_table_can_be_a_file() {
    let out = Case::new()
        .args([
            "estimate",
            "workloads/saas-dashboard.yaml",
            "--prices",
            "pricing/aws-us-east-2.yaml",
            "--format",
            "json",
        ])
        .run()
        .success();
    let doc: EstimateDoc = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc.price_table.region, "us-east-2");
}
