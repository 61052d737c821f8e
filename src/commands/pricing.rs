//! The one pricing service of a run: which price book prices a workload (the bundled tables,
//! `--prices`, `--prices-dir`, `DDBCOST_PRICES`, the workload's `price_dirs`), under which
//! settings (the command line's over the file's), shown in which currency, and how fresh
//! its prices are. Every command that prices — `estimate`, `compare`, `diff`, `forecast`,
//! `advise`, `sweep`, `keys`, `init`, `prices diff` — prices through a `Pricing` built once
//! from its arguments and the run's configuration.

use rust_decimal::Decimal;

use super::config::Run;
use super::input::Input;
use crate::cli::{Gb, SettingsArgs, TemplateArgs};
use crate::engine::{self, Estimate};
use crate::error::{Error, ErrorKind};
use crate::load::{self, FxStated, SettingsOverrides, prices, quantity};
use crate::model::period::{self, Period};
use crate::model::{Fx, GbConvention, PriceBook, PriceTable, Settings, Workload};
use crate::size::samples::SampleCache;

/// The pricing inputs of a run, resolved, and the run they belong to.
pub(crate) struct Pricing<'r> {
    run: &'r Run,
    /// `--prices`: a bundled id or a file, over the workload's `prices:`.
    prices: Option<String>,
    /// `--prices-dir`, then `DDBCOST_PRICES`: searched before the workload's `price_dirs`.
    dirs: Vec<String>,
    /// The command line's settings, over the file's.
    cli: SettingsOverrides,
    strict: bool,
    max_age: Option<u32>,
}

impl<'r> Pricing<'r> {
    /// The service of a command that takes the settings options.
    ///
    /// # Errors
    /// A bad `--month-hours`, `--currency` or `--fx-*`.
    pub(crate) fn new(args: &SettingsArgs, run: &'r Run) -> Result<Self, Error> {
        Ok(Pricing {
            run,
            prices: args.prices.clone(),
            dirs: args
                .prices_dirs
                .iter()
                .chain(&run.env_price_dirs)
                .cloned()
                .collect(),
            cli: cli_settings(args)?,
            strict: args.strict,
            max_age: args.max_price_age,
        })
    }

    /// The service of a command, and the workload (or template) it prices: what `estimate`,
    /// `compare`, `forecast`, `advise` and `sweep` open with.
    ///
    /// # Errors
    /// As `new` and `Input::read`.
    pub(crate) fn open(
        workload: &str,
        template: &TemplateArgs,
        settings: &SettingsArgs,
        run: &'r Run,
    ) -> Result<(Self, Input<'r>), Error> {
        let pricing = Pricing::new(settings, run)?;
        let input = Input::read(workload, template, settings.prices.as_deref(), run)?;
        Ok((pricing, input))
    }

    /// The service at the default settings, with `prices` (`--prices`) and `dirs`
    /// (`--prices-dir`): `keys`, `init` and `prices diff`.
    pub(crate) fn defaults(prices: Option<String>, dirs: &[String], run: &'r Run) -> Self {
        Pricing {
            run,
            prices,
            dirs: dirs.iter().chain(&run.env_price_dirs).cloned().collect(),
            cli: SettingsOverrides::default(),
            strict: false,
            max_age: None,
        }
    }

