//! Comparing estimates: line items joined on their stable keys (never on labels), totals and
//! deltas against the baseline, and for cumulative steps the delta of each step on its own.
//! Every sum and difference is computed here, once, with checked arithmetic, so that the
//! renderers only format numbers and an extreme custom price ends in an error, not a panic.

use indexmap::IndexMap;
use rust_decimal::Decimal;

use super::ScenarioKind;
use crate::engine::checked::{add, sub};
use crate::engine::{Component, EngineError, Estimate, percent_of};

/// What `compare` is given for one scenario.
#[derive(Debug, Clone)]
pub struct ScenarioInput {
    pub name: String,
    pub description: Option<String>,
    pub kind: ScenarioKind,
    pub estimate: Estimate,
    /// For a step: the total of the step before it in the workload's sequence (the baseline's
    /// for the first), whether or not that step is shown.
    pub previous_total: Option<Decimal>,
}

/// One scenario's estimate and how it differs.
#[derive(Debug, Clone)]
pub struct ScenarioResult {
    pub name: String,
    pub description: Option<String>,
    pub kind: ScenarioKind,
    pub estimate: Estimate,
    /// Total minus the baseline's total: cumulative for a step (it includes every earlier
    /// step's change).
    pub delta: Decimal,
    /// `delta` as a percentage of the baseline total (`None` for a zero baseline).
    pub delta_percent: Option<Decimal>,
    /// For a step: its own change, total minus the previous step's (or the baseline's).
    pub step_delta: Option<Decimal>,
    /// What the change costs once (a GSI's backfill, a first load), where the command
    /// knows both designs (`diff`, `compare`); empty otherwise.
    pub one_time: Vec<crate::engine::once::OneTime>,
}

/// One line item across the baseline and the scenarios: its cost in each, `None` where the
/// line does not exist (or its cost is unknown).
#[derive(Debug, Clone)]
pub struct Row {
    pub key: String,
    pub table: String,
    pub component: Component,
    /// The baseline's label, or (for a line only scenarios have) the first scenario's.
    pub label: String,
    /// Each scenario's own label for the line (its quantity and rule), `None` where the
    /// line is absent: a cell's cost is read beside its own label, not the baseline's.
    pub labels: Vec<Option<String>>,
    pub baseline: Option<Decimal>,
    pub scenarios: Vec<Option<Decimal>>,
    /// Each scenario's cost minus the baseline's (an absent line counts as zero).
    pub deltas: Vec<Decimal>,
}

impl Row {
    /// The scenarios (by index) among `shown` whose line reads differently from `label`,
    /// with their own label: a different quantity (`40 × 730 h` where the baseline has 20)
    /// or a different rule (provisioned capacity where the baseline has request units).
    pub fn other_labels(
        &self,
        shown: std::ops::Range<usize>,
    ) -> impl Iterator<Item = (usize, &str)> + '_ {
        self.labels
            .iter()
            .enumerate()
            .skip(shown.start)
            .take(shown.len())
            .filter_map(|(i, l)| match l {
                Some(l) if *l != self.label => Some((i, l.as_str())),
                _ => None,
            })
    }
}

/// A table's subtotal in the baseline and in each scenario, with the deltas.
#[derive(Debug, Clone)]
pub struct TableTotals {
    pub table: String,
    pub baseline: Decimal,
    pub scenarios: Vec<Decimal>,
    pub deltas: Vec<Decimal>,
}

#[derive(Debug, Clone)]
pub struct Comparison {
    pub baseline: Estimate,
    pub scenarios: Vec<ScenarioResult>,
    pub rows: Vec<Row>,
    /// Tables in order of first appearance, with their subtotals.
    pub tables: Vec<TableTotals>,
    /// Remarks worth reading next to the numbers (break-even utilization…).
    pub notes: Vec<String>,
}

/// One row of the waterfall: a step's own change and the running total after it.
#[derive(Debug, Clone)]
pub struct WaterfallStep<'a> {
    pub name: &'a str,
    pub delta: Decimal,
    pub running: Decimal,
}

/// The cumulative steps as a waterfall: start, the delta of each step, end. When only some
/// steps are shown, the change of the steps left out is one row of its own, so the deltas
/// always add up to end − start.
#[derive(Debug, Clone)]
pub struct Waterfall<'a> {
    pub start: Decimal,
    pub steps: Vec<WaterfallStep<'a>>,
    pub end: Decimal,
    pub change: Decimal,
}

/// The waterfall's label for the change of steps that are not shown.
pub(super) const OMITTED_STEPS: &str = "(steps not shown)";

