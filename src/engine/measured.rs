//! The capacity decision on a measured curve, for one table or GSI and one dimension (reads
//! or writes): what the measured demand costs on demand (Σ consumed units × the request
//! price), provisioned with auto scaling (simulated step by step, `simulate`), provisioned at
//! a fixed capacity that serves the peak, and as currently provisioned where the provisioned
//! capacity was measured — each with its cost for the window and per month, its utilization
//! and its throttle-risk minutes (never counted as served).

use rust_decimal::Decimal;

use super::EngineError;
use super::checked;
use super::simulate::{Curve, Policy, Simulation, simulate};

/// The two prices of a dimension: request units per million (on demand) and unit-hours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct DimensionPrices {
    pub per_million: Decimal,
    pub unit_hour: Decimal,
}

/// One way of buying the dimension, over the window measured.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct OptionCost {
    /// Provisioned unit-hours (`None` on demand).
    pub unit_hours: Option<Decimal>,
    pub cost: Decimal,
    pub monthly: Decimal,
    /// Consumed ÷ provisioned (`None` on demand).
    pub utilization: Option<Decimal>,
    /// Minutes whose demand exceeded the capacity in force.
    pub throttle_minutes: Decimal,
}

/// Every option for one dimension, and the figures they come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DimensionDecision {
    /// Σ consumed units in the window.
    pub consumed: Decimal,
    /// Highest demand of a step, units a second.
    pub peak: Decimal,
    pub window_hours: Decimal,
    pub on_demand: OptionCost,
    pub auto_scaling: OptionCost,
    pub auto_scaling_changes: (usize, usize),
    pub fixed_units: Decimal,
    pub fixed: OptionCost,
    pub current: Option<OptionCost>,
    /// Σ consumed of each complete week from the window's start.
    pub weekly: Vec<Decimal>,
    /// Hour by hour from the window's start: what was consumed and what each provisioned
    /// option held.
    pub hourly: Vec<Hour>,
}

/// One hour of the curve (the last may be partial).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Hour {
    /// Hours the steps span (1, or less for the last).
    pub(crate) span: Decimal,
    pub(crate) consumed: Decimal,
    /// Unit-hours auto scaling held, and its throttle-risk minutes.
    pub(crate) auto_unit_hours: Decimal,
    pub(crate) auto_throttle_minutes: Decimal,
    /// Unit-hours the measured capacity held, where measured.
    pub(crate) current_unit_hours: Option<Decimal>,
}

/// The curve hour by hour: Σ over each hour's steps.
fn hours(
    c: &Curve<'_>,
    sim: &Simulation,
    provisioned: Option<&[Decimal]>,
) -> Result<Vec<Hour>, EngineError> {
    let what = "the hourly series";
    let per_hour = usize::try_from(3_600u32.checked_div(c.period).unwrap_or(1).max(1)).unwrap_or(1);
    let period = Decimal::from(c.period);
    let unit_hours = |units: Decimal| -> Result<Decimal, EngineError> {
        checked::div(
            checked::mul(units, period, what)?,
            Decimal::from(3_600),
            what,
        )
    };
    let mut out = Vec::with_capacity(c.demand.len().div_ceil(per_hour));
    for (h, demand) in c.demand.chunks(per_hour).enumerate() {
        let from = h.saturating_mul(per_hour);
        let caps = sim
            .capacity
            .get(from..from.saturating_add(demand.len()))
            .unwrap_or_default();
        let mut hour = Hour {
            span: unit_hours(Decimal::from(demand.len()))?,
            consumed: Decimal::ZERO,
            auto_unit_hours: Decimal::ZERO,
            auto_throttle_minutes: Decimal::ZERO,
            current_unit_hours: provisioned.map(|_| Decimal::ZERO),
        };
        let mut at_risk = 0usize;
        for (i, (d, cap)) in demand.iter().zip(caps).enumerate() {
            hour.consumed = checked::add(hour.consumed, checked::mul(*d, period, what)?, what)?;
            hour.auto_unit_hours = checked::add(hour.auto_unit_hours, unit_hours(*cap)?, what)?;
            if d > cap {
                at_risk = at_risk.saturating_add(1);
            }
            if let (Some(p), Some(sum)) = (provisioned, hour.current_unit_hours.as_mut())
                && let Some(u) = p.get(from.saturating_add(i))
            {
                *sum = checked::add(*sum, unit_hours(*u)?, what)?;
            }
        }
        hour.auto_throttle_minutes = minutes(at_risk, c.period, what)?;
        out.push(hour);
    }
    Ok(out)
}

/// What `decide` needs: the curve (demand a second per step), the capacity measured per step
/// (`Provisioned…CapacityUnits`, where given), the policy, prices, hours in a month.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Measured<'a> {
    pub curve: Curve<'a>,
    pub provisioned: Option<&'a [Decimal]>,
    pub policy: Policy,
    pub prices: DimensionPrices,
    pub month_hours: Decimal,
}

