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

pub mod allocate;
#[cfg(not(target_arch = "wasm32"))]
pub mod anomalies;
pub mod bill;
pub mod exports;
pub mod import;
pub mod keys;
mod pipeline;
pub mod size;
pub mod usage;

pub mod model;
pub use pipeline::{
    advice_candidates, advise_commitments, apply_patch, compare, convert, estimate, forecast, load,
    load_value, merge_patch, parse_fx_rate, parse_price_table, parse_yaml, price_table, prices,
    scenario_workload, scenarios, schema,
};

/// A change `ddbcost advise` considers: its name, rule, assumption and merge patch.
///
/// ```
/// let (w, _) = ddbcost::api::load("tables:\n  t:\n    item_size: 1 KB\n    patterns:\n      get: { op: get, rate: 1M/month, consistency: strong }\n", "w.yaml")?;
/// let c: Vec<ddbcost::api::Candidate> = ddbcost::api::advice_candidates(&w, &ddbcost::api::prices("aws-us-east-1")?);
/// assert!(c.iter().all(|c| c.patch.is_object()));
/// # Ok::<(), ddbcost::api::Error>(())
/// ```
pub use crate::advise::Candidate;

/// What a line item is, in structured fields; its `Display` is the label the reports print.
///
/// ```
/// let (w, _) = ddbcost::api::load("tables:\n  t:\n    item_size: 1 KB\n    patterns:\n      put: { op: put, rate: 1M/month }\n", "w.yaml")?;
/// let e = ddbcost::api::estimate(&w, &ddbcost::api::prices("aws-us-east-1")?, &ddbcost::api::Settings::default())?;
/// let writes = e.line_items.iter().find(|l| l.key == "t/writes").unwrap();
/// assert_eq!(writes.label.to_string(), "Write request units");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub use crate::engine::label::Label;

/// A warning an estimate carries (throttling, a hot key, placeholders…), with exact figures; its `Display` is the sentence the reports print.
///
/// ```
/// let (w, _) = ddbcost::api::load("tables:\n  t:\n    item_size: 1 KB\n    patterns:\n      put: { op: put, rate: 5000/s }\n", "w.yaml")?;
/// let e = ddbcost::api::estimate(&w, &ddbcost::api::prices("aws-us-east-1")?, &ddbcost::api::Settings::default())?;
/// // 5,000 WRU/s at the peak: more than the 4,000 a new on-demand table absorbs.
/// assert!(matches!(e.warnings[0], ddbcost::api::Notice::OnDemandPeak { .. }));
/// assert!(e.warnings[0].to_string().contains("absorbs 4000"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub use crate::engine::notice::Notice;

/// The key a partition finding is about.
///
/// ```
/// let s = ddbcost::api::KeySubject::Table("orders".into());
/// assert_eq!(s.to_string(), "the partition key of table `orders`");
/// ```
pub use crate::engine::notice::KeySubject;

/// One finding about one key, and what it found (figures exact).
///
/// ```
/// use ddbcost::api::{KeyFinding, KeyReason, KeySubject};
/// let r = KeyReason { subject: KeySubject::Named("pk".into()), finding: KeyFinding::FewValues { distinct: 2.into(), needed: 5.into(), reads: 9000.into(), writes: 1500.into() } };
/// assert!(r.to_string().starts_with("pk has 2 distinct values, fewer than the 5 partitions"));
/// ```
pub use crate::engine::notice::{KeyFinding, KeyReason};

/// The share of a line's cost one access pattern caused; the shares add up to the line.
///
/// ```
/// let (w, _) = ddbcost::api::load("tables:\n  t:\n    item_size: 1 KB\n    patterns:\n      put: { op: put, rate: 1M/month }\n", "w.yaml")?;
/// let e = ddbcost::api::estimate(&w, &ddbcost::api::prices("aws-us-east-1")?, &ddbcost::api::Settings::default())?;
/// let writes = e.line_items.iter().find(|l| l.key == "t/writes").unwrap();
/// assert_eq!(writes.attribution[0].pattern.as_ref(), "put");
/// assert_eq!(writes.attribution[0].cost, writes.cost.unwrap());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub use crate::engine::Attribution;

