//! Throughput of item sizing on DynamoDB JSON export lines (issue 4: at least 400 MB/s per
//! core). The whole-file figures (1 GB, one and two cores, peak memory) come from
//! `benches/gen_export.py` and `/usr/bin/time -v`; see the README.

use std::fmt::Write;
use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ddbcost::size::item::{Shape, size_item};

/// Deterministic export lines of varied sizes (about 200 B to 4 KB), every attribute type.
fn lines(count: usize) -> Vec<String> {
    let mut state = 42u64;
    let mut next = || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1);
        state >> 33
    };
    (0..count)
        .map(|i| {
            let mut s = String::new();
            let note = "x".repeat(20 + (next() % 4000) as usize);
            let _ = write!(
                s,
                r#"{{"Item":{{"pk":{{"S":"ORDER#{i:08}"}},"sk":{{"S":"HEADER"}},"total":{{"N":"{}.{:02}"}},"paid":{{"BOOL":true}},"note":{{"S":"{note}"}},"tags":{{"SS":["a","bb","ccc"]}},"blob":{{"B":"YWJjZGVm"}},"lines":{{"L":[{{"M":{{"sku":{{"S":"SKU-{}"}},"qty":{{"N":"{}"}}}}}}]}},"gone":{{"NULL":true}}}}}}"#,
                next() % 10_000,
                next() % 100,
                next() % 1000,
                next() % 9 + 1
            );
            s
        })
        .collect()
}

fn bench_size(c: &mut Criterion) {
    let lines = lines(20_000);
    let bytes: usize = lines.iter().map(|l| l.len() + 1).sum();
    let mut group = c.benchmark_group("size");
    group.throughput(Throughput::Bytes(bytes as u64));
    group.bench_function("DynamoDB JSON export lines, one core", |b| {
        b.iter(|| {
            let mut total = 0u64;
            for line in &lines {
                total += size_item(black_box(line.as_bytes()), Shape::DynamoDb, &[])
                    .unwrap()
                    .bytes;
            }
            total
        });
    });
    group.finish();
}

criterion_group!(benches, bench_size);
criterion_main!(benches);