fn monthly(
    cost: Decimal,
    month_hours: Decimal,
    window_hours: Decimal,
    what: &str,
) -> Result<Decimal, EngineError> {
    if window_hours.is_zero() {
        return Ok(Decimal::ZERO);
    }
    checked::div(checked::mul(cost, month_hours, what)?, window_hours, what)
}

fn minutes(steps: usize, period: u32, what: &str) -> Result<Decimal, EngineError> {
    checked::div(
        checked::mul(Decimal::from(steps), Decimal::from(period), what)?,
        Decimal::from(60),
        what,
    )
}

/// The decision's figures for one dimension.
///
/// # Errors
/// A policy the simulation refuses, or a figure too large to compute.
pub(crate) fn decide(m: Measured<'_>) -> Result<DimensionDecision, EngineError> {
    let what = "the capacity decision";
    let c = m.curve;
    let period = Decimal::from(c.period);
    let steps = Decimal::from(c.demand.len());
    let window_hours = checked::div(
        checked::mul(steps, period, what)?,
        Decimal::from(3_600),
        what,
    )?;
    let consumed = checked::sum(
        c.demand
            .iter()
            .map(|d| d.checked_mul(period).unwrap_or(Decimal::MAX)),
        what,
    )?;
    let peak = c.demand.iter().copied().max().unwrap_or_default();
    let on_demand_cost = checked::mul(
        checked::div(consumed, Decimal::from(1_000_000), what)?,
        m.prices.per_million,
        what,
    )?;
    let provisioned = |unit_hours: Decimal, throttle: usize| -> Result<OptionCost, EngineError> {
        let cost = checked::mul(unit_hours, m.prices.unit_hour, what)?;
        let seconds = checked::mul(unit_hours, Decimal::from(3_600), what)?;
        Ok(OptionCost {
            unit_hours: Some(unit_hours),
            cost,
            monthly: monthly(cost, m.month_hours, window_hours, what)?,
            utilization: (!seconds.is_zero())
                .then(|| checked::div(consumed, seconds, what))
                .transpose()?,
            throttle_minutes: minutes(throttle, c.period, what)?,
        })
    };
    let sim: Simulation = simulate(c, m.policy)?;
    let hourly = hours(&c, &sim, m.provisioned)?;
    let fixed_units = peak.ceil().max(Decimal::ONE);
    let fixed = provisioned(checked::mul(fixed_units, window_hours, what)?, 0)?;
    let current = match m.provisioned {
        Some(cap) => {
            let mut sum = Decimal::ZERO;
            let mut throttle = 0usize;
            for (d, u) in c.demand.iter().zip(cap) {
                sum = checked::add(sum, *u, what)?;
                if d > u {
                    throttle = throttle.saturating_add(1);
                }
            }
            let unit_hours =
                checked::div(checked::mul(sum, period, what)?, Decimal::from(3_600), what)?;
            Some(provisioned(unit_hours, throttle)?)
        }
        None => None,
    };
    let week = usize::try_from(604_800u32.checked_div(c.period).unwrap_or(1))
        .unwrap_or(usize::MAX)
        .max(1);
    let weekly = c
        .demand
        .chunks(week)
        .filter(|w| w.len() == week)
        .map(|w| {
            checked::sum(
                w.iter()
                    .map(|d| d.checked_mul(period).unwrap_or(Decimal::MAX)),
                what,
            )
        })
        .collect::<Result<_, _>>()?;
    Ok(DimensionDecision {
        consumed,
        peak,
        window_hours,
        on_demand: OptionCost {
            unit_hours: None,
            cost: on_demand_cost,
            monthly: monthly(on_demand_cost, m.month_hours, window_hours, what)?,
            utilization: None,
            throttle_minutes: Decimal::ZERO,
        },
        auto_scaling: provisioned(sim.unit_hours, sim.throttle_steps)?,
        auto_scaling_changes: (sim.increases, sim.decreases),
        fixed_units,
        fixed,
        current,
        weekly,
        hourly,
    })
}

