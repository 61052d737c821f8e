//! `ddbcost init`: a starter workload from flags, from answers (piped with `--interactive`,
//! as a terminal would give them), and from nothing at all; what it writes loads, prices and
//! satisfies the schema; bad names, regions and index specifications are refused with exit 2;
//! an existing file is never replaced without `--force`.

mod common;

use common::{Case, dec};
use proptest::prelude::*;
use serde_json::Value;

fn estimate_json(path: &str) -> Value {
    let out = Case::new()
        .args(["estimate", path, "--format", "json"])
        .run()
        .success();
    serde_json::from_str(&out.stdout).unwrap()
}

fn line<'a>(estimate: &'a Value, key: &str) -> &'a Value {
    estimate["line_items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["key"] == key)
        .unwrap_or_else(|| panic!("no line {key}"))
}

#[test]
fn flags_describe_a_table_that_prices() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("orders.yaml");
    let path = path.to_str().unwrap();
    let out = Case::new()
        .args([
            "init",
            "--table",
            "orders",
            "--region",
            "eu-west-1",
            "--key",
            "pk,sk",
            "--gsi",
            "by-status:status,placed_at:keys-only",
            "--gsi",
            "by-sku:sku:include=title,price",
            "--lsi",
            "by-date:created_at",
            "--output",
            path,
        ])
        .run()
        .success();
    assert!(out.stderr.contains(&format!("ddbcost estimate {path}")));
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.starts_with("# yaml-language-server: $schema=workload.schema.json\n"));
    for expected in [
        "prices: aws-eu-west-1",
        "key: { partition: pk, sort: sk }",
        "key: { partition: status, sort: placed_at }",
        "include: [title, price]",
        "type: lsi",
        "index: by-date",
    ] {
        assert!(text.contains(expected), "{expected}:\n{text}");
    }
    let e = estimate_json(path);
    // put-item: 10/s × 3,600 × 730 = 26,280,000 writes of a 1 KB item = 26.28 M WRU; at
    // eu-west-1's $0.705 per million: 26.28 × 0.705 = $18.5274.
    let writes = line(&e, "orders/writes");
    assert_eq!(dec(writes["quantity"].as_str().unwrap()), dec("26.28"));
    assert_eq!(dec(writes["cost"].as_str().unwrap()), dec("18.5274"));
    // get-item: 50/s × 2,628,000 s = 131.4 M gets of 1 KB, eventual: 0.5 RRU each = 65.7 M;
    // query-items: 5/s → 13.14 M queries of 10 × 1 KB = 10 KB → ⌈10 / 4⌉ = 3 units × 0.5 =
    // 1.5 RRU = 19.71 M; 65.7 + 19.71 = 85.41 M RRU × $0.1415 = $12.085515.
    let reads = line(&e, "orders/reads");
    assert_eq!(dec(reads["quantity"].as_str().unwrap()), dec("85.41"));
    assert_eq!(dec(reads["cost"].as_str().unwrap()), dec("12.085515"));
}

#[test]
fn answers_describe_a_table_too() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.yaml");
    let path = path.to_str().unwrap();
    // One answer per question: a refused name and a refused region are asked again.
    let answers = "x\nevents\neu-west1\neu-west-1\ntenant,ts\nby-type:type:keys-only\n-\nby-day:day\n-\nprovisioned\n";
    let out = Case::new()
        .args(["init", "--interactive", "--output", path])
        .stdin(answers)
        .run()
        .success();
    assert!(
        out.stderr.contains("Table name [my-table]: "),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("DynamoDB names are 3 to 255"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr
            .contains("no bundled price table for region `eu-west1`")
    );
    let text = std::fs::read_to_string(path).unwrap();
    for expected in [
        "  events:",
        "prices: aws-eu-west-1",
        "key: { partition: tenant, sort: ts }",
        "      by-type:",
        "        type: lsi",
        "mode: provisioned",
    ] {
        assert!(text.contains(expected), "{expected}:\n{text}");
    }
    let e = estimate_json(path);
    assert!(
        e["line_items"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["component"].as_str().unwrap().contains("wcu")
                || l["unit"].as_str().unwrap().contains("WCU"))
    );
    // Answers that run out are an error, not a guess.
    Case::new()
        .args(["init", "--interactive"])
        .stdin("events\n")
        .run()
        .code(2)
        .stderr_has("no answer to");
}

