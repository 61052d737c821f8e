//! `ddbcost compare`: the baseline beside the workload's scenarios (steps cumulative,
//! alternatives each on their own) and the command line's `--set`/`--alt` changes, line by
//! line with deltas, and where a scenario switches capacity mode, the break-even utilization.

use rust_decimal::Decimal;

use super::config::Run;
use super::exports::{self, check_options, emit_comparison};
use super::pricing::Pricing;
use crate::cli::CompareArgs;
use crate::engine;
use crate::error::Error;
use crate::model::{CapacityMode, PriceBook, Workload};
use crate::scenario::{self, Comparison, ScenarioKind};

pub(super) fn run(args: &CompareArgs, run: &Run) -> Result<(), Error> {
    if let Some(by) = &args.by {
        return by_group(args, by, run);
    }
    check_options(args.format, &args.export, None)?;
    let (mut comparison, refused) = comparison_keeping(args, run)?;
    for (name, e) in &refused {
        comparison.notes.push(format!(
            "alternative `{name}` is not shown: refused ({})",
            crate::text::one_line(&e.message)
        ));
    }
    emit_comparison(
        run,
        &comparison,
        args.format,
        &args.export,
        args.output.as_deref(),
    )?;
    if refused.is_empty() {
        return Ok(());
    }
    // The alternatives priced are shown; each refused one is said, and the run fails.
    for (_, e) in &refused {
        crate::output::warn(&e.to_string());
    }
    let names: Vec<String> = refused.iter().map(|(n, _)| format!("`{n}`")).collect();
    Err(Error::input(format!(
        "{} alternative(s) refused ({}), each said above; the others are shown",
        refused.len(),
        names.join(", ")
    ))
    .help("Consider mending the refused alternative, or `--scenario NAME` to compare the others alone."))
}

/// The page in the browser leaves `compare --by` out of its download (#30's budget).
#[cfg(target_arch = "wasm32")]
fn by_group(_: &CompareArgs, _: &crate::cli::ByArg, _: &Run) -> Result<(), Error> {
    Err(
        Error::usage("`compare --by` is not in the WebAssembly build")
            .help("Consider the `ddbcost` command line."),
    )
}

/// `compare --by tenant|tag:KEY`: the baseline and each scenario per tenant group or tag
/// value (the baseline workload's `tenants:` and `tags:` name the groups of every scenario).
#[cfg(not(target_arch = "wasm32"))]
fn by_group(args: &CompareArgs, by: &crate::cli::ByArg, run: &Run) -> Result<(), Error> {
    use crate::cli::{By, Format};
    use crate::report::groups::Groups;
    if !matches!(by.kind, By::Tenant | By::Tag)
        || !matches!(
            args.format,
            Format::Table | Format::Json | Format::Csv | Format::Markdown
        )
    {
        return Err(Error::usage(
            "`compare --by` takes `tenant` or `tag:KEY`, in the table, JSON, CSV and Markdown views",
        )
        .help("Consider `compare --by tenant` or `compare --by tag:team`; `estimate --by` has the other breakdowns."));
    }
    let comparison = comparison(args, run)?;
    let (_, src) = Pricing::open(&args.workload, &args.template, &args.settings, run)?;
    let (workload, _) = src.workload()?;
    let estimates: Vec<&crate::engine::Estimate> = std::iter::once(&comparison.baseline)
        .chain(comparison.scenarios.iter().map(|s| &s.estimate))
        .collect();
    let (rows, what) = crate::report::groups::rows_of(&estimates, &workload, by)?;
    let groups = Groups {
        command: "compare",
        title: comparison.baseline.workload.clone(),
        what: &what,
        currency: &comparison.baseline.currency,
        first: "baseline".to_string(),
        names: comparison
            .scenarios
            .iter()
            .map(|s| s.name.clone())
            .collect(),
        rows,
    };
    let text = match args.format {
        Format::Json => crate::report::groups::json(&groups, "ddbcost.compare-groups/v1"),
        Format::Csv => crate::report::groups::csv(&groups)?,
        Format::Markdown => crate::report::groups::table(&groups, true),
        _ => crate::report::groups::table(&groups, false),
    };
    crate::output::emit(args.output.as_deref(), &text)
}

/// The comparison `compare` prints: the workload's scenarios and the command line's
/// alternatives, the ones selected with `--scenario` (steps still cumulative, and each step's
/// own delta measured from the step before it).
///
/// # Errors
/// As `compare`: a bad workload or scenario, a missing price, no scenarios.
pub(crate) fn comparison(args: &CompareArgs, run: &Run) -> Result<Comparison, Error> {
    let (comparison, refused) = comparison_keeping(args, run)?;
    match refused.into_iter().next() {
        Some((_, e)) => Err(e),
        None => Ok(comparison),
    }
}

/// An alternative's result: kept, or refused and set aside (a step is never set aside: the
/// steps after it are measured from it).
fn kept<T>(
    r: Result<T, Error>,
    doc: &scenario::ScenarioDoc,
    refused: &mut Vec<(String, Error)>,
) -> Result<Option<T>, Error> {
    match r {
        Ok(v) => Ok(Some(v)),
        Err(e) if doc.kind == ScenarioKind::Alternative => {
            refused.push((doc.name.clone(), e));
            Ok(None)
        }
        Err(e) => Err(e),
    }
}

