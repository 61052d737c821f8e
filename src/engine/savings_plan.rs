//! Database Savings Plans (`commitments.savings_plan`): a commitment of an amount per hour for
//! one year, no upfront. AWS's rule, applied here hour by hour:
//!
//! - the whole commitment is billed every hour, used or not;
//! - each hour, after reserved capacity, the plan covers eligible usage valued at the plan's
//!   rates (a fraction of list price per usage type), highest discount first, until the
//!   hour's commitment is used up;
//! - usage the plan does not cover is billed at list price.
//!
//! Usage lines stay at list price; the plan adds its commitment line and, per region and
//! price, a credit for the list-priced usage it covers. Eligibility and rates are data (the
//! workload's `rates`, else each region's price table); usage of a price without a rate is not
//! covered, and a region with eligible usage but no rates at all is an error.
//!
//! Usage is spread over the hours of a day or week by the shapes the engine already knows:
//! on-demand requests by the traffic profile, provisioned capacity by its hourly plan, the
//! capacity reservations cover by their hourly use; any other line evenly.

use std::borrow::Cow;
use std::sync::Arc;

use rust_decimal::Decimal;

use super::EngineError;
use super::capacity::{self, TablePlans};
use super::checked;
use super::estimate::{Basis, Component, LineItem};
use super::label::Label;
use super::line::{LineSpec, Pricer, cat};
use super::notice::Notice;
use super::usage::{Metric, TableUsage, Weights};
use crate::model::{CapacityMode, PriceKey, SavingsPlan, SavingsPlanRates, Table};

/// Hourly shapes of line items by key: relative amounts per hour over a repeating period
/// (1, 24 or 168 values).
pub(super) type Shapes = Vec<(String, Vec<Decimal>)>;

/// How a plan was used in a month.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SavingsPlanUse {
    /// The commitment per hour.
    pub per_hour: Decimal,
    /// The commitment over the month (billed, used or not).
    pub commitment: Decimal,
    /// The part of the commitment the covered usage consumed (at the plan's rates).
    pub used: Decimal,
    /// Eligible usage at list price, after reservations.
    pub eligible: Decimal,
    /// Eligible usage the plan covered, at list price.
    pub covered: Decimal,
    /// Sources of the rates used.
    pub sources: Vec<String>,
    /// The rate of each covered-usage line, by the line's key.
    pub covered_rates: Vec<(String, Decimal)>,
}

impl SavingsPlanUse {
    /// Covered share of eligible usage (0 with nothing eligible).
    #[must_use]
    pub fn coverage(&self) -> Decimal {
        self.covered.checked_div(self.eligible).unwrap_or_default()
    }

    /// Used share of the commitment.
    #[must_use]
    pub fn utilization(&self) -> Decimal {
        self.used.checked_div(self.commitment).unwrap_or_default()
    }

    /// What the plan saves against list price: the covered usage less the commitment
    /// (negative when the commitment is larger than what it covers is worth).
    #[must_use]
    pub fn savings(&self) -> Decimal {
        self.covered.saturating_sub(self.commitment)
    }

    /// The same use with every amount × `rate` (an estimate shown in another currency).
    pub(crate) fn converted(&self, rate: Decimal) -> Option<Self> {
        Some(Self {
            per_hour: self.per_hour.checked_mul(rate)?,
            commitment: self.commitment.checked_mul(rate)?,
            used: self.used.checked_mul(rate)?,
            eligible: self.eligible.checked_mul(rate)?,
            covered: self.covered.checked_mul(rate)?,
            sources: self.sources.clone(),
            covered_rates: self.covered_rates.clone(),
        })
    }
}

