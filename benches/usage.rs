//! Benchmark of `ddbcost usage` (issue #25: a month of one-minute CloudWatch data for many
//! tables): `get-metric-data` pages read, merged, and decided on — the simulation of auto
//! scaling step by step, every option, the verdict — rendered as JSON. The input is shaped
//! like real pages: each result's timestamps newest first, values with decimals, a daily
//! curve with a busy evening and minute-to-minute noise, reads and writes per table.

use std::fmt::Write;
use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

/// 2026-11-01T00:00:00Z.
const START: i64 = 1_793_491_200;

fn iso(t: i64) -> String {
    let d = t.div_euclid(86_400) - 20_758;
    let (month, day) = if d < 30 { (11, d + 1) } else { (12, d - 29) };
    let s = t.rem_euclid(86_400);
    format!(
        "2026-{month:02}-{day:02}T{:02}:{:02}:00Z",
        s / 3_600,
        s % 3_600 / 60
    )
}

/// One page per table: its reads and writes over `minutes`, as `get-metric-data` output.
fn pages(tables: i64, minutes: i64) -> Vec<(String, String)> {
    (0..tables)
        .map(|t| {
            let mut out = String::from("{\"MetricDataResults\":[");
            for (n, metric) in [(0i64, "ConsumedReadCapacityUnits"), (1, "ConsumedWriteCapacityUnits")] {
                if n > 0 {
                    out.push(',');
                }
                let _ = write!(out, "{{\"Id\":\"m{n}\",\"Label\":\"ddbcost:table-{t}::{metric}:Sum:60\",\"Timestamps\":[");
                for m in (0..minutes).rev() {
                    if m != minutes - 1 {
                        out.push(',');
                    }
                    let _ = write!(out, "\"{}\"", iso(START + m * 60));
                }
                out.push_str("],\"Values\":[");
                for m in (0..minutes).rev() {
                    if m != minutes - 1 {
                        out.push(',');
                    }
                    let hour = (m / 60) % 24;
                    let base = if hour >= 18 { 9_000 } else { 3_000 } * (n + 1) + (t % 7) * 100;
                    let noise = (m * 7_919 + t * 31) % 600;
                    let _ = write!(out, "{}.5", base + noise);
                }
                out.push_str("],\"StatusCode\":\"Complete\"}");
            }
            out.push_str("],\"Messages\":[]}");
            (format!("table-{t}.json"), out)
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let book = ddbcost::api::prices("aws-us-east-1").unwrap();
    let mut group = c.benchmark_group("usage");
    group.sample_size(10);
    // 20 tables × reads and writes × 30 days of minutes (43,200): 1,728,000 points.
    let month = 30 * 1_440;
    let inputs = pages(20, month);
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
