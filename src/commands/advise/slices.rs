//! Pricing one table at a time, for `advise`'s candidates and plan steps. Most candidates
//! change one table; where no price couples the tables (no reserved capacity, no savings
//! plan, no free tier), a table's lines depend on that table alone, so a candidate is priced
//! by loading and estimating its table only and adding every line's cost again in the
//! baseline's order — the very sums the whole estimate makes, so each total is identical to
//! the one `compare` shows (checked once against the baseline before it is relied on). A
//! candidate that touches more than one table, or a workload whose tables are coupled, takes
//! the whole-workload path. This keeps `advise` of hundreds of tables linear in its tables
//! instead of quadratic.

use rust_decimal::Decimal;
use serde_json::Value;

use crate::commands::pricing::DocumentPricer;
use crate::engine::Estimate;
use crate::error::Error;
use crate::scenario;

/// One table priced with a patch: its line costs and the workload's total with them.
pub(super) struct Priced {
    at: usize,
    costs: Vec<Option<Decimal>>,
    pub(super) total: Decimal,
}

/// The baseline's line costs, table by table, and the document around its tables.
pub(super) struct Slices {
    /// The baseline document with an empty `tables`.
    frame: Value,
    /// The table keys of the document, in its order.
    keys: Vec<String>,
    /// Each table's line costs, in the baseline's order (`None` for an unknown cost).
    costs: Vec<Vec<Option<Decimal>>>,
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
            costs: Vec::with_capacity(tables.len()),
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
            slices.keys.push(key.clone());
            slices
                .costs
                .push(alone.line_items.iter().map(|l| l.cost).collect());
        }
        // Every baseline line belongs to one table.
        lines.next().is_none().then_some(slices)
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
        self.keys.iter().position(|k| k == key)
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
        let costs: Vec<Option<Decimal>> = alone.line_items.iter().map(|l| l.cost).collect();
        Ok(self
            .total_with(at, &costs)
            .map(|total| Priced { at, costs, total }))
    }

    /// Puts a priced table in place of its slice (a plan step taken).
    pub(super) fn take(&mut self, priced: Priced) {
        if let Some(slot) = self.costs.get_mut(priced.at) {
            *slot = priced.costs;
        }
    }

    /// Every known cost added in the baseline's order, the slice at `at` replaced by `with`:
    /// the sum the engine makes for the whole workload.
    fn total_with(&self, at: usize, with: &[Option<Decimal>]) -> Option<Decimal> {
        let mut total = Decimal::ZERO;
        for (i, costs) in self.costs.iter().enumerate() {
            let costs = if i == at { with } else { costs.as_slice() };
            for cost in costs.iter().flatten() {
                total = total.checked_add(*cost)?;
            }
        }
        Some(total)
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
