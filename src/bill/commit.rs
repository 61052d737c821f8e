//! Commitments from the bill. Reserved capacity: for each region and kind, the bill's
//! Standard provisioned unit-hours hour by hour (usage and the usage reservations already
//! cover), priced again with every amount of blocks of 100 from none to the busiest hour's —
//! the method of AWS Labs' `reco` — for 1 and 3 years (the upfront fee spread over the term's
//! hours); the cheapest is the amount to own. The Database Savings Plan: the hourly spend it
//! could cover (on-demand request units and provisioned unit-hours no reservation covered,
//! at list) valued at the plan's rates, and the hourly commitment that makes the period
//! cheapest — the total is convex and piecewise linear in the commitment, so its minimum is at
//! an hour's plan-valued spend (or none), searched exactly on AWS's $0.001 steps. Pure.

use std::collections::BTreeMap;

use rust_decimal::Decimal;

use super::ledger::{Kind, Ledger};
use crate::model::{CapacityKind, PriceBook, PriceKey, ReservedTerm, TableClass};

/// One kind of reserved capacity in one region and term: what to own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Reserve {
    pub(crate) region: String,
    pub(crate) kind: Kind,
    pub(crate) term: ReservedTerm,
    /// Units to own (blocks of 100).
    pub(crate) units: Decimal,
    /// The period's cost of the unit-hours with none reserved, and with `units`.
    pub(crate) without: Decimal,
    pub(crate) with: Decimal,
    /// Reserved unit-hours used ÷ reserved unit-hours.
    pub(crate) utilization: Option<Decimal>,
    /// The most unit-hours reservations covered in one hour of the bill: at least what is
    /// owned today.
    pub(crate) owned_at_least: Decimal,
    pub(crate) busiest: Decimal,
}

/// The savings plan's commitment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Plan {
    /// An hour's commitment.
    pub(crate) per_hour: Decimal,
    /// The period's eligible spend at list, and its cost with the plan.
    pub(crate) without: Decimal,
    pub(crate) with: Decimal,
}

#[derive(Debug, Default)]
pub(crate) struct Commitments {
    pub(crate) hours: Decimal,
    pub(crate) reserves: Vec<Reserve>,
    pub(crate) plan: Option<Plan>,
    /// What could not be sized, and why.
    pub(crate) notes: Vec<String>,
}

const STEP: Decimal = Decimal::from_parts(1, 0, 0, false, 3);

fn mul(a: Decimal, b: Decimal) -> Decimal {
    a.checked_mul(b).unwrap_or(Decimal::MAX)
}

fn add(a: Decimal, b: Decimal) -> Decimal {
    a.checked_add(b).unwrap_or(Decimal::MAX)
}

fn div(a: Decimal, b: Decimal) -> Decimal {
    a.checked_div(b).unwrap_or_default()
}

/// The hours of the period, as Unix seconds of each hour's start.
fn hour_starts(period: &str, hours: Decimal) -> Vec<i64> {
    let start = (|| {
        let y: i64 = period.get(..4)?.parse().ok()?;
        let m: u32 = period.get(5..7)?.parse().ok()?;
        crate::model::period::days_from_civil(y, m, 1).checked_mul(86_400)
    })()
    .unwrap_or(0);
    let n = u32::try_from(hours.trunc().mantissa()).unwrap_or(0);
    (0..n)
        .map(|h| start.saturating_add(i64::from(h).saturating_mul(3_600)))
        .collect()
}

/// The period's cost of `units` reserved for `term` over `hourly` unit-hours.
fn cost(
    hourly: &[Decimal],
    units: Decimal,
    unit_hour: Decimal,
    (upfront, fee_hourly, term_hours): (Decimal, Decimal, Decimal),
) -> Decimal {
    let n = Decimal::from(hourly.len());
    let blocks = div(units, Decimal::ONE_HUNDRED);
    let fees = mul(
        blocks,
        add(mul(fee_hourly, n), div(mul(upfront, n), term_hours)),
    );
    hourly.iter().fold(fees, |acc, u| {
        let over = u.checked_sub(units).unwrap_or_default().max(Decimal::ZERO);
        add(acc, mul(over, unit_hour))
    })
}

fn reserve(
    ledger: &Ledger,
    book: &PriceBook,
    starts: &[i64],
    (region, kind): (&str, Kind),
    notes: &mut Vec<String>,
) -> Vec<Reserve> {
    let Some(table) = book.region(region) else {
        notes.push(format!(
            "reserved capacity in {region}: no price table for the region"
        ));
        return Vec::new();
    };
    let (ck, hour_key) = match kind {
        Kind::Rcu => (CapacityKind::Rcu, PriceKey::RcuHour(TableClass::Standard)),
        Kind::Wcu => (CapacityKind::Wcu, PriceKey::WcuHour(TableClass::Standard)),
    };
    let by_hour = ledger.hourly.get(&(region.to_string(), kind));
    let hourly: Vec<Decimal> = starts
        .iter()
        .map(|h| by_hour.and_then(|m| m.get(h)).copied().unwrap_or_default())
        .collect();
    let busiest = hourly.iter().copied().max().unwrap_or_default();
    let owned = ledger
        .reserved_hourly
        .get(&(region.to_string(), kind))
        .and_then(|m| m.values().copied().max())
        .unwrap_or_default();
    let Some(unit_hour) = table.get(&hour_key) else {
        notes.push(format!(
            "reserved capacity in {region}: price `{}` is not in price table `{}`",
            hour_key.path(),
            table.id
        ));
        return Vec::new();
    };
    let mut out = Vec::new();
    for (term, term_hours) in [
        (ReservedTerm::OneYear, Decimal::from(8_760)),
        (ReservedTerm::ThreeYears, Decimal::from(26_280)),
    ] {
        let (Some(upfront), Some(fee)) = (
            table.get(&PriceKey::ReservedUpfront(ck, term)),
            table.get(&PriceKey::ReservedHourly(ck, term)),
        ) else {
            notes.push(format!(
                "reserved capacity in {region}, {} {}: price table `{}` has no fees",
                ck.name(),
                crate::model::term_code(term),
                table.id
            ));
            continue;
        };
        let fees = (upfront, fee, term_hours);
        let without = cost(&hourly, Decimal::ZERO, unit_hour, fees);
        // Every amount from none to the busiest hour's, in blocks of 100.
        let mut best = (Decimal::ZERO, without);
        let mut units = Decimal::ONE_HUNDRED;
        while units <= add(busiest.ceil(), Decimal::ONE_HUNDRED) {
            let c = cost(&hourly, units, unit_hour, fees);
            if c < best.1 {
                best = (units, c);
            }
            units = add(units, Decimal::ONE_HUNDRED);
        }
        let used = hourly
            .iter()
            .fold(Decimal::ZERO, |a, u| add(a, (*u).min(best.0)));
        out.push(Reserve {
            region: region.to_string(),
            kind,
            term,
            units: best.0,
            without,
            with: best.1,
            utilization: (!best.0.is_zero())
                .then(|| div(used, mul(best.0, Decimal::from(hourly.len())))),
            owned_at_least: owned,
            busiest,
        });
    }
    out
}

