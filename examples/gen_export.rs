//! Writes a deterministic DynamoDB export-to-S3 file of about SIZE bytes to standard output,
//! for measuring `ddbcost size` and `ddbcost keys` on whole files:
//!
//! ```text
//! cargo run --release --example gen_export -- 1GB realistic > /tmp/realistic.json
//! cargo run --release --example gen_export -- 1GB simple > /tmp/simple.json
//! /usr/bin/time -v target/release/ddbcost size /tmp/realistic.json --jobs 1
//! ```
//!
//! The item shapes are those of `benches/common/export.rs` (the size benchmark's).

use std::io::Write;

#[allow(dead_code)] // `lines` serves the benchmarks
#[path = "../benches/common/export.rs"]
mod export;
#[path = "../benches/common/size_arg.rs"]
mod size_arg;
use size_arg::parse_size;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let target = args.first().and_then(|a| parse_size(a)).unwrap_or(1 << 30);
    let kind = match args.get(1).map(String::as_str) {
        None | Some("realistic") => export::Kind::Realistic,
        Some("simple") => export::Kind::Simple,
        Some(other) => {
            eprintln!("unknown kind `{other}`; expected `realistic` or `simple`");
            std::process::exit(2);
        }
    };
    let mut rng = export::Rng::new(42);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(1 << 20, stdout.lock());
    let (mut written, mut i, mut batch) = (0u64, 0u64, String::new());
    while written < target {
        batch.clear();
        export::line(kind, &mut rng, i, &mut batch);
        written += batch.len() as u64;
        i += 1;
        if out.write_all(batch.as_bytes()).is_err() {
            std::process::exit(1);
        }
    }
    let _ = out.flush();
}
