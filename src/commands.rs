//! Running a parsed command line: loading inputs, calling the engine, rendering, writing.
//! The only module (with `main`) that touches files and standard streams.

use rust_decimal::Decimal;

use crate::cli::{By, Cli, Command, EstimateArgs, Format, Gb, PricesArgs};
use crate::engine;
use crate::error::Error;
use crate::load::{self, SettingsOverrides, prices, quantity};
use crate::model::{GbConvention, PriceBook, PriceTable, Settings, Workload};
use crate::output;
use crate::report::{self, Breakdown};

/// Runs one command; diagnostics (warnings) go to standard error.
///
/// # Errors
/// Any user-facing error, carrying its exit code.
pub fn run(cli: Cli) -> Result<(), Error> {
    match cli.command {
        Command::Estimate(args) => estimate(&args),
        Command::Prices(args) => list_prices(&args),
    }
}

/// A workload loaded with its price book and settings, ready for the engine.
pub struct Prepared {
    pub workload: Workload,
    pub book: PriceBook,
    pub settings: Settings,
}

/// Loads a workload file and everything it needs to be priced.
///
/// # Errors
/// The file, the price table or a setting is invalid.
pub fn prepare(
    path: &str,
    prices_arg: Option<&str>,
    cli: &SettingsOverrides,
) -> Result<Prepared, Error> {
    let text = load::read_file(path)?;
    let (workload, from_file) = load::parse_workload(&text, path)?;
    let name = prices_arg.map(str::to_string).or_else(|| workload.prices.clone()).ok_or_else(|| {
        Error::usage(format!("no price table for `{path}`"))
            .help("Consider `--prices aws-us-east-1` (see `ddbcost prices`), or `prices:` in the workload.")
    })?;
    let primary = match prices::resolve(&name) {
        // Named by the workload: point at the workload's `prices` field.
        Err(e) if prices_arg.is_none() && e.file.is_none() => {
            return Err(e.file(path).path("prices"));
        }
        Err(e) if prices_arg.is_some() && e.file.is_none() => {
            return Err(Error {
                kind: crate::error::ErrorKind::Usage,
                ..e
            }
            .path("--prices"));
        }
        other => other?,
    };
    let book = price_book(&workload, primary, path)?;
    let settings = Settings {
        month_hours: cli
            .month_hours
            .or(from_file.month_hours)
            .unwrap_or(Settings::default().month_hours),
        gb: cli.gb.or(from_file.gb).unwrap_or(GbConvention::Binary),
        free_tier: cli.free_tier.or(from_file.free_tier).unwrap_or(false),
    };
    Ok(Prepared {
        workload,
        book,
        settings,
    })
}

/// The primary table plus the bundled tables of each replica region in the same currency.
fn price_book(workload: &Workload, primary: PriceTable, path: &str) -> Result<PriceBook, Error> {
    let mut others: Vec<PriceTable> = Vec::new();
    for table in &workload.tables {
        for region in &table.replicas {
            if *region == primary.region {
                return Err(Error::input(format!("table `{}` lists its own region `{region}` as a replica", table.name))
                    .file(path)
                    .path(format!("tables.{}.replicas", table.name))
                    .help(format!("Consider listing only the other regions; the table's region is the price table's ({region}).")));
            }
            if others.iter().any(|t| &t.region == region) {
                continue;
            }
            if let Some(t) = prices::bundled()?
                .into_iter()
                .find(|t| &t.region == region && t.currency == primary.currency)
            {
                others.push(t);
            }
        }
    }
    Ok(PriceBook { primary, others })
}

fn cli_settings(
    month_hours: Option<&str>,
    gb: Option<Gb>,
    free_tier: bool,
) -> Result<SettingsOverrides, Error> {
    let month_hours = match month_hours {
        Some(text) => {
            let h = quantity::parse_number(text)
                .map_err(|why| Error::usage(format!("--month-hours: {why}")))?;
            if h <= Decimal::ZERO || h > Decimal::from(744) {
                return Err(
                    Error::usage(format!("--month-hours: `{text}` hours is not a month"))
                        .help("Consider 730 (the AWS calculator's month), 720 or 744."),
                );
            }
            Some(h)
        }
        None => None,
    };
    Ok(SettingsOverrides {
        month_hours,
        gb: gb.map(|g| match g {
            Gb::Binary => GbConvention::Binary,
            Gb::Decimal => GbConvention::Decimal,
        }),
        free_tier: free_tier.then_some(true),
    })
}

fn estimate(args: &EstimateArgs) -> Result<(), Error> {
    let overrides = cli_settings(args.month_hours.as_deref(), args.gb, args.free_tier)?;
    let prepared = prepare(&args.workload, args.prices.as_deref(), &overrides)?;
    let estimate = engine::estimate(&prepared.workload, &prepared.book, &prepared.settings)
        .map_err(|e| Error::from(e).file(&args.workload))?;
    // The table view prints warnings in its footer; other formats and files get them on
    // standard error so that they are not lost.
    if args.format != Format::Table || args.output.is_some() {
        for w in &estimate.warnings {
            eprintln!("warning: {w}");
        }
    }
    let by = match args.by {
        By::Line => Breakdown::Line,
        By::Pattern => Breakdown::Pattern,
        By::Component => Breakdown::Component,
    };
    let text = match args.format {
        Format::Table => report::table::render(&estimate, by),
        Format::Json => report::json::render(&estimate),
        Format::Csv => report::csv::render(&estimate, by),
    };
    output::emit(args.output.as_deref(), &text)
}

fn list_prices(args: &PricesArgs) -> Result<(), Error> {
    let tables = prices::bundled()?;
    let text = match args.format {
        Format::Json => {
            let rows: Vec<serde_json::Value> = tables
                .iter()
                .map(|t| serde_json::json!({"id": t.id, "region": t.region, "currency": t.currency, "effective": t.effective, "source": t.source, "file": t.file, "prices": t.prices.len()}))
                .collect();
            let mut s = serde_json::to_string_pretty(&rows).unwrap_or_default();
            s.push('\n');
            s
        }
        Format::Csv => {
            let mut w = csv::Writer::from_writer(Vec::new());
            let _ = w.write_record(["id", "region", "currency", "effective", "prices", "source"]);
            for t in &tables {
                let _ = w.write_record([
                    t.id.clone(),
                    t.region.clone(),
                    t.currency.clone(),
                    t.effective.clone(),
                    t.prices.len().to_string(),
                    t.source.clone(),
                ]);
            }
            String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
        }
        Format::Table => {
            let mut b = tabled::builder::Builder::default();
            b.push_record([
                "Id",
                "Region",
                "Currency",
                "Effective",
                "Prices known",
                "File",
            ]);
            for t in &tables {
                b.push_record([
                    t.id.clone(),
                    t.region.clone(),
                    t.currency.clone(),
                    t.effective.clone(),
                    t.prices.len().to_string(),
                    t.file.clone(),
                ]);
            }
            let mut t = b.build();
            t.with(tabled::settings::Style::rounded());
            format!("{t}\n")
        }
    };
    output::emit(None, &text)
}
