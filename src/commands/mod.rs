//! Running a parsed command line: loading inputs, calling the engine, rendering, writing.
//! The only module (with `main`) that touches files and standard streams.

pub mod advise;
mod iac;
mod import;
mod init;
mod keys;
mod prices_diff;
mod schema;
mod shell;
mod size;
pub mod sweep;

use rust_decimal::Decimal;

use crate::cli::{
    By, Cli, Command, CompareArgs, DiffArgs, EstimateArgs, ExportArgs, Format, Gb, PricesArgs,
    SettingsArgs,
};
use crate::engine::{self, Estimate};
use crate::error::{Error, ErrorKind};
use crate::load::{self, FxStated, SettingsOverrides, prices, quantity};
use crate::model::{CapacityMode, Fx, GbConvention, PriceBook, PriceTable, Settings, Workload};
use crate::output;
use crate::report::period::Period;
use crate::report::{self, Breakdown};
use crate::scenario::{self, Comparison, ScenarioKind};

/// Runs one command; diagnostics (warnings) go to standard error.
///
/// # Errors
/// Any user-facing error, carrying its exit code.
pub fn run(cli: Cli) -> Result<(), Error> {
    crate::report::layout::set(terminal_layout(cli.width));
    match cli.command {
        Command::Estimate(args) => estimate(&args),
        Command::Compare(args) => compare(&args),
        Command::Diff(args) => diff(&args),
        Command::Forecast(args) => forecast(&args),
        Command::Size(args) => size::run(&args),
        Command::Keys(args) => keys::run(&args),
        Command::Advise(args) => advise::run(&args),
        Command::Sweep(args) => sweep::run(&args),
        Command::Completions(args) => shell::completions(&args),
        Command::Man(args) => shell::man(&args),
        Command::Schema(args) => schema::run(&args),
        Command::Init(args) => init::run(&args),
        Command::Prices(args) => list_prices(&args),
        Command::Import(args) => iac::run(&args),
    }
}

/// The terminal's shape: `--width`, else `COLUMNS`, else the terminal's width when standard
/// output is one; colour only on a terminal, and never with `NO_COLOR` (set and not empty)
/// or `TERM=dumb`.
fn terminal_layout(width: Option<u16>) -> crate::report::layout::Layout {
    use std::io::IsTerminal;
    let terminal = std::io::stdout().is_terminal();
    let columns = std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse::<usize>().ok())
        .filter(|c| *c >= 20);
    let width = width.map(usize::from).or(columns).or_else(|| {
        terminal
            .then(|| console::Term::stdout().size_checked())
            .flatten()
            .map(|(_, w)| usize::from(w))
    });
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let dumb = std::env::var("TERM").is_ok_and(|t| t == "dumb");
    crate::report::layout::Layout {
        width,
        color: terminal && !no_color && !dumb,
    }
}

fn cli_settings(args: &SettingsArgs) -> Result<SettingsOverrides, Error> {
    let month_hours = match args.month_hours.as_deref() {
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
        gb: args.gb.map(|g| match g {
            Gb::Binary => GbConvention::Binary,
            Gb::Decimal => GbConvention::Decimal,
        }),
        free_tier: args.free_tier.then_some(true),
        fx: cli_fx(args)?,
    })
}

