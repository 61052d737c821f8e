//! `ddbcost allocate`'s views: each party's share and the named remainders, shown to the
//! currency's minor unit by largest remainder so that the rows add up to the total (table,
//! Markdown, JSON with every line's split, and CSV with a row per party per billed line).

use crate::allocate::bill::{Allocation, By, Money, Party};
use crate::allocate::split::to_minor_unit;
use crate::error::Error;

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

pub(crate) fn table(
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

pub(crate) fn json(
    a: &Allocation,
    currency: &str,
    period: &str,
    top: Option<usize>,
    drift: Option<&[crate::allocate::drift::Drift]>,
) -> String {
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
                .map(|share| {
                    let (p, m) = (&share.party, &share.money);
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
    let mut doc = doc;
    if let Some(drift) = drift {
        let rows: Vec<serde_json::Value> = drift
            .iter()
            .map(|x| {
                serde_json::json!({
                    "table": x.table,
                    "pattern": x.pattern,
                    "requests": x.requests,
                    "units_per_request": x.measured.map(d),
                    "designed_units_per_request": x.designed.map(d),
                    "monthly_delta": x.monthly_delta.map(d),
                    "verdict": x.verdict,
                })
            })
            .collect();
        if let Some(o) = doc.as_object_mut() {
            o.insert("patterns".to_string(), serde_json::Value::Array(rows));
        }
    }
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}

/// One row per party per billed line; the rounded columns are rounded by largest remainder
/// over the whole file, so each adds up to the bill's total shown to the minor unit.
pub(crate) fn csv(a: &Allocation, currency: &str, period: &str) -> Result<String, Error> {
    let dp = crate::report::money::minor_digits(currency);
    let flat: Vec<(&crate::allocate::bill::LineSplit, &Party, Money)> = a
        .lines
        .iter()
        .flat_map(|l| l.parties.iter().map(move |s| (l, &s.party, s.money)))
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

/// A self-contained page: the costliest tenants (ten unless `--top` says otherwise) as
/// bars with the rest summed, and every row with its exact and shown money.
pub(crate) fn html(a: &Allocation, currency: &str, period: &str, top: Option<usize>) -> String {
    use super::bill::esc;
    let dp = crate::report::money::minor_digits(currency);
    let noun = a.by.noun();
    let chart_rows = rows(a, dp, Some(top.unwrap_or(10)));
    let bars: Vec<(String, rust_decimal::Decimal)> = chart_rows
        .iter()
        .filter(|r| !r.remainder)
        .map(|r| (r.name.clone(), r.exact.unblended))
        .collect();
    let chart = super::charts::bars(
        &format!("The costliest {noun}s (unblended)"),
        &bars,
        currency,
    );
    let mut body = String::new();
    for r in rows(a, dp, top) {
        let name = if r.remainder {
            format!("(remainder) {}", r.name)
        } else {
            r.name.clone()
        };
        body.push_str(&format!(
            "<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>\n",
            esc(&name),
            esc(&crate::report::money::display(r.shown.unblended, currency)),
            esc(&crate::report::money::display(r.shown.effective, currency)),
        ));
    }
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>ddbcost — the bill by {noun}</title>\n<style>body {{ font-family: -apple-system, \"Segoe UI\", Helvetica, Arial, sans-serif; margin: 2rem auto; padding: 0 1rem; max-width: 1100px; color: #222; }} table {{ border-collapse: collapse; display: block; overflow-x: auto; max-width: 100%; font-size: 0.9rem; }} th, td {{ border-bottom: 1px solid #ddd; padding: 0.3rem 0.5rem; text-align: left; }} td.n {{ text-align: right; }} svg {{ max-width: 100%; height: auto; }} .meta {{ color: #555; font-size: 0.9rem; }} h1, p {{ overflow-wrap: anywhere; }}</style>\n</head>\n<body>\n<h1>The {} bill in {}, by {noun}</h1>\n{chart}\n<table>\n<tr><th>{}</th><th>Unblended</th><th>Effective</th></tr>\n{body}<tr><th>TOTAL</th><th class=\"n\">{}</th><th class=\"n\">{}</th></tr>\n</table>\n<p class=\"meta\">{}</p>\n</body>\n</html>\n",
        esc(period),
        esc(currency),
        if noun == "tenant" {
            "Tenant"
        } else {
            "Pattern"
        },
        esc(&crate::report::money::display(a.total.unblended, currency)),
        esc(&crate::report::money::display(a.total.effective, currency)),
        esc(&rule(
            a.by,
            a.remainders
                .contains_key(&crate::allocate::bill::Remainder::Unused)
        )),
    )
}
