//! How keys spread traffic (`ddbcost keys`): values counted from items or an access log,
//! the spread of the busiest values, and the verdict by DynamoDB's partition limits (3,000
//! RCU and 1,000 WCU a second per partition) — the same rules that check a workload's `keys`.
//!
//! ```
//! use ddbcost::api::keys::{Counts, KeyCounter, spread};
//! let mut c = KeyCounter::new();
//! c.add(b"a", &Counts { items: 3, ..Counts::default() }).unwrap();
//! c.add(b"b", &Counts { items: 1, ..Counts::default() }).unwrap();
//! assert_eq!(spread(&c).distinct, 2);
//! ```

use rust_decimal::Decimal;

/// What the partition check of one key found, and its verdict.
///
/// ```
/// use ddbcost::api::keys::{KeyAssessment, KeySpread, KeyVerdict, assess_key};
/// let spread = KeySpread { distinct: Some(1000.into()), busiest_reads: Some("0.01".parse().unwrap()), busiest_writes: None };
/// let a: KeyAssessment = assess_key(&ddbcost::api::KeySubject::Named("pk".into()), &spread, 100.into(), 0.into())?;
/// assert_eq!(a.verdict, KeyVerdict::WellSpread);
/// # Ok::<(), ddbcost::api::EngineError>(())
/// ```
pub use crate::engine::{KeyAssessment, KeyVerdict};
/// Counts per key value (items, bytes, half read and write units), and the counter of an attribute's
/// values.
///
/// ```
/// use ddbcost::api::keys::{Counts, KeyCounter};
/// let mut c = KeyCounter::new();
/// c.add(b"a", &Counts { items: 2, ..Counts::default() }).unwrap();
/// c.add(b"a", &Counts { items: 3, ..Counts::default() }).unwrap();
/// assert_eq!((c.distinct(), c.totals().items), (1, 5));
/// ```
pub use crate::keys::counter::{Counts, KeyCounter};
/// The column names an access log is read by.
///
/// ```
/// let c = ddbcost::api::keys::LogColumns { key: "pk".into(), operation: "op".into(), units: "units".into(), size: "size".into(), index: "index".into() };
/// assert_eq!(c.key, "pk");
/// ```
pub use crate::keys::log::LogColumns;
/// An attribute's spread, by measure (items, bytes, reads, writes).
///
/// ```
/// use ddbcost::api::keys::{AttributeSpread, Counts, KeyCounter, Measure, spread};
/// let mut c = KeyCounter::new();
/// c.add(b"a", &Counts { items: 1, bytes: 10, ..Counts::default() }).unwrap();
/// let s: AttributeSpread = spread(&c);
/// assert_eq!(s.measure(Measure::Bytes).total, 10);
/// ```
pub use crate::keys::spread::{AttributeSpread, Measure};
/// What `keys` counted: the attributes (each key of the table and its indexes), files,
/// items and log lines; the layout of keys it counts; a summary read back for `--merge`.
///
/// ```
/// use ddbcost::api::keys::{Attribute, KeysSummary, Layout, SummaryIn};
/// let s = KeysSummary::new(&Layout { partition: "pk".into(), ..Layout::default() });
/// let a: &Attribute = &s.attributes[0];
/// assert_eq!(a.attribute, "pk");
/// let _: Option<SummaryIn> = None;
/// ```
pub use crate::keys::summary::{Attribute, KeysSummary, Layout, SummaryIn};
/// One key's report (spread, verdict, reasons), and the peak it was judged at.
///
/// ```
/// use ddbcost::api::keys::{AttributeReport, KeysSummary, Layout, Peak, assess, spread};
/// let s = KeysSummary::new(&Layout { partition: "pk".into(), ..Layout::default() });
/// let peak = Peak { reads: 100.into(), writes: 10.into(), from: "--peak-rate".into() };
/// let r: AttributeReport = assess(&s.attributes[0], spread(&s.attributes[0].counter), Some(peak), false)?;
/// assert_eq!(r.attribute, "pk");
/// # Ok::<(), ddbcost::api::EngineError>(())
/// ```
pub use crate::keys::verdict::{AttributeReport, Peak};
/// The busiest value's shares of a key's reads and writes, and its distinct values.
///
/// ```
/// let s = ddbcost::api::keys::KeySpread { distinct: Some(6.into()), busiest_reads: None, busiest_writes: Some("0.71".parse().unwrap()) };
/// assert_eq!(s.distinct, Some(6.into()));
/// ```
pub use crate::model::KeySpread;
/// A keys report to render: the summary, each key's report, and sharding's bill where priced.
///
/// ```
/// use ddbcost::api::keys::{KeysSummary, Layout, Page};
/// let s = KeysSummary::new(&Layout { partition: "pk".into(), ..Layout::default() });
/// let page = Page { summary: &s, reports: &[], sharding: &[], dax: &[] };
/// assert!(page.reports.is_empty());
/// ```
pub use crate::report::keys::Page;

use super::KeySubject;
use crate::engine::{self, EngineError};
use crate::error::Error;
use crate::keys::{log, spread as spreads, verdict};
use crate::report;

