//! `aws cloudwatch get-metric-statistics` output: `{"Label": METRIC, "Datapoints":
//! [{Timestamp, Sum|Average|Maximum|Minimum|SampleCount, Unit}]}` (unordered). It names the
//! metric but not the table, so the file is given as `TABLE=FILE` or `TABLE:INDEX=FILE`; the
//! statistic is the one its points carry, the period their smallest gap.

use rust_decimal::Decimal;
use serde_json::Value;

use super::{Key, Metric, Reading, parse_time, value};
use crate::error::Error;

const STATISTICS: [&str; 5] = ["Sum", "Average", "Maximum", "Minimum", "SampleCount"];

fn bad(file: &str, at: &str, why: &str) -> Error {
    Error::input(format!("{at}: {why}")).file(file).help(
        "Consider the output of `aws cloudwatch get-metric-statistics --namespace AWS/DynamoDB …`, given as `TABLE=FILE` (or `TABLE:INDEX=FILE`).",
    )
}

/// Whether `text` is `get-metric-statistics` output.
pub(crate) fn is_statistics(text: &str) -> bool {
    text.trim_start().starts_with('{')
        && serde_json::from_str::<Value>(text).is_ok_and(|d| d.get("Datapoints").is_some())
}

/// Reads `text`, the output for `table` (and `index`) named `file`, into `into`.
///
/// # Errors
/// Not this output; a metric ddbcost does not read; points of several statistics or none;
/// a bad time or value; a series of one point (its period cannot be told).
pub(crate) fn read(
    text: &str,
    file: &str,
    (table, index): (&str, Option<&str>),
    into: &mut Reading,
) -> Result<(), Error> {
    let doc: Value = serde_json::from_str(text)
        .map_err(|e| bad(file, "(document)", &format!("not JSON ({e})")))?;
    let label = doc.get("Label").and_then(Value::as_str).unwrap_or("");
    let metric = Metric::parse(label).ok_or_else(|| {
        bad(
            file,
            "Label",
            &format!("metric `{label}` is not one ddbcost reads"),
        )
    })?;
    let points = doc
        .get("Datapoints")
        .and_then(Value::as_array)
        .ok_or_else(|| bad(file, "(document)", "no Datapoints"))?;
    let mut statistic: Option<&str> = None;
    let mut out: Vec<(i64, Decimal)> = Vec::with_capacity(points.len());
    for (i, p) in points.iter().enumerate() {
        let at = format!("Datapoints[{i}]");
        let stats: Vec<&str> = STATISTICS
            .into_iter()
            .filter(|s| p.get(*s).is_some())
            .collect();
        let [stat] = stats.as_slice() else {
            return Err(bad(
                file,
                &at,
                "one statistic a file: fetch each with its own `--statistics`",
            ));
        };
        if statistic.is_some_and(|s| s != *stat) {
            return Err(bad(
                file,
                &at,
                "one statistic a file: fetch each with its own `--statistics`",
            ));
        }
        statistic = Some(stat);
        let t = p
            .get("Timestamp")
            .and_then(Value::as_str)
            .and_then(parse_time)
            .ok_or_else(|| bad(file, &format!("{at}.Timestamp"), "not an ISO 8601 time"))?;
        let v = match &p[*stat] {
            Value::Number(n) => n.to_string(),
            other => other.to_string(),
        };
        out.push((
            t,
            value(&v).map_err(|why| bad(file, &format!("{at}.{stat}"), &why))?,
        ));
    }
    let period = super::inferred_period(&mut out).ok_or_else(|| {
        bad(
            file,
            "Datapoints",
            "fewer than two points: the period cannot be told",
        )
    })?;
    let key = Key {
        table: table.to_string(),
        index: index.map(str::to_string),
        metric,
    };
    into.add(key, statistic.unwrap_or("Sum"), period, out, file)
}
