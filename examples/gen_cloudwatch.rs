//! Writes a month of one-minute CloudWatch `get-metric-data` pages for TABLES tables and
//! their GSIs into DIR, two results a page (43,200 points each, within a call's 100,800),
//! for measuring `ddbcost usage` on a whole account:
//!
//! ```text
//! cargo run --release --example gen_cloudwatch -- /tmp/cw 200
//! /usr/bin/time -v target/release/ddbcost usage /tmp/cw/*.json --format json > /dev/null
//! ```
//!
//! The pages are those of `benches/common/cloudwatch.rs` (the usage benchmark's).

#[path = "../benches/common/cloudwatch.rs"]
mod cloudwatch;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(dir), Some(tables)) = (args.first(), args.get(1).and_then(|t| t.parse().ok())) else {
        eprintln!("usage: gen_cloudwatch DIR TABLES [DAYS]");
        std::process::exit(2);
    };
    let days: i64 = args.get(2).and_then(|d| d.parse().ok()).unwrap_or(30);
    std::fs::create_dir_all(dir).expect("the folder can be made");
    let series = cloudwatch::series(tables, true);
    let mut bytes = 0usize;
    for (name, text) in cloudwatch::pages(&series, days * 1_440, 2) {
        bytes += text.len();
        std::fs::write(std::path::Path::new(dir).join(name), text).expect("a page can be written");
    }
    eprintln!(
        "{} series × {} minutes = {} points, {bytes} bytes",
        series.len(),
        days * 1_440,
        i64::try_from(series.len()).unwrap_or(i64::MAX) * days * 1_440
    );
}
