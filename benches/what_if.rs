//! What-if benchmarks (issue 3): applying a scenario patch and re-estimating, and a sweep of
//! 10,000 variants (target utilization × projection × table class × index sparsity), both
//! through merge patches and on the typed model, on one core.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use ddbcost::api::model::{Capacity, CapacityMode, Projection, TableClass, Workload};
use ddbcost::api::{self as engine, PriceBook, Settings};
use rust_decimal::Decimal;
use serde_json::json;

const CLOUDSHOP: &str = include_str!("../workloads/cloudshop.yaml");

fn book(id: &str) -> PriceBook {
    PriceBook {
        primary: engine::price_table(id).unwrap(),
        others: Vec::new(),
    }
}

/// A provisioned, auto-scaled table with a GSI whose projection and sparsity vary.
const SWEEP: &str = "prices: aws-us-east-1
tables:
  orders:
    items: 40M
    item_size: 1.2 KB
    key_size: 40 B
    capacity: { mode: provisioned, auto_scaling: { target: 70% } }
    traffic: { peak: { times_off_peak: 3, hours: 6, start: 16 } }
    indexes:
      by-buyer: { type: gsi, projection: include, projected_size: 120 B, key_size: 40 B }
    patterns:
      place-order: { op: transact-write, rate: 20/s, items: 2 }
      get-order: { op: get, rate: 250/s, consistency: strong }
      buyer-orders: { op: query, index: by-buyer, rate: 80/s, items: 20 }
      ship-order: { op: update, rate: 20/s }
";

fn sweep_base() -> Workload {
    engine::load(SWEEP, "sweep.yaml").unwrap().0
}

fn variants() -> impl Iterator<Item = (Decimal, usize, TableClass, Decimal)> {
    // 25 targets (20 % … 92 %, clamped to 90 %) × 4 projections × 2 classes × 50 shares.
    (0..25u32).flat_map(|t| {
        (0..4usize).flat_map(move |p| {
            [TableClass::Standard, TableClass::StandardIa]
                .into_iter()
                .flat_map(move |c| {
                    (1..=50u32).map(move |k| {
                        (
                            Decimal::new(i64::from(20 + 3 * t).min(90), 2),
                            p,
                            c,
                            Decimal::new(i64::from(k), 2) * Decimal::TWO,
                        )
                    })
                })
        })
    })
}

fn bench_patch(c: &mut Criterion) {
    let (base, docs) = engine::scenarios(CLOUDSHOP, "cloudshop.yaml", &[]).unwrap();
    assert!(!docs.is_empty());
    let patch =
        json!({"tables": {"orders": {"patterns": {"get-order": {"consistency": "92% eventual"}}}}});
    let book = book("cloudshop-eur");
    let settings = Settings::default();
    c.bench_function("patch + re-estimate: cloudshop", |b| {
        b.iter(|| {
            let mut doc = base.clone();
            engine::merge_patch(&mut doc, black_box(&patch));
            let (w, _) = engine::load_value(doc, "cloudshop.yaml").unwrap();
            engine::estimate(&w, &book, &settings).unwrap()
        });
    });
}

fn bench_sweep(c: &mut Criterion) {
    let base = sweep_base();
    let book = book("aws-us-east-1");
    let settings = Settings::default();
    assert_eq!(variants().count(), 10_000);
    let mut group = c.benchmark_group("sweep");
    group.sample_size(10);
    group.bench_function("10,000 variants on the typed model", |b| {
        b.iter(|| {
            let mut total = Decimal::ZERO;
            for (target, projection, class, share) in variants() {
                let mut w = base.clone();
                let t = &mut w.tables[0];
                t.class = class;
                if let CapacityMode::Provisioned(cap) = &mut t.capacity {
                    cap.read = Capacity::AutoScaling {
                        target,
                        min: Decimal::ONE,
                        max: Decimal::from(40_000),
                    };
                    cap.write = cap.read;
                }
                let index = &mut t.indexes[0];
                index.projection = [
                    Projection::KeysOnly,
                    Projection::Include {
                        projected_bytes: Decimal::from(120),
                    },
                    Projection::Include {
                        projected_bytes: Decimal::from(900),
                    },
                    Projection::All,
                ][projection];
                index.key_share = share;
                index.capacity = match t.capacity {
                    CapacityMode::Provisioned(cap) => Some(cap),
                    CapacityMode::OnDemand => None,
                };
                total += engine::estimate(&w, &book, &settings).unwrap().total;
            }
            total
        });
    });
    group.finish();
}

fn bench_patch_sweep(c: &mut Criterion) {
    let (base, _) = engine::scenarios(SWEEP, "sweep.yaml", &[]).unwrap();
    let book = book("aws-us-east-1");
    let settings = Settings::default();
    let projections = [
        json!({"projection": "keys-only", "projected_size": null}),
        json!({"projected_size": "120 B"}),
        json!({"projected_size": "900 B"}),
        json!({"projection": "all", "projected_size": null}),
    ];
    let mut group = c.benchmark_group("sweep");
    group.sample_size(10);
    group.bench_function("10,000 variants through merge patches", |b| {
        b.iter(|| {
            let mut total = Decimal::ZERO;
            for (target, projection, class, share) in variants() {
                let mut index = projections[projection].clone();
                index["key_share"] = json!(share.to_string());
                let patch = json!({"tables": {"orders": {
                    "class": if class == TableClass::Standard { "standard" } else { "standard-ia" },
                    "capacity": {"auto_scaling": {"target": format!("{}%", target * Decimal::from(100))}},
                    "indexes": {"by-buyer": index},
                }}});
                let mut doc = base.clone();
                engine::merge_patch(&mut doc, &patch);
                let (w, _) = engine::load_value(doc, "sweep.yaml").unwrap();
                total += engine::estimate(&w, &book, &settings).unwrap().total;
            }
            total
        });
    });
    group.finish();
}

criterion_group!(benches, bench_patch, bench_sweep, bench_patch_sweep);
criterion_main!(benches);
