//! Comparing estimates: line items joined on their stable keys (never on labels), totals and
//! deltas against the baseline, and for cumulative steps the delta of each step.

use rust_decimal::Decimal;

use super::ScenarioKind;
use crate::engine::{Component, Estimate};

/// One scenario's estimate and how it differs.
#[derive(Debug, Clone)]
pub struct ScenarioResult {
    pub name: String,
    pub description: Option<String>,
    pub kind: ScenarioKind,
    pub estimate: Estimate,
    /// Total minus the baseline's total.
    pub delta: Decimal,
    /// For a step: total minus the previous step's (or the baseline's) total.
    pub step_delta: Option<Decimal>,
}

/// One line item across the baseline and the scenarios: its cost in each, `None` where the
/// line does not exist (or its cost is unknown).
#[derive(Debug, Clone)]
pub struct Row {
    pub key: String,
    pub table: String,
    pub component: Component,
    pub label: String,
    pub baseline: Option<Decimal>,
    pub scenarios: Vec<Option<Decimal>>,
}

#[derive(Debug, Clone)]
pub struct Comparison {
    pub baseline: Estimate,
    pub scenarios: Vec<ScenarioResult>,
    pub rows: Vec<Row>,
    /// Remarks worth reading next to the numbers (break-even utilization…).
    pub notes: Vec<String>,
}

/// The cumulative steps as a waterfall: start, the delta of each step, end.
#[derive(Debug, Clone)]
pub struct Waterfall<'a> {
    pub start: Decimal,
    pub steps: Vec<(&'a str, Decimal)>,
    pub end: Decimal,
}

impl Comparison {
    /// The waterfall of the cumulative steps, if there are any.
    #[must_use]
    pub fn waterfall(&self) -> Option<Waterfall<'_>> {
        let steps: Vec<&ScenarioResult> = self
            .scenarios
            .iter()
            .filter(|s| s.kind == ScenarioKind::Step)
            .collect();
        let last = steps.last()?;
        Some(Waterfall {
            start: self.baseline.total,
            steps: steps
                .iter()
                .map(|s| (s.name.as_str(), s.step_delta.unwrap_or(s.delta)))
                .collect(),
            end: last.estimate.total,
        })
    }

    /// Subtotal of `table` in column `column` (`None` = baseline).
    #[must_use]
    pub fn table_total(&self, table: &str, column: Option<usize>) -> Decimal {
        self.rows
            .iter()
            .filter(|r| r.table == table)
            .filter_map(|r| match column {
                None => r.baseline,
                Some(i) => r.scenarios[i],
            })
            .sum()
    }

    /// Tables in order of first appearance.
    #[must_use]
    pub fn tables(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for r in &self.rows {
            if !out.contains(&r.table.as_str()) {
                out.push(&r.table);
            }
        }
        out
    }
}

/// Joins `scenarios` (name, description, kind, estimate — steps in order) with `baseline`.
#[must_use]
pub fn compare(
    baseline: Estimate,
    scenarios: Vec<(String, Option<String>, ScenarioKind, Estimate)>,
) -> Comparison {
    let mut rows: Vec<Row> = baseline
        .line_items
        .iter()
        .map(|l| Row {
            key: l.key.clone(),
            table: l.table.to_string(),
            component: l.component,
            label: l.label.to_string(),
            baseline: l.cost,
            scenarios: vec![None; scenarios.len()],
        })
        .collect();
    let mut index: std::collections::HashMap<String, usize> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| (r.key.clone(), i))
        .collect();
    let mut results = Vec::with_capacity(scenarios.len());
    let mut previous_step = baseline.total;
    for (i, (name, description, kind, estimate)) in scenarios.into_iter().enumerate() {
        for l in &estimate.line_items {
            match index.get(&l.key) {
                Some(&r) => rows[r].scenarios[i] = l.cost,
                None => {
                    index.insert(l.key.clone(), rows.len());
                    let mut cells = vec![None; results.len() + 1];
                    cells[i] = l.cost;
                    rows.push(Row {
                        key: l.key.clone(),
                        table: l.table.to_string(),
                        component: l.component,
                        label: l.label.to_string(),
                        baseline: None,
                        scenarios: cells,
                    });
                }
            }
        }
        let step_delta = (kind == ScenarioKind::Step).then(|| estimate.total - previous_step);
        if kind == ScenarioKind::Step {
            previous_step = estimate.total;
        }
        results.push(ScenarioResult {
            name,
            description,
            kind,
            delta: estimate.total - baseline.total,
            step_delta,
            estimate,
        });
    }
    let n = results.len();
    for row in &mut rows {
        row.scenarios.resize(n, None);
    }
    Comparison {
        baseline,
        scenarios: results,
        rows,
        notes: Vec::new(),
    }
}
