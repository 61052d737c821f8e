//! `ddbcost bill`: the bill's DynamoDB rows read (`bill`), per table, region and component,
//! with what is kept apart and what nobody maps, rendered (`report::bill`); and with
//! `--to-workload`, a workload built from it (`bill::workload`).

use super::config::Run;
use super::pricing::Pricing;
use crate::cli::{BillArgs, BillFormat};
use crate::error::Error;
use crate::{bill, output, report};

/// The commitments the bill's hours call for, each region priced with its `aws-REGION` table
/// through the run's pricing service (its price folders, `--max-price-age` counted to the
/// billing period), for the period's own hours unless `--month-hours` says otherwise.
fn commitments(
    ledger: &bill::ledger::Ledger,
    pricing: &Pricing<'_>,
) -> Result<bill::commit::Commitments, Error> {
    let regions: std::collections::BTreeSet<&str> = ledger
        .hourly
        .keys()
        .map(|(r, _)| r.as_str())
        .chain(ledger.eligible.keys().map(|(r, _)| r.as_str()))
        .collect();
    let period = ledger
        .period
        .as_deref()
        .and_then(|p| crate::model::period::Period::parse(p).ok());
    let mut tables = Vec::new();
    for region in regions {
        let book = pricing
            .with_prices(format!("aws-{region}"))
            .book(&crate::model::Workload::default(), "bill")?;
        pricing.book_freshness(&book, period)?;
        tables.push(book.primary);
    }
    let mut tables = tables.into_iter();
    let Some(primary) = tables.next() else {
        return Ok(bill::commit::Commitments::default());
    };
    let book = crate::model::PriceBook {
        primary,
        others: tables.collect(),
    };
    let hours = pricing.stated_month_hours().unwrap_or_else(|| {
        period.map_or(
            rust_decimal::Decimal::from(730),
            crate::model::period::Period::hours,
        )
    });
    Ok(bill::commit::size(ledger, &book, hours))
}

pub(super) fn run(args: &BillArgs, run: &Run) -> Result<(), Error> {
    let chosen = args.period.period.map(|p| p.to_string());
    // Every argument checked before any input is read: the pricing flags as `estimate` types
    // them, and what only `--commitments` uses.
    let pricing = Pricing::new(
        &crate::cli::SettingsArgs {
            prices_dirs: args.prices_dirs.clone(),
            month_hours: args.month_hours.clone(),
            max_price_age: args.max_price_age,
            ..crate::cli::SettingsArgs::default()
        },
        run,
    )?;
    if !args.commitments
        && (args.month_hours.is_some()
            || args.max_price_age.is_some()
            || !args.prices_dirs.is_empty())
    {
        return Err(Error::usage(
            "`--month-hours`, `--max-price-age` and `--prices-dir` price the commitments, and `--commitments` is not given",
        )
        .help("Consider `--commitments`, or leaving them out: the bill's own figures are AWS's."));
    }
    if args.commitments && args.format == BillFormat::Csv {
        return Err(Error::usage(
            "`--commitments` adds a section to table, markdown or json output, not csv",
        )
        .help("Consider `--commitments --format json`."));
    }
    if args.by.is_some() && (args.commitments || args.to_workload.is_some()) {
        return Err(Error::usage(
            "`--by tag:KEY` groups the bill; `--commitments` and `--to-workload` work on the whole",
        )
        .help("Consider one run for each."));
    }
    if args.period.athena_sql {
        let sql = bill::sql::athena(
            &args.period.athena_table,
            chosen.as_deref().unwrap_or_default(),
        );
        return output::emit(args.output.as_deref(), &sql);
    }
    let ledger = bill::read_all(&args.inputs, chosen)?;
    for n in &ledger.notes {
        run.diagnostics.once("note", n);
    }
    if let Some(out) = &args.to_workload {
        let yaml = bill::workload::yaml(&ledger);
        // What is written must load: a figure the loader refuses is ddbcost's bug.
        crate::load::parse_workload_at(&yaml, out, out, &run.samples)?;
        output::emit(Some(out), &yaml)?;
    }
    let commitments = if args.commitments {
        Some(commitments(&ledger, &pricing)?)
    } else {
        None
    };
    let c = commitments.as_ref();
    if let Some(key) = &args.by {
        let groups = report::tags::bill_groups(&ledger, key);
        let currency = ledger.currency.clone().unwrap_or_default();
        let text = match args.format {
            BillFormat::Json => report::tags::bill_json(&groups, &ledger, key),
            BillFormat::Csv => report::tags::bill_csv(&groups, &currency, key)?,
            BillFormat::Markdown => report::tags::bill_table(&groups, &ledger, key, true),
            BillFormat::Table => report::tags::bill_table(&groups, &ledger, key, false),
            BillFormat::Html => {
                return Err(Error::usage("`--by tag:KEY` shapes the table, JSON, CSV and Markdown views, and the format is html")
                    .help("Consider `--format table|json|csv|markdown`."));
            }
        };
        return output::emit(args.output.as_deref(), &text);
    }
    let text = match args.format {
        BillFormat::Table => report::bill::table(&ledger, c),
        BillFormat::Json => report::bill::json(&ledger, c),
        BillFormat::Markdown => report::bill::markdown(&ledger, c),
        BillFormat::Csv => report::bill::csv(&ledger),
        BillFormat::Html => report::bill::html(&ledger),
    };
    output::emit(args.output.as_deref(), &text)
}
