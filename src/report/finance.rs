//! The finance CSV (`--format csv`): one row per line item of the baseline and of each
//! scenario, a stable documented header, ISO 8601 dates, `.` decimals, no thousands
//! separators, a minus sign for negatives, exact and rounded cost side by side, and for a
//! scenario's rows the baseline's cost and the delta. No total rows: every row is data, so a
//! column sum over one `scenario` is that scenario's month.
//! With `--currency`, `cost` and `unit_price` are in the shown currency and the last columns
//! state the price table's currency, its unit price, and the rate with its date and source.
//! `--excel` adds a UTF-8 byte-order mark, CRLF line ends, and guards text cells that begin
//! with `=`, `+`, `-` or `@` against formula injection.

use rust_decimal::Decimal;

use super::money;
use crate::model::period::Period;
use std::collections::HashMap;

use crate::engine::Estimate;
use crate::scenario::{Comparison, Row};

/// The header, in order. Stable: columns are only ever appended.
pub const HEADER: &[&str] = &[
    "billing_period_start",
    "billing_period_end",
    "scenario",
    "table",
    "component",
    "key",
    "label",
    "patterns",
    "region",
    "usage_quantity",
    "unit",
    "unit_price",
    "cost",
    "cost_rounded",
    "currency",
    "basis",
    "price_table",
    "price_table_date",
    "kind",
    "baseline_cost",
    "delta",
    "pricing_currency",
    "pricing_unit_price",
    "fx_rate",
    "fx_date",
    "fx_source",
];

/// Text cells Excel would take for a formula get a leading apostrophe.
fn guard(text: &str, excel: bool) -> String {
    if excel && text.starts_with(['=', '+', '-', '@']) {
        format!("'{text}")
    } else {
        text.to_string()
    }
}

/// The finance CSV of a comparison (an estimate is a comparison without scenarios), and per
/// scenario a reconciliation warning when rounding makes the rounded lines miss the rounded
/// total. Totals are never rows of the file: summing `cost` over the rows of one `scenario`
/// gives that scenario's monthly total exactly, and summing `delta` gives its change.
#[must_use]
pub fn render(c: &Comparison, period: Period, excel: bool) -> (String, Vec<String>) {
    let mut w = csv::WriterBuilder::new()
        .terminator(if excel {
            csv::Terminator::CRLF
        } else {
            csv::Terminator::Any(b'\n')
        })
        .from_writer(Vec::new());
    let _ = w.write_record(HEADER);
    let mut warnings = Vec::new();
    let text = |d: Option<Decimal>| d.map(|v| v.normalize().to_string()).unwrap_or_default();
    let rows: HashMap<&str, &Row> = c.rows.iter().map(|r| (r.key.as_str(), r)).collect();
    let mut columns: Vec<(&str, &str, &Estimate, Option<usize>)> =
        vec![("baseline", "baseline", &c.baseline, None)];
    columns.extend(
        c.scenarios
            .iter()
            .enumerate()
            .map(|(i, s)| (s.name.as_str(), s.kind.name(), &s.estimate, Some(i))),
    );
    for (scenario, kind, e, column) in columns {
        let cur = &e.currency;
        let mut rounded_sum = Some(Decimal::ZERO);
        let mut write = |table: &str,
                         component: &str,
                         key: &str,
                         label: &str,
                         patterns: &str,
                         region: &str,
                         quantity: Option<Decimal>,
                         unit: &str,
                         unit_price: String,
                         pricing_unit_price: String,
                         cost: Option<Decimal>,
                         baseline_cost: Option<Decimal>,
                         delta: Option<Decimal>,
                         basis: &str| {
            let rounded = cost.map(|v| money::round(v, cur));
            rounded_sum = rounded_sum.and_then(|s| s.checked_add(rounded.unwrap_or_default()));
            let _ = w.write_record([
                period.start_date(),
                period.end_date(),
                guard(scenario, excel),
                guard(table, excel),
                component.to_string(),
                guard(key, excel),
                guard(label, excel),
                guard(patterns, excel),
                guard(region, excel),
                text(quantity),
                guard(unit, excel),
                unit_price,
                text(cost),
                rounded.map(|v| v.to_string()).unwrap_or_default(),
                cur.clone(),
                basis.to_string(),
                guard(&e.price_table.id, excel),
                e.price_table.effective.clone(),
                kind.to_string(),
                text(baseline_cost),
                text(delta),
                e.price_table.currency.clone(),
                pricing_unit_price,
                e.fx.as_ref()
                    .map(|fx| fx.rate.normalize().to_string())
                    .unwrap_or_default(),
                e.fx.as_ref().map(|fx| fx.date.clone()).unwrap_or_default(),
                e.fx.as_ref()
                    .map(|fx| guard(&fx.source, excel))
                    .unwrap_or_default(),
            ]);
        };
        for i in &e.line_items {
            let row = rows.get(i.key.as_str());
            let (baseline_cost, delta) = match (column, row) {
                (Some(col), Some(r)) => (r.baseline, r.deltas.get(col).copied()),
                _ => (None, None),
            };
            write(
                &i.table,
                i.component.name(),
                &i.key,
                &i.label,
                &i.patterns().join(";"),
                &i.region,
                i.quantity,
                i.unit,
                i.unit_price.normalize().to_string(),
                i.pricing_unit_price.normalize().to_string(),
                i.cost,
                baseline_cost,
                delta,
                i.basis.name(),
            );
        }
        // Lines of the baseline this scenario no longer has: cost 0, and the saving as delta,
        // so that a scenario's deltas add up to its change.
        if let Some(col) = column {
            for r in &c.rows {
                if r.baseline.is_some() && r.scenarios[col].is_none() {
                    write(
                        &r.table,
                        r.component.name(),
                        &r.key,
                        &format!("(not in this scenario) {}", r.label),
                        "",
                        "",
                        None,
                        "",
                        String::new(),
                        String::new(),
                        Some(Decimal::ZERO),
                        r.baseline,
                        r.deltas.get(col).copied(),
                        "removed",
                    );
                }
            }
        }
        let total_rounded = money::round(e.total, cur);
        match rounded_sum {
            Some(sum) if sum == total_rounded => {}
            Some(sum) => warnings.push(format!(
                "{scenario}: the rounded lines add up to {sum} {cur}, the exact total rounds to {total_rounded} {cur} ({} {cur} of rounding); sum the exact `cost` column",
                total_rounded.checked_sub(sum).unwrap_or_default().normalize()
            )),
            None => warnings.push(format!(
                "{scenario}: the rounded lines are too large to add up; sum the exact `cost` column"
            )),
        }
    }
    let mut bytes = w.into_inner().unwrap_or_default();
    if excel {
        let mut with_bom = vec![0xEF, 0xBB, 0xBF];
        with_bom.append(&mut bytes);
        bytes = with_bom;
    }
    (String::from_utf8(bytes).unwrap_or_default(), warnings)
}
