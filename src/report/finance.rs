//! The finance CSV (`--format csv`): one row per line item of the baseline and of each
//! scenario, a stable documented header, ISO 8601 dates, `.` decimals, no thousands
//! separators, a minus sign for negatives, exact and rounded cost side by side, then one total
//! row per scenario that says whether the rounded lines add up to the rounded total.
//! `--excel` adds a UTF-8 byte-order mark, CRLF line ends, and guards text cells that begin
//! with `=`, `+`, `-` or `@` against formula injection.

use rust_decimal::Decimal;

use super::money;
use super::period::Period;
use crate::engine::Estimate;

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
];

/// Text cells Excel would take for a formula get a leading apostrophe.
fn guard(text: &str, excel: bool) -> String {
    if excel && text.starts_with(['=', '+', '-', '@']) {
        format!("'{text}")
    } else {
        text.to_string()
    }
}

/// Rows for `estimates` (scenario name, estimate), baseline first. Returns the CSV and, per
/// scenario, a reconciliation warning when rounding makes the lines miss the total.
#[must_use]
pub fn render(
    estimates: &[(&str, &Estimate)],
    period: Period,
    excel: bool,
) -> (String, Vec<String>) {
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
    for (scenario, e) in estimates {
        let c = &e.currency;
        let mut rounded_sum = Decimal::ZERO;
        for i in &e.line_items {
            let rounded = i.cost.map(|v| money::round(v, c));
            rounded_sum += rounded.unwrap_or_default();
            let _ = w.write_record([
                period.start_date(),
                period.end_date(),
                guard(scenario, excel),
                guard(&i.table, excel),
                i.component.name().to_string(),
                guard(&i.key, excel),
                guard(&i.label, excel),
                guard(&i.patterns().join(";"), excel),
                guard(&i.region, excel),
                text(i.quantity),
                guard(i.unit, excel),
                i.unit_price.normalize().to_string(),
                text(i.cost),
                rounded.map(|v| v.to_string()).unwrap_or_default(),
                c.clone(),
                i.basis.name().to_string(),
                guard(&e.price_table.id, excel),
                e.price_table.effective.clone(),
            ]);
        }
        let total_rounded = money::round(e.total, c);
        let label = if rounded_sum == total_rounded {
            "Total: the rounded lines add up to the rounded total".to_string()
        } else {
            let note = format!(
                "the rounded lines add up to {rounded_sum} {c}, the exact total rounds to {total_rounded} {c} ({} {c} of rounding)",
                (total_rounded - rounded_sum).normalize()
            );
            warnings.push(format!("{scenario}: {note}"));
            format!("Total: {note}")
        };
        let _ = w.write_record([
            period.start_date(),
            period.end_date(),
            guard(scenario, excel),
            String::new(),
            "total".to_string(),
            "TOTAL".to_string(),
            label,
            String::new(),
            String::new(),
            String::new(),
            String::new(),
            String::new(),
            e.total.normalize().to_string(),
            total_rounded.to_string(),
            c.clone(),
            String::new(),
            guard(&e.price_table.id, excel),
            e.price_table.effective.clone(),
        ]);
    }
    let mut bytes = w.into_inner().unwrap_or_default();
    if excel {
        let mut with_bom = vec![0xEF, 0xBB, 0xBF];
        with_bom.append(&mut bytes);
        bytes = with_bom;
    }
    (String::from_utf8(bytes).unwrap_or_default(), warnings)
}
