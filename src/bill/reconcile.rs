//! Estimate against actual: the workload's estimate and the bill joined per table (or the
//! account), region, component and meter — the estimate's price key turned into the usage
//! type it bills through the same map `prices import` reads (one map, both ways), its
//! quantity into the bill's unit by the map's factor — with the variance in money and percent
//! and its cause where it can be named: the quantity, the rate (below list where a reservation
//! or a savings plan covered the usage, said from the bill's own rows), a component billed and
//! absent from the workload, a table billed and not in the workload, a table of the workload
//! with no bill. The billed side adds up exactly to the bill's DynamoDB total. Pure.

use std::collections::{BTreeMap, BTreeSet};

use rust_decimal::Decimal;

use super::ledger::{Ledger, Sums};
use super::map::{Owner, billed_as, meter_of};
use crate::engine::{Component, Estimate};

/// What a reconciliation row is about.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Key {
    /// `None`: the account.
    pub(crate) table: Option<String>,
    pub(crate) region: String,
    /// The component's name, or what is kept apart (`credit`, `tax`, `not mapped`).
    pub(crate) component: String,
    pub(crate) meter: String,
}

/// The estimate's side of a row.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Estimated {
    /// In the bill's unit (units, unit-hours, GB-months).
    pub(crate) quantity: Decimal,
    pub(crate) cost: Decimal,
    /// Lines whose cost depends on usage the workload does not state.
    pub(crate) unknown: usize,
    pub(crate) lines: usize,
}

/// Why a row's figures differ.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Cause {
    Matches,
    /// The quantities differ (and perhaps the rate too).
    Quantity {
        rate_differs: bool,
    },
    /// The same quantity at another rate: below list, and what the bill shows for it.
    Rate {
        below: bool,
        shows: Shows,
    },
    /// Billed, and the workload's table has no such line.
    NotInWorkload,
    /// Billed for a table the workload does not describe.
    TableNotInWorkload,
    /// Estimated for a table the bill does not bill.
    TableNotBilled,
    /// Estimated, and the bill has no such row for the table.
    NotBilled,
    /// Credits, refunds, taxes, usage types nobody maps: the bill's, outside any estimate.
    Apart,
    /// The account's fees (commitments) on both sides, or only one.
    Account,
}

/// What the bill shows about a rate below list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shows {
    Reservation,
    SavingsPlan,
    /// No commitment row: a discount, a private rate or a free tier.
    Nothing,
}

#[derive(Debug, Clone)]
pub(crate) struct Row {
    pub(crate) key: Key,
    pub(crate) estimated: Option<Estimated>,
    pub(crate) billed: Option<Sums>,
    pub(crate) cause: Cause,
}

impl Row {
    /// Billed unblended − estimated cost.
    pub(crate) fn variance(&self) -> Decimal {
        let billed = self.billed.as_ref().map_or(Decimal::ZERO, |b| b.unblended);
        let est = self.estimated.as_ref().map_or(Decimal::ZERO, |e| e.cost);
        billed.checked_sub(est).unwrap_or_default()
    }

    /// The variance as a share of the estimate (`None` when nothing was estimated).
    pub(crate) fn share(&self) -> Option<Decimal> {
        let est = self.estimated.as_ref().map(|e| e.cost)?;
        (!est.is_zero()).then(|| self.variance().checked_div(est).unwrap_or_default())
    }
}

/// The reconciliation: its rows, and the two totals.
#[derive(Debug)]
pub(crate) struct Reconciliation {
    pub(crate) rows: Vec<Row>,
    pub(crate) estimated: Decimal,
    pub(crate) billed: Sums,
    pub(crate) hours: Decimal,
}

fn add(a: Decimal, b: Decimal) -> Decimal {
    a.checked_add(b).unwrap_or(Decimal::MAX)
}

/// The estimate's side, by key.
fn estimated(estimate: &Estimate) -> BTreeMap<Key, Estimated> {
    let mut out: BTreeMap<Key, Estimated> = BTreeMap::new();
    for line in &estimate.line_items {
        let component = billed_as(line.component);
        let account = matches!(
            component,
            Component::ReservedCapacity | Component::SavingsPlan | Component::FreeTier
        );
        let (meter, factor) = meter_of(&line.price_key).map_or_else(
            || (component.name().to_string(), 1),
            |(m, f)| (m.to_string(), f),
        );
        let key = Key {
            table: (!account).then(|| line.table.to_string()),
            region: line.region.to_string(),
            component: component.name().to_string(),
            meter,
        };
        let e = out.entry(key).or_default();
        e.lines = e.lines.saturating_add(1);
        match (line.quantity, line.cost) {
            (Some(q), Some(c)) => {
                e.quantity = add(
                    e.quantity,
                    q.checked_mul(Decimal::from(factor)).unwrap_or(Decimal::MAX),
                );
                e.cost = add(e.cost, c);
            }
            (None, Some(c)) => e.cost = add(e.cost, c),
            _ => e.unknown = e.unknown.saturating_add(1),
        }
    }
    out
}

