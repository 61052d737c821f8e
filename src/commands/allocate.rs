//! `ddbcost allocate`: a bill split over tenants (or pattern labels) — the bill read as
//! `bill` reads it; the drivers from the consumed-capacity logs (`allocate::log`) and, for
//! bytes per tenant, from DynamoDB exports (read as `keys` reads them); every line split by
//! the driver that caused it (`allocate::bill`); rendered with each party's share and the
//! named remainders, shown to the minor unit so that the rows add up to the total.

use std::io::{BufRead, BufReader, Read};

use super::config::Run;
use crate::allocate::bill::{By, Drivers, Measure, Unused};
use crate::allocate::log::{LogUsage, Tenancy};
use crate::cli::{AllocateArgs, AllocateBy, AllocateFormat};
use crate::error::Error;
use crate::report::allocate::{csv, json, table};
use crate::{bill, output};

/// DynamoDB's storage overhead per item (bytes), billed with the item's own.
const ITEM_OVERHEAD_BYTES: u64 = 100;

pub(super) fn run(args: &AllocateArgs, run: &Run) -> Result<(), Error> {
    let by = match args.by {
        AllocateBy::Tenant => By::Tenant,
        AllocateBy::Pattern => By::Pattern,
    };
    // The design is read first (its `tenants:` name the tenant) and priced once the bill
    // says which month: for that month's own hours.
    let design = match &args.workload {
        Some(w) => {
            let (pricing, src) = super::pricing::Pricing::open(
                w,
                &crate::cli::TemplateArgs::default(),
                &crate::cli::SettingsArgs::default(),
                run,
            )?;
            let (workload, file_settings) = src.workload()?;
            Some((pricing, src, workload, file_settings))
        }
        None => None,
    };
    let from_design = design.as_ref().and_then(|(_, _, w, _)| {
        w.tables
            .iter()
            .find_map(|t| t.tenants.as_ref())
            .map(|t| format!("{}={}", t.key, t.pattern))
    });
    let tenancy = match (args.tenant.as_ref().or(from_design.as_ref()), by) {
        (Some(spec), _) => Some(Tenancy::parse(spec)?),
        (None, By::Pattern) => None,
        (None, By::Tenant) => {
            return Err(Error::usage("--by tenant needs --tenant ATTR=REGEX").help(
                "Consider `--tenant 'PK=ORG#([^#]+)'` (or `--workload W` whose table states `tenants:`), or `--by pattern` to split by the logs' `pattern` labels.",
            ));
        }
    };
    if args.athena_sql {
        let query = crate::allocate::sql::Query {
            table: &args.athena_table,
            column: &args.athena_column,
            tenancy: tenancy.as_ref(),
            dialect: match args.sql_dialect {
                crate::cli::SqlDialect::Athena => crate::allocate::sql::Dialect::Athena,
                crate::cli::SqlDialect::Duckdb => crate::allocate::sql::Dialect::DuckDb,
            },
        };
        return output::emit(args.output.as_deref(), &query.sql()?);
    }
    if by == By::Pattern && !(args.exports.is_empty() && args.insights.is_empty()) {
        return Err(Error::usage(
            "--export and --insights measure tenants; --by pattern splits by the requests' labels",
        )
        .help("Consider `--by tenant` with them, or dropping them."));
    }
    let ledger = bill::read_all(&args.bills, args.period.map(|p| p.to_string()))?;
    for n in &ledger.notes {
        run.diagnostics.once("note", n);
    }
    let never = Tenancy::parse("_=$^").ok();
    let Some(reading) = tenancy.as_ref().or(never.as_ref()) else {
        return Err(Error::input("the empty tenancy did not compile"));
    };
    let mut usage = LogUsage::default();
    for file in &args.logs {
        read_log(file, reading, &mut usage)?;
    }
    let mut drivers = Drivers::from_log(&usage, by)?;
    if let Some(t) = &tenancy {
        let tables: Vec<String> = ledger.tables().into_iter().map(str::to_string).collect();
        for spec in &args.exports {
            for note in export_bytes(spec, t, &tables, &mut drivers)? {
                run.diagnostics.once("note", &note);
            }
        }
        for spec in &args.insights {
            let note = insights(spec, t, &tables, &mut drivers)?;
            run.diagnostics.once("note", &note);
        }
    }
    let unused = if args.spread_unused {
        Unused::Spread
    } else {
        Unused::Keep
    };
    let allocation = crate::allocate::bill::allocate(&ledger, &drivers, by, unused)?;
    let currency = ledger.currency.clone().unwrap_or_default();
    let period = ledger.period.clone().unwrap_or_default();
    let month = ledger
        .period
        .as_deref()
        .and_then(|p| crate::model::period::Period::parse(p).ok());
    let drift = match &design {
        Some((pricing, src, w, file_settings)) => {
            let (e, _) = pricing.estimate(w, file_settings, src.at(), month)?;
            Some(crate::allocate::drift::drift(&usage, w, &e))
        }
        None => None,
    };
    let d = drift.as_deref();
    let text = match args.format {
        AllocateFormat::Table => {
            table(&allocation, &currency, &period, false, args.top)
                + &drift_table(d, &currency, false)
        }
        AllocateFormat::Markdown => {
            table(&allocation, &currency, &period, true, args.top)
                + &drift_table(d, &currency, true)
        }
        AllocateFormat::Json => json(&allocation, &currency, &period, args.top, d),
        AllocateFormat::Csv => csv(&allocation, &currency, &period)?,
        AllocateFormat::Html => {
            crate::report::allocate::html(&allocation, &currency, &period, args.top)
        }
        AllocateFormat::Focus => {
            crate::report::focus_allocated::render(&allocation, &currency, &period)?
        }
    };
    output::emit(args.output.as_deref(), &text)
}

