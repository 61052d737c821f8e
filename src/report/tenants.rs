//! `estimate --by tenant`: the estimate per tenant — per table its tiers (or its busiest
//! tenants one by one and the tail of a Zipf spread) with the cost of one tenant and of the
//! group, the median and the busiest tenant, and what no tenant causes — as a table,
//! Markdown, CSV or JSON. Group totals are shown rounded by largest remainder, so the rows
//! add up to the estimate's total; one tenant's cost is rounded on its own.

use rust_decimal::Decimal;

use super::money::{display, minor_digits};
use crate::allocate::split::to_minor_unit;
use crate::engine::Estimate;
use crate::engine::tenants::TenantEstimate;
use crate::error::Error;

/// The rows: (table, group, tenants, one tenant's cost, the group's exact total), the
/// remainders last with no table.
type Row = (String, String, String, Option<Decimal>, Decimal);

fn rows(t: &TenantEstimate) -> Vec<Row> {
    let mut rows: Vec<Row> = t
        .groups
        .iter()
        .map(|g| {
            (
                g.table.to_string(),
                g.name.clone(),
                g.tenants.to_string(),
                Some(g.each),
                g.total,
            )
        })
        .collect();
    rows.extend(t.remainders.iter().map(|(r, d)| {
        (
            String::new(),
            format!("(remainder) {}", r.name()),
            String::new(),
            None,
            *d,
        )
    }));
    rows
}

/// The name of the rounding remainder.
const ROUNDING: &str = "(products of shares)";

fn rule() -> &'static str {
    "Per tenant: a pattern's cost by each tier's share of that pattern, the table's other request lines by its share of requests, storage, PITR and backups by its share of bytes; a Zipf spread gives the k-th busiest tenant 1/k^s of every line over the sum. Group totals shown rounded by largest remainder so they add up to the total; one tenant's cost rounded on its own."
}

fn summary(t: &TenantEstimate, currency: &str) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    for s in &t.tables {
        let _ = writeln!(
            out,
            "{}: {} tenants ({}); the median tenant costs {} a month, the busiest {}.",
            s.table,
            s.tenants,
            s.spread,
            display(s.median, currency),
            display(s.busiest, currency)
        );
    }
    out
}

/// A table or Markdown view.
pub(crate) fn table(t: &TenantEstimate, e: &Estimate, markdown: bool) -> String {
    let currency = &e.currency;
    let all = rows(t);
    let exact: Vec<Decimal> = all.iter().map(|r| r.4).collect();
    let shown = to_minor_unit(&exact, minor_digits(currency));
    let mut b = tabled::builder::Builder::default();
    b.push_record([
        "Table",
        "Tenants",
        "Count",
        "Per tenant /month",
        "Per 1,000 tenants",
        "Total /month",
    ]);
    let cell = |s: &str| {
        if markdown {
            super::markdown::cell(s)
        } else {
            crate::text::one_line(s).into_owned()
        }
    };
    let thousand = Decimal::from(1000);
    for (r, s) in all.iter().zip(&shown) {
        // The last digits of the products, when they show as nothing, are left out of the
        // view (the JSON and CSV keep them).
        if r.3.is_none() && r.2.is_empty() && r.1.ends_with(ROUNDING) && s.is_zero() {
            continue;
        }
        b.push_record([
            cell(&r.0),
            cell(&r.1),
            r.2.clone(),
            r.3.map(|d| display(d, currency)).unwrap_or_default(),
            r.3.and_then(|d| d.checked_mul(thousand))
                .map(|d| display(d, currency))
                .unwrap_or_default(),
            display(*s, currency),
        ]);
    }
    b.push_record([
        "TOTAL".to_string(),
        String::new(),
        String::new(),
        String::new(),
        String::new(),
        display(t.total, currency),
    ]);
    let mut tab = b.build();
    if markdown {
        tab.with(tabled::settings::Style::markdown());
        return format!(
            "## {} per tenant ({currency})\n\n{tab}\n\n{}\n{}\n",
            super::markdown::cell(&e.workload),
            summary(t, currency),
            rule()
        );
    }
    tab.with(tabled::settings::Style::rounded());
    format!(
        "ddbcost estimate: {}, per tenant ({currency} a month)\n{tab}\n{}{}\n",
        crate::text::one_line(&e.workload),
        summary(t, currency),
        rule()
    )
}

/// JSON: every group and remainder exact and rounded, and each table's median and busiest.
pub(crate) fn json(t: &TenantEstimate, e: &Estimate) -> String {
    let d = |x: Decimal| serde_json::Value::String(x.normalize().to_string());
    let all = rows(t);
    let exact: Vec<Decimal> = all.iter().map(|r| r.4).collect();
    let shown = to_minor_unit(&exact, minor_digits(&e.currency));
    let groups: Vec<serde_json::Value> = all
        .iter()
        .zip(&shown)
        .map(|(r, s)| {
            serde_json::json!({
                "table": r.0,
                "group": r.1,
                "tenants": r.2.parse::<u64>().ok(),
                "per_tenant": r.3.map(d),
                "total": d(r.4),
                "total_rounded": d(*s),
            })
        })
        .collect();
    let tables: Vec<serde_json::Value> = t
        .tables
        .iter()
        .map(|s| {
            serde_json::json!({
                "table": &*s.table,
                "tenants": s.tenants,
                "spread": s.spread,
                "median_tenant": d(s.median),
                "busiest_tenant": d(s.busiest),
            })
        })
        .collect();
    let doc = serde_json::json!({
        "schema": "ddbcost.tenants/v1",
        "workload": e.workload,
        "currency": e.currency,
        "rows": groups,
        "tables": tables,
        "total": d(t.total),
    });
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}

/// CSV: a row per group and remainder.
pub(crate) fn csv(t: &TenantEstimate, e: &Estimate) -> Result<String, Error> {
    let all = rows(t);
    let exact: Vec<Decimal> = all.iter().map(|r| r.4).collect();
    let shown = to_minor_unit(&exact, minor_digits(&e.currency));
    let fail = |e: &dyn std::fmt::Display| Error::input(format!("cannot write the CSV: {e}"));
    let mut w = ::csv::Writer::from_writer(Vec::new());
    w.write_record([
        "table",
        "tenants",
        "count",
        "per_tenant",
        "total",
        "total_rounded",
        "currency",
    ])
    .map_err(|e| fail(&e))?;
    for (r, s) in all.iter().zip(&shown) {
        w.write_record([
            r.0.as_str(),
            &crate::text::one_line(&r.1),
            &r.2,
            &r.3.map(|d| d.normalize().to_string()).unwrap_or_default(),
            &r.4.normalize().to_string(),
            &s.to_string(),
            &e.currency,
        ])
        .map_err(|e| fail(&e))?;
    }
    let bytes = w.into_inner().map_err(|e| fail(&e))?;
    String::from_utf8(bytes).map_err(|e| fail(&e))
}
