//! The library's front door, and its only public part: everything else is `pub(crate)`. Two
//! ways in:
//!
//! - **Files, as the command line reads them**: a `Session` prices a workload file (or a
//!   template with its usage), compares its scenarios and advises on it — the same input
//!   path, the same pricing service, the same renderers as `ddbcost` — without reading the
//!   clock, the environment or the terminal, and without printing. A `Session` holds what
//!   one caller's runs share (the day prices' age is counted to, the samples measured, the
//!   notes said); two sessions in one process are independent.
//! - **Text and values, pure** (for agents, a browser, tests): `load` a workload's text,
//!   `prices` from the bundled tables, `estimate`, `forecast`, `convert`, and the what-if
//!   steps (`scenarios`, `scenario_workload`, `compare`), then `render` or `exports`. Items,
//!   keys and imports have their own modules (`size`, `keys`, `import`).
//!
//! ```
//! use ddbcost::api::{ReportFormat, Session};
//!
//! let session = Session::on_day(20_789); // 2026-12-02, for the prices' age
//! let bill = session.estimate("workloads/cloudshop.yaml")?;
//! assert_eq!(bill.currency, "EUR");
//! let table = ddbcost::api::render(&bill, ReportFormat::Markdown);
//! assert!(table.contains("orders"));
//! # Ok::<(), ddbcost::api::Error>(())
//! ```

pub mod exports;
pub mod import;
pub mod keys;
mod pipeline;
pub mod size;

pub mod model;
pub use pipeline::{
    advice_candidates, advise_commitments, compare, convert, estimate, forecast, load, load_value,
    merge_patch, parse_fx_rate, parse_price_table, parse_yaml, price_table, prices,
    scenario_workload, scenarios, schema,
};

pub use crate::advise::Candidate;

pub use crate::engine::label::Label;
pub use crate::engine::notice::{KeyFinding, KeyReason, KeySubject, Notice};
pub use crate::engine::{
    Attribution, Basis, CommitmentAdvice, CommitmentOption, Component, EngineError, Estimate,
    Forecast, ForecastMonth, LineItem,
};
pub use crate::error::{Error, ErrorKind};
pub use crate::load::SettingsOverrides;
pub use crate::model::{
    CapacityKind, Fx, GbConvention, PriceBook, PriceKey, PriceTable, ReservedTerm, Settings,
    TableClass, Workload,
};
pub use crate::report::advise::Advice;
pub use crate::scenario::{Comparison, ScenarioDoc, ScenarioInput, ScenarioKind};