/// The estimate's cost a day per (table, region, meter), a month being `month_days` days:
/// what `anomalies --workload` sets each day of a bill against.
pub(crate) fn expected_daily(
    estimate: &Estimate,
    month_days: Decimal,
) -> BTreeMap<(Option<String>, String, String), Decimal> {
    let mut out: BTreeMap<(Option<String>, String, String), Decimal> = BTreeMap::new();
    for (k, e) in estimated(estimate) {
        let a_day = e.cost.checked_div(month_days).unwrap_or_default();
        let slot = out.entry((k.table, k.region, k.meter)).or_default();
        *slot = add(*slot, a_day);
    }
    out
}

/// The bill's side, by key: its places, what is kept apart, what nobody maps.
fn billed(ledger: &Ledger) -> BTreeMap<Key, Sums> {
    let mut out: BTreeMap<Key, Sums> = BTreeMap::new();
    for (p, s) in &ledger.places {
        let key = Key {
            table: match &p.owner {
                Owner::Table(t) => Some(t.clone()),
                Owner::Account => None,
            },
            region: p.region.clone(),
            component: p.component.name().to_string(),
            meter: p.meter.clone(),
        };
        out.insert(key, s.clone());
    }
    for ((charge, kind), s) in &ledger.apart {
        out.insert(
            Key {
                table: None,
                region: String::new(),
                component: charge.name().to_string(),
                meter: kind.clone(),
            },
            s.clone(),
        );
    }
    for (usage_type, s) in &ledger.unmapped {
        out.insert(
            Key {
                table: None,
                region: String::new(),
                component: "not mapped".to_string(),
                meter: usage_type.clone(),
            },
            s.clone(),
        );
    }
    out
}

fn cause(
    key: &Key,
    e: Option<&Estimated>,
    b: Option<&Sums>,
    (workload_tables, billed_tables): (&BTreeSet<String>, &BTreeSet<String>),
    apart: bool,
) -> Cause {
    if apart {
        return Cause::Apart;
    }
    let Some(table) = &key.table else {
        return Cause::Account;
    };
    match (e, b) {
        (Some(_), None) if !billed_tables.contains(table) => Cause::TableNotBilled,
        (Some(_), None) => Cause::NotBilled,
        (None, Some(_)) if !workload_tables.contains(table) => Cause::TableNotInWorkload,
        (None, _) => Cause::NotInWorkload,
        (Some(e), Some(b)) => {
            let cost_same = e.cost == b.unblended;
            if e.quantity == b.amount && cost_same {
                Cause::Matches
            } else if e.quantity == b.amount {
                Cause::Rate {
                    below: b.unblended < e.cost,
                    shows: if b.reserved_rows > 0 {
                        Shows::Reservation
                    } else if b.plan_rows > 0 {
                        Shows::SavingsPlan
                    } else {
                        Shows::Nothing
                    },
                }
            } else {
                // The rate the bill charged against the estimate's, per unit.
                let rate = |cost: Decimal, q: Decimal| cost.checked_div(q);
                Cause::Quantity {
                    rate_differs: rate(b.unblended, b.amount) != rate(e.cost, e.quantity),
                }
            }
        }
    }
}

/// Joins `estimate` (for the billing period's `hours`) and `ledger`.
#[must_use]
pub(crate) fn reconcile(estimate: &Estimate, ledger: &Ledger, hours: Decimal) -> Reconciliation {
    let est = estimated(estimate);
    let bill = billed(ledger);
    let workload_tables: BTreeSet<String> = estimate
        .line_items
        .iter()
        .map(|l| l.table.to_string())
        .collect();
    let billed_tables: BTreeSet<String> = ledger.tables().into_iter().map(str::to_string).collect();
    let keys: BTreeSet<&Key> = est.keys().chain(bill.keys()).collect();
    let apart_names: BTreeSet<String> = ledger
        .apart
        .keys()
        .map(|(c, _)| c.name().to_string())
        .chain(std::iter::once("not mapped".to_string()))
        .collect();
    let rows = keys
        .into_iter()
        .map(|k| {
            let e = est.get(k);
            let b = bill.get(k);
            let apart = k.table.is_none() && e.is_none() && apart_names.contains(&k.component);
            Row {
                key: k.clone(),
                estimated: e.cloned(),
                billed: b.cloned(),
                cause: cause(k, e, b, (&workload_tables, &billed_tables), apart),
            }
        })
        .collect();
    Reconciliation {
        rows,
        estimated: estimate.total,
        billed: ledger.total.clone(),
        hours,
    }
}
