//! The HTML report (`--format html --output report.html`): one self-contained file — inline
//! CSS and inline SVG charts, no scripts, fonts or network — with the itemized tables, cost by
//! component, by table and by access pattern, and for a comparison its scenarios and the
//! waterfall of its steps. The page is a minijinja template (escaping every value); the charts
//! come from `charts`.

use minijinja::{Environment, Value, context};
use rust_decimal::Decimal;

use super::{charts, money};
use crate::model::period::Period;
use crate::scenario::{Comparison, ScenarioKind};

const TEMPLATE: &str = include_str!("report.html");

/// A template value from JSON.
fn v(json: serde_json::Value) -> Value {
    Value::from(minijinja::value::Serde(json))
}

fn signed(d: Decimal, currency: &str) -> String {
    let text = money::display(d, currency);
    if d > Decimal::ZERO && text != money::display(Decimal::ZERO, currency) {
        format!("+{text}")
    } else {
        text
    }
}

fn class(d: Decimal) -> &'static str {
    match d.cmp(&Decimal::ZERO) {
        std::cmp::Ordering::Less => "down",
        std::cmp::Ordering::Greater => "up",
        std::cmp::Ordering::Equal => "",
    }
}

/// A label as plain text: the Markdown backticks the terminal and Markdown reports use
/// around names are dropped (HTML shows the name as it is).
pub(super) fn plain(label: &str) -> String {
    label.replace('`', "")
}

pub(crate) fn render(c: &Comparison, period: Period) -> Result<String, crate::error::Error> {
    let e = &c.baseline;
    let cur = &e.currency;
    let show = |d: Decimal| money::display(d, cur);
    let scenarios: Vec<Value> = c
        .scenarios
        .iter()
        .map(|s| {
            let percent = s.delta_percent.map_or_else(|| "—".to_string(), |p| format!("{} %", p.round_dp(1)));
            v(serde_json::json!({
                "name": s.name, "kind": s.kind.name(), "description": s.description,
                "total": show(s.estimate.total), "delta": signed(s.delta, cur), "percent": percent, "class": class(s.delta),
                "step_delta": s.step_delta.map(|d| signed(d, cur)), "step_class": s.step_delta.map_or("", class),
            }))
        })
        .collect();
    let (rows, lines) = if c.scenarios.is_empty() {
        (Vec::new(), estimate_lines(e))
    } else {
        (comparison_rows(c), Vec::new())
    };
    let components: Vec<(String, Decimal)> = e
        .component_costs()
        .into_iter()
        .map(|(k, v)| (k.name().to_string(), v))
        .collect();
    let tables = e.table_subtotals();
    let scenario_totals: Vec<(String, Decimal)> =
        std::iter::once(("baseline".to_string(), e.total))
            .chain(
                c.scenarios
                    .iter()
                    .map(|s| (s.name.clone(), s.estimate.total)),
            )
            .collect();
    let patterns = e.pattern_costs();
    let waterfall = c.waterfall().map(|w| {
        let steps: Vec<(String, Decimal, Decimal)> = w
            .steps
            .iter()
            .map(|s| (s.name.to_string(), s.delta, s.running))
            .collect();
        charts::waterfall(
            &format!("From baseline to the last step ({cur})"),
            w.start,
            &steps,
            w.end,
            cur,
        )
    });
    let meta = meta(e, period);
    let (total_label, total) = headline(c);
    let mut warnings = super::notices::texts(&e.warnings);
    for s in &c.scenarios {
        warnings.extend(
            s.estimate
                .warnings
                .iter()
                .map(|w| format!("{}: {w}", s.name)),
        );
    }
    let mut env = Environment::new();
    env.add_template("report.html", TEMPLATE)
        .map_err(|e| super::page_error(&e))?;
    let template = env
        .get_template("report.html")
        .map_err(|e| super::page_error(&e))?;
    template
        .render(context! {
            title => format!("ddbcost: {}", e.workload),
            total_label, total,
            currency => cur,
            meta,
            scenarios,
            any_step => c.scenarios.iter().any(|s| s.step_delta.is_some()),
            rows,
            lines,
            waterfall => waterfall.map(Value::from_safe_string),
            scenario_totals => (!c.scenarios.is_empty()).then(|| Value::from_safe_string(charts::bars(&format!("Monthly total by scenario ({cur})"), &scenario_totals, cur))),
            by_component => Value::from_safe_string(charts::bars(&format!("Cost by component ({cur})"), &components, cur)),
            by_table => Value::from_safe_string(charts::bars(&format!("Cost by table ({cur})"), &tables, cur)),
            by_pattern => Value::from_safe_string(charts::bars(&format!("Cost by access pattern ({cur})"), &patterns, cur)),
            notes => c.notes.iter().map(|n| plain(n)).collect::<Vec<_>>(),
            warnings => warnings.iter().map(|w| plain(w)).collect::<Vec<_>>(),
            footer => format!("Generated by ddbcost. {}.", money::policy(cur)),
        })
        .map_err(|e| super::page_error(&e))
}