impl Comparison {
    /// Each table's totals with its rows, in order: one pass over the rows.
    #[must_use]
    pub fn rows_by_table(&self) -> Vec<(&TableTotals, Vec<&Row>)> {
        let position: std::collections::HashMap<&str, usize> = self
            .tables
            .iter()
            .enumerate()
            .map(|(i, t)| (t.table.as_str(), i))
            .collect();
        let mut out: Vec<(&TableTotals, Vec<&Row>)> =
            self.tables.iter().map(|t| (t, Vec::new())).collect();
        for r in &self.rows {
            if let Some(&i) = position.get(r.table.as_str()) {
                out[i].1.push(r);
            }
        }
        out
    }

    /// The waterfall of the cumulative steps, if there are any.
    #[must_use]
    pub fn waterfall(&self) -> Option<Waterfall<'_>> {
        let steps: Vec<&ScenarioResult> = self
            .scenarios
            .iter()
            .filter(|s| s.kind == ScenarioKind::Step)
            .collect();
        let last = steps.last()?;
        let mut out = Vec::with_capacity(steps.len());
        let mut running = self.baseline.total;
        for s in &steps {
            let own = s.step_delta.unwrap_or(s.delta);
            // The total before this step, as the workload's sequence has it.
            let before = s.estimate.total.checked_sub(own)?;
            if before != running {
                out.push(WaterfallStep {
                    name: OMITTED_STEPS,
                    delta: before.checked_sub(running)?,
                    running: before,
                });
            }
            out.push(WaterfallStep {
                name: &s.name,
                delta: own,
                running: s.estimate.total,
            });
            running = s.estimate.total;
        }
        Some(Waterfall {
            start: self.baseline.total,
            steps: out,
            end: last.estimate.total,
            change: last.delta,
        })
    }
}

/// Joins `scenarios` (steps in order) with `baseline`.
///
/// # Errors
/// A delta or subtotal too large to represent (extreme custom prices).
pub(crate) fn compare(
    baseline: Estimate,
    scenarios: Vec<ScenarioInput>,
) -> Result<Comparison, EngineError> {
    let n = scenarios.len();
    // Rows keyed by line key: one lookup per line, whatever the number of lines.
    let mut rows: IndexMap<String, Row> = IndexMap::with_capacity(baseline.line_items.len());
    for l in &baseline.line_items {
        rows.insert(
            l.key.clone(),
            Row {
                key: l.key.clone(),
                table: l.table.to_string(),
                component: l.component,
                label: l.label.to_string(),
                labels: vec![None; n],
                baseline: l.cost,
                scenarios: vec![None; n],
                deltas: Vec::new(),
            },
        );
    }
    let mut results = Vec::with_capacity(n);
    for (i, input) in scenarios.into_iter().enumerate() {
        for l in &input.estimate.line_items {
            let row = rows.entry(l.key.clone()).or_insert_with(|| Row {
                key: l.key.clone(),
                table: l.table.to_string(),
                component: l.component,
                label: l.label.to_string(),
                labels: vec![None; n],
                baseline: None,
                // A cell per scenario from the start: a line that a later scenario also has
                // is filled in when that scenario's turn comes.
                scenarios: vec![None; n],
                deltas: Vec::new(),
            });
            row.scenarios[i] = l.cost;
            row.labels[i] = Some(l.label.to_string());
        }
        let total = input.estimate.total;
        let delta = sub(total, baseline.total, &input.name)?;
        let step_delta = match (input.kind, input.previous_total) {
            (ScenarioKind::Step, Some(previous)) => Some(sub(total, previous, &input.name)?),
            (ScenarioKind::Step, None) => Some(delta),
            (ScenarioKind::Alternative, _) => None,
        };
        results.push(ScenarioResult {
            name: input.name,
            description: input.description,
            kind: input.kind,
            delta,
            delta_percent: percent_of(delta, baseline.total),
            step_delta,
            estimate: input.estimate,
            one_time: Vec::new(),
        });
    }
    let mut tables: IndexMap<String, TableTotals> = IndexMap::new();
    for row in rows.values_mut() {
        let base = row.baseline.unwrap_or_default();
        row.deltas = row
            .scenarios
            .iter()
            .map(|v| sub(v.unwrap_or_default(), base, &row.key))
            .collect::<Result<_, _>>()?;
        let t = tables
            .entry(row.table.clone())
            .or_insert_with(|| TableTotals {
                table: row.table.clone(),
                baseline: Decimal::ZERO,
                scenarios: vec![Decimal::ZERO; n],
                deltas: Vec::new(),
            });
        t.baseline = add(t.baseline, base, &row.table)?;
        for (sum, v) in t.scenarios.iter_mut().zip(&row.scenarios) {
            *sum = add(*sum, v.unwrap_or_default(), &row.table)?;
        }
    }
    for t in tables.values_mut() {
        t.deltas = t
            .scenarios
            .iter()
            .map(|v| sub(*v, t.baseline, &t.table))
            .collect::<Result<_, _>>()?;
    }
    Ok(Comparison {
        baseline,
        scenarios: results,
        rows: rows.into_values().collect(),
        tables: tables.into_values().collect(),
        notes: Vec::new(),
    })
}