    /// This service with `--prices` set to `id` (one region's table), with the same folders,
    /// settings and checks.
    pub(crate) fn with_prices(&self, id: String) -> Pricing<'r> {
        Pricing {
            run: self.run,
            prices: Some(id),
            dirs: self.dirs.clone(),
            cli: self.cli.clone(),
            strict: self.strict,
            max_age: self.max_age,
        }
    }

    /// The month's hours the command line states (`--month-hours`), if any.
    pub(crate) fn stated_month_hours(&self) -> Option<Decimal> {
        self.cli.month_hours
    }

    /// The settings an estimate runs under: the command line's, else the file's, else the
    /// defaults (730-hour month, binary GB, free tier off).
    pub(crate) fn settings(&self, file: &SettingsOverrides) -> Settings {
        Settings {
            month_hours: self
                .cli
                .month_hours
                .or(file.month_hours)
                .unwrap_or(Settings::default().month_hours),
            gb: self.cli.gb.or(file.gb).unwrap_or(GbConvention::Binary),
            free_tier: self.cli.free_tier.or(file.free_tier).unwrap_or(false),
        }
    }

    /// The conversion costs priced in `priced_in` are shown with (see `fx_for`).
    ///
    /// # Errors
    /// A currency with no rate to it.
    pub(crate) fn fx(
        &self,
        priced_in: &str,
        file: &SettingsOverrides,
    ) -> Result<Option<Fx>, Error> {
        fx_for(priced_in, self.cli.fx.as_ref(), file.fx.as_ref())
    }

    /// `--strict`: a workload with `TODO`s left is refused.
    ///
    /// # Errors
    /// The placeholders still to fill.
    pub(crate) fn check_strict(&self, workload: &Workload, file: &str) -> Result<(), Error> {
        if self.strict && !workload.placeholders.is_empty() {
            return Err(Error::input(format!(
                "{} placeholder(s) still to fill: {}",
                workload.placeholders.len(),
                workload.placeholders.join(", ")
            ))
            .file(file)
            .help("Consider replacing each `TODO` with the figure (rates, item sizes, item counts), or running without `--strict`."));
        }
        Ok(())
    }

    /// The price folders in the order they are searched: `--prices-dir`, then
    /// `DDBCOST_PRICES`, then the workload's `price_dirs:`.
    fn tables_in_dirs(&self, workload: &Workload) -> Result<Vec<PriceTable>, Error> {
        let mut found = Vec::new();
        for dir in self.dirs.iter().chain(&workload.price_dirs) {
            found.extend(prices::directory(dir)?);
        }
        Ok(found)
    }

    /// The price table a workload names (or `--prices`), plus the tables of its replica regions
    /// in the same currency (see `book_around`).
    ///
    /// # Errors
    /// No price table named, or one that cannot be found or read.
    pub(crate) fn book(&self, workload: &Workload, file: &str) -> Result<PriceBook, Error> {
        self.book_at(workload, file, file)
    }

    /// As `book`, for a workload named `file` in errors whose relative `prices:` path starts
    /// from `base`'s folder (a template's usage file).
    ///
    /// # Errors
    /// As `book`.
    pub(crate) fn book_at(
        &self,
        workload: &Workload,
        file: &str,
        base: &str,
    ) -> Result<PriceBook, Error> {
        let prices_arg = self.prices.as_deref();
        let from_dirs = self.tables_in_dirs(workload)?;
        let name = prices_arg.map(str::to_string).or_else(|| workload.prices.clone()).ok_or_else(|| {
        Error::usage(format!("no price table for `{file}`"))
            .help("Consider `--prices aws-us-east-1` (see `ddbcost prices`), or `prices:` in the workload.")
    })?;
        let in_dirs = from_dirs.iter().find(|t| t.id == name).cloned();
        // One rule for every path a workload names (`prices`, `price_dirs`, samples): relative to
        // the workload's own folder. `--prices` is the command line's: relative to where it runs.
        let name = match prices_arg {
            None if prices::is_path(&name) && std::path::Path::new(&name).is_relative() => {
                let folder = std::path::Path::new(base)
                    .parent()
                    .filter(|p| base != load::STDIN && !p.as_os_str().is_empty());
                folder.map_or(name.clone(), |b| b.join(&name).display().to_string())
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
        Self::around(primary, workload, &from_dirs)
    }

    /// `primary` and the tables of the other regions the workload's tables live in or replicate
    /// to, in `primary`'s currency: from the price folders first, then the bundled tables.
    ///
    /// # Errors
    /// An unreadable price folder.
    pub(crate) fn book_around(
        &self,
        primary: PriceTable,
        workload: &Workload,
    ) -> Result<PriceBook, Error> {
        let from_dirs = self.tables_in_dirs(workload)?;
        Self::around(primary, workload, &from_dirs)
    }

    fn around(
        primary: PriceTable,
        workload: &Workload,
        from_dirs: &[PriceTable],
    ) -> Result<PriceBook, Error> {
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

    /// Price tables older than a year get a note (in the report's warnings and on standard
    /// error); `--max-price-age DAYS` turns age past DAYS into an error. Age is counted to the
    /// first day of `--period`, else to the run's day.
    ///
    /// # Errors
    /// `--max-price-age` exceeded.
    pub(crate) fn freshness(
        &self,
        estimate: &mut Estimate,
        period: Option<Period>,
    ) -> Result<(), Error> {
        // Every table that priced a line: a replica's or a `region:` table may be older than
        // the workload's own.
        let tables: Vec<(String, String)> = estimate
            .price_tables()
            .map(|t| (t.id.clone(), t.effective.clone()))
            .collect();
        for note in self.age_notes(&tables, period)? {
            estimate
                .warnings
                .push(crate::engine::notice::Notice::Note(note));
        }
        Ok(())
    }

    /// `freshness` for a price book that prices no estimate (`usage`, `bill`): the notes go
    /// to standard error only.
    ///
    /// # Errors
    /// `--max-price-age` exceeded.
    pub(crate) fn book_freshness(
        &self,
        book: &PriceBook,
        period: Option<Period>,
    ) -> Result<(), Error> {
        let tables: Vec<(String, String)> = std::iter::once(&book.primary)
            .chain(&book.others)
            .map(|t| (t.id.clone(), t.effective.clone()))
            .collect();
        self.age_notes(&tables, period).map(|_| ())
    }

    /// The age check of `tables` (id, effective date): an error past `--max-price-age`, a
    /// note (said once on standard error, and returned) past a year.
    fn age_notes(
        &self,
        tables: &[(String, String)],
        period: Option<Period>,
    ) -> Result<Vec<String>, Error> {
        let max_age = self.max_age;
        let (reference, against) = match period {
            Some(p) => (p.first_day(), format!("the start of {p}")),
            None => (self.run.today, "today".to_string()),
        };
        let mut notes = Vec::new();
        for (id, effective_text) in tables {
            let Some(effective) = period::parse_date(effective_text) else {
                continue;
            };
            let age = reference.saturating_sub(effective);
            if let Some(max) = max_age
                && age > i64::from(max)
            {
                return Err(Error::input(format!(
                    "price table `{id}` took effect on {effective_text}, {age} days before {against}: more than --max-price-age {max}"
                ))
                .help("Consider importing current prices: `ddbcost prices import FILE --output-dir DIR`, then `--prices-dir DIR` (see docs/commands/prices.md)."));
            }
            if age > 365 {
                let note = format!(
                    "price table `{id}` took effect on {effective_text}, {age} days before {against}: AWS may have changed its prices since (`ddbcost prices import` reads the current price list)"
                );
                self.run.diagnostics.once("note", &note);
                notes.push(note);
            }
        }
        Ok(notes)
    }

    /// Prices a loaded workload: its price book, its settings, `--strict`, freshness, and the
    /// conversion to `--currency`; `period` is the month priced — for its own hours (672–744)
    /// unless `--month-hours` is given — and the one prices' age is counted to.
    ///
    /// # Errors
    /// Any error of the book, the engine, freshness or conversion, labelled with `file`.
    pub(crate) fn estimate(
        &self,
        workload: &Workload,
        file_settings: &SettingsOverrides,
        (file, base): (&str, &str),
        period: Option<Period>,
    ) -> Result<(Estimate, PriceBook), Error> {
        self.check_strict(workload, file)?;
        let book = self.book_at(workload, file, base)?;
        let mut settings = self.settings(file_settings);
        // A dated month is priced for its own hours, unless the command line says otherwise.
        if let Some(p) = period
            && self.cli.month_hours.is_none()
        {
            settings.month_hours = p.hours();
        }
        let mut estimate =
            engine::estimate(workload, &book, &settings).map_err(|e| Error::from(e).file(file))?;
        self.freshness(&mut estimate, period)?;
        if let Some(fx) = self.fx(&estimate.currency, file_settings)? {
            estimate = engine::convert(estimate, &fx).map_err(|e| Error::from(e).file(file))?;
        }
        Ok((estimate, book))
    }

    /// What going from `before` to `after` (named `file`) costs once, priced with `after`'s
    /// `book` and settings, in the run's currency.
    ///
    /// # Errors
    /// A price the change needs that the table lacks; a currency with no rate to it.
    pub(crate) fn one_time(
        &self,
        (before, after): (&Workload, &Workload),
        book: PriceBook,
        file_settings: &SettingsOverrides,
        file: &str,
    ) -> Result<Vec<engine::once::OneTime>, Error> {
        let settings = self.settings(file_settings);
        let book = match self.fx(&book.primary.currency, file_settings)? {
            Some(fx) => engine::convert_book(book, &fx).map_err(|e| Error::from(e).file(file))?,
            None => book,
        };
        engine::once::one_time(before, after, &book, &settings)
            .map_err(|e| Error::from(e).file(file))
    }

    /// A pricer of workload documents under `book` and the file's settings: what `advise` and
    /// `sweep` price every candidate and variant with.
    ///
    /// # Errors
    /// A currency with no rate to it.
    pub(crate) fn documents(
        &self,
        book: PriceBook,
        file_settings: &SettingsOverrides,
        (file, base): (&str, &str),
    ) -> Result<DocumentPricer<'r>, Error> {
        Ok(DocumentPricer {
            samples: &self.run.samples,
            settings: self.settings(file_settings),
            fx: self.fx(&book.primary.currency, file_settings)?,
            book,
            file: file.to_string(),
            base: base.to_string(),
        })
    }
}

/// What every candidate (or variant) is priced with: the baseline's price book, settings
/// and currency conversion. `Sync`: `sweep` shares one across its threads.
pub(crate) struct DocumentPricer<'r> {
    pub(crate) book: PriceBook,
    pub(crate) settings: Settings,
    fx: Option<Fx>,
    /// The workload's label in errors.
    pub(crate) file: String,
    /// The file relative paths start from.
    base: String,
    /// The run's sample reader.
    samples: &'r SampleCache,
}

