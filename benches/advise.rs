//! `ddbcost advise` (issue 14: under 50 ms for a 5-table workload): the whole advice — load,
//! baseline, every rule's candidate priced through the scenario path, the combined plan —
//! on five typical tables (on demand, a GSI whose queries state what they read, strong reads,
//! a transaction, a stream reader, PITR), and on the same five with two of them provisioned
//! with fixed units, where the commitments rule searches a year of reserved blocks; and on
//! 400 such tables (issue 23: 282 s and 3.3 GB before candidates were priced table by
//! table), where the work must grow with the tables, not with their square.

use std::fmt::Write;
use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};

fn tables(count: usize, provisioned: bool) -> String {
    let mut y = String::from("prices: aws-us-east-1\ntables:\n");
    for t in 0..count {
        let capacity = if provisioned && t < 2 {
            "    capacity: { mode: provisioned, rcu: 800, wcu: 300 }\n"
        } else {
            ""
        };
        let index_capacity = if provisioned && t < 2 {
            "        rcu: 50\n        wcu: 100\n"
        } else {
            ""
        };
        let _ = write!(
            y,
            "  t{t}:
    items: {items}M
    item_size: {size} B
    key_size: 40 B
    key: {{ partition: pk, sort: sk }}
    attribute_sizes: {{ status: 14 B, total: 9 B, customer: 20 B }}
    pitr: true
{capacity}    traffic: {{ peak: {{ times_average: 2, hours: 6, start: 16 }} }}
    stream:
      consumers:
        audit: {{ kind: reader, records_per_call: 5 }}
    indexes:
      by-status:
        type: gsi
        projection: all
        key_size: 20 B
        key: {{ partition: status }}
{index_capacity}    patterns:
      get:
        op: get
        rate: {r}/s
        consistency: strong
      list:
        op: query
        rate: {q}/s
        items: 20
        item_size: 300 B
        consistency: strong
        strong_required: 10%
      panel:
        op: query
        index: by-status
        rate: 5/s
        items: 50
        reads_attributes: [status, total, customer]
      create:
        op: put
        rate: {w}/s
      update:
        op: update
        rate: {u}/s
      pair:
        op: transact-write
        rate: 3/s
        items: 2
",
            items = 10 + t % 5 * 7,
            size = 900 + t % 5 * 150,
            r = 200 + t % 5 * 40,
            q = 50 + t % 5 * 10,
            w = 30 + t % 5 * 5,
            u = 60 + t % 5 * 9,
        );
    }
    y
}

fn bench_advise(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let mut group = c.benchmark_group("advise");
    for (name, count, provisioned) in [
        ("5 typical tables", 5, false),
        ("5 tables, 2 provisioned (commitments searched)", 5, true),
        ("400 typical tables", 400, false),
    ] {
        if count > 5 {
            group.sample_size(10);
        }
        let path = dir.path().join(format!("w{count}-{provisioned}.yaml"));
        std::fs::write(&path, tables(count, provisioned)).unwrap();
        let path = path.to_string_lossy().into_owned();
        // The day prices' age and the commitments' first month are counted from: 2026-12-02.
        let session = ddbcost::api::Session::on_day(20_789);
        let a = session
            .advise(&path)
            .expect("the bench workload is advised");
        assert!(a.suggestions.len() >= 5, "{}", a.suggestions.len());
        group.bench_function(name, |b| {
            b.iter(|| session.advise(black_box(&path)).unwrap());
        });
    }
    group.finish();
}

criterion_group!(benches, bench_advise);
criterion_main!(benches);