/// An estimate's lines by table, with subtotals and the total.
fn estimate_lines(e: &crate::engine::Estimate) -> Vec<Value> {
    let cur = &e.currency;
    let show = |d: Decimal| money::display(d, cur);
    let mut lines: Vec<Value> = Vec::new();
    for (table, subtotal, items) in e.lines_by_table() {
        for l in items {
            lines.push(v(serde_json::json!({
                "table": table, "label": plain(&l.label.to_string()),
                "quantity": l.quantity.map_or_else(|| "depends on usage".to_string(), money::quantity),
                "unit": l.unit, "unit_price": l.unit_price_text(), "cost": l.cost.map_or_else(|| l.unknown_cost_text(), show),
            })));
        }
        lines.push(v(serde_json::json!({"table": "", "label": format!("Subtotal {table}"), "quantity": "", "unit": "", "unit_price": "", "cost": show(subtotal), "subtotal": true})));
    }
    lines.push(v(serde_json::json!({"table": "", "label": "TOTAL", "quantity": "", "unit": "", "unit_price": "", "cost": show(e.total), "subtotal": true})));
    lines
}

/// A comparison's rows by table, each scenario's value and delta beside the baseline.
fn comparison_rows(c: &Comparison) -> Vec<Value> {
    let e = &c.baseline;
    let cur = &e.currency;
    let show = |d: Decimal| money::display(d, cur);
    let cell = |d: Option<Decimal>| d.map_or_else(|| "—".to_string(), show);
    let mut rows: Vec<Value> = Vec::new();
    for (t, table_rows) in c.rows_by_table() {
        for r in table_rows {
            let cells: Vec<serde_json::Value> = r
                .scenarios
                .iter()
                .zip(&r.deltas)
                .map(|(v, delta)| {
                    serde_json::json!({"value": cell(*v), "delta": signed(*delta, cur), "class": class(*delta)})
                })
                .collect();
            rows.push(v(serde_json::json!({"table": r.table, "label": plain(&super::compare::label_text(c, r)), "baseline": cell(r.baseline), "cells": cells})));
        }
        let cells: Vec<serde_json::Value> = t
            .scenarios
            .iter()
            .zip(&t.deltas)
            .map(|(v, delta)| {
                serde_json::json!({"value": show(*v), "delta": signed(*delta, cur), "class": class(*delta)})
            })
            .collect();
        rows.push(v(serde_json::json!({"table": "", "label": format!("Subtotal {}", t.table), "baseline": show(t.baseline), "cells": cells, "subtotal": true})));
    }
    let cells: Vec<serde_json::Value> = c
        .scenarios
        .iter()
        .map(|s| serde_json::json!({"value": show(s.estimate.total), "delta": signed(s.delta, cur), "class": class(s.delta)}))
        .collect();
    rows.push(v(serde_json::json!({"table": "", "label": "TOTAL", "baseline": show(e.total), "cells": cells, "subtotal": true})));
    rows
}

/// The line under the title: the month, the price table and the settings.
fn meta(e: &crate::engine::Estimate, period: Period) -> String {
    let p = &e.price_table;
    let meta = format!(
        "Monthly estimate for {period} · prices {} ({}, {}), effective {} · {}-hour month · GB = {} · free tier {}",
        p.id,
        p.region,
        p.currency,
        p.effective,
        e.settings.month_hours.normalize(),
        e.settings.gb.name(),
        if e.settings.free_tier {
            "applied"
        } else {
            "off"
        }
    );
    let meta = match super::fx_statement(e) {
        Some(fx) => format!("{meta} · {fx}"),
        None => meta,
    };
    match super::savings_plan_statement(e) {
        Some(sp) => format!("{meta} · {sp}"),
        None => meta,
    }
}

/// The headline total: the baseline and where the steps end, or each alternative.
fn headline(c: &Comparison) -> (String, String) {
    let e = &c.baseline;
    let cur = &e.currency;
    let show = |d: Decimal| money::display(d, cur);
    let money_of = |d: Decimal| format!("{} {}", money::symbol(cur), show(d));
    let all_steps = c.scenarios.iter().all(|s| s.kind == ScenarioKind::Step);
    match c.scenarios.last() {
        // A cumulative story ends at its last step.
        Some(last) if all_steps => (
            format!("Baseline → after the last step, {}", last.name),
            format!("{} → {}", money_of(e.total), money_of(last.estimate.total)),
        ),
        // Alternatives (or a mix) each stand on their own: baseline, then each.
        Some(_) => (
            "Baseline, then each scenario".to_string(),
            std::iter::once(money_of(e.total))
                .chain(
                    c.scenarios
                        .iter()
                        .map(|s| format!("{}: {}", s.name, money_of(s.estimate.total))),
                )
                .collect::<Vec<_>>()
                .join(" · "),
        ),
        None => (
            "Monthly total".to_string(),
            format!("{} {}", money::symbol(cur), show(e.total)),
        ),
    }
}
