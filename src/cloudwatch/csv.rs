//! CloudWatch data exported another way, as CSV with a header `timestamp,table,index,metric,
//! statistic,value` (index empty for the table): one series per table, index, metric and
//! statistic, its period the smallest gap between its points.

use std::collections::BTreeMap;

use rust_decimal::Decimal;

use super::{Key, Metric, Reading, parse_time, value};
use crate::error::Error;

const HEADER: [&str; 6] = [
    "timestamp",
    "table",
    "index",
    "metric",
    "statistic",
    "value",
];

fn bad(file: &str, line: u64, why: &str) -> Error {
    Error::input(format!("line {line}: {why}"))
        .file(file)
        .help("Consider the columns timestamp,table,index,metric,statistic,value (ISO 8601 times, the index empty for the table).")
}

/// Reads the CSV `text` (from `file`) into `into`.
///
/// # Errors
/// Another header; a row with a bad time, an unknown metric or a negative or non-numeric
/// value; a series of one point (its period cannot be told).
pub(crate) fn read(text: &str, file: &str, into: &mut Reading) -> Result<(), Error> {
    let mut r = ::csv::ReaderBuilder::new()
        .has_headers(true)
        .trim(::csv::Trim::All)
        .from_reader(text.as_bytes());
    let header: Vec<String> = r
        .headers()
        .map_err(|e| bad(file, 1, &e.to_string()))?
        .iter()
        .map(str::to_ascii_lowercase)
        .collect();
    if header != HEADER {
        return Err(bad(
            file,
            1,
            &format!(
                "header `{}`, expected `{}`",
                header.join(","),
                HEADER.join(",")
            ),
        ));
    }
    let mut series: BTreeMap<(Key, String), Vec<(i64, Decimal)>> = BTreeMap::new();
    for (i, row) in r.records().enumerate() {
        let line = u64::try_from(i).unwrap_or(u64::MAX).saturating_add(2);
        let row = row.map_err(|e| bad(file, line, &e.to_string()))?;
        let field = |k: usize| row.get(k).unwrap_or("");
        let t = parse_time(field(0)).ok_or_else(|| {
            bad(
                file,
                line,
                &format!("`{}` is not an ISO 8601 time", field(0)),
            )
        })?;
        let metric = Metric::parse(field(3)).ok_or_else(|| {
            bad(
                file,
                line,
                &format!("metric `{}` is not one ddbcost reads", field(3)),
            )
        })?;
        if field(1).is_empty() {
            return Err(bad(file, line, "no table"));
        }
        let v = value(field(5)).map_err(|why| bad(file, line, &why))?;
        let key = Key {
            table: field(1).to_string(),
            index: (!field(2).is_empty()).then(|| field(2).to_string()),
            metric,
        };
        series
            .entry((key, field(4).to_string()))
            .or_default()
            .push((t, v));
    }
    for ((key, statistic), mut points) in series {
        let period = super::inferred_period(&mut points).ok_or_else(|| {
            Error::input(format!(
                "{} of table `{}`: one point, so its period cannot be told",
                key.metric.name(),
                key.table
            ))
            .file(file)
            .help("Consider exporting at least two periods of each series.")
        })?;
        into.add(key, &statistic, period, points, file)?;
    }
    Ok(())
}
