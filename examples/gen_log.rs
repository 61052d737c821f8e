//! Writes a request log of about SIZE bytes (JSON Lines with `ConsumedCapacity`, 5,000
//! tenants) as DIR/requests.jsonl, and a CUR 2.0 month of 200 tables as DIR/cur.csv, for
//! measuring `ddbcost allocate` on whole files:
//!
//! ```text
//! cargo run --release --example gen_log -- /tmp/log 1GB
//! /usr/bin/time -v target/release/ddbcost allocate --bill /tmp/log/cur.csv \
//!     --log /tmp/log/requests.jsonl --tenant 'PK=ORG#([^#]+)' > /dev/null
//! ```
//!
//! The lines are those of `benches/common/requests.rs` (the allocate benchmark's).

use std::io::Write;

#[allow(dead_code)] // `log` serves the benchmark
#[path = "../benches/common/requests.rs"]
mod requests;
#[path = "../benches/common/size_arg.rs"]
mod size_arg;

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let dir = std::path::PathBuf::from(args.get(1).map_or("/tmp/log", String::as_str));
    let target = args
        .get(2)
        .and_then(|a| size_arg::parse_size(a))
        .unwrap_or(100 << 20);
    std::fs::create_dir_all(&dir)?;
    std::fs::write(dir.join("cur.csv"), requests::bill())?;
    let mut out = std::io::BufWriter::new(std::fs::File::create(dir.join("requests.jsonl"))?);
    let mut lines = requests::Lines::default();
    let mut chunk = String::new();
    let mut written = 0u64;
    while written < target {
        chunk.clear();
        for _ in 0..1_000 {
            lines.write(&mut chunk);
        }
        out.write_all(chunk.as_bytes())?;
        written += chunk.len() as u64;
    }
    out.flush()
}
