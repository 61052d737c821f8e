//! `ddbcost reconcile`'s report: per table (or the account), region, component and meter the
//! estimated quantity and cost beside the billed quantity, unblended and effective cost, the
//! variance in money and percent, and its cause in words; then the totals, the billed side
//! adding up exactly to the bill's DynamoDB total. Exact in JSON and CSV, rounded to the
//! currency's minor unit in the table and Markdown.

use std::fmt::Write as _;

use rust_decimal::Decimal;
use serde_json::json;

use super::money;
use crate::bill::ledger::Ledger;
use crate::bill::reconcile::{Cause, Reconciliation, Row, Shows};

fn pct(x: Decimal) -> String {
    format!(
        "{} %",
        x.checked_mul(Decimal::ONE_HUNDRED)
            .unwrap_or_default()
            .round_dp(1)
            .normalize()
    )
}

/// The cause in words.
pub(crate) fn cause(row: &Row) -> String {
    let q = |d: Decimal| money::quantity(d);
    match &row.cause {
        Cause::Matches => "matches".to_string(),
        Cause::Quantity { rate_differs } => {
            let e = row.estimated.as_ref().map_or(Decimal::ZERO, |e| e.quantity);
            let b = row.billed.as_ref().map_or(Decimal::ZERO, |b| b.amount);
            let share = (!e.is_zero())
                .then(|| b.checked_sub(e).and_then(|d| d.checked_div(e)))
                .flatten()
                .map_or_else(String::new, |s| format!(" ({})", pct(s)));
            format!(
                "quantity: billed {}, estimated {}{share}{}",
                q(b),
                q(e),
                if *rate_differs { "; the rate differs too" } else { "" }
            )
        }
        Cause::Rate { below: true, shows } => match shows {
            Shows::Reservation => "rate below list: reserved capacity covered part of it".to_string(),
            Shows::SavingsPlan => "rate below list: a savings plan covered part of it".to_string(),
            Shows::Nothing => "rate below list: a discount, private rate or free tier (the bill shows no commitment)".to_string(),
        },
        Cause::Rate { below: false, .. } => {
            "rate above list: the price table may be out of date (`ddbcost prices import`)".to_string()
        }
        Cause::NotInWorkload => "billed, absent from the workload".to_string(),
        Cause::TableNotInWorkload => "table billed, not in the workload".to_string(),
        Cause::TableNotBilled => "table in the workload, not billed".to_string(),
        Cause::NotBilled => "estimated, not billed".to_string(),
        Cause::Apart => "kept apart: not estimated".to_string(),
        Cause::Account => "the account's".to_string(),
    }
}

const HEAD: [&str; 12] = [
    "Table",
    "Region",
    "Component",
    "Meter",
    "Est. quantity",
    "Estimated",
    "Billed quantity",
    "Billed",
    "Effective",
    "Variance",
    "%",
    "Cause",
];

fn cells(r: &Row, cur: &str) -> Vec<String> {
    let e = r.estimated.as_ref();
    let b = r.billed.as_ref();
    let dash = || "—".to_string();
    // The names are the bill's: shown on one line, control characters escaped.
    let shown = |s: &str| crate::text::one_line(s).into_owned();
    vec![
        r.key
            .table
            .as_deref()
            .map_or_else(|| "(account)".to_string(), shown),
        shown(&r.key.region),
        shown(&r.key.component),
        shown(&r.key.meter),
        e.map_or_else(dash, |e| money::quantity(e.quantity)),
        e.map_or_else(dash, |e| {
            let mut s = money::display(e.cost, cur);
            if e.unknown > 0 {
                s.push_str(" + unknown");
            }
            s
        }),
        b.map_or_else(dash, |b| money::quantity(b.amount)),
        b.map_or_else(dash, |b| money::display(b.unblended, cur)),
        b.map_or_else(dash, |b| money::display(b.effective, cur)),
        money::display(r.variance(), cur),
        r.share().map_or_else(String::new, pct),
        cause(r),
    ]
}

fn currency(l: &Ledger) -> &str {
    l.currency.as_deref().unwrap_or("USD")
}

fn header(rec: &Reconciliation, l: &Ledger, workload: &str) -> String {
    format!(
        "ddbcost reconcile: {workload} against the {} bill ({} h), {}",
        l.period.as_deref().unwrap_or("?"),
        rec.hours.normalize(),
        currency(l)
    )
}