/// How much the complete weeks' totals vary: (highest − lowest) ÷ their mean; `None` with
/// fewer than two complete weeks.
#[must_use]
pub(crate) fn weekly_variation(weekly: &[Decimal]) -> Option<Decimal> {
    if weekly.len() < 2 {
        return None;
    }
    let (hi, lo) = (weekly.iter().max()?, weekly.iter().min()?);
    let mean = weekly
        .iter()
        .try_fold(Decimal::ZERO, |a, w| a.checked_add(*w))?
        .checked_div(Decimal::from(weekly.len()))?;
    if mean.is_zero() {
        return Some(Decimal::ZERO);
    }
    hi.checked_sub(*lo)?.checked_div(mean)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::dec;

    #[test]
    fn a_constant_week_of_writes_on_demand_and_auto_scaled() {
        // 100 WCU/s for a week at one-minute points, us-east-1 prices ($0.625 per million
        // WRU, $0.00065 per WCU-hour).
        let demand = vec![dec("100"); 10_080];
        let d = decide(Measured {
            curve: Curve {
                start: 0,
                period: 60,
                demand: &demand,
                initial: None,
            },
            provisioned: None,
            policy: Policy {
                target: dec("0.7"),
                min: dec("1"),
                max: dec("40000"),
            },
            prices: DimensionPrices {
                per_million: dec("0.625"),
                unit_hour: dec("0.00065"),
            },
            month_hours: dec("730"),
        })
        .unwrap();
        // On demand: 100 × 604,800 s = 60,480,000 WRU → 60.48 × 0.625 = $37.80; a 730-hour
        // month: 37.80 × 730 ÷ 168 = $164.25.
        assert_eq!(d.consumed, dec("60480000"));
        assert_eq!(d.on_demand.cost, dec("37.8"));
        assert_eq!(d.on_demand.monthly, dec("164.25"));
        // Auto scaling at 70 %: ⌈100 ÷ 0.7⌉ = 143 WCU × 168 h = 24,024 WCU-hours × 0.00065 =
        // $15.6156 for the week; × 730 ÷ 168 = $67.8535 a month; utilization 100 ÷ 143.
        assert_eq!(d.auto_scaling.unit_hours, Some(dec("24024")));
        assert_eq!(d.auto_scaling.cost, dec("15.6156"));
        assert_eq!(d.auto_scaling.monthly, dec("67.8535"));
        assert_eq!(
            d.auto_scaling.utilization,
            Some(dec("60480000") / dec("86486400"))
        );
        assert_eq!(d.auto_scaling.throttle_minutes, Decimal::ZERO);
        // Fixed at the peak: 100 WCU × 168 h = 16,800 WCU-hours × 0.00065 = $10.92, 100 %.
        assert_eq!(d.fixed_units, dec("100"));
        assert_eq!(d.fixed.cost, dec("10.92"));
        assert_eq!(d.fixed.utilization, Some(Decimal::ONE));
        assert_eq!(d.weekly, [dec("60480000")]);
    }

    #[test]
    fn measured_capacity_counts_its_throttle_minutes() {
        // 10 steps of 5 minutes at 50 units/s against 40 provisioned: every step is at risk,
        // 10 × 300 ÷ 60 = 50 minutes; 40 units × 50 min = 33.33… unit-hours.
        let demand = vec![dec("50"); 10];
        let cap = vec![dec("40"); 10];
        let d = decide(Measured {
            curve: Curve {
                start: 0,
                period: 300,
                demand: &demand,
                initial: Some(dec("40")),
            },
            provisioned: Some(&cap),
            policy: Policy {
                target: dec("0.7"),
                min: dec("1"),
                max: dec("100"),
            },
            prices: DimensionPrices {
                per_million: dec("0.125"),
                unit_hour: dec("0.00013"),
            },
            month_hours: dec("730"),
        })
        .unwrap();
        let current = d.current.unwrap();
        assert_eq!(current.throttle_minutes, dec("50"));
        assert_eq!(
            current.unit_hours,
            Some(dec("40") * dec("3000") / dec("3600"))
        );
    }

    #[allow(
        clippy::arithmetic_side_effects,
        reason = "the expected figures, on small generated values"
    )]
    mod properties {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            /// On demand costs Σ consumed × the price per unit, exactly, whatever the curve.
            #[test]
            fn on_demand_is_consumed_times_the_price(
                sums in prop::collection::vec(0u32..1_000_000, 1..500),
                price in 1u32..10_000,
            ) {
                // Each point's Sum, as a demand a second of a 60-second period.
                let demand: Vec<Decimal> = sums.iter().map(|s| Decimal::from(*s) / Decimal::from(60)).collect();
                let per_million = Decimal::new(i64::from(price), 4);
                let d = decide(Measured {
                    curve: Curve { start: 0, period: 60, demand: &demand, initial: None },
                    provisioned: None,
                    policy: Policy { target: dec("0.7"), min: dec("1"), max: dec("40000") },
                    prices: DimensionPrices { per_million, unit_hour: dec("0.00013") },
                    month_hours: dec("730"),
                })
                .unwrap();
                let consumed: Decimal = demand.iter().map(|d| d * Decimal::from(60)).sum();
                prop_assert_eq!(d.consumed, consumed);
                prop_assert_eq!(d.on_demand.cost, consumed / Decimal::from(1_000_000) * per_million);
            }
        }
    }

    #[test]
    fn weekly_variation_is_the_spread_over_the_mean() {
        // Weeks of 90 and 110: (110 − 90) ÷ 100 = 20 %.
        assert_eq!(weekly_variation(&[dec("90"), dec("110")]), Some(dec("0.2")));
        assert_eq!(weekly_variation(&[dec("90")]), None);
    }
}
