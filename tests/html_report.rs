//! The HTML report: one self-contained file (no scripts, stylesheets, fonts or fetches), with
//! its charts inline, values escaped, and the waterfall of a comparison's steps.

mod common;

use common::{Case, temp_workload};

fn html(args: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("report.html");
    Case::new()
        .args(args)
        .args([
            "--format",
            "html",
            "--period",
            "2026-12",
            // The figures below are for a 730-hour month (December's own is 744).
            "--month-hours",
            "730",
            "--output",
            &out.to_string_lossy(),
        ])
        .run()
        .success();
    std::fs::read_to_string(out).unwrap()
}

#[test]
fn the_comparison_report_is_self_contained_with_charts_and_a_waterfall() {
    let page = html(&["compare", "workloads/cloudshop.yaml"]);
    assert!(page.starts_with("<!DOCTYPE html>"));
    for forbidden in ["<script", "<link", "@import", "url(", "src=\"http"] {
        assert!(!page.contains(forbidden), "{forbidden}");
    }
    // Five inline SVG charts: the monthly totals by scenario, the waterfall, by component,
    // by table, by access pattern.
    assert_eq!(page.matches("<svg").count(), 5);
    assert!(page.contains("Monthly total by scenario"));
    assert!(page.contains("Waterfall"));
    assert!(page.contains("1,243.54") && page.contains("487.06"));
    // The headline names what it compares: CloudShop's steps are a cumulative story.
    assert!(page.contains("Baseline → after the last step, provisioned-auto-scaling"));
    // A TOTAL row closes the line items; labels carry no Markdown backticks.
    assert!(page.contains("<td>TOTAL</td>"));
    assert!(!page.contains('`'), "no backticks in the page");
    // Axis labels are drawn at 13 px.
    assert!(!page.contains("font-size=\"9\"") && !page.contains("font-size=\"3\""));
    assert!(page.contains("28.9 %"), "the break-even note");
}

#[test]
fn an_estimate_report_has_its_line_items_and_three_charts() {
    let page = html(&["estimate", "workloads/marketplace-us-east-1.yaml"]);
    assert_eq!(page.matches("<svg").count(), 3);
    assert!(page.contains("Subtotal listings"));
    // TOTAL: the estimate's own total (the marketplace's, checked in the README as 1,458.51).
    assert!(page.contains("<td>TOTAL</td>") && page.contains("1,458.51"));
    assert!(!page.contains('`'), "no backticks in the page");
    assert!(!page.contains("Waterfall"));
}

#[test]
fn values_are_escaped() {
    let (_dir, path) = temp_workload(
        "name: \"<b>bold</b> & co\"\nprices: aws-us-east-1\ntables:\n  t:\n    storage: 1 GB\n",
    );
    let page = html(&["estimate", &path]);
    assert!(page.contains("&lt;b&gt;bold&lt;&#x2f;b&gt; &amp; co"));
    assert!(!page.contains("<b>bold"));
    // Chart labels too: a table named `<t>&` appears escaped in the SVG.
    let (_dir, path) =
        temp_workload("prices: aws-us-east-1\ntables:\n  \"<t>&\":\n    storage: 1 GB\n");
    let page = html(&["estimate", &path]);
    assert!(!page.contains("<t>&"));
    assert!(page.contains("&lt;t&gt;&amp;  0.25 USD"));
}

#[test]
fn output_under_a_file_is_refused_without_a_partial_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("plain.txt");
    std::fs::write(&file, "x").unwrap();
    let target = file.join("report.html");
    Case::new()
        .args([
            "estimate",
            "workloads/cloudshop.yaml",
            "--format",
            "html",
            "--output",
            &target.to_string_lossy(),
        ])
        .run()
        .code(1)
        .stderr_has("cannot write");
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        1,
        "nothing else was written"
    );
}

#[test]
fn alternatives_are_each_named_in_the_headline() {
    let (_dir, path) = temp_workload(
        "prices: aws-us-east-1\ntables:\n  t:\n    storage: 100 GB\nscenarios:\n  alternatives:\n    - name: ia\n      patch: { tables: { t: { class: standard-ia } } }\n    - name: small\n      patch: { tables: { t: { storage: 10 GB } } }\n",
    );
    let page = html(&["compare", &path]);
    // 100 GB × $0.25 = $25.00; Standard-IA 100 × $0.10 = $10.00; 10 GB × $0.25 = $2.50.
    assert!(page.contains("Baseline, then each scenario"));
    assert!(
        page.contains("$ 25.00 · ia: $ 10.00 · small: $ 2.50"),
        "{page}"
    );
}