fn totals(rec: &Reconciliation, cur: &str) -> Vec<String> {
    let variance = rec
        .billed
        .unblended
        .checked_sub(rec.estimated)
        .unwrap_or_default();
    vec![
        "TOTAL".to_string(),
        String::new(),
        String::new(),
        String::new(),
        String::new(),
        money::display(rec.estimated, cur),
        String::new(),
        money::display(rec.billed.unblended, cur),
        money::display(rec.billed.effective, cur),
        money::display(variance, cur),
        (!rec.estimated.is_zero())
            .then(|| variance.checked_div(rec.estimated))
            .flatten()
            .map_or_else(String::new, pct),
        String::new(),
    ]
}

fn footer(l: &Ledger) -> String {
    format!(
        "Estimated for the billing period's hours; quantities in the bill's units (request units, unit-hours, GB-months). Billed = unblended cost; variance = billed − estimated. The billed column adds up to the bill's DynamoDB total exactly ({} rows read: {} DynamoDB, {} of other services skipped). Rounding: {}.\n",
        l.rows_read,
        l.total.rows,
        l.other_services,
        money::policy(currency(l))
    )
}

pub(crate) fn table(rec: &Reconciliation, l: &Ledger, workload: &str) -> String {
    let cur = currency(l);
    let mut b = tabled::builder::Builder::default();
    b.push_record(HEAD);
    for r in &rec.rows {
        b.push_record(cells(r, cur));
    }
    b.push_record(totals(rec, cur));
    let mut t = b.build();
    t.with(tabled::settings::Style::rounded());
    t.modify(
        tabled::settings::object::Columns::new(4..11),
        tabled::settings::Alignment::right(),
    );
    format!("{}\n{t}\n{}", header(rec, l, workload), footer(l))
}

pub(crate) fn markdown(rec: &Reconciliation, l: &Ledger, workload: &str) -> String {
    let cur = currency(l);
    let mut rows: Vec<Vec<String>> = rec.rows.iter().map(|r| cells(r, cur)).collect();
    rows.push(totals(rec, cur));
    let right: Vec<bool> = (0..HEAD.len()).map(|i| (4..11).contains(&i)).collect();
    let mut out = format!(
        "## {}\n\n{}",
        super::markdown::cell(&header(rec, l, workload)),
        super::markdown::table(&HEAD, &right, &rows)
    );
    let _ = write!(out, "\n_{}_\n", footer(l).trim_end());
    out
}

const TEMPLATE: &str = include_str!("reconcile.html");

/// The page: the rows, and per table (and the account) its estimate against the bill, per
/// component, as paired bars.
pub(crate) fn html(
    rec: &Reconciliation,
    l: &Ledger,
    workload: &str,
) -> Result<String, crate::error::Error> {
    use minijinja::{Environment, Value, context};
    let cur = currency(l);
    let mut rows: Vec<Vec<String>> = rec.rows.iter().map(|r| cells(r, cur)).collect();
    rows.push(totals(rec, cur));
    let mut per: std::collections::BTreeMap<String, Vec<(String, Decimal, Decimal)>> =
        std::collections::BTreeMap::new();
    for r in &rec.rows {
        let owner = r
            .key
            .table
            .clone()
            .unwrap_or_else(|| "(account)".to_string());
        let e = r.estimated.as_ref().map_or(Decimal::ZERO, |e| e.cost);
        let b = r.billed.as_ref().map_or(Decimal::ZERO, |b| b.unblended);
        let items = per.entry(owner).or_default();
        let name = r.key.component.clone();
        match items.iter_mut().find(|(n, _, _)| *n == name) {
            Some(item) => {
                item.1 = item.1.checked_add(e).unwrap_or(item.1);
                item.2 = item.2.checked_add(b).unwrap_or(item.2);
            }
            None => items.push((name, e, b)),
        }
    }
    let charts: Vec<Value> = per
        .iter()
        .map(|(owner, items)| {
            Value::from_safe_string(super::charts::paired(
                &format!("{}: estimated and billed", super::html::plain(owner)),
                items,
                cur,
            ))
        })
        .collect();
    let mut env = Environment::new();
    env.set_auto_escape_callback(|_| minijinja::AutoEscape::Html);
    let rendered = env.add_template("reconcile", TEMPLATE).and_then(|()| {
        env.get_template("reconcile")?.render(context! {
            title => "Estimate against the bill",
            heading => header(rec, l, workload),
            header => HEAD,
            rows => rows,
            charts => charts,
            footer => footer(l),
        })
    });
    rendered.map_err(|e| super::page_error(&e))
}

