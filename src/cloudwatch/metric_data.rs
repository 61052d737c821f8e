//! `aws cloudwatch get-metric-data` output: `{"MetricDataResults": [{Id, Label, Timestamps,
//! Values, StatusCode}], "Messages"}`. A result carries only its `Id` and `Label`, so each
//! is named either by the label `ddbcost usage query` writes (`ddbcost:TABLE:INDEX:METRIC:
//! STAT:PERIOD`, INDEX empty for the table) or by the queries file that produced it
//! (`--queries q.json`: `[{Id, MetricStat: {Metric: {Namespace, MetricName, Dimensions},
//! Period, Stat}}]`). Another namespace, a metric ddbcost does not read, a negative or
//! non-numeric value are refused with the file and the result; a status other than
//! `Complete` is said.

use std::collections::HashMap;

use serde_json::Value;

use super::{Key, Metric, Reading, parse_time, value};
use crate::error::Error;

/// What a query asked for: the series' key, statistic and period.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Query {
    pub(crate) key: Key,
    pub(crate) statistic: String,
    pub(crate) period: u32,
}

/// The label `usage query` gives a query, and reads back.
pub(crate) fn label(q: &Query) -> String {
    format!(
        "ddbcost:{}:{}:{}:{}:{}",
        q.key.table,
        q.key.index.as_deref().unwrap_or(""),
        q.key.metric.name(),
        q.statistic,
        q.period
    )
}

fn from_label(label: &str) -> Option<Query> {
    let parts: Vec<&str> = label.strip_prefix("ddbcost:")?.split(':').collect();
    let [table, index, metric, statistic, period] = parts.as_slice() else {
        return None;
    };
    Some(Query {
        key: Key {
            table: (*table).to_string(),
            index: (!index.is_empty()).then(|| (*index).to_string()),
            metric: Metric::parse(metric)?,
        },
        statistic: (*statistic).to_string(),
        period: period.parse().ok()?,
    })
}

fn bad(file: &str, at: &str, why: &str) -> Error {
    Error::input(format!("{at}: {why}")).file(file).help(
        "Consider the output of the commands `ddbcost usage query` prints, unedited, with their queries file (`--queries`).",
    )
}

/// Reads a queries file (`--metric-data-queries`): each query's `Id` and what it asks for.
///
/// # Errors
/// Not a list of queries; another namespace; a metric or dimension ddbcost does not read.
pub(crate) fn queries(text: &str, file: &str) -> Result<HashMap<String, Query>, Error> {
    let doc: Value = serde_json::from_str(text)
        .map_err(|e| bad(file, "(document)", &format!("not JSON ({e})")))?;
    let list = doc
        .as_array()
        .or_else(|| doc.get("MetricDataQueries").and_then(Value::as_array))
        .ok_or_else(|| bad(file, "(document)", "not a list of metric data queries"))?;
    let mut out = HashMap::new();
    for (i, q) in list.iter().enumerate() {
        let at = format!("[{i}]");
        let Some(id) = q.get("Id").and_then(Value::as_str) else {
            return Err(bad(file, &at, "no Id"));
        };
        let Some(stat) = q.get("MetricStat") else {
            // An expression over other queries: nothing to read.
            continue;
        };
        let metric = &stat["Metric"];
        let namespace = metric
            .get("Namespace")
            .and_then(Value::as_str)
            .unwrap_or("");
        if namespace != "AWS/DynamoDB" {
            return Err(bad(
                file,
                &format!("{at} ({id})"),
                &format!("namespace `{namespace}`, not AWS/DynamoDB"),
            ));
        }
        let name = metric
            .get("MetricName")
            .and_then(Value::as_str)
            .unwrap_or("");
        let m = Metric::parse(name).ok_or_else(|| {
            bad(
                file,
                &format!("{at} ({id})"),
                &format!("metric `{name}` is not one ddbcost reads"),
            )
        })?;
        let mut table = None;
        let mut index = None;
        for d in metric
            .get("Dimensions")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            match (
                d.get("Name").and_then(Value::as_str),
                d.get("Value").and_then(Value::as_str),
            ) {
                (Some("TableName"), Some(v)) => table = Some(v.to_string()),
                (Some("GlobalSecondaryIndexName"), Some(v)) => index = Some(v.to_string()),
                (Some(other), _) => {
                    return Err(bad(
                        file,
                        &format!("{at} ({id})"),
                        &format!(
                            "dimension `{other}` is not one ddbcost reads (TableName, GlobalSecondaryIndexName)"
                        ),
                    ));
                }
                _ => {}
            }
        }
        let table =
            table.ok_or_else(|| bad(file, &format!("{at} ({id})"), "no TableName dimension"))?;
        let period = stat
            .get("Period")
            .and_then(Value::as_u64)
            .and_then(|p| u32::try_from(p).ok())
            .filter(|p| *p > 0)
            .ok_or_else(|| bad(file, &format!("{at} ({id})"), "no Period (seconds)"))?;
        let statistic = stat
            .get("Stat")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        out.insert(
            id.to_string(),
            Query {
                key: Key {
                    table,
                    index,
                    metric: m,
                },
                statistic,
                period,
            },
        );
    }
    Ok(out)
}

