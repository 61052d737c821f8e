//! Measured usage (`ddbcost usage`): CloudWatch's consumed capacity for tables and GSIs —
//! `get-metric-data` output or CSV, as texts — and the capacity decision on the real curve:
//! on demand, auto scaling simulated step by step by Application Auto Scaling's rules, fixed
//! at the peak, the current capacity, and the verdict; and the script that fetches the data.
//!
//! ```
//! let csv = "timestamp,table,index,metric,statistic,value\n\
//!            2026-11-01T00:00:00Z,orders,,ConsumedWriteCapacityUnits,Sum,6000\n\
//!            2026-11-01T00:01:00Z,orders,,ConsumedWriteCapacityUnits,Sum,6000\n";
//! let book = ddbcost::api::prices("aws-us-east-1")?;
//! let json = ddbcost::api::usage::decide(
//!     &[("m.csv".into(), csv.into())], &[], None, &book, "0.7".parse().unwrap(), 730.into(),
//!     ddbcost::api::ReportFormat::Json,
//! )?;
//! let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
//! // 100 WCU/s for two minutes: ⌈100 ÷ 0.7⌉ = 143 WCU × 2 min = 143 ÷ 30 WCU-hours.
//! let auto = &doc["tables"][0]["dimensions"][0]["auto_scaling"];
//! assert_eq!(auto["unit_hours"], "4.7666666666666666666666666667");
//! # Ok::<(), ddbcost::api::Error>(())
//! ```

use rust_decimal::Decimal;

use super::ReportFormat;
use crate::cloudwatch::input::Input;
use crate::cloudwatch::{analysis, query};
use crate::error::Error;
use crate::model::{PriceBook, Workload};
use crate::report;

/// The decision on the measured `inputs` (`(file, text)`), named by their labels or by the
/// `queries` files that produced them, for the tables `workload` describes (its class,
/// region, policy; `None`: Standard tables at `target`), rendered as `format`.
///
/// ```
/// let book = ddbcost::api::prices("aws-us-east-1")?;
/// let bad = ddbcost::api::usage::decide(&[("x".into(), "hello".into())], &[], None, &book, "0.7".parse().unwrap(), 730.into(), ddbcost::api::ReportFormat::Json);
/// assert!(bad.unwrap_err().to_string().contains("neither `get-metric-data` output nor a CSV"));
/// # Ok::<(), ddbcost::api::Error>(())
/// ```
///
/// # Errors
/// What the readers refuse (another namespace, overlapping pages that disagree, a negative
/// value, mixed periods), a measured table the workload lacks, a price the book lacks.
pub fn decide(
    inputs: &[(String, String)],
    queries: &[(String, String)],
    workload: Option<&Workload>,
    book: &PriceBook,
    target: Decimal,
    month_hours: Decimal,
    format: ReportFormat,
) -> Result<String, Error> {
    decide_holding(
        inputs,
        queries,
        workload,
        book,
        (target, month_hours),
        analysis::DEFAULT_HELD,
        format,
    )
}

/// As `decide`, holding at most `held` points at once (`--max-points-held`): past it the
/// inputs are read again in shards of tables, with the same figures.
///
/// ```
/// let csv = "timestamp,table,index,metric,statistic,value\n\
///            2026-11-01T00:00:00Z,a,,ConsumedWriteCapacityUnits,Sum,60\n\
///            2026-11-01T00:01:00Z,a,,ConsumedWriteCapacityUnits,Sum,60\n\
///            2026-11-01T00:00:00Z,b,,ConsumedWriteCapacityUnits,Sum,120\n\
///            2026-11-01T00:01:00Z,b,,ConsumedWriteCapacityUnits,Sum,120\n";
/// let book = ddbcost::api::prices("aws-us-east-1")?;
/// let run = |held| ddbcost::api::usage::decide_holding(
///     &[("m.csv".into(), csv.into())], &[], None, &book, ("0.7".parse().unwrap(), 730.into()),
///     held, ddbcost::api::ReportFormat::Json,
/// );
/// let (one, two): (serde_json::Value, serde_json::Value) =
///     (serde_json::from_str(&run(100)?).unwrap(), serde_json::from_str(&run(2)?).unwrap());
/// // 4 points, 2 held at most: a survey, then tables a and b one pass each.
/// assert_eq!((one["points"]["passes"].as_u64(), two["points"]["passes"].as_u64()), (Some(1), Some(3)));
/// assert_eq!(one["tables"], two["tables"]);
/// # Ok::<(), ddbcost::api::Error>(())
/// ```
///
/// # Errors
/// As `decide`; `held` 0.
pub fn decide_holding(
    inputs: &[(String, String)],
    queries: &[(String, String)],
    workload: Option<&Workload>,
    book: &PriceBook,
    (target, month_hours): (Decimal, Decimal),
    held: u64,
    format: ReportFormat,
) -> Result<String, Error> {
    if held == 0 {
        return Err(Error::usage("no point could be held (0)"));
    }
    let texts = |list: &[(String, String)]| -> Vec<Input> {
        list.iter()
            .map(|(n, t)| Input::text(n, t.clone()))
            .collect()
    };
    let r = analysis::measure(
        &texts(inputs),
        &texts(queries),
        held,
        &analysis::Facts {
            workload,
            book,
            target,
            month_hours,
            allow_partial: false,
            hour_by_hour: false,
        },
    )?;
    Ok(match format {
        ReportFormat::Table => report::usage::table(&r),
        ReportFormat::Json => report::usage::json(&r),
        ReportFormat::Markdown => report::usage::markdown(&r),
    })
}

/// A `get-metric-data` page read whole, by hand (`by_hand`) or by serde: the reading or the
/// error, as text. The two readers give one answer on every page (the `cloudwatch` fuzz
/// target holds them to it).
///
/// ```
/// let page = r#"{"MetricDataResults": [{"Id": "m0", "Label": "ddbcost:t::ConsumedReadCapacityUnits:Sum:60", "Timestamps": ["2026-11-01T00:00:00Z"], "Values": [5.5], "StatusCode": "Complete"}]}"#;
/// assert_eq!(ddbcost::api::usage::page_reading(page, true), ddbcost::api::usage::page_reading(page, false));
/// ```
#[doc(hidden)]
#[must_use]
pub fn page_reading(doc: &str, by_hand: bool) -> String {
    crate::cloudwatch::metric_data::reading_of(doc, by_hand)
}

/// The fetch as a shell script: the queries files and the `aws cloudwatch get-metric-data`
/// commands, for `targets` (table, GSI) over `days` ending at `end` (Unix seconds); with
/// `requests`, each table's successful requests per operation too (what `anomalies
/// --metrics` divides units and items by).
///
/// ```
/// let s = ddbcost::api::usage::script(&[("orders".into(), None)], 14, 60, 1_793_491_200, None, false).unwrap();
/// assert!(s.contains("aws cloudwatch get-metric-data --metric-data-queries file://queries-1.json"));
/// assert!(ddbcost::api::usage::script(&[("orders".into(), None)], 16, 60, 0, None, false).is_err());
/// ```
///
/// # Errors
/// A period CloudWatch does not keep, or more days than it keeps at that period.
pub fn script(
    targets: &[(String, Option<String>)],
    days: u32,
    period: u32,
    end: i64,
    region: Option<&str>,
    requests: bool,
) -> Result<String, String> {
    query::script(targets, days, period, end, region, requests)
}
