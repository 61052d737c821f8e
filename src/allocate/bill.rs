//! A bill split over parties — tenants, or pattern labels (`ddbcost allocate`): each billed
//! line of each table is split by the driver that caused it — reads by read units (the
//! table's and its indexes', which the bill charges to the table), writes, replicated writes,
//! streams and change data capture by write units (each index's writes by its own units,
//! which the log gives per index and the bill charges to the table), storage, PITR, backups,
//! restores and exports by bytes (from an export) — and what no party caused is a named
//! remainder: the units of requests that name no party, the capacity provisioned and not
//! consumed (unless spread by choice), lines no source measures per party, account-wide
//! fees, and credits, refunds and taxes. Per line, the parties' shares and the remainders add
//! up to the line exactly; over the bill, to the bill's DynamoDB total.

use std::collections::BTreeMap;

use rust_decimal::Decimal;

use super::split::{SplitError, split};
use crate::bill::ledger::{Ledger, Sums};
use crate::bill::map::Owner;
use crate::engine::Component;
use crate::error::Error;

/// What no party caused, by why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Remainder {
    /// Units of requests that name no party (a scan, a key outside the pattern, no label).
    Unattributed,
    /// Provisioned capacity paid for and not consumed by any logged request.
    Unused,
    /// Lines whose driver no source gives per party (storage without an export…).
    Unmeasured,
    /// What a Contributor Insights report holds past its top keys.
    OutsideTop,
    /// A line whose units the logs never show (a table, or a kind of request, they miss).
    NotInLogs,
    /// Account-wide charges: reservation and savings plan fees.
    Account,
    /// Credits, refunds, taxes, and usage types nobody maps.
    Apart,
    /// The digits below 10^-12 a proportional split leaves.
    Rounding,
}

/// Who the bill is split over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum By {
    Tenant,
    Pattern,
}

impl By {
    pub(crate) fn noun(self) -> &'static str {
        match self {
            By::Tenant => "tenant",
            By::Pattern => "pattern",
        }
    }
}

impl Remainder {
    pub(crate) fn name(self, by: By) -> &'static str {
        match (self, by) {
            (Remainder::Unattributed, By::Tenant) => "untenanted requests",
            (Remainder::Unattributed, By::Pattern) => "unlabelled requests",
            (Remainder::Unused, _) => "provisioned capacity not consumed",
            (Remainder::Unmeasured, By::Tenant) => {
                "not measured per tenant (storage, backups: needs --export)"
            }
            (Remainder::Unmeasured, By::Pattern) => {
                "not measured per pattern (storage, backups, and what no request drives)"
            }
            (Remainder::NotInLogs, _) => "lines the logs show no units for",
            (Remainder::OutsideTop, _) => "keys past Contributor Insights' top contributors",
            (Remainder::Account, _) => "account-wide (reservation and savings plan fees)",
            (Remainder::Apart, _) => "credits, refunds, taxes and unmapped usage",
            (Remainder::Rounding, _) => "below 10^-12 of a split",
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

    pub(crate) fn add(&mut self, other: Money) -> Result<(), Error> {
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

    pub(crate) fn is_zero(self) -> bool {
        self.unblended.is_zero() && self.effective.is_zero()
    }
}

/// What one party (or nobody: `None`) drove on one table: read units, write units (table and
/// indexes), and bytes stored (item bytes, their local index entries, and DynamoDB's 100
/// bytes of overhead an item).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Measure {
    pub(crate) read: Decimal,
    pub(crate) write: Decimal,
    pub(crate) bytes: Decimal,
}

/// Every driver: per (table, party).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Drivers {
    pub(crate) by: BTreeMap<(String, Option<String>), Measure>,
    /// Tables whose bytes per party an export gave.
    pub(crate) bytes_of: std::collections::BTreeSet<String>,
    /// Per table, the units a Contributor Insights report holds past its top keys.
    pub(crate) outside: BTreeMap<String, Decimal>,
}

impl Drivers {
    /// Adds to a (table, party)'s measure.
    ///
    /// # Errors
    /// A sum past a decimal's range.
    pub(crate) fn add(
        &mut self,
        table: &str,
        party: Option<&str>,
        m: Measure,
    ) -> Result<(), Error> {
        let e = self
            .by
            .entry((table.to_string(), party.map(str::to_string)))
            .or_default();
        let overflow = || {
            Error::input(format!(
                "units of table `{table}` past what a decimal holds"
            ))
        };
        e.read = e.read.checked_add(m.read).ok_or_else(overflow)?;
        e.write = e.write.checked_add(m.write).ok_or_else(overflow)?;
        e.bytes = e.bytes.checked_add(m.bytes).ok_or_else(overflow)?;
        Ok(())
    }
}