/// The plan: each hour's eligible spend at list (`l`) and at the plan's rates (`p`); an
/// hour's cost with commitment `c` is `c + l × (1 − min(c, p) ÷ p)`.
fn plan(
    ledger: &Ledger,
    book: &PriceBook,
    starts: &[i64],
    notes: &mut Vec<String>,
) -> Option<Plan> {
    let mut list: BTreeMap<i64, Decimal> = BTreeMap::new();
    let mut valued: BTreeMap<i64, Decimal> = BTreeMap::new();
    let mut missing = Vec::new();
    for ((region, meter), hours) in &ledger.eligible {
        let Some(table) = book.region(region) else {
            missing.push(format!("{region} (no price table)"));
            continue;
        };
        let Some(rates) = &table.savings_plan_rates else {
            missing.push(format!(
                "{region} (price table `{}` states no plan rates)",
                table.id
            ));
            continue;
        };
        let Some((key, price, factor)) = crate::pricelist::mapping::ROWS
            .iter()
            .find(|r| r.usage_type == meter.as_str())
            .and_then(|r| match r.target {
                crate::pricelist::mapping::Target::Price { path, factor } => {
                    let key = table.prices.keys().find(|k| k.path() == path)?.clone();
                    Some((key.clone(), table.get(&key)?, factor))
                }
                crate::pricelist::mapping::Target::Reserved { .. } => None,
            })
        else {
            continue;
        };
        let Some(rate) = rates.rates.get(&key) else {
            continue;
        };
        let unit = div(price, Decimal::from(factor));
        for (h, amount) in hours {
            let l = mul(*amount, unit);
            let slot = list.entry(*h).or_default();
            *slot = add(*slot, l);
            let slot = valued.entry(*h).or_default();
            *slot = add(*slot, mul(l, *rate));
        }
    }
    if !missing.is_empty() {
        missing.sort();
        missing.dedup();
        notes.push(format!(
            "Database Savings Plan: no rates for {} (`savings_plan_rates` in the price table; AWS publishes them in the Savings Plans price list)",
            missing.join(", ")
        ));
        if list.is_empty() {
            return None;
        }
    }
    let hours: Vec<(Decimal, Decimal)> = starts
        .iter()
        .map(|h| {
            (
                list.get(h).copied().unwrap_or_default(),
                valued.get(h).copied().unwrap_or_default(),
            )
        })
        .collect();
    let total = |c: Decimal| {
        hours.iter().fold(Decimal::ZERO, |acc, (l, p)| {
            let covered = if p.is_zero() {
                Decimal::ZERO
            } else {
                div(mul(*l, c.min(*p)), *p)
            };
            add(acc, add(c, l.checked_sub(covered).unwrap_or_default()))
        })
    };
    let without = total(Decimal::ZERO);
    let mut candidates: Vec<Decimal> = hours
        .iter()
        .flat_map(|(_, p)| {
            let down = mul(div(*p, STEP).floor(), STEP);
            [down, add(down, STEP)]
        })
        .collect();
    candidates.push(Decimal::ZERO);
    candidates.sort();
    candidates.dedup();
    let (per_hour, with) = candidates
        .into_iter()
        .map(|c| (c, total(c)))
        .min_by(|a, b| a.1.cmp(&b.1).then(a.0.cmp(&b.0)))?;
    Some(Plan {
        per_hour,
        without,
        with,
    })
}

/// The commitments the bill's hours call for, priced with `book`.
#[must_use]
pub(crate) fn size(ledger: &Ledger, book: &PriceBook, hours: Decimal) -> Commitments {
    let starts = hour_starts(ledger.period.as_deref().unwrap_or(""), hours);
    let mut notes = Vec::new();
    let mut reserves = Vec::new();
    for (region, kind) in ledger.hourly.keys() {
        reserves.extend(reserve(ledger, book, &starts, (region, *kind), &mut notes));
    }
    if ledger.hourly.is_empty() {
        notes.push(
            "reserved capacity: the bill has no Standard provisioned capacity to cover".to_string(),
        );
    }
    let plan = plan(ledger, book, &starts, &mut notes);
    Commitments {
        hours,
        reserves,
        plan,
        notes,
    }
}
