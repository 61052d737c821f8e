//! The pure path, step by step: a workload's text → `Workload` → `Estimate` (or `Forecast`),
//! with the bundled price tables; scenarios as documents patched onto the baseline; and
//! comparisons of priced scenarios. Nothing here reads a file (a workload naming a sample
//! file is refused: price it through a `Session`), the clock or the environment.

use rust_decimal::Decimal;
use serde_json::Value;

use crate::advise::Candidate;
use crate::engine::{self, CommitmentAdvice, EngineError, Estimate, Forecast};
use crate::error::Error;
use crate::load::{self, SettingsOverrides};
use crate::model::sample::NoSamples;
use crate::model::{Fx, PriceBook, PriceTable, Settings, Workload};
use crate::scenario::{self, Comparison, ScenarioDoc, ScenarioInput};

/// A workload from its YAML (or JSON) text, named `file` in errors, with the settings the file
/// states.
///
/// ```
/// let (w, _) = ddbcost::api::load("tables:\n  t:\n    item_size: 1 KB\n", "w.yaml")?;
/// assert_eq!(&*w.tables[0].name, "t");
/// let typo = ddbcost::api::load("tables:\n  t:\n    item_sise: 1 KB\n", "w.yaml").unwrap_err();
/// assert!(typo.to_string().contains("item_sise"));
/// # Ok::<(), ddbcost::api::Error>(())
/// ```
///
/// # Errors
/// Text that is not a valid workload: the error names the file, the path, the line.
pub fn load(text: &str, file: &str) -> Result<(Workload, SettingsOverrides), Error> {
    load::parse_workload(text, file)
}

/// A workload from a document already parsed (`parse_yaml`, or JSON whose numbers are
/// strings or exact numbers).
///
/// ```
/// let doc = ddbcost::api::parse_yaml("tables: { t: { item_size: 2 KB } }", "w.yaml")?;
/// let (w, _) = ddbcost::api::load_value(doc, "w.yaml")?;
/// assert_eq!(w.tables.len(), 1);
/// # Ok::<(), ddbcost::api::Error>(())
/// ```
///
/// # Errors
/// As `load`, without line numbers.
pub fn load_value(doc: Value, file: &str) -> Result<(Workload, SettingsOverrides), Error> {
    load::workload_from_value(doc, file, file, &NoSamples)
}

/// YAML text as a JSON value, every number kept as its exact text (never through a float).
///
/// ```
/// let v = ddbcost::api::parse_yaml("rate: 0.1", "w.yaml")?;
/// assert_eq!(v["rate"], "0.1");
/// # Ok::<(), ddbcost::api::Error>(())
/// ```
///
/// # Errors
/// Text that is not YAML, or past the reader's budgets (an alias bomb).
pub fn parse_yaml(text: &str, file: &str) -> Result<Value, Error> {
    load::yaml::parse_value(text, file)
}

/// A price book of the bundled tables: `primary` (`aws-us-east-1`, `cloudshop-eur`, …),
/// and the other regions' tables in its currency, which price the tables and replicas that
/// live there.
///
/// ```
/// let book = ddbcost::api::prices("cloudshop-eur")?;
/// assert_eq!(book.primary.currency, "EUR");
/// # Ok::<(), ddbcost::api::Error>(())
/// ```
///
/// # Errors
/// An id no bundled table has.
pub fn prices(primary: &str) -> Result<PriceBook, Error> {
    let primary = load::prices::resolve(primary)?;
    let mut others: Vec<PriceTable> = Vec::new();
    for t in load::prices::bundled()? {
        if t.region != primary.region
            && t.currency == primary.currency
            && !others.iter().any(|o| o.region == t.region)
        {
            others.push(t);
        }
    }
    Ok(PriceBook { primary, others })
}

/// One bundled price table by id.
///
/// ```
/// let t = ddbcost::api::price_table("aws-us-east-1")?;
/// assert_eq!(t.region, "us-east-1");
/// # Ok::<(), ddbcost::api::Error>(())
/// ```
///
/// # Errors
/// An id no bundled table has.
pub fn price_table(id: &str) -> Result<PriceTable, Error> {
    load::prices::resolve(id)
}

/// A price table from its YAML text (the format of `pricing/*.yaml`).
///
/// ```
/// let text = std::fs::read_to_string("pricing/aws-us-east-1.yaml").unwrap();
/// let t = ddbcost::api::parse_price_table(&text, "aws-us-east-1.yaml")?;
/// assert_eq!(t.currency, "USD");
/// # Ok::<(), ddbcost::api::Error>(())
/// ```
///
/// # Errors
/// A table with an unknown field, a negative or missing price.
pub fn parse_price_table(text: &str, file: &str) -> Result<PriceTable, Error> {
    load::prices::parse_price_table(text, file)
}

