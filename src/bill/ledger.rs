//! The bill summed: every DynamoDB row of the billing period counted once, into its place
//! (table or account, region, component, meter), or kept apart and named (credits, refunds,
//! taxes, other line item types), or listed as a usage type nobody maps — so the places, the
//! apart and the unmapped add up exactly to the bill's DynamoDB total. Rows of other services
//! and of other periods are counted, not summed. Memory grows with the places and the hours of
//! provisioned capacity, never with the rows.

use std::collections::{BTreeMap, BTreeSet};

use rust_decimal::Decimal;

use super::map::{Owner, Place, Unplaced, place};
use super::row::{Charge, Row};
use crate::engine::exact_sum::{ExactSum, add_to};
use crate::error::Error;

/// Sums of rows.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Sums {
    pub(crate) rows: u64,
    /// Σ usage amount of the usage rows (covered or not): what was consumed.
    pub(crate) amount: Decimal,
    pub(crate) unblended: Decimal,
    pub(crate) effective: Decimal,
    /// Σ public on-demand cost where stated.
    pub(crate) list: Decimal,
    /// Rows a reservation or a savings plan covered.
    pub(crate) reserved_rows: u64,
    pub(crate) plan_rows: u64,
    /// The exact sums behind amount, unblended, effective and list, from the first row that
    /// adding one by one would round (`engine::exact_sum::add_to`).
    exact: [Option<ExactSum>; 4],
}

fn plus(a: Decimal, b: Decimal) -> Result<Decimal, Error> {
    a.checked_add(b)
        .ok_or_else(|| Error::input("a bill's sum too large to compute"))
}

/// Adds `b` to the running sum `a` (exact, rounded once: the estimate's own rule, so an
/// estimate's export sums back to its total).
fn add(a: &mut Decimal, exact: &mut Option<ExactSum>, b: Decimal) -> Result<(), Error> {
    add_to(a, exact, b).ok_or_else(|| Error::input("a bill's sum too large to compute"))
}

impl Sums {
    fn add(&mut self, row: &Row) -> Result<(), Error> {
        self.rows = self.rows.saturating_add(1);
        match row.charge {
            Charge::ReservedUsage => self.reserved_rows = self.reserved_rows.saturating_add(1),
            Charge::PlanUsage => self.plan_rows = self.plan_rows.saturating_add(1),
            _ => {}
        }
        if matches!(
            row.charge,
            Charge::Usage | Charge::ReservedUsage | Charge::PlanUsage
        ) {
            add(&mut self.amount, &mut self.exact[0], row.amount)?;
        }
        add(&mut self.unblended, &mut self.exact[1], row.unblended)?;
        add(&mut self.effective, &mut self.exact[2], row.effective)?;
        if let Some(l) = row.list {
            add(&mut self.list, &mut self.exact[3], l)?;
        }
        Ok(())
    }
}

/// The provisioned kinds reserved capacity covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Kind {
    Rcu,
    Wcu,
}