/// The patterns against their design, as a table (or Markdown) after the split.
fn drift_table(
    drift: Option<&[crate::allocate::drift::Drift]>,
    currency: &str,
    markdown: bool,
) -> String {
    let Some(drift) = drift else {
        return String::new();
    };
    let q = |d: Option<rust_decimal::Decimal>| {
        d.map(crate::report::money::quantity).unwrap_or_default()
    };
    let mut b = tabled::builder::Builder::default();
    b.push_record([
        "Table",
        "Pattern",
        "Requests",
        "Units/request",
        "Designed",
        "Δ /month",
        "What moved",
    ]);
    for x in drift {
        b.push_record([
            crate::text::one_line(&x.table).into_owned(),
            crate::text::one_line(&x.pattern).into_owned(),
            x.requests.to_string(),
            q(x.measured),
            q(x.designed),
            x.monthly_delta
                .map(|d| crate::report::money::display(d, currency))
                .unwrap_or_default(),
            x.verdict.to_string(),
        ]);
    }
    let mut t = b.build();
    let rule = "Units a request: measured from `ConsumedCapacity` (reads on the table and its indexes, writes on the table), against the design's rules; Δ /month is the pattern's designed cost on that line × (measured ÷ designed − 1).";
    if markdown {
        t.with(tabled::settings::Style::markdown());
        format!("\n### Patterns against the design\n\n{t}\n\n{rule}\n")
    } else {
        t.with(tabled::settings::Style::rounded());
        format!("Patterns against the design\n{t}\n{rule}\n")
    }
}

fn read_log(file: &str, tenancy: &Tenancy, usage: &mut LogUsage) -> Result<(), Error> {
    let path = std::path::Path::new(file);
    crate::confine::check(path)?;
    let f = crate::confine::open(path).map_err(|e| {
        crate::confine::refusal(&e, file).unwrap_or_else(|| {
            Error::input(format!("cannot read `{file}`: {e}"))
                .file(file)
                .help("Consider the path of an application log (JSON Lines, plain or .gz).")
        })
    })?;
    let mut r = BufReader::with_capacity(1 << 18, f);
    let gzip = r
        .fill_buf()
        .map_err(|e| Error::input(format!("cannot read `{file}`: {e}")).file(file))?
        .starts_with(&[0x1f, 0x8b]);
    let reader: Box<dyn Read> = if gzip {
        Box::new(flate2::read::MultiGzDecoder::new(r))
    } else {
        Box::new(r)
    };
    crate::allocate::log::read(
        BufReader::with_capacity(1 << 18, reader),
        file,
        tenancy,
        usage,
    )
}

