//! `--root` holds while the folder changes under a run: a symlink inside the root is swapped,
//! as fast as a thread can, between a file inside and one outside while `estimate`, `bill`,
//! `usage` and an MCP `bill` call read it; no byte of the outside file may ever reach an
//! output. Each race is bounded in tries and time; a run either reads the inside file or is
//! refused as outside the folder.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use common::root;
use serde_json::{Value, json};

/// What the outside files say instead of the inside ones: it must never be printed.
const SECRET: &str = "SECRETTABLE";

/// A root with `inside` written to `name`'s target in it, `outside` beside the root, and
/// `name` a symlink swapped between the two by a thread until the guard drops.
struct Race {
    dir: tempfile::TempDir,
    stop: Arc<AtomicBool>,
    flipper: Option<std::thread::JoinHandle<u64>>,
}

impl Race {
    fn new(name: &str, inside: &[u8], outside: &[u8]) -> Race {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("root");
        std::fs::create_dir(&root).unwrap();
        let good = root.join(format!("good-{name}"));
        let secret = dir.path().join(format!("secret-{name}"));
        std::fs::write(&good, inside).unwrap();
        std::fs::write(&secret, outside).unwrap();
        let link = root.join(name);
        // Inside: a relative link. Outside: an absolute one, and a relative one up and out.
        let good = PathBuf::from(format!("good-{name}"));
        let up = PathBuf::from(format!("../secret-{name}"));
        std::os::unix::fs::symlink(&good, &link).unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let flipper = std::thread::spawn(move || {
            let tmp = link.with_extension("swap");
            let mut flips = 0u64;
            while !flag.load(Ordering::Relaxed) {
                for target in [&secret, &good, &up, &good] {
                    let _ = std::fs::remove_file(&tmp);
                    if std::os::unix::fs::symlink(target, &tmp).is_ok()
                        && std::fs::rename(&tmp, &link).is_ok()
                    {
                        flips += 1;
                    }
                }
            }
            flips
        });
        Race {
            dir,
            stop,
            flipper: Some(flipper),
        }
    }

    fn root(&self) -> PathBuf {
        self.dir.path().join("root")
    }

    /// Stops the swapping; how many swaps there were.
    fn finish(mut self) -> u64 {
        self.stop.store(true, Ordering::Relaxed);
        self.flipper.take().map_or(0, |f| f.join().unwrap_or(0))
    }
}

impl Drop for Race {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(f) = self.flipper.take() {
            let _ = f.join();
        }
    }
}

/// Runs `args` (under `--root`) up to `tries` times or 20 s; every output must be the
/// inside file's or the refusal of the outside one. The counts of each.
fn race_command(race: &Race, args: &[&str], tries: u32) -> (u32, u32) {
    let (mut read, mut refused) = (0, 0);
    let until = Instant::now() + Duration::from_secs(20);
    for _ in 0..tries {
        if Instant::now() > until {
            break;
        }
        let out = common::ddbcost()
            .args(args)
            .arg("--root")
            .arg(race.root())
            .current_dir(race.root())
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            !stdout.contains(SECRET) && !stderr.contains(SECRET),
            "{args:?} read outside the root:\n{stdout}\n{stderr}"
        );
        if out.status.success() {
            read += 1;
        } else {
            assert!(
                stderr.contains("outside the folder this run may read"),
                "{args:?}: {stderr}"
            );
            refused += 1;
        }
    }
    (read, refused)
}

fn workload(table: &str) -> String {
    format!(
        "prices: aws-us-east-1\ntables:\n  {table}:\n    capacity: {{ mode: on-demand }}\n    item_size: 1 KB\n    items: 1000\n    patterns:\n      get: {{ op: get, rate: 10/s, consistency: eventual }}\n"
    )
}

fn bill(table: &str) -> String {
    std::fs::read_to_string(root().join("tests/fixtures/bill/november-orders.csv"))
        .unwrap()
        .replace("table/orders", &format!("table/{table}"))
}

fn metrics(table: &str) -> Vec<u8> {
    use std::io::Read;
    let mut text = String::new();
    flate2::read::GzDecoder::new(
        std::fs::File::open(root().join("workloads/samples/orders-metrics.json.gz")).unwrap(),
    )
    .read_to_string(&mut text)
    .unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(
        text.replace("ddbcost:orders:", &format!("ddbcost:{table}:"))
            .as_bytes(),
    )
    .unwrap();
    gz.finish().unwrap()
}

