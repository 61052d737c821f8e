//! `ddbcost estimate`: the itemized monthly bill of one workload (or template), per line
//! item, access pattern, component or region, in every report and export format.

use super::config::Run;
use super::exports::{self, check_options, export};
use super::pricing::Pricing;
use crate::cli::{By, EstimateArgs, Format};
use crate::error::Error;
use crate::report::{self, Breakdown};
use crate::{output, scenario};

pub(super) fn run(args: &EstimateArgs, run: &Run) -> Result<(), Error> {
    check_options(args.format, &args.export, Some(args.by.kind))?;
    let period = exports::period(&args.export)?;
    let (pricing, src) = Pricing::open(&args.workload, &args.template, &args.settings, run)?;
    let (workload, file_settings) = src.workload_with(&args.sets)?;
    let (estimate, _) = pricing.estimate(&workload, &file_settings, src.at(), period)?;
    let estimate = exports::on_screen(run, estimate, args.format, args.output.as_deref());
    exports::warn(
        &run.diagnostics,
        &estimate,
        args.format,
        args.output.as_deref(),
    );
    if matches!(args.by.kind, By::Tenant | By::Tag) {
        let text = grouped(args, &estimate, &workload)?;
        return output::emit(args.output.as_deref(), &text);
    }
    let by = match args.by.kind {
        By::Line | By::Tenant | By::Tag => Breakdown::Line,
        By::Pattern => Breakdown::Pattern,
        By::Component => Breakdown::Component,
        By::Region => Breakdown::Region,
    };
    let text = match args.format {
        Format::Table => report::table::render(&estimate, by, run.layout),
        Format::Json => report::json::render(&estimate),
        Format::Csv if by != Breakdown::Line => report::csv::render(&estimate, by),
        Format::Markdown => report::markdown::estimate(&estimate, by),
        Format::Csv | Format::Focus | Format::Html => {
            let comparison = scenario::compare(estimate, Vec::new())?;
            export(
                run,
                &comparison,
                args.format,
                &args.export,
                args.output.as_deref(),
            )?
        }
    };
    output::emit(args.output.as_deref(), &text)
}

/// `--by tenant` and `--by tag:KEY`: the estimate per tenant group or tag value.
#[cfg(not(target_arch = "wasm32"))]
fn grouped(
    args: &EstimateArgs,
    estimate: &crate::engine::Estimate,
    workload: &crate::model::Workload,
) -> Result<String, Error> {
    if args.by.kind == By::Tenant {
        let Some(t) = crate::engine::tenants::by_tenant(estimate, workload) else {
            return Err(Error::input("a cost per tenant past what a decimal holds"));
        };
        if t.tables.is_empty() {
            return Err(Error::usage("no table of this workload states its `tenants:`").help(
                "Consider `tenants: { key: PK, pattern: 'ORG#([^#]+)', tiers: { … } }` on a table (see docs/commands/estimate.md, \"Tenants\").",
            ));
        }
        return Ok(match args.format {
            Format::Json => report::tenants::json(&t, estimate),
            Format::Csv => report::tenants::csv(&t, estimate)?,
            Format::Markdown => report::tenants::table(&t, estimate, true),
            _ => report::tenants::table(&t, estimate, false),
        });
    }
    let key = args.by.tag.as_deref().unwrap_or_default();
    let groups = report::tags::group(estimate, workload, key);
    Ok(match args.format {
        Format::Json => report::tags::json(&groups, estimate, key),
        Format::Csv => report::tags::csv(&groups, estimate, key)?,
        Format::Markdown => report::tags::table(&groups, estimate, key, true),
        _ => report::tags::table(&groups, estimate, key, false),
    })
}

/// The page in the browser leaves the splits per tenant and per tag out of its download
/// (#30's budget): the command line has them.
#[cfg(target_arch = "wasm32")]
fn grouped(
    _: &EstimateArgs,
    _: &crate::engine::Estimate,
    _: &crate::model::Workload,
) -> Result<String, Error> {
    Err(
        Error::usage("`--by tenant` and `--by tag:KEY` are not in the WebAssembly build")
            .help("Consider the `ddbcost` command line."),
    )
}
