//! Who the bill is for (issue #50): a bill split by tenant or pattern label from request
//! logs, in memory (`report_text`, what `ddbcost allocate` does with files); and its parts: splitting a billed amount over who caused
//! it — shares in proportion to each party's driver, exact to 12 decimal places, the
//! remainder named, and the shares shown to a currency's minor unit so that they add up —
//! and the drivers from application logs with `ConsumedCapacity` (`read_log`: units per
//! table, index, tenant and pattern).
//!
//! ```
//! use ddbcost::api::allocate::{split, to_minor_unit};
//! use rust_decimal::Decimal;
//! let d = |s: &str| s.parse::<Decimal>().unwrap();
//! // $100 of reads over tenants that drove 50, 30 and 15 read units; 5 units had no tenant.
//! let s = split(d("100"), &[d("50"), d("30"), d("15")], d("5")).unwrap();
//! assert_eq!(s.shares, vec![d("50"), d("30"), d("15")]);
//! assert_eq!(s.remainder, d("5"));
//! assert_eq!(to_minor_unit(&[d("0.005"), d("0.005")], 2), vec![d("0.01"), d("0.00")]);
//! ```

pub use crate::allocate::log::{LogUsage, Place, Tenancy, Units, read as read_log};
pub use crate::allocate::split::{Split, SplitError, split, to_minor_unit};

use crate::bill::ledger::Ledger;
use crate::error::Error;

use super::ReportFormat;

/// `ddbcost allocate` of one CSV bill held as text (`bill_name` for errors) and one request
/// log held as text: split by tenant (`tenant`: `ATTR=REGEX`) or, without one, by the log's
/// `pattern` labels; rendered in `format`.
///
/// ```
/// let bill = "line_item_line_item_type,line_item_usage_start_date,line_item_product_code,\
/// line_item_usage_type,line_item_resource_id,line_item_usage_amount,line_item_currency_code,\
/// line_item_unblended_cost\n\
/// Usage,2026-11-01T00:00:00Z,AmazonDynamoDB,ReadRequestUnits,\
/// arn:aws:dynamodb:us-east-1:1:table/t,8000000,USD,1\n";
/// let log = r#"{"operation":"GetItem","Key":{"PK":"ORG#a"},"ConsumedCapacity":{"TableName":"t","CapacityUnits":3}}
/// {"operation":"GetItem","Key":{"PK":"ORG#b"},"ConsumedCapacity":{"TableName":"t","CapacityUnits":1}}
/// "#;
/// let json = ddbcost::api::allocate::report_text(
///     "cur.csv", bill, log, Some("PK=ORG#(.+)"), ddbcost::api::ReportFormat::Json)?;
/// // $1 of reads over 3 + 1 units: a $0.75, b $0.25.
/// assert!(json.contains(r#""name": "a""#) && json.contains(r#""unblended": "0.75""#));
/// # Ok::<(), ddbcost::api::Error>(())
/// ```
///
/// # Errors
/// A bill or a log that cannot be read; a tenant pattern that does not compile.
pub fn report_text(
    bill_name: &str,
    bill: &str,
    log: &str,
    tenant: Option<&str>,
    format: ReportFormat,
) -> Result<String, Error> {
    report_text_with_insights(bill_name, bill, log, None, tenant, format)
}

/// How one request line reads (for the fuzz target): by hand where the hand reader takes it
/// (`by_hand`), else by serde; the reading or the error, as text, so the two can be compared.
///
/// ```
/// let line = r#"{"operation": "GetItem", "Key": {"PK": {"S": "ORG#1"}}, "ConsumedCapacity": {"TableName": "t", "CapacityUnits": 0.5}}"#;
/// assert_eq!(ddbcost::api::allocate::line_reading(line, true), ddbcost::api::allocate::line_reading(line, false));
/// ```
#[doc(hidden)]
#[must_use]
pub fn line_reading(line: &str, by_hand: bool) -> String {
    crate::allocate::line::reading_of(line, by_hand)
}

/// `report_text`, with a Contributor Insights report (`(TABLE, JSON text)`, as
/// `--insights TABLE=FILE`) driving that table's reads and writes where the log does not
/// measure it.
///
/// # Errors
/// A bill, a log or a report that cannot be read; a tenant pattern that does not compile.
pub fn report_text_with_insights(
    bill_name: &str,
    bill: &str,
    log: &str,
    insights: Option<(&str, &str)>,
    tenant: Option<&str>,
    format: ReportFormat,
) -> Result<String, Error> {
    let (by, tenancy) = match tenant {
        Some(t) => (crate::allocate::bill::By::Tenant, Tenancy::parse(t)?),
        None => (crate::allocate::bill::By::Pattern, Tenancy::parse("_=$^")?),
    };
    let mut ledger = Ledger::new(None);
    ledger.files.push(bill_name.to_string());
    let mut sink = |row: &crate::bill::row::Row| ledger.add(row, bill_name);
    crate::bill::read::csv(bill.as_bytes(), bill_name, &mut sink)?;
    ledger.finish()?;
    let mut usage = LogUsage::default();
    read_log(log.as_bytes(), "log", &tenancy, &mut usage)?;
    let mut drivers = crate::allocate::bill::Drivers::from_log(&usage, by)?;
    if let (Some((table, text)), crate::allocate::bill::By::Tenant) = (insights, by) {
        crate::allocate::insights::apply(text, "insights.json", table, &tenancy, &mut drivers)?;
    }
    let a = crate::allocate::bill::allocate(
        &ledger,
        &drivers,
        by,
        crate::allocate::bill::Unused::Keep,
    )?;
    let currency = ledger.currency.clone().unwrap_or_default();
    let period = ledger.period.clone().unwrap_or_default();
    Ok(match format {
        ReportFormat::Table => crate::report::allocate::table(&a, &currency, &period, false, None),
        ReportFormat::Markdown => {
            crate::report::allocate::table(&a, &currency, &period, true, None)
        }
        ReportFormat::Json => crate::report::allocate::json(&a, &currency, &period, None, None),
    })
}
