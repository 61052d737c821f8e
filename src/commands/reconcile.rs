//! `ddbcost reconcile`: the bill read (`bill`), the workload estimated for the billing
//! period's own hours (unless `--month-hours` says otherwise) in the bill's currency, the two
//! joined (`bill::reconcile`) and rendered (`report::reconcile`).

use super::config::Run;
use super::pricing::Pricing;
use crate::cli::{BillFormat, ReconcileArgs};
use crate::error::Error;
use crate::{bill, output, report};

pub(super) fn run(args: &ReconcileArgs, run: &Run) -> Result<(), Error> {
    let chosen = args.period.period.map(|p| p.to_string());
    if args.period.athena_sql {
        let sql = bill::sql::athena(
            &args.period.athena_table,
            chosen.as_deref().unwrap_or_default(),
        );
        return output::emit(args.output.as_deref(), &sql);
    }
    let (pricing, src) = Pricing::open(&args.workload, &args.template, &args.settings, run)?;
    let (workload, mut file_settings) = src.workload_with(&args.sets)?;
    let ledger = bill::read_all(&args.bills, chosen)?;
    for n in &ledger.notes {
        run.diagnostics.once("note", n);
    }
    let period = ledger.period.clone().unwrap_or_default();
    let hours = crate::model::period::Period::parse(&period)
        .map(crate::model::period::Period::hours)
        .map_err(|why| Error::input(format!("billing period `{period}`: {why}")))?;
    if args.settings.month_hours.is_none() {
        file_settings.month_hours = Some(hours);
    }
    let (estimate, _) = pricing.estimate(&workload, &file_settings, src.at(), None)?;
    let currency = ledger.currency.clone().unwrap_or_default();
    if estimate.currency != currency {
        return Err(Error::input(format!(
            "the estimate is in {} and the bill in {currency}",
            estimate.currency
        ))
        .file(src.at().0)
        .help(format!("Consider `--currency {currency} --fx-rate …`, or the price table of the bill's currency.")));
    }
    if let Some(key) = &args.by {
        let rows = report::tag_variance::rows(
            &report::tags::group(&estimate, &workload, key),
            &report::tags::bill_groups(&ledger, key),
        );
        let text = match args.format {
            BillFormat::Table => report::tag_variance::table(&rows, &ledger, key, false),
            BillFormat::Markdown => report::tag_variance::table(&rows, &ledger, key, true),
            BillFormat::Json => report::tag_variance::json(&rows, &ledger, key),
            BillFormat::Csv => report::tag_variance::csv(&rows, &ledger, key)?,
            BillFormat::Html => {
                return Err(Error::usage(
                    "`reconcile --by tag:KEY` writes a table, JSON, CSV or Markdown",
                )
                .help("Consider `--format markdown`, or `--format html` without `--by`."));
            }
        };
        return output::emit(args.output.as_deref(), &text);
    }
    let rec = bill::reconcile::reconcile(&estimate, &ledger, estimate.settings.month_hours);
    let name = estimate.workload.clone();
    let text = match args.format {
        BillFormat::Table => report::reconcile::table(&rec, &ledger, &name),
        BillFormat::Json => report::reconcile::json(&rec, &ledger, &name),
        BillFormat::Markdown => report::reconcile::markdown(&rec, &ledger, &name),
        BillFormat::Csv => report::reconcile::csv(&rec, &ledger),
        BillFormat::Html => report::reconcile::html(&rec, &ledger, &name),
    };
    output::emit(args.output.as_deref(), &text)
}