/// `--currency`, `--fx-rate`, `--fx-date` and `--fx-source`, checked.
fn cli_fx(args: &SettingsArgs) -> Result<Option<FxStated>, Error> {
    let stray = |what: &str| {
        Err(Error::usage(format!("{what} needs `--currency`"))
            .help("Consider `--currency EUR --fx-rate 0.92 --fx-date 2026-11-30`."))
    };
    let Some(code) = args.currency.as_deref() else {
        if !args.fx_rates.is_empty() {
            return stray("`--fx-rate`");
        }
        if args.fx_date.is_some() {
            return stray("`--fx-date`");
        }
        if args.fx_source.is_some() {
            return stray("`--fx-source`");
        }
        return Ok(None);
    };
    let currency = load::parse_currency(code).map_err(|why| {
        Error::usage(format!("--currency: {why}")).help("Consider `--currency EUR`.")
    })?;
    let mut rates: Vec<(Option<String>, Decimal)> = Vec::new();
    for text in &args.fx_rates {
        let (from, rate) = match text.split_once('=') {
            Some((from, rate)) => (
                Some(load::parse_currency(from).map_err(|why| {
                    Error::usage(format!("--fx-rate `{text}`: {why}"))
                        .help("Consider `--fx-rate USD=0.92` (1 USD = 0.92 of `--currency`).")
                })?),
                rate,
            ),
            None => (None, text.as_str()),
        };
        let rate = load::parse_fx_rate(rate).map_err(|why| {
            Error::usage(format!("--fx-rate: {why}"))
                .help("Consider `--fx-rate 0.92`: units of `--currency` per unit of the price table's currency.")
        })?;
        if rates.iter().any(|(f, _)| *f == from) {
            return Err(Error::usage(format!(
                "--fx-rate: two rates from {}",
                from.as_deref().unwrap_or("the price table's currency")
            ))
            .help("Consider one `--fx-rate` per currency (`USD=0.92`, `JPY=0.0061`)."));
        }
        rates.push((from, rate));
    }
    let date = args
        .fx_date
        .as_deref()
        .map(|d| {
            load::parse_day(d).map_err(|why| {
                Error::usage(format!("--fx-date: {why}")).help("Consider `--fx-date 2026-11-30`.")
            })
        })
        .transpose()?;
    if !rates.is_empty() && date.is_none() {
        return Err(Error::usage(
            "`--fx-rate` needs `--fx-date`: a rate without its day cannot be traced",
        )
        .help("Consider `--fx-date 2026-11-30` (the day the rate was published)."));
    }
    Ok(Some(FxStated {
        currency,
        rates,
        date,
        source: args
            .fx_source
            .clone()
            .unwrap_or_else(|| "stated on the command line".to_string()),
    }))
}

/// The conversion an estimate priced in `priced_in` is shown with: the command line's
/// currency and rates first, then the workload's `settings.fx`; `None` when costs stay in the
/// price table's currency.
fn fx_for(
    priced_in: &str,
    cli: Option<&FxStated>,
    file: Option<&FxStated>,
) -> Result<Option<Fx>, Error> {
    let Some(target) = cli.or(file) else {
        return Ok(None);
    };
    if target.currency == priced_in {
        return Ok(None);
    }
    fn rate_in<'a>(stated: &'a FxStated, priced_in: &str) -> Option<(Decimal, &'a FxStated)> {
        stated
            .rates
            .iter()
            .find(|(from, _)| from.as_deref() == Some(priced_in))
            .or_else(|| stated.rates.iter().find(|(from, _)| from.is_none()))
            .map(|(_, rate)| (*rate, stated))
    }
    // A currency on the command line may take its rate from the workload when both name the
    // same currency.
    let found = rate_in(target, priced_in).or_else(|| {
        file.filter(|f| cli.is_some() && f.currency == target.currency)
            .and_then(|f| rate_in(f, priced_in))
    });
    let Some((rate, stated)) = found else {
        return Err(Error::usage(format!(
            "no exchange rate from {priced_in} to {}",
            target.currency
        ))
        .help(format!(
            "Consider `--fx-rate {priced_in}=RATE --fx-date YYYY-MM-DD` (1 {priced_in} = RATE {}), or `settings.fx` in the workload.",
            target.currency
        )));
    };
    let date = stated.date.clone().ok_or_else(|| {
        Error::usage("`--fx-rate` needs `--fx-date`").help("Consider `--fx-date 2026-11-30`.")
    })?;
    Ok(Some(Fx {
        from: priced_in.to_string(),
        to: target.currency.clone(),
        rate,
        date,
        source: stated.source.clone(),
    }))
}

fn settings(cli: &SettingsOverrides, file: &SettingsOverrides) -> Settings {
    Settings {
        month_hours: cli
            .month_hours
            .or(file.month_hours)
            .unwrap_or(Settings::default().month_hours),
        gb: cli.gb.or(file.gb).unwrap_or(GbConvention::Binary),
        free_tier: cli.free_tier.or(file.free_tier).unwrap_or(false),
    }
}