use crate::cli::{Cli, Command, SettingsArgs, TemplateArgs};
use crate::commands::{self, Run};
use crate::output::Diagnostics;
use crate::report::{self, Breakdown, layout::Layout};

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
    /// # Ok::<(), ddbcost::api::Error>(())
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
    /// # Ok::<(), ddbcost::api::Error>(())
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
    /// # Ok::<(), ddbcost::api::Error>(())
    /// ```
    ///
    /// # Errors
    /// As `estimate`; a workload without scenarios.
    pub fn compare(&self, path: &str) -> Result<Comparison, Error> {
        self.compare_with([path])
    }

    /// As `compare`, with the arguments `ddbcost compare` takes after its name: the workload,
    /// then `--scenario NAME`, `--set PATH=VALUE`, `--alt NAME`, settings and template flags.
    ///
    /// ```
    /// let s = ddbcost::api::Session::on_day(20_789);
    /// let c = s.compare_with(["workloads/cloudshop.yaml", "--set", "tables.orders.patterns.get-order.rate=10/s"])?;
    /// // The workload's own scenarios, then the command line's alternative.
    /// assert_eq!(c.scenarios.last().unwrap().name, "--set");
    /// # Ok::<(), ddbcost::api::Error>(())
    /// ```
    ///
    /// # Errors
    /// As `compare`; arguments `ddbcost compare` refuses (a usage error).
    pub fn compare_with<I, S>(&self, args: I) -> Result<Comparison, Error>
    where
        I: IntoIterator<Item = S>,
        S: Into<std::ffi::OsString>,
    {
        let argv = ["ddbcost".into(), "compare".into()]
            .into_iter()
            .chain(args.into_iter().map(Into::into));
        let cli = Cli::try_parse_ordered_from(argv).map_err(|e| Error::usage(e.to_string()))?;
        let Command::Compare(args) = cli.command else {
            return Err(Error::usage("not a comparison"));
        };
        commands::comparison(&args, &self.run)
    }

    /// What `ddbcost advise` suggests for the workload at `path`: each change with its
    /// saving, best first.
    ///
    /// ```
    /// let a = ddbcost::api::Session::on_day(20_789).advise("workloads/cloudshop.yaml")?;
    /// assert!(!a.suggestions.is_empty());
    /// # Ok::<(), ddbcost::api::Error>(())
    /// ```
    ///
    /// # Errors
    /// As `estimate`.
    pub fn advise(&self, path: &str) -> Result<Advice, Error> {
        let cli = Cli::try_parse_ordered_from(["ddbcost", "advise", path])
            .map_err(|e| Error::usage(e.to_string()))?;
        let Command::Advise(args) = cli.command else {
            return Err(Error::usage("not advice"));
        };
        commands::advise::advice(&args, &self.run)
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
/// # Ok::<(), ddbcost::api::Error>(())
/// ```
#[must_use]
pub fn render(estimate: &Estimate, format: ReportFormat) -> String {
    match format {
        ReportFormat::Table => report::table::render(estimate, Breakdown::Line, Layout::default()),
        ReportFormat::Json => report::json::render(estimate),
        ReportFormat::Markdown => report::markdown::estimate(estimate, Breakdown::Line),
    }
}

/// An estimate as the terminal table, wrapped to fit `width` columns (`None`: its natural
/// width), without colour: what `ddbcost estimate --width N` prints.
///
/// ```
/// let bill = ddbcost::api::Session::on_day(20_789).estimate("workloads/cloudshop.yaml")?;
/// let narrow = ddbcost::api::render_table(&bill, Some(80));
/// assert!(narrow.lines().filter(|l| l.starts_with('│')).all(|l| console::measure_text_width(l) <= 80));
/// # Ok::<(), ddbcost::api::Error>(())
/// ```
#[must_use]
pub fn render_table(estimate: &Estimate, width: Option<usize>) -> String {
    let layout = Layout {
        width,
        color: false,
    };
    report::table::render(estimate, Breakdown::Line, layout)
}

/// A comparison as a report.
///
/// ```
/// let c = ddbcost::api::Session::on_day(20_789).compare("workloads/cloudshop.yaml")?;
/// let md = ddbcost::api::render_comparison(&c, ddbcost::api::ReportFormat::Markdown);
/// assert!(md.contains("Baseline"));
/// # Ok::<(), ddbcost::api::Error>(())
/// ```
#[must_use]
pub fn render_comparison(c: &Comparison, format: ReportFormat) -> String {
    match format {
        ReportFormat::Table => report::compare::table(c, Layout::default()),
        ReportFormat::Json => report::compare::json(c),
        ReportFormat::Markdown => report::compare::markdown(c),
    }
}

/// The command line, in process: `args` as `ddbcost` receives them (the program's name
/// first); prints what the command prints and returns its exit code (0 success, 1 bad input,
/// 2 usage, 3 a budget gate, 141 a closed standard output). This is what the binary runs.
///
/// ```
/// let dir = std::env::temp_dir().join(format!("ddbcost-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// let out = dir.join("bill.csv");
/// let code = ddbcost::api::run(["ddbcost", "estimate", "workloads/cloudshop.yaml", "--format", "csv", "--output", out.to_str().unwrap()]);
/// assert_eq!(code, 0);
/// assert!(std::fs::read_to_string(&out).unwrap().starts_with("billing_period_start,"));
/// assert_eq!(ddbcost::api::run(["ddbcost", "estimate", "--no-such-flag"]), 2);
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn run<I, S>(args: I) -> i32
where
    I: IntoIterator<Item = S>,
    S: Into<std::ffi::OsString> + Clone,
{
    let cli = match Cli::try_parse_ordered_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            // --help and --version print and exit 0; real usage errors exit 2.
            let _ = e.print();
            return if e.use_stderr() {
                crate::error::exit::USAGE
            } else {
                0
            };
        }
    };
    match commands::run(cli) {
        Ok(()) => 0,
        Err(e) => {
            // A closed standard output is the reader's choice (`| head`): end quietly.
            if e.kind != ErrorKind::ClosedPipe {
                crate::output::warn(&e.to_string());
            }
            e.exit_code()
        }
    }
}

/// Removes the temporary files of atomic writes on SIGINT, SIGTERM, SIGHUP and panics; the
/// binary calls it once, first.
///
/// ```
/// ddbcost::api::install_cleanup();
/// ```
pub fn install_cleanup() {
    crate::output::install_cleanup();
}
