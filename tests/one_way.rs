//! One way through a run (#24): every command that prices takes what `estimate` takes — a
//! workload or a template with its usage file, and `--set` — and prices through one service;
//! a format a command cannot produce is refused by the parser; `prices diff` finds the
//! prices of other regions where `estimate` finds them; and two runs in one process keep two
//! layouts and two sets of diagnostics.

mod common;

use common::cloudwatch::{page, points, result, s as decimal, usage_json};
use common::{Case, dec, write_file};

const TEMPLATE: [&str; 5] = [
    "workloads/iac/orders.template.yaml",
    "--usage",
    "workloads/iac/orders.usage.yaml",
    "--region",
    "us-east-1",
];

fn json(args: &[&str]) -> serde_json::Value {
    let out = Case::new().args(args).run().success();
    serde_json::from_str(&out.stdout).unwrap()
}

fn total(doc: &serde_json::Value, key: &str) -> rust_decimal::Decimal {
    dec(doc[key].as_str().expect("a total"))
}

#[test]
fn sweep_and_estimate_set_take_a_template_as_compare_does() {
    let class = "tables.prod-orders.class=standard-ia";
    let base = json(&[&["estimate"][..], &TEMPLATE, &["--format", "json"]].concat());
    let changed = json(
        &[
            &["estimate"][..],
            &TEMPLATE,
            &["--set", class, "--format", "json"],
        ]
        .concat(),
    );
    let compared = json(
        &[
            &["compare"][..],
            &TEMPLATE,
            &["--set", class, "--format", "json"],
        ]
        .concat(),
    );
    // `estimate --set` on a template is the scenario `compare --set` prices.
    assert_eq!(
        total(&changed, "total"),
        total(&compared["scenarios"][0], "total")
    );
    assert_ne!(total(&changed, "total"), total(&base, "total"));
    let sweep = json(
        &[
            &["sweep"][..],
            &TEMPLATE,
            &[
                "--vary",
                "tables.prod-orders.class=standard,standard-ia",
                "--format",
                "json",
            ],
        ]
        .concat(),
    );
    assert_eq!(total(&sweep, "baseline_total"), total(&base, "total"));
    let ia = sweep["grid"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["values"]["tables.prod-orders.class"] == "standard-ia")
        .expect("the Standard-IA design");
    assert_eq!(total(ia, "monthly_total"), total(&changed, "total"));
    // Errors of an imported template name the template and its usage file, not the usage
    // file alone.
    Case::new()
        .args(["compare"])
        .args(TEMPLATE)
        .args(["--set", "tables.nope.class=standard-ia"])
        .run()
        .code(2)
        .stderr_has("orders.template.yaml + workloads/iac/orders.usage.yaml (imported)");
}

#[test]
fn forecast_takes_set_as_estimate_does() {
    let set = "tables.orders.pitr=false";
    let e = json(&[
        "estimate",
        "workloads/cloudshop.yaml",
        "--set",
        set,
        "--format",
        "json",
    ]);
    let f = json(&[
        "forecast",
        "workloads/cloudshop.yaml",
        "--set",
        set,
        "--months",
        "1",
        "--start",
        "2027-01",
        "--format",
        "json",
    ]);
    let plain = json(&[
        "forecast",
        "workloads/cloudshop.yaml",
        "--months",
        "1",
        "--start",
        "2027-01",
        "--format",
        "json",
    ]);
    // CloudShop's first month does not grow: the forecast's one month is the estimate, and
    // without PITR it is €68 lower (340 GB × €0.20, seed 002).
    assert_eq!(total(&f["months"][0], "total"), total(&e, "total"));
    assert_eq!(
        total(&plain["months"][0], "total") - total(&f["months"][0], "total"),
        dec("340") * dec("0.20")
    );
}

#[test]
fn a_format_a_command_cannot_produce_is_a_usage_error_from_the_parser() {
    for args in [
        &["size", "workloads/samples/order.json", "--format", "focus"][..],
        &["size", "workloads/samples/order.json", "--format", "html"],
        &["prices", "--format", "focus"],
        &["prices", "--format", "html"],
    ] {
        Case::new()
            .args(args)
            .run()
            .code(2)
            .stderr_has("invalid value")
            .stderr_has("[possible values: table, json, csv, markdown]");
    }
}

