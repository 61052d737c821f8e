//! A bill split over tenants (`ddbcost allocate`): each billed line of each table is split
//! by the driver that caused it, from the consumed-capacity logs — reads by read units (the
//! table's and its indexes', which the bill charges to the table), writes and replicated
//! writes by write units — and what no tenant caused is a named remainder: the units of
//! requests that name no tenant, lines no source measures per tenant yet (storage, PITR,
//! backups: bytes per tenant come from an export), account-wide fees, and credits, refunds
//! and taxes. Per line, the tenants' shares and the remainders add up to the line exactly;
//! over the bill, to the bill's DynamoDB total.

use std::collections::BTreeMap;

use rust_decimal::Decimal;

use super::log::LogUsage;
use super::split::{SplitError, split};
use crate::bill::ledger::{Ledger, Sums};
use crate::bill::map::Owner;
use crate::engine::Component;
use crate::error::Error;

/// What no tenant caused, by why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Remainder {
    /// Units of requests whose key names no tenant (a scan, a key outside the pattern).
    Untenanted,
    /// Lines whose driver no source gives per tenant yet (storage, PITR, backups, streams…).
    Unmeasured,
    /// A line whose units the logs never show (a table, or a kind of request, they miss).
    NotInLogs,
    /// Account-wide charges: reservation and savings plan fees.
    Account,
    /// Credits, refunds, taxes, and usage types nobody maps.
    Apart,
    /// The digits below 10^-12 a proportional split leaves.
    Rounding,
}

impl Remainder {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Remainder::Untenanted => "untenanted requests",
            Remainder::Unmeasured => "not measured per tenant (storage, backups: needs an export)",
            Remainder::NotInLogs => "lines the logs show no units for",
            Remainder::Account => "account-wide (reservation and savings plan fees)",
            Remainder::Apart => "credits, refunds, taxes and unmapped usage",
            Remainder::Rounding => "below 10^-12 of a split",
        }
    }
}

/// Money: unblended (as billed) and effective (with commitments amortized).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Money {
    pub(crate) unblended: Decimal,
    pub(crate) effective: Decimal,
}

impl Money {
    fn of(s: &Sums) -> Money {
        Money {
            unblended: s.unblended,
            effective: s.effective,
        }
    }

    fn add(&mut self, other: Money) -> Result<(), Error> {
        let overflow = || Error::input("an allocated amount past what a decimal holds");
        self.unblended = self
            .unblended
            .checked_add(other.unblended)
            .ok_or_else(overflow)?;
        self.effective = self
            .effective
            .checked_add(other.effective)
            .ok_or_else(overflow)?;
        Ok(())
    }
}

/// The bill split.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Allocation {
    pub(crate) tenants: BTreeMap<String, Money>,
    pub(crate) remainders: BTreeMap<Remainder, Money>,
    pub(crate) total: Money,
}

/// Which units drive a billed component, if the logs measure it.
#[derive(Clone, Copy)]
enum Driver {
    Reads,
    Writes,
}

fn driver(c: Component) -> Option<Driver> {
    match c {
        Component::Reads | Component::ReplicaReads => Some(Driver::Reads),
        Component::Writes | Component::IndexWrites | Component::ReplicatedWrites => {
            Some(Driver::Writes)
        }
        _ => None,
    }
}

fn overflow(e: SplitError) -> Error {
    Error::input(format!("the split of a bill line failed ({e:?})"))
}