#[test]
fn estimate_never_reads_through_a_swapped_symlink() {
    let race = Race::new(
        "w.yaml",
        workload("inside").as_bytes(),
        workload(SECRET).as_bytes(),
    );
    let (read, refused) = race_command(&race, &["estimate", "w.yaml", "--format", "json"], 60);
    let flips = race.finish();
    eprintln!("read {read}, refused {refused}, {flips} swaps");
    assert!(read + refused > 0 && flips > 0, "{read} {refused} {flips}");
}

#[test]
fn bill_never_reads_through_a_swapped_symlink() {
    let race = Race::new("b.csv", bill("inside").as_bytes(), bill(SECRET).as_bytes());
    let (read, refused) = race_command(&race, &["bill", "b.csv", "--format", "json"], 60);
    let flips = race.finish();
    eprintln!("read {read}, refused {refused}, {flips} swaps");
    assert!(read + refused > 0 && flips > 0, "{read} {refused} {flips}");
}

#[test]
fn usage_never_reads_through_a_swapped_symlink() {
    let race = Race::new("m.json.gz", &metrics("orders"), &metrics(SECRET));
    let (read, refused) = race_command(
        &race,
        &[
            "usage",
            "m.json.gz",
            "--prices",
            "aws-us-east-1",
            "--format",
            "json",
        ],
        15,
    );
    let flips = race.finish();
    eprintln!("read {read}, refused {refused}, {flips} swaps");
    assert!(read + refused > 0 && flips > 0, "{read} {refused} {flips}");
}

#[test]
fn an_mcp_call_never_reads_through_a_swapped_symlink() {
    let race = Race::new("b.csv", bill("inside").as_bytes(), bill(SECRET).as_bytes());
    let mut server = common::ddbcost()
        .args(["mcp", "--root"])
        .arg(race.root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = server.stdin.take().unwrap();
    let mut lines = BufReader::new(server.stdout.take().unwrap()).lines();
    let mut send = |v: Value| {
        stdin.write_all(format!("{v}\n").as_bytes()).unwrap();
        stdin.flush().unwrap();
    };
    send(
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "race", "version": "0"}}}),
    );
    let _ = lines.next();
    send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    let (mut read, mut refused) = (0, 0);
    let until = Instant::now() + Duration::from_secs(20);
    for id in 1..=40 {
        if Instant::now() > until {
            break;
        }
        send(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "bill", "arguments": {"files": ["b.csv"]}}}));
        let line = lines.next().unwrap().unwrap();
        assert!(
            !line.contains(SECRET),
            "an MCP call read outside the root: {line}"
        );
        let reply: Value = serde_json::from_str(&line).unwrap();
        if reply["result"]["isError"] == false {
            read += 1;
        } else {
            assert!(line.contains("outside the folder"), "{line}");
            refused += 1;
        }
    }
    let _ = server.kill();
    let _ = server.wait();
    let flips = race.finish();
    eprintln!("read {read}, refused {refused}, {flips} swaps");
    assert!(read + refused > 0 && flips > 0, "{read} {refused} {flips}");
}

/// The root is the run's: a run without `--root` after one with it reads anywhere again
/// (the in-memory API runs commands in one process, one after another).
#[test]
fn a_root_does_not_outlive_its_run() {
    let dir = tempfile::tempdir().unwrap();
    let inside = dir.path().join("in");
    std::fs::create_dir(&inside).unwrap();
    let workload_file = root().join("workloads/cloudshop.yaml");
    let file = workload_file.to_str().unwrap();
    let confined = ddbcost::api::run_in_memory(
        [
            "ddbcost",
            "estimate",
            file,
            "--root",
            inside.to_str().unwrap(),
        ],
        "",
        20_789,
    );
    assert_ne!(confined.code, 0);
    assert!(
        confined.stderr.contains("outside the folder"),
        "{}",
        confined.stderr
    );
    let free = ddbcost::api::run_in_memory(["ddbcost", "estimate", file], "", 20_789);
    assert_eq!(free.code, 0, "{}", free.stderr);
}
