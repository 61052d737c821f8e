//! Terminal output fits the terminal: `--width N`, else `COLUMNS`, else the terminal's width;
//! long labels wrap inside their column; a comparison too wide for the width is shown in
//! blocks of scenarios; colour only on a terminal (a pseudo-terminal made by `script(1)`)
//! and never with `NO_COLOR`; piped output keeps its natural width and no escape codes.

mod common;

use common::Case;
use proptest::prelude::*;

fn widest(text: &str) -> usize {
    text.lines().map(|l| l.chars().count()).max().unwrap_or(0)
}

#[test]
fn piped_output_keeps_its_natural_width() {
    let out = Case::new()
        .args(["compare", "workloads/cloudshop.yaml"])
        .run()
        .success();
    assert!(widest(&out.stdout) > 150, "CloudShop's comparison is wide");
    assert!(!out.stdout.contains('\u{1b}'), "no escape codes when piped");
    assert!(!out.stdout.contains("Scenario 1 of"));
}

#[test]
fn width_wraps_labels_inside_their_column() {
    for args in [
        vec!["estimate", "workloads/cloudshop.yaml", "--width", "100"],
        vec![
            "estimate",
            "workloads/marketplace-us-east-1.yaml",
            "--width",
            "80",
        ],
        vec![
            "estimate",
            "workloads/cloudshop.yaml",
            "--by",
            "pattern",
            "--width",
            "70",
        ],
        vec![
            "forecast",
            "workloads/cloudshop.yaml",
            "--months",
            "3",
            "--width",
            "110",
        ],
    ] {
        let width: usize = args.last().unwrap().parse().unwrap();
        let out = Case::new().args(&args).run().success();
        let table: Vec<&str> = out
            .stdout
            .lines()
            .filter(|l| l.starts_with(['│', '╭', '├', '╰']))
            .collect();
        assert!(!table.is_empty());
        for line in &table {
            assert!(line.chars().count() <= width, "{args:?}: {line}");
        }
    }
    // The wrapped label is still all there, across two lines of its cell.
    let out = Case::new()
        .args(["estimate", "workloads/cloudshop.yaml", "--width", "100"])
        .run()
        .success();
    assert!(
        out.stdout.contains("│ orders │ Stream read requests by "),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("`search-index` (1 record per"));
    assert!(out.stdout.contains("GetRecords call)"));
}

#[test]
fn columns_sets_the_width_and_the_flag_wins() {
    let out = Case::new()
        .args(["estimate", "workloads/cloudshop.yaml"])
        .env("COLUMNS", "90")
        .run()
        .success();
    let table = |s: &str| -> usize {
        s.lines()
            .filter(|l| l.starts_with('│'))
            .map(|l| l.chars().count())
            .max()
            .unwrap()
    };
    assert!(table(&out.stdout) <= 90);
    let out = Case::new()
        .args(["estimate", "workloads/cloudshop.yaml", "--width", "120"])
        .env("COLUMNS", "90")
        .run()
        .success();
    let w = table(&out.stdout);
    assert!(w > 90 && w <= 120, "{w}");
    Case::new()
        .args(["estimate", "workloads/cloudshop.yaml", "--width", "5"])
        .run()
        .code(2);
}

#[test]
fn a_wide_comparison_is_shown_in_blocks_of_scenarios() {
    let out = Case::new()
        .args(["compare", "workloads/cloudshop.yaml", "--width", "110"])
        .run()
        .success();
    for name in ["sparse-gsi-1", "eventual-reads", "provisioned-auto-scaling"] {
        assert!(out.stdout.contains(name), "{name}");
    }
    assert!(out.stdout.contains("Scenario 1 of 3"), "{}", out.stdout);
    assert!(out.stdout.contains("Scenario 3 of 3"));
    // Each block stands beside the baseline, and every line fits.
    assert_eq!(out.stdout.matches("Baseline │").count(), 3);
    assert_eq!(out.stdout.matches("TOTAL").count(), 3);
    for line in out
        .stdout
        .lines()
        .filter(|l| l.starts_with(['│', '╭', '├', '╰']))
    {
        assert!(line.chars().count() <= 110, "{line}");
    }
    // A width that holds two scenarios puts two in a block.
    let out = Case::new()
        .args(["compare", "workloads/cloudshop.yaml", "--width", "150"])
        .run()
        .success();
    assert!(out.stdout.contains("Scenarios 1–2 of 3"), "{}", out.stdout);
    assert!(out.stdout.contains("Scenario 3 of 3"));
}

#[test]
fn colour_only_on_a_terminal_and_never_with_no_color() {
    let bin = env!("CARGO_BIN_EXE_ddbcost");
    let run = |prefix: &str| {
        common::command("script")
            .args([
                "-qec",
                &format!("{prefix}{bin} compare workloads/cloudshop.yaml --width 200"),
                "/dev/null",
            ])
            .env("TERM", "xterm")
            .output()
    };
    if !common::has_tool("script") {
        return common::skip_without("script", "util-linux's script(1) makes a terminal");
    }
    let o = run("").unwrap();
    assert!(o.status.success(), "{o:?}");
    let text = String::from_utf8_lossy(&o.stdout);
    // Savings in green, the totals in bold.
    assert!(text.contains("\u{1b}[32m-315.50"), "{text}");
    assert!(text.contains("\u{1b}[1mTOTAL"), "{text}");
    let plain = run("NO_COLOR=1 ").unwrap();
    let plain = String::from_utf8_lossy(&plain.stdout);
    assert!(plain.contains("-315.50"));
    assert!(!plain.contains('\u{1b}'), "{plain}");
}

/// The widest table line of a run.
fn table_width(text: &str) -> usize {
    text.lines()
        .filter(|l| l.starts_with(['│', '╭', '├', '╰']))
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(0)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Any width: a table is never wider than the width or its natural width, and never
    /// narrower than its floor (the width at which only whole words and figures are left,
    /// measured at `--width 20`); no figure is lost.
    #[test]
    fn every_width_fits(width in 20usize..220, which in 0usize..4) {
        // The two with scenarios are compared, the others estimated.
        let workload = ["workloads/cloudshop.yaml", "workloads/marketplace-us-east-1.yaml", "workloads/saas-dashboard.yaml", "workloads/commitments-us-east-1.yaml"][which];
        let command = if which % 2 == 0 { "compare" } else { "estimate" };
        let natural = Case::new().args([command, workload]).run().success();
        let floor = table_width(&Case::new().args([command, workload, "--width", "20"]).run().success().stdout);
        let out = Case::new().args([command, workload, "--width", &width.to_string()]).run().success();
        let got = table_width(&out.stdout);
        prop_assert!(got <= width.max(floor), "{} > {} (floor {})", got, width, floor);
        prop_assert!(got <= table_width(&natural.stdout));
        for total in natural.stdout.lines().filter(|l| l.contains("TOTAL")) {
            for figure in total.split('│').map(str::trim).filter(|c| c.starts_with(['€', '$'])) {
                prop_assert!(out.stdout.contains(figure), "{} lost at width {}", figure, width);
            }
        }
    }
}