/// Where a line's quantity comes from: derived from the patterns, observed, or unknown.
///
/// ```
/// let (w, _) = ddbcost::api::load("tables:\n  t:\n    item_size: 1 KB\n    patterns:\n      put: { op: put, rate: 1M/month }\n", "w.yaml")?;
/// let e = ddbcost::api::estimate(&w, &ddbcost::api::prices("aws-us-east-1")?, &ddbcost::api::Settings::default())?;
/// let writes = e.line_items.iter().find(|l| l.key == "t/writes").unwrap();
/// assert_eq!(writes.basis, ddbcost::api::Basis::Derived);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub use crate::engine::Basis;

/// Reserved capacity and savings-plan options over a horizon (`advise_commitments`), and one of them.
///
/// ```
/// let text = std::fs::read_to_string("workloads/commitments-us-east-1.yaml").unwrap();
/// let (w, _) = ddbcost::api::load(&text, "c.yaml")?;
/// let a: ddbcost::api::CommitmentAdvice = ddbcost::api::advise_commitments(&w, &ddbcost::api::prices("aws-us-east-1")?, &ddbcost::api::Settings::default(), (2027, 1), 12)?;
/// let best: &ddbcost::api::CommitmentOption = &a.options[0];
/// assert!(!best.name.is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub use crate::engine::{CommitmentAdvice, CommitmentOption};

/// The billing dimension of a line (reads, writes, storage, PITR…), with its stable name.
///
/// ```
/// let (w, _) = ddbcost::api::load("tables:\n  t:\n    item_size: 1 KB\n    patterns:\n      put: { op: put, rate: 1M/month }\n", "w.yaml")?;
/// let e = ddbcost::api::estimate(&w, &ddbcost::api::prices("aws-us-east-1")?, &ddbcost::api::Settings::default())?;
/// let writes = e.line_items.iter().find(|l| l.key == "t/writes").unwrap();
/// assert_eq!(writes.component, ddbcost::api::Component::Writes);
/// assert_eq!(writes.component.name(), "writes");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub use crate::engine::Component;

/// What the engine refuses: a price the book lacks, a figure too large to compute.
///
/// ```
/// let (w, _) = ddbcost::api::load("tables:\n  t:\n    class: standard-ia\n    item_size: 1 KB\n    items: 1000\n", "w.yaml")?;
/// // The CloudShop table has no Standard-IA prices, and 1,000 items need a storage price.
/// let e: ddbcost::api::EngineError = ddbcost::api::estimate(&w, &ddbcost::api::prices("cloudshop-eur")?, &ddbcost::api::Settings::default()).unwrap_err();
/// assert!(e.to_string().contains("standard_ia"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub use crate::engine::EngineError;

/// An itemized monthly bill: its lines, exact total, currency and warnings.
///
/// ```
/// let (w, _) = ddbcost::api::load("tables:\n  t:\n    item_size: 1 KB\n    patterns:\n      put: { op: put, rate: 1M/month }\n", "w.yaml")?;
/// let e = ddbcost::api::estimate(&w, &ddbcost::api::prices("aws-us-east-1")?, &ddbcost::api::Settings::default())?;
/// // 1M writes of 1 KB at $0.625 per million.
/// assert_eq!(e.total, "0.625".parse()?);
/// assert_eq!(e.currency, "USD");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub use crate::engine::Estimate;

/// A forecast, month by month, and one month of it.
///
/// ```
/// let (w, _) = ddbcost::api::load("tables:\n  t:\n    item_size: 1 KB\n    patterns:\n      put: { op: put, rate: 1M/month }\n", "w.yaml")?;
/// let f: ddbcost::api::Forecast = ddbcost::api::forecast(&w, &ddbcost::api::prices("aws-us-east-1")?, &ddbcost::api::Settings::default(), (2027, 1), 2)?;
/// let first: &ddbcost::api::ForecastMonth = &f.months[0];
/// assert_eq!(first.period, (2027, 1));
/// assert_eq!(f.total, f.months.iter().map(|m| m.estimate.total).sum());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub use crate::engine::{Forecast, ForecastMonth};

