//! The terminal view: a table grouped by DynamoDB table (label, quantity, unit, unit price,
//! monthly cost), subtotals and total, then a footer with the price table, its date and the
//! settings in force; or the same estimate broken down per access pattern.

use rust_decimal::Decimal;
use tabled::builder::Builder;
use tabled::settings::object::Columns;
use tabled::settings::{Alignment, Style};

use super::Breakdown;
use super::layout::Layout;
use super::money;
use crate::engine::{Basis, Estimate};

#[must_use]
pub(crate) fn render(estimate: &Estimate, by: Breakdown, layout: Layout) -> String {
    let body = match by {
        Breakdown::Line => lines(estimate, layout),
        Breakdown::Pattern => patterns(estimate, layout),
        Breakdown::Component => components(estimate, layout),
        Breakdown::Region => shares(estimate, "Region", estimate.region_costs(), layout),
    };
    format!("{}\n{body}\n{}", title(estimate), footer(estimate))
}

fn title(e: &Estimate) -> String {
    format!(
        "ddbcost estimate: {} — monthly cost in {} ({})",
        e.workload,
        e.currency,
        money::symbol(&e.currency)
    )
}

fn lines(e: &Estimate, layout: Layout) -> String {
    let c = &e.currency;
    let mut b = Builder::default();
    b.push_record([
        "Table",
        "Line item",
        "Quantity",
        "Unit",
        "Unit price",
        &format!("Monthly ({c})"),
    ]);
    for (table, subtotal, items) in e.lines_by_table() {
        for item in items {
            let (quantity, cost) = match (item.quantity, item.cost) {
                (Some(q), Some(cost)) => (money::quantity(q), money::display(cost, c)),
                _ => ("depends on usage".to_string(), item.unknown_cost_text()),
            };
            let label = match item.basis {
                Basis::Observed if !item.label.says_observed() => {
                    format!("{} (observed)", item.label)
                }
                _ => item.label.to_string(),
            };
            b.push_record([
                table.to_string(),
                label,
                quantity,
                item.unit.to_string(),
                item.unit_price_text(),
                cost,
            ]);
        }
        b.push_record([
            String::new(),
            format!("Subtotal {table}"),
            String::new(),
            String::new(),
            String::new(),
            money::display(subtotal, c),
        ]);
    }
    b.push_record([
        String::new(),
        layout.bold("TOTAL"),
        String::new(),
        String::new(),
        String::new(),
        layout.bold(&format!(
            "{} {}",
            money::symbol(c),
            money::display(e.total, c)
        )),
    ]);
    let mut t = b.build();
    t.with(Style::rounded());
    t.modify(Columns::new(2..3), Alignment::right());
    layout.fit(&mut t);
    t.modify(Columns::new(4..6), Alignment::right());
    t.to_string()
}

fn patterns(e: &Estimate, layout: Layout) -> String {
    shares(
        e,
        "Access pattern (table/pattern)",
        e.pattern_costs(),
        layout,
    )
}

fn components(e: &Estimate, layout: Layout) -> String {
    let rows = e
        .component_costs()
        .into_iter()
        .map(|(c, cost)| (c.name().to_string(), cost));
    shares(e, "Component", rows.collect(), layout)
}

fn shares(e: &Estimate, what: &str, rows: Vec<(String, Decimal)>, layout: Layout) -> String {
    let c = &e.currency;
    let mut b = Builder::default();
    b.push_record([what, &format!("Monthly ({c})"), "Share"]);
    for (name, cost) in rows {
        let share = crate::engine::percent_of(cost, e.total)
            .map_or_else(|| "-".to_string(), |p| format!("{} %", p.round_dp(1)));
        b.push_record([name, money::display(cost, c), share]);
    }
    b.push_record([
        layout.bold("TOTAL"),
        layout.bold(&format!(
            "{} {}",
            money::symbol(c),
            money::display(e.total, c)
        )),
        "100 %".into(),
    ]);
    let mut t = b.build();
    t.with(Style::rounded());
    t.modify(Columns::new(1..3), Alignment::right());
    layout.fit(&mut t);
    t.to_string()
}

fn footer(e: &Estimate) -> String {
    let p = &e.price_table;
    let s = &e.settings;
    let mut out = format!(
        "Prices: {} ({}, {}), effective {}; source: {}\nSettings: {}-hour month; GB = {} ({}); free tier {}.\nRounding: {}.",
        p.id,
        p.region,
        p.currency,
        p.effective,
        p.source,
        s.month_hours.normalize(),
        s.gb.name(),
        if s.gb.name() == "binary" {
            "2^30 bytes"
        } else {
            "10^9 bytes"
        },
        if s.free_tier { "applied" } else { "off" },
        money::policy(&e.currency),
    );
    if let Some(others) = super::other_tables_statement(e) {
        out.push_str(&format!("\n{others}"));
    }
    if let Some(fx) = super::fx_statement(e) {
        out.push_str(&format!("\n{fx}."));
    }
    if let Some(sp) = super::savings_plan_statement(e) {
        out.push_str(&format!("\n{sp}."));
    }
    if let Some(p) = super::partitions_statement(e) {
        out.push_str(&format!("\n{p}."));
    }
    if !e.excluded.is_empty() {
        out.push_str(&format!(
            "\nNot in the total (depends on usage): {}.",
            e.excluded.join(", ")
        ));
    }
    for w in &e.warnings {
        out.push_str(&format!("\nwarning: {w}"));
    }
    out.push('\n');
    out
}
