//! Throughput of `ddbcost keys` (issue 13: like `size`, with the same reader): export lines
//! sized and their key values counted, one core, on lines shaped like an orders export — a
//! customer partition key with a Zipf-like spread over 100,000 values, an order-status GSI key
//! with 6 values, item sizes from 200 B to 4 KB; and the counter alone on a million distinct
//! values (insertion and the spread statistics over them).

use std::fmt::Write;
use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use ddbcost::api::keys::spread;
use ddbcost::api::keys::{Counts, KeyCounter};
use ddbcost::api::size::{Shape, item_keys};

const STATUSES: [&str; 6] = [
    "delivered",
    "shipped",
    "pending-shipment",
    "paid",
    "pending-payment",
    "cancelled",
];

/// Deterministic export lines; the customer is log-uniform over 1..100,000 (Zipf with s = 1:
/// value k is about 1/k as frequent as value 1).
fn lines(count: usize) -> Vec<String> {
    let mut state = 7u64;
    let mut next = || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1);
        state >> 33
    };
    (0..count)
        .map(|i| {
            let u = (next() % 1_000_000) as f64 / 1_000_000.0;
            #[allow(
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                reason = "a Zipf-like draw in [1, 100000]"
            )]
            let customer = 100_000f64.powf(u) as u64;
            let status = STATUSES[[0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5][(next() % 12) as usize]];
            let note = "x".repeat(20 + (next() % 4000) as usize);
            let mut s = String::new();
            let _ = write!(
                s,
                r#"{{"Item":{{"PK":{{"S":"CUSTOMER#{customer}"}},"SK":{{"S":"ORDER#{i:08}"}},"GSI1PK":{{"S":"STATUS#{status}"}},"total":{{"N":"{}.{:02}"}},"note":{{"S":"{note}"}},"lines":{{"L":[{{"M":{{"sku":{{"S":"SKU-{}"}},"qty":{{"N":"{}"}}}}}}]}}}}}}"#,
                next() % 10_000,
                next() % 100,
                next() % 1000,
                next() % 9 + 1
            );
            s
        })
        .collect()
}

fn bench_keys(c: &mut Criterion) {
    let lines = lines(20_000);
    let bytes: usize = lines.iter().map(|l| l.len() + 1).sum();
    let wanted = vec!["GSI1PK".to_string(), "PK".to_string(), "SK".to_string()];
    let mut group = c.benchmark_group("keys");
    group.throughput(Throughput::Bytes(bytes as u64));
    group.bench_function("export lines: sized and two keys counted, one core", |b| {
        b.iter(|| {
            let mut table = KeyCounter::new();
            let mut gsi = KeyCounter::new();
            for line in &lines {
                let item = item_keys(black_box(line.as_bytes()), Shape::DynamoDb, &wanted).unwrap();
                let counts = Counts {
                    items: 1,
                    bytes: item.bytes,
                    ..Counts::default()
                };
                for (i, value) in &item.values {
                    match i {
                        0 => gsi.add(value.as_bytes(), &counts).unwrap(),
                        1 => table.add(value.as_bytes(), &counts).unwrap(),
                        _ => {}
                    }
                }
            }
            (table.distinct(), gsi.distinct())
        });
    });
    group.finish();

    let mut group = c.benchmark_group("keys counter");
    group.sample_size(10);
    let n = 1_000_000u64;
    let names: Vec<String> = (0..n)
        .map(|i| {
            format!(
                "CUSTOMER#{:010}",
                i.wrapping_mul(2_654_435_761) % 10_000_000_000
            )
        })
        .collect();
    group.throughput(Throughput::Elements(n));
    group.bench_with_input(
        BenchmarkId::new("insert distinct values", n),
        &names,
        |b, names| {
            b.iter(|| {
                let mut c = KeyCounter::new();
                for name in names {
                    c.add(
                        name.as_bytes(),
                        &Counts {
                            items: 1,
                            ..Counts::default()
                        },
                    )
                    .unwrap();
                }
                c.distinct()
            });
        },
    );
    let mut counter = KeyCounter::new();
    for (i, name) in names.iter().enumerate() {
        counter
            .add(
                name.as_bytes(),
                &Counts {
                    items: 1 + (i % 97) as u64,
                    bytes: 100 + (i % 4000) as u64,
                    read_halves: (i % 13) as u64,
                    write_halves: (i % 7) as u64,
                    ..Counts::default()
                },
            )
            .unwrap();
    }
    group.bench_with_input(
        BenchmarkId::new("spread statistics", n),
        &counter,
        |b, counter| {
            b.iter(|| spread(black_box(counter)).distinct);
        },
    );
    group.finish();
}

criterion_group!(benches, bench_keys);
criterion_main!(benches);
