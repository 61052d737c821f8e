//! Benchmark of `ddbcost bill` (issue #26): a CUR 2.0 CSV shaped like a real export (44
//! columns with their long texts, hourly rows of 200 tables, one row in four another
//! service's) read, placed and summed, rendered as JSON; then the same rows as Parquet. Whole-file figures (1 GB, peak
//! memory) come from `examples/gen_cur.rs`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

#[path = "common/cur.rs"]
mod cur;

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("bill");
    group.sample_size(10);
    let rows = 100_000u64;
    let text = cur::csv(rows, 200);
    group.throughput(Throughput::Elements(rows));
    group.bench_function(
        "100,000 CUR 2.0 rows (≈ 85 MB): read, place, sum, JSON",
        |b| {
            b.iter(|| {
                ddbcost::api::bill::report_text(
                    "cur.csv",
                    black_box(&text),
                    None,
                    ddbcost::api::ReportFormat::Json,
                )
                .unwrap()
            });
        },
    );
    // The same rows as a CUR 2.0 Parquet file, typed as Data Exports types them.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cur.snappy.parquet");
    cur::parquet(rows, 200, &path);
    let inputs = vec![path.display().to_string()];
    group.bench_function(
        "the same 100,000 rows as Parquet (Snappy, a MAP of tags): read, place, sum, JSON",
        |b| {
            b.iter(|| {
                ddbcost::api::bill::report(
                    black_box(&inputs),
                    None,
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
