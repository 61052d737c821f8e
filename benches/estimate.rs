//! Benchmarks of the engine (issue: under 50 µs per estimate of a 5-table, 30-pattern
//! workload) — with every feature on every table (the worst case: 80 line items), and with
//! what typical tables have (45 line items) — and of loading + estimating CloudShop.

use std::fmt::Write;
use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use ddbcost::engine;
use ddbcost::load::{self, prices};
use ddbcost::model::{PriceBook, Settings};

/// Five tables with two GSIs (ALL and KEYS_ONLY) and six patterns each (30 in all), a
/// stream, PITR and one global-table replica: every dimension of the engine is exercised.
fn five_tables_thirty_patterns() -> String {
    let mut y = String::from("prices: aws-us-east-1\ntables:\n");
    for t in 0..5 {
        let _ = write!(
            y,
            "  t{t}:
    items: {items}M
    item_size: {size} B
    key_size: 40 B
    pitr: true
    replicas: [us-east-2]
    stream:
      consumers:
        fn: {{ kind: lambda }}
        kcl: {{ kind: reader, records_per_call: 100 }}
    indexes:
      all: {{ type: gsi, projection: all }}
      keys: {{ type: gsi, projection: keys-only, key_size: 30 B, key_share: 0.3, updates_moving_key: 0.1 }}
    patterns:
      get: {{ op: get, rate: {r}00/s, consistency: eventual }}
      list: {{ op: query, rate: 50/s, items: 25, consistency: strong }}
      by-all: {{ op: query, index: all, rate: 20/s, items: 10 }}
      put: {{ op: put, rate: 10/s }}
      update: {{ op: update, rate: 30/s }}
      tx: {{ op: transact-write, rate: 2/s, items: 3 }}
",
            items = t + 1,
            size = 700 + 300 * t,
            r = t + 1,
        );
    }
    y
}

/// Five tables of six patterns with what most tables have: one GSI, PITR, no stream or
/// replica.
fn five_typical_tables() -> String {
    let mut y = String::from("prices: aws-us-east-1\ntables:\n");
    for t in 0..5 {
        let _ = write!(
            y,
            "  t{t}:
    items: {items}M
    item_size: {size} B
    key_size: 40 B
    pitr: true
    indexes:
      by-owner: {{ type: gsi, projection: include, projected_size: 120 B, key_size: 30 B }}
    patterns:
      get: {{ op: get, rate: {r}00/s, consistency: eventual }}
      list: {{ op: query, rate: 50/s, items: 25, consistency: strong }}
      by-owner: {{ op: query, index: by-owner, rate: 20/s, items: 10 }}
      put: {{ op: put, rate: 10/s }}
      update: {{ op: update, rate: 30/s }}
      delete: {{ op: delete, rate: 2/s }}
",
            items = t + 1,
            size = 700 + 300 * t,
            r = t + 1,
        );
    }
    y
}

fn book() -> PriceBook {
    let primary = prices::resolve("aws-us-east-1").unwrap();
    let others = vec![prices::resolve("aws-us-east-2").unwrap()];
    PriceBook { primary, others }
}

fn bench_engine(c: &mut Criterion) {
    let (workload, _) = load::parse_workload(&five_tables_thirty_patterns(), "bench.yaml").unwrap();
    assert_eq!(workload.tables.len(), 5);
    assert_eq!(
        workload
            .tables
            .iter()
            .map(|t| t.patterns.len())
            .sum::<usize>(),
        30
    );
    let book = book();
    let settings = Settings::default();
    c.bench_function("engine: 5 tables, 30 patterns", |b| {
        b.iter(|| {
            engine::estimate(black_box(&workload), black_box(&book), black_box(&settings)).unwrap()
        });
    });
}

fn bench_typical(c: &mut Criterion) {
    let (workload, _) = load::parse_workload(&five_typical_tables(), "bench.yaml").unwrap();
    assert_eq!(
        workload
            .tables
            .iter()
            .map(|t| t.patterns.len())
            .sum::<usize>(),
        30
    );
    let book = book();
    let settings = Settings::default();
    c.bench_function("engine: 5 typical tables, 30 patterns", |b| {
        b.iter(|| {
            engine::estimate(black_box(&workload), black_box(&book), black_box(&settings)).unwrap()
        });
    });
}

fn bench_load_and_estimate(c: &mut Criterion) {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/workloads/cloudshop.yaml"
    ))
    .unwrap();
    c.bench_function("load + estimate: cloudshop.yaml", |b| {
        b.iter(|| {
            let (w, _) = load::parse_workload(black_box(&text), "cloudshop.yaml").unwrap();
            let book = PriceBook {
                primary: prices::resolve("cloudshop-eur").unwrap(),
                others: Vec::new(),
            };
            engine::estimate(&w, &book, &Settings::default()).unwrap()
        });
    });
}

criterion_group!(
    benches,
    bench_engine,
    bench_typical,
    bench_load_and_estimate
);
criterion_main!(benches);
