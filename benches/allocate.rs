//! Throughput of `ddbcost allocate`'s log reader (issue #50 asks ≥ 500 MB/s per core of JSON
//! Lines, memory bounded by tenants, not lines): request logs shaped like a SaaS month — 5,000
//! organisations with a Zipf-like spread, Queries and GetItems (eventual and strong), PutItems
//! with GSI writes, a BatchWriteItem of 25 items a hundred lines, and now and then a Scan with
//! no tenant — read from memory, one core; and the split of a bill of 200 tables × 8 lines
//! over 5,000 tenants.

use std::fmt::Write;
use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use ddbcost::api::allocate::{LogUsage, Tenancy, read_log};

#[path = "common/requests.rs"]
mod requests;
use requests::{bill, log};

fn bench_log(c: &mut Criterion) {
    let text = log(100_000);
    let tenancy = Tenancy::parse("PK=ORG#([^#]+)").unwrap();
    let mut g = c.benchmark_group("allocate_log");
    g.sample_size(10);
    g.throughput(Throughput::Bytes(text.len() as u64));
    g.bench_function("read 100k lines", |b| {
        b.iter(|| {
            let mut usage = LogUsage::default();
            read_log(black_box(text.as_bytes()), "app.log", &tenancy, &mut usage).unwrap();
            black_box(usage.by_place.len())
        });
    });
    g.finish();
}

fn bench_split(c: &mut Criterion) {
    let bill = bill();
    // 5,000 tenants over the 200 tables: every table sees every tenant.
    let mut log = String::new();
    for t in 0..200 {
        for o in 0..25 {
            let _ = writeln!(
                log,
                r#"{{"operation":"PutItem","Item":{{"PK":"ORG#o{}"}},"ConsumedCapacity":{{"TableName":"app-{t}","CapacityUnits":3}}}}"#,
                t * 25 + o
            );
            let _ = writeln!(
                log,
                r#"{{"operation":"GetItem","Key":{{"PK":"ORG#o{}"}},"ConsumedCapacity":{{"TableName":"app-{t}","CapacityUnits":1.5}}}}"#,
                (t * 25 + o + 7) % 5_000
            );
        }
    }
    let mut g = c.benchmark_group("allocate_split");
    g.sample_size(10);
    g.bench_function("200 tables x 8 lines, 5000 tenants", |b| {
        b.iter(|| {
            ddbcost::api::allocate::report_text(
                "cur.csv",
                black_box(&bill),
                black_box(&log),
                Some("PK=ORG#(.+)"),
                ddbcost::api::ReportFormat::Json,
            )
            .unwrap()
            .len()
        });
    });
    g.finish();
}

criterion_group!(benches, bench_log, bench_split);
criterion_main!(benches);
