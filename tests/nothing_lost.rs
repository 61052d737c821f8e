//! Nothing lost, nothing guessed (#23 §3): counts that must add up, keys that must exist,
//! figures a merge must not accept.

mod common;

use std::path::Path;

use common::Case;

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn keys_with_no_value_counted_is_no_data_not_well_spread() {
    let dir = tempfile::tempdir().unwrap();
    let items = write(
        dir.path(),
        "items.json",
        "{\"pk\":{\"S\":\"a\"}}\n{\"pk\":{\"S\":\"b\"}}\n",
    );
    // `--key PK` where the items hold `pk`: nothing counted.
    let out = Case::new()
        .args(["keys", &items, "--key", "PK"])
        .run()
        .code(1)
        .stderr_has("no item held a value of `PK`: no data to judge its spread");
    assert!(!out.stdout.contains("well spread"), "{}", out.stdout);
}

#[test]
fn keys_an_empty_key_in_a_log_is_not_a_value() {
    let dir = tempfile::tempdir().unwrap();
    let items = write(dir.path(), "items.json", "{\"pk\":{\"S\":\"a\"}}\n");
    let log = write(dir.path(), "log.csv", "pk,operation\na,GetItem\n,GetItem\n");
    Case::new()
        .args([
            "keys",
            &items,
            "--key",
            "pk",
            "--log",
            &log,
            "--log-key",
            "pk",
        ])
        .run()
        .code(1)
        .stderr_has("the line has no `pk` (the key value)")
        .stderr_has("log.csv:3:1");
}

#[test]
fn keys_merge_refuses_a_summary_whose_totals_disagree_with_its_values() {
    let dir = tempfile::tempdir().unwrap();
    let items = write(
        dir.path(),
        "items.json",
        "{\"pk\":{\"S\":\"a\"}}\n{\"pk\":{\"S\":\"b\"}}\n{\"pk\":{\"S\":\"b\"}}\n",
    );
    let out = Case::new()
        .args(["keys", &items, "--key", "pk", "--format", "json"])
        .run()
        .success();
    let good = write(dir.path(), "good.json", &out.stdout);
    // Two summaries of 3 items merge to 6 (a: 2, b: 4).
    let merged = Case::new()
        .args(["keys", "--merge", &good, &good, "--format", "json"])
        .run()
        .success();
    let doc: serde_json::Value = serde_json::from_str(&merged.stdout).unwrap();
    assert_eq!(doc["items"], 6);
    let mut edited: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    edited["items"] = serde_json::json!(30);
    let bad = write(dir.path(), "bad.json", &edited.to_string());
    Case::new()
        .args(["keys", "--merge", &good, &bad])
        .run()
        .code(1)
        .stderr_has("its `pk` values hold 3 item(s) and 0 are without it, but its `items` is 30");
}
