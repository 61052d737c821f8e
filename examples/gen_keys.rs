//! Writes N export lines to standard output, each with a partition key value of its own and a
//! status GSI key of 6 values, for measuring how `ddbcost keys` grows with distinct values:
//!
//! ```text
//! cargo run --release --example gen_keys -- 1000000 > /tmp/keys.json
//! /usr/bin/time -v target/release/ddbcost keys /tmp/keys.json > /tmp/out.txt
//! ```

use std::io::Write as _;

const STATUSES: [&str; 6] = [
    "delivered",
    "shipped",
    "pending-shipment",
    "paid",
    "pending-payment",
    "cancelled",
];

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(10_000);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(1 << 20, stdout.lock());
    for i in 0..n {
        let status = STATUSES[usize::try_from(i % 6).unwrap_or(0)];
        if writeln!(
            out,
            r#"{{"Item":{{"PK":{{"S":"CUSTOMER#{i:09}"}},"SK":{{"S":"ORDER"}},"GSI1PK":{{"S":"STATUS#{status}"}},"total":{{"N":"{}.5"}}}}}}"#,
            i % 1000
        )
        .is_err()
        {
            std::process::exit(1);
        }
    }
    let _ = out.flush();
}