pub(crate) fn csv(rec: &Reconciliation, l: &Ledger) -> String {
    let mut w = ::csv::Writer::from_writer(Vec::new());
    let _ = w.write_record([
        "table",
        "region",
        "component",
        "meter",
        "estimated_quantity",
        "estimated_cost",
        "billed_quantity",
        "billed_unblended_cost",
        "billed_effective_cost",
        "variance",
        "variance_share",
        "cause",
        "currency",
        "billing_period",
    ]);
    let d = |x: Decimal| x.normalize().to_string();
    for r in &rec.rows {
        let e = r.estimated.as_ref();
        let b = r.billed.as_ref();
        let _ = w.write_record([
            r.key.table.clone().unwrap_or_default(),
            r.key.region.clone(),
            r.key.component.clone(),
            r.key.meter.clone(),
            e.map(|e| d(e.quantity)).unwrap_or_default(),
            e.map(|e| d(e.cost)).unwrap_or_default(),
            b.map(|b| d(b.amount)).unwrap_or_default(),
            b.map(|b| d(b.unblended)).unwrap_or_default(),
            b.map(|b| d(b.effective)).unwrap_or_default(),
            d(r.variance()),
            r.share().map(d).unwrap_or_default(),
            cause(r),
            currency(l).to_string(),
            l.period.clone().unwrap_or_default(),
        ]);
    }
    String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
}

fn cause_code(c: &Cause) -> &'static str {
    match c {
        Cause::Matches => "matches",
        Cause::Quantity { .. } => "quantity",
        Cause::Rate { .. } => "rate",
        Cause::NotInWorkload => "not-in-workload",
        Cause::TableNotInWorkload => "table-not-in-workload",
        Cause::TableNotBilled => "table-not-billed",
        Cause::NotBilled => "not-billed",
        Cause::Apart => "apart",
        Cause::Account => "account",
    }
}

/// The JSON document, with the one-time work set against the bill (`one_time`) when given.
pub(crate) fn json(
    rec: &Reconciliation,
    l: &Ledger,
    workload: &str,
    one_time: Option<serde_json::Value>,
) -> String {
    let d = |x: Decimal| x.normalize().to_string();
    let (matched, account, apart, unmapped) = l.row_counts();
    let doc = json!({
        "schema": "ddbcost.reconcile/v1",
        "workload": workload,
        "billing_period": l.period,
        "hours": d(rec.hours),
        "currency": currency(l),
        "rows_read": {
            "read": l.rows_read,
            "dynamodb": l.total.rows,
            "matched": matched,
            "account_level": account,
            "kept_apart": apart,
            "not_mapped": unmapped,
            "other_services_skipped": l.other_services,
            "other_periods_skipped": l.other_periods,
        },
        "rows": rec.rows.iter().map(|r| json!({
            "table": r.key.table,
            "region": r.key.region,
            "component": r.key.component,
            "meter": r.key.meter,
            "estimated": r.estimated.as_ref().map(|e| json!({
                "quantity": d(e.quantity), "cost": d(e.cost), "lines": e.lines, "unknown_lines": e.unknown,
            })),
            "billed": r.billed.as_ref().map(|b| json!({
                "rows": b.rows, "quantity": d(b.amount), "unblended": d(b.unblended), "effective": d(b.effective),
            })),
            "variance": d(r.variance()),
            "variance_share": r.share().map(d),
            "cause": cause_code(&r.cause),
            "cause_text": cause(r),
        })).collect::<Vec<_>>(),
        "total": {
            "estimated": d(rec.estimated),
            "billed_unblended": d(rec.billed.unblended),
            "billed_effective": d(rec.billed.effective),
            "variance": d(rec.billed.unblended.checked_sub(rec.estimated).unwrap_or_default()),
        },
    });
    let mut doc = doc;
    if let (Some(o), Some(map)) = (one_time, doc.as_object_mut()) {
        map.insert("one_time".to_string(), o);
    }
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}
