//! Faults while writing, on the binary: SIGTERM in the middle of writing each kind of output
//! (a report, a measured workload, `bill --to-workload`, an import), a full disk (a small
//! tmpfs, mounted where the test may: as root; under CI a test that cannot mount fails),
//! a low limit of open files and a low memory limit. After each: no partial file, no
//! temporary file left, and a clear message (never a panic).

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{many_tables, root, temp_files};

/// A CUR 2.0 bill of `tables` tables, a read row each.
fn bill(tables: usize) -> String {
    let mut out = String::from(
        "line_item_line_item_type,line_item_usage_start_date,line_item_product_code,line_item_usage_type,line_item_resource_id,line_item_usage_amount,line_item_currency_code,line_item_unblended_cost\n",
    );
    for t in 0..tables {
        out.push_str(&format!("Usage,2026-11-01T00:00:00Z,AmazonDynamoDB,ReadRequestUnits,arn:aws:dynamodb:us-east-1:1:table/table-{t},8000000,USD,1\n"));
    }
    out
}

/// A CloudFormation template of `tables` tables.
fn template(tables: usize) -> String {
    let resources: Vec<String> = (0..tables)
        .map(|t| format!("\"T{t}\":{{\"Type\":\"AWS::DynamoDB::Table\",\"Properties\":{{\"TableName\":\"table-{t}\",\"BillingMode\":\"PAY_PER_REQUEST\",\"KeySchema\":[{{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"}}],\"AttributeDefinitions\":[{{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"}}]}}}}"))
        .collect();
    format!("{{\"Resources\":{{{}}}}}", resources.join(","))
}

/// Runs `args` in `dir` and sends SIGTERM as soon as a temporary file appears there (else
/// after `fallback`); whether the signal came while the file was being written.
fn term_while_writing(dir: &Path, args: &[&str], fallback: Duration) -> bool {
    let mut child = common::ddbcost()
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let mut seen = false;
    while child.try_wait().unwrap().is_none() {
        if !temp_files(dir).is_empty() {
            seen = true;
            break;
        }
        if start.elapsed() > fallback {
            break;
        }
    }
    // The process may have ended already: `kill` then says so, which is not our concern.
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .stderr(Stdio::piped())
        .output();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    seen
}

/// After a SIGTERM: no temporary file, and the output either absent or whole.
fn whole_or_absent(dir: &Path, output: &str, whole: impl Fn(&str) -> bool) {
    assert!(
        temp_files(dir).is_empty(),
        "left behind: {:?}",
        temp_files(dir)
    );
    let path = dir.join(output);
    if path.exists() {
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(whole(&text), "a partial {output}: {} bytes", text.len());
        std::fs::remove_file(&path).unwrap();
    }
}

/// A command line, the output it writes, and how to tell that output whole.
type Kind<'a> = (&'a [&'a str], &'a str, &'a dyn Fn(&str) -> bool);

#[test]
fn sigterm_while_writing_leaves_no_partial_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("big.yaml"), many_tables(400)).unwrap();
    std::fs::write(d.join("bill.csv"), bill(3_000)).unwrap();
    std::fs::write(d.join("template.json"), template(1_500)).unwrap();
    std::fs::copy(
        root().join("workloads/samples/orders-metrics.json.gz"),
        d.join("metrics.json.gz"),
    )
    .unwrap();
    std::fs::copy(
        root().join("workloads/samples/orders-live.yaml"),
        d.join("live.yaml"),
    )
    .unwrap();
    let json_whole = |t: &str| serde_json::from_str::<serde_json::Value>(t).is_ok();
    let yaml_whole = |t: &str| t.ends_with('\n') && t.contains("tables:");
    let kinds: [Kind<'_>; 4] = [
        (
            &["estimate", "big.yaml", "--format", "json", "-o", "out.json"],
            "out.json",
            &json_whole,
        ),
        (
            &[
                "usage",
                "metrics.json.gz",
                "--workload",
                "live.yaml",
                "--measured-workload",
                "measured.yaml",
            ],
            "measured.yaml",
            &yaml_whole,
        ),
        (
            &["bill", "bill.csv", "--to-workload", "from-bill.yaml"],
            "from-bill.yaml",
            &yaml_whole,
        ),
        (
            &["import", "template.json", "-o", "imported.yaml"],
            "imported.yaml",
            &yaml_whole,
        ),
    ];
    for (args, output, whole) in kinds {
        // Signals at several moments: as the temporary file appears, and at fixed delays.
        let mut caught = 0;
        for fallback in [5_000, 50, 200, 5_000, 800, 5_000] {
            if term_while_writing(d, args, Duration::from_millis(fallback)) {
                caught += 1;
            }
            whole_or_absent(d, output, whole);
        }
        eprintln!("{output}: signalled while writing {caught} time(s) of 6");
    }
}