/// The price directories in the order they are searched: `--prices-dir`, then
/// `DDBCOST_PRICES` (folders separated by `:`), then the workload's `price_dirs:`.
fn price_dirs(args: &SettingsArgs, workload: &Workload) -> Vec<String> {
    // The environment is read here, in the command layer, never in the engine.
    let from_env = std::env::var("DDBCOST_PRICES").unwrap_or_default();
    args.prices_dirs
        .iter()
        .cloned()
        .chain(
            from_env
                .split(':')
                .filter(|d| !d.trim().is_empty())
                .map(str::to_string),
        )
        .chain(workload.price_dirs.iter().cloned())
        .collect()
}

/// The price table a workload names (or `--prices`), plus the tables of its replica regions
/// in the same currency: from the price directories first (see `price_dirs`), then the
/// bundled tables.
fn price_book(workload: &Workload, args: &SettingsArgs, file: &str) -> Result<PriceBook, Error> {
    let prices_arg = args.prices.as_deref();
    let mut from_dirs: Vec<PriceTable> = Vec::new();
    for dir in price_dirs(args, workload) {
        from_dirs.extend(prices::directory(&dir)?);
    }
    let name = prices_arg.map(str::to_string).or_else(|| workload.prices.clone()).ok_or_else(|| {
        Error::usage(format!("no price table for `{file}`"))
            .help("Consider `--prices aws-us-east-1` (see `ddbcost prices`), or `prices:` in the workload.")
    })?;
    let in_dirs = from_dirs.iter().find(|t| t.id == name).cloned();
    // One rule for every path a workload names (`prices`, `price_dirs`, samples): relative to
    // the workload's own folder. `--prices` is the command line's: relative to where it runs.
    let name = match prices_arg {
        None if prices::is_path(&name) && std::path::Path::new(&name).is_relative() => {
            let base = std::path::Path::new(file)
                .parent()
                .filter(|p| file != load::STDIN && !p.as_os_str().is_empty());
            base.map_or(name.clone(), |b| b.join(&name).display().to_string())
        }
        _ => name,
    };
    let primary = match in_dirs.map_or_else(|| prices::resolve(&name), Ok) {
        // Named by the workload: point at the workload's `prices` field.
        Err(e) if prices_arg.is_none() && e.file.is_none() => {
            return Err(e.file(file).path("prices"));
        }
        Err(e) if prices_arg.is_some() && e.file.is_none() => {
            return Err(Error {
                kind: ErrorKind::Usage,
                ..e
            }
            .path("--prices"));
        }
        other => other?,
    };
    // The bundled tables are parsed only when a table lives in, or replicates to, another
    // region than the primary's.
    let elsewhere = workload.tables.iter().any(|t| {
        !t.replicas.is_empty() || t.region.as_deref().is_some_and(|r| r != primary.region)
    });
    let bundled = if elsewhere {
        prices::bundled()?
    } else {
        Vec::new()
    };
    let mut others: Vec<PriceTable> = Vec::new();
    for table in &workload.tables {
        let home = table.region.as_deref().unwrap_or(&primary.region);
        for region in &table.replicas {
            if region == home {
                return Err(Error::input(format!(
                    "table `{}` lists its own region `{region}` as a replica",
                    table.name
                ))
                .file(file)
                .path(format!("tables.{}.replicas", table.name))
                .help(format!(
                    "Consider listing only the other regions; the table's region is {region}."
                )));
            }
        }
        // The table's own region (if not the primary's) and each replica's.
        let needed = table
            .region
            .iter()
            .filter(|r| **r != primary.region)
            .chain(&table.replicas);
        for region in needed {
            if others.iter().any(|t| &t.region == region) || *region == primary.region {
                continue;
            }
            if let Some(t) = from_dirs
                .iter()
                .chain(&bundled)
                .find(|t| &t.region == region && t.currency == primary.currency)
            {
                others.push(t.clone());
            }
        }
    }
    Ok(PriceBook { primary, others })
}