#[test]
fn prices_diff_finds_a_replica_region_in_prices_dir_as_estimate_does() {
    let dir = tempfile::tempdir().unwrap();
    let bundled = std::fs::read_to_string(common::root().join("pricing/aws-us-east-1.yaml"))
        .unwrap()
        .replace("id: aws-us-east-1", "id: test-ap-south-1")
        .replace("region: us-east-1", "region: ap-south-1")
        .replace(
            "replicated_write_per_million: 0.625 ",
            "replicated_write_per_million: 1.0   ",
        );
    std::fs::create_dir(dir.path().join("prices")).unwrap();
    write_file(&dir.path().join("prices"), "ap-south-1.yaml", &bundled);
    let w = write_file(
        dir.path(),
        "w.yaml",
        "prices: aws-us-east-1\ntables:\n  t:\n    items: 0\n    item_size: 1 KB\n    replicas: [ap-south-1]\n    patterns:\n      put: { op: put, rate: 1/s }\n",
    );
    let prices_dir = dir.path().join("prices").display().to_string();
    let diff = [
        "prices",
        "diff",
        "aws-us-east-1",
        "aws-us-east-1",
        "--workload",
        &w,
    ];
    // No bundled table prices ap-south-1: refused, as `estimate` refuses it.
    Case::new()
        .args(diff)
        .run()
        .code(1)
        .stderr_has("no USD price table for region `ap-south-1`");
    // 1 put/s × 3,600 s × 730 h = 2.628 M writes of 1 KB: 2.628 M WRU × $0.625 = 1.6425;
    // replicated: 2.628 M rWRU × $1.0 (the folder's table) = 2.628; replication transfer:
    // 2,628,000 KiB = 2.50625 GiB × $0.02 = 0.050125. Total 4.320625 → 4.32.
    let expected = dec("2.628") * dec("0.625")
        + dec("2.628") * dec("1.0")
        + dec("2628000") / dec("1048576") * dec("0.02");
    assert_eq!(expected.round_dp(2), dec("4.32"));
    Case::new()
        .args(diff)
        .args(["--prices-dir", &prices_dir])
        .run()
        .success()
        .stdout_has("│ w        │ 4.32   │ 4.32  │ 0.00 (+0 %) │");
    Case::new()
        .args(["estimate", &w, "--prices-dir", &prices_dir])
        .run()
        .success()
        .stdout_has("$ 4.32");
}

#[test]
fn two_runs_in_one_process_keep_their_own_layout_and_diagnostics() {
    let e = common::estimate(
        "tables:\n  orders:\n    items: 1M\n    item_size: 1 KB\n    patterns:\n      place-an-order-from-the-web-shop: { op: put, rate: 10/s }\n",
        "aws-us-east-1",
    );
    let wide = ddbcost::api::render_table(&e, None);
    let fitted = ddbcost::api::render_table(&e, Some(70));
    // The grid's lines (the footer's prose is not a table's).
    let widest = |t: &str| {
        t.lines()
            .filter(|l| l.starts_with(['╭', '│', '├', '╰']))
            .map(console::measure_text_width)
            .max()
            .unwrap()
    };
    assert!(widest(&wide) > 70, "{wide}");
    assert!(widest(&fitted) <= 70, "{fitted}");
    // Rendering with one layout leaves the other as it was: no process-wide setting.
    assert_eq!(ddbcost::api::render_table(&e, None), wide);
    // Two sessions, two sets of notes: the prices' age is said in the one that priced.
    let (a, b) = (
        ddbcost::api::Session::on_day(20_789),
        ddbcost::api::Session::on_day(20_789),
    );
    a.estimate("workloads/cloudshop.yaml").unwrap();
    assert!(!a.notes().is_empty());
    assert!(b.notes().is_empty());
}

/// Errors have kinds, and an I/O failure or an engine refusal keeps its cause: a caller
/// matches on them, not on the message.
#[test]
fn errors_carry_a_kind_and_their_cause() {
    use ddbcost::api::EngineError;
    use ddbcost::api::ErrorKind;
    use std::error::Error as _;
    let missing = ddbcost::api::Session::on_day(20_789)
        .estimate("no/such/workload.yaml")
        .unwrap_err();
    assert_eq!(missing.kind, ErrorKind::Io);
    let io = missing
        .source()
        .and_then(|s| s.downcast_ref::<std::io::Error>());
    assert_eq!(
        io.map(std::io::Error::kind),
        Some(std::io::ErrorKind::NotFound)
    );
    // Standard-IA prices are not in the CloudShop table: the engine's own variant says so.
    let e = common::try_estimate(
        "tables:\n  t:\n    class: standard-ia\n    item_size: 1 KB\n    patterns:\n      w: { op: put, rate: 1/s }\n",
        "cloudshop-eur",
        ddbcost::api::Settings::default(),
    )
    .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Engine);
    assert_eq!(e.exit_code(), 1);
    let engine = e.source().and_then(|s| s.downcast_ref::<EngineError>());
    assert!(
        matches!(engine, Some(EngineError::MissingPrice { price, .. }) if price == "standard_ia.write_per_million"),
        "{engine:?}"
    );
    // A loader refusal is input, with no cause beyond itself.
    let bad = ddbcost::api::load("tables: { t: { itemz: 1 } }\n", "w.yaml").unwrap_err();
    assert_eq!(bad.kind, ErrorKind::Input);
    assert!(bad.source().is_none());
    // From the command line, the kinds keep their exit codes.
    Case::new().args(["estimate", "no/such.yaml"]).run().code(1);
}

