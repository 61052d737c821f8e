//! Commitment advice for a forecast horizon (`ddbcost forecast --advise`): which reserved
//! capacity blocks per region and kind, and which savings-plan commitment, minimize the
//! horizon's total — each option priced by the same forecast, and again with traffic 30 %
//! lower to show what a commitment costs when traffic disappoints (its unused part).
//!
//! Both searches rely on convexity, which AWS's rules give: an hour's reserved cover is
//! `min(units provisioned, units reserved)`, concave in the units reserved, while fees grow
//! linearly; a plan's cover grows with the commitment at a slope (1 ÷ rate) that only falls
//! as cheaper-to-cover usage runs out. So the total falls, then rises, and the optimum is the
//! first step that does not lower it (found by doubling, then bisecting).

use std::sync::Arc;

use rust_decimal::Decimal;

use super::{EngineError, Forecast, checked, forecast};
use crate::model::{
    CapacityKind, PriceBook, PriceKey, Rate, Reservation, ReservedTerm, SavingsPlan, Settings,
    Workload,
};

/// The smallest savings-plan step AWS sells: $0.001 an hour.
const PLAN_STEP: Decimal = Decimal::from_parts(1, 0, 0, false, 3);

/// The traffic factor of the pessimistic case (30 % lower).
pub(crate) const LOWER_TRAFFIC: Decimal = Decimal::from_parts(7, 0, 0, false, 1);

/// One set of commitments, priced over the horizon.
#[derive(Debug, Clone)]
pub struct CommitmentOption {
    pub name: String,
    pub reservations: Vec<Reservation>,
    /// Savings-plan commitment per hour, if any.
    pub per_hour: Option<Decimal>,
    /// The horizon's total at the forecast's traffic…
    pub total: Decimal,
    /// …the commitment fees not consumed at it…
    pub unused: Decimal,
    /// …and at 30 % lower traffic.
    pub total_lower: Decimal,
    /// Commitment fees not consumed over the horizon, at 30 % lower traffic.
    pub unused_lower: Decimal,
}

#[derive(Debug, Clone)]
pub struct CommitmentAdvice {
    pub options: Vec<CommitmentOption>,
    /// What could not be offered, and why.
    pub notes: Vec<String>,
}

/// `workload` without commitments.
fn bare(workload: &Workload) -> Workload {
    Workload {
        reservations: Vec::new(),
        savings_plan: None,
        ..workload.clone()
    }
}

/// `workload` with every rate and observed count × `factor`.
fn scaled(workload: &Workload, factor: Decimal) -> Result<Workload, EngineError> {
    let mut w = workload.clone();
    let scale = |x: Option<Decimal>, ctx: &str| -> Result<Option<Decimal>, EngineError> {
        x.map(|v| checked::mul(v, factor, ctx)).transpose()
    };
    for t in &mut w.tables {
        let ctx = t.name.clone();
        t.observed.read_units = scale(t.observed.read_units, &ctx)?;
        t.observed.write_units = scale(t.observed.write_units, &ctx)?;
        for i in &mut t.indexes {
            i.observed.read_units = scale(i.observed.read_units, &ctx)?;
            i.observed.write_units = scale(i.observed.write_units, &ctx)?;
        }
        for p in &mut t.patterns {
            p.rate = Rate {
                amount: checked::mul(p.rate.amount, factor, &ctx)?,
                period: p.rate.period,
            };
        }
    }
    Ok(w)
}

/// Horizon prices of variants of one workload.
struct OptionPricer<'a> {
    book: &'a PriceBook,
    settings: &'a Settings,
    start: (i64, u32),
    months: u32,
}

impl OptionPricer<'_> {
    fn run(&self, w: &Workload) -> Result<Forecast, EngineError> {
        forecast(w, self.book, self.settings, self.start, self.months)
    }

    fn total(&self, w: &Workload) -> Result<Decimal, EngineError> {
        Ok(self.run(w)?.total)
    }
}

