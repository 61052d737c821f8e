//! Benchmarks of the engine (issue: under 50 µs per estimate of a 5-table, 30-pattern
//! workload) — with every feature on every table (the worst case), and with
//! what typical tables have (45 line items) — and of loading + estimating CloudShop.

use std::fmt::Write;
use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use ddbcost::api::{self as engine, PriceBook, Settings};

#[path = "common/typical.rs"]
mod typical;

/// Five tables with every feature the engine prices, on every table: two GSIs (ALL and a
/// sparse KEYS_ONLY) and an LSI, six patterns each (30 in all, one an LSI query fetching base
/// items), a stream with a Lambda and a billed reader, Kinesis CDC, PITR, on-demand backups
/// with restores, exports and imports, TTL (a retention), a global-table replica; tables 0, 2
/// and 4 are provisioned — auto scaling from a daily traffic profile, with reserved capacity
/// — and 1 and 3 on demand.
fn five_tables_thirty_patterns() -> String {
    let mut y = String::from("prices: aws-us-east-1\ntables:\n");
    for t in 0..5 {
        let capacity = if t % 2 == 0 {
            "    capacity: { mode: provisioned, auto_scaling: { target: 70%, min_rcu: 5, min_wcu: 5 }, reserved: { rcu: 100, wcu: 100, term: 1y } }\n    traffic: { peak: { times_average: 2, hours: 6, start: 16 } }\n"
        } else {
            ""
        };
        let _ = write!(
            y,
            "  t{t}:
    items: {items}M
    item_size: {size} B
    key_size: 40 B
    pitr: true
    kinesis_cdc: true
    ttl: 90 days
    backups: {{ retained: 4, restores_per_month: 1, full_exports_per_month: 1, incremental_export_per_month: 10 GB, import_per_month: 5 GB }}
    replicas: [us-east-2]
{capacity}    stream:
      consumers:
        fn: {{ kind: lambda }}
        kcl: {{ kind: reader, records_per_call: 100 }}
    indexes:
      all: {{ type: gsi, projection: all }}
      keys: {{ type: gsi, projection: keys-only, key_size: 30 B, key_share: 0.3, updates_moving_key: 0.1 }}
      local: {{ type: lsi, projection: keys-only, key_size: 20 B }}
    patterns:
      get: {{ op: get, rate: {r}00/s, consistency: eventual }}
      list: {{ op: query, index: local, fetch_base_items: true, rate: 50/s, items: 25, consistency: strong }}
      by-all: {{ op: query, index: all, rate: 20/s, items: 10 }}
      put: {{ op: put, rate: 10/s, overwrites: 20% }}
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
        typical::table(&mut y, t, t + 1, 700 + 300 * t, t + 1);
    }
    y
}

fn book() -> PriceBook {
    let primary = engine::price_table("aws-us-east-1").unwrap();
    let others = vec![engine::price_table("aws-us-east-2").unwrap()];
    PriceBook { primary, others }
}

fn bench_engine(c: &mut Criterion) {
    let (workload, _) = engine::load(&five_tables_thirty_patterns(), "bench.yaml").unwrap();
    assert_eq!(workload.tables.len(), 5);
    // Every feature is priced: no line depends on usage, and the lines of each dimension are
    // there (checked once, so the benchmark measures what it says).
    let estimate =
        engine::estimate(&workload, &book(), &Settings::default()).expect("the workload prices");
    assert!(estimate.excluded.is_empty(), "{:?}", estimate.excluded);
    for key in [
        "t0/reads",
        "t0/reserved/rcu/hourly",
        "t1/lsi/local/reads",
        "t0/backups",
        "t0/restores",
        "t0/exports",
        "t0/imports",
        "t0/kinesis-cdc",
        "t0/ttl-deletes",
        "t0/pitr",
        "t0/stream/kcl/reads",
        "t0/replica/us-east-2/transfer",
        "t1/gsi/keys/writes",
    ] {
        assert!(
            estimate.line_items.iter().any(|l| l.key == key),
            "line {key}: {:?}",
            estimate
                .line_items
                .iter()
                .map(|l| &l.key)
                .collect::<Vec<_>>()
        );
    }
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
    let (workload, _) = engine::load(&five_typical_tables(), "bench.yaml").unwrap();
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
            let (w, _) = engine::load(black_box(&text), "cloudshop.yaml").unwrap();
            let book = PriceBook {
                primary: engine::price_table("cloudshop-eur").unwrap(),
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
