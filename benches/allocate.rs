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

/// `count` deterministic log lines.
fn log(count: usize) -> String {
    let mut state = 11u64;
    let mut next = || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1);
        state >> 33
    };
    let mut out = String::with_capacity(count * 260);
    for i in 0..count {
        // Log-uniform over 1..5,000: organisation k about 1/k as busy as the first.
        let u = next() % 1_000_000;
        let org = (1..=5_000u64)
            .find(|k| k * k * 1_000_000 / 25_000_000 >= u / 40)
            .unwrap_or(5_000);
        let table = format!("app-{}", next() % 3);
        let _ = match i % 100 {
            0 => writeln!(
                out,
                r#"{{"timestamp":"2026-11-02T09:00:00Z","operation":"Scan","pattern":"report","ConsumedCapacity":{{"TableName":"{table}","CapacityUnits":128.5,"Table":{{"CapacityUnits":128.5}}}}}}"#
            ),
            1 => {
                let items: Vec<String> = (0..25)
                    .map(|j| format!(r#"{{"PutRequest":{{"Item":{{"PK":{{"S":"ORG#o{org}"}},"SK":{{"S":"TASK#{j}"}}}}}}}}"#))
                    .collect();
                writeln!(
                    out,
                    r#"{{"timestamp":"2026-11-02T09:00:00Z","operation":"BatchWriteItem","pattern":"import","RequestItems":{{"{table}":[{}]}},"ConsumedCapacity":[{{"TableName":"{table}","CapacityUnits":25,"Table":{{"CapacityUnits":25}}}}]}}"#,
                    items.join(",")
                )
            }
            n if n % 4 == 0 => writeln!(
                out,
                r#"{{"timestamp":"2026-11-02T09:00:00Z","operation":"PutItem","pattern":"create-task","Item":{{"PK":{{"S":"ORG#o{org}"}},"SK":{{"S":"TASK#{i}"}},"title":{{"S":"a task"}}}},"ConsumedCapacity":{{"TableName":"{table}","CapacityUnits":3,"Table":{{"CapacityUnits":1}},"GlobalSecondaryIndexes":{{"GSI1":{{"CapacityUnits":1}},"GSI2":{{"CapacityUnits":1}}}}}}}}"#
            ),
            n if n % 2 == 0 => writeln!(
                out,
                r#"{{"timestamp":"2026-11-02T09:00:00Z","operation":"GetItem","pattern":"get-task","Key":{{"PK":{{"S":"ORG#o{org}"}},"SK":{{"S":"TASK#{i}"}}}},"ConsumedCapacity":{{"TableName":"{table}","CapacityUnits":0.5,"Table":{{"CapacityUnits":0.5}}}}}}"#
            ),
            _ => writeln!(
                out,
                r#"{{"timestamp":"2026-11-02T09:00:00Z","operation":"Query","pattern":"dashboard","ExpressionAttributeValues":{{":pk":{{"S":"ORG#o{org}"}}}},"ConsumedCapacity":{{"TableName":"{table}","CapacityUnits":7.5,"Table":{{"CapacityUnits":7.5}}}}}}"#
            ),
        };
    }
    out
}

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

/// A CUR 2.0 month of 200 tables, 8 lines each.
fn bill() -> String {
    let mut out = String::from(
        "line_item_line_item_type,line_item_usage_start_date,line_item_product_code,line_item_usage_type,line_item_resource_id,line_item_usage_amount,line_item_currency_code,line_item_unblended_cost\n",
    );
    for t in 0..200 {
        for (usage, cost) in [
            ("ReadRequestUnits", "38.63"),
            ("WriteRequestUnits", "14.375"),
            ("TimedStorage-ByteHrs", "1.58935"),
            ("TimedPITRStorage-ByteHrs", "0.31787"),
            ("ReplWriteRequestUnits", "2.5"),
            ("StreamsReadRequestUnits", "0.2"),
            ("ReadCapacityUnit-Hrs", "9.49"),
            ("WriteCapacityUnit-Hrs", "47.45"),
        ] {
            let _ = writeln!(
                out,
                "Usage,2026-11-01T00:00:00Z,AmazonDynamoDB,{usage},arn:aws:dynamodb:us-east-1:1:table/app-{t},1000,USD,{cost}"
            );
        }
    }
    out
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
