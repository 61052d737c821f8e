//! The sweep's per-table path. A design's bill is its tables' lines one after another, so
//! where nothing is pooled across tables (no reservations, no savings plan, no free tier, no
//! transfer out), each table is loaded and priced once per combination of the values on its
//! own axes — a one-table document, its patches merged in — and a design's total is every
//! table's line costs summed exactly and rounded once, as `estimate` makes its total.
//!
//! A pattern's `rate` is the one field set on the typed model instead of the document: the
//! loader reads it from the rate alone, so the rate a value loads to is written into the
//! pattern of the table its other axes loaded. Anything this path cannot price exactly — a
//! table left out by a patch, two tables refused at once, lines pooled across tables, a sum
//! out of range — is handed back (`None`), and the design is priced as a whole document.

use std::sync::Arc;

use serde_json::{Map, Value};

use super::Axis;
use super::grid::{Priced, in_parallel};
use crate::commands::pricing::DocumentPricer;
use crate::engine::exact_sum::ExactSum;
use crate::model::{PriceKey, Rate, Table, Workload};
use crate::scenario;

/// Tables priced once per combination of their values when they have at most this many
/// (about 300 B each), and fewer than the designs.
const PRICED_KEPT: usize = 1 << 16;
/// Loaded tables kept per combination of their document axes, at most this many (a few KB each).
const LOADED_KEPT: usize = 4096;

/// What one table adds to a design.
#[derive(Debug, Clone)]
enum Part {
    /// Its lines' costs (lines without a price left out) summed exactly, and before the
    /// conversion to another currency, when the run converts.
    Costs(Box<(ExactSum, ExactSum)>),
    /// The loader's or the engine's reason.
    Refused(Arc<str>),
    /// Its lines are pooled with other tables' (transfer out): only the whole bill says.
    Whole,
}

/// A table loaded with the values of its document axes, or the reason it was refused.
type Loaded = Result<Table, Arc<str>>;

/// A rate axis: the pattern it sets and what each value loads to (`None`: refused).
struct RateAxis {
    axis: usize,
    pattern: String,
    rates: Vec<Option<Rate>>,
}

struct TablePlan {
    /// The base document with this table alone (`None` when no axis is on it).
    alone: Option<Value>,
    /// The axes on this table, in axis order; those set through the document; the rates.
    axes: Vec<usize>,
    doc_axes: Vec<usize>,
    rates: Vec<RateAxis>,
    /// Per combination of the document axes, when kept.
    loaded: Option<Vec<Loaded>>,
    keep_loaded: bool,
    /// Per combination of every axis on the table, when kept.
    priced: Option<Vec<Part>>,
    keep_priced: bool,
    /// The table as the baseline loaded it.
    base: Table,
}

/// The per-table plan of a sweep.
pub(super) struct Plan<'a> {
    axes: &'a [Axis],
    pricer: &'a DocumentPricer<'a>,
    label: &'a str,
    /// The baseline's workload without its tables: what a table is priced in.
    shell: Workload,
    tables: Vec<TablePlan>,
}

/// A thread's scratch: the shell, and the table each plan loaded last.
pub(super) struct Worker {
    shell: Workload,
    held: Vec<Option<(usize, Loaded)>>,
}

/// `choice`'s combination on `axes` (mixed radix, the last axis fastest).
fn index(axes: &[usize], all: &[Axis], choice: &[usize]) -> usize {
    axes.iter().fold(0usize, |j, &a| {
        j.saturating_mul(all[a].values.len())
            .saturating_add(choice[a])
    })
}

/// The choice (zero off `axes`) whose combination on `axes` is `j`.
fn choice_of(axes: &[usize], all: &[Axis], mut j: usize) -> Vec<usize> {
    let mut choice = vec![0; all.len()];
    for &a in axes.iter().rev() {
        let len = all[a].values.len().max(1);
        choice[a] = j.checked_rem(len).unwrap_or(0);
        j = j.checked_div(len).unwrap_or(0);
    }
    choice
}

fn product(axes: &[usize], all: &[Axis]) -> Option<usize> {
    axes.iter()
        .try_fold(1usize, |n, &a| n.checked_mul(all[a].values.len()))
}