#[test]
fn nothing_described_writes_the_default_starter() {
    // Standard input is not a terminal here: no questions, the defaults.
    let out = Case::new().args(["init"]).run().success();
    assert!(out.stdout.contains("  my-table:"));
    assert!(out.stdout.contains("prices: aws-us-east-1"));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("w.yaml");
    std::fs::write(&path, &out.stdout).unwrap();
    let e = estimate_json(path.to_str().unwrap());
    // put-item 26.28 M WRU at us-east-1's $0.625 per million: 26.28 × 0.625 = $16.425.
    assert_eq!(
        dec(line(&e, "my-table/writes")["cost"].as_str().unwrap()),
        dec("16.425")
    );
}

#[test]
fn what_init_writes_satisfies_the_schema() {
    let out = Case::new()
        .args([
            "init",
            "--table",
            "my.table",
            "--key",
            "order id,created",
            "--gsi",
            "g-1:true:all",
            "--mode",
            "provisioned",
        ])
        .run()
        .success();
    // Names YAML would misread are quoted.
    assert!(
        out.stdout.contains(r#"partition: "order id""#),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains(r#"partition: "true""#),
        "{}",
        out.stdout
    );
    let schema: Value =
        serde_json::from_str(&Case::new().args(["schema"]).run().success().stdout).unwrap();
    let doc: Value = serde_saphyr::from_str(&out.stdout).unwrap();
    let validator = jsonschema::draft202012::new(&schema).unwrap();
    let errors: Vec<String> = validator.iter_errors(&doc).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}");
}

#[test]
fn bad_descriptions_are_refused() {
    for (args, message) in [
        (vec!["--table", "ab"], "DynamoDB names are 3 to 255"),
        (vec!["--table", "my table"], "DynamoDB names are 3 to 255"),
        (vec!["--region", "eu-west1"], "eu-west-1"),
        // A real region without a bundled table is not taken for a typo of another: no
        // `us-east-1` for `sa-east-1`; its import named, and the bundled ones of its continent.
        (
            vec!["--region", "sa-east-1"],
            "then `--prices-dir DIR --prices aws-sa-east-1`; no bundled table is of its continent",
        ),
        (
            vec!["--region", "eu-west-3"],
            "bundled on its continent: `eu-west-1`, `eu-central-1`",
        ),
        (vec!["--key", "a,b,c"], "expected PK or PK,SK"),
        (
            vec!["--key", "pk", "--lsi", "by-x:x"],
            "the table has no sort key",
        ),
        (vec!["--gsi", "g1"], "--index `g1"),
        (vec!["--gsi", "g1:a:most"], "unknown projection `most`"),
        (
            vec!["--gsi", "gs1:a", "--gsi", "gs1:b"],
            "two indexes are named `gs1`",
        ),
        (
            vec!["--region", "eu-central-1", "--mode", "provisioned"],
            "cannot price this table",
        ),
        (vec!["--gsi", "g$:a"], "index `g$`"),
        (vec!["--prices", "nowhere"], "no price table `nowhere`"),
    ] {
        let out = Case::new().args(["init"]).args(&args).run();
        assert_ne!(out.code, 0, "{args:?}");
        assert!(out.stderr.contains(message), "{args:?}: {}", out.stderr);
    }
}