/// The itemized monthly bill of `workload`, exact (nothing is rounded).
///
/// ```
/// use ddbcost::api::{Settings, estimate, load, prices};
/// let (w, _) = load("tables:\n  t:\n    item_size: 1 KB\n    patterns:\n      put: { op: put, rate: 1M/month }\n", "w.yaml")?;
/// let e = estimate(&w, &prices("aws-us-east-1")?, &Settings::default())?;
/// // 1M writes of 1 KB = 1M WRU at $0.625 per million (us-east-1, Standard).
/// let writes = e.line_items.iter().find(|l| l.key == "t/writes").unwrap();
/// assert_eq!(writes.cost, Some("0.625".parse().unwrap()));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// A price the book lacks, a figure too large to compute.
pub fn estimate(
    workload: &Workload,
    book: &PriceBook,
    settings: &Settings,
) -> Result<Estimate, EngineError> {
    engine::estimate(workload, book, settings)
}

/// The bill month by month from `start` (year, month) for `months` months, with the
/// workload's growth and commitments.
///
/// ```
/// use ddbcost::api::{Settings, forecast, load, prices};
/// let (w, _) = load("tables:\n  t:\n    item_size: 1 KB\n    patterns:\n      put: { op: put, rate: 1M/month }\n", "w.yaml")?;
/// let f = forecast(&w, &prices("aws-us-east-1")?, &Settings::default(), (2027, 1), 3)?;
/// assert_eq!(f.months.len(), 3);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// As `estimate`.
pub fn forecast(
    workload: &Workload,
    book: &PriceBook,
    settings: &Settings,
    start: (i64, u32),
    months: u32,
) -> Result<Forecast, EngineError> {
    engine::forecast(workload, book, settings, start, months)
}

/// Reserved capacity and Database Savings Plans sized over `months` from `start`: each
/// option with its cost beside none (`ddbcost forecast --advise`).
///
/// ```
/// use ddbcost::api::{Settings, advise_commitments, load, prices};
/// let text = std::fs::read_to_string("workloads/commitments-us-east-1.yaml").unwrap();
/// let (w, _) = load(&text, "commitments-us-east-1.yaml")?;
/// let a = advise_commitments(&w, &prices("aws-us-east-1")?, &Settings::default(), (2027, 1), 12)?;
/// assert!(!a.options.is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// As `forecast`.
pub fn advise_commitments(
    workload: &Workload,
    book: &PriceBook,
    settings: &Settings,
    start: (i64, u32),
    months: u32,
) -> Result<CommitmentAdvice, EngineError> {
    engine::advise_commitments(workload, book, settings, start, months)
}

/// The changes `ddbcost advise` considers for a workload, each a merge patch of its document
/// (priced by the caller; `Session::advise` prices and ranks them).
///
/// ```
/// use ddbcost::api::{advice_candidates, load, prices};
/// let (w, _) = load("tables:\n  t:\n    item_size: 1 KB\n    patterns:\n      get: { op: get, rate: 1M/month, consistency: strong }\n", "w.yaml")?;
/// let c = advice_candidates(&w, &prices("aws-us-east-1")?);
/// assert!(c.iter().any(|c| c.name.starts_with("eventual-reads")));
/// # Ok::<(), ddbcost::api::Error>(())
/// ```
#[must_use]
pub fn advice_candidates(workload: &Workload, book: &PriceBook) -> Vec<Candidate> {
    crate::advise::candidates(workload, book, None)
}

/// An estimate in another currency: every unit price and cost × the rate, exactly.
///
/// ```
/// use ddbcost::api::{Fx, Settings, convert, estimate, load, prices};
/// let (w, _) = load("tables:\n  t:\n    item_size: 1 KB\n    patterns:\n      put: { op: put, rate: 1M/month }\n", "w.yaml")?;
/// let e = estimate(&w, &prices("aws-us-east-1")?, &Settings::default())?;
/// let fx = Fx { from: "USD".into(), to: "EUR".into(), rate: "0.92".parse()?, date: "2026-11-30".into(), source: "ECB".into() };
/// let eur = convert(e, &fx)?;
/// // $0.625 × 0.92 = €0.575.
/// assert_eq!(eur.total, "0.575".parse()?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// An estimate not in `fx.from`, or already converted; a figure too large.
pub fn convert(estimate: Estimate, fx: &Fx) -> Result<Estimate, EngineError> {
    engine::convert(estimate, fx)
}

/// An exchange rate as `--fx-rate` reads it: positive, at most 10 decimals.
///
/// ```
/// assert_eq!(ddbcost::api::parse_fx_rate("0.92"), Ok("0.92".parse().unwrap()));
/// assert!(ddbcost::api::parse_fx_rate("-1").is_err());
/// ```
///
/// # Errors
/// Text that is not such a rate, with the reason.
pub fn parse_fx_rate(text: &str) -> Result<Decimal, String> {
    load::parse_fx_rate(text)
}