/// Whether `s` can be a DynamoDB table name (3–255 of `a-z A-Z 0-9 _ . -`).
fn table_name(s: &str) -> bool {
    (3..=255).contains(&s.len())
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
}

/// The table an export belongs to: `TABLE=PATH`, else its `manifest-summary.json`'s
/// `tableArn`, else the bill's only table.
fn export_table<'a>(spec: &'a str, tables: &[String]) -> Result<(String, &'a str), Error> {
    if let Some((t, path)) = spec.split_once('=').filter(|(t, _)| table_name(t)) {
        return Ok((t.to_string(), path));
    }
    let manifest = std::path::Path::new(spec).join("manifest-summary.json");
    if crate::confine::is_file(&manifest) {
        let text = crate::bounded::read_document(&manifest, &manifest.display().to_string())?;
        let arn = serde_json::from_str::<serde_json::Value>(&text)
            .ok()
            .and_then(|v| {
                v.get("tableArn")
                    .and_then(|a| a.as_str())
                    .map(str::to_string)
            });
        if let Some(t) = arn.as_deref().and_then(crate::bill::map::table_of) {
            return Ok((t.to_string(), spec));
        }
    }
    match tables {
        [only] => Ok((only.clone(), spec)),
        _ => Err(Error::usage(format!(
            "--export `{spec}`: which table's export is it? The bill has {} tables",
            tables.len()
        ))
        .help("Consider `--export TABLE=PATH` (an export folder with its manifest-summary.json names its table by itself).")),
    }
}

/// One Contributor Insights report's top keys as the drivers of its table's reads and
/// writes, unless the logs measure that table; the note that says which.
fn insights(
    spec: &str,
    tenancy: &Tenancy,
    tables: &[String],
    drivers: &mut Drivers,
) -> Result<String, Error> {
    let (table, file) = match spec.split_once('=').filter(|(t, _)| table_name(t)) {
        Some((t, f)) => (t.to_string(), f),
        None => match tables {
            [only] => (only.clone(), spec),
            _ => {
                return Err(Error::usage(format!(
                    "--insights `{spec}`: which table's report is it? The bill has {} tables",
                    tables.len()
                ))
                .help("Consider `--insights TABLE=FILE`."));
            }
        },
    };
    let text = crate::bounded::read_document(std::path::Path::new(file), file)?;
    crate::allocate::insights::apply(&text, file, &table, tenancy, drivers)
}

/// Bytes per tenant of one export, added to `drivers`; notes on what it could not count.
fn export_bytes(
    spec: &str,
    tenancy: &Tenancy,
    tables: &[String],
    drivers: &mut Drivers,
) -> Result<Vec<String>, Error> {
    let (table, path) = export_table(spec, tables)?;
    let files = crate::size::scan::expand(&[path.to_string()])?;
    let layout = crate::keys::summary::Layout {
        partition: tenancy.attribute.clone(),
        ..crate::keys::summary::Layout::default()
    };
    let options = crate::size::scan::ScanOptions::default();
    let summary = crate::keys::items::count_items(&files, &options, &layout)?;
    let overflow = || Error::input(format!("the bytes of `{path}` past what a count holds"));
    let mut notes = Vec::new();
    if let Some(key) = summary.attributes.first() {
        for (value, c) in key.counter.iter() {
            let value = String::from_utf8_lossy(value);
            let bytes = ITEM_OVERHEAD_BYTES
                .checked_mul(c.items)
                .and_then(|o| o.checked_add(c.bytes))
                .and_then(|b| b.checked_add(c.lsi_bytes))
                .ok_or_else(overflow)?;
            let m = Measure {
                bytes: bytes.into(),
                ..Measure::default()
            };
            drivers.add(&table, tenancy.of(&value).as_deref(), m)?;
        }
        if key.items_without > 0 {
            notes.push(format!(
                "{} item(s) of `{path}` lack `{}`: their bytes are not counted, and table `{table}`'s storage is split by the items that have it",
                key.items_without, tenancy.attribute
            ));
        }
    }
    if summary.bad > 0 {
        notes.push(format!(
            "{} item(s) of `{path}` could not be read and are not counted",
            summary.bad
        ));
    }
    drivers.bytes_of.insert(table);
    Ok(notes)
}