#[test]
fn an_existing_file_is_kept_without_force() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mine.yaml");
    std::fs::write(&path, "mine\n").unwrap();
    let p = path.to_str().unwrap();
    Case::new()
        .args(["init", "--output", p])
        .run()
        .code(2)
        .stderr_has("exists");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "mine\n");
    Case::new()
        .args(["init", "--output", p, "--force"])
        .run()
        .success();
    assert!(std::fs::read_to_string(&path).unwrap().contains("my-table"));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Whatever the names and specifications, init either refuses (exit 2) or writes a
    /// workload that loads and prices.
    #[test]
    fn init_writes_what_loads_or_refuses(
        table in "[a-zA-Z0-9_.$ -]{1,12}",
        key in "[a-z#: ]{1,6}(,[a-z0-9\"']{1,6})?",
        gsi in "[a-z0-9-]{1,6}:[a-zA-Z0-9 ]{1,5}(,[a-z]{1,4})?(:(all|keys-only|include=[a-z]{1,3}|bad))?",
    ) {
        let out = Case::new().args(["init", "--table", &table, "--key", &key, "--gsi", &gsi]).run();
        if out.code == 0 {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("w.yaml");
            std::fs::write(&path, &out.stdout).unwrap();
            let e = Case::new().args(["estimate", path.to_str().unwrap()]).run();
            prop_assert_eq!(e.code, 0, "{}\n{}", out.stdout, e.stderr);
        } else {
            prop_assert_eq!(out.code, 2, "{}", out.stderr);
            prop_assert!(!out.stderr.contains("panicked"));
        }
    }
}

/// On a real terminal (a pseudo-terminal made by `script(1)`), a bare `ddbcost init` asks.
#[test]
fn a_terminal_is_asked() {
    let bin = env!("CARGO_BIN_EXE_ddbcost");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("asked.yaml");
    let command = format!(
        "printf 'carts\\neu-west-1\\nuser,cart\\n-\\n-\\non-demand\\n' | script -qec '{bin} init --output {}' /dev/null",
        path.display()
    );
    if !common::has_tool("script") {
        return common::skip_without("script", "util-linux's script(1) makes a terminal");
    }
    let o = common::command("bash")
        .args(["-c", &command])
        .output()
        .unwrap();
    assert!(
        o.status.success() && path.exists(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("  carts:"), "{text}");
    assert!(text.contains("key: { partition: user, sort: cart }"));
    let shown = String::from_utf8_lossy(&o.stdout);
    assert!(shown.contains("Table name [my-table]"), "{shown}");
}

/// With --interactive, the flags given are the questions' defaults: empty answers keep them.
#[test]
fn flags_are_the_answers_defaults() {
    let out = Case::new()
        .args([
            "init",
            "--interactive",
            "--table",
            "orders",
            "--region",
            "eu-west-1",
            "--key",
            "cust,order",
            "--gsi",
            "by-x:x",
        ])
        .stdin("\n\n\n-\n-\n\n")
        .run()
        .success();
    assert!(
        out.stderr.contains("Table name [orders]: "),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("[eu-west-1]: "));
    for expected in [
        "  orders:",
        "prices: aws-eu-west-1",
        "key: { partition: cust, sort: order }",
        "      by-x:",
    ] {
        assert!(out.stdout.contains(expected), "{expected}:\n{}", out.stdout);
    }
}

#[test]
fn an_imported_price_table_is_found_in_prices_dir() {
    // A price table of our own (the bundled us-east-1 one under another id), in a folder as
    // `prices import` writes one: init checks the workload it writes against it there.
    let dir = tempfile::tempdir().unwrap();
    let prices = dir.path().join("prices");
    std::fs::create_dir(&prices).unwrap();
    let bundled =
        std::fs::read_to_string(common::root().join("pricing/aws-us-east-1.yaml")).unwrap();
    std::fs::write(
        prices.join("mine.yaml"),
        bundled.replacen("id: aws-us-east-1", "id: mine", 1),
    )
    .unwrap();
    let out = dir.path().join("w.yaml");
    let out = out.to_str().unwrap();
    Case::new()
        .args([
            "init", "--table", "orders", "--prices", "mine", "--output", out,
        ])
        .run()
        .code(2)
        .stderr_has("no price table `mine`");
    assert!(
        !std::path::Path::new(out).exists(),
        "nothing written on a refusal"
    );
    Case::new()
        .args([
            "init",
            "--table",
            "orders",
            "--prices",
            "mine",
            "--prices-dir",
            prices.to_str().unwrap(),
            "--output",
            out,
        ])
        .run()
        .success();
    assert!(
        std::fs::read_to_string(out)
            .unwrap()
            .contains("prices: mine")
    );
}