/// The bill of one period, summed.
#[derive(Debug, Default)]
pub(crate) struct Ledger {
    pub(crate) places: BTreeMap<Place, Sums>,
    /// Credits, refunds, taxes and other line item types: (charge, its type as written).
    pub(crate) apart: BTreeMap<(Charge, String), Sums>,
    /// Usage types nobody maps, with what they cost.
    pub(crate) unmapped: BTreeMap<String, Sums>,
    /// Σ of every DynamoDB row of the period.
    pub(crate) total: Sums,
    /// Per charge, over the places.
    pub(crate) by_charge: BTreeMap<Charge, Sums>,
    /// Standard provisioned unit-hours per region, kind and hour (Unix seconds of its start).
    pub(crate) hourly: BTreeMap<(String, Kind), BTreeMap<i64, Decimal>>,
    /// Of those, the unit-hours reserved capacity covered.
    pub(crate) reserved_hourly: BTreeMap<(String, Kind), BTreeMap<i64, Decimal>>,
    /// Usage a Database Savings Plan can cover and none covered yet, per region, meter and
    /// hour: its amount (in the usage type's unit).
    pub(crate) eligible: BTreeMap<(String, String), BTreeMap<i64, Decimal>>,
    pub(crate) rows_read: u64,
    pub(crate) other_services: u64,
    pub(crate) other_periods: u64,
    pub(crate) currency: Option<String>,
    pub(crate) period: Option<String>,
    /// The periods seen when none was chosen (more than one is refused at the end).
    pub(crate) periods: BTreeSet<String>,
    pub(crate) files: Vec<String>,
    /// What was left out or counted once, and DynamoDB rows without a cost: said.
    pub(crate) notes: Vec<String>,
    /// DynamoDB rows whose cost was null or empty (counted as 0, and said).
    pub(crate) missing_costs: u64,
    /// Each table's resource tags, as its rows state them (the last value a key is seen with).
    pub(crate) tags: BTreeMap<String, BTreeMap<String, String>>,
}

/// Whether a row is DynamoDB's.
pub(crate) fn is_dynamodb(product: &str) -> bool {
    matches!(product, "AmazonDynamoDB" | "Amazon DynamoDB")
}

impl Ledger {
    /// A ledger of `period` (`YYYY-MM`), or of the only period the files hold.
    pub(crate) fn new(period: Option<String>) -> Ledger {
        Ledger {
            period,
            ..Ledger::default()
        }
    }

    /// Counts `row`, read from `file`.
    ///
    /// # Errors
    /// A second currency; a sum too large.
    pub(crate) fn add(&mut self, row: &Row, file: &str) -> Result<(), Error> {
        self.rows_read = self.rows_read.saturating_add(1);
        if !is_dynamodb(&row.product) {
            self.other_services = self.other_services.saturating_add(1);
            return Ok(());
        }
        if let Some(p) = &self.period
            && *p != row.period
        {
            self.other_periods = self.other_periods.saturating_add(1);
            return Ok(());
        }
        self.periods.insert(row.period.clone());
        match &self.currency {
            None => self.currency = Some(row.currency.clone()),
            Some(c) if *c != row.currency => {
                return Err(Error::input(format!(
                    "DynamoDB rows in {c} and in {}: one currency a bill",
                    row.currency
                ))
                .file(file)
                .help(
                    "Consider the bills of each payer account (each currency) one run at a time.",
                ));
            }
            Some(_) => {}
        }
        if row.cost_missing {
            self.missing_costs = self.missing_costs.saturating_add(1);
        }
        self.total.add(row)?;
        if row.charge.is_apart() {
            return self
                .apart
                .entry((row.charge, row.kind.clone()))
                .or_default()
                .add(row);
        }
        match place(row) {
            Ok(p) => {
                if let (Owner::Table(t), false) = (&p.owner, row.tags.is_empty()) {
                    let tags = self.tags.entry(t.clone()).or_default();
                    for (k, v) in &row.tags {
                        tags.insert(k.clone(), v.clone());
                    }
                }
                self.hour(&p, row)?;
                self.by_charge.entry(row.charge).or_default().add(row)?;
                self.places.entry(p).or_default().add(row)
            }
            Err(Unplaced::UnknownUsageType(u)) => self.unmapped.entry(u).or_default().add(row),
        }
    }

