//! Hostile inputs: each is answered by an error (or a counted bad item), never a panic or a
//! hang. Time and memory were measured with `/usr/bin/time -v` (see the README); these tests
//! pin the behaviour.

mod common;

use common::{Case, temp_workload};

#[test]
fn a_yaml_alias_bomb_is_refused() {
    // Nine levels of nine aliases: 9^9 nodes if expanded. Inside a scenario patch, which is
    // read as an untyped document, so nothing stops the expansion but the budget.
    let mut yaml = String::from(
        "prices: aws-us-east-1\ntables:\n  t:\n    storage: 1 GB\nscenarios:\n  alternatives:\n    - name: bomb\n      patch:\n        a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n",
    );
    let mut prev = 'a';
    for n in "bcdefghi".chars() {
        yaml.push_str(&format!(
            "        {n}: &{n} [{}]\n",
            vec![format!("*{prev}"); 9].join(",")
        ));
        prev = n;
    }
    let (_d, path) = temp_workload(&yaml);
    Case::new()
        .args(["compare", &path])
        .run()
        .code(1)
        .stderr_has("budget breached")
        .stderr_has("alias bombs");
}

#[test]
fn yaml_nested_100000_deep_is_refused() {
    let (_d, path) = temp_workload(&format!(
        "tables: {}{}\n",
        "[".repeat(100_000),
        "]".repeat(100_000)
    ));
    Case::new()
        .args(["estimate", &path, "--prices", "aws-us-east-1"])
        .run()
        .code(1)
        .stderr_has("workload.yaml:1:");
}

#[test]
fn json_nested_100000_deep_is_a_bad_item() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("deep.json");
    std::fs::write(
        &path,
        format!(
            "{{\"a\":{}{{\"S\":\"x\"}}{}}}\n",
            "{\"M\":{\"x\":".repeat(100_000),
            "}}".repeat(100_000)
        ),
    )
    .unwrap();
    Case::new()
        .args(["size", &path.to_string_lossy(), "--format", "json"])
        .run()
        .success()
        .stdout_has("recursion limit exceeded");
    Case::new()
        .args(["size", &path.to_string_lossy(), "--strict"])
        .run()
        .code(1)
        .stderr_has("recursion limit exceeded");
}

#[test]
fn a_workload_file_over_16_mb_is_refused_unread() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.yaml");
    let file = std::fs::File::create(&path).unwrap();
    file.set_len(17 * 1024 * 1024).unwrap(); // sparse: no need to write 17 MB
    Case::new()
        .args([
            "estimate",
            &path.to_string_lossy(),
            "--prices",
            "aws-us-east-1",
        ])
        .run()
        .code(1)
        .stderr_has("more than the 16777216 bytes (= 16 MiB) a workload");
}

#[test]
fn a_ten_megabyte_string_attribute_is_an_item_over_400_kb() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big-item.json");
    std::fs::write(
        &path,
        format!("{{\"s\":{{\"S\":\"{}\"}}}}\n", "x".repeat(10 * 1024 * 1024)),
    )
    .unwrap();
    Case::new()
        .args(["size", &path.to_string_lossy()])
        .run()
        .success()
        .stderr_has("over the 400 KB (409,600 B) limit");
}

#[cfg(unix)]
#[test]
fn a_fifo_is_not_a_workload() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo.yaml");
    let status = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !status.is_ok_and(|s| s.success()) {
        return; // no mkfifo on this system
    }
    // Refused from its metadata, without opening it (opening a FIFO would block).
    Case::new()
        .args([
            "estimate",
            &fifo.to_string_lossy(),
            "--prices",
            "aws-us-east-1",
        ])
        .run()
        .code(1)
        .stderr_has("is not a regular file");
    Case::new()
        .args(["size", &fifo.to_string_lossy()])
        .run()
        .code(1)
        .stderr_has("not a regular file");
}

#[test]
fn an_absurd_rate_is_an_error_not_a_number() {
    let (_d, path) = temp_workload(
        "prices: aws-us-east-1\ntables:\n  t:\n    item_size: 400 KB\n    patterns:\n      p: { op: put, rate: 1e20/s }\n",
    );
    Case::new()
        .args(["estimate", &path])
        .run()
        .code(1)
        .stderr_has("`1e20/s` is above 10^12 requests a second")
        .stderr_has("at tables.t.patterns.p.rate");
}

#[test]
fn numbers_past_what_a_decimal_holds_overflow_into_an_error() {
    // Both inputs are within their bounds (10^12 scans a second, 10^15 items each), but the
    // read units — 2.6 × 10^18 scans a month × 10^17 units each — exceed a decimal's
    // 7.9 × 10^28: the engine's checked arithmetic refuses them.
    let (_d, path) = temp_workload(
        "prices: aws-us-east-1\ntables:\n  t:\n    item_size: 400 KB\n    patterns:\n      s: { op: scan, rate: 1000000000000/s, items: 1000000000000000, consistency: strong }\n",
    );
    Case::new()
        .args(["estimate", &path])
        .run()
        .code(1)
        .stderr_has("too large to compute exactly");
    let (_d, path) = temp_workload(
        "prices: aws-us-east-1\ntables:\n  t:\n    item_size: 1 KB\n    patterns:\n      s: { op: scan, rate: 1/s, items: 2000000000000000, consistency: strong }\n",
    );
    Case::new()
        .args(["estimate", &path])
        .run()
        .code(1)
        .stderr_has("items per operation is above 10^15");
}

#[test]
fn a_mapping_nested_100000_deep_in_a_patch_is_refused() {
    let yaml = format!(
        "prices: aws-us-east-1\ntables:\n  t:\n    storage: 1 GB\nscenarios:\n  alternatives:\n    - name: deep\n      patch: {}1{}\n",
        "{a: ".repeat(100_000),
        "}".repeat(100_000)
    );
    let (_d, path) = temp_workload(&yaml);
    Case::new()
        .args(["compare", &path])
        .run()
        .code(1)
        .stderr_has("budget breached: Depth");
}