impl Drivers {
    /// The read and write units of a log, per table and party (the tenant, or the pattern
    /// label).
    ///
    /// # Errors
    /// A sum past a decimal's range.
    pub(crate) fn from_log(usage: &super::log::LogUsage, by: By) -> Result<Drivers, Error> {
        let mut drivers = Drivers::default();
        for (place, u) in &usage.by_place {
            let party = match by {
                By::Tenant => place.tenant.as_deref(),
                By::Pattern => place.pattern.as_deref(),
            };
            let m = Measure {
                read: u.read,
                write: u.write,
                bytes: Decimal::ZERO,
            };
            drivers.add(&place.table, party, m)?;
        }
        Ok(drivers)
    }
}

/// What to do with provisioned capacity no request consumed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum Unused {
    /// Its own named remainder (the default: nobody used it).
    #[default]
    Keep,
    /// Spread over the parties by what they consumed.
    Spread,
}

/// One billed line's split: which line, and each party's (or remainder's) money.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LineSplit {
    pub(crate) table: String,
    pub(crate) region: String,
    /// `None`: a line outside the components (a credit, a tax, unmapped usage).
    pub(crate) component: Option<Component>,
    pub(crate) meter: String,
    pub(crate) money: Money,
    /// The line's usage amount (in its meter's unit) and its public on-demand cost, summed.
    pub(crate) amount: Decimal,
    pub(crate) list: Decimal,
    pub(crate) parties: Vec<Share>,
}

/// One party's share of a line: its money and the measure of the driver it was split by
/// (zero where the line is not split by a driver).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Share {
    pub(crate) party: Party,
    pub(crate) money: Money,
    pub(crate) driver: Decimal,
}

/// A party of a split: a tenant (or pattern), or a remainder.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Party {
    Named(String),
    Remainder(Remainder),
}

/// The bill split.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Allocation {
    pub(crate) by: By,
    pub(crate) tenants: BTreeMap<String, Money>,
    pub(crate) remainders: BTreeMap<Remainder, Money>,
    pub(crate) total: Money,
    /// Every line, split (the rows of the CSV and of FOCUS's allocated charges).
    pub(crate) lines: Vec<LineSplit>,
}

/// Which measure drives a billed component, if one does.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Driver {
    Reads,
    Writes,
    Bytes,
}

fn driver(c: Component) -> Option<Driver> {
    match c {
        Component::Reads | Component::ReplicaReads => Some(Driver::Reads),
        Component::Writes
        | Component::IndexWrites
        | Component::ReplicatedWrites
        | Component::ReplicaIndexWrites
        | Component::StreamReads
        | Component::KinesisCdc => Some(Driver::Writes),
        Component::Storage
        | Component::IndexStorage
        | Component::ReplicaStorage
        | Component::Pitr
        | Component::Backups
        | Component::Restores
        | Component::Exports => Some(Driver::Bytes),
        _ => None,
    }
}

fn overflow(e: SplitError) -> Error {
    Error::input(format!("the split of a bill line failed ({e:?})"))
}

/// Seconds in an hour: a provisioned unit-hour is 3,600 unit-seconds of capacity.
const SECONDS_PER_HOUR: i64 = 3600;

/// The capacity units a provisioned line paid for (its unit-hours × 3,600), if it is one.
fn provided(meter: &str, sums: &Sums) -> Option<Decimal> {
    meter
        .ends_with("CapacityUnit-Hrs")
        .then(|| sums.amount.checked_mul(Decimal::from(SECONDS_PER_HOUR)))
        .flatten()
}

/// Splits every line of `ledger` over the parties of `drivers`.
///
/// # Errors
/// A figure past a decimal's range.
pub(crate) fn allocate(
    ledger: &Ledger,
    drivers: &Drivers,
    by: By,
    unused: Unused,
) -> Result<Allocation, Error> {
    let mut out = Allocation {
        by,
        tenants: BTreeMap::new(),
        remainders: BTreeMap::new(),
        total: Money::default(),
        lines: Vec::new(),
    };
    for (place, sums) in &ledger.places {
        let money = Money::of(sums);
        let (table, parties) = match &place.owner {
            Owner::Table(table) => (
                table.as_str(),
                split_line(table, place.component, &place.meter, sums, drivers, unused)?,
            ),
            Owner::Account => ("", whole(Remainder::Account, money)),
        };
        record(
            &mut out,
            LineSplit {
                table: table.to_string(),
                region: place.region.clone(),
                component: Some(place.component),
                meter: place.meter.clone(),
                money,
                amount: sums.amount,
                list: sums.list,
                parties,
            },
        )?;
    }
    for ((_, kind), sums) in &ledger.apart {
        record(&mut out, apart_line(kind, sums))?;
    }
    for (usage_type, sums) in &ledger.unmapped {
        record(&mut out, apart_line(usage_type, sums))?;
    }
    Ok(out)
}

