//! The command line in memory (`api::run_in_memory`, what the WebAssembly page runs) prints
//! byte for byte what the binary prints for the same arguments and standard input on the
//! same day: every report and export of every bundled workload, comparisons with `--set`
//! alternatives, forecasts, advice, the price list, the schema, and refusals (their exit
//! code and their JSON error, line and column included).

mod common;

use common::{Case, root};

fn today() -> i64 {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    i64::try_from(seconds / 86_400).unwrap()
}

/// Runs `args` both ways and asserts the same code, standard output and error.
fn same(args: &[&str], stdin: &str) {
    // The binary reads the clock: run again if the day turned between the two runs.
    for _ in 0..2 {
        let day = today();
        let binary = Case::new().args(args).stdin(stdin).run();
        let memory = ddbcost::api::run_in_memory(
            std::iter::once("ddbcost").chain(args.iter().copied()),
            stdin,
            day,
        );
        if day != today() {
            continue;
        }
        assert_eq!(memory.code, binary.code, "exit code of {args:?}");
        assert_eq!(memory.stdout, binary.stdout, "standard output of {args:?}");
        assert_eq!(memory.stderr, binary.stderr, "standard error of {args:?}");
        return;
    }
    panic!("the day turned twice");
}

fn workloads() -> Vec<(String, String)> {
    let mut found: Vec<(String, String)> = std::fs::read_dir(root().join("workloads"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    found.sort();
    assert!(found.len() >= 4, "the bundled workloads");
    found
}

#[test]
fn every_report_and_export_of_every_bundled_workload() {
    for (name, text) in workloads() {
        for format in ["table", "json", "markdown"] {
            same(&["estimate", "-", "--format", format], &text);
            same(&["advise", "-", "--format", format], &text);
            same(
                &[
                    "forecast", "-", "--months", "3", "--start", "2027-01", "--format", format,
                ],
                &text,
            );
        }
        for format in ["csv", "focus", "html"] {
            same(
                &["estimate", "-", "--format", format, "--period", "2027-01"],
                &text,
            );
        }
        same(&["estimate", "-", "--format", "csv"], &text);
        same(
            &["estimate", "-", "--by", "pattern", "--format", "csv"],
            &text,
        );
        same(&["advise", "-", "--format", "yaml"], &text);
        if text.contains("\nscenarios:") {
            for format in ["table", "json", "markdown", "csv", "html"] {
                same(&["compare", "-", "--format", format], &text);
            }
        } else {
            eprintln!("{name}: no scenarios");
        }
    }
}

#[test]
fn alternatives_currencies_settings_and_refusals() {
    let text = std::fs::read_to_string(root().join("workloads/cloudshop.yaml")).unwrap();
    same(
        &[
            "compare",
            "-",
            "--alt",
            "slow",
            "--set",
            "tables.orders.patterns.get-order.rate=10/s",
            "--format",
            "json",
        ],
        &text,
    );
    same(
        &[
            "estimate",
            "-",
            "--currency",
            "USD",
            "--fx-rate",
            "1.08",
            "--fx-date",
            "2026-11-30",
            "--month-hours",
            "744",
            "--format",
            "json",
        ],
        &text,
    );
    same(&["prices", "--format", "json"], "");
    same(&["schema", "workload"], "");
    same(&["estimate", "--no-such-flag"], "");
    same(&["estimate", "--help"], "");
    // A typo: exit 1, the error with its line, as text and as JSON.
    let typo = text.replacen("item_size:", "item_sise:", 1);
    same(&["estimate", "-"], &typo);
    same(&["estimate", "-", "--error-format", "json"], &typo);
    same(&["estimate", "-", "--error-format", "json"], "tables: [\n");
    same(
        &[
            "compare",
            "-",
            "--set",
            "tables.nope.rate=1",
            "--error-format",
            "json",
        ],
        &text,
    );
}

#[test]
fn a_json_error_in_memory_carries_the_line_and_column() {
    let out = ddbcost::api::run_in_memory(
        ["ddbcost", "estimate", "-", "--error-format", "json"],
        "tables:\n  t:\n    item_sise: 1 KB\n",
        20_791,
    );
    assert_eq!(out.code, 1);
    assert_eq!(out.stdout, "");
    let e: serde_json::Value = serde_json::from_str(out.stderr.trim()).unwrap();
    assert_eq!(e["line"], 3);
    assert_eq!(e["column"], 5);
    assert_eq!(e["path"], "tables.t.item_sise");
    assert!(e["help"].as_str().unwrap().contains("item_size"));
}
