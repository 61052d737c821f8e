//! Benchmark of `forecast` (issue #12: a 36-month forecast of a 5-table workload with traffic
//! profiles under 50 ms): the worst-case workload of `benches/estimate.rs` — every feature on
//! every table, three provisioned tables auto scaled hour by hour from a daily profile — with
//! growth, a season and a launch month, and reservations pooled over the region (one
//! starting mid-horizon), priced month by month; then with a Database Savings Plan, and the
//! commitment advice (`forecast --advise`) over 12 months.

use std::fmt::Write;
use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use ddbcost::api::{self as engine, Settings};

fn workload() -> String {
    // Reservations pooled over the three provisioned tables, one starting mid-horizon.
    let mut y = String::from(
        "prices: aws-us-east-1\ncommitments:\n  reserved:\n    - { capacity: wcu, units: 100, term: 1y }\n    - { capacity: rcu, units: 200, term: 3y, start: 2027-07 }\ntables:\n",
    );
    for t in 0..5 {
        let capacity = if t % 2 == 0 {
            "    capacity: { mode: provisioned, auto_scaling: { target: 70%, min_rcu: 5, min_wcu: 5 } }\n    traffic: { peak: { times_average: 2, hours: 6, start: 16 } }\n"
        } else {
            ""
        };
        let from = if t == 4 { "    from: 2027-07\n" } else { "" };
        let _ = write!(
            y,
            "  t{t}:
    items: {items}M
    item_size: {size} B
    key_size: 40 B
    pitr: true
    ttl: 90 days
    growth: 3%/month
    seasonal: {{ nov: 1.4, dec: 1.8 }}
    replicas: [us-east-2]
{from}{capacity}    stream:
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
      purge: {{ op: delete, rate: 1/s }}
",
            items = t + 1,
            size = 700 + 300 * t,
            r = t + 1,
        );
    }
    y
}

fn bench(c: &mut Criterion) {
    let text = workload();
    let (w, _) = engine::load(&text, "bench.yaml").expect("workload");
    let book = engine::prices("aws-us-east-1").expect("prices");
    let settings = Settings::default();
    c.bench_function("forecast 36 months, 5 tables with profiles", |b| {
        b.iter(|| {
            engine::forecast(black_box(&w), &book, &settings, (2027, 1), 36).expect("forecast")
        });
    });
    // The same with a Database Savings Plan over every throughput price, applied hour by hour
    // after the reservations.
    let planned = text.replace(
        "commitments:\n",
        "commitments:\n  savings_plan:\n    per_hour: 0.50\n    rates:\n      source: bench\n      standard: { read_per_million: 0.85, write_per_million: 0.8, replicated_write_per_million: 0.8, rcu_hour: 0.9, wcu_hour: 0.9, replicated_wcu_hour: 0.9 }\n",
    );
    let (w, _) = engine::load(&planned, "bench.yaml").expect("workload");
    c.bench_function(
        "forecast 36 months, 5 tables with profiles, reservations + savings plan",
        |b| {
            b.iter(|| {
                engine::forecast(black_box(&w), &book, &settings, (2027, 1), 36).expect("forecast")
            });
        },
    );
    // Commitment advice over 12 months: dozens of forecasts (reservation blocks, plan steps).
    let mut group = c.benchmark_group("advice");
    group.sample_size(10);
    group.bench_function("forecast --advise, 12 months, 5 tables", |b| {
        b.iter(|| {
            engine::advise_commitments(black_box(&w), &book, &settings, (2027, 1), 12)
                .expect("advice")
        });
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