/// The hourly shapes of `table`'s throughput lines (and its replicas'): demand by the traffic
/// profile on demand, the hourly plan when provisioned (above the table's own reserved units).
pub(super) fn table_shapes(
    table: &Table,
    usage: &TableUsage,
    plans: Option<&TablePlans>,
    month_hours: Decimal,
    out: &mut Shapes,
) -> Result<(), EngineError> {
    let t = &*table.name;
    let demand = |metric: Metric, observed: Option<Decimal>| {
        capacity::hourly_demand(table, usage, metric, observed, month_hours)
    };
    match (plans, table.capacity) {
        (Some(plans), CapacityMode::Provisioned(cap)) => {
            let less = |hourly: &[Decimal], reserved: Decimal| -> Vec<Decimal> {
                hourly
                    .iter()
                    .map(|u| u.saturating_sub(reserved).max(Decimal::ZERO))
                    .collect()
            };
            let (rr, rw) = cap
                .reserved
                .map_or((Decimal::ZERO, Decimal::ZERO), |r| (r.rcu, r.wcu));
            out.push((cat!(t, "/reads"), less(&plans.read.hourly, rr)));
            out.push((cat!(t, "/writes"), less(&plans.write.hourly, rw)));
            for (pos, read, write) in &plans.gsis {
                let name = &table.indexes[*pos].name;
                out.push((cat!(t, "/gsi/", name, "/reads"), read.hourly.clone()));
                out.push((cat!(t, "/gsi/", name, "/writes"), write.hourly.clone()));
            }
            for region in &table.replicas {
                let prefix = cat!(t, "/replica/", region);
                out.push((cat!(prefix, "/writes"), plans.write.hourly.clone()));
                out.push((cat!(prefix, "/reads"), plans.read.hourly.clone()));
                for (pos, _, write) in &plans.gsis {
                    let name = &table.indexes[*pos].name;
                    out.push((cat!(prefix, "/gsi/", name, "/writes"), write.hourly.clone()));
                }
            }
        }
        _ => {
            out.push((
                cat!(t, "/reads"),
                demand(Metric::Reads, table.observed.read_units)?,
            ));
            out.push((
                cat!(t, "/writes"),
                demand(Metric::Writes, table.observed.write_units)?,
            ));
            for (pos, index) in table.indexes.iter().enumerate() {
                let base = cat!(t, "/", index.kind.short(), "/", index.name);
                out.push((
                    cat!(base, "/reads"),
                    demand(Metric::IndexReads(pos), index.observed.read_units)?,
                ));
                out.push((
                    cat!(base, "/writes"),
                    demand(Metric::IndexWrites(pos), index.observed.write_units)?,
                ));
            }
            for region in &table.replicas {
                let prefix = cat!(t, "/replica/", region);
                out.push((
                    cat!(prefix, "/writes"),
                    demand(Metric::PlainWriteUnits, table.observed.write_units)?,
                ));
                for (pos, index) in table.indexes.iter().enumerate() {
                    out.push((
                        cat!(prefix, "/", index.kind.short(), "/", index.name, "/writes"),
                        demand(Metric::IndexWrites(pos), None)?,
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Eligible usage of one price in one region, per hour of the period, at list price.
struct Pool {
    region: Arc<str>,
    key: PriceKey,
    rate: Decimal,
    list_price: Decimal,
    unit: &'static str,
    /// List-priced usage in each hour of the period, over the month (the hour stands for
    /// `month_hours ÷ period` hours of the month).
    hourly: Vec<Decimal>,
    /// The month's list-priced usage (net of credits), exact.
    eligible: Decimal,
    /// List-priced usage covered over the month.
    covered: Decimal,
}

/// The rates that apply in `region`: the workload's, else the region's price table's.
fn rates_for<'a>(
    plan: &'a SavingsPlan,
    pricer: &Pricer<'a>,
    region: &str,
) -> Option<&'a SavingsPlanRates> {
    plan.rates.as_ref().or_else(|| {
        pricer
            .book
            .region(region)
            .and_then(|t| t.savings_plan_rates.as_ref())
    })
}

/// Spreads a month's `cost` over the hours of a period of `period` hours by `shape` (relative
/// amounts repeating every `shape.len()` hours): period hour `h` stands for `month_hours ÷
/// period` hours of the month and gets cost × shape[h] × len ÷ (Σ shape × period) of it. An
/// all-zero or missing shape spreads evenly.
fn spread(
    cost: Decimal,
    shape: Option<&[Decimal]>,
    period: usize,
    into: &mut [Decimal],
    context: &str,
) -> Result<(), EngineError> {
    let flat = [Decimal::ONE];
    let shape = shape
        .filter(|s| !s.is_empty() && s.iter().any(|v| !v.is_zero()))
        .unwrap_or(&flat);
    let sum = checked::sum(shape.iter().copied(), context)?;
    let len = Decimal::from(shape.len());
    // cost × len / (Σ shape × period), then × each hour's shape value.
    let scale = checked::div(
        checked::mul(cost, len, context)?,
        checked::mul(sum, Decimal::from(period), context)?,
        context,
    )?;
    for (h, slot) in into.iter_mut().enumerate().take(period) {
        let v = shape[h.checked_rem(shape.len()).unwrap_or(0)];
        *slot = checked::add(*slot, checked::mul(scale, v, context)?, context)?;
    }
    Ok(())
}

/// The plan's lines for a month whose usage lines are `lines`, given their hourly `shapes`:
/// the commitment, and a credit per region and price for the usage it covers. Also returns
/// how the plan was used and warnings (eligible usage without a rate).
///
/// # Errors
/// A region with eligible usage and no rates anywhere; a figure too large.
pub(super) fn lines(
    pricer: &Pricer<'_>,
    plan: &SavingsPlan,
    lines: &[LineItem],
    shapes: &Shapes,
    warnings: &mut Vec<Notice>,
) -> Result<(Vec<LineItem>, SavingsPlanUse), EngineError> {
    let hours = pricer.settings.month_hours;
    let context = "commitments.savings_plan";
    let Eligible {
        mut pools,
        sources,
        unrated,
        period,
    } = eligible(pricer, plan, lines, shapes)?;
    for (region, key) in unrated {
        warnings.push(Notice::NoPlanRate { price: key, region });
    }
    // Highest discount first: the lowest fraction of list price.
    pools.sort_by_key(|p| p.rate);
    // Each hour of the period stands for hours ÷ period hours of the month: so does its share
    // of the commitment.
    let commitment = checked::mul(plan.per_hour, hours, context)?;
    let per_period_hour = checked::div(commitment, Decimal::from(period), context)?;
    let used = cover(&mut pools, per_period_hour, period, context)?;
    // A profile's shares divide (by 24 or 168 hours, by the profile's sum): the cover is
    // kept to 20 decimal places, far below any currency's minor unit.
    for p in &mut pools {
        p.covered = p.covered.round_dp(PLACES);
    }
    let mut use_ = SavingsPlanUse {
        per_hour: plan.per_hour,
        commitment,
        used: used.round_dp(PLACES),
        eligible: checked::sum(pools.iter().map(|p| p.eligible.max(Decimal::ZERO)), context)?,
        covered: checked::sum(pools.iter().map(|p| p.covered), context)?,
        sources,
        covered_rates: Vec::new(),
    };
    let out = plan_lines(pricer, plan, &pools, &mut use_)?;
    Ok((out, use_))
}

/// The usage a plan can cover, pooled by region and price (each pool's cost spread over the
/// period's hours), the rate tables it was valued with, and the usage without a rate.
struct Eligible {
    pools: Vec<Pool>,
    sources: Vec<String>,
    unrated: Vec<(Arc<str>, String)>,
    /// Hours in the period the pools are spread over: 168, 24 or 1.
    period: usize,
}

fn eligible(
    pricer: &Pricer<'_>,
    plan: &SavingsPlan,
    lines: &[LineItem],
    shapes: &Shapes,
) -> Result<Eligible, EngineError> {
    let eligible_keys: Vec<PriceKey> = PriceKey::all()
        .into_iter()
        .filter(PriceKey::savings_plan_eligible)
        .collect();
    let mut pools: Vec<Pool> = Vec::new();
    let mut sources: Vec<String> = Vec::new();
    let mut unrated: Vec<(Arc<str>, String)> = Vec::new();
    // The period: a week if any shape is weekly, a day if any is daily, else one hour.
    let period = shapes
        .iter()
        .map(|(_, s)| s.len())
        .filter(|l| [24, 168].contains(l))
        .max()
        .unwrap_or(1);
    for line in lines {
        let Some(cost) = line.cost else { continue };
        let Some(key) = eligible_keys.iter().find(|k| k.path() == line.price_key) else {
            continue;
        };
        if cost.is_zero() {
            continue;
        }
        let Some(rates) = rates_for(plan, pricer, &line.region) else {
            let table = pricer.book.region(&line.region);
            return Err(EngineError::MissingSavingsPlanRates {
                region: line.region.to_string(),
                price: key.path().into_owned(),
                table_id: table.map(|t| t.id.clone()).unwrap_or_default(),
                needed_by: line.key.clone(),
            });
        };
        let Some(rate) = rates.rates.get(key).copied() else {
            if !unrated
                .iter()
                .any(|(r, k)| *r == line.region && k == &line.price_key)
            {
                unrated.push((Arc::clone(&line.region), line.price_key.to_string()));
            }
            continue;
        };
        let described = rates.described();
        if !sources.contains(&described) {
            sources.push(described);
        }
        let pos = match pools
            .iter()
            .position(|p| p.region == line.region && &p.key == key)
        {
            Some(i) => i,
            None => {
                pools.push(Pool {
                    region: Arc::clone(&line.region),
                    key: key.clone(),
                    rate,
                    list_price: pricer.price(&line.region, key, &line.key)?,
                    unit: line.unit,
                    hourly: vec![Decimal::ZERO; period],
                    eligible: Decimal::ZERO,
                    covered: Decimal::ZERO,
                });
                pools.len().saturating_sub(1)
            }
        };
        let shape = shapes
            .iter()
            .find(|(k, _)| *k == line.key)
            .map(|(_, s)| s.as_slice());
        spread(cost, shape, period, &mut pools[pos].hourly, &line.key)?;
        pools[pos].eligible = checked::add(pools[pos].eligible, cost, &line.key)?;
    }
    Ok(Eligible {
        pools,
        sources,
        unrated,
        period,
    })
}

/// The commitment's line and a credit line per pool the plan covers; records each credit's
/// rate in `use_`.
fn plan_lines(
    pricer: &Pricer<'_>,
    plan: &SavingsPlan,
    pools: &[Pool],
    use_: &mut SavingsPlanUse,
) -> Result<Vec<LineItem>, EngineError> {
    let hours = pricer.settings.month_hours;
    let context = "commitments.savings_plan";
    let account: Arc<str> = Arc::from("(account)");
    let global: Arc<str> = Arc::from("global");
    let mut out = Vec::with_capacity(pools.len().saturating_add(1));
    out.push(pricer.line_at(
        LineSpec {
            key: "account/savings-plan/commitment".to_string(),
            table: &account,
            component: Component::SavingsPlan,
            label: Label::SavingsPlanCommitment {
                per_hour: plan.per_hour,
                hours,
                utilization: use_.utilization(),
                coverage: use_.coverage(),
            },
            region: &global,
            unit: "hour",
            basis: Basis::Derived,
        },
        plan.per_hour,
        Cow::Borrowed("commitments.savings_plan.per_hour"),
        Some(hours),
        Weights::NONE,
    )?);
    for p in pools.iter().filter(|p| !p.covered.is_zero()) {
        let path = p.key.path();
        let quantity = checked::div(p.covered, p.list_price, context)?.round_dp(PLACES);
        let key = cat!("account/savings-plan/", p.region, "/", path, "/covered");
        use_.covered_rates.push((key.clone(), p.rate));
        out.push(pricer.line_at(
            LineSpec {
                key,
                table: &account,
                component: Component::SavingsPlan,
                label: Label::SavingsPlanCovers {
                    quantity,
                    unit: p.unit,
                    price: path.clone(),
                    region: Arc::clone(&p.region),
                    rate: p.rate,
                },
                region: &p.region,
                unit: p.unit,
                basis: Basis::Derived,
            },
            Decimal::ZERO.saturating_sub(p.list_price),
            path,
            Some(quantity),
            Weights::NONE,
        )?);
    }
    Ok(out)
}

/// Decimal places the plan's cover is kept to.
const PLACES: u32 = 20;

/// Each hour of the period: the commitment covers the pools in order (highest discount
/// first), each hour's usage valued at the pool's rate, until it is used up. Adds each pool's
/// covered list-priced usage to `covered` and returns the commitment used, summed over the
/// period's hours (all in month-share units: `per_hour` is the hour's share of the month's
/// commitment).
fn cover(
    pools: &mut [Pool],
    per_hour: Decimal,
    period: usize,
    context: &str,
) -> Result<Decimal, EngineError> {
    let mut used_sum = Decimal::ZERO;
    for h in 0..period {
        let mut left = per_hour;
        for p in pools.iter_mut() {
            // Credits (reservations, free tier) net out inside a pool; never below zero.
            let usage = p.hourly[h].max(Decimal::ZERO);
            if usage.is_zero() || left.is_zero() {
                continue;
            }
            let at_plan = checked::mul(usage, p.rate, context)?;
            let covered = if at_plan <= left {
                left = checked::sub(left, at_plan, context)?;
                usage
            } else {
                let part = checked::div(left, p.rate, context)?;
                left = Decimal::ZERO;
                part
            };
            p.covered = checked::add(p.covered, covered, context)?;
        }
        used_sum = checked::add(used_sum, checked::sub(per_hour, left, context)?, context)?;
    }
    Ok(used_sum)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Decimal {
        s.parse().unwrap()
    }

    fn pool(rate: &str, hourly: &[&str]) -> Pool {
        Pool {
            region: Arc::from("us-east-1"),
            key: PriceKey::WritePerMillion(crate::model::TableClass::Standard),
            rate: d(rate),
            list_price: d("0.625"),
            unit: "M WRU",
            hourly: hourly.iter().map(|h| d(h)).collect(),
            eligible: Decimal::ZERO,
            covered: Decimal::ZERO,
        }
    }

    #[test]
    fn the_commitment_covers_usage_valued_at_the_plan_rate() {
        // $0.10 of list usage at rate 0.8 costs $0.08 of commitment; a $0.05 commitment
        // covers 0.05 / 0.8 = $0.0625 of it and is fully used.
        let mut pools = [pool("0.8", &["0.10"])];
        let used = cover(&mut pools, d("0.05"), 1, "t").unwrap();
        assert_eq!((used, pools[0].covered), (d("0.05"), d("0.0625")));
        // A commitment larger than the usage at plan rates: all usage covered, 0.08 used.
        let mut pools = [pool("0.8", &["0.10"])];
        let used = cover(&mut pools, d("0.50"), 1, "t").unwrap();
        assert_eq!((used, pools[0].covered), (d("0.08"), d("0.10")));
    }

    #[test]
    fn the_deepest_discount_is_covered_first_hour_by_hour() {
        // Pools sorted by rate: 0.7 first. Hour 0: 0.7 × 0.10 = 0.07 used, 0.03 left covers
        // 0.03 / 0.9 of the second pool. Hour 1: no usage of the first; 0.10 / 0.9 of the
        // second covered (0.9 × 0.2 = 0.18 > 0.10).
        let mut pools = [pool("0.7", &["0.10", "0"]), pool("0.9", &["0.20", "0.20"])];
        let used = cover(&mut pools, d("0.10"), 2, "t").unwrap();
        assert_eq!(used, d("0.20"));
        assert_eq!(pools[0].covered, d("0.10"));
        assert_eq!(
            pools[1].covered,
            d("0.03") / d("0.9") + d("0.10") / d("0.9")
        );
    }

    #[test]
    fn spreading_keeps_the_month_and_follows_the_shape() {
        // $730 over a 2-hour shape [1, 3] in a 2-hour period: 730 × 2 / (4 × 2) × v = 182.5
        // and 547.5, which add up to the month's 730.
        let mut into = vec![Decimal::ZERO; 2];
        spread(d("730"), Some(&[d("1"), d("3")]), 2, &mut into, "t").unwrap();
        assert_eq!(into, vec![d("182.5"), d("547.5")]);
        // A 2-hour shape in a 4-hour period repeats: 8 × 2 / (4 × 4) × v = 1 and 3, twice.
        let mut into = vec![Decimal::ZERO; 4];
        spread(d("8"), Some(&[d("1"), d("3")]), 4, &mut into, "t").unwrap();
        assert_eq!(into, vec![d("1"), d("3"), d("1"), d("3")]);
        // No shape: evenly.
        let mut into = vec![Decimal::ZERO; 4];
        spread(d("8"), None, 4, &mut into, "t").unwrap();
        assert_eq!(into, vec![d("2"); 4]);
    }
}
