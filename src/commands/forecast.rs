//! `ddbcost forecast`: each month of a horizon priced as its own estimate (growth, seasons,
//! launch months, stored items that move), and with `--advise`, the commitments that would
//! pay for themselves over it.

use rust_decimal::Decimal;

use super::config::Run;
use super::pricing::Pricing;
use crate::cli::{ForecastArgs, Format};
use crate::engine;
use crate::error::Error;
use crate::model::period::{self, Period};
use crate::{output, report};

/// The most months a forecast spans (ten years).
const MAX_FORECAST_MONTHS: u32 = 120;

pub(super) fn run(args: &ForecastArgs, run: &Run) -> Result<(), Error> {
    let start = horizon(args, run)?;
    let (pricing, src) = Pricing::open(&args.workload, &args.template, &args.settings, run)?;
    let file = src.label.as_str();
    let (workload, file_settings) = src.workload_with(&args.sets)?;
    pricing.check_strict(&workload, file)?;
    let book = pricing.book_at(&workload, file, &src.base)?;
    let settings = pricing.settings(&file_settings);
    let mut f = engine::forecast(
        &workload,
        &book,
        &settings,
        (i64::from(start.year), start.month),
        args.months,
    )
    .map_err(|e| Error::from(e).file(file))?;
    let mut advice = if args.advise {
        Some(
            engine::advise_commitments(
                &workload,
                &book,
                &settings,
                (i64::from(start.year), start.month),
                args.months,
            )
            .map_err(|e| Error::from(e).file(file))?,
        )
    } else {
        None
    };
    for m in &mut f.months {
        pricing.freshness(&mut m.estimate, Some(start))?;
    }
    if let Some(fx) = pricing.fx(&book.primary.currency, &file_settings)? {
        convert(&mut f, advice.as_mut(), &fx, file)?;
    }
    let cur = f.months.first().map_or_else(
        || book.primary.currency.clone(),
        |m| m.estimate.currency.clone(),
    );
    if let Some(by) = &args.by {
        let text = by_group(args, by, &f, &workload, &cur)?;
        return output::emit(args.output.as_deref(), &text);
    }
    let text = render(args, run, &f, &workload.name, advice.as_ref(), &cur)?;
    if !matches!(args.format, Format::Table | Format::Markdown | Format::Html) {
        for m in &f.months {
            for w in &m.estimate.warnings {
                run.diagnostics.once("warning", &w.to_string());
            }
        }
    }
    output::emit(args.output.as_deref(), &text)
}

/// The first month of the horizon (`--start`, else this month), after checking `--months`
/// (1–120, ending by 9999-11) and which options the format takes.
fn horizon(args: &ForecastArgs, run: &Run) -> Result<Period, Error> {
    if args.months == 0 || args.months > MAX_FORECAST_MONTHS {
        return Err(Error::usage(format!(
            "--months {} is outside 1–{MAX_FORECAST_MONTHS}",
            args.months
        ))
        .help("Consider `--months 12` (or 36 for a three-year commitment)."));
    }
    if args.excel && args.format != Format::Csv {
        return Err(Error::usage("`--excel` shapes CSV").help("Consider `--format csv --excel`."));
    }
    if args.advise && !matches!(args.format, Format::Table | Format::Markdown | Format::Json) {
        return Err(Error::usage(format!(
            "`--advise` adds a table of options to table, markdown or json output, not {:?}",
            args.format
        ))
        .help("Consider `--advise --format json`, or the export without `--advise`."));
    }
    let start = args.start.unwrap_or_else(|| run.this_month());
    // The last month forecast must end before year 10000, as every period does.
    let last = i64::from(start.year)
        .saturating_mul(12)
        .saturating_add(i64::from(start.month))
        .saturating_add(i64::from(args.months))
        .saturating_sub(1);
    let limit = i64::from(period::LAST.0)
        .saturating_mul(12)
        .saturating_add(i64::from(period::LAST.1));
    if last > limit {
        return Err(Error::usage(format!(
            "--start {}-{:02} with --months {} runs past 9999-11, the last month ddbcost prices",
            start.year, start.month, args.months
        ))
        .help("Consider an earlier --start or fewer --months."));
    }
    Ok(start)
}