/// Prices a loaded workload under the command line's and the file's settings.
fn price(
    workload: &Workload,
    file_settings: &SettingsOverrides,
    args: &SettingsArgs,
    file: &str,
    period: Option<&str>,
) -> Result<(Estimate, PriceBook), Error> {
    if args.strict && !workload.placeholders.is_empty() {
        return Err(Error::input(format!(
            "{} placeholder(s) still to fill: {}",
            workload.placeholders.len(),
            workload.placeholders.join(", ")
        ))
        .file(file)
        .help("Consider replacing each `TODO` with the figure (rates, item sizes, item counts), or running without `--strict`."));
    }
    let book = price_book(workload, args, file)?;
    let cli = cli_settings(args)?;
    let settings = settings(&cli, file_settings);
    let mut estimate =
        engine::estimate(workload, &book, &settings).map_err(|e| Error::from(e).file(file))?;
    freshness(&mut estimate, period, args.max_price_age)?;
    if let Some(fx) = fx_for(
        &estimate.currency,
        cli.fx.as_ref(),
        file_settings.fx.as_ref(),
    )? {
        estimate = engine::convert(estimate, &fx).map_err(|e| Error::from(e).file(file))?;
    }
    Ok((estimate, book))
}

/// Price tables older than a year get a note (in the report's warnings and on standard
/// error); `--max-price-age DAYS` turns age past DAYS into an error. Age is counted to the
/// first day of `--period`, else to today (the clock is read here, never in the engine).
fn freshness(
    estimate: &mut Estimate,
    period: Option<&str>,
    max_age: Option<u32>,
) -> Result<(), Error> {
    let table = &estimate.price_table;
    let Some(effective) = report::period::parse_date(&table.effective) else {
        return Ok(());
    };
    let (reference, against) = match period.and_then(|p| Period::parse(p).ok()) {
        Some(p) => (p.first_day(), format!("the start of {p}")),
        None => {
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs());
            (
                i64::try_from(now / 86_400).unwrap_or(0),
                "today".to_string(),
            )
        }
    };
    let age = reference.saturating_sub(effective);
    if let Some(max) = max_age
        && age > i64::from(max)
    {
        return Err(Error::input(format!(
            "price table `{}` took effect on {}, {age} days before {against}: more than --max-price-age {max}",
            table.id, table.effective
        ))
        .help("Consider importing current prices: `ddbcost prices import FILE --output-dir DIR`, then `--prices-dir DIR` (see the README)."));
    }
    if age > 365 {
        let note = format!(
            "price table `{}` took effect on {}, {age} days before {against}: AWS may have changed its prices since (`ddbcost prices import` reads the current price list)",
            table.id, table.effective
        );
        tell_once("note", &note);
        estimate.warnings.push(note);
    }
    Ok(())
}

fn warn(estimate: &Estimate, format: Format, output: Option<&str>) {
    // The table view prints warnings in its footer; other formats and files get them on
    // standard error so that they are not lost.
    if format != Format::Table || output.is_some() {
        for w in &estimate.warnings {
            tell_once("warning", w);
        }
    }
}

/// Prints `kind: message` on standard error unless this run has printed the message already
/// (a comparison prices the same tables many times, and a note is also a report warning).
fn tell_once(kind: &str, message: &str) {
    static TOLD: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    let mut told = TOLD
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if !told.iter().any(|m| m == message) {
        told.push(message.to_string());
        crate::output::warn(&format!("{kind}: {message}"));
    }
}

