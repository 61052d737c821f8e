//! Writes a workload of N tables to standard output, for measuring how `estimate`, `compare`
//! and `sweep` grow with the size of a design:
//!
//! ```text
//! cargo run --release --example gen_workload -- 1000 > /tmp/w1000.yaml
//! /usr/bin/time -v target/release/ddbcost estimate /tmp/w1000.yaml > /tmp/out.txt
//! ```
//!
//! Each table is what most tables have (the engine benchmark's typical table): an item count
//! and size, PITR, one GSI with an INCLUDE projection, six patterns (a get, two queries, a
//! put, an update, a delete); sizes and rates differ from table to table. Three scenario
//! steps change the first table (a rate, a projection, the capacity mode), so `compare`
//! prices four estimates.

use std::io::Write as _;

#[path = "../benches/common/typical.rs"]
mod typical;

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(10);
    let mut y = String::from("prices: aws-us-east-1\ntables:\n");
    for t in 0..n {
        typical::table(&mut y, t, t % 50 + 1, 700 + 300 * (t % 7), t % 9 + 1);
    }
    y.push_str(
        "scenarios:
  steps:
    - name: busier gets
      patch: { tables: { t0: { patterns: { get: { rate: 900/s } } } } }
    - name: keys-only index
      patch: { tables: { t0: { indexes: { by-owner: { projection: keys-only, projected_size: null } } } } }
    - name: provisioned
      patch: { tables: { t0: { capacity: { mode: provisioned, auto_scaling: { target: 70% } } } } }
",
    );
    let _ = std::io::stdout().lock().write_all(y.as_bytes());
}
