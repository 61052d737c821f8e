//! `ddbcost allocate`: a bill split over tenants (or pattern labels) — the bill read as
//! `bill` reads it; the drivers from the consumed-capacity logs (`allocate::log`) and, for
//! bytes per tenant, from DynamoDB exports (read as `keys` reads them); every line split by
//! the driver that caused it (`allocate::bill`); rendered with each party's share and the
//! named remainders, shown to the minor unit so that the rows add up to the total.

use std::io::{BufRead, BufReader, Read};

use super::config::Run;
use crate::allocate::bill::{Allocation, By, Drivers, Measure, Money, Party, Unused};
use crate::allocate::log::{LogUsage, Tenancy};
use crate::allocate::split::to_minor_unit;
use crate::cli::{AllocateArgs, AllocateBy, AllocateFormat};
use crate::error::Error;
use crate::{bill, output};

/// DynamoDB's storage overhead per item (bytes), billed with the item's own.
const ITEM_OVERHEAD_BYTES: u64 = 100;

pub(super) fn run(args: &AllocateArgs, run: &Run) -> Result<(), Error> {
    let by = match args.by {
        AllocateBy::Tenant => By::Tenant,
        AllocateBy::Pattern => By::Pattern,
    };
    let tenancy = match (&args.tenant, by) {
        (Some(spec), _) => Some(Tenancy::parse(spec)?),
        (None, By::Pattern) => None,
        (None, By::Tenant) => {
            return Err(Error::usage("--by tenant needs --tenant ATTR=REGEX").help(
                "Consider `--tenant 'PK=ORG#([^#]+)'`, or `--by pattern` to split by the logs' `pattern` labels.",
            ));
        }
    };
    if by == By::Pattern && !args.exports.is_empty() {
        return Err(Error::usage(
            "--export gives bytes per tenant; --by pattern splits by the requests' labels",
        )
        .help("Consider `--by tenant` with --export, or dropping --export."));
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
    let mut drivers = Drivers::default();
    for (place, u) in &usage.by_place {
        let party = match by {
            By::Tenant => place.tenant.as_deref(),
            By::Pattern => place.pattern.as_deref(),
        };
        let m = Measure {
            read: u.read,
            write: u.write,
            bytes: rust_decimal::Decimal::ZERO,
        };
        drivers.add(&place.table, party, m)?;
    }
    if let Some(t) = &tenancy {
        let tables: Vec<String> = ledger.tables().into_iter().map(str::to_string).collect();
        for spec in &args.exports {
            for note in export_bytes(spec, t, &tables, &mut drivers)? {
                run.diagnostics.once("note", &note);
            }
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
    let text = match args.format {
        AllocateFormat::Table => table(&allocation, &currency, &period, false, args.top),
        AllocateFormat::Markdown => table(&allocation, &currency, &period, true, args.top),
        AllocateFormat::Json => json(&allocation, &currency, &period, args.top),
        AllocateFormat::Csv => csv(&allocation, &currency, &period)?,
    };
    output::emit(args.output.as_deref(), &text)
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
        let mut text = String::new();
        crate::confine::open(&manifest)
            .and_then(|mut f| f.read_to_string(&mut text))
            .map_err(|e| Error::input(format!("cannot read `{}`: {e}", manifest.display())))?;
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

/// One row of the summary: a party or a remainder, its exact money and its money shown.
struct Row {
    name: String,
    remainder: bool,
    exact: Money,
    shown: Money,
}

/// Exact amounts shown to `dp` places by largest remainder: (unblended, effective).
fn shown(money: &[Money], dp: u32) -> Vec<Money> {
    let unblended: Vec<_> = money.iter().map(|m| m.unblended).collect();
    let effective: Vec<_> = money.iter().map(|m| m.effective).collect();
    to_minor_unit(&unblended, dp)
        .into_iter()
        .zip(to_minor_unit(&effective, dp))
        .map(|(unblended, effective)| Money {
            unblended,
            effective,
        })
        .collect()
}

/// The rows in order — parties by unblended cost, highest first, then the remainders — with
/// their exact money and their money shown to the minor unit (largest remainder: the shown
/// rows add up to the shown total).
fn rows(a: &Allocation, dp: u32, top: Option<usize>) -> Vec<Row> {
    let mut tenants: Vec<(&String, &Money)> = a.tenants.iter().collect();
    tenants.sort_by(|x, y| y.1.unblended.cmp(&x.1.unblended).then(x.0.cmp(y.0)));
    let shown_one_by_one = top.unwrap_or(usize::MAX).min(tenants.len());
    let tail = tenants.split_off(shown_one_by_one);
    let mut rows: Vec<(String, bool, Money)> = tenants
        .into_iter()
        .map(|(n, m)| (n.clone(), false, *m))
        .collect();
    if !tail.is_empty() {
        let mut sum = Money::default();
        for (_, m) in &tail {
            // Within a decimal: every figure here is part of the bill's total.
            let _ = sum.add(**m);
        }
        rows.push((
            format!("({} other {}s)", tail.len(), a.by.noun()),
            false,
            sum,
        ));
    }
    rows.extend(
        a.remainders
            .iter()
            .filter(|(_, m)| !m.is_zero())
            .map(|(r, m)| (r.name(a.by).to_string(), true, *m)),
    );
    let exact: Vec<Money> = rows.iter().map(|r| r.2).collect();
    rows.into_iter()
        .zip(shown(&exact, dp))
        .map(|((name, remainder, exact), shown)| Row {
            name,
            remainder,
            exact,
            shown,
        })
        .collect()
}

fn rule(by: By, unused: bool) -> String {
    let noun = by.noun();
    let unused = if unused {
        " Provisioned capacity no logged request consumed is its own share."
    } else {
        ""
    };
    format!(
        "Each billed line of each table is split by what caused it: reads by read units, writes, streams and replicated writes by write units (the logs' `ConsumedCapacity`, table and indexes), storage, PITR and backups by bytes (an export); what no {noun} caused is a remainder.{unused} Exact to 10^-12 per line; shown rounded to the currency's minor unit by largest remainder, so the rows add up to the total."
    )
}

fn table(
    a: &Allocation,
    currency: &str,
    period: &str,
    markdown: bool,
    top: Option<usize>,
) -> String {
    let noun = a.by.noun();
    let mut b = tabled::builder::Builder::default();
    let title = if noun == "tenant" {
        "Tenant"
    } else {
        "Pattern"
    };
    b.push_record([title, "Unblended", "Effective"]);
    let cell = |s: &str| {
        if markdown {
            crate::report::markdown::cell(s)
        } else {
            crate::text::one_line(s).into_owned()
        }
    };
    let money = |d| crate::report::money::display(d, currency);
    for r in rows(a, crate::report::money::minor_digits(currency), top) {
        let name = if r.remainder {
            format!("(remainder) {}", r.name)
        } else {
            r.name
        };
        b.push_record([
            cell(&name),
            money(r.shown.unblended),
            money(r.shown.effective),
        ]);
    }
    b.push_record([
        if markdown { "**TOTAL**" } else { "TOTAL" }.to_string(),
        money(a.total.unblended),
        money(a.total.effective),
    ]);
    let mut t = b.build();
    let unused = a
        .remainders
        .contains_key(&crate::allocate::bill::Remainder::Unused);
    if markdown {
        t.with(tabled::settings::Style::markdown());
        return format!(
            "## The {period} bill in {currency}, split by {noun}\n\n{t}\n\n{}\n",
            rule(a.by, unused)
        );
    }
    t.with(tabled::settings::Style::rounded());
    format!(
        "ddbcost allocate: the {period} bill in {currency}, split by {noun}\n{t}\n{}\n",
        rule(a.by, unused)
    )
}

fn party_name(p: &Party, by: By) -> (String, bool) {
    match p {
        Party::Named(n) => (n.clone(), false),
        Party::Remainder(r) => (r.name(by).to_string(), true),
    }
}

fn json(a: &Allocation, currency: &str, period: &str, top: Option<usize>) -> String {
    let d = |x: rust_decimal::Decimal| serde_json::Value::String(x.normalize().to_string());
    let rows: Vec<serde_json::Value> = rows(a, crate::report::money::minor_digits(currency), top)
        .into_iter()
        .map(|r| {
            serde_json::json!({
                "name": r.name,
                "remainder": r.remainder,
                "unblended": d(r.exact.unblended),
                "effective": d(r.exact.effective),
                "unblended_rounded": d(r.shown.unblended),
                "effective_rounded": d(r.shown.effective),
            })
        })
        .collect();
    let lines: Vec<serde_json::Value> = a
        .lines
        .iter()
        .map(|l| {
            let parties: Vec<serde_json::Value> = l
                .parties
                .iter()
                .map(|(p, m)| {
                    let (name, remainder) = party_name(p, a.by);
                    serde_json::json!({"name": name, "remainder": remainder, "unblended": d(m.unblended), "effective": d(m.effective)})
                })
                .collect();
            serde_json::json!({
                "table": l.table,
                "region": l.region,
                "component": l.component.map(crate::engine::Component::name),
                "meter": l.meter,
                "unblended": d(l.money.unblended),
                "effective": d(l.money.effective),
                "parties": parties,
            })
        })
        .collect();
    let doc = serde_json::json!({
        "schema": "ddbcost.allocate/v1",
        "billing_period": period,
        "currency": currency,
        "by": a.by.noun(),
        "rows": rows,
        "lines": lines,
        "total": { "unblended": d(a.total.unblended), "effective": d(a.total.effective) },
    });
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}

/// One row per party per billed line; the rounded columns are rounded by largest remainder
/// over the whole file, so each adds up to the bill's total shown to the minor unit.
fn csv(a: &Allocation, currency: &str, period: &str) -> Result<String, Error> {
    let dp = crate::report::money::minor_digits(currency);
    let flat: Vec<(&crate::allocate::bill::LineSplit, &Party, Money)> = a
        .lines
        .iter()
        .flat_map(|l| l.parties.iter().map(move |(p, m)| (l, p, *m)))
        .collect();
    let exact: Vec<Money> = flat.iter().map(|f| f.2).collect();
    let rounded = shown(&exact, dp);
    let mut w = csv::Writer::from_writer(Vec::new());
    let fail = |e: csv::Error| Error::input(format!("cannot write the CSV: {e}"));
    w.write_record([
        "billing_period",
        "currency",
        "table",
        "region",
        "component",
        "meter",
        a.by.noun(),
        "remainder",
        "unblended_cost",
        "effective_cost",
        "unblended_cost_rounded",
        "effective_cost_rounded",
    ])
    .map_err(fail)?;
    for ((line, party, m), r) in flat.iter().zip(rounded) {
        let (name, remainder) = party_name(party, a.by);
        w.write_record([
            period,
            currency,
            &line.table,
            &line.region,
            line.component.map_or("", crate::engine::Component::name),
            &crate::text::one_line(&line.meter),
            &crate::text::one_line(&name),
            if remainder { "true" } else { "false" },
            &m.unblended.normalize().to_string(),
            &m.effective.normalize().to_string(),
            &r.unblended.to_string(),
            &r.effective.to_string(),
        ])
        .map_err(fail)?;
    }
    let bytes = w
        .into_inner()
        .map_err(|e| Error::input(format!("cannot write the CSV: {e}")))?;
    String::from_utf8(bytes).map_err(|e| Error::input(format!("cannot write the CSV: {e}")))
}