/// Options a format would accept and silently ignore are usage errors.
fn check_options(format: Format, export: &ExportArgs, by: Option<By>) -> Result<(), Error> {
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
    if let Some(by) = by
        && by != By::Line
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

fn estimate(args: &EstimateArgs) -> Result<(), Error> {
    check_options(args.format, &args.export, Some(args.by))?;
    let file = args.workload.as_str();
    let template = iac::is_template(file, &args.template);
    let text = if template {
        String::new()
    } else {
        load::read_file(file)?
    };
    let (workload, file_settings) = if template {
        if !args.sets.is_empty() {
            return Err(
                Error::usage("`--set` changes a workload, and the input is a template")
                    .help("Consider `ddbcost import` to write the workload, then `--set` on it."),
            );
        }
        iac::workload(file, &args.template, args.settings.prices.as_deref())?
    } else if args.template.usage.is_some() {
        return Err(
            Error::usage("`--usage` completes a template, and the input is a workload")
                .help("Consider merging the usage into the workload, or giving the template."),
        );
    } else if args.sets.is_empty() {
        load::parse_workload(&text, file)?
    } else {
        let (_, docs) =
            scenario::scenario_documents(&text, file, &[("--set".to_string(), args.sets.clone())])?;
        let doc = docs
            .iter()
            .find(|d| d.name == "--set")
            .ok_or_else(|| Error::usage("--set made no change"))?;
        scenario::workload_of(doc, file)?
    };
    let (estimate, _) = price(
        &workload,
        &file_settings,
        &args.settings,
        file,
        args.export.period.as_deref(),
    )?;
    warn(&estimate, args.format, args.output.as_deref());
    let by = match args.by {
        By::Line => Breakdown::Line,
        By::Pattern => Breakdown::Pattern,
        By::Component => Breakdown::Component,
        By::Region => Breakdown::Region,
    };
    let text = match args.format {
        Format::Table => report::table::render(&estimate, by),
        Format::Json => report::json::render(&estimate),
        Format::Csv if by != Breakdown::Line => report::csv::render(&estimate, by),
        Format::Markdown => report::markdown::estimate(&estimate, by),
        Format::Csv | Format::Focus | Format::Html => {
            let comparison = scenario::compare(estimate, Vec::new())?;
            export(
                &comparison,
                args.format,
                &args.export,
                args.output.as_deref(),
            )?
        }
    };
    output::emit(args.output.as_deref(), &text)
}

/// The finance CSV, FOCUS and HTML of a comparison (an estimate is one with no scenarios).
fn export(
    comparison: &Comparison,
    format: Format,
    export: &ExportArgs,
    output: Option<&str>,
) -> Result<String, Error> {
    let period = match export.period.as_deref() {
        Some(text) => Period::parse(text).map_err(|why| {
            Error::usage(format!("--period: {why}")).help("Consider `--period 2026-12`.")
        })?,
        // The clock is read here, never in the engine or the renderers.
        None => Period::containing(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
        ),
    };
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
            let (text, skipped) = report::focus::render(&[one], period);
            if skipped > 0 {
                crate::output::warn(&format!(
                    "warning: {skipped} line(s) whose usage is unknown have no cost and are not in the FOCUS export"
                ));
            }
            text
        }
        Format::Html => {
            if output.is_none() {
                crate::output::warn(
                    "note: an HTML report is meant for a file: consider --output report.html",
                );
            }
            report::html::render(comparison, period)
        }
        _ => {
            let (text, warnings) = report::finance::render(comparison, period, export.excel);
            for w in warnings {
                crate::output::warn(&format!("warning: {w}"));
            }
            text
        }
    })
}

fn compare(args: &CompareArgs) -> Result<(), Error> {
    check_options(args.format, &args.export, None)?;
    let comparison = comparison(args)?;
    emit_comparison(
        &comparison,
        args.format,
        &args.export,
        args.output.as_deref(),
    )
}

