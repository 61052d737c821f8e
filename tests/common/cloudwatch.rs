//! CloudWatch `get-metric-data` pages as the AWS CLI writes them, for the `usage` tests:
//! results named by the labels `usage query` gives, timestamps newest first.

use serde_json::{Value, json};

use super::Case;

/// 2026-11-01T00:00:00Z (day 20,758, a Sunday) in Unix seconds.
pub const NOV_1: i64 = 1_793_491_200;

/// ISO 8601 in UTC, as CloudWatch writes it.
pub fn iso(t: i64) -> String {
    let secs = u64::try_from(t).unwrap();
    let days = secs / 86_400;
    // Civil date from days since 1970 (Howard Hinnant's algorithm).
    let z = i64::try_from(days).unwrap() + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    let s = secs % 86_400;
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        s / 3_600,
        s % 3_600 / 60,
        s % 60
    )
}

/// One `get-metric-data` result, newest first as CloudWatch returns by default.
pub fn result(label: &str, points: &[(i64, String)]) -> Value {
    let mut p = points.to_vec();
    p.reverse();
    json!({
        "Id": "m0",
        "Label": label,
        "Timestamps": p.iter().map(|(t, _)| iso(*t)).collect::<Vec<_>>(),
        "Values": p.iter().map(|(_, v)| serde_json::from_str::<Value>(v).unwrap()).collect::<Vec<_>>(),
        "StatusCode": "Complete",
    })
}

/// `n` points `period` seconds apart from November 1st, all `value`.
pub fn points(n: i64, period: i64, value: &str) -> Vec<(i64, String)> {
    (0..n)
        .map(|i| (NOV_1 + i * period, value.to_string()))
        .collect()
}

/// `n` points `period` seconds apart from November 1st, each the value `f` gives its time.
pub fn curve(n: i64, period: i64, f: impl Fn(i64) -> i64) -> Vec<(i64, String)> {
    (0..n)
        .map(|i| {
            let t = NOV_1 + i * period;
            (t, f(t).to_string())
        })
        .collect()
}

/// A page of results.
pub fn page(results: &[Value]) -> String {
    json!({"MetricDataResults": results, "Messages": []}).to_string()
}

/// `ddbcost usage FILES… --format json EXTRA…`, which must succeed, parsed.
pub fn usage_json(files: &[String], extra: &[&str]) -> Value {
    let mut args = vec!["usage".to_string()];
    args.extend(files.iter().cloned());
    args.extend(["--format".to_string(), "json".to_string()]);
    args.extend(extra.iter().map(ToString::to_string));
    let out = Case::new().args(&args).run().success();
    serde_json::from_str(&out.stdout).unwrap()
}

/// A JSON string holding a decimal.
pub fn s(v: &Value) -> rust_decimal::Decimal {
    super::dec(
        v.as_str()
            .unwrap_or_else(|| panic!("not a decimal string: {v}")),
    )
}
