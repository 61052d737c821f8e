//! `aws cloudwatch get-metric-statistics` output: `{"Label": METRIC, "Datapoints":
//! [{Timestamp, Sum|Average|Maximum|Minimum|SampleCount, Unit}]}` (unordered). It names the
//! metric but not the table, so the file is given as `TABLE=FILE` or `TABLE:INDEX=FILE`; the
//! statistic is the one its points carry, the period inferred from their times.

use std::collections::BTreeMap;

use rust_decimal::Decimal;
use serde_json::value::RawValue;

use super::{Key, Metric, Reading, parse_time, value};
use crate::error::Error;

const STATISTICS: [&str; 5] = ["Sum", "Average", "Maximum", "Minimum", "SampleCount"];

fn bad(file: &str, at: &str, why: &str) -> Error {
    Error::input(format!("{at}: {why}")).file(file).help(
        "Consider the output of `aws cloudwatch get-metric-statistics --namespace AWS/DynamoDB …`, given as `TABLE=FILE` (or `TABLE:INDEX=FILE`).",
    )
}

/// Reads the `Datapoints` of output labelled `label`, for `table` (and `index`), named
/// `file`, into `into`.
///
/// # Errors
/// A metric ddbcost does not read; points of several statistics or none; a bad time or
/// value.
pub(crate) fn read(
    label: &str,
    points: &[BTreeMap<String, Box<RawValue>>],
    file: &str,
    (table, index): (&str, Option<&str>),
    into: &mut Reading,
) -> Result<(), Error> {
    let metric = Metric::parse(label).ok_or_else(|| {
        bad(
            file,
            "Label",
            &format!("metric `{label}` is not one ddbcost reads"),
        )
    })?;
    let mut statistic: Option<&str> = None;
    let mut out: Vec<(i64, Decimal)> = Vec::with_capacity(points.len());
    for (i, p) in points.iter().enumerate() {
        let at = format!("Datapoints[{i}]");
        let stats: Vec<&str> = STATISTICS
            .into_iter()
            .filter(|s| p.contains_key(*s))
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
            .and_then(|raw| serde_json::from_str::<&str>(raw.get()).ok())
            .and_then(parse_time)
            .ok_or_else(|| bad(file, &format!("{at}.Timestamp"), "not an ISO 8601 time"))?;
        let v = p.get(*stat).map_or("", |raw| raw.get());
        out.push((
            t,
            value(v).map_err(|why| bad(file, &format!("{at}.{stat}"), &why))?,
        ));
    }
    let key = Key::of(table, index, metric);
    into.add(key, statistic.unwrap_or("Sum"), None, out, file)
}
