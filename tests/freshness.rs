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

#[test]
fn every_table_that_prices_a_line_is_held_to_the_age_limit_and_named_on_its_lines() {
    // The workload's own table is fresh (a copy of aws-us-east-1 dated 2026-11-01); its replica
    // in us-west-1 is priced by the bundled aws-us-west-1, dated 2024-11-01: to 2026-12-01 that
    // is 30 + 730 = 760 days. A 90-day gate must fail on the replica's table.
    let dir = tempfile::tempdir().unwrap();
    let prices = std::fs::read_to_string("pricing/aws-us-east-1.yaml")
        .unwrap()
        .replace("id: aws-us-east-1", "id: fresh-us-east-1")
        .replace("effective: 2024-11-01", "effective: 2026-11-01");
    assert!(
        prices.contains("effective: 2026-11-01"),
        "the bundled table's date moved"
    );
    let table = common::write_file(dir.path(), "fresh.yaml", &prices);
    let workload = common::write_file(
        dir.path(),
        "w.yaml",
        &format!(
            "prices: {table}\ntables:\n  t:\n    item_size: 1 KB\n    replicas: [us-west-1]\n    patterns:\n      put: {{ op: put, rate: 3M/month }}\n"
        ),
    );
    let run = |extra: &[&str]| {
        let mut args = vec!["estimate", &workload, "--period", "2026-12"];
        args.extend_from_slice(extra);
        Case::new().args(args).run()
    };
    run(&["--format", "csv", "--max-price-age", "90"])
        .code(1)
        .stderr_has("price table `aws-us-west-1` took effect on 2024-11-01, 760 days before the start of 2026-12: more than --max-price-age 90");
    // Without the gate: a note for the old table only.
    let out = run(&["--format", "csv"])
        .success()
        .stderr_has("note: price table `aws-us-west-1` took effect on 2024-11-01, 760 days");
    assert!(
        !out.stderr.contains("`fresh-us-east-1` took effect"),
        "{}",
        out.stderr
    );
    // The table's footer names both tables.
    Case::new()
        .args(["estimate", &workload])
        .run()
        .success()
        .stdout_has("Prices: fresh-us-east-1 (us-east-1, USD), effective 2026-11-01")
        .stdout_has("Also priced by: aws-us-west-1 (us-west-1, USD), effective 2024-11-01");
    // The finance CSV and FOCUS name the table that priced each line.
    let out = run(&["--format", "csv"]).success();
    let (header, rows) = common::csv_table(&out.stdout);
    let (key, table_col, date) = (
        common::column(&header, "key"),
        common::column(&header, "price_table"),
        common::column(&header, "price_table_date"),
    );
    let row = |k: &str| {
        rows.iter()
            .find(|r| &r[key] == k)
            .unwrap_or_else(|| panic!("{k}"))
    };
    assert_eq!(&row("t/writes")[table_col], "fresh-us-east-1");
    assert_eq!(
        &row("t/replica/us-west-1/writes")[table_col],
        "aws-us-west-1"
    );
    assert_eq!(&row("t/replica/us-west-1/writes")[date], "2024-11-01");
    let out = run(&["--format", "focus"]).success();
    let (header, rows) = common::csv_table(&out.stdout);
    let (key, table_col) = (
        common::column(&header, "x_LineItemKey"),
        common::column(&header, "x_PriceTable"),
    );
    let replica = rows
        .iter()
        .find(|r| &r[key] == "t/replica/us-west-1/writes")
        .expect("the replica's writes");
    assert_eq!(&replica[table_col], "aws-us-west-1");
    // The JSON lists the other table.
    let out = Case::new()
        .args(["estimate", &workload, "--format", "json"])
        .run()
        .success();
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc["other_price_tables"][0]["id"], "aws-us-west-1");
}

/// On a terminal, standard error and the table's footer share the screen: the note of an old
/// price table is read once (on standard error); piped, the table keeps it in its footer.
#[test]
fn an_old_table_s_note_is_read_once_on_a_terminal() {
    if !common::has_tool("script") {
        return common::skip_without("script", "util-linux's script(1) makes a terminal");
    }
    let dir = tempfile::tempdir().unwrap();
    let typescript = dir.path().join("typescript");
    let bin = env!("CARGO_BIN_EXE_ddbcost");
    for command in ["estimate", "compare"] {
        let o = common::command("script")
            .args([
                "-qec",
                &format!("{bin} {command} workloads/cloudshop.yaml"),
                typescript.to_str().unwrap(),
            ])
            .current_dir(common::root())
            .env("TERM", "xterm")
            .output()
            .unwrap();
        assert!(o.status.success(), "{command}: {o:?}");
        let screen = String::from_utf8_lossy(&o.stdout);
        assert_eq!(
            screen.matches("took effect on").count(),
            1,
            "{command}: {screen}"
        );
    }
    // Piped: on standard error, and in the footer of what was written.
    let out = common::Case::new()
        .args(["estimate", "workloads/cloudshop.yaml"])
        .run()
        .success();
    assert!(out.stdout.contains("took effect on"));
    assert!(out.stderr.contains("took effect on"));
}
