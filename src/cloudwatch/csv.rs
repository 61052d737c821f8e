//! CloudWatch data exported another way, as CSV with a header `timestamp,table,index,metric,
//! statistic,value` (index empty for the table): one series per table, index, metric and
//! statistic, its period inferred from its points' times (the greatest common divisor of their
//! distances). Read as a stream, row by row.

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

/// Reads the CSV from `r` (named `file`) into `into`, as a stream: consecutive rows of one
/// series are added together.
///
/// # Errors
/// Another header; a row with a bad time, an unknown metric or a negative or non-numeric
/// value.
pub(crate) fn read(r: impl std::io::Read, file: &str, into: &mut Reading) -> Result<(), Error> {
    let (r, mark) = crate::bounded::Bounded::new(r, file);
    let mut r = ::csv::ReaderBuilder::new()
        .has_headers(true)
        .trim(::csv::Trim::All)
        .from_reader(r);
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
    let mut current: Option<(Key, String)> = None;
    let mut batch: Vec<(i64, Decimal)> = Vec::new();
    let mut row = ::csv::StringRecord::new();
    let mut line = 1u64;
    loop {
        line = line.saturating_add(1);
        mark.record_ends();
        let more = r.read_record(&mut row).map_err(|e| {
            if let ::csv::ErrorKind::Io(io) = e.kind()
                && let Some(refused) = crate::bounded::refusal(io)
            {
                return refused;
            }
            let at = e.position().map_or(line, ::csv::Position::line);
            bad(file, at, &e.to_string())
        })?;
        if let Some(p) = row.position() {
            line = p.line();
        }
        let field = |k: usize| row.get(k).unwrap_or("");
        let same = more
            && current.as_ref().is_some_and(|(k, s)| {
                k.table == field(1)
                    && k.index.as_deref().unwrap_or("") == field(2)
                    && k.metric.name() == field(3)
                    && s == field(4)
            });
        if !same && let Some((key, statistic)) = current.take() {
            into.add(key, &statistic, None, batch.drain(..), file)?;
        }
        if !more {
            return Ok(());
        }
        let t = parse_time(field(0)).ok_or_else(|| {
            bad(
                file,
                line,
                &format!("`{}` is not an ISO 8601 time", field(0)),
            )
        })?;
        if current.is_none() {
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
            let key = Key {
                table: field(1).to_string(),
                index: (!field(2).is_empty()).then(|| field(2).to_string()),
                metric,
            };
            current = Some((key, field(4).to_string()));
        }
        let v = value(field(5)).map_err(|why| bad(file, line, &why))?;
        batch.push((t, v));
    }
}
