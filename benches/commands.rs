//! Whole commands (issue 15): the process start of `estimate` and `compare` against the
//! spawn floor (`true`), `compare` of a workload with 100 scenarios in-process, and `sweep`
//! of 10,000 designs in-process on all cores — each as a user runs it, files and all.

use std::process::{Command, Stdio};

use criterion::{Criterion, criterion_group, criterion_main};

const BIN: &str = env!("CARGO_BIN_EXE_ddbcost");
const CLOUDSHOP: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/workloads/cloudshop.yaml");

fn spawn(program: &str, args: &[&str]) {
    let status = Command::new(program)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "{program} {args:?}");
}

fn bench_process(c: &mut Criterion) {
    let mut group = c.benchmark_group("process");
    group.bench_function("true (the spawn floor)", |b| b.iter(|| spawn("true", &[])));
    group.bench_function("ddbcost estimate workloads/cloudshop.yaml", |b| {
        b.iter(|| spawn(BIN, &["estimate", CLOUDSHOP]));
    });
    group.bench_function("ddbcost compare workloads/cloudshop.yaml", |b| {
        b.iter(|| spawn(BIN, &["compare", CLOUDSHOP]));
    });
    group.finish();
}

/// CloudShop with its scenarios replaced by 100 alternatives, each a different rate of its
/// busiest read pattern and a different consistency mix.
fn hundred_scenarios() -> String {
    let text = std::fs::read_to_string(CLOUDSHOP).unwrap();
    let mut out = text[..text.find("\nscenarios:").unwrap()].to_string();
    out.push_str("\nscenarios:\n  alternatives:\n");
    for i in 1..=100 {
        out.push_str(&format!(
            "    - name: alt-{i}\n      patch:\n        tables:\n          orders:\n            patterns:\n              get-order: {{ rate: {}M/month, consistency: {}% eventual }}\n",
            10 + i,
            i % 100
        ));
    }
    out
}

fn run(args: &[&str]) {
    assert_eq!(ddbcost::api::run(args.iter().copied()), 0);
}

fn bench_in_process(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let workload = dir.path().join("hundred.yaml");
    std::fs::write(&workload, hundred_scenarios()).unwrap();
    let workload = workload.to_str().unwrap();
    let out = dir.path().join("out.txt");
    let out = out.to_str().unwrap();
    c.bench_function("compare: 100 scenarios of CloudShop, one file", |b| {
        b.iter(|| {
            run(&[
                "ddbcost", "compare", workload, "--format", "csv", "--output", out,
            ]);
        });
    });
    let rates: Vec<String> = (1..=100).map(|i| format!("{i}M/month")).collect();
    let a = format!("tables.orders.patterns.get-order.rate={}", rates.join(","));
    let b2 = format!(
        "tables.orders.patterns.customer-orders.rate={}",
        rates.join(",")
    );
    let mut group = c.benchmark_group("sweep");
    group.sample_size(10);
    group.bench_function("10,000 CloudShop designs, all cores, grid as CSV", |b| {
        b.iter(|| {
            run(&[
                "ddbcost", "sweep", CLOUDSHOP, "--vary", &a, "--vary", &b2, "--format", "csv",
                "--output", out,
            ]);
        });
    });
    group.finish();
}

criterion_group!(benches, bench_process, bench_in_process);
criterion_main!(benches);
