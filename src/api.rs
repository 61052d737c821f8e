//! The library's front door: price a workload file, compare its scenarios, and render the
//! result, the way the command line does — the same input path (workloads and templates),
//! the same pricing service, the same renderers — without reading the clock, the environment
//! or the terminal, and without printing. A `Session` holds what one caller's runs share (the
//! day prices' age is counted to, the samples measured, the notes said); two sessions in one
//! process are independent.
//!
//! ```
//! use ddbcost::api::{ReportFormat, Session};
//!
//! let session = Session::on_day(20_789); // 2026-12-02, for the prices' age
//! let bill = session.estimate("workloads/cloudshop.yaml")?;
//! assert_eq!(bill.currency, "EUR");
//! let table = ddbcost::api::render(&bill, ReportFormat::Markdown);
//! assert!(table.contains("orders"));
//! # Ok::<(), ddbcost::error::Error>(())
//! ```

use crate::cli::{Cli, Command, SettingsArgs, TemplateArgs};
use crate::commands::{self, Run};
use crate::engine::Estimate;
use crate::error::Error;
use crate::output::Diagnostics;
use crate::report::{self, Breakdown, layout::Layout};
use crate::scenario::Comparison;

/// What a caller's runs share: the day, the samples measured, the notes said.
pub struct Session {
    run: Run,
}

/// The report formats a caller renders to (exports need a billing period: see `commands`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportFormat {
    /// The terminal table, at its natural width, without colour.
    Table,
    Json,
    Markdown,
}

impl Session {
    /// A session whose prices' age is counted to `today`, in days since 1970-01-01 (a price
    /// table over a year old gets a note, as on the command line).
    ///
    /// ```
    /// let a = ddbcost::api::Session::on_day(20_789);
    /// let b = ddbcost::api::Session::on_day(20_789);
    /// a.estimate("workloads/cloudshop.yaml")?;
    /// // Each session has its own notes.
    /// assert!(!a.notes().is_empty());
    /// assert!(b.notes().is_empty());
    /// # Ok::<(), ddbcost::error::Error>(())
    /// ```
    #[must_use]
    pub fn on_day(today: i64) -> Session {
        Session {
            run: Run {
                today,
                diagnostics: Diagnostics::quiet(),
                ..Run::default()
            },
        }
    }

    /// The itemized monthly bill of the workload (or template) at `path`, with the settings
    /// and price table it names.
    ///
    /// ```
    /// let bill = ddbcost::api::Session::on_day(20_789).estimate("workloads/cloudshop.yaml")?;
    /// // The CloudShop case of the seeds: about €1,244 a month before its three changes.
    /// assert_eq!(bill.total.round_dp(0), rust_decimal::Decimal::from(1244));
    /// # Ok::<(), ddbcost::error::Error>(())
    /// ```
    ///
    /// # Errors
    /// What the command line refuses: an unreadable or invalid file, a price the table lacks.
    pub fn estimate(&self, path: &str) -> Result<Estimate, Error> {
        let pricing = commands::Pricing::new(&SettingsArgs::default(), &self.run)?;
        let input = commands::Input::read(path, &TemplateArgs::default(), None, &self.run)?;
        let (workload, file_settings) = input.workload()?;
        Ok(pricing
            .estimate(&workload, &file_settings, input.at(), None)?
            .0)
    }

    /// The baseline beside every scenario of the workload at `path`, line by line.
    ///
    /// ```
    /// let c = ddbcost::api::Session::on_day(20_789).compare("workloads/cloudshop.yaml")?;
    /// let last = c.scenarios.last().unwrap();
    /// // Three steps take CloudShop's bill to €487.06 (the README's CloudShop section says
    /// // why the case's headline reads "€620").
    /// assert_eq!(last.estimate.total.round_dp(2), "487.06".parse().unwrap());
    /// # Ok::<(), ddbcost::error::Error>(())
    /// ```
    ///
    /// # Errors
    /// As `estimate`; a workload without scenarios.
    pub fn compare(&self, path: &str) -> Result<Comparison, Error> {
        let cli = Cli::try_parse_ordered_from(["ddbcost", "compare", path])
            .map_err(|e| Error::usage(e.to_string()))?;
        let Command::Compare(args) = cli.command else {
            return Err(Error::usage("not a comparison"));
        };
        commands::comparison(&args, &self.run)
    }

    /// The notes and warnings this session's runs said (each once), in order.
    #[must_use]
    pub fn notes(&self) -> Vec<String> {
        self.run.diagnostics.said()
    }
}

/// An estimate as a report, per line item.
///
/// ```
/// let bill = ddbcost::api::Session::on_day(20_789).estimate("workloads/cloudshop.yaml")?;
/// let json = ddbcost::api::render(&bill, ddbcost::api::ReportFormat::Json);
/// let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
/// assert_eq!(doc["currency"], "EUR");
/// # Ok::<(), ddbcost::error::Error>(())
/// ```
#[must_use]
pub fn render(estimate: &Estimate, format: ReportFormat) -> String {
    match format {
        ReportFormat::Table => report::table::render(estimate, Breakdown::Line, Layout::default()),
        ReportFormat::Json => report::json::render(estimate),
        ReportFormat::Markdown => report::markdown::estimate(estimate, Breakdown::Line),
    }
}

/// A comparison as a report.
///
/// ```
/// let c = ddbcost::api::Session::on_day(20_789).compare("workloads/cloudshop.yaml")?;
/// let md = ddbcost::api::render_comparison(&c, ddbcost::api::ReportFormat::Markdown);
/// assert!(md.contains("Baseline"));
/// # Ok::<(), ddbcost::error::Error>(())
/// ```
#[must_use]
pub fn render_comparison(c: &Comparison, format: ReportFormat) -> String {
    match format {
        ReportFormat::Table => report::compare::table(c, Layout::default()),
        ReportFormat::Json => report::compare::json(c),
        ReportFormat::Markdown => report::compare::markdown(c),
    }
}
