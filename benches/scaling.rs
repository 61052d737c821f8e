//! Growth of the bill paths that once grew quadratically (issue #48): a delivery folder whose
//! `Manifest.json` lists 1,250, 5,000 and 20,000 parts (each part a small CUR 2.0 CSV), and
//! `bill --to-workload` of a bill of 312, 1,250 and 5,000 tables. Each step is 4× the one
//! before: linear growth is ≈ 4× the time per step (the README's scaling table).

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

// The bill benchmark's CUR rows; this one builds its own files from single rows.
#[allow(dead_code)]
#[path = "common/cur.rs"]
mod cur;

/// A Data Exports delivery of `parts` parts, one CUR row each, in a temporary folder.
fn delivery(parts: u64) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data").join("BILLING_PERIOD=2026-11");
    std::fs::create_dir_all(&data).unwrap();
    let mut keys = Vec::new();
    for p in 0..parts {
        let mut text = String::from(cur::HEADER);
        cur::row(&mut text, p * 4, 50);
        let name = format!("part-{p:05}.csv");
        std::fs::write(data.join(&name), text).unwrap();
        keys.push(format!(
            "\"exports/cur/data/BILLING_PERIOD=2026-11/{name}\""
        ));
    }
    let manifest = format!(
        "{{\"billingPeriod\":{{\"start\":\"2026-11-01T00:00:00.000Z\"}},\"dataFiles\":[{}]}}",
        keys.join(",")
    );
    std::fs::write(
        dir.path()
            .join("data")
            .join("BILLING_PERIOD=2026-11")
            .join("Manifest.json"),
        manifest,
    )
    .unwrap();
    dir
}

/// A bill of `tables` tables, 8 rows each (every usage type the workload states).
fn bill_of(tables: u64) -> String {
    let mut out = String::from(cur::HEADER);
    let mut n = 0u64;
    while n < tables * 8 {
        // Every row of a DynamoDB table (row n is another service's when n % 4 == 3).
        if n % 4 != 3 {
            cur::row(&mut out, n, tables);
        }
        n += 1;
    }
    out
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("scaling");
    group.sample_size(10);
    for parts in [1_250u64, 5_000, 20_000] {
        let dir = delivery(parts);
        let folder = dir.path().display().to_string();
        group.throughput(Throughput::Elements(parts));
        group.bench_with_input(
            BenchmarkId::new("delivery folder, manifest parts", parts),
            &folder,
            |b, folder| {
                b.iter(|| {
                    ddbcost::api::bill::report(
                        black_box(std::slice::from_ref(folder)),
                        None,
                        ddbcost::api::ReportFormat::Json,
                    )
                    .unwrap()
                });
            },
        );
    }
    for tables in [312u64, 1_250, 5_000] {
        let text = bill_of(tables);
        group.throughput(Throughput::Elements(tables));
        group.bench_with_input(
            BenchmarkId::new("bill --to-workload, tables", tables),
            &text,
            |b, text| {
                b.iter(|| {
                    ddbcost::api::bill::workload_text("cur.csv", black_box(text), None).unwrap()
                });
            },
        );
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
