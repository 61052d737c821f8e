//! CloudWatch data exported another way, as CSV with a header `timestamp,table,index,metric,
//! statistic,value` (index empty for the table), and optionally a last column `dimension`
//! (`Operation=Scan`, `ReceivingRegion=us-east-2`: the metric's other dimension, empty when it
//! has none): one series per table, index, metric, dimension and statistic, its period
//! inferred from its points' times (the greatest common divisor of their distances). Read as
//! a stream, row by row.

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
        .help("Consider the columns timestamp,table,index,metric,statistic,value and optionally dimension (ISO 8601 times, the index empty for the table, the dimension as `Operation=Query`).")
}

/// A row's `dimension` for `metric`: empty, or `NAME=VALUE` with the name the metric is kept
/// by.
fn by(metric: Metric, text: &str) -> Result<Option<String>, String> {
    if text.is_empty() {
        return Ok(None);
    }
    let (name, value) = text
        .split_once('=')
        .filter(|(_, v)| !v.is_empty())
        .ok_or_else(|| format!("dimension `{text}` is not NAME=VALUE"))?;
    if Some(name) != metric.by() {
        return Err(format!(
            "dimension `{name}`: {} is kept by {}",
            metric.name(),
            metric
                .by()
                .unwrap_or("no dimension besides the table and index")
        ));
    }
    Ok(Some(value.to_string()))
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
    let with_dimension = header.len() == 7 && header.last().is_some_and(|h| h == "dimension");
    if header.get(..6) != Some(&HEADER.map(str::to_string)[..])
        || !(header.len() == 6 || with_dimension)
    {
        return Err(bad(
            file,
            1,
            &format!(
                "header `{}`, expected `{}` (and optionally `,dimension`)",
                header.join(","),
                HEADER.join(",")
            ),
        ));
    }
    let mut current: Option<(Key, String, String)> = None;
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
            && current.as_ref().is_some_and(|(k, s, dim)| {
                k.table == field(1)
                    && k.index.as_deref().unwrap_or("") == field(2)
                    && k.metric.name() == field(3)
                    && s == field(4)
                    && dim == field(6)
            });
        if !same && let Some((key, statistic, _)) = current.take() {
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
                by: by(metric, field(6)).map_err(|why| bad(file, line, &why))?,
            };
            current = Some((key, field(4).to_string(), field(6).to_string()));
        }
        let v = value(field(5)).map_err(|why| bad(file, line, &why))?;
        batch.push((t, v));
    }
}