/// The comparison of the alternatives that price, and each alternative refused with why.
///
/// # Errors
/// The baseline or a step refused; every alternative shown refused (the first's error).
pub(crate) fn comparison_keeping(
    args: &CompareArgs,
    run: &Run,
) -> Result<(Comparison, Vec<(String, Error)>), Error> {
    let period = exports::period(&args.export)?;
    let (pricing, src) = Pricing::open(&args.workload, &args.template, &args.settings, run)?;
    let file = src.label.as_str();
    let (baseline, base_settings) = src.workload()?;
    let (_, docs) = src.scenarios(&args.alternatives)?;
    if docs.is_empty() {
        return Err(Error::usage(format!("`{file}` has no scenarios to compare"))
            .help("Consider adding `scenarios: { steps: [...], alternatives: [...] }` to the workload, or `--set PATH=VALUE`."));
    }
    let shown = scenario::select(&docs, &args.scenarios)?;
    let (base_estimate, _) = pricing.estimate(&baseline, &base_settings, src.at(), period)?;
    // A step's own delta is measured from the step before it in the workload's sequence,
    // even when that step is not shown: price every step up to the last one shown.
    let last_step_shown = shown
        .iter()
        .filter(|&&i| docs[i].kind == ScenarioKind::Step)
        .max()
        .copied();
    let mut results = Vec::with_capacity(shown.len());
    let mut refused: Vec<(String, Error)> = Vec::new();
    let mut notes = Vec::new();
    #[cfg(not(target_arch = "wasm32"))]
    let mut once = Vec::with_capacity(shown.len());
    #[cfg(not(target_arch = "wasm32"))]
    let mut previous_step: Option<crate::model::Workload> = None;
    let mut previous_step_total = base_estimate.total;
    for (i, doc) in docs.into_iter().enumerate() {
        let is_shown = shown.contains(&i);
        let needed_as_step =
            doc.kind == ScenarioKind::Step && last_step_shown.is_some_and(|last| i <= last);
        if !is_shown && !needed_as_step {
            continue;
        }
        let Some((workload, file_settings)) = kept(src.workload_of(&doc), &doc, &mut refused)?
        else {
            continue;
        };
        let priced = pricing
            .estimate(
                &workload,
                &file_settings,
                (&format!("{file} (scenario `{}`)", doc.name), &src.base),
                period,
            )
            .and_then(|(estimate, book)| {
                if estimate.currency == base_estimate.currency {
                    Ok((estimate, book))
                } else {
                    Err(Error::input(format!(
                        "scenario `{}` is priced in {} and the baseline in {}",
                        doc.name, estimate.currency, base_estimate.currency
                    ))
                    .file(file)
                    .help("Consider price tables in one currency for a comparison."))
                }
            });
        let Some((estimate, book)) = kept(priced, &doc, &mut refused)? else {
            continue;
        };
        let previous_total = (doc.kind == ScenarioKind::Step).then_some(previous_step_total);
        if doc.kind == ScenarioKind::Step {
            previous_step_total = estimate.total;
        }
        if !is_shown {
            #[cfg(not(target_arch = "wasm32"))]
            if doc.kind == ScenarioKind::Step {
                previous_step = Some(workload);
            }
            continue;
        }
        notes.extend(break_even_notes(&baseline, &workload, &book, &doc.name));
        // What the scenario costs once: an alternative against the baseline, a step against
        // the step before it (its own change, as its own Δ); the page in the browser leaves
        // it out of its download (#30's budget).
        #[cfg(not(target_arch = "wasm32"))]
        {
            let from = match (doc.kind, &previous_step) {
                (ScenarioKind::Step, Some(w)) => w,
                _ => &baseline,
            };
            let one_time = pricing.one_time(
                (from, &workload),
                book,
                &file_settings,
                &format!("{file} (scenario `{}`)", doc.name),
            );
            let Some(one_time) = kept(one_time, &doc, &mut refused)? else {
                continue;
            };
            if is_shown {
                once.push(one_time);
            }
            if doc.kind == ScenarioKind::Step {
                previous_step = Some(workload.clone());
            }
        }
        results.push(scenario::ScenarioInput {
            name: doc.name,
            description: doc.description,
            kind: doc.kind,
            estimate,
            previous_total,
        });
    }
    if results.is_empty() && !refused.is_empty() {
        return Err(refused.swap_remove(0).1);
    }
    let mut comparison = scenario::compare(base_estimate, results)?;
    comparison.notes = notes;
    #[cfg(not(target_arch = "wasm32"))]
    for (s, one_time) in comparison.scenarios.iter_mut().zip(once) {
        s.one_time = one_time;
    }
    Ok((comparison, refused))
}

/// Where a scenario switches a table between on-demand and provisioned, the utilization at
/// which the two cost the same.
fn break_even_notes(
    baseline: &Workload,
    scenario: &Workload,
    book: &PriceBook,
    name: &str,
) -> Vec<String> {
    let mut out = Vec::new();
    // By name, once: a scan per table made a 10,000-table comparison quadratic.
    let before_of: std::collections::HashMap<&str, &crate::model::Table> =
        baseline.tables.iter().map(|t| (&*t.name, t)).collect();
    for table in &scenario.tables {
        let Some(before) = before_of.get(&*table.name) else {
            continue;
        };
        let differs = matches!(
            (before.capacity, table.capacity),
            (CapacityMode::OnDemand, CapacityMode::Provisioned(_))
                | (CapacityMode::Provisioned(_), CapacityMode::OnDemand)
        );
        if !differs {
            continue;
        }
        if let Some((reads, writes)) = engine::break_even_utilization(&book.primary, table.class) {
            let pct = |u: Decimal| {
                engine::percent(u).map_or_else(
                    || "(too large to show)".to_string(),
                    |p| p.round_dp(1).normalize().to_string(),
                )
            };
            out.push(format!(
                "scenario `{name}`, table `{}`: on-demand and provisioned capacity cost the same at {} % average utilization for reads and {} % for writes ({}); provisioned is cheaper above them",
                table.name,
                pct(reads),
                pct(writes),
                book.primary.id
            ));
        }
    }
    out
}