/// Splits every line of `ledger` over the tenants of `usage`.
///
/// # Errors
/// A figure past a decimal's range.
pub(crate) fn allocate(ledger: &Ledger, usage: &LogUsage) -> Result<Allocation, Error> {
    // Units per table, tenant (None: untenanted) and driver.
    let mut units: BTreeMap<(&str, Option<&str>), (Decimal, Decimal)> = BTreeMap::new();
    for (place, u) in &usage.by_place {
        let e = units
            .entry((place.table.as_str(), place.tenant.as_deref()))
            .or_default();
        e.0 =
            e.0.checked_add(u.read)
                .ok_or_else(|| overflow(SplitError::Overflow))?;
        e.1 =
            e.1.checked_add(u.write)
                .ok_or_else(|| overflow(SplitError::Overflow))?;
    }
    let mut out = Allocation::default();
    let remain = |out: &mut Allocation, r: Remainder, m: Money| -> Result<(), Error> {
        out.remainders.entry(r).or_default().add(m)
    };
    for (place, sums) in &ledger.places {
        let money = Money::of(sums);
        out.total.add(money)?;
        let Owner::Table(table) = &place.owner else {
            remain(&mut out, Remainder::Account, money)?;
            continue;
        };
        let Some(d) = driver(place.component) else {
            remain(&mut out, Remainder::Unmeasured, money)?;
            continue;
        };
        let pick = |(r, w): (Decimal, Decimal)| match d {
            Driver::Reads => r,
            Driver::Writes => w,
        };
        let tenants: Vec<(&str, Decimal)> = units
            .range((table.as_str(), None)..)
            .take_while(|((t, _), _)| *t == table.as_str())
            .filter_map(|((_, tenant), u)| tenant.map(|name| (name, pick(*u))))
            .collect();
        let untenanted = units
            .get(&(table.as_str(), None))
            .map(|u| pick(*u))
            .unwrap_or_default();
        // The untenanted units are one more party of the split: their share is a remainder
        // of its own, and what the split leaves (its last digits) another.
        let mut drivers: Vec<Decimal> = tenants.iter().map(|(_, d)| *d).collect();
        drivers.push(untenanted);
        if drivers.iter().all(Decimal::is_zero) {
            remain(&mut out, Remainder::NotInLogs, money)?;
            continue;
        }
        let by_unblended = split(money.unblended, &drivers, Decimal::ZERO).map_err(overflow)?;
        let by_effective = split(money.effective, &drivers, Decimal::ZERO).map_err(overflow)?;
        let share = |i: usize| Money {
            unblended: by_unblended.shares.get(i).copied().unwrap_or_default(),
            effective: by_effective.shares.get(i).copied().unwrap_or_default(),
        };
        for (i, (name, _)) in tenants.iter().enumerate() {
            out.tenants
                .entry((*name).to_string())
                .or_default()
                .add(share(i))?;
        }
        remain(&mut out, Remainder::Untenanted, share(tenants.len()))?;
        let digits = Money {
            unblended: by_unblended.remainder,
            effective: by_effective.remainder,
        };
        remain(&mut out, Remainder::Rounding, digits)?;
    }
    for sums in ledger.apart.values().chain(ledger.unmapped.values()) {
        let money = Money::of(sums);
        out.total.add(money)?;
        remain(&mut out, Remainder::Apart, money)?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::allocate::log::{Place, Units};
    use proptest::prelude::*;

    const HEADER: &str = "line_item_line_item_type,line_item_usage_start_date,line_item_product_code,line_item_usage_type,line_item_resource_id,line_item_usage_amount,line_item_currency_code,line_item_unblended_cost\n";
    const USAGE: [&str; 4] = [
        "ReadRequestUnits",
        "WriteRequestUnits",
        "TimedStorage-ByteHrs",
        "ReplWriteRequestUnits",
    ];

    fn ledger(rows: &[(usize, usize, i64)]) -> Ledger {
        let mut text = String::from(HEADER);
        for (t, u, cents) in rows {
            text.push_str(&format!(
                "Usage,2026-11-01T00:00:00Z,AmazonDynamoDB,{},arn:aws:dynamodb:us-east-1:1:table/t{t},1,USD,{}\n",
                USAGE[*u],
                Decimal::new(*cents, 4)
            ));
        }
        let mut ledger = Ledger::new(None);
        let mut sink = |row: crate::bill::row::Row| ledger.add(&row, "p.csv");
        crate::bill::read::csv(text.as_bytes(), "p.csv", &mut sink).unwrap();
        ledger.finish().unwrap();
        ledger
    }

    proptest! {
        /// For any bill and any drivers: the tenants and the remainders add up to the bill
        /// exactly, unblended and effective; a tenant the logs give no units gets nothing.
        #[test]
        fn tenants_and_remainders_add_up_to_the_bill(
            rows in proptest::collection::vec((0usize..4, 0usize..4, -1_000_000i64..100_000_000), 1..30),
            drivers in proptest::collection::vec(
                (0usize..4, proptest::option::of(0u8..6), 0i64..1_000_000, 0i64..1_000_000),
                0..40,
            ),
        ) {
            let ledger = ledger(&rows);
            let mut usage = LogUsage::default();
            for (t, tenant, r, w) in &drivers {
                let u = usage.by_place.entry(Place {
                    table: format!("t{t}"),
                    index: None,
                    tenant: tenant.map(|n| format!("org{n}")),
                    pattern: None,
                }).or_insert(Units::default());
                u.read = u.read.checked_add(Decimal::new(*r, 1)).unwrap();
                u.write = u.write.checked_add(Decimal::new(*w, 1)).unwrap();
            }
            // A tenant with a place but no units.
            usage.by_place.insert(
                Place { table: "t0".into(), index: None, tenant: Some("idle".into()), pattern: None },
                Units::default(),
            );
            let a = allocate(&ledger, &usage).unwrap();
            let mut sum = Money::default();
            for m in a.tenants.values().chain(a.remainders.values()) {
                sum.add(*m).unwrap();
            }
            prop_assert_eq!(sum, a.total);
            prop_assert_eq!(a.total.unblended, ledger.total.unblended);
            prop_assert!(a.tenants.get("idle").is_none_or(|m| m.unblended.is_zero() && m.effective.is_zero()));
        }
    }
}