/// Every month, the total and the commitment options shown in `fx`'s currency, at its exact
/// rate.
fn convert(
    f: &mut engine::Forecast,
    advice: Option<&mut engine::CommitmentAdvice>,
    fx: &crate::model::Fx,
    file: &str,
) -> Result<(), Error> {
    let mut total = Decimal::ZERO;
    for m in &mut f.months {
        m.estimate =
            engine::convert(m.estimate.clone(), fx).map_err(|e| Error::from(e).file(file))?;
        total = total
            .checked_add(m.estimate.total)
            .ok_or_else(|| Error::input("the forecast total is too large to compute exactly"))?;
    }
    f.total = total;
    if let Some(a) = advice {
        for o in &mut a.options {
            for x in [&mut o.total, &mut o.total_lower, &mut o.unused_lower] {
                *x = x.checked_mul(fx.rate).ok_or_else(|| {
                    Error::input("a commitment option is too large to convert exactly")
                })?;
            }
        }
    }
    Ok(())
}

/// The forecast in `args.format` (with the options of `--advise` after the table).
fn render(
    args: &ForecastArgs,
    run: &Run,
    f: &engine::Forecast,
    workload: &str,
    advice: Option<&engine::CommitmentAdvice>,
    cur: &str,
) -> Result<String, Error> {
    let months = f.months.len();
    Ok(match args.format {
        Format::Table => {
            let mut t = report::forecast::table(f, workload, run.layout);
            if let Some(a) = advice {
                t.push_str(&report::forecast::advice_table(a, cur, months, run.layout));
            }
            t
        }
        Format::Markdown => {
            let mut t = report::forecast::markdown(f, workload);
            if let Some(a) = advice {
                t.push_str(&report::forecast::advice_markdown(a, cur, months));
            }
            t
        }
        Format::Json => report::forecast::json(f, workload, advice),
        Format::Csv => {
            let (text, warnings) = report::forecast::finance(f, args.excel)?;
            for w in warnings {
                run.diagnostics.once("warning", &w);
            }
            text
        }
        Format::Focus => {
            let (text, skipped) = report::forecast::focus(f).map_err(Error::from)?;
            if skipped > 0 {
                run.diagnostics.say("warning", &format!(
                    "{skipped} line(s) whose usage is unknown have no cost and are not in the FOCUS export"
                ));
            }
            text
        }
        Format::Html => {
            if args.output.is_none() {
                run.diagnostics.say(
                    "note",
                    "an HTML report is meant for a file: consider --output forecast.html",
                );
            }
            report::forecast::html(f, workload)?
        }
    })
}

/// `forecast --by tenant|tag:KEY`: each month per tenant group or tag value, with its change
/// from the first month.
#[cfg(not(target_arch = "wasm32"))]
fn by_group(
    args: &ForecastArgs,
    by: &crate::cli::ByArg,
    f: &engine::Forecast,
    workload: &crate::model::Workload,
    currency: &str,
) -> Result<String, Error> {
    use crate::cli::By;
    if !matches!(by.kind, By::Tenant | By::Tag)
        || args.advise
        || !matches!(
            args.format,
            Format::Table | Format::Json | Format::Csv | Format::Markdown
        )
    {
        return Err(Error::usage(
            "`forecast --by` takes `tenant` or `tag:KEY`, without `--advise`, in the table, JSON, CSV and Markdown views",
        )
        .help("Consider `forecast --months 12 --by tenant`."));
    }
    let estimates: Vec<&engine::Estimate> = f.months.iter().map(|m| &m.estimate).collect();
    let (rows, what) = report::groups::rows_of(&estimates, workload, by)?;
    let mut names: Vec<String> = f
        .months
        .iter()
        .map(|m| format!("{}-{:02}", m.period.0, m.period.1))
        .collect();
    // The first month is the one each change is measured from.
    let first = if names.is_empty() {
        String::new()
    } else {
        names.remove(0)
    };
    let groups = report::groups::Groups {
        command: "forecast",
        title: workload.name.clone(),
        what: &format!("{what}, month by month from the first"),
        currency,
        first,
        names,
        rows,
    };
    Ok(match args.format {
        Format::Json => report::groups::json(&groups, "ddbcost.forecast-groups/v1"),
        Format::Csv => report::groups::csv(&groups)?,
        Format::Markdown => report::groups::table(&groups, true),
        _ => report::groups::table(&groups, false),
    })
}

/// The page in the browser leaves `forecast --by` out of its download (#30's budget).
#[cfg(target_arch = "wasm32")]
fn by_group(
    _: &ForecastArgs,
    _: &crate::cli::ByArg,
    _: &engine::Forecast,
    _: &crate::model::Workload,
    _: &str,
) -> Result<String, Error> {
    Err(
        Error::usage("`forecast --by` is not in the WebAssembly build")
            .help("Consider the `ddbcost` command line."),
    )
}