/// Counts an access log (CSV or JSON lines with the `columns` named) into `summary`.
///
/// ```
/// use ddbcost::api::keys::{KeysSummary, Layout, LogColumns, count_log};
/// let mut s = KeysSummary::new(&Layout { partition: "pk".into(), ..Layout::default() });
/// let log = "pk,operation\na,GetItem\na,GetItem\nb,PutItem\n";
/// let columns = LogColumns { key: "pk".into(), operation: "operation".into(), units: "units".into(), size: "size".into(), index: "index".into() };
/// count_log("access.csv", Box::new(log.as_bytes()), &columns, &mut s)?;
/// assert_eq!(s.log_lines, 3);
/// # Ok::<(), ddbcost::api::Error>(())
/// ```
///
/// # Errors
/// A log that cannot be read, or lacks the key column.
pub fn count_log(
    path: &str,
    reader: Box<dyn std::io::Read + '_>,
    columns: &LogColumns,
    summary: &mut KeysSummary,
) -> Result<(), Error> {
    log::count_reader(path, reader, columns, summary)
}

/// The spread of one attribute's values: distinct values, the busiest ones' shares.
///
/// ```
/// use ddbcost::api::keys::{Counts, KeyCounter, Measure, spread};
/// let mut c = KeyCounter::new();
/// c.add(b"a", &Counts { items: 3, ..Counts::default() }).unwrap();
/// c.add(b"b", &Counts { items: 1, ..Counts::default() }).unwrap();
/// // The busiest value holds 3 of the 4 items.
/// assert_eq!(spread(&c).measure(Measure::Items).top[0], 3);
/// ```
#[must_use]
pub fn spread(counter: &KeyCounter) -> AttributeSpread {
    spreads::spread(counter)
}

/// An attribute's verdict at a peak (reads and writes a second), with its reasons.
///
/// ```
/// use ddbcost::api::keys::{KeysSummary, KeyVerdict, Layout, Peak, assess, spread};
/// let s = KeysSummary::new(&Layout { partition: "pk".into(), ..Layout::default() });
/// let a = &s.attributes[0];
/// let peak = Peak { reads: 0.into(), writes: 0.into(), from: "--peak-rate".into() };
/// let r = assess(a, spread(&a.counter), Some(peak), false)?;
/// assert_eq!(r.assessment.verdict, KeyVerdict::WellSpread);
/// # Ok::<(), ddbcost::api::EngineError>(())
/// ```
///
/// # Errors
/// A figure too large to compute.
pub fn assess(
    attribute: &Attribute,
    spread: AttributeSpread,
    peak: Option<Peak>,
    has_lsi: bool,
) -> Result<AttributeReport, EngineError> {
    verdict::assess(attribute, spread, peak, has_lsi)
}

/// The partition check of one key whose busiest value is `spread`, at `reads` and `writes`
/// units a second.
///
/// ```
/// use ddbcost::api::keys::{KeySpread, KeyVerdict, assess_key};
/// use ddbcost::api::KeySubject;
/// let spread = KeySpread { distinct: None, busiest_reads: None, busiest_writes: Some("0.94".parse().unwrap()) };
/// // 94 % of 2,500 WCU/s = 2,350 WCU/s on one value, above a partition's 1,000.
/// let a = assess_key(&KeySubject::Named("k".into()), &spread, 0.into(), 2500.into())?;
/// assert_eq!(a.verdict, KeyVerdict::Hot);
/// assert_eq!(a.suffixes, Some(3.into()));
/// # Ok::<(), ddbcost::api::EngineError>(())
/// ```
///
/// # Errors
/// A figure too large to compute.
pub fn assess_key(
    subject: &KeySubject,
    spread: &KeySpread,
    reads: Decimal,
    writes: Decimal,
) -> Result<KeyAssessment, EngineError> {
    engine::assess_key(subject, spread, reads, writes)
}

/// The keys report as a terminal table (natural width, no colour).
///
/// ```
/// use ddbcost::api::keys::{KeysSummary, Layout, Page, render_table};
/// let s = KeysSummary::new(&Layout { partition: "pk".into(), ..Layout::default() });
/// let page = Page { summary: &s, reports: &[], sharding: &[], dax: &[] };
/// assert!(!render_table(&page).is_empty());
/// ```
#[must_use]
pub fn render_table(page: &Page) -> String {
    report::keys::table(page, report::layout::Layout::default())
}

/// The keys report as Markdown.
///
/// ```
/// use ddbcost::api::keys::{KeysSummary, Layout, Page, render_markdown};
/// let s = KeysSummary::new(&Layout { partition: "pk".into(), ..Layout::default() });
/// let page = Page { summary: &s, reports: &[], sharding: &[], dax: &[] };
/// assert!(render_markdown(&page).starts_with("## "));
/// ```
#[must_use]
pub fn render_markdown(page: &Page) -> String {
    report::keys::markdown(page)
}

/// The keys report as JSON (`ddbcost-keys/1`), written to `out`.
///
/// ```
/// use ddbcost::api::keys::{KeysSummary, Layout, Page, render_json};
/// let s = KeysSummary::new(&Layout { partition: "pk".into(), ..Layout::default() });
/// let page = Page { summary: &s, reports: &[], sharding: &[], dax: &[] };
/// let mut out = Vec::new();
/// render_json(&page, &mut out).unwrap();
/// assert!(String::from_utf8(out).unwrap().contains("ddbcost-keys/1"));
/// ```
///
/// # Errors
/// A writer that fails.
pub fn render_json(page: &Page, out: &mut dyn std::io::Write) -> Result<(), serde_json::Error> {
    report::keys::json(page, out)
}