/// One line of a bill: its key, quantity, unit price and exact cost.
///
/// ```
/// let (w, _) = ddbcost::api::load("tables:\n  t:\n    item_size: 1 KB\n    patterns:\n      put: { op: put, rate: 1M/month }\n", "w.yaml")?;
/// let e = ddbcost::api::estimate(&w, &ddbcost::api::prices("aws-us-east-1")?, &ddbcost::api::Settings::default())?;
/// let l: &ddbcost::api::LineItem = e.line_items.iter().find(|l| l.key == "t/writes").unwrap();
/// assert_eq!(l.quantity, Some(1.into()));
/// assert_eq!(l.unit, "M WRU");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub use crate::engine::LineItem;

/// An error as the command line renders it (file, line, caret, help), and its kind.
///
/// ```
/// let e: ddbcost::api::Error = ddbcost::api::load("tables: { t: { itemz: 1 } }\n", "w.yaml").unwrap_err();
/// assert_eq!(e.kind, ddbcost::api::ErrorKind::Input);
/// assert_eq!(e.exit_code(), 1);
/// assert!(e.to_string().contains("w.yaml:1"));
/// ```
pub use crate::error::{Error, ErrorKind};

/// The settings a workload file states (the command line overrides them).
///
/// ```
/// let (_, s): (_, ddbcost::api::SettingsOverrides) = ddbcost::api::load("settings: { month_hours: 744 }\ntables: { t: { item_size: 1 KB } }\n", "w.yaml")?;
/// assert_eq!(s.month_hours, Some(744.into()));
/// # Ok::<(), ddbcost::api::Error>(())
/// ```
pub use crate::load::SettingsOverrides;

/// A price's key in a price table, and the kinds and terms of capacity prices.
///
/// ```
/// use ddbcost::api::{CapacityKind, PriceKey, ReservedTerm, TableClass};
/// let t = ddbcost::api::price_table("aws-us-east-1")?;
/// assert!(t.get(&PriceKey::WcuHour(TableClass::Standard)).is_some());
/// assert!(t.get(&PriceKey::ReservedHourly(CapacityKind::Rcu, ReservedTerm::OneYear)).is_some());
/// assert_eq!(PriceKey::ReadPerMillion(TableClass::Standard).path(), "standard.read_per_million");
/// # Ok::<(), ddbcost::api::Error>(())
/// ```
pub use crate::model::{CapacityKind, PriceKey, ReservedTerm, TableClass};

/// A currency conversion: rate, date and source, applied exactly by `convert`.
///
/// ```
/// let fx = ddbcost::api::Fx { from: "USD".into(), to: "EUR".into(), rate: "0.92".parse().unwrap(), date: "2026-11-30".into(), source: "ECB".into() };
/// assert_eq!(fx.to, "EUR");
/// ```
pub use crate::model::Fx;

/// Settings: hours in a month (730), the GB convention (binary), the free tier (off).
///
/// ```
/// use ddbcost::api::{GbConvention, Settings};
/// let s = Settings::default();
/// assert_eq!(s.month_hours, 730.into());
/// assert_eq!(s.gb, GbConvention::Binary);
/// assert!(!s.free_tier);
/// ```
pub use crate::model::{GbConvention, Settings};

/// The price tables an estimate is priced with (the primary and other regions'), and one table.
///
/// ```
/// let book: ddbcost::api::PriceBook = ddbcost::api::prices("aws-us-east-1")?;
/// let t: &ddbcost::api::PriceTable = &book.primary;
/// assert_eq!(t.currency, "USD");
/// assert!(book.others.iter().all(|o| o.region != "us-east-1"));
/// # Ok::<(), ddbcost::api::Error>(())
/// ```
pub use crate::model::{PriceBook, PriceTable};