/// The README's layout, held: no command file imports another, and the loader, the price-list
/// importer and the template importers import nothing from `report`, `size` or `commands`.
#[test]
fn the_layout_the_readme_describes_holds() {
    const COMMANDS: [&str; 19] = [
        "advise",
        "anomalies",
        "bill",
        "compare",
        "diff",
        "estimate",
        "forecast",
        "import",
        "init",
        "keys",
        "prices",
        "prices_diff",
        "prices_import",
        "reconcile",
        "schema",
        "shell",
        "size",
        "sweep",
        "usage",
    ];
    let rust_files = |dir: &str| -> Vec<std::path::PathBuf> {
        let mut out = Vec::new();
        let mut todo = vec![common::root().join(dir)];
        while let Some(d) = todo.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    todo.push(p);
                } else if p.extension().is_some_and(|x| x == "rs") {
                    out.push(p);
                }
            }
        }
        assert!(!out.is_empty(), "{dir}");
        out
    };
    for file in rust_files("src/commands") {
        if file.ends_with("commands/mod.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        for c in COMMANDS {
            for import in [
                format!("super::{c}::"),
                format!("use super::{c};"),
                format!("commands::{c}::"),
            ] {
                assert!(
                    !text.contains(&import),
                    "{} imports command `{c}`",
                    file.display()
                );
            }
        }
    }
    for dir in ["src/load", "src/pricelist", "src/iac"] {
        for file in rust_files(dir) {
            let text = std::fs::read_to_string(&file).unwrap();
            for other in ["crate::report", "crate::size", "crate::commands"] {
                assert!(!text.contains(other), "{} imports {other}", file.display());
            }
        }
    }
    // The measured world's readers and the engine decide; only `report` words: none of them
    // imports a report or a command (the usage verdict once lived in `report/usage.rs`).
    for dir in ["src/cloudwatch", "src/bill", "src/engine"] {
        for file in rust_files(dir) {
            let text = std::fs::read_to_string(&file).unwrap();
            for other in ["crate::report", "crate::commands"] {
                assert!(!text.contains(other), "{} imports {other}", file.display());
            }
        }
    }
}

/// The library's one public part is `api`: `src/lib.rs` declares every other module private,
/// and the test files, benchmarks, examples and fuzz targets reach the library through
/// `ddbcost::api` only (anything else would not compile; this names the rule where it is
/// read). The engine writes no label and rounds nothing: its words are `report`'s.
#[test]
fn only_the_facade_is_public_and_the_engine_rounds_nothing() {
    let lib = std::fs::read_to_string(common::root().join("src/lib.rs")).unwrap();
    let public: Vec<&str> = lib
        .lines()
        .filter(|l| l.starts_with("pub ") || l.starts_with("pub("))
        .collect();
    assert_eq!(public, ["pub mod api;"]);
    let mut todo = vec![common::root().join("src/engine")];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p);
                continue;
            }
            let text = std::fs::read_to_string(&p).unwrap();
            // The code before the unit tests (their expectations may state rounded figures).
            let code = text.split("#[cfg(test)]").next().unwrap();
            for line in code.lines().filter(|l| !l.trim_start().starts_with("//")) {
                // `PLACES` is the savings plan's documented 20-decimal cover amount.
                assert!(
                    !line.contains("round_dp(") || line.contains("round_dp(PLACES)"),
                    "{} rounds: {line}",
                    p.display()
                );
                assert!(
                    !line.contains("label: Cow"),
                    "{} writes a label: {line}",
                    p.display()
                );
            }
        }
    }
}