/// A line nobody drives, whole: `money` as remainder `r`.
fn whole(r: Remainder, money: Money) -> Vec<Share> {
    vec![Share {
        party: Party::Remainder(r),
        money,
        driver: Decimal::ZERO,
    }]
}

fn apart_line(meter: &str, sums: &Sums) -> LineSplit {
    let money = Money::of(sums);
    LineSplit {
        table: String::new(),
        region: String::new(),
        component: None,
        meter: meter.to_string(),
        money,
        amount: sums.amount,
        list: sums.list,
        parties: whole(Remainder::Apart, money),
    }
}

/// Adds a split line to the totals.
fn record(out: &mut Allocation, line: LineSplit) -> Result<(), Error> {
    out.total.add(line.money)?;
    for s in &line.parties {
        match &s.party {
            Party::Named(n) => out.tenants.entry(n.clone()).or_default().add(s.money)?,
            Party::Remainder(r) => out.remainders.entry(*r).or_default().add(s.money)?,
        }
    }
    out.lines.push(line);
    Ok(())
}

/// One table's line split over its parties, by its driver.
fn split_line(
    table: &str,
    component: Component,
    meter: &str,
    sums: &Sums,
    drivers: &Drivers,
    unused: Unused,
) -> Result<Vec<Share>, Error> {
    let money = Money::of(sums);
    let whole = |r: Remainder| Ok(whole(r, money));
    let Some(d) = driver(component) else {
        return whole(Remainder::Unmeasured);
    };
    if d == Driver::Bytes && !drivers.bytes_of.contains(table) {
        return whole(Remainder::Unmeasured);
    }
    let pick = |m: &Measure| match d {
        Driver::Reads => m.read,
        Driver::Writes => m.write,
        Driver::Bytes => m.bytes,
    };
    let on_table = drivers
        .by
        .range((table.to_string(), None)..)
        .take_while(|((t, _), _)| t == table);
    let mut named: Vec<(&str, Decimal)> = Vec::new();
    let mut nobody = Decimal::ZERO;
    for ((_, party), m) in on_table {
        match party {
            Some(p) => named.push((p.as_str(), pick(m))),
            None => nobody = pick(m),
        }
    }
    let mut weights: Vec<Decimal> = named.iter().map(|(_, w)| *w).collect();
    weights.push(nobody);
    let consumed = weights
        .iter()
        .try_fold(Decimal::ZERO, |a, w| a.checked_add(*w))
        .ok_or_else(|| overflow(SplitError::Overflow))?;
    // What a Contributor Insights report holds past its top keys: one more party.
    let outside = if d == Driver::Bytes {
        Decimal::ZERO
    } else {
        drivers.outside.get(table).copied().unwrap_or_default()
    };
    let consumed = consumed
        .checked_add(outside)
        .ok_or_else(|| overflow(SplitError::Overflow))?;
    if consumed.is_zero() {
        return whole(if d == Driver::Bytes {
            Remainder::Unmeasured
        } else {
            Remainder::NotInLogs
        });
    }
    // Capacity paid for and not consumed: one more party, unless spread.
    let idle = match (unused, provided(meter, sums)) {
        (Unused::Keep, Some(p)) if p > consumed => p
            .checked_sub(consumed)
            .ok_or_else(|| overflow(SplitError::Overflow))?,
        _ => Decimal::ZERO,
    };
    weights.push(idle);
    weights.push(outside);
    let by_unblended = split(money.unblended, &weights, Decimal::ZERO).map_err(overflow)?;
    let by_effective = split(money.effective, &weights, Decimal::ZERO).map_err(overflow)?;
    let share = |i: usize| Money {
        unblended: by_unblended.shares.get(i).copied().unwrap_or_default(),
        effective: by_effective.shares.get(i).copied().unwrap_or_default(),
    };
    let weight = |i: usize| weights.get(i).copied().unwrap_or_default();
    let mut parties: Vec<Share> = named
        .iter()
        .enumerate()
        .map(|(i, (n, w))| Share {
            party: Party::Named((*n).to_string()),
            money: share(i),
            driver: *w,
        })
        .collect();
    let after = named.len();
    let next = after.saturating_add(1);
    let last = next.saturating_add(1);
    for (r, i) in [
        (Remainder::Unattributed, after),
        (Remainder::Unused, next),
        (Remainder::OutsideTop, last),
    ] {
        parties.push(Share {
            party: Party::Remainder(r),
            money: share(i),
            driver: weight(i),
        });
    }
    parties.push(Share {
        party: Party::Remainder(Remainder::Rounding),
        money: Money {
            unblended: by_unblended.remainder,
            effective: by_effective.remainder,
        },
        driver: Decimal::ZERO,
    });
    parties.retain(|s| !s.money.is_zero());
    Ok(parties)
}
#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const HEADER: &str = "line_item_line_item_type,line_item_usage_start_date,line_item_product_code,line_item_usage_type,line_item_resource_id,line_item_usage_amount,line_item_currency_code,line_item_unblended_cost\n";
    const USAGE: [&str; 6] = [
        "ReadRequestUnits",
        "WriteRequestUnits",
        "TimedStorage-ByteHrs",
        "ReplWriteRequestUnits",
        "ReadCapacityUnit-Hrs",
        "TimedPITRStorage-ByteHrs",
    ];

    fn ledger(rows: &[(usize, usize, i64, i64)]) -> Ledger {
        let mut text = String::from(HEADER);
        for (t, u, amount, cents) in rows {
            text.push_str(&format!(
                "Usage,2026-11-01T00:00:00Z,AmazonDynamoDB,{},arn:aws:dynamodb:us-east-1:1:table/t{t},{amount},USD,{}\n",
                USAGE[*u],
                Decimal::new(*cents, 4)
            ));
        }
        let mut ledger = Ledger::new(None);
        let mut sink = |row: &crate::bill::row::Row| ledger.add(row, "p.csv");
        crate::bill::read::csv(text.as_bytes(), "p.csv", &mut sink).unwrap();
        ledger.finish().unwrap();
        ledger
    }

    fn drivers(list: &[(usize, Option<u8>, i64, i64, i64)], bytes_of: &[usize]) -> Drivers {
        let mut d = Drivers::default();
        for (t, party, r, w, b) in list {
            let name = party.map(|n| format!("org{n}"));
            d.add(
                &format!("t{t}"),
                name.as_deref(),
                Measure {
                    read: Decimal::new(*r, 1),
                    write: Decimal::new(*w, 1),
                    bytes: Decimal::from(*b),
                },
            )
            .unwrap();
        }
        d.bytes_of = bytes_of.iter().map(|t| format!("t{t}")).collect();
        d
    }

    fn sum(a: &Allocation) -> Money {
        let mut sum = Money::default();
        for m in a.tenants.values().chain(a.remainders.values()) {
            sum.add(*m).unwrap();
        }
        sum
    }

    #[test]
    fn provisioned_capacity_not_consumed_is_its_own_share_or_spread() {
        // 10 RCU for 1 hour: 10 × 3,600 = 36,000 read units provided, $1.30.
        let l = ledger(&[(0, 4, 10, 13_000)]);
        // org1 consumed 9,000 units, org2 3,600 (tenths in the helper: 90,000 and 36,000).
        let d = drivers(
            &[(0, Some(1), 90_000, 0, 0), (0, Some(2), 36_000, 0, 0)],
            &[],
        );
        let kept = allocate(&l, &d, By::Tenant, Unused::Keep).unwrap();
        // org1: 1.30 × 9,000 / 36,000 = 0.325; org2: 1.30 × 3,600 / 36,000 = 0.13;
        // unused: 1.30 × (36,000 − 12,600) / 36,000 = 0.845.
        assert_eq!(kept.tenants["org1"].unblended, Decimal::new(325, 3));
        assert_eq!(kept.tenants["org2"].unblended, Decimal::new(13, 2));
        assert_eq!(
            kept.remainders[&Remainder::Unused].unblended,
            Decimal::new(845, 3)
        );
        let spread = allocate(&l, &d, By::Tenant, Unused::Spread).unwrap();
        // Spread: 1.30 × 9,000 / 12,600 = 0.928571428571 (to 10^-12, toward zero), 1.30 ×
        // 3,600 / 12,600 = 0.371428571428; the 10^-12 left is the rounding remainder.
        assert_eq!(
            spread.tenants["org1"].unblended,
            Decimal::new(928_571_428_571, 12)
        );
        assert_eq!(
            spread.tenants["org2"].unblended,
            Decimal::new(371_428_571_428, 12)
        );
        assert_eq!(
            spread.remainders[&Remainder::Rounding].unblended,
            Decimal::new(1, 12)
        );
        assert!(!spread.remainders.contains_key(&Remainder::Unused));
    }

    #[test]
    fn storage_splits_by_bytes_only_where_an_export_measured_them() {
        // Storage $3 and PITR $1.50 of t0; storage $2 of t1.
        let l = ledger(&[(0, 2, 1, 30_000), (0, 5, 1, 15_000), (1, 2, 1, 20_000)]);
        // t0: org1 300 bytes, org2 100; t1 has no export.
        let d = drivers(
            &[
                (0, Some(1), 0, 0, 300),
                (0, Some(2), 0, 0, 100),
                (1, Some(1), 5, 5, 0),
            ],
            &[0],
        );
        let a = allocate(&l, &d, By::Tenant, Unused::Keep).unwrap();
        // org1: (3 + 1.5) × 300/400 = 3.375; org2: 4.5 × 100/400 = 1.125; t1's $2 unmeasured.
        assert_eq!(a.tenants["org1"].unblended, Decimal::new(3375, 3));
        assert_eq!(a.tenants["org2"].unblended, Decimal::new(1125, 3));
        assert_eq!(
            a.remainders[&Remainder::Unmeasured].unblended,
            Decimal::from(2)
        );
        assert_eq!(a.lines.len(), 3);
    }

    proptest! {
        /// For any bill and any drivers: the parties and the remainders add up to the bill
        /// exactly, unblended and effective, per line and in total; a party the logs give
        /// no units gets nothing.
        #[test]
        fn tenants_and_remainders_add_up_to_the_bill(
            rows in proptest::collection::vec((0usize..4, 0usize..6, 0i64..1_000, -1_000_000i64..100_000_000), 1..30),
            list in proptest::collection::vec(
                (0usize..4, proptest::option::of(0u8..6), 0i64..1_000_000, 0i64..1_000_000, 0i64..1_000_000),
                0..40,
            ),
            bytes_of in proptest::collection::vec(0usize..4, 0..4),
            spread in any::<bool>(),
        ) {
            let ledger = ledger(&rows);
            let mut d = drivers(&list, &bytes_of);
            d.by.insert(("t0".into(), Some("idle".into())), Measure::default());
            let unused = if spread { Unused::Spread } else { Unused::Keep };
            let a = allocate(&ledger, &d, By::Tenant, unused).unwrap();
            prop_assert_eq!(sum(&a), a.total);
            prop_assert_eq!(a.total.unblended, ledger.total.unblended);
            for line in &a.lines {
                let mut s = Money::default();
                for share in &line.parties {
                    s.add(share.money).unwrap();
                }
                prop_assert_eq!(s, line.money);
            }
            prop_assert!(a.tenants.get("idle").is_none_or(|m| m.is_zero()));
        }

        /// Merging two parties' drivers merges their money: the merged party gets what the
        /// two got (to the split's 10^-12 digits, which move to the rounding remainder).
        #[test]
        fn merging_two_parties_merges_their_costs(
            rows in proptest::collection::vec((0usize..2, 0usize..6, 0i64..1_000, 0i64..100_000_000), 1..12),
            list in proptest::collection::vec(
                (0usize..2, proptest::option::of(0u8..4), 0i64..1_000_000, 0i64..1_000_000, 0i64..1_000_000),
                0..20,
            ),
        ) {
            let ledger = ledger(&rows);
            let apart = allocate(&ledger, &drivers(&list, &[0, 1]), By::Tenant, Unused::Keep).unwrap();
            let merged_list: Vec<_> = list.iter().map(|(t, p, r, w, b)| (*t, p.map(|n| if n == 1 { 0 } else { n }), *r, *w, *b)).collect();
            let merged = allocate(&ledger, &drivers(&merged_list, &[0, 1]), By::Tenant, Unused::Keep).unwrap();
            let get = |a: &Allocation, n: &str| a.tenants.get(n).copied().unwrap_or_default();
            let mut two = get(&apart, "org0");
            two.add(get(&apart, "org1")).unwrap();
            let one = get(&merged, "org0");
            let lines = Decimal::from(u64::try_from(ledger.places.len()).unwrap());
            let tolerance = Decimal::new(2, 12).checked_mul(lines).unwrap();
            prop_assert!(two.unblended.checked_sub(one.unblended).unwrap().abs() <= tolerance);
            // Everyone else is untouched.
            for n in ["org2", "org3"] {
                prop_assert_eq!(get(&apart, n), get(&merged, n));
            }
        }
    }
}
