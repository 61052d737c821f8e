//! Security (#23 §4): a file a workload names that is not of the expected kind is never
//! echoed (a `.env` secret must not reach standard error); every path a workload names is
//! relative to the workload's own folder; Markdown reports show names as text, never as HTML,
//! links or images in a pull-request comment.

mod common;

use common::Case;

const SECRET: &str = "abc123SECRETvalue";

fn folder_with_secret() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join(".env"),
        format!("AWS_SECRET_ACCESS_KEY={SECRET}\n"),
    )
    .unwrap();
    std::fs::write(dir.path().join("tokens.json"), format!("\"{SECRET}\"\n")).unwrap();
    std::fs::create_dir(dir.path().join("w")).unwrap();
    dir
}

#[test]
fn a_prices_file_that_is_not_yaml_is_never_quoted() {
    let dir = folder_with_secret();
    let workload = dir.path().join("w/w.yaml");
    std::fs::write(
        &workload,
        "name: x\nprices: ../.env\ntables:\n  t:\n    items: 1\n    item_size: 1 KB\n    capacity: { mode: on-demand }\n",
    )
    .unwrap();
    // `../.env` is relative to the workload's folder (w/), wherever the command runs.
    let out = Case::new()
        .args(["estimate", workload.to_str().unwrap()])
        .run()
        .code(1)
        .stderr_has("is not a price table")
        .stderr_has(".env:1:1");
    assert!(!out.stderr.contains(SECRET), "{}", out.stderr);
    assert!(!out.stderr.contains("AWS_SECRET"), "{}", out.stderr);
}

#[test]
fn a_sample_that_is_not_items_is_never_quoted() {
    let dir = folder_with_secret();
    let workload = dir.path().join("w/w.yaml");
    for sample in ["../.env", "../tokens.json"] {
        std::fs::write(
            &workload,
            format!("name: x\nprices: aws-us-east-1\ntables:\n  t:\n    items: 1\n    item_size: {{ sample: {sample} }}\n    capacity: {{ mode: on-demand }}\n"),
        )
        .unwrap();
        let out = Case::new()
            .args(["estimate", workload.to_str().unwrap()])
            .run()
            .code(1)
            .stderr_has("malformed item");
        assert!(!out.stderr.contains(SECRET), "{sample}: {}", out.stderr);
    }
}

#[test]
fn every_path_a_workload_names_is_relative_to_its_folder() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("w/prices")).unwrap();
    let table = std::fs::read_to_string(common::root().join("pricing/aws-us-east-1.yaml"))
        .unwrap()
        .replace("id: aws-us-east-1", "id: mine");
    std::fs::write(dir.path().join("w/prices/mine.yaml"), table).unwrap();
    let workload = dir.path().join("w/w.yaml");
    std::fs::write(
        &workload,
        "name: x\nprices: prices/mine.yaml\ntables:\n  t:\n    items: 1\n    item_size: 1 KB\n    capacity: { mode: on-demand }\n    patterns:\n      put: { op: put, rate: 1/s }\n",
    )
    .unwrap();
    // Run from the crate's folder: `prices/mine.yaml` is found beside the workload.
    let out = Case::new()
        .args(["estimate", workload.to_str().unwrap(), "--format", "json"])
        .run()
        .success();
    let doc: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(doc["price_table"]["id"], "mine", "{}", out.stdout);
    // 1 put/s × 2,628,000 s a month = 2.628 M WRU × $0.625 per M = $1.6425.
    let total: rust_decimal::Decimal = doc["total"].as_str().unwrap().parse().unwrap();
    assert!(total >= common::dec("1.6425"), "{total}");
}

#[test]
fn markdown_reports_show_names_as_text_not_html() {
    let dir = tempfile::tempdir().unwrap();
    let workload = dir.path().join("w.yaml");
    std::fs::write(
        &workload,
        "name: \"<img src=x onerror=alert(1)> ![pixel](http://tracker.example/p.png)\"\nprices: aws-us-east-1\ntables:\n  t:\n    items: 1\n    item_size: 1 KB\n    capacity: { mode: on-demand }\n    patterns:\n      \"<b>put</b>\": { op: put, rate: 1/s }\nscenarios:\n  alternatives:\n    - name: \"<script>x</script>\"\n      patch:\n        tables: { t: { patterns: { \"<b>put</b>\": { rate: 2/s } } } }\n",
    )
    .unwrap();
    let w = workload.to_str().unwrap();
    for args in [
        vec!["estimate", w, "--format", "markdown"],
        vec!["estimate", w, "--format", "markdown", "--by", "pattern"],
        vec!["compare", w, "--format", "markdown"],
        vec!["diff", w, w, "--format", "markdown"],
    ] {
        let out = Case::new().args(&args).run().success();
        for raw in ["<img", "<b>", "<script>", "![pixel]"] {
            assert!(
                !out.stdout.contains(raw),
                "{args:?} passes {raw} through:\n{}",
                out.stdout
            );
        }
        assert!(out.stdout.contains("&lt;img"), "{args:?}:\n{}", out.stdout);
    }
}
