//! `ddbcost diff OLD NEW`: what a change to a workload file does to the bill, line by line,
//! and the budget gates (`--fail-above`, `--fail-increase`) that end a CI job with exit 3.

use rust_decimal::Decimal;

use super::config::Run;
use super::exports::{self, check_options, emit_comparison};
use super::input::{self, Input};
use super::pricing::Pricing;
use crate::cli::{DiffArgs, TemplateArgs};
use crate::engine;
use crate::error::Error;
use crate::load::quantity;
use crate::report;
use crate::scenario::{self, Comparison, ScenarioKind};

pub(super) fn run(args: &DiffArgs, run: &Run) -> Result<(), Error> {
    check_options(args.format, &args.export, None)?;
    let period = exports::period(&args.export)?;
    let pricing = Pricing::new(&args.settings, run)?;
    let fail_above = args
        .fail_above
        .as_deref()
        .map(|t| {
            quantity::parse_money(t).map_err(|why| Error::usage(format!("--fail-above: {why}")))
        })
        .transpose()?;
    let fail_increase = args
        .fail_increase
        .as_deref()
        .map(|t| {
            quantity::parse_number(t.trim_end_matches('%'))
                .map_err(|why| Error::usage(format!("--fail-increase: {why}")))
        })
        .transpose()?;
    let fail_one_time = args
        .fail_one_time_above
        .as_deref()
        .map(|t| {
            quantity::parse_money(t)
                .map_err(|why| Error::usage(format!("--fail-one-time-above: {why}")))
        })
        .transpose()?;
    if args.template.usage.is_some()
        && ![&args.old, &args.new]
            .iter()
            .any(|f| input::is_template(f, &args.template))
    {
        return Err(
            Error::usage("`--usage` completes a template, and both inputs are workloads")
                .help("Consider merging the usage into the workloads, or giving the templates."),
        );
    }
    let mut estimates = Vec::new();
    let mut designs = Vec::new();
    for file in [&args.old, &args.new] {
        // `--usage` completes the template of the two; the workload is read as it is.
        let workload_args = TemplateArgs::default();
        let template = if input::is_template(file, &args.template) {
            &args.template
        } else {
            &workload_args
        };
        let src = Input::read(file, template, args.settings.prices.as_deref(), run)?;
        let (workload, file_settings) = src.workload()?;
        let (estimate, book) = pricing.estimate(&workload, &file_settings, src.at(), period)?;
        estimates.push(estimate);
        designs.push((workload, file_settings, book));
    }
    // What the change costs once; the page in the browser leaves it out of its download
    // (#30's budget): there, a diff shows the monthly change only.
    #[cfg(not(target_arch = "wasm32"))]
    let one_time = {
        let after = designs.pop();
        match (designs.pop(), after) {
            (Some((before, _, _)), Some((after, file_settings, book))) => {
                pricing.one_time((&before, &after), book, &file_settings, &args.new)?
            }
            _ => Vec::new(),
        }
    };
    #[cfg(target_arch = "wasm32")]
    let one_time = {
        drop(designs);
        Vec::new()
    };
    let new = estimates
        .pop()
        .unwrap_or_else(|| unreachable!("two estimates"));
    let old = estimates
        .pop()
        .unwrap_or_else(|| unreachable!("two estimates"));
    if old.currency != new.currency {
        return Err(Error::input(format!(
            "`{}` is priced in {} and `{}` in {}: a diff needs one currency",
            args.old, old.currency, args.new, new.currency
        ))
        .help(format!(
            "Consider showing both in one currency: `--currency {} --fx-rate {}=RATE --fx-date YYYY-MM-DD`, or `--prices` to price both with the same table.",
            old.currency, new.currency
        )));
    }
    let mut comparison = scenario::compare(
        old,
        vec![scenario::ScenarioInput {
            name: args.new.clone(),
            description: None,
            kind: ScenarioKind::Alternative,
            estimate: new,
            previous_total: None,
        }],
    )?;
    if let Some(s) = comparison.scenarios.first_mut() {
        s.one_time = one_time;
    }
    emit_comparison(
        run,
        &comparison,
        args.format,
        &args.export,
        args.output.as_deref(),
    )?;
    budget_gate(&comparison, fail_above, fail_increase, fail_one_time)
}

/// Exit code 3 when the new total crosses a gate.
fn budget_gate(
    comparison: &Comparison,
    fail_above: Option<Decimal>,
    fail_increase: Option<Decimal>,
    fail_one_time: Option<Decimal>,
) -> Result<(), Error> {
    let old = comparison.baseline.total;
    let Some(new) = comparison.scenarios.first().map(|s| s.estimate.total) else {
        return Ok(());
    };
    let currency = &comparison.baseline.currency;
    let show = |d: Decimal| report::money::display(d, currency);
    // Every gate crossed is named, not only the first: a reviewer sees the whole reason.
    let mut crossed = Vec::new();
    if let Some(limit) = fail_above
        && new > limit
    {
        crossed.push(format!(
            "the new monthly total {} {currency} is above the limit of {} {currency}",
            show(new),
            show(limit)
        ));
    }
    if let Some(limit) = fail_increase
        && new > old
    {
        // `None`: from zero, or a rise too large to represent — both cross any limit.
        let increase = new
            .checked_sub(old)
            .and_then(|rise| engine::percent_of(rise, old));
        if increase.is_none_or(|pct| pct > limit) {
            let pct = increase.map_or_else(
                || "from zero".to_string(),
                |p| format!("{} %", p.round_dp(2).normalize()),
            );
            crossed.push(format!(
                "the monthly total rises {pct} ({} → {} {currency}), more than the {} % allowed",
                show(old),
                show(new),
                limit.normalize()
            ));
        }
    }
    // The page's build prices no one-time cost (above): its gate has nothing to bound.
    #[cfg(target_arch = "wasm32")]
    let _ = fail_one_time;
    #[cfg(not(target_arch = "wasm32"))]
    if let Some(limit) = fail_one_time
        && let Some(s) = comparison.scenarios.first()
    {
        match report::once::total(&s.one_time) {
            Some(once) if once <= limit => {}
            Some(once) => crossed.push(format!(
                "the change costs {} {currency} once, above the limit of {} {currency}",
                show(once),
                show(limit)
            )),
            None => crossed.push(format!(
                "what the change costs once cannot be known (a table's items or item size are not stated), and the limit is {} {currency}",
                show(limit)
            )),
        }
    }
    if crossed.is_empty() {
        Ok(())
    } else {
        Err(Error::budget(crossed.join("; and ")))
    }
}