impl<'a> Plan<'a> {
    /// The plan, or `None` where the bill pools lines across tables or an axis is not on one
    /// table (`settings`, `commitments`, `tables` itself).
    pub(super) fn new(
        axes: &'a [Axis],
        base: &Value,
        model: &Workload,
        pricer: &'a DocumentPricer<'a>,
        label: &'a str,
        designs: usize,
    ) -> Option<Self> {
        if pricer.settings.free_tier
            || !model.reservations.is_empty()
            || model.savings_plan.is_some()
        {
            return None;
        }
        let docs = base.get("tables")?.as_object()?;
        if docs.len() != model.tables.len()
            || !docs.keys().zip(&model.tables).all(|(k, t)| **k == *t.name)
        {
            return None;
        }
        let segments: Vec<Vec<&str>> = axes
            .iter()
            .map(|a| a.path.split('.').map(str::trim).collect())
            .collect();
        let mut owner = Vec::with_capacity(axes.len());
        for s in &segments {
            if s.len() < 2 || s[0] != "tables" {
                return None;
            }
            owner.push(docs.keys().position(|k| k == s[1])?);
        }
        let mut frame = base.clone();
        frame["tables"] = Value::Object(Map::new());
        let mut shell = model.clone();
        shell.tables.clear();
        let mut plan = Plan {
            axes,
            pricer,
            label,
            shell,
            tables: Vec::with_capacity(docs.len()),
        };
        for (t, ((name, doc), base_table)) in docs.iter().zip(&model.tables).enumerate() {
            let on: Vec<usize> = (0..axes.len()).filter(|&a| owner[a] == t).collect();
            let alone = (!on.is_empty()).then(|| {
                let mut one = frame.clone();
                one["tables"] = Value::Object(Map::from_iter([(name.clone(), doc.clone())]));
                one
            });
            let mut doc_axes = Vec::new();
            let mut rates = Vec::new();
            for &a in &on {
                let s = &segments[a];
                // A rate no other axis on the table replaces (`tables.T.patterns.P: {…}`).
                let typed = s.len() == 5
                    && s[2] == "patterns"
                    && s[4] == "rate"
                    && doc.get("patterns").and_then(|p| p.get(s[3])).is_some()
                    && !on
                        .iter()
                        .any(|&b| b != a && segments[b].len() < 5 && s.starts_with(&segments[b]));
                match (&alone, typed) {
                    (Some(one), true) => rates.push(RateAxis {
                        axis: a,
                        pattern: s[3].to_string(),
                        rates: axes[a]
                            .values
                            .iter()
                            .map(|(_, patch)| plan.rate_alone(one, patch, s[3]))
                            .collect(),
                    }),
                    _ => doc_axes.push(a),
                }
            }
            let combos = product(&on, axes)?;
            let doc_combos = product(&doc_axes, axes)?;
            let keep_priced = combos <= PRICED_KEPT && combos < designs;
            let computed = if keep_priced { combos } else { designs };
            plan.tables.push(TablePlan {
                alone,
                axes: on,
                doc_axes,
                rates,
                loaded: None,
                keep_loaded: doc_combos <= LOADED_KEPT && doc_combos < computed,
                priced: None,
                keep_priced,
                base: base_table.clone(),
            });
        }
        Some(plan)
    }

    /// How many axes are rates set on the model.
    #[cfg(test)]
    pub(super) fn typed_rates(&self) -> usize {
        self.tables.iter().map(|t| t.rates.len()).sum()
    }

    /// The rate a pattern's value loads to in the table's document, if the loader takes it.
    fn rate_alone(&self, alone: &Value, patch: &Value, pattern: &str) -> Option<Rate> {
        let mut doc = alone.clone();
        scenario::apply(&mut doc, patch);
        let w = self.pricer.load(doc, self.label).ok()?;
        let p = w
            .tables
            .first()?
            .patterns
            .iter()
            .find(|p| *p.name == *pattern)?;
        Some(p.rate)
    }

    /// A thread's scratch.
    pub(super) fn worker(&self) -> Worker {
        Worker {
            shell: self.shell.clone(),
            held: self.tables.iter().map(|_| None).collect(),
        }
    }

    /// Loads, then prices, the combinations each table keeps, on `jobs` threads.
    ///
    /// # Errors
    /// A worker panicked.
    pub(super) fn remember(&mut self, jobs: usize) -> Result<(), crate::error::Error> {
        for t in 0..self.tables.len() {
            if self.tables[t].keep_loaded {
                let this = &*self;
                let plan = &this.tables[t];
                let n = product(&plan.doc_axes, this.axes).unwrap_or(0);
                let loaded = in_parallel(n, jobs, |range| {
                    range
                        .map(|j| this.load(plan, &choice_of(&plan.doc_axes, this.axes, j)))
                        .collect()
                })?;
                self.tables[t].loaded = Some(loaded);
            }
            if self.tables[t].keep_priced {
                let this = &*self;
                let plan = &this.tables[t];
                let n = product(&plan.axes, this.axes).unwrap_or(0);
                let priced = in_parallel(n, jobs, |range| {
                    let mut worker = this.worker();
                    range
                        .map(|j| this.part(t, &choice_of(&plan.axes, this.axes, j), &mut worker))
                        .collect()
                })?;
                self.tables[t].priced = Some(priced);
            }
        }
        Ok(())
    }

    /// A design's total or reason, or `None` when only the whole document can say.
    pub(super) fn design(&self, choice: &[usize], worker: &mut Worker) -> Option<Priced> {
        let mut total = ExactSum::default();
        let mut before_total = ExactSum::default();
        let mut refused: Option<Arc<str>> = None;
        for (t, plan) in self.tables.iter().enumerate() {
            let owned;
            let part = match &plan.priced {
                Some(kept) => kept.get(index(&plan.axes, self.axes, choice))?,
                None => {
                    owned = self.part(t, choice, worker);
                    &owned
                }
            };
            match part {
                Part::Whole => return None,
                Part::Refused(why) => {
                    if refused.is_some() {
                        // Which of two refusals the loader meets first: the whole document says.
                        return None;
                    }
                    refused = Some(Arc::clone(why));
                }
                Part::Costs(sums) => {
                    total = total.plus(&sums.0)?;
                    before_total = before_total.plus(&sums.1)?;
                }
            }
        }
        // The engine's total of the whole document: the exact sum of the same lines, rounded
        // once; the sum before the conversion must fit as the engine's did.
        let total = total.value()?;
        before_total.value()?;
        Some(refused.map_or(Priced::Total(total), Priced::Refused))
    }

