//! `ddbcost reconcile`: the bill read (`bill`), the workload estimated for the billing
//! period's own hours (unless `--month-hours` says otherwise) in the bill's currency, the two
//! joined (`bill::reconcile`) and rendered (`report::reconcile`); with `--before` (or work
//! stated under `once:`), the change's one-time work set against what the bill billed beyond
//! the estimate and what CloudWatch measured (`bill::once_check`).

use super::config::Run;
use super::input::Input;
use super::pricing::Pricing;
use crate::cli::{BillFormat, ReconcileArgs, TemplateArgs};
use crate::error::Error;
use crate::load::SettingsOverrides;
use crate::model::{Once, PriceBook, Workload};
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
    let (estimate, book) = pricing.estimate(&workload, &file_settings, src.at(), None)?;
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
    let once = one_time(
        args,
        (&workload, &file_settings, book),
        &pricing,
        &rec,
        &period,
        run,
    )?;
    let once_text = |markdown| report::once_check::section(&once, &currency, markdown);
    let text = match args.format {
        BillFormat::Table => report::reconcile::table(&rec, &ledger, &name) + &once_text(false),
        BillFormat::Json => report::reconcile::json(
            &rec,
            &ledger,
            &name,
            (!once.is_empty()).then(|| report::once_check::json(&once, &currency)),
        ),
        BillFormat::Markdown => {
            report::reconcile::markdown(&rec, &ledger, &name) + &once_text(true)
        }
        BillFormat::Csv | BillFormat::Html if !once.is_empty() => {
            return Err(Error::usage(
                "the one-time work (`--before`, `once:`) is set against the bill in a table, JSON or Markdown",
            )
            .help("Consider `--format json`, or the CSV and page without `--before`."));
        }
        BillFormat::Csv => report::reconcile::csv(&rec, &ledger),
        BillFormat::Html => report::reconcile::html(&rec, &ledger, &name)?,
    };
    output::emit(args.output.as_deref(), &text)
}

/// The change's one-time work set against the bill: predicted from `--before` to the
/// workload (or, without it, what the workload states under `once:`), each row's billed
/// excess, and with `--metrics` a backfill's measured write units in the period.
fn one_time(
    args: &ReconcileArgs,
    (workload, file_settings, book): (&Workload, &SettingsOverrides, PriceBook),
    pricing: &Pricing,
    rec: &bill::reconcile::Reconciliation,
    period: &str,
    run: &Run,
) -> Result<Vec<bill::once_check::Check>, Error> {
    let before = match &args.before {
        Some(file) => {
            let src = Input::read(
                file,
                &TemplateArgs::default(),
                args.settings.prices.as_deref(),
                run,
            )?;
            src.workload()?.0
        }
        None if workload.tables.iter().all(|t| t.once == Once::default()) => {
            if !args.metrics.is_empty() {
                return Err(Error::usage(
                    "`--metrics` measures a change's backfill: give the workload before it (`--before`), or state the work under `once:`",
                )
                .help("Consider `ddbcost reconcile AFTER.yaml BILL --before BEFORE.yaml --metrics metrics-*.json`."));
            }
            return Ok(Vec::new());
        }
        None => {
            // The same tables without their `once:`: only what is stated counts.
            let mut w = workload.clone();
            for t in &mut w.tables {
                t.once = Once::default();
            }
            w
        }
    };
    let items = pricing.one_time((&before, workload), book, file_settings, &args.workload)?;
    let measured = if args.metrics.is_empty() {
        None
    } else {
        let (m, notes) = crate::anomalies::measured::read(&args.metrics, None)?;
        for n in &notes {
            run.diagnostics.once("note", n);
        }
        let p = crate::model::period::Period::parse(period)
            .map_err(|why| Error::input(format!("billing period `{period}`: {why}")))?;
        Some(m.backfills((p.first_day(), p.next().first_day())))
    };
    Ok(bill::once_check::checks(&items, rec, measured.as_ref()))
}
