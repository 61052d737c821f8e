//! `ddbcost sweep`: every combination of the values given for some paths of the workload
//! (each GSI's projection × capacity mode × table class × auto-scaling target …), priced with
//! the baseline's price book on all cores; the cheapest designs first, the whole grid as CSV
//! or JSON. A combination the loader refuses is listed with its reason, never priced at 0.
//! This module reads the `--vary` axes and checks them; `grid` prices every design (through
//! `parts`, one table at a time, where that is exact — else the whole document, the path
//! `compare` and `estimate --set` take); `report` writes the outcome. The workload comes in
//! through `commands::input` (a template too), and designs are priced by the pricing
//! service's `DocumentPricer`.

mod grid;
mod parts;
mod report;
#[cfg(test)]
mod tests;

use rust_decimal::Decimal;
use serde_json::Value;

use super::config::Run;
use super::input::Input;
use super::pricing::Pricing;
use crate::cli::{SweepArgs, SweepFormat};
use crate::error::Error;
use crate::{load, output, scenario};

/// More combinations than this are refused (a typo in a list, not a design space).
const MAX_VARIANTS: u64 = 10_000_000;

/// One varied path: its text and each value's patch.
struct Axis {
    path: String,
    values: Vec<(String, Value)>,
}

/// `PATH=V1,V2` or `PATH=[YAML list]`.
fn axis(arg: &str, base: &Value, file: &str) -> Result<Axis, Error> {
    let usage = |why: &str| {
        Error::usage(format!("--vary `{arg}`: {why}")).help(
            "Consider `--vary tables.orders.class=standard,standard-ia` (a dotted path, `=`, values separated by commas), or a YAML list for values holding commas.",
        )
    };
    let (path, values) = arg
        .split_once('=')
        .ok_or_else(|| usage("expected PATH=V1,V2,…"))?;
    let texts: Vec<String> = if values.trim_start().starts_with('[') {
        match load::yaml::parse_value(values, "--vary").map_err(|e| usage(&e.message))? {
            Value::Array(items) => items
                .iter()
                .map(|v| match v {
                    Value::String(s) => s.clone(),
                    other => serde_json::to_string(other).unwrap_or_default(),
                })
                .collect(),
            _ => return Err(usage("expected a list")),
        }
    } else {
        values.split(',').map(|v| v.trim().to_string()).collect()
    };
    if texts.is_empty() || texts.iter().any(String::is_empty) {
        return Err(usage("a value is empty"));
    }
    let mut out = Vec::with_capacity(texts.len());
    for t in texts {
        let patch = scenario::parse_set(&format!("{}={t}", path.trim()))?;
        scenario::check_names(base, &patch, &format!("--vary `{arg}`"), file).map_err(|e| {
            Error {
                kind: crate::error::ErrorKind::Usage,
                ..e
            }
        })?;
        out.push((t, patch));
    }
    Ok(Axis {
        path: path.trim().to_string(),
        values: out,
    })
}

pub(super) fn run(args: &SweepArgs, run: &Run) -> Result<(), Error> {
    // The arguments that need no workload, typed first.
    let max_total = args
        .max_total
        .as_deref()
        .map(|t| {
            t.trim()
                .parse::<Decimal>()
                .ok()
                .filter(|d| !d.is_sign_negative())
                .ok_or_else(|| {
                    Error::usage(format!("--max-total `{t}` is not an amount"))
                        .help("Consider a non-negative amount, e.g. `--max-total 500`.")
                })
        })
        .transpose()?;
    if let Some(by) = &args.by
        && !matches!(by.kind, crate::cli::By::Tenant | crate::cli::By::Tag)
    {
        return Err(Error::usage("`sweep --by` takes `tenant` or `tag:KEY`")
            .help("Consider `sweep W --vary … --by tenant` (one tenant's cost per tier) or `--by tag:team`."));
    }
    let sweep = prepare(args, run)?;
    let designs = grid::price_all(&sweep, args.jobs, grid::Path::Fastest)?;
    let groups = match (&args.by, &sweep.baseline_groups) {
        (Some(by), Some((what, first))) => {
            let each = grid::groups_all(&sweep, args.jobs, by, &designs)?;
            Some(report::GroupColumns::new(what.clone(), first, each))
        }
        _ => None,
    };
    let (file, count) = (sweep.file.as_str(), sweep.count);
    let mut outcome = report::Outcome::new(
        file,
        &sweep.currency,
        sweep.baseline,
        max_total,
        count,
        &sweep.axes,
        &designs,
        args.top,
    );
    outcome.groups = groups;
    if let Some(why) = outcome.all_refused() {
        return Err(Error::input(format!(
            "every one of the {count} design(s) was refused; the first: {why}"
        ))
        .file(file)
        .help("Consider values the workload can take (the first design's reason says which does not)."));
    }
    match args.format {
        SweepFormat::Table => output::emit(args.output.as_deref(), &outcome.table(run.layout)),
        SweepFormat::Csv => output::stream(args.output.as_deref(), &mut |out| outcome.csv(out)),
        SweepFormat::Json => output::stream(args.output.as_deref(), &mut |out| {
            outcome.json(out, grid::threads(args.jobs))
        }),
    }
}

