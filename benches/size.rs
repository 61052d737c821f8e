//! Throughput of item sizing on DynamoDB-JSON export lines (issue 15: at least 1 GB/s per
//! core), on two generated inputs (`benches/common/export.rs`): the `realistic` shape (many
//! short attributes, unicode, escapes, numbers of every shape, nesting) and the `simple`
//! shape (most of each item one long string). Measured: the public path (`size_item`, fast
//! scanner with the serde fallback) on one and two threads, and the serde reference alone.
//! Whole-file figures (1 GB, peak memory) come from `examples/gen_export.rs` and
//! `/usr/bin/time -v`; see the README.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ddbcost::api::size::{Shape, reference, size_item};

#[path = "common/export.rs"]
mod export;

fn total(lines: &[String]) -> u64 {
    lines
        .iter()
        .map(|l| {
            size_item(black_box(l.as_bytes()), Shape::DynamoDb, &[])
                .unwrap()
                .bytes
        })
        .sum()
}

fn bench_size(c: &mut Criterion) {
    for (kind, name) in [
        (export::Kind::Realistic, "realistic"),
        (export::Kind::Simple, "simple"),
    ] {
        let lines = export::lines(kind, 20_000);
        let bytes: usize = lines.iter().map(|l| l.len() + 1).sum();
        let mut group = c.benchmark_group(format!("size {name}"));
        group.throughput(Throughput::Bytes(bytes as u64));
        group.bench_function("one thread", |b| b.iter(|| total(&lines)));
        group.bench_function("two threads", |b| {
            let (left, right) = lines.split_at(lines.len() / 2);
            b.iter(|| {
                std::thread::scope(|s| {
                    let other = s.spawn(|| total(left));
                    total(right) + other.join().unwrap()
                })
            });
        });
        group.bench_function("serde reference, one thread", |b| {
            b.iter(|| {
                lines
                    .iter()
                    .map(|l| {
                        reference(black_box(l.as_bytes()), Shape::DynamoDb, &[], false)
                            .unwrap()
                            .bytes
                    })
                    .sum::<u64>()
            });
        });
        group.finish();
    }
}

criterion_group!(benches, bench_size);
criterion_main!(benches);
