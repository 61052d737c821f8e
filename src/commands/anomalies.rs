//! `ddbcost anomalies BILL…`: a bill read day by day, and every departure of a table's meter
//! from its own trailing baseline, with its money a month and the mechanism the bill shows.

use rust_decimal::Decimal;

use super::config::Run;
use crate::anomalies::{daily, detect};
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
    let rule = detect::Rule::new(usize::from(args.window), percent, floor);
    let found = detect::departures(&daily, &rule);
    let text = match args.format {
        AnomaliesFormat::Table => report::anomalies::table(&daily, &rule, &found, Some(run.layout)),
        AnomaliesFormat::Markdown => report::anomalies::table(&daily, &rule, &found, None),
        AnomaliesFormat::Json => report::anomalies::json(&daily, &rule, &found),
        AnomaliesFormat::Html => report::anomalies::html(&daily, &rule, &found),
    };
    output::emit(args.output.as_deref(), &text)
}
