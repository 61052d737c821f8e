//! `ddbcost anomalies BILL… [--metrics FILE…]`: a bill read day by day, and every departure
//! of a table's meter from its baseline, with its money a month and the mechanism the bill —
//! and, given, the tables' CloudWatch metrics — show.

use rust_decimal::Decimal;

use super::config::Run;
use crate::anomalies::{daily, detect, measured};
use crate::cli::{AnomaliesArgs, AnomaliesFormat};
use crate::error::Error;
use crate::load::quantity;
use crate::{output, report};

pub(super) fn run(args: &AnomaliesArgs, run: &Run) -> Result<(), Error> {
    let floor = quantity::parse_money(&args.min_daily)
        .map_err(|why| Error::usage(format!("--min-daily: {why}")))?;
    let percent = quantity::parse_number(args.min_change.trim_end_matches('%'))
        .ok()
        .filter(|p| *p > Decimal::ZERO)
        .ok_or_else(|| {
            Error::usage(format!(
                "--min-change `{}` is not a percentage above 0",
                args.min_change
            ))
            .help("Consider `--min-change 50` (a day 50 % off its baseline).")
        })?;
    let (daily, notes) = daily::read(&args.bills)?;
    for n in &notes {
        run.diagnostics.once("note", n);
    }
    let mut rule = detect::Rule::new(usize::from(args.window), percent, floor);
    let expected = match &args.workload {
        Some(w) => Some(expected(w, &daily, &rule, run)?),
        None => None,
    };
    let baseline = expected
        .as_ref()
        .map_or(detect::Baseline::Trailing, detect::Baseline::Expected);
    let mut found = detect::departures(&daily, &rule, baseline);
    if !args.metrics.is_empty() {
        let (m, notes) = measured::read(&args.metrics, args.queries.as_deref())?;
        for n in &notes {
            run.diagnostics.once("note", n);
        }
        rule.metrics = Some(m.series());
        measured::explain(&mut found, &daily, &m, &rule);
    }
    let against = args.workload.as_deref();
    let text = match args.format {
        AnomaliesFormat::Table => {
            report::anomalies::table(&daily, &rule, &found, Some(run.layout), against)
        }
        AnomaliesFormat::Markdown => report::anomalies::table(&daily, &rule, &found, None, against),
        AnomaliesFormat::Json => report::anomalies::json(&daily, &rule, &found, against),
        AnomaliesFormat::Html => report::anomalies::html(&daily, &rule, &found, against),
    };
    output::emit(args.output.as_deref(), &text)
}

/// The workload's estimate a day per meter, in the bill's currency.
fn expected(
    file: &str,
    daily: &daily::Daily,
    rule: &detect::Rule,
    run: &Run,
) -> Result<std::collections::BTreeMap<daily::Meter, Decimal>, Error> {
    let (pricing, src) = super::pricing::Pricing::open(
        file,
        &crate::cli::TemplateArgs::default(),
        &crate::cli::SettingsArgs::default(),
        run,
    )?;
    let (workload, file_settings) = src.workload()?;
    let (estimate, _) = pricing.estimate(&workload, &file_settings, src.at(), None)?;
    let currency = daily.currency.clone().unwrap_or_default();
    if estimate.currency != currency {
        return Err(Error::input(format!(
            "the workload is priced in {} and the bill is in {currency}",
            estimate.currency
        ))
        .file(file)
        .help("Consider the price table of the bill's currency (`prices:`)."));
    }
    // The estimate's month in days, as the bill's days are priced: its hours ÷ 24.
    let days = estimate
        .settings
        .month_hours
        .checked_div(Decimal::from(24))
        .unwrap_or(rule.month_days);
    Ok(crate::bill::reconcile::expected_daily(&estimate, days))
}