/// The comparison `compare` prints: the workload's scenarios and the command line's
/// alternatives, the ones selected with `--scenario` (steps still cumulative, and each step's
/// own delta measured from the step before it).
///
/// # Errors
/// As `compare`: a bad workload or scenario, a missing price, no scenarios.
pub fn comparison(args: &CompareArgs) -> Result<Comparison, Error> {
    let (text, file) = iac::workload_text(
        &args.workload,
        &args.template,
        args.settings.prices.as_deref(),
    )?;
    let file = file.as_str();
    let (baseline, base_settings) = load::parse_workload(&text, file)?;
    let (_, docs) = scenario::scenario_documents(&text, file, &args.alternatives)?;
    if docs.is_empty() {
        return Err(Error::usage(format!("`{file}` has no scenarios to compare"))
            .help("Consider adding `scenarios: { steps: [...], alternatives: [...] }` to the workload, or `--set PATH=VALUE`."));
    }
    let shown = scenario::select(&docs, &args.scenarios)?;
    let (base_estimate, _) = price(
        &baseline,
        &base_settings,
        &args.settings,
        file,
        args.export.period.as_deref(),
    )?;
    // A step's own delta is measured from the step before it in the workload's sequence,
    // even when that step is not shown: price every step up to the last one shown.
    let last_step_shown = shown
        .iter()
        .filter(|&&i| docs[i].kind == ScenarioKind::Step)
        .max()
        .copied();
    let mut results = Vec::with_capacity(shown.len());
    let mut notes = Vec::new();
    let mut previous_step_total = base_estimate.total;
    for (i, doc) in docs.into_iter().enumerate() {
        let is_shown = shown.contains(&i);
        let needed_as_step =
            doc.kind == ScenarioKind::Step && last_step_shown.is_some_and(|last| i <= last);
        if !is_shown && !needed_as_step {
            continue;
        }
        let (workload, file_settings) = scenario::workload_of(&doc, file)?;
        let (estimate, book) = price(
            &workload,
            &file_settings,
            &args.settings,
            &format!("{file} (scenario `{}`)", doc.name),
            args.export.period.as_deref(),
        )?;
        if estimate.currency != base_estimate.currency {
            return Err(Error::input(format!(
                "scenario `{}` is priced in {} and the baseline in {}",
                doc.name, estimate.currency, base_estimate.currency
            ))
            .file(file)
            .help("Consider price tables in one currency for a comparison."));
        }
        let previous_total = (doc.kind == ScenarioKind::Step).then_some(previous_step_total);
        if doc.kind == ScenarioKind::Step {
            previous_step_total = estimate.total;
        }
        if !is_shown {
            continue;
        }
        notes.extend(break_even_notes(&baseline, &workload, &book, &doc.name));
        results.push(scenario::ScenarioInput {
            name: doc.name,
            description: doc.description,
            kind: doc.kind,
            estimate,
            previous_total,
        });
    }
    let mut comparison = scenario::compare(base_estimate, results)?;
    comparison.notes = notes;
    Ok(comparison)
}

/// Where a scenario switches a table between on-demand and provisioned, the utilization at
/// which the two cost the same.
fn break_even_notes(
    baseline: &Workload,
    scenario: &Workload,
    book: &PriceBook,
    name: &str,
) -> Vec<String> {
    let mut out = Vec::new();
    for table in &scenario.tables {
        let Some(before) = baseline.tables.iter().find(|t| t.name == table.name) else {
            continue;
        };
        let differs = matches!(
            (before.capacity, table.capacity),
            (CapacityMode::OnDemand, CapacityMode::Provisioned(_))
                | (CapacityMode::Provisioned(_), CapacityMode::OnDemand)
        );
        if !differs {
            continue;
        }
        if let Some((reads, writes)) = engine::break_even_utilization(&book.primary, table.class) {
            let pct = |u: Decimal| {
                engine::percent(u).map_or_else(
                    || "(too large to show)".to_string(),
                    |p| p.round_dp(1).normalize().to_string(),
                )
            };
            out.push(format!(
                "scenario `{name}`, table `{}`: on-demand and provisioned capacity cost the same at {} % average utilization for reads and {} % for writes ({}); provisioned is cheaper above them",
                table.name,
                pct(reads),
                pct(writes),
                book.primary.id
            ));
        }
    }
    out
}

fn emit_comparison(
    comparison: &Comparison,
    format: Format,
    export_args: &ExportArgs,
    output: Option<&str>,
) -> Result<(), Error> {
    warn(&comparison.baseline, format, output);
    for s in &comparison.scenarios {
        warn(&s.estimate, format, output);
    }
    let text = match format {
        Format::Table => report::compare::table(comparison),
        Format::Json => report::compare::json(comparison),
        Format::Markdown => report::compare::markdown(comparison),
        Format::Csv | Format::Focus | Format::Html => {
            export(comparison, format, export_args, output)?
        }
    };
    output::emit(output, &text)
}

/// The most months a forecast spans (ten years).
const MAX_FORECAST_MONTHS: u32 = 120;

