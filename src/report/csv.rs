//! CSV (`--format csv`): one row per line item (or per access pattern with `--by pattern`),
//! a stable header, `.` decimals, no thousands separators, exact and rounded cost.

use rust_decimal::Decimal;

use super::Breakdown;
use super::money;
use crate::engine::Estimate;

/// The header of the per-line CSV, in order. Stable: new columns are only ever appended.
pub const LINE_HEADER: &[&str] = &[
    "key",
    "table",
    "component",
    "label",
    "region",
    "patterns",
    "quantity",
    "unit",
    "unit_price",
    "cost",
    "cost_rounded",
    "currency",
    "basis",
    "price_table",
    "price_effective",
];

pub const PATTERN_HEADER: &[&str] = &["pattern", "cost", "cost_rounded", "currency"];

pub const COMPONENT_HEADER: &[&str] = &["component", "cost", "cost_rounded", "currency"];

#[must_use]
pub fn render(e: &Estimate, by: Breakdown) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    let c = &e.currency;
    let text = |d: Option<Decimal>| d.map(|v| v.normalize().to_string()).unwrap_or_default();
    match by {
        Breakdown::Line => {
            let _ = w.write_record(LINE_HEADER);
            for i in &e.line_items {
                let _ = w.write_record([
                    i.key.clone(),
                    i.table.to_string(),
                    i.component.name().to_string(),
                    i.label.to_string(),
                    i.region.to_string(),
                    i.patterns().join(";"),
                    text(i.quantity),
                    i.unit.to_string(),
                    i.unit_price.normalize().to_string(),
                    text(i.cost),
                    i.cost
                        .map(|v| money::round(v, c).to_string())
                        .unwrap_or_default(),
                    c.clone(),
                    i.basis.name().to_string(),
                    e.price_table.id.clone(),
                    e.price_table.effective.clone(),
                ]);
            }
        }
        Breakdown::Pattern | Breakdown::Component => {
            let _ = w.write_record(if by == Breakdown::Pattern {
                PATTERN_HEADER
            } else {
                COMPONENT_HEADER
            });
            let rows = match by {
                Breakdown::Pattern => e.pattern_costs(),
                _ => e
                    .component_costs()
                    .into_iter()
                    .map(|(c, v)| (c.name().to_string(), v))
                    .collect(),
            };
            for (pattern, cost) in rows {
                let _ = w.write_record([
                    pattern,
                    cost.normalize().to_string(),
                    money::round(cost, c).to_string(),
                    c.clone(),
                ]);
            }
        }
    }
    String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
}
