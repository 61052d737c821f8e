//! Pricing one table at a time, for `advise`'s candidates and plan steps. Most candidates
//! change one table; where no price couples the tables (no reserved capacity, no savings
//! plan, no free tier), a table's lines depend on that table alone, so a candidate is priced
//! by loading and estimating its table only. The engine's total is the exact sum of the
//! lines rounded once (`engine::exact_sum`), so the bill's exact sum with that table's part
//! taken out and the new part put in is the very total the whole estimate makes — identical
//! to the one `compare` shows (checked once against the baseline before it is relied on) —
//! in time that does not grow with the other tables. A candidate that touches more than one
//! table, or a workload whose tables are coupled, takes the whole-workload path. This keeps
//! `advise` of thousands of tables linear in its tables instead of quadratic.

use rust_decimal::Decimal;
use serde_json::Value;

use crate::commands::pricing::DocumentPricer;
use crate::engine::Estimate;
use crate::engine::exact_sum::ExactSum;
use crate::error::Error;
use crate::scenario;

/// One table priced with a patch: its lines' exact sum and the workload's total with them.
pub(super) struct Priced {
    at: usize,
    sum: ExactSum,
    pub(super) total: Decimal,
}

/// The baseline's line costs, table by table, and the document around its tables.
pub(super) struct Slices {
    /// The baseline document with an empty `tables`.
    frame: Value,
    /// The table keys of the document, in its order.
    keys: Vec<String>,
    /// Each key's place in `keys`.
    places: std::collections::HashMap<String, usize>,
    /// Each table's lines' exact sum (lines of an unknown cost left out).
    sums: Vec<ExactSum>,
    /// Every table's: the bill's exact sum.
    all: ExactSum,
}

impl Slices {
    /// The slices of `base` (priced as `baseline`), or `None` where its tables are priced
    /// together (a commitment or the free tier spans them) or a table cannot be priced alone
    /// to the very lines of the baseline.
    pub(super) fn of(
        base: &Value,
        workload: &crate::model::Workload,
        baseline: &Estimate,
        pricer: &DocumentPricer,
    ) -> Option<Slices> {
        if !workload.reservations.is_empty()
            || workload.savings_plan.is_some()
            || pricer.settings.free_tier
        {
            return None;
        }
        let tables = base.get("tables")?.as_object()?;
        let mut frame = base.clone();
        *frame.get_mut("tables")? = Value::Object(serde_json::Map::new());
        let mut slices = Slices {
            frame,
            keys: Vec::with_capacity(tables.len()),
            places: std::collections::HashMap::with_capacity(tables.len()),
            sums: Vec::with_capacity(tables.len()),
            all: ExactSum::default(),
        };
        let mut lines = baseline.line_items.iter();
        for (key, table) in tables {
            let alone = slices
                .estimate(key, table.clone(), pricer, &pricer.file)
                .ok()?;
            // The table alone must give the baseline's own lines, in its order.
            for line in &alone.line_items {
                let theirs = lines.next()?;
                if theirs.key != line.key || theirs.cost != line.cost {
                    return None;
                }
            }
            let sum = ExactSum::of(alone.line_items.iter().filter_map(|l| l.cost))?;
            slices.all = slices.all.plus(&sum)?;
            slices.places.insert(key.clone(), slices.keys.len());
            slices.keys.push(key.clone());
            slices.sums.push(sum);
        }
        // Every baseline line belongs to one table, and the parts add up to its total.
        (lines.next().is_none() && slices.all.value() == Some(baseline.total)).then_some(slices)
    }

    /// The one table a patch changes, by its place in the document: `None` when the patch
    /// sets anything outside one table of the baseline.
    pub(super) fn table_of(&self, patch: &Value) -> Option<usize> {
        let root = patch.as_object()?;
        if root.len() != 1 {
            return None;
        }
        let tables = root.get("tables")?.as_object()?;
        let mut keys = tables.keys();
        let (Some(key), None) = (keys.next(), keys.next()) else {
            return None;
        };
        // Removing a table, or setting it whole, changes the document's structure.
        if !tables.get(key)?.is_object() {
            return None;
        }
        self.places.get(key).copied()
    }

    /// The table at `at` as the document `doc` holds it, with `patch` applied: its line
    /// costs and the workload's total with them in place of the slice's own; `None` when
    /// that total does not fit a decimal (the whole-workload path then says so).
    ///
    /// # Errors
    /// The patched table cannot be loaded or priced.
    pub(super) fn price(
        &self,
        doc: &Value,
        at: usize,
        patch: &Value,
        pricer: &DocumentPricer,
        label: &str,
    ) -> Result<Option<Priced>, Error> {
        let Some(key) = self.keys.get(at) else {
            return Ok(None);
        };
        let mut table = doc
            .get("tables")
            .and_then(|t| t.get(key))
            .cloned()
            .unwrap_or(Value::Null);
        if let Some(inner) = patch.get("tables").and_then(|t| t.get(key)) {
            scenario::merge_patch(&mut table, inner);
        }
        let alone = self.estimate(key, table, pricer, label)?;
        let Some(sum) = ExactSum::of(alone.line_items.iter().filter_map(|l| l.cost)) else {
            return Ok(None);
        };
        Ok(self
            .with(at, &sum)
            .and_then(|all| all.value())
            .map(|total| Priced { at, sum, total }))
    }

    /// Puts a priced table in place of its slice (a plan step taken).
    pub(super) fn take(&mut self, priced: &Priced) {
        if let (Some(all), Some(slot)) = (
            self.with(priced.at, &priced.sum),
            self.sums.get_mut(priced.at),
        ) {
            *slot = priced.sum;
            self.all = all;
        }
    }

    /// The bill's exact sum with the slice at `at` replaced by `sum`.
    fn with(&self, at: usize, sum: &ExactSum) -> Option<ExactSum> {
        self.all.minus(self.sums.get(at)?)?.plus(sum)
    }

    /// The estimate of the frame holding `table` alone under `key`.
    fn estimate(
        &self,
        key: &str,
        table: Value,
        pricer: &DocumentPricer,
        label: &str,
    ) -> Result<Estimate, Error> {
        let mut doc = self.frame.clone();
        if let Some(Value::Object(tables)) = doc.get_mut("tables") {
            tables.insert(key.to_string(), table);
        }
        pricer.estimate(doc, label)
    }
}