fn forecast(args: &crate::cli::ForecastArgs) -> Result<(), Error> {
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
    let start = match args.start.as_deref() {
        Some(text) => Period::parse(text).map_err(|why| {
            Error::usage(format!("--start: {why}")).help("Consider `--start 2027-01`.")
        })?,
        // The clock is read here, never in the engine.
        None => Period::containing(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
        ),
    };
    // The last month forecast must end before year 10000, as every period does.
    let last = i64::from(start.year)
        .saturating_mul(12)
        .saturating_add(i64::from(start.month))
        .saturating_add(i64::from(args.months))
        .saturating_sub(1);
    let limit = i64::from(crate::report::period::LAST.0)
        .saturating_mul(12)
        .saturating_add(i64::from(crate::report::period::LAST.1));
    if last > limit {
        return Err(Error::usage(format!(
            "--start {}-{:02} with --months {} runs past 9999-11, the last month ddbcost prices",
            start.year, start.month, args.months
        ))
        .help("Consider an earlier --start or fewer --months."));
    }
    let (text, file) = iac::workload_text(
        &args.workload,
        &args.template,
        args.settings.prices.as_deref(),
    )?;
    let file = file.as_str();
    let (workload, file_settings) = load::parse_workload(&text, file)?;
    if args.settings.strict && !workload.placeholders.is_empty() {
        return Err(Error::input(format!(
            "{} placeholder(s) still to fill: {}",
            workload.placeholders.len(),
            workload.placeholders.join(", ")
        ))
        .file(file)
        .help("Consider replacing each `TODO`, or running without `--strict`."));
    }
    let book = price_book(&workload, &args.settings, file)?;
    let cli = cli_settings(&args.settings)?;
    let settings = settings(&cli, &file_settings);
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
    let first = format!("{}-{:02}", start.year, start.month);
    for m in &mut f.months {
        freshness(&mut m.estimate, Some(&first), args.settings.max_price_age)?;
    }
    if let Some(fx) = fx_for(
        &book.primary.currency,
        cli.fx.as_ref(),
        file_settings.fx.as_ref(),
    )? {
        let mut total = Decimal::ZERO;
        for m in &mut f.months {
            m.estimate =
                engine::convert(m.estimate.clone(), &fx).map_err(|e| Error::from(e).file(file))?;
            total = total.checked_add(m.estimate.total).ok_or_else(|| {
                Error::input("the forecast total is too large to compute exactly")
            })?;
        }
        f.total = total;
        // The options' amounts in the same currency, at the same exact rate.
        if let Some(a) = &mut advice {
            for o in &mut a.options {
                for x in [&mut o.total, &mut o.total_lower, &mut o.unused_lower] {
                    *x = x.checked_mul(fx.rate).ok_or_else(|| {
                        Error::input("a commitment option is too large to convert exactly")
                    })?;
                }
            }
        }
    }
    let cur = f.months.first().map_or_else(
        || book.primary.currency.clone(),
        |m| m.estimate.currency.clone(),
    );
    let months = f.months.len();
    let text = match args.format {
        Format::Table => {
            let mut t = report::forecast::table(&f, &workload.name);
            if let Some(a) = &advice {
                t.push_str(&report::forecast::advice_table(a, &cur, months));
            }
            t
        }
        Format::Markdown => {
            let mut t = report::forecast::markdown(&f, &workload.name);
            if let Some(a) = &advice {
                t.push_str(&report::forecast::advice_markdown(a, &cur, months));
            }
            t
        }
        Format::Json => report::forecast::json(&f, &workload.name, advice.as_ref()),
        Format::Csv => {
            let (text, warnings) = report::forecast::finance(&f, args.excel)?;
            for w in warnings {
                tell_once("warning", &w);
            }
            text
        }
        Format::Focus => {
            let (text, skipped) = report::forecast::focus(&f);
            if skipped > 0 {
                crate::output::warn(&format!(
                    "warning: {skipped} line(s) whose usage is unknown have no cost and are not in the FOCUS export"
                ));
            }
            text
        }
        Format::Html => {
            if args.output.is_none() {
                crate::output::warn(
                    "note: an HTML report is meant for a file: consider --output forecast.html",
                );
            }
            report::forecast::html(&f, &workload.name)
        }
    };
    if !matches!(args.format, Format::Table | Format::Markdown | Format::Html) {
        for m in &f.months {
            for w in &m.estimate.warnings {
                tell_once("warning", w);
            }
        }
    }
    output::emit(args.output.as_deref(), &text)
}

