//! Why the bill jumped (`ddbcost anomalies`): a CSV bill held as text read day by day, and
//! each departure of a table's meter from its trailing baseline, with its money and the
//! mechanism the bill shows, rendered.
//!
//! ```
//! use rust_decimal::Decimal;
//! let mut csv = String::from("line_item_line_item_type,line_item_usage_start_date,\
//! line_item_product_code,line_item_usage_type,line_item_resource_id,line_item_usage_amount,\
//! line_item_currency_code,line_item_unblended_cost\n");
//! // Ten days of $2 of reads a day, then five of $6: a step on the 11th day.
//! for day in 1..=15 {
//!     let cost = if day <= 10 { 2 } else { 6 };
//!     csv.push_str(&format!("Usage,2026-11-{day:02}T00:00:00Z,AmazonDynamoDB,ReadRequestUnits,\
//! arn:aws:dynamodb:us-east-1:1:table/orders,{},USD,{cost}\n", cost * 8_000_000));
//! }
//! let json = ddbcost::api::anomalies::report_text(
//!     "cur.csv", &csv, 7, Decimal::from(50), Decimal::ONE, ddbcost::api::ReportFormat::Json)?;
//! let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
//! assert_eq!(doc["departures"][0]["day"], "2026-11-11");
//! assert_eq!(doc["departures"][0]["shape"], "step");
//! # Ok::<(), ddbcost::api::Error>(())
//! ```

use rust_decimal::Decimal;

use super::ReportFormat;
use crate::anomalies::{daily::Daily, detect, measured};
use crate::error::Error;

/// `ddbcost anomalies` of one CSV bill held as text (`name` for errors): a baseline of
/// `window` days, flagged at `min_change` percent of it and `min_daily` a day.
///
/// # Errors
/// A bill that cannot be read; no DynamoDB usage; a window outside 3–60 days or a threshold
/// below zero.
pub fn report_text(
    name: &str,
    text: &str,
    window: usize,
    min_change: Decimal,
    min_daily: Decimal,
    format: ReportFormat,
) -> Result<String, Error> {
    explained_text(name, text, &[], (window, min_change, min_daily), format)
}

/// `ddbcost anomalies --metrics` of one CSV bill held as text, and CloudWatch data held as
/// texts (`(name, text)`: `get-metric-data` pages named by ddbcost's labels, or the CSV of
/// metrics): each departure's mechanism from what was measured. `rule` is the window in
/// days, the least change in percent and the least change a day.
///
/// # Errors
/// As `report_text`; CloudWatch data the readers refuse.
pub fn explained_text(
    name: &str,
    text: &str,
    metrics: &[(String, String)],
    (window, min_change, min_daily): (usize, Decimal, Decimal),
    format: ReportFormat,
) -> Result<String, Error> {
    if !(3..=60).contains(&window) || min_change <= Decimal::ZERO || min_daily.is_sign_negative() {
        return Err(
            Error::usage("a window of 3 to 60 days and thresholds above zero")
                .help("Consider a window of 7 days, a change of 50 % and 1 a day."),
        );
    }
    let mut daily = Daily::default();
    let mut sink = |row: &crate::bill::row::Row| daily.add(row, name);
    crate::bill::read::csv(text.as_bytes(), name, &mut sink)?;
    if daily.series.is_empty() {
        return Err(Error::input("no DynamoDB usage in the bill").file(name));
    }
    let mut rule = detect::Rule::new(window, min_change, min_daily);
    let mut found = detect::departures(&daily, &rule, detect::Baseline::Trailing);
    if !metrics.is_empty() {
        let inputs: Vec<crate::cloudwatch::input::Input> = metrics
            .iter()
            .map(|(n, t)| crate::cloudwatch::input::Input::text(n, t.clone()))
            .collect();
        let (m, _) = measured::read_inputs(&inputs, &std::collections::HashMap::new())?;
        rule.metrics = Some(m.series());
        measured::explain(&mut found, &daily, &m, &rule);
    }
    Ok(match format {
        ReportFormat::Table => crate::report::anomalies::table(
            &daily,
            &rule,
            &found,
            Some(crate::report::layout::Layout::default()),
            None,
        ),
        ReportFormat::Markdown => {
            crate::report::anomalies::table(&daily, &rule, &found, None, None)
        }
        ReportFormat::Json => crate::report::anomalies::json(&daily, &rule, &found, None),
    })
}
