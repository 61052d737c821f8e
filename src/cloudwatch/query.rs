//! The `get-metric-data` queries for tables and their GSIs, and the exact AWS CLI commands
//! that fetch them, paged by the API's limits (500 queries and 100,800 points a call) and
//! checked against CloudWatch's retention (60-second points for 15 days, 300-second for 63,
//! 3,600-second for 455). Each query's label names what it measures, so the results read
//! back without the queries file.

use serde_json::{Value, json};

use super::metric_data::{Query, label};
use super::{Key, Metric, timestamp};

/// The API's limits per `get-metric-data` call.
pub(crate) const MAX_QUERIES: usize = 500;
pub(crate) const MAX_POINTS: u64 = 100_800;

/// How long CloudWatch keeps points of a period, in days.
pub(crate) fn retention_days(period: u32) -> Option<u32> {
    match period {
        60 => Some(15),
        p if p % 60 == 0 && p < 3_600 => Some(63),
        p if p % 3_600 == 0 => Some(455),
        _ => None,
    }
}

/// The operations a table's requests are counted by (`SuccessfulRequestLatency`'s
/// `Operation`): what reads and what writes.
pub(crate) const READ_OPERATIONS: [&str; 6] = [
    "GetItem",
    "BatchGetItem",
    "Query",
    "Scan",
    "TransactGetItems",
    "ExecuteStatement",
];
pub(crate) const WRITE_OPERATIONS: [&str; 6] = [
    "PutItem",
    "UpdateItem",
    "DeleteItem",
    "BatchWriteItem",
    "TransactWriteItems",
    "BatchExecuteStatement",
];

/// The metrics queried for a table (`gsi: false`) or a GSI, each with the value of its other
/// dimension; with `requests`, a table's successful requests per operation too.
fn metrics(gsi: bool, requests: bool) -> Vec<(Metric, Option<&'static str>)> {
    let mut m: Vec<(Metric, Option<&'static str>)> = [
        Metric::ConsumedRead,
        Metric::ConsumedWrite,
        Metric::ProvisionedRead,
        Metric::ProvisionedWrite,
        Metric::ReadThrottleEvents,
        Metric::WriteThrottleEvents,
    ]
    .into_iter()
    .map(|x| (x, None))
    .collect();
    if gsi {
        // A GSI being created: its backfill (DESIGN "Changes that cost once").
        m.push((Metric::OnlineIndexConsumedWrite, None));
        m.push((Metric::OnlineIndexProgress, None));
        m.push((Metric::OnlineIndexThrottleEvents, None));
    } else {
        // CloudWatch keeps the items returned per operation only.
        m.push((Metric::ReturnedItemCount, Some("Query")));
        m.push((Metric::ReturnedItemCount, Some("Scan")));
        m.push((Metric::TimeToLiveDeletedItemCount, None));
        if requests {
            for op in READ_OPERATIONS.into_iter().chain(WRITE_OPERATIONS) {
                m.push((Metric::SuccessfulRequestLatency, Some(op)));
            }
        }
    }
    m
}

