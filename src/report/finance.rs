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
pub(crate) const HEADER: &[&str] = &[
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
    "tags",
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
pub(crate) fn render(c: &Comparison, period: Period, excel: bool) -> (String, Vec<String>) {
    let mut w = csv::WriterBuilder::new()
        .terminator(if excel {
            csv::Terminator::CRLF
        } else {
            csv::Terminator::Any(b'\n')
        })
        .from_writer(Vec::new());
    let _ = w.write_record(HEADER);
    let mut warnings = Vec::new();
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
        let mut out = ScenarioRows {
            w: &mut w,
            period,
            excel,
            name: scenario,
            kind,
            e,
            rounded_sum: Some(Decimal::ZERO),
        };
        // The rounded column adds up to the rounded total: largest remainder over the lines.
        let costs: Vec<Option<Decimal>> = e.line_items.iter().map(|i| i.cost).collect();
        let rounded = money::apportion(&costs, &e.currency);
        for (i, rounded) in e.line_items.iter().zip(rounded) {
            let row = rows.get(i.key.as_str());
            let (baseline_cost, delta) = match (column, row) {
                (Some(col), Some(r)) => (r.baseline, r.deltas.get(col).copied()),
                _ => (None, None),
            };
            out.write(&Record {
                table: &i.table,
                component: i.component.name(),
                key: &i.key,
                label: &i.label.to_string(),
                patterns: &i.patterns().join(";"),
                region: &i.region,
                quantity: i.quantity,
                unit: i.unit,
                unit_price: i.unit_price_text(),
                pricing_unit_price: if i.price_missing_from.is_some() {
                    String::new()
                } else {
                    i.pricing_unit_price.normalize().to_string()
                },
                cost: i.cost,
                rounded,
                baseline_cost,
                delta,
                basis: i.basis.name(),
            });
        }
        // Lines of the baseline this scenario no longer has: cost 0, and the saving as delta,
        // so that a scenario's deltas add up to its change.
        if let Some(col) = column {
            for r in &c.rows {
                if r.baseline.is_some() && r.scenarios[col].is_none() {
                    out.write(&Record {
                        table: &r.table,
                        component: r.component.name(),
                        key: &r.key,
                        label: &format!("(not in this scenario) {}", r.label),
                        patterns: "",
                        region: "",
                        quantity: None,
                        unit: "",
                        unit_price: String::new(),
                        pricing_unit_price: String::new(),
                        cost: Some(Decimal::ZERO),
                        rounded: Some(Decimal::ZERO),
                        baseline_cost: r.baseline,
                        delta: r.deltas.get(col).copied(),
                        basis: "removed",
                    });
                }
            }
        }
        warnings.extend(out.reconciliation());
    }
    let mut bytes = w.into_inner().unwrap_or_default();
    if excel {
        let mut with_bom = vec![0xEF, 0xBB, 0xBF];
        with_bom.append(&mut bytes);
        bytes = with_bom;
    }
    (String::from_utf8(bytes).unwrap_or_default(), warnings)
}

/// One row's own fields (the scenario's are added by `ScenarioRows::write`).
struct Record<'a> {
    table: &'a str,
    component: &'a str,
    key: &'a str,
    label: &'a str,
    patterns: &'a str,
    region: &'a str,
    quantity: Option<Decimal>,
    unit: &'a str,
    unit_price: String,
    pricing_unit_price: String,
    cost: Option<Decimal>,
    /// `cost` apportioned to the minor unit with the scenario's other lines (`money::apportion`).
    rounded: Option<Decimal>,
    baseline_cost: Option<Decimal>,
    delta: Option<Decimal>,
    basis: &'a str,
}

/// The rows of one scenario being written, and the sum of their rounded costs.
struct ScenarioRows<'a> {
    w: &'a mut csv::Writer<Vec<u8>>,
    period: Period,
    excel: bool,
    name: &'a str,
    kind: &'a str,
    e: &'a Estimate,
    rounded_sum: Option<Decimal>,
}

impl ScenarioRows<'_> {
    fn write(&mut self, r: &Record<'_>) {
        let (e, excel) = (self.e, self.excel);
        let cur = &e.currency;
        let text = |d: Option<Decimal>| d.map(|v| v.normalize().to_string()).unwrap_or_default();
        let rounded = r.rounded;
        self.rounded_sum = self
            .rounded_sum
            .and_then(|s| s.checked_add(rounded.unwrap_or_default()));
        let _ = self.w.write_record([
            self.period.start_date(),
            self.period.end_date(),
            guard(self.name, excel),
            guard(r.table, excel),
            r.component.to_string(),
            guard(r.key, excel),
            guard(r.label, excel),
            guard(r.patterns, excel),
            guard(r.region, excel),
            text(r.quantity),
            guard(r.unit, excel),
            r.unit_price.clone(),
            text(r.cost),
            rounded.map(|v| v.to_string()).unwrap_or_default(),
            cur.clone(),
            r.basis.to_string(),
            guard(&e.price_table_in(r.region).id, excel),
            e.price_table_in(r.region).effective.clone(),
            self.kind.to_string(),
            text(r.baseline_cost),
            text(r.delta),
            e.price_table.currency.clone(),
            r.pricing_unit_price.clone(),
            e.fx.as_ref()
                .map(|fx| fx.rate.normalize().to_string())
                .unwrap_or_default(),
            e.fx.as_ref().map(|fx| fx.date.clone()).unwrap_or_default(),
            e.fx.as_ref()
                .map(|fx| guard(&fx.source, excel))
                .unwrap_or_default(),
            guard(&super::focus::tags_json(e.tags_of(r.table)), excel),
        ]);
    }

    /// A warning when the rounded rows miss the rounded total.
    fn reconciliation(&self) -> Option<String> {
        let (scenario, cur) = (self.name, &self.e.currency);
        let total_rounded = money::round(self.e.total, cur);
        match self.rounded_sum {
            Some(sum) if sum == total_rounded => None,
            Some(sum) => Some(format!(
                "{scenario}: the rounded lines add up to {sum} {cur}, the exact total rounds to {total_rounded} {cur} ({} {cur} of rounding); sum the exact `cost` column",
                total_rounded
                    .checked_sub(sum)
                    .unwrap_or_default()
                    .normalize()
            )),
            None => Some(format!(
                "{scenario}: the rounded lines are too large to add up; sum the exact `cost` column"
            )),
        }
    }
}
