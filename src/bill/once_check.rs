//! A change's one-time work set against the bill of the month it ran in (issue #51, part 3):
//! each predicted one-time item — a GSI's backfill, a rewrite, a first load, a restore, an
//! export or an import — beside what the bill billed *beyond the month's estimate* on the
//! rows that carry it (the table's writes, restores, exports or imports), and, for a
//! backfill, the write units CloudWatch measured it consume (`OnlineIndexConsumedWriteCapacity`).
//!
//! The bill has no line of its own for a backfill or a rewrite: their write units are billed
//! with the table's. What the month billed past the estimate of the workload after the change
//! is what the one-time work can account for; the rest (or the shortfall) is said, not
//! explained away. Items sharing a row are summed on it.

use std::collections::BTreeMap;

use rust_decimal::Decimal;

use super::reconcile::Reconciliation;
use crate::engine::once::{Change, OneTime};

/// One bill row's one-time work: predicted, billed beyond the estimate, measured.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Check {
    pub(crate) table: String,
    /// `writes`, `restores`, `exports` or `imports`: the rows that bill it.
    pub(crate) component: &'static str,
    pub(crate) items: Vec<OneTime>,
    /// Write units or GB, and what they cost (`None`: an item the workload cannot price).
    pub(crate) predicted: Decimal,
    pub(crate) predicted_cost: Option<Decimal>,
    /// Σ billed − Σ estimated over the table's rows of the component, quantity (in the
    /// bill's unit) and unblended cost; `None` when the bill has no such row for the table.
    pub(crate) billed_beyond: Option<(Decimal, Decimal)>,
    /// Whether the predicted quantity and the billed one are in one unit (request units, GB);
    /// provisioned capacity-hours are not (the cost still compares).
    pub(crate) comparable: bool,
    /// A backfill's write units as CloudWatch measured them, over the GSIs it built.
    pub(crate) measured: Option<Decimal>,
}

/// The row an item is billed on, and its quantity there.
fn billed_on(o: &OneTime) -> Option<(&'static str, Decimal)> {
    match &o.change {
        Change::GsiBackfill { units, .. } => Some(("writes", (*units)?)),
        Change::Rewrite { units, .. } => Some(("writes", *units)),
        Change::InitialLoad {
            units,
            gb,
            by_writes,
            by_import,
            ..
        } => Some(match by_import {
            Some(i) if i <= by_writes => ("imports", *gb),
            _ => ("writes", *units),
        }),
        Change::Restore { gb } => Some(("restores", *gb)),
        Change::Export { gb } => Some(("exports", *gb)),
        Change::Import { gb } => Some(("imports", *gb)),
        _ => None,
    }
}

/// The checks of `items` against the reconciliation's rows; `measured` the backfill write
/// units per (table, GSI) CloudWatch measured in the period.
#[must_use]
pub(crate) fn checks(
    items: &[OneTime],
    rec: &Reconciliation,
    measured: Option<&BTreeMap<(String, String), Decimal>>,
) -> Vec<Check> {
    let mut out: Vec<Check> = Vec::new();
    for o in items {
        let Some((component, quantity)) = billed_on(o) else {
            continue;
        };
        let at = out
            .iter()
            .position(|c| c.table == o.table && c.component == component);
        let i = at.unwrap_or_else(|| {
            out.push(row(&o.table, component, rec));
            out.len().saturating_sub(1)
        });
        let Some(c) = out.get_mut(i) else { continue };
        c.predicted = c.predicted.saturating_add(quantity);
        c.predicted_cost = match (c.predicted_cost, o.cost) {
            (Some(a), Some(b)) => a.checked_add(b),
            _ => None,
        };
        if let (Change::GsiBackfill { index, .. }, Some(m)) = (&o.change, measured)
            && let Some(units) = m.get(&(o.table.clone(), index.clone()))
        {
            c.measured = Some(c.measured.unwrap_or_default().saturating_add(*units));
        }
        c.items.push(o.clone());
    }
    out
}

/// A check of `table`'s `component` rows, nothing predicted yet.
fn row(table: &str, component: &'static str, rec: &Reconciliation) -> Check {
    let rows: Vec<_> = rec
        .rows
        .iter()
        .filter(|r| r.key.table.as_deref() == Some(table) && r.key.component == component)
        .collect();
    let billed_beyond = rows.iter().any(|r| r.billed.is_some()).then(|| {
        rows.iter()
            .fold((Decimal::ZERO, Decimal::ZERO), |(q, c), r| {
                let billed = r.billed.as_ref().map_or(Decimal::ZERO, |b| b.amount);
                let est = r.estimated.as_ref().map_or(Decimal::ZERO, |e| e.quantity);
                (
                    q.saturating_add(billed.saturating_sub(est)),
                    c.saturating_add(r.variance()),
                )
            })
    });
    Check {
        table: table.to_string(),
        component,
        items: Vec::new(),
        predicted: Decimal::ZERO,
        predicted_cost: Some(Decimal::ZERO),
        billed_beyond,
        comparable: component != "writes"
            || rows.iter().all(|r| r.key.meter.ends_with("RequestUnits")),
        measured: None,
    }
}