/// The fetch, as a shell script: each queries file written with a here-document, then one
/// `aws cloudwatch get-metric-data` command per file and time window.
///
/// # Errors
/// A period CloudWatch does not keep for DynamoDB, or more days than it keeps at that period.
pub(crate) fn script(
    targets: &[(String, Option<String>)],
    days: u32,
    period: u32,
    end: i64,
    region: Option<&str>,
    requests: bool,
) -> Result<String, String> {
    let keep = retention_days(period).ok_or_else(|| {
        format!("--period {period}: CloudWatch keeps DynamoDB metrics at 60 s, multiples of 60 s below an hour, or multiples of 3,600 s")
    })?;
    if days == 0 || days > keep {
        return Err(format!(
            "--days {days}: CloudWatch keeps {period}-second points for {keep} days (60-second for 15, 300-second for 63, 3,600-second for 455)"
        ));
    }
    let seconds = i64::from(days).saturating_mul(86_400);
    let start = end.saturating_sub(seconds);
    let points =
        u64::try_from(seconds.checked_div(i64::from(period)).unwrap_or(0)).unwrap_or(u64::MAX);
    // Split the window when one query's points exceed a call's; then as many queries a call as
    // the points allow.
    let windows = points.div_ceil(MAX_POINTS).max(1);
    let per_window = points.div_ceil(windows).max(1);
    let per_call = usize::try_from(MAX_POINTS.checked_div(per_window).unwrap_or(1))
        .unwrap_or(MAX_QUERIES)
        .clamp(1, MAX_QUERIES);
    let mut queries: Vec<Value> = Vec::new();
    for (table, gsi) in targets {
        for (metric, by) in metrics(gsi.is_some(), requests) {
            let q = Query {
                key: Key {
                    by: by.map(str::to_string),
                    ..Key::of(table, gsi.as_deref(), metric)
                },
                statistic: metric.statistic().to_string(),
                period,
            };
            let mut dims = vec![json!({"Name": "TableName", "Value": table})];
            if let Some(g) = gsi {
                dims.push(json!({"Name": "GlobalSecondaryIndexName", "Value": g}));
            }
            if let (Some(name), Some(v)) = (metric.by(), by) {
                dims.push(json!({"Name": name, "Value": v}));
            }
            queries.push(json!({
                "Id": format!("m{}", queries.len()),
                "Label": label(&q),
                "MetricStat": {
                    "Metric": {"Namespace": "AWS/DynamoDB", "MetricName": metric.name(), "Dimensions": dims},
                    "Period": period,
                    "Stat": q.statistic,
                },
                "ReturnData": true
            }));
        }
    }
    let region = region.map_or_else(String::new, |r| format!(" --region {r}"));
    let mut out = format!(
        "#!/bin/sh\n# Written by `ddbcost usage query`: {} queries of {period}-second points over {days} days ({} to {}), {} a call, {} window(s).\n# CloudWatch keeps 60-second points for 15 days, 300-second for 63, 3,600-second for 455.\n# Then: ddbcost usage metrics-*.json\nset -e\n",
        queries.len(),
        timestamp(start),
        timestamp(end),
        per_call,
        windows
    );
    let step = i64::try_from(per_window)
        .unwrap_or(i64::MAX)
        .saturating_mul(i64::from(period));
    for (f, chunk) in queries.chunks(per_call).enumerate() {
        let name = format!("queries-{}.json", f.saturating_add(1));
        let text = serde_json::to_string_pretty(&Value::Array(chunk.to_vec())).unwrap_or_default();
        out.push_str(&format!(
            "cat > {name} <<'DDBCOST_QUERIES'\n{text}\nDDBCOST_QUERIES\n"
        ));
        let mut from = start;
        let mut w = 0u64;
        while from < end {
            let to = from.saturating_add(step).min(end);
            w = w.saturating_add(1);
            out.push_str(&format!(
                "aws cloudwatch get-metric-data{region} --metric-data-queries file://{name} --start-time {} --end-time {} --scan-by TimestampAscending --output json > metrics-{}-{w}.json\n",
                timestamp(from),
                timestamp(to),
                f.saturating_add(1)
            ));
            from = to;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fortnight_of_minutes_fits_one_window_and_pages_by_points() {
        // 14 days × 1,440 = 20,160 points a query: ⌊100,800 ÷ 20,160⌋ = 5 queries a call.
        // One table and one GSI: 9 (6, returned items of Query and Scan, TTL deletions) + 9
        // (its 6, and its backfill's 3) = 18 queries → 4 files (5, 5, 5, 3), one window each.
        let s = script(
            &[
                ("orders".into(), None),
                ("orders".into(), Some("by-status".into())),
            ],
            14,
            60,
            1_793_491_200,
            Some("eu-west-1"),
            false,
        )
        .unwrap();
        assert_eq!(s.matches("aws cloudwatch get-metric-data").count(), 4);
        assert!(s.contains("queries-4.json"));
        assert!(s.contains(
            "\"Label\": \"ddbcost:orders:by-status:OnlineIndexPercentageProgress:Maximum:60\""
        ));
        assert!(s.contains("--start-time 2026-10-18T00:00:00Z --end-time 2026-11-01T00:00:00Z"));
        assert!(
            s.contains("\"Label\": \"ddbcost:orders:by-status:ConsumedWriteCapacityUnits:Sum:60\"")
        );
    }

    #[test]
    fn retention_bounds_the_days() {
        assert!(
            script(&[("t".into(), None)], 16, 60, 0, None, false)
                .unwrap_err()
                .contains("15 days")
        );
        assert!(script(&[("t".into(), None)], 30, 61, 0, None, false).is_err());
        // 455 days of hours: 10,920 points a query, one window, 9 queries a call.
        assert!(
            script(
                &[("t".into(), None)],
                455,
                3_600,
                1_793_491_200,
                None,
                false
            )
            .is_ok()
        );
    }
}