    /// Adds a provisioned row's unit-hours to its hour (Standard class: what reserved
    /// capacity covers).
    fn hour(&mut self, p: &Place, row: &Row) -> Result<(), Error> {
        let hour = row.start.div_euclid(3_600).saturating_mul(3_600);
        if row.charge == Charge::Usage
            && matches!(
                p.meter.as_str(),
                "ReadRequestUnits"
                    | "WriteRequestUnits"
                    | "ReplWriteRequestUnits"
                    | "IA-ReadRequestUnits"
                    | "IA-WriteRequestUnits"
                    | "IA-ReplWriteRequestUnits"
                    | "ReadCapacityUnit-Hrs"
                    | "WriteCapacityUnit-Hrs"
                    | "IA-ReadCapacityUnit-Hrs"
                    | "IA-WriteCapacityUnit-Hrs"
                    | "ReplWriteCapacityUnit-Hrs"
                    | "IA-ReplWriteCapacityUnit-Hrs"
            )
        {
            let slot = self
                .eligible
                .entry((p.region.clone(), p.meter.clone()))
                .or_default()
                .entry(hour)
                .or_default();
            *slot = plus(*slot, row.amount)?;
        }
        let kind = match p.meter.as_str() {
            "ReadCapacityUnit-Hrs" => Kind::Rcu,
            "WriteCapacityUnit-Hrs" => Kind::Wcu,
            _ => return Ok(()),
        };
        if !matches!(row.charge, Charge::Usage | Charge::ReservedUsage) {
            return Ok(());
        }
        let key = (p.region.clone(), kind);
        let slot = self
            .hourly
            .entry(key.clone())
            .or_default()
            .entry(hour)
            .or_default();
        *slot = plus(*slot, row.amount)?;
        if row.charge == Charge::ReservedUsage {
            let slot = self
                .reserved_hourly
                .entry(key)
                .or_default()
                .entry(hour)
                .or_default();
            *slot = plus(*slot, row.amount)?;
        }
        Ok(())
    }

    /// Checks what can only be checked at the end: one billing period.
    ///
    /// # Errors
    /// Several periods without `--period`; no DynamoDB row.
    pub(crate) fn finish(&mut self) -> Result<(), Error> {
        if self.period.is_none() && self.periods.len() > 1 {
            let list: Vec<&str> = self.periods.iter().map(String::as_str).collect();
            return Err(Error::input(format!(
                "the bill holds {} billing periods ({})",
                list.len(),
                list.join(", ")
            ))
            .file(self.files.join(", "))
            .help("Consider `--period YYYY-MM` to read one of them."));
        }
        if self.period.is_none() {
            self.period = self.periods.iter().next().cloned();
        }
        if self.missing_costs > 0 {
            self.notes.push(format!(
                "{} DynamoDB row(s) have no cost (null or empty): counted as 0",
                self.missing_costs
            ));
        }
        if self.total.rows == 0 {
            return Err(Error::input(match &self.period {
                Some(p) if self.other_periods > 0 => {
                    format!("no DynamoDB row in billing period {p}")
                }
                _ => format!(
                    "no DynamoDB row (product code AmazonDynamoDB) in {} rows",
                    self.rows_read
                ),
            })
            .file(self.files.join(", "))
            .help(
                "Consider the bill of the account that runs the tables, or another `--period`.",
            ));
        }
        Ok(())
    }

    /// Each table's places, in name order.
    pub(crate) fn tables(&self) -> BTreeSet<&str> {
        self.places
            .keys()
            .filter_map(|p| match &p.owner {
                Owner::Table(t) => Some(t.as_str()),
                Owner::Account => None,
            })
            .collect()
    }

    /// DynamoDB's rows by where they went: (matched to tables, the account's, kept apart,
    /// not mapped); they add up to `total.rows`.
    pub(crate) fn row_counts(&self) -> (u64, u64, u64, u64) {
        let rows = |m: &mut dyn Iterator<Item = &Sums>| m.map(|s| s.rows).sum::<u64>();
        let account = rows(
            &mut self
                .places
                .iter()
                .filter(|(p, _)| p.owner == Owner::Account)
                .map(|(_, s)| s),
        );
        let apart = rows(&mut self.apart.values());
        let unmapped = rows(&mut self.unmapped.values());
        let matched = self
            .total
            .rows
            .saturating_sub(account)
            .saturating_sub(apart)
            .saturating_sub(unmapped);
        (matched, account, apart, unmapped)
    }
}