/// Reads one page of `get-metric-data` output into `into`.
///
/// # Errors
/// Not this output; a result no label or query names; timestamps and values of different
/// lengths; a timestamp that does not parse; a negative or non-numeric value.
pub(crate) fn read(
    text: &str,
    file: &str,
    queries: &HashMap<String, Query>,
    into: &mut Reading,
) -> Result<(), Error> {
    let doc: Value = serde_json::from_str(text)
        .map_err(|e| bad(file, "(document)", &format!("not JSON ({e})")))?;
    let results = doc
        .get("MetricDataResults")
        .and_then(Value::as_array)
        .ok_or_else(|| {
            bad(
                file,
                "(document)",
                "no MetricDataResults: not get-metric-data output",
            )
        })?;
    for (i, r) in results.iter().enumerate() {
        let id = r.get("Id").and_then(Value::as_str).unwrap_or("");
        let at = format!("MetricDataResults[{i}] ({id})");
        let q = r
            .get("Label")
            .and_then(Value::as_str)
            .and_then(from_label)
            .or_else(|| queries.get(id).cloned())
            .ok_or_else(|| {
                Error::input(format!("{at}: names no metric (its label is not one `ddbcost usage query` wrote, and no queries file has its Id)"))
                    .file(file)
                    .help("Consider giving the queries file that produced it: `--queries q.json`.")
            })?;
        match r.get("StatusCode").and_then(Value::as_str) {
            Some("Complete") | None => {}
            Some(status) => into.warnings.push(format!(
                "{file}: {at} is {status}: {}",
                match status {
                    "PartialData" => "more pages exist (the AWS CLI follows NextToken unless `--no-paginate`): the series may have gaps",
                    _ => "CloudWatch could not return all of it",
                }
            )),
        }
        let times = r
            .get("Timestamps")
            .and_then(Value::as_array)
            .ok_or_else(|| bad(file, &at, "no Timestamps"))?;
        let values = r
            .get("Values")
            .and_then(Value::as_array)
            .ok_or_else(|| bad(file, &at, "no Values"))?;
        if times.len() != values.len() {
            return Err(bad(
                file,
                &at,
                &format!("{} timestamps and {} values", times.len(), values.len()),
            ));
        }
        let mut points = Vec::with_capacity(times.len());
        for (j, (t, v)) in times.iter().zip(values).enumerate() {
            let t = t.as_str().and_then(parse_time).ok_or_else(|| {
                bad(
                    file,
                    &format!("{at}.Timestamps[{j}]"),
                    &format!("`{t}` is not an ISO 8601 time"),
                )
            })?;
            let text = match v {
                Value::Number(n) => n.to_string(),
                other => other.to_string(),
            };
            let v = value(&text).map_err(|why| bad(file, &format!("{at}.Values[{j}]"), &why))?;
            points.push((t, v));
        }
        into.add(q.key, &q.statistic, q.period, points, file)?;
    }
    Ok(())
}
