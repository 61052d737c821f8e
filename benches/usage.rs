//! Benchmark of `ddbcost usage` (issue #25: a month of one-minute CloudWatch data for many
//! tables): `get-metric-data` pages read, merged, and decided on — the simulation of auto
//! scaling step by step, every option, the verdict — rendered as JSON. The input is shaped
//! like real pages: each result's timestamps newest first, values with decimals, a daily
//! curve with a busy evening and minute-to-minute noise, reads and writes per table.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

#[path = "common/cloudwatch.rs"]
mod cloudwatch;

fn bench(c: &mut Criterion) {
    let book = ddbcost::api::prices("aws-us-east-1").unwrap();
    let mut group = c.benchmark_group("usage");
    group.sample_size(10);
    // 20 tables × reads and writes × 30 days of minutes (43,200): 1,728,000 points.
    let month = 30 * 1_440;
    let inputs: Vec<(String, String)> =
        cloudwatch::pages(&cloudwatch::series(20, false), month, 2).collect();
    let points = 20 * 2 * u64::try_from(month).unwrap();
    group.throughput(Throughput::Elements(points));
    group.bench_function(
        "20 tables, a month of minutes (1.73 M points): read, decide, JSON",
        |b| {
            b.iter(|| {
                ddbcost::api::usage::decide(
                    black_box(&inputs),
                    &[],
                    None,
                    &book,
                    rust_decimal::Decimal::new(7, 1),
                    rust_decimal::Decimal::from(730),
                    ddbcost::api::ReportFormat::Json,
                )
                .unwrap()
            });
        },
    );
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