/// The baseline document and each scenario's, patched (steps cumulative, alternatives on
/// the baseline); `sets` are `--set` lines grouped into named alternatives.
///
/// ```
/// let text = std::fs::read_to_string("workloads/cloudshop.yaml").unwrap();
/// let sets = [("cli".to_string(), vec!["tables.orders.item_size=2 KB".to_string()])];
/// let (_, docs) = ddbcost::api::scenarios(&text, "cloudshop.yaml", &sets)?;
/// assert_eq!(docs.last().unwrap().name, "cli");
/// # Ok::<(), ddbcost::api::Error>(())
/// ```
///
/// # Errors
/// A workload that is not YAML, a scenario or `--set` path that names nothing.
pub fn scenarios(
    text: &str,
    file: &str,
    sets: &[(String, Vec<String>)],
) -> Result<(Value, Vec<ScenarioDoc>), Error> {
    scenario::scenario_documents(text, file, sets)
}

/// A scenario's workload (its errors name the scenario).
///
/// ```
/// let text = std::fs::read_to_string("workloads/cloudshop.yaml").unwrap();
/// let (_, docs) = ddbcost::api::scenarios(&text, "cloudshop.yaml", &[])?;
/// let (w, _) = ddbcost::api::scenario_workload(&docs[0], "cloudshop.yaml")?;
/// assert!(!w.tables.is_empty());
/// # Ok::<(), ddbcost::api::Error>(())
/// ```
///
/// # Errors
/// As `load`.
pub fn scenario_workload(
    doc: &ScenarioDoc,
    file: &str,
) -> Result<(Workload, SettingsOverrides), Error> {
    scenario::workload_of(doc, file, file, &NoSamples)
}

/// Applies a JSON merge patch (RFC 7396) to `target`: what scenarios and `--set` do.
///
/// ```
/// let mut doc = serde_json::json!({"a": {"b": 1, "c": 2}});
/// ddbcost::api::merge_patch(&mut doc, &serde_json::json!({"a": {"b": null, "d": 3}}));
/// assert_eq!(doc, serde_json::json!({"a": {"c": 2, "d": 3}}));
/// ```
pub fn merge_patch(target: &mut Value, patch: &Value) {
    scenario::merge_patch(target, patch);
}

/// A workload's text with a merge patch applied (an advisor's suggestion, say), written
/// back as YAML: every number keeps the text it was written as, and the YAML reads back as
/// the patched document (checked). Comments and layout are not kept.
///
/// ```
/// let text = "tables:\n  t:\n    item_size: 1 KB # small\n    items: 1000\n";
/// let patch = serde_json::json!({"tables": {"t": {"items": "2000.50", "class": "standard-ia"}}});
/// let yaml = ddbcost::api::apply_patch(text, "w.yaml", &patch)?;
/// assert_eq!(yaml, "tables:\n  t:\n    item_size: 1 KB\n    items: 2000.50\n    class: standard-ia\n");
/// # Ok::<(), ddbcost::api::Error>(())
/// ```
///
/// # Errors
/// Text that is not YAML; a document the writer could not write back exactly.
pub fn apply_patch(text: &str, file: &str, patch: &Value) -> Result<String, Error> {
    use crate::load::yaml;
    let mut doc = yaml::parse_value(text, file)?;
    scenario::merge_patch(&mut doc, patch);
    let written = yaml::write::to_yaml(&doc, &Vec::new(), &[]);
    let back = yaml::parse_value(&written, file)?;
    yaml::write::reads_back(&doc, &back).map_err(|at| {
        Error::input(format!(
            "the patched workload does not write back as YAML exactly (at `{at}`)"
        ))
        .file(file)
        .help("Consider applying the change by hand; this is ddbcost's bug, please report it.")
    })?;
    Ok(written)
}

/// The baseline beside each priced scenario, line by line, with deltas.
///
/// ```
/// use ddbcost::api::{ScenarioInput, ScenarioKind, Settings, compare, estimate, load, prices};
/// let book = prices("aws-us-east-1")?;
/// let price = |rate: &str| -> Result<_, Box<dyn std::error::Error>> {
///     let text = format!("tables:\n  t:\n    item_size: 1 KB\n    patterns:\n      put: {{ op: put, rate: {rate} }}\n");
///     Ok(estimate(&load(&text, "w.yaml")?.0, &book, &Settings::default())?)
/// };
/// let doubled = ScenarioInput { name: "doubled".into(), description: None, kind: ScenarioKind::Alternative, estimate: price("2M/month")?, previous_total: None };
/// let c = compare(price("1M/month")?, vec![doubled])?;
/// // 1M more writes at $0.625 per million.
/// assert_eq!(c.scenarios[0].delta, "0.625".parse()?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// A figure too large to compute.
pub fn compare(
    baseline: Estimate,
    scenarios: Vec<ScenarioInput>,
) -> Result<Comparison, EngineError> {
    scenario::compare(baseline, scenarios)
}

/// The JSON Schema of a workload file (`ddbcost schema`).
///
/// ```
/// let s = ddbcost::api::schema();
/// assert!(s["properties"]["tables"].is_object());
/// ```
#[must_use]
pub fn schema() -> Value {
    load::schema::workload()
}