/// A validated workload: its name and tables (see `api::model` for its parts).
///
/// ```
/// let (w, _): (ddbcost::api::Workload, _) = ddbcost::api::load("name: shop\ntables: { t: { item_size: 1 KB } }\n", "w.yaml")?;
/// assert_eq!(w.name, "shop");
/// # Ok::<(), ddbcost::api::Error>(())
/// ```
pub use crate::model::Workload;

/// What `advise` suggests: each change with its saving, best first, on its baseline.
///
/// ```
/// let a: ddbcost::api::Advice = ddbcost::api::Session::on_day(20_789).advise("workloads/cloudshop.yaml")?;
/// assert_eq!(a.baseline.currency, "EUR");
/// # Ok::<(), ddbcost::api::Error>(())
/// ```
pub use crate::report::advise::Advice;

/// A comparison, a scenario's patched document, a priced scenario, and whether it is a cumulative step or an alternative.
///
/// ```
/// use ddbcost::api::{Comparison, ScenarioDoc, ScenarioKind};
/// let text = std::fs::read_to_string("workloads/cloudshop.yaml").unwrap();
/// let (_, docs): (_, Vec<ScenarioDoc>) = ddbcost::api::scenarios(&text, "cloudshop.yaml", &[])?;
/// assert!(docs.iter().any(|d| d.kind == ScenarioKind::Step));
/// let c: Comparison = ddbcost::api::Session::on_day(20_789).compare("workloads/cloudshop.yaml")?;
/// assert_eq!(c.scenarios.len(), docs.len());
/// # Ok::<(), ddbcost::api::Error>(())
/// ```
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
    /// // Three steps take CloudShop's bill to €487.06 (docs/cloudshop.md says
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
    let args: Vec<std::ffi::OsString> = args.into_iter().map(Into::into).collect();
    run_with(&args, |cli| Run::from_environment(cli.width))
}

/// What a run in memory printed, and its exit code (as `run` returns it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// The command line in memory, as the WebAssembly page runs it: `args` as `run` takes them,
/// `stdin` the text a `-` argument reads, `today` the day (since 1970-01-01) the run falls
/// on (the default `--period` and `--start`, the prices' age). Nothing is read from the
/// process's standard streams, the clock or the environment, and nothing is printed: what
/// the command writes to standard output and error comes back, byte for byte what the binary
/// prints for the same arguments on that day (tables at their natural width, without colour,
/// unless `--width`). Files named on the command line or in the workload are still read
/// where there is a file system (not in a browser).
///
/// ```
/// let text = std::fs::read_to_string("workloads/cloudshop.yaml").unwrap();
/// let out = ddbcost::api::run_in_memory(["ddbcost", "estimate", "-", "--format", "json"], &text, 20_789);
/// assert_eq!(out.code, 0);
/// assert!(out.stdout.contains("\"currency\": \"EUR\""));
/// let typo = ddbcost::api::run_in_memory(["ddbcost", "estimate", "-", "--error-format", "json"], "tables: { t: { itemz: 1 } }\n", 20_789);
/// assert_eq!(typo.code, 1);
/// let e: serde_json::Value = serde_json::from_str(&typo.stderr).unwrap();
/// assert_eq!(e["line"], 1);
/// ```
pub fn run_in_memory<I, S>(args: I, stdin: &str, today: i64) -> Output
where
    I: IntoIterator<Item = S>,
    S: Into<std::ffi::OsString> + Clone,
{
    let args: Vec<std::ffi::OsString> = args.into_iter().map(Into::into).collect();
    let (code, captured) = crate::streams::in_memory(stdin, || {
        run_with(&args, |cli| Run {
            layout: Layout {
                width: cli.width.map(usize::from),
                color: false,
            },
            today,
            ..Run::default()
        })
    });
    Output {
        code,
        stdout: String::from_utf8_lossy(&captured.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&captured.stderr).into_owned(),
    }
}