impl DocumentPricer<'_> {
    /// The estimate of a workload document (labelled `label` in errors).
    ///
    /// # Errors
    /// A document the loader refuses, or one the engine cannot price.
    pub(crate) fn estimate(&self, doc: serde_json::Value, label: &str) -> Result<Estimate, Error> {
        self.price(&self.load(doc, label)?, label)
    }

    /// The workload a document holds (labelled `label` in errors).
    ///
    /// # Errors
    /// A document the loader refuses.
    pub(crate) fn load(&self, doc: serde_json::Value, label: &str) -> Result<Workload, Error> {
        load::workload_from_value(doc, &self.base, label, self.samples).map(|(w, _)| w)
    }

    /// The estimate of a loaded workload, converted as the run asks.
    ///
    /// # Errors
    /// A workload the engine cannot price, or a conversion out of range.
    pub(crate) fn price(&self, w: &Workload, label: &str) -> Result<Estimate, Error> {
        let e = engine::estimate(w, &self.book, &self.settings)
            .map_err(|e| Error::from(e).file(label))?;
        match &self.fx {
            Some(fx) => engine::convert(e, fx).map_err(|e| Error::from(e).file(label)),
            None => Ok(e),
        }
    }

    /// As `price` with the lines and total only (`engine::Detail::Totals`: no partition
    /// estimate or peak warning), and the line costs (those that have one, in order) before
    /// the conversion when the run converts: the figures the engine's own total was summed
    /// from.
    ///
    /// # Errors
    /// As `price`.
    pub(crate) fn price_with_costs(
        &self,
        w: &Workload,
        label: &str,
    ) -> Result<(Estimate, Option<Vec<Decimal>>), Error> {
        let e = engine::estimate_with(w, &self.book, &self.settings, engine::Detail::Totals)
            .map_err(|e| Error::from(e).file(label))?;
        match &self.fx {
            Some(fx) => {
                let before = e.line_items.iter().filter_map(|l| l.cost).collect();
                let e = engine::convert(e, fx).map_err(|e| Error::from(e).file(label))?;
                Ok((e, Some(before)))
            }
            None => Ok((e, None)),
        }
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
