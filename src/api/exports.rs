//! What finance loads: the FinOps FOCUS 1.2 rows of an estimate or a forecast for a billing
//! month, the finance CSV's columns, and the JSON documents every command prints (with their
//! schema ids), as types a caller can read back.
//!
//! ```
//! use ddbcost::api::exports::{Period, focus};
//! let bill = ddbcost::api::Session::on_day(20_789).estimate("workloads/cloudshop.yaml")?;
//! let (csv, left_out) = focus(&[("baseline", &bill)], Period { year: 2027, month: 1 })?;
//! assert!(csv.starts_with("BilledCost,"));
//! assert_eq!(left_out, 0);
//! # Ok::<(), ddbcost::api::Error>(())
//! ```

/// A billing month (`--period 2027-01`).
///
/// ```
/// let p = ddbcost::api::exports::Period::parse("2027-01").unwrap();
/// assert_eq!((p.year, p.month), (2027, 1));
/// assert!(ddbcost::api::exports::Period::parse("2027-13").is_err());
/// ```
pub use crate::model::period::Period;
/// The JSON document `compare --format json` prints (`ddbcost.compare/v1`), to read back.
///
/// ```
/// let c = ddbcost::api::Session::on_day(20_789).compare("workloads/cloudshop.yaml")?;
/// let json = ddbcost::api::render_comparison(&c, ddbcost::api::ReportFormat::Json);
/// let doc: ddbcost::api::exports::CompareDoc = serde_json::from_str(&json).unwrap();
/// assert_eq!(doc.scenarios.len(), c.scenarios.len());
/// # Ok::<(), ddbcost::api::Error>(())
/// ```
pub use crate::report::compare::CompareDoc;
/// The JSON document `estimate --format json` prints (`ddbcost.estimate/v1`), to read back.
///
/// ```
/// let bill = ddbcost::api::Session::on_day(20_789).estimate("workloads/cloudshop.yaml")?;
/// let json = ddbcost::api::render(&bill, ddbcost::api::ReportFormat::Json);
/// let doc: ddbcost::api::exports::EstimateDoc = serde_json::from_str(&json).unwrap();
/// assert_eq!(doc.currency, "EUR");
/// # Ok::<(), ddbcost::api::Error>(())
/// ```
pub use crate::report::json::EstimateDoc;

use crate::engine::{Estimate, Forecast};
use crate::error::Error;
use crate::report;
use crate::scenario::Comparison;

/// The finance CSV's header (`--format csv`), in order.
///
/// ```
/// assert_eq!(ddbcost::api::exports::FINANCE_HEADER[..2], ["billing_period_start", "billing_period_end"]);
/// ```
pub const FINANCE_HEADER: &[&str] = report::finance::HEADER;

/// FOCUS 1.2 rows of named estimates for `period`, and how many lines were left out
/// (their usage is unknown).
///
/// ```
/// use ddbcost::api::exports::{Period, focus};
/// let bill = ddbcost::api::Session::on_day(20_789).estimate("workloads/cloudshop.yaml")?;
/// let (csv, _) = focus(&[("baseline", &bill)], Period { year: 2027, month: 1 })?;
/// assert!(csv.contains("2027-01-01T00:00:00Z"));
/// # Ok::<(), ddbcost::api::Error>(())
/// ```
///
/// # Errors
/// A commitment's amortized share too large to compute.
pub fn focus(estimates: &[(&str, &Estimate)], period: Period) -> Result<(String, usize), Error> {
    report::focus::render(estimates, period).map_err(Error::from)
}

/// An estimate as its JSON document (`ddbcost.estimate/v1`).
///
/// ```
/// let bill = ddbcost::api::Session::on_day(20_789).estimate("workloads/cloudshop.yaml")?;
/// let doc = ddbcost::api::exports::document(&bill);
/// assert_eq!(doc.schema, "ddbcost.estimate/v1");
/// # Ok::<(), ddbcost::api::Error>(())
/// ```
#[must_use]
pub fn document(estimate: &Estimate) -> EstimateDoc {
    report::json::document(estimate)
}

/// A forecast as JSON (`ddbcost.forecast/v1`), for the workload named `workload`.
///
/// ```
/// use ddbcost::api::{Settings, forecast, load, prices};
/// let (w, _) = load("tables:\n  t:\n    item_size: 1 KB\n    patterns:\n      put: { op: put, rate: 1M/month }\n", "w.yaml")?;
/// let f = forecast(&w, &prices("aws-us-east-1")?, &Settings::default(), (2027, 1), 2)?;
/// assert!(ddbcost::api::exports::forecast_json(&f, "w").contains("ddbcost.forecast/"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn forecast_json(forecast: &Forecast, workload: &str) -> String {
    report::forecast::json(forecast, workload, None)
}

/// A forecast's FOCUS rows, month by month, and the lines left out.
///
/// ```
/// use ddbcost::api::{Settings, forecast, load, prices};
/// let (w, _) = load("tables:\n  t:\n    item_size: 1 KB\n    patterns:\n      put: { op: put, rate: 1M/month }\n", "w.yaml")?;
/// let f = forecast(&w, &prices("aws-us-east-1")?, &Settings::default(), (2027, 1), 2)?;
/// let (csv, _) = ddbcost::api::exports::forecast_focus(&f)?;
/// assert!(csv.contains("2027-02-01T00:00:00Z"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// A commitment's amortized share too large to compute.
pub fn forecast_focus(forecast: &Forecast) -> Result<(String, usize), Error> {
    report::forecast::focus(forecast).map_err(Error::from)
}

/// A comparison as the finance CSV (`--format csv`: every line of every scenario, with its
/// baseline cost and delta), and per scenario a warning where rounding makes the rounded
/// lines miss the rounded total. `excel` ends lines in CRLF and guards formulas.
///
/// ```
/// use ddbcost::api::exports::{FINANCE_HEADER, Period, finance};
/// let c = ddbcost::api::Session::on_day(20_789).compare("workloads/cloudshop.yaml")?;
/// let (csv, _) = finance(&c, Period { year: 2027, month: 1 }, false);
/// assert!(csv.starts_with(&FINANCE_HEADER.join(",")));
/// # Ok::<(), ddbcost::api::Error>(())
/// ```
#[must_use]
pub fn finance(comparison: &Comparison, period: Period, excel: bool) -> (String, Vec<String>) {
    report::finance::render(comparison, period, excel)
}

/// A comparison as a self-contained HTML page (its charts inline, no script from elsewhere).
///
/// ```
/// use ddbcost::api::exports::{Period, html};
/// let c = ddbcost::api::Session::on_day(20_789).compare("workloads/cloudshop.yaml")?;
/// assert!(html(&c, Period { year: 2027, month: 1 })?.starts_with("<!DOCTYPE html>"));
/// # Ok::<(), ddbcost::api::Error>(())
/// ```
///
/// # Errors
/// The page's template refused to render (a bug in ddbcost, never an empty page).
pub fn html(comparison: &Comparison, period: Period) -> Result<String, crate::error::Error> {
    report::html::render(comparison, period)
}