fn diff(args: &DiffArgs) -> Result<(), Error> {
    check_options(args.format, &args.export, None)?;
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
    if args.template.usage.is_some()
        && ![&args.old, &args.new]
            .iter()
            .any(|f| iac::is_template(f, &args.template))
    {
        return Err(
            Error::usage("`--usage` completes a template, and both inputs are workloads")
                .help("Consider merging the usage into the workloads, or giving the templates."),
        );
    }
    let mut estimates = Vec::new();
    for file in [&args.old, &args.new] {
        let (workload, file_settings) = if iac::is_template(file, &args.template) {
            iac::workload(file, &args.template, args.settings.prices.as_deref())?
        } else {
            let text = load::read_file(file)?;
            load::parse_workload(&text, file)?
        };
        estimates.push(
            price(
                &workload,
                &file_settings,
                &args.settings,
                file,
                args.export.period.as_deref(),
            )?
            .0,
        );
    }
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
    let comparison = scenario::compare(
        old,
        vec![scenario::ScenarioInput {
            name: args.new.clone(),
            description: None,
            kind: ScenarioKind::Alternative,
            estimate: new,
            previous_total: None,
        }],
    )?;
    emit_comparison(
        &comparison,
        args.format,
        &args.export,
        args.output.as_deref(),
    )?;
    budget_gate(&comparison, fail_above, fail_increase)
}

/// Exit code 3 when the new total crosses a gate.
fn budget_gate(
    comparison: &Comparison,
    fail_above: Option<Decimal>,
    fail_increase: Option<Decimal>,
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
    if crossed.is_empty() {
        Ok(())
    } else {
        Err(Error::budget(crossed.join("; and ")))
    }
}

/// `prices show`: every price the engine can ask for, known or absent.
fn show_prices(name: &str) -> Result<(), Error> {
    let table = prices::resolve(name).map_err(|e| Error {
        kind: ErrorKind::Usage,
        ..e
    })?;
    let mut b = tabled::builder::Builder::default();
    b.push_record(["Price", &format!("{} ({})", table.id, table.currency)]);
    // Every price the engine can ask for, and the table's own specific entries (transfer to a
    // named region) after the default they refine: the same prices `ddbcost prices` counts.
    let mut keys = crate::model::PriceKey::all();
    let extras: Vec<crate::model::PriceKey> = table
        .prices
        .keys()
        .filter(|k| !keys.contains(k))
        .cloned()
        .collect();
    let at = keys
        .iter()
        .position(|k| *k == crate::model::PriceKey::InterRegionTransferGb(None))
        .map_or(keys.len(), |p| p.saturating_add(1));
    keys.splice(at..at, extras);
    let mut absent = 0usize;
    for key in &keys {
        let value = table.get(key).map_or_else(
            || {
                absent = absent.saturating_add(1);
                "absent".to_string()
            },
            |v| v.normalize().to_string(),
        );
        b.push_record([key.path().into_owned(), value]);
    }
    let mut t = b.build();
    t.with(tabled::settings::Style::rounded());

    crate::report::layout::fit(&mut t);
    let mut text = format!(
        "{t}
{} of {} prices known; effective {}; source: {}
",
        keys.len().saturating_sub(absent),
        keys.len(),
        table.effective,
        table.source
    );
    if absent > 0 {
        text.push_str("A workload that needs an absent price is refused. To fill them from AWS: `ddbcost prices import FILE --output-dir DIR`, then `--prices-dir DIR`.\n");
    }
    output::emit(None, &text)
}

fn list_prices(args: &PricesArgs) -> Result<(), Error> {
    match &args.action {
        Some(crate::cli::PricesAction::Import(import)) => return import::run(import),
        Some(crate::cli::PricesAction::Show(show)) => return show_prices(&show.table),
        Some(crate::cli::PricesAction::Diff(diff)) => return prices_diff::run(diff),
        None => {}
    }
    if matches!(args.format, Format::Focus | Format::Html) {
        return Err(Error::usage(
            "`prices` lists price tables as a table, JSON, CSV or Markdown, not FOCUS or HTML",
        )
        .help("Consider `--format table|json|csv|markdown`."));
    }
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
        Format::Table | Format::Markdown | Format::Focus | Format::Html => {
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
            if args.format == Format::Markdown {
                t.with(tabled::settings::Style::markdown());
            } else {
                t.with(tabled::settings::Style::rounded());

                crate::report::layout::fit(&mut t);
            }
            format!("{t}\n")
        }
    };
    output::emit(None, &text)
}
