//! CloudWatch `get-metric-data` pages shaped like real ones, shared by the usage benchmark
//! and `examples/gen_cloudwatch.rs`: each result's timestamps newest first, values with
//! decimals, a daily curve with a busy evening and minute-to-minute noise; reads and writes
//! per table and per GSI (table `t` has `t % 3` GSIs, one on average), labelled as
//! `ddbcost usage query` labels them, a few results a page as its script fetches them
//! (≤ 100,800 points a call).

use std::fmt::Write;

/// 2026-11-01T00:00:00Z.
const START: i64 = 1_793_491_200;

fn iso(t: i64) -> String {
    let d = t.div_euclid(86_400) - 20_758;
    let (month, day) = if d < 30 { (11, d + 1) } else { (12, d - 29) };
    let s = t.rem_euclid(86_400);
    format!(
        "2026-{month:02}-{day:02}T{:02}:{:02}:00Z",
        s / 3_600,
        s % 3_600 / 60
    )
}

/// The series of `tables` tables (with GSIs when `gsis`): (table, index, metric).
pub(crate) fn series(tables: usize, gsis: bool) -> Vec<(usize, Option<usize>, &'static str)> {
    let mut out = Vec::new();
    for t in 0..tables {
        let indexes = if gsis { t % 3 } else { 0 };
        for index in std::iter::once(None).chain((0..indexes).map(Some)) {
            for metric in ["ConsumedReadCapacityUnits", "ConsumedWriteCapacityUnits"] {
                out.push((t, index, metric));
            }
        }
    }
    out
}

/// One result: `minutes` one-minute Sums of a series, newest first.
fn result(
    out: &mut String,
    n: usize,
    (t, index, metric): (usize, Option<usize>, &str),
    minutes: i64,
) {
    let index = index.map_or_else(String::new, |i| format!("gsi-{i}"));
    let _ = write!(
        out,
        "{{\"Id\":\"m{n}\",\"Label\":\"ddbcost:table-{t}:{index}:{metric}:Sum:60\",\"Timestamps\":["
    );
    for m in (0..minutes).rev() {
        if m != minutes - 1 {
            out.push(',');
        }
        let _ = write!(out, "\"{}\"", iso(START + m * 60));
    }
    out.push_str("],\"Values\":[");
    let writes = i64::from(metric.contains("Write"));
    let t = i64::try_from(t).unwrap_or(0);
    for m in (0..minutes).rev() {
        if m != minutes - 1 {
            out.push(',');
        }
        let hour = (m / 60) % 24;
        let base = if hour >= 18 { 9_000 } else { 3_000 } * (writes + 1) + (t % 7) * 100;
        let noise = (m * 7_919 + t * 31) % 600;
        let _ = write!(out, "{}.5", base + noise);
    }
    out.push_str("],\"StatusCode\":\"Complete\"}");
}

/// The pages of `series` over `minutes`, `per_page` results each: (file name, JSON).
pub(crate) fn pages(
    series: &[(usize, Option<usize>, &'static str)],
    minutes: i64,
    per_page: usize,
) -> impl Iterator<Item = (String, String)> {
    series
        .chunks(per_page.max(1))
        .enumerate()
        .map(move |(p, chunk)| {
            let mut out = String::from("{\"MetricDataResults\":[");
            for (n, s) in chunk.iter().enumerate() {
                if n > 0 {
                    out.push(',');
                }
                result(&mut out, n, *s, minutes);
            }
            out.push_str("],\"Messages\":[]}");
            (format!("page-{p:05}.json"), out)
        })
}