/// Parse, then resolve: an argument that needs no input is typed before any input is read,
/// so its typo is refused at once — not after scanning an export or pricing a sweep.
#[test]
fn arguments_are_resolved_before_any_input_is_read() {
    Case::new()
        .args([
            "keys",
            "no/such/items.json",
            "--key",
            "pk",
            "--peak-rate",
            "reads=lots",
        ])
        .run()
        .code(2)
        .stderr_has("--peak-rate `reads=lots`: `lots` is not a number");
    Case::new()
        .args([
            "sweep",
            "no/such/workload.yaml",
            "--vary",
            "tables.t.class=standard",
            "--max-total",
            "lots",
        ])
        .run()
        .code(2)
        .stderr_has("--max-total `lots` is not an amount");
    Case::new()
        .args([
            "forecast",
            "no/such/workload.yaml",
            "--start",
            "2027-13",
            "--months",
            "12",
        ])
        .run()
        .code(2)
        .stderr_has("invalid value '2027-13' for '--start <YYYY-MM>': `2027-13` is not a month");
    Case::new()
        .args(["usage", "no/such/metrics.json", "--month-hours", "lots"])
        .run()
        .code(2)
        .stderr_has("--month-hours: `lots` is not a number");
    // bill and reconcile: the pricing flags and the flag pairs, before the bill is read.
    for (args, says) in [
        (
            vec![
                "bill",
                "no/such.csv",
                "--commitments",
                "--month-hours",
                "lots",
            ],
            "--month-hours: `lots` is not a number",
        ),
        (
            vec!["bill", "no/such.csv", "--commitments", "--format", "csv"],
            "`--commitments` adds a section to table, markdown or json output, not csv",
        ),
        (
            vec!["bill", "no/such.csv", "--month-hours", "720"],
            "price the commitments, and `--commitments` is not given",
        ),
        (
            vec![
                "reconcile",
                "no/such.yaml",
                "--bill",
                "no/such.csv",
                "--month-hours",
                "lots",
            ],
            "--month-hours: `lots` is not a number",
        ),
        (
            vec!["usage", "no/such.json", "--target", "lots"],
            "--target `lots` is not a share",
        ),
    ] {
        Case::new().args(&args).run().code(2).stderr_has(says);
    }
}

/// `usage` prices through the one pricing service with `estimate`'s flags: the workload's
/// `settings:`, `--month-hours` over them, `--currency` with its rate, `--prices-dir`,
/// `--max-price-age`.
#[test]
fn usage_prices_through_the_one_service_with_estimates_flags() {
    let dir = tempfile::tempdir().unwrap();
    // 14 days of 5-minute points at 100 WCU/s: 120,960,000 WRU, $75.60 on demand for 336 h.
    let file = write_file(
        dir.path(),
        "m.json",
        &page(&[result(
            "ddbcost:orders::ConsumedWriteCapacityUnits:Sum:300",
            &points(4_032, 300, "30000"),
        )]),
    );
    let w = write_file(
        dir.path(),
        "w.yaml",
        "prices: aws-us-east-1\nsettings: { month_hours: 744 }\ntables:\n  orders: { item_size: 1 KB, patterns: {} }\n",
    );
    let on_demand = |doc: &serde_json::Value| {
        decimal(&doc["tables"][0]["dimensions"][0]["on_demand"]["monthly"])
    };
    // The workload's 744-hour month: 75.60 × 744 ÷ 336 = $167.40.
    let doc = usage_json(std::slice::from_ref(&file), &["--workload", &w]);
    assert_eq!(doc["month_hours"], "744");
    assert_eq!(on_demand(&doc), dec("167.4"));
    // The command line over the file, and in euros at 0.9: 75.60 × 0.9 × 720 ÷ 336 = €145.80.
    let doc = usage_json(
        std::slice::from_ref(&file),
        &[
            "--workload",
            &w,
            "--month-hours",
            "720",
            "--currency",
            "EUR",
            "--fx-rate",
            "0.9",
            "--fx-date",
            "2026-11-30",
            "--fx-source",
            "a test rate",
        ],
    );
    assert_eq!(doc["currency"], "EUR");
    assert_eq!(doc["fx"], "1 USD = 0.9 EUR (2026-11-30; a test rate)");
    assert_eq!(on_demand(&doc), dec("145.8"));
    // A price table from `--prices-dir`: us-east-1 at twice the write price ($1.25 per
    // million): 120.96 × 1.25 × 730 ÷ 336 = $328.50.
    let prices = dir.path().join("prices");
    std::fs::create_dir(&prices).unwrap();
    let bundled =
        std::fs::read_to_string(common::root().join("pricing/aws-us-east-1.yaml")).unwrap();
    let doubled = bundled.replacen("id: aws-us-east-1", "id: doubled", 1);
    let doubled = doubled.replacen(
        "  write_per_million: 0.625 ",
        "  write_per_million: 1.25 ",
        1,
    );
    assert_ne!(
        doubled,
        bundled.replacen("id: aws-us-east-1", "id: doubled", 1)
    );
    std::fs::write(prices.join("doubled.yaml"), doubled).unwrap();
    let doc = usage_json(
        std::slice::from_ref(&file),
        &[
            "--prices-dir",
            prices.to_str().unwrap(),
            "--prices",
            "doubled",
        ],
    );
    assert_eq!(doc["price_table"], "doubled");
    assert_eq!(on_demand(&doc), dec("328.5"));
    // Prices' age is counted to the window's first month (2026-11): the bundled table took
    // effect on 2024-11-01, 730 days before.
    Case::new()
        .args(["usage", &file, "--max-price-age", "30"])
        .run()
        .code(1)
        .stderr_has("730 days before the start of 2026-11: more than --max-price-age 30");
}