/// What every design of a sweep is priced from.
pub(super) struct Sweep<'r> {
    /// The workload's label.
    file: String,
    currency: String,
    /// The baseline's monthly total.
    baseline: Decimal,
    axes: Vec<Axis>,
    /// The baseline document the patches merge into, and its model.
    base: Value,
    workload: crate::model::Workload,
    pricer: super::pricing::DocumentPricer<'r>,
    /// How many designs (at most `MAX_VARIANTS`).
    count: u64,
    /// With `--by`: what the group figures are, and the baseline's.
    baseline_groups: Option<(String, grid::Figures)>,
}

/// Reads the workload and the axes, checks them, and prices the baseline.
///
/// # Errors
/// An unreadable workload, a malformed or repeated `--vary`, a path naming a field the format
/// lacks, too many combinations, a baseline the engine cannot price.
fn prepare<'r>(args: &SweepArgs, run: &'r Run) -> Result<Sweep<'r>, Error> {
    let (pricing, src) = Pricing::open(&args.workload, &args.template, &args.settings, run)?;
    let file = src.label.as_str();
    let (base, _) = src.scenarios(&[])?;
    let (workload, file_settings) = src.workload_from(base.clone(), file)?;
    let (baseline, book) = pricing.estimate(&workload, &file_settings, src.at(), None)?;
    let currency = baseline.currency.clone();
    let axes: Vec<Axis> = args
        .vary
        .iter()
        .map(|a| axis(a, &base, file))
        .collect::<Result<_, _>>()?;
    // The same path twice would keep only the last value of each design silently.
    for (i, a) in axes.iter().enumerate() {
        if let Some(b) = axes
            .iter()
            .skip(i.saturating_add(1))
            .find(|b| b.path == a.path)
        {
            return Err(Error::usage(format!("--vary `{}` is given twice", b.path))
                .help("Consider one --vary per path, with every value in its list."));
        }
    }
    for a in &axes {
        fields_exist(a, &base, &src)?;
    }
    let count = axes
        .iter()
        .try_fold(1u64, |n, a| n.checked_mul(a.values.len() as u64))
        .filter(|n| *n <= MAX_VARIANTS)
        .ok_or_else(|| {
            Error::usage(format!("more than {MAX_VARIANTS} combinations to price"))
                .help("Consider fewer values per --vary.")
        })?;
    let baseline_groups = match &args.by {
        Some(by) => {
            let (_, what) = crate::report::groups::rows_of(&[&baseline], &workload, by)?;
            Some((what, grid::groups_of(&baseline, &workload, by)?))
        }
        None => None,
    };
    let pricer = pricing.documents(book, &file_settings, src.at())?;
    Ok(Sweep {
        baseline_groups,
        file: file.to_string(),
        currency,
        baseline: baseline.total,
        axes,
        base,
        workload,
        pricer,
        count,
    })
}

/// A path that names a field the workload format lacks (`tables.orders.clas`) makes every
/// design fail the same way: a usage error, found by loading the baseline with each value.
fn fields_exist(a: &Axis, base: &Value, src: &Input<'_>) -> Result<(), Error> {
    for (text, patch) in &a.values {
        let mut doc = base.clone();
        scenario::apply(&mut doc, patch);
        if let Err(e) = src.workload_from(doc, "--vary")
            && (e.message.starts_with("unknown field") || e.message.starts_with("unknown variant"))
        {
            return Err(
                Error::usage(format!("--vary `{}={text}`: {}", a.path, e.message)).help(
                    e.help
                        .as_deref()
                        .unwrap_or("Consider a path docs/workload.md lists.")
                        .to_string(),
                ),
            );
        }
    }
    Ok(())
}
