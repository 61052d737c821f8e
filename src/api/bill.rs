//! The AWS bill (`ddbcost bill`): DynamoDB's rows of a CUR 2.0 export, a legacy CUR, a FOCUS
//! 1.2 export with AWS columns or ddbcost's own FOCUS export — files, delivery folders or a
//! CSV text — per table, region and component, every row counted once, rendered.
//!
//! ```
//! let csv = "line_item_line_item_type,line_item_usage_start_date,line_item_product_code,\
//! line_item_usage_type,line_item_resource_id,line_item_usage_amount,line_item_currency_code,\
//! line_item_unblended_cost\n\
//! Usage,2026-11-01T00:00:00Z,AmazonDynamoDB,ReadRequestUnits,\
//! arn:aws:dynamodb:us-east-1:1:table/orders,8000000,USD,1\n";
//! let json = ddbcost::api::bill::report_text("cur.csv", csv, None, ddbcost::api::ReportFormat::Json)?;
//! let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
//! // 8,000,000 read request units billed $1 on table `orders`.
//! assert_eq!(doc["lines"][0]["table"], "orders");
//! assert_eq!(doc["total"]["unblended"], "1");
//! # Ok::<(), ddbcost::api::Error>(())
//! ```

use super::ReportFormat;
use crate::bill::ledger::Ledger;
use crate::error::Error;
use crate::report;

fn render(ledger: &Ledger, format: ReportFormat) -> String {
    match format {
        ReportFormat::Table => report::bill::table(ledger, None),
        ReportFormat::Json => report::bill::json(ledger, None),
        ReportFormat::Markdown => report::bill::markdown(ledger, None),
    }
}

/// The bill of `inputs` (files: CSV, `.csv.gz`, Parquet; or delivery folders) for `period`
/// (`YYYY-MM`; `None`: the only one they hold), rendered as `format`.
///
/// ```
/// let e = ddbcost::api::bill::report(&["no/such/bill.csv".into()], None, ddbcost::api::ReportFormat::Json);
/// assert!(e.unwrap_err().to_string().contains("cannot read"));
/// ```
///
/// # Errors
/// A file that is not a bill, a column missing, a value that does not parse, several
/// currencies, several periods without one chosen, no DynamoDB row.
pub fn report(
    inputs: &[String],
    period: Option<&str>,
    format: ReportFormat,
) -> Result<String, Error> {
    let ledger = crate::bill::read_all(inputs, period.map(str::to_string))?;
    Ok(render(&ledger, format))
}

/// As `report`, for one CSV bill held as text (`name` for errors).
///
/// # Errors
/// As `report`.
pub fn report_text(
    name: &str,
    text: &str,
    period: Option<&str>,
    format: ReportFormat,
) -> Result<String, Error> {
    let mut ledger = Ledger::new(period.map(str::to_string));
    ledger.files.push(name.to_string());
    let mut sink = |row: &crate::bill::row::Row| ledger.add(row, name);
    crate::bill::read::csv(text.as_bytes(), name, &mut sink)?;
    ledger.finish()?;
    Ok(render(&ledger, format))
}

/// The workload `bill --to-workload` writes, built from one CSV bill held as text (`name`
/// for errors) for `period`: per table, in the region it was billed the most, its capacity
/// mode, class and what it used as `observed`.
///
/// ```
/// let csv = "line_item_line_item_type,line_item_usage_start_date,line_item_product_code,\
/// line_item_usage_type,line_item_resource_id,line_item_usage_amount,line_item_currency_code,\
/// line_item_unblended_cost\n\
/// Usage,2026-11-01T00:00:00Z,AmazonDynamoDB,ReadRequestUnits,\
/// arn:aws:dynamodb:us-east-1:1:table/orders,8000000,USD,1\n";
/// let yaml = ddbcost::api::bill::workload_text("cur.csv", csv, None)?;
/// // The 8,000,000 read request units billed, as the table's observed reads.
/// assert!(yaml.contains("read_units: 8000000"));
/// # Ok::<(), ddbcost::api::Error>(())
/// ```
///
/// # Errors
/// As `report`.
pub fn workload_text(name: &str, text: &str, period: Option<&str>) -> Result<String, Error> {
    let mut ledger = Ledger::new(period.map(str::to_string));
    ledger.files.push(name.to_string());
    let mut sink = |row: &crate::bill::row::Row| ledger.add(row, name);
    crate::bill::read::csv(text.as_bytes(), name, &mut sink)?;
    ledger.finish()?;
    Ok(crate::bill::workload::yaml(&ledger))
}