fn run_with(args: &[std::ffi::OsString], world: impl FnOnce(&Cli) -> Run) -> i32 {
    let cli = match Cli::try_parse_ordered_from(args) {
        Ok(cli) => cli,
        Err(e) if e.use_stderr() && wants_json_errors(args) => {
            let text = e.to_string();
            let (first, rest) = text.split_once('\n').unwrap_or((&text, ""));
            let usage = Error::usage(first.trim_start_matches("error: ").trim()).help(rest.trim());
            crate::output::warn(&usage.to_json().to_string());
            return crate::error::exit::USAGE;
        }
        Err(e) if crate::streams::is_in_memory() => {
            let text = e.render().to_string();
            if e.use_stderr() {
                crate::output::warn(text.trim_end());
                return crate::error::exit::USAGE;
            }
            // --help and --version, to the captured standard output.
            let printed = crate::streams::to_stdout::<std::io::Error>(
                &mut |w| std::io::Write::write_all(w, text.as_bytes()),
                |e| std::io::Error::new(e.kind(), e.to_string()),
            );
            return i32::from(printed.is_err());
        }
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
    let errors = cli.error_format;
    let root = if cli.no_files {
        Ok(Some(std::sync::Arc::new(crate::confine::Root::nothing())))
    } else {
        cli.root
            .as_deref()
            .map(crate::confine::Root::open)
            .transpose()
            .map(|r| r.map(std::sync::Arc::new))
    };
    // The MCP server starts with a root it cannot open: its client is told on each call
    // (and its log on standard error), rather than seeing the connection close.
    #[cfg(not(target_arch = "wasm32"))]
    let (root, root_error) = match root {
        Err(e) if matches!(cli.command, Command::Mcp(_)) => {
            crate::output::warn(&format!(
                "ddbcost mcp: every tool call will be refused: {e}"
            ));
            (
                Ok(Some(std::sync::Arc::new(crate::confine::Root::nothing()))),
                Some(e),
            )
        }
        other => (other, None),
    };
    #[cfg(target_arch = "wasm32")]
    let root_error = None;
    let outcome = root.and_then(|root| {
        let limits = crate::bounded::Limits {
            record: cli.max_record_bytes,
            file: cli.max_decompressed_bytes,
        };
        let run = Run {
            root: root.clone(),
            root_error,
            ..world(&cli)
        };
        crate::bounded::within(limits, || {
            crate::confine::within(root, || commands::run(cli, &run))
        })
    });
    match outcome {
        Ok(()) => 0,
        Err(e) => {
            // A closed standard output is the reader's choice (`| head`): end quietly.
            if e.kind != ErrorKind::ClosedPipe {
                crate::output::warn(&match errors {
                    crate::cli::ErrorFormat::Text => e.to_string(),
                    crate::cli::ErrorFormat::Json => e.to_json().to_string(),
                });
            }
            e.exit_code()
        }
    }
}

/// For a child of `ddbcost mcp` (`DDBCOST_MCP_PARENT` names the server's process id): the
/// kernel kills this process when its server dies, and it ends at once if the server is
/// already gone.
#[doc(hidden)]
#[cfg(not(target_arch = "wasm32"))]
pub fn die_with_parent(parent: &str) {
    crate::mcp::die_with_parent(parent);
}

/// `ddbcost mcp`'s framing of standard input, for the fuzz target: the bytes forwarded to
/// the MCP SDK and the protocol errors sent for refused lines.
#[doc(hidden)]
#[cfg(not(target_arch = "wasm32"))]
#[must_use]
pub fn mcp_frames(input: &[u8], budget: usize) -> (Vec<u8>, Vec<String>) {
    crate::mcp::frames(input, budget)
}

/// Whether the command line asks for JSON errors (read before it parses, so that a usage
/// error is written that way too).
fn wants_json_errors(args: &[std::ffi::OsString]) -> bool {
    args.iter()
        .zip(args.iter().skip(1))
        .any(|(a, b)| a == "--error-format" && b == "json")
        || args.iter().any(|a| a == "--error-format=json")
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