/// The smallest step count `n ≥ 0` after which one more step no longer lowers `f` (the
/// minimum of a convex `f` over whole steps), within `cap` steps.
fn minimize(
    cap: u64,
    mut f: impl FnMut(u64) -> Result<Decimal, EngineError>,
) -> Result<u64, EngineError> {
    let mut lowers = |n: u64| -> Result<bool, EngineError> { Ok(f(n.saturating_add(1))? < f(n)?) };
    if !lowers(0)? {
        return Ok(0);
    }
    // Double until a step stops lowering the total, then bisect: lowers(lo), !lowers(hi).
    let mut lo = 0u64;
    let mut hi = 1u64;
    while hi < cap && lowers(hi)? {
        lo = hi;
        hi = hi.saturating_mul(2).min(cap);
    }
    if hi >= cap && lowers(cap)? {
        return Ok(cap);
    }
    while hi.saturating_sub(lo) > 1 {
        let mid = lo.saturating_add(hi.saturating_sub(lo) / 2);
        if lowers(mid)? {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Ok(hi)
}

/// Regions and kinds with Standard-class provisioned capacity in the forecast, with the most
/// unit-hours any month holds.
fn pools(f: &Forecast) -> Vec<(Arc<str>, CapacityKind, Decimal)> {
    let mut out: Vec<(Arc<str>, CapacityKind, Decimal)> = Vec::new();
    for m in &f.months {
        let mut month: Vec<(Arc<str>, CapacityKind, Decimal)> = Vec::new();
        for l in &m.estimate.line_items {
            let kind = if l.price_key
                == PriceKey::RcuHour(crate::model::TableClass::Standard).path()
            {
                CapacityKind::Rcu
            } else if l.price_key == PriceKey::WcuHour(crate::model::TableClass::Standard).path() {
                CapacityKind::Wcu
            } else {
                continue;
            };
            // Reservations pool the tables' own capacity, not a replica's.
            if l.key.contains("/replica/") || l.table.as_ref() == "(account)" {
                continue;
            }
            let q = l.quantity.unwrap_or_default();
            match month
                .iter_mut()
                .find(|(r, k, _)| *r == l.region && *k == kind)
            {
                Some((_, _, sum)) => *sum = sum.saturating_add(q),
                None => month.push((Arc::clone(&l.region), kind, q)),
            }
        }
        for (r, k, q) in month {
            match out.iter_mut().find(|(r2, k2, _)| *r2 == r && *k2 == k) {
                Some((_, _, max)) => *max = (*max).max(q),
                None => out.push((r, k, q)),
            }
        }
    }
    out.retain(|(_, _, q)| !q.is_zero());
    out
}

/// The reservation blocks (of `term`) per region and kind that minimize the horizon total.
fn best_reservations(
    p: &OptionPricer<'_>,
    base: &Workload,
    pools: &[(Arc<str>, CapacityKind, Decimal)],
    term: ReservedTerm,
) -> Result<Vec<Reservation>, EngineError> {
    let hours = p.settings.month_hours;
    let mut chosen = Vec::new();
    for (region, kind, max_unit_hours) in pools {
        // Pools are independent (each region and kind has its own); the peak hour is at most
        // a week's profile (168×) above the month's average.
        let average = checked::div(*max_unit_hours, hours, region)?;
        let cap = checked::div(
            checked::mul(average, Decimal::from(168), region)?,
            Decimal::ONE_HUNDRED,
            region,
        )?
        .ceil()
        .to_string()
        .parse::<u64>()
        .unwrap_or(u64::MAX)
        .max(1);
        let with = |blocks: u64| {
            let mut w = base.clone();
            if blocks > 0 {
                w.reservations.push(Reservation {
                    region: Some(region.to_string()),
                    kind: *kind,
                    blocks: Decimal::from(blocks),
                    term,
                    start: None,
                });
            }
            w
        };
        let blocks = minimize(cap, |n| p.total(&with(n)))?;
        if blocks > 0 {
            chosen.extend(
                with(blocks)
                    .reservations
                    .into_iter()
                    .skip(base.reservations.len()),
            );
        }
    }
    Ok(chosen)
}

/// The savings-plan commitment (in steps of $0.001/h) that minimizes the horizon total of
/// `base`, whose rates come from `rates` (or the price tables).
fn best_plan(
    p: &OptionPricer<'_>,
    base: &Workload,
    rates: Option<&crate::model::SavingsPlanRates>,
) -> Result<Option<Decimal>, EngineError> {
    let with = |steps: u64| {
        let mut w = base.clone();
        w.savings_plan = (steps > 0).then(|| SavingsPlan {
            per_hour: PLAN_STEP.saturating_mul(Decimal::from(steps)),
            start: None,
            rates: rates.cloned(),
        });
        w
    };
    // Up to $1,000,000 an hour: far above any DynamoDB bill.
    let steps = minimize(1_000_000_000, |n| p.total(&with(n)))?;
    Ok((steps > 0).then(|| PLAN_STEP.saturating_mul(Decimal::from(steps))))
}

/// Commitment fees not consumed over a forecast: each commitment's fees less the share its
/// covered usage consumed (a plan's commitment less what it used; a reservation's fees × its
/// unused share of unit-hours).
fn unused(f: &Forecast) -> Result<Decimal, EngineError> {
    let mut sum = Decimal::ZERO;
    for m in &f.months {
        for g in super::commitment_groups(&m.estimate)? {
            // A table's own reservation is netted in its capacity line: never unused here.
            if g.consumed.is_empty() && g.kind != super::CommitmentKind::SavingsPlan {
                continue;
            }
            let left = g.unused_fees(g.fees)?.max(Decimal::ZERO);
            sum = checked::add(sum, left, "the commitments' unused fees")?;
        }
    }
    Ok(sum)
}

/// The options for `workload` over `months` from `start`.
///
/// # Errors
/// A price the workload needs, or a figure too large.
pub(crate) fn advise_commitments(
    workload: &Workload,
    book: &PriceBook,
    settings: &Settings,
    start: (i64, u32),
    months: u32,
) -> Result<CommitmentAdvice, EngineError> {
    let p = OptionPricer {
        book,
        settings,
        start,
        months,
    };
    let base = bare(workload);
    let lower = scaled(workload, LOWER_TRAFFIC)?;
    let mut notes = Vec::new();
    let mut options: Vec<CommitmentOption> = Vec::new();
    let price = |name: &str,
                 reservations: Vec<Reservation>,
                 per_hour: Option<Decimal>,
                 rates: Option<&crate::model::SavingsPlanRates>|
     -> Result<CommitmentOption, EngineError> {
        let apply = |w: &Workload| {
            let mut w = bare(w);
            w.reservations.clone_from(&reservations);
            w.savings_plan = per_hour.map(|per_hour| SavingsPlan {
                per_hour,
                start: None,
                rates: rates.cloned(),
            });
            w
        };
        let expected = p.run(&apply(workload))?;
        let low = p.run(&apply(&lower))?;
        Ok(CommitmentOption {
            name: name.to_string(),
            reservations: reservations.clone(),
            per_hour,
            total: expected.total,
            unused: unused(&expected)?,
            total_lower: low.total,
            unused_lower: unused(&low)?,
        })
    };
    options.push(price("no commitments", Vec::new(), None, None)?);
    if !workload.reservations.is_empty() || workload.savings_plan.is_some() {
        // As stated: with their own start months.
        let stated = p.run(workload)?;
        let low = p.run(&Workload {
            reservations: workload.reservations.clone(),
            savings_plan: workload.savings_plan.clone(),
            ..lower.clone()
        })?;
        options.push(CommitmentOption {
            name: "as stated in the workload".to_string(),
            reservations: workload.reservations.clone(),
            per_hour: workload.savings_plan.as_ref().map(|s| s.per_hour),
            total: stated.total,
            unused: unused(&stated)?,
            total_lower: low.total,
            unused_lower: unused(&low)?,
        });
    }
    let first = p.run(&base)?;
    let capacity = pools(&first);
    let mut reserved_1y = Vec::new();
    if capacity.is_empty() {
        notes.push(
            "no Standard-class provisioned capacity: reserved capacity has nothing to cover"
                .to_string(),
        );
    } else {
        for (term, name) in [
            (ReservedTerm::OneYear, "reserved capacity, 1 year"),
            (ReservedTerm::ThreeYears, "reserved capacity, 3 years"),
        ] {
            // A horizon shorter than the term would count only part of what it commits to.
            if months < term.months() {
                notes.push(format!("{name}: not priced, the horizon ({months} months) is shorter than the term ({} months); a reservation commits for all of it", term.months()));
                continue;
            }
            match best_reservations(&p, &base, &capacity, term) {
                Ok(r) if r.is_empty() => {
                    notes.push(format!("{name}: no block of 100 units lowers the total"));
                }
                Ok(r) => {
                    if term == ReservedTerm::OneYear {
                        reserved_1y.clone_from(&r);
                    }
                    options.push(price(name, r, None, None)?);
                }
                Err(EngineError::MissingPrice {
                    price, table_id, ..
                }) => notes.push(format!("{name}: price table `{table_id}` lacks `{price}`")),
                Err(e) => return Err(e),
            }
        }
    }
    let rates = workload
        .savings_plan
        .as_ref()
        .and_then(|s| s.rates.as_ref());
    if months < SavingsPlan::TERM_MONTHS {
        notes.push(format!("Database Savings Plan: not priced, the horizon ({months} months) is shorter than the plan's year"));
        return Ok(CommitmentAdvice { options, notes });
    }
    match best_plan(&p, &base, rates) {
        Ok(Some(per_hour)) => {
            options.push(price("Database Savings Plan", Vec::new(), Some(per_hour), rates)?);
            if !reserved_1y.is_empty() {
                let with_reserved = Workload { reservations: reserved_1y.clone(), ..base.clone() };
                if let Some(per_hour) = best_plan(&p, &with_reserved, rates)? {
                    options.push(price("reserved capacity 1 year + Database Savings Plan", reserved_1y, Some(per_hour), rates)?);
                }
            }
        }
        Ok(None) => notes.push("Database Savings Plan: no commitment lowers the total".to_string()),
        Err(EngineError::MissingSavingsPlanRates { region, .. }) => notes.push(format!("Database Savings Plan: no rates for {region} (state `commitments.savings_plan.rates`, or `savings_plan_rates` in the price table)")),
        Err(e) => return Err(e),
    }
    Ok(CommitmentAdvice { options, notes })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minimize_finds_the_bottom_of_a_convex_curve() {
        // (n − 37)² is lowest at 37; a curve rising from 0 is lowest at 0.
        let f = |n: u64| Ok(Decimal::from((i64::try_from(n).unwrap() - 37).pow(2)));
        assert_eq!(minimize(1_000, f).unwrap(), 37);
        assert_eq!(minimize(1_000, |n| Ok(Decimal::from(n))).unwrap(), 0);
        // Still falling at the cap: the cap.
        assert_eq!(minimize(10, |n| Ok(-Decimal::from(n))).unwrap(), 10);
        // A plateau after the bottom: the first point of it.
        let g = |n: u64| Ok(Decimal::from(5u64.saturating_sub(n)));
        assert_eq!(minimize(1_000, g).unwrap(), 5);
    }
}