    /// Table `t`'s part of the design `choice`.
    fn part(&self, t: usize, choice: &[usize], worker: &mut Worker) -> Part {
        let plan = &self.tables[t];
        if plan.alone.is_none() {
            return self.price(plan.base.clone(), worker).0;
        }
        let j = index(&plan.doc_axes, self.axes, choice);
        let (held_j, loaded) = match worker.held[t].take() {
            Some((hj, l)) if hj == j => (hj, l),
            _ => (
                j,
                match &plan.loaded {
                    Some(kept) => kept[j].clone(),
                    None => self.load(plan, choice),
                },
            ),
        };
        let mut table = match loaded {
            Ok(table) => table,
            // With no rate set on the model, the document axes are all the table's: the
            // loader's reason is this part's.
            Err(why) if plan.rates.is_empty() && !why.is_empty() => {
                worker.held[t] = Some((held_j, Err(Arc::clone(&why))));
                return Part::Refused(why);
            }
            Err(why) => {
                worker.held[t] = Some((held_j, Err(why)));
                return self.exact(plan, choice, worker);
            }
        };
        for r in &plan.rates {
            let pattern = table.patterns.iter_mut().find(|p| *p.name == *r.pattern);
            match (r.rates[choice[r.axis]], pattern) {
                (Some(rate), Some(p)) => p.rate = rate,
                _ => {
                    worker.held[t] = Some((held_j, Ok(table)));
                    return self.exact(plan, choice, worker);
                }
            }
        }
        let (part, table) = self.price(table, worker);
        worker.held[t] = Some((held_j, Ok(table)));
        part
    }

    /// The table loaded with the values of its document axes in `choice` (an empty reason:
    /// a patch removed the table).
    fn load(&self, plan: &TablePlan, choice: &[usize]) -> Loaded {
        let Some(alone) = &plan.alone else {
            return Ok(plan.base.clone());
        };
        let mut doc = alone.clone();
        for &a in &plan.doc_axes {
            scenario::apply(&mut doc, &self.axes[a].values[choice[a]].1);
        }
        if removed(&doc) {
            return Err(Arc::from(""));
        }
        match self.pricer.load(doc, self.label) {
            Ok(mut w) if w.tables.len() == 1 => Ok(w.tables.swap_remove(0)),
            Ok(_) => Err(Arc::from("")),
            Err(e) => Err(Arc::from(&*e.message)),
        }
    }

    /// The part as the document with every value on the table loads and prices it: the
    /// loader's first reason where a value is refused.
    fn exact(&self, plan: &TablePlan, choice: &[usize], worker: &mut Worker) -> Part {
        let Some(alone) = &plan.alone else {
            return Part::Whole;
        };
        let mut doc = alone.clone();
        for &a in &plan.axes {
            scenario::apply(&mut doc, &self.axes[a].values[choice[a]].1);
        }
        if removed(&doc) {
            // A patch that removed the table: the whole document says what that costs.
            return Part::Whole;
        }
        match self.pricer.load(doc, self.label) {
            Ok(mut w) if w.tables.len() == 1 => self.price(w.tables.swap_remove(0), worker).0,
            Ok(_) => Part::Whole,
            Err(e) => Part::Refused(Arc::from(&*e.message)),
        }
    }

    /// `table` priced alone in the baseline's workload, and the table back.
    fn price(&self, table: Table, worker: &mut Worker) -> (Part, Table) {
        worker.shell.tables.push(table);
        let priced = self.pricer.price_with_costs(&worker.shell, self.label);
        let table = worker
            .shell
            .tables
            .pop()
            .unwrap_or_else(|| self.tables[0].base.clone());
        let transfer = PriceKey::TransferOutGb.path();
        let part = match priced {
            Err(e) => Part::Refused(Arc::from(&*e.message)),
            Ok((e, _)) if e.line_items.iter().any(|l| l.price_key == transfer) => Part::Whole,
            Ok((e, before)) => match (
                ExactSum::of(e.line_items.iter().filter_map(|l| l.cost)),
                ExactSum::of(before.unwrap_or_default()),
            ) {
                (Some(sum), Some(before)) => Part::Costs(Box::new((sum, before))),
                _ => Part::Whole,
            },
        };
        (part, table)
    }
}

/// A one-table document whose table a patch removed (`tables.T: null`).
fn removed(doc: &Value) -> bool {
    doc.get("tables")
        .and_then(Value::as_object)
        .is_none_or(|t| t.values().all(Value::is_null) || t.is_empty())
}
