//! How an estimate or a comparison leaves the run, shared by `estimate`, `compare` and
//! `diff`: which options each format takes, the month exports are dated in, the finance
//! CSV, FOCUS and HTML exports, and the warnings that go to standard error beside them.

use super::config::Run;
use crate::cli::{By, ExportArgs, Format};
use crate::engine::Estimate;
use crate::error::Error;
use crate::model::period::Period;
use crate::output::{self, Diagnostics};
use crate::report;
use crate::scenario::Comparison;

/// `--period` (CSV, FOCUS and HTML exports are dated in it, else in the run's month).
///
/// # Errors
/// None: clap parsed the month; kept fallible for the callers' `?`.
#[allow(clippy::unnecessary_wraps)]
pub(crate) fn period(export: &ExportArgs) -> Result<Option<Period>, Error> {
    Ok(export.period)
}

pub(crate) fn warn(told: &Diagnostics, estimate: &Estimate, format: Format, output: Option<&str>) {
    // The table view prints warnings in its footer; other formats and files get them on
    // standard error so that they are not lost.
    if format != Format::Table || output.is_some() {
        for w in &estimate.warnings {
            told.once("warning", &w.to_string());
        }
    }
}

/// The estimate as a table on a terminal shows it: its footer leaves out the notes standard
/// error, on the same screen, said already (a price table's age), so each is read once.
pub(crate) fn on_screen(
    run: &Run,
    mut estimate: Estimate,
    format: Format,
    output: Option<&str>,
) -> Estimate {
    if format == Format::Table && output.is_none() && run.stdout_terminal && run.stderr_terminal {
        estimate.warnings.retain(|w| {
            !matches!(w, crate::engine::notice::Notice::Note(_))
                || !run.diagnostics.has_said(&w.to_string())
        });
    }
    estimate
}

/// Options a format would accept and silently ignore are usage errors.
pub(crate) fn check_options(
    format: Format,
    export: &ExportArgs,
    by: Option<By>,
) -> Result<(), Error> {
    let refuse = |what: String, help: &str| Err(Error::usage(what).help(help.to_string()));
    let name = format!("{format:?}").to_ascii_lowercase();
    if export.excel && format != Format::Csv {
        return refuse(
            format!("`--excel` shapes CSV, and the format is {name}"),
            "Consider `--format csv --excel`.",
        );
    }
    if export.period.is_some() && !matches!(format, Format::Csv | Format::Focus | Format::Html) {
        return refuse(
            format!("`--period` dates CSV, FOCUS and HTML exports, and the format is {name}"),
            "Consider `--format csv|focus|html`, or leaving `--period` out.",
        );
    }
    if by == Some(By::Tenant) && matches!(format, Format::Focus | Format::Html) {
        return refuse(
            format!(
                "`--by tenant` shapes the table, JSON, CSV and Markdown views, and the format is {name}"
            ),
            "Consider `--format table|json|csv|markdown`.",
        );
    }
    if let Some(by) = by
        && !matches!(by, By::Line | By::Tenant | By::Tag)
        && !matches!(format, Format::Table | Format::Csv | Format::Markdown)
    {
        return refuse(
            format!("`--by` shapes the table, CSV and Markdown views, and the format is {name}"),
            "Consider `--format table|csv|markdown`; JSON holds every breakdown already.",
        );
    }
    if by.is_some_and(|b| b != By::Line) && (export.excel || export.period.is_some()) {
        return refuse(
            "`--excel` and `--period` shape the finance CSV of line items, not a `--by` summary"
                .to_string(),
            "Consider leaving out `--by` for the finance CSV.",
        );
    }
    Ok(())
}

/// The finance CSV, FOCUS and HTML of a comparison (an estimate is one with no scenarios).
pub(crate) fn export(
    run: &Run,
    comparison: &Comparison,
    format: Format,
    export: &ExportArgs,
    output: Option<&str>,
) -> Result<String, Error> {
    let period = period(export)?.unwrap_or_else(|| run.this_month());
    Ok(match format {
        Format::Focus => {
            // A FOCUS file is billing data: summed by a FinOps tool it must be one month of
            // one scenario. An estimate exports its baseline, a comparison its one scenario.
            let one: (&str, &Estimate) = match comparison.scenarios.as_slice() {
                [] => ("baseline", &comparison.baseline),
                [s] => (s.name.as_str(), &s.estimate),
                many => {
                    return Err(Error::usage(format!(
                        "a FOCUS export holds one month of one scenario, and this comparison has {}",
                        many.len()
                    ))
                    .help("Consider `--scenario NAME` to export one scenario (and `estimate --format focus` for the baseline); `--format csv` holds every scenario with a `scenario` column to filter on."));
                }
            };
            let (text, skipped) = report::focus::render(&[one], period).map_err(Error::from)?;
            if skipped > 0 {
                run.diagnostics.say("warning", &format!(
                    "{skipped} line(s) whose usage is unknown have no cost and are not in the FOCUS export"
                ));
            }
            text
        }
        Format::Html => {
            if output.is_none() {
                run.diagnostics.say(
                    "note",
                    "an HTML report is meant for a file: consider --output report.html",
                );
            }
            report::html::render(comparison, period)?
        }
        _ => {
            let (text, warnings) = report::finance::render(comparison, period, export.excel);
            for w in warnings {
                run.diagnostics.say("warning", &w);
            }
            text
        }
    })
}

/// Writes `comparison` in `format` to `output` (standard output when `None`).
///
/// # Errors
/// An export's refusal; a failed write.
pub(crate) fn emit_comparison(
    run: &Run,
    comparison: &Comparison,
    format: Format,
    export_args: &ExportArgs,
    output: Option<&str>,
) -> Result<(), Error> {
    warn(&run.diagnostics, &comparison.baseline, format, output);
    for s in &comparison.scenarios {
        warn(&run.diagnostics, &s.estimate, format, output);
    }
    let text = match format {
        // The page has no terminal (and no room in its download for a comparison's clone).
        #[cfg(not(target_arch = "wasm32"))]
        Format::Table if output.is_none() && run.stdout_terminal && run.stderr_terminal => {
            let mut shown = comparison.clone();
            shown.baseline = on_screen(run, shown.baseline, format, output);
            for s in &mut shown.scenarios {
                s.estimate = on_screen(run, s.estimate.clone(), format, output);
            }
            report::compare::table(&shown, run.layout)
        }
        Format::Table => report::compare::table(comparison, run.layout),
        Format::Json => report::compare::json(comparison),
        Format::Markdown => report::compare::markdown(comparison),
        Format::Csv | Format::Focus | Format::Html => {
            export(run, comparison, format, export_args, output)?
        }
    };
    output::emit(output, &text)
}
