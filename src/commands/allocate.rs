//! `ddbcost allocate`: a bill split over tenants — the bill read as `bill` reads it, the
//! consumed-capacity logs read for the drivers (`allocate::log`), every line split by the
//! driver that caused it (`allocate::bill`), rendered with each tenant's share and the named
//! remainders, shown to the cent so that the rows add up to the total.

use std::io::{BufRead, BufReader, Read};

use super::config::Run;
use crate::allocate::bill::{Allocation, Money};
use crate::allocate::log::{LogUsage, Tenancy};
use crate::allocate::split::to_minor_unit;
use crate::cli::{AllocateArgs, AllocateFormat};
use crate::error::Error;
use crate::{bill, output};

pub(super) fn run(args: &AllocateArgs, run: &Run) -> Result<(), Error> {
    let tenancy = Tenancy::parse(&args.tenant)?;
    let ledger = bill::read_all(&args.bills, args.period.map(|p| p.to_string()))?;
    for n in &ledger.notes {
        run.diagnostics.once("note", n);
    }
    let mut usage = LogUsage::default();
    for file in &args.logs {
        read_log(file, &tenancy, &mut usage)?;
    }
    let allocation = crate::allocate::bill::allocate(&ledger, &usage)?;
    let currency = ledger.currency.clone().unwrap_or_default();
    let period = ledger.period.clone().unwrap_or_default();
    let text = match args.format {
        AllocateFormat::Table => table(&allocation, &currency, &period),
        AllocateFormat::Json => json(&allocation, &currency, &period),
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

/// The rows in order — tenants by unblended cost, highest first, then the remainders — with
/// their exact money and their money shown to the cent (largest remainder: the shown rows
/// add up to the shown total).
fn rows(a: &Allocation, dp: u32) -> Vec<(String, bool, Money, Money)> {
    let mut tenants: Vec<(&String, &Money)> = a.tenants.iter().collect();
    tenants.sort_by(|x, y| y.1.unblended.cmp(&x.1.unblended).then(x.0.cmp(y.0)));
    let mut rows: Vec<(String, bool, Money)> = tenants
        .into_iter()
        .map(|(n, m)| (n.clone(), false, *m))
        .collect();
    rows.extend(
        a.remainders
            .iter()
            .filter(|(_, m)| !m.unblended.is_zero() || !m.effective.is_zero())
            .map(|(r, m)| (r.name().to_string(), true, *m)),
    );
    let unblended: Vec<_> = rows.iter().map(|r| r.2.unblended).collect();
    let effective: Vec<_> = rows.iter().map(|r| r.2.effective).collect();
    let (ru, re) = (to_minor_unit(&unblended, dp), to_minor_unit(&effective, dp));
    rows.into_iter()
        .zip(ru.into_iter().zip(re))
        .map(|((n, rem, m), (u, e))| {
            (
                n,
                rem,
                m,
                Money {
                    unblended: u,
                    effective: e,
                },
            )
        })
        .collect()
}

fn table(a: &Allocation, currency: &str, period: &str) -> String {
    let mut b = tabled::builder::Builder::default();
    b.push_record(["Tenant", "Unblended", "Effective"]);
    for (name, remainder, _, shown) in rows(a, crate::report::money::minor_digits(currency)) {
        let name = if remainder {
            format!("(remainder) {name}")
        } else {
            crate::text::one_line(&name).into_owned()
        };
        b.push_record([
            name,
            crate::report::money::display(shown.unblended, currency),
            crate::report::money::display(shown.effective, currency),
        ]);
    }
    b.push_record([
        "TOTAL".to_string(),
        crate::report::money::display(a.total.unblended, currency),
        crate::report::money::display(a.total.effective, currency),
    ]);
    let mut t = b.build();
    t.with(tabled::settings::Style::rounded());
    format!(
        "ddbcost allocate: the {period} bill in {currency}, split by tenant\n{t}\nEach billed line of each table is split by what caused it, from the consumed-capacity logs: reads by read units, writes by write units; what no tenant caused is a remainder. Exact to 10^-12 per line; shown rounded to the currency's minor unit by largest remainder, so the rows add up to the total.\n"
    )
}

fn json(a: &Allocation, currency: &str, period: &str) -> String {
    let d = |x: rust_decimal::Decimal| serde_json::Value::String(x.normalize().to_string());
    let rows: Vec<serde_json::Value> = rows(a, crate::report::money::minor_digits(currency))
        .into_iter()
        .map(|(name, remainder, exact, shown)| {
            serde_json::json!({
                "name": name,
                "remainder": remainder,
                "unblended": d(exact.unblended),
                "effective": d(exact.effective),
                "unblended_rounded": d(shown.unblended),
                "effective_rounded": d(shown.effective),
            })
        })
        .collect();
    let doc = serde_json::json!({
        "schema": "ddbcost.allocate/v1",
        "billing_period": period,
        "currency": currency,
        "rows": rows,
        "total": { "unblended": d(a.total.unblended), "effective": d(a.total.effective) },
    });
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}
