//! Writes a CUR 2.0 CSV of about SIZE bytes (November 2026, hourly rows of 200 DynamoDB
//! tables, one row in four another service's) to standard output, for measuring
//! `ddbcost bill` and `ddbcost reconcile` on whole files:
//!
//! ```text
//! cargo run --release --example gen_cur -- 1GB > /tmp/cur.csv
//! /usr/bin/time -v target/release/ddbcost bill /tmp/cur.csv --format json > /dev/null
//! ```
//!
//! The rows are those of `benches/common/cur.rs` (the bill benchmark's). With
//! `--parquet FILE`, the same rows (as many as SIZE bytes of CSV hold) are written to FILE as
//! Parquet, typed as Data Exports types them:
//!
//! ```text
//! cargo run --release --example gen_cur -- 1GB --parquet /tmp/cur.parquet
//! ```

use std::io::Write;

#[allow(dead_code)] // `csv` serves the benchmark
#[path = "../benches/common/cur.rs"]
mod cur;
#[path = "../benches/common/size_arg.rs"]
mod size_arg;

fn main() {
    let arg = std::env::args().nth(1).unwrap_or_else(|| "1GB".to_string());
    let target: u64 = size_arg::parse_size(&arg).unwrap_or(1 << 30);
    let args: Vec<String> = std::env::args().collect();
    if let Some(at) = args.iter().position(|a| a == "--parquet") {
        let path = std::path::PathBuf::from(args.get(at + 1).expect("--parquet FILE"));
        let mut one = String::new();
        cur::row(&mut one, 0, 200);
        let rows = target / one.len() as u64;
        cur::parquet(rows, 200, &path);
        eprintln!(
            "{rows} rows, {} bytes of Parquet",
            std::fs::metadata(&path).map_or(0, |m| m.len())
        );
        return;
    }
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let _ = out.write_all(cur::HEADER.as_bytes());
    let mut written = cur::HEADER.len() as u64;
    let mut line = String::new();
    let mut n = 0u64;
    while written < target {
        line.clear();
        cur::row(&mut line, n, 200);
        if out.write_all(line.as_bytes()).is_err() {
            return;
        }
        written += line.len() as u64;
        n += 1;
    }
    eprintln!("{n} rows, {written} bytes");
}