/// Mounts a tmpfs of `kb` KB at `dir`; `false` where this machine does not let us.
fn mount_tmpfs(dir: &Path, kb: u32) -> bool {
    Command::new("mount")
        .args(["-t", "tmpfs", "-o", &format!("size={kb}k"), "tmpfs"])
        .arg(dir)
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

struct Mounted(PathBuf);

impl Drop for Mounted {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

#[test]
fn a_full_disk_leaves_no_partial_file() {
    let dir = tempfile::tempdir().unwrap();
    let small = dir.path().join("small");
    std::fs::create_dir(&small).unwrap();
    if !mount_tmpfs(&small, 64) {
        assert!(
            std::env::var_os("DDBCOST_REQUIRE_TOOLS").is_none(),
            "CI: cannot mount a tmpfs to fill"
        );
        eprintln!("skipped: cannot mount a tmpfs here (not root?)");
        return;
    }
    let _mounted = Mounted(small.clone());
    let workload = dir.path().join("big.yaml");
    std::fs::write(&workload, many_tables(40)).unwrap();
    // ≈ 360 KB of JSON into 64 KB.
    let out = common::ddbcost()
        .args([
            "estimate",
            workload.to_str().unwrap(),
            "--format",
            "json",
            "-o",
        ])
        .arg(small.join("out.json"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("No space left on device"), "{stderr}");
    assert!(!small.join("out.json").exists());
    assert!(temp_files(&small).is_empty(), "{:?}", temp_files(&small));
}

/// Runs `ddbcost args` under the shell limit `ulimit`.
fn limited(ulimit: &str, dir: &Path, args: &str) -> std::process::Output {
    Command::new("bash")
        .arg("-c")
        .arg(format!("ulimit {ulimit} && exec \"$0\" {args}"))
        .arg(env!("CARGO_BIN_EXE_ddbcost"))
        .current_dir(dir)
        .output()
        .unwrap()
}

#[test]
fn few_open_files_and_little_memory_end_with_a_message() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("big.yaml"), many_tables(400)).unwrap();
    // Four workers reading an export of six files, with room for one or two open files:
    // a worker's open fails, and says why.
    let export = d.join("export");
    std::fs::create_dir(&export).unwrap();
    let items = std::fs::read_to_string(root().join("workloads/samples/orders.jsonl")).unwrap();
    for i in 0..6 {
        std::fs::write(export.join(format!("part{i}.json")), &items).unwrap();
    }
    for n in [4, 5] {
        let out = limited(
            &format!("-n {n}"),
            d,
            "size export --jobs 4 --output sizes.json",
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(
            stderr.contains("Too many open files") && stderr.contains("part"),
            "{stderr}"
        );
        assert!(!d.join("sizes.json").exists() && temp_files(d).is_empty());
    }
    // 64 MiB of address space: less than pricing 400 tables takes. Rust's allocator ends
    // the process with its message; nothing was written.
    let out = limited("-v 65536", d, "estimate big.yaml --format json -o out.json");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(
        stderr.contains("memory allocation")
            || stderr.contains("out of memory")
            || stderr.contains("Cannot allocate memory"),
        "{stderr}"
    );
    assert!(
        !d.join("out.json").exists() && temp_files(d).is_empty(),
        "{:?}",
        temp_files(d)
    );
}
