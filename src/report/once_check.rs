//! `reconcile --before`: each bill row's one-time work — predicted, billed beyond the month's
//! estimate, measured — as a table, Markdown or JSON, with what it leaves unexplained.

use std::fmt::Write as _;

use rust_decimal::Decimal;
use serde_json::{Value, json};

use super::money::{display, quantity};
use crate::bill::once_check::Check;

fn unit(c: &Check) -> &'static str {
    if c.component == "writes" {
        "write units"
    } else {
        "GB"
    }
}

/// What the items are, in words.
fn what(c: &Check, currency: &str) -> String {
    c.items
        .iter()
        .map(|o| {
            let (name, what, _) = super::once::words(o, currency);
            format!("{name}: {what}")
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// The billed quantity beyond the estimate, in the bill's unit, or why none compares.
fn billed_cell(c: &Check, currency: &str) -> (String, String) {
    match c.billed_beyond {
        None => ("(no such row billed)".to_string(), "—".to_string()),
        Some((q, cost)) => (
            if c.comparable {
                format!("{} {}", quantity(q), unit(c))
            } else {
                format!("{} capacity-hours", quantity(q))
            },
            super::compare::signed(cost, currency),
        ),
    }
}

/// Predicted against billed, in words: how much of the billed excess the work accounts for.
fn verdict(c: &Check, currency: &str) -> String {
    let Some((q, cost)) = c.billed_beyond else {
        return format!(
            "the bill has no {} row for `{}`: the work did not run this period, or it is billed elsewhere",
            c.component, c.table
        );
    };
    match (c.comparable, c.predicted_cost) {
        (true, _) => {
            let left = q.saturating_sub(c.predicted);
            format!(
                "the bill's {} beyond the estimate {} the prediction by {} {}",
                c.component,
                if left.is_sign_negative() {
                    "fall short of"
                } else {
                    "exceed"
                },
                quantity(left.abs()),
                unit(c)
            )
        }
        (false, Some(p)) => format!(
            "billed {} beyond the estimate against {} predicted (capacity-hours: the units do not compare)",
            display(cost, currency),
            display(p, currency)
        ),
        (false, None) => "the prediction has no price".to_string(),
    }
}

/// The section under the reconciliation's table (`markdown`: as Markdown).
#[must_use]
pub(crate) fn section(checks: &[Check], currency: &str, markdown: bool) -> String {
    if checks.is_empty() {
        return String::new();
    }
    let header = [
        "Table".to_string(),
        "One-time work".to_string(),
        "Predicted".to_string(),
        format!("Predicted ({currency})"),
        "Billed beyond estimate".to_string(),
        format!("Billed beyond ({currency})"),
        "Measured".to_string(),
        "So".to_string(),
    ];
    let rows: Vec<Vec<String>> = checks
        .iter()
        .map(|c| {
            let (billed, billed_cost) = billed_cell(c, currency);
            vec![
                c.table.clone(),
                what(c, currency),
                format!("{} {}", quantity(c.predicted), unit(c)),
                c.predicted_cost
                    .map_or_else(|| "—".to_string(), |p| display(p, currency)),
                billed,
                billed_cost,
                c.measured.map_or_else(
                    || "—".to_string(),
                    |m| format!("{} write units", quantity(m)),
                ),
                verdict(c, currency),
            ]
        })
        .collect();
    let note = "One-time work: each change's predicted work (its backfill, first load, or what `once:` states) beside what the bill billed beyond the estimate of the workload after the change on the rows that carry it, and a backfill's write units as CloudWatch measured them (OnlineIndexConsumedWriteCapacity). The estimate prices the period as the workload after the change throughout: a change made during it leaves the difference of its steady rates in the excess too.";
    let mut out = String::new();
    if markdown {
        let refs: Vec<&str> = header.iter().map(String::as_str).collect();
        let _ = write!(
            out,
            "\n### One-time work\n\n{}\n_{note}_\n",
            super::markdown::table(
                &refs,
                &[false, false, true, true, true, true, true, false],
                &rows
            )
        );
    } else {
        let mut b = tabled::builder::Builder::default();
        b.push_record(header);
        for r in rows {
            b.push_record(r);
        }
        let mut t = b.build();
        t.with(tabled::settings::Style::rounded());
        let _ = write!(out, "\nOne-time work\n{t}\n{note}\n");
    }
    out
}

/// The checks as JSON (`one_time` of `ddbcost.reconcile/v1`).
#[must_use]
pub(crate) fn json(checks: &[Check], currency: &str) -> Value {
    let d = |x: Decimal| x.normalize().to_string();
    Value::Array(
        checks
            .iter()
            .map(|c| {
                json!({
                    "table": c.table,
                    "component": c.component,
                    "items": c.items.iter().map(|o| {
                        let (name, what, note) = super::once::words(o, currency);
                        json!({"change": name, "what": what, "note": note, "cost": o.cost.map(d)})
                    }).collect::<Vec<_>>(),
                    "unit": if c.comparable { unit(c) } else { "capacity-hours" },
                    "predicted": d(c.predicted),
                    "predicted_cost": c.predicted_cost.map(d),
                    "billed_beyond_estimate": c.billed_beyond.map(|(q, cost)| json!({"quantity": d(q), "unblended": d(cost)})),
                    "measured_backfill_units": c.measured.map(d),
                    "text": verdict(c, currency),
                })
            })
            .collect(),
    )
}
