//! The capacity options on a measured curve, for one table or GSI and one dimension (reads
//! or writes): what the measured demand costs on demand (Σ consumed units × the request
//! price), provisioned with auto scaling (simulated step by step, `simulate`), provisioned at
//! the smallest fixed capacity that serves the curve with the target's headroom once burst
//! capacity is counted (`burst`), and as it runs today — measured (`Provisioned…CapacityUnits`), or as the workload states it — each
//! with its cost for the window and per month, its utilization, its minutes served from burst
//! and its throttle-risk minutes (never counted as served). `verdict` chooses among them.

use rust_decimal::Decimal;

use super::EngineError;
use super::burst::{self, BURST_SECONDS};
use super::checked;
use super::simulate::{Curve, Policy, Simulation, simulate};

/// The two prices of a dimension: request units per million (on demand) and unit-hours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct DimensionPrices {
    pub per_million: Decimal,
    pub unit_hour: Decimal,
}

/// How a dimension's capacity is bought.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Setting {
    OnDemand,
    /// Provisioned at this many units every hour.
    Fixed(Decimal),
    /// Provisioned, with Application Auto Scaling's target tracking.
    AutoScaling(Policy),
    /// Provisioned at a capacity that changed over the window, by a policy nothing states.
    Varying,
}

impl Setting {
    /// The setting in words: `auto scaling at 70 % (1–40000 WCU)`, `fixed at 120 RCU`.
    pub(crate) fn describe(self, unit: &str) -> String {
        // A target is a share of two decimals at most (20–90 %): its percentage is exact.
        let pct = |x: Decimal| {
            x.checked_mul(Decimal::ONE_HUNDRED)
                .unwrap_or_default()
                .normalize()
                .to_string()
        };
        match self {
            Setting::OnDemand => "on demand".to_string(),
            Setting::Fixed(u) => format!("fixed at {} {unit}", u.normalize()),
            Setting::AutoScaling(p) => format!(
                "auto scaling at {} % ({}–{} {unit})",
                pct(p.target),
                p.min.normalize(),
                p.max.normalize()
            ),
            Setting::Varying => {
                "provisioned as today (a capacity that changed, by no stated policy)".to_string()
            }
        }
    }
}

/// Where today's setting was learnt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Source {
    /// `Provisioned…CapacityUnits` measured (the cost is the capacity measured).
    Measured,
    /// The workload's `capacity:` (no provisioned capacity measured).
    Workload,
    /// Nothing says: taken as on demand.
    Assumed,
}

/// What runs today, as given to `decide`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Today<'a> {
    /// The setting the workload states, if any.
    pub stated: Option<Setting>,
    /// The capacity CloudWatch measured per step, if any.
    pub measured: Option<&'a [Decimal]>,
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
    /// Minutes whose demand above capacity burst capacity served.
    pub burst_minutes: Decimal,
    /// Minutes whose demand exceeded the capacity in force and what burst had banked.
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
    /// The auto-scaling option's policy (today's where today auto scales).
    pub policy: Policy,
    pub auto_scaling: OptionCost,
    pub auto_scaling_changes: (usize, usize),
    /// Auto scaling's capacity at the window's last step: where it would start today.
    pub auto_scaling_last: Decimal,
    /// The smallest fixed capacity that serves the curve ÷ the policy's target with burst
    /// (⌈peak ÷ target⌉ at most): the headroom auto scaling keeps, held still.
    pub fixed_units: Decimal,
    pub fixed: OptionCost,
    /// Today's setting, where it was learnt, and what it cost.
    pub today: Setting,
    pub source: Source,
    pub current: OptionCost,
    /// Today's provisioned capacity at the window's last step (`None` on demand).
    pub today_last: Option<Decimal>,
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
    /// Unit-hours today's provisioned capacity held (`None` on demand today).
    pub(crate) current_unit_hours: Option<Decimal>,
}

/// Σ capacity × period ÷ 3,600, divided once: whole capacities over whole minutes give
/// whole unit-hours (143 units for an hour is 143, not 142.99…).
fn unit_hours_of(capacity: &[Decimal], period: u32, what: &str) -> Result<Decimal, EngineError> {
    let sum = checked::sum_slice(capacity, what)?;
    checked::div(
        checked::mul(sum, Decimal::from(period), what)?,
        Decimal::from(3_600),
        what,
    )
}

/// Units consumed over steps consuming `units` each.
fn units(units: &[Decimal], what: &str) -> Result<Decimal, EngineError> {
    checked::sum_slice(units, what)
}

/// The curve hour by hour: Σ over each hour's steps.
fn hours(
    c: &Curve<'_>,
    sim: &Simulation,
    today: Option<&[Decimal]>,
) -> Result<Vec<Hour>, EngineError> {
    let what = "the hourly series";
    let per_hour = usize::try_from(3_600u32.checked_div(c.period).unwrap_or(1).max(1)).unwrap_or(1);
    let mut out = Vec::with_capacity(c.units.len().div_ceil(per_hour));
    // The auto-scaled capacity's steps at risk, as the simulation counted them (with burst).
    let mut risky = sim.at_risk.iter().peekable();
    for (h, used) in c.units.chunks(per_hour).enumerate() {
        let from = h.saturating_mul(per_hour);
        let to = from.saturating_add(used.len());
        let caps = sim.capacity.get(from..to).unwrap_or_default();
        let mut at_risk = 0usize;
        while risky.next_if(|i| **i < to).is_some() {
            at_risk = at_risk.saturating_add(1);
        }
        out.push(Hour {
            span: unit_hours_of(&[Decimal::from(used.len())], c.period, what)?,
            consumed: units(used, what)?,
            auto_unit_hours: unit_hours_of(caps, c.period, what)?,
            auto_throttle_minutes: minutes(at_risk, c.period, what)?,
            current_unit_hours: today
                .map(|p| unit_hours_of(p.get(from..to).unwrap_or_default(), c.period, what))
                .transpose()?,
        });
    }
    Ok(out)
}

/// What `decide` needs: the curve (the units each step consumed), what runs today, the
/// auto-scaling policy to simulate (today's where today auto scales), prices, hours in a
/// month.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Measured<'a> {
    pub curve: Curve<'a>,
    pub today: Today<'a>,
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

/// Today's setting from what the workload states and what was measured: the measured
/// capacity is what runs (a constant one is fixed at it unless the workload says it auto
/// scales; one that changed is auto scaling where the workload says so, else `Varying`);
/// without it, the workload's word; without either, on demand, assumed.
fn today_setting(today: &Today<'_>) -> (Setting, Source) {
    match (today.measured, today.stated) {
        (Some(cap), stated) if cap.iter().any(|c| !c.is_zero()) => {
            let first = cap.first().copied().unwrap_or_default();
            let constant = cap.iter().all(|c| *c == first);
            let setting = match stated {
                Some(Setting::AutoScaling(p)) => Setting::AutoScaling(p),
                _ if constant => Setting::Fixed(first),
                _ => Setting::Varying,
            };
            (setting, Source::Measured)
        }
        (Some(_), _) => (Setting::OnDemand, Source::Measured),
        (None, Some(s)) => (s, Source::Workload),
        (None, None) => (Setting::OnDemand, Source::Assumed),
    }
}

/// The right-sized fixed capacity: the smallest that serves the curve ÷ `target` (the
/// headroom auto scaling keeps) with burst, and its steps at risk and served from burst on
/// the curve itself (replayed at one capacity, on the units each step consumes).
fn right_sized(
    c: &Curve<'_>,
    target: Decimal,
    what: &str,
) -> Result<(Decimal, (usize, usize)), EngineError> {
    let capacity = burst::smallest_fixed_units(c.units, c.period, c.burst_seconds, target, what)?;
    let risk = burst::replay_units(c.units, capacity, c.period, c.burst_seconds, what)?;
    Ok((capacity, risk))
}

/// Σ consumed of each complete week from the curve's start.
fn weekly(c: &Curve<'_>, what: &str) -> Result<Vec<Decimal>, EngineError> {
    let week = usize::try_from(604_800u32.checked_div(c.period).unwrap_or(1))
        .unwrap_or(usize::MAX)
        .max(1);
    c.units
        .chunks(week)
        .filter(|w| w.len() == week)
        .map(|w| units(w, what))
        .collect()
}

/// The options' figures for one dimension.
///
/// # Errors
/// A policy the simulation refuses, or a figure too large to compute.
pub(crate) fn decide(m: Measured<'_>) -> Result<DimensionDecision, EngineError> {
    let what = "the capacity decision";
    let c = Curve {
        burst_seconds: BURST_SECONDS,
        ..m.curve
    };
    let period = Decimal::from(c.period);
    let steps = Decimal::from(c.units.len());
    let window_hours = checked::div(
        checked::mul(steps, period, what)?,
        Decimal::from(3_600),
        what,
    )?;
    let consumed = units(c.units, what)?;
    // The busiest step's units a second.
    let peak = checked::div(
        c.units.iter().copied().max().unwrap_or_default(),
        period,
        what,
    )?;
    let on_demand_cost = checked::mul(
        checked::div(consumed, Decimal::from(1_000_000), what)?,
        m.prices.per_million,
        what,
    )?;
    let on_demand = OptionCost {
        unit_hours: None,
        cost: on_demand_cost,
        monthly: monthly(on_demand_cost, m.month_hours, window_hours, what)?,
        utilization: None,
        burst_minutes: Decimal::ZERO,
        throttle_minutes: Decimal::ZERO,
    };
    let provisioned = |unit_hours: Decimal,
                       (throttle, burst): (usize, usize)|
     -> Result<OptionCost, EngineError> {
        let cost = checked::mul(unit_hours, m.prices.unit_hour, what)?;
        let seconds = checked::mul(unit_hours, Decimal::from(3_600), what)?;
        Ok(OptionCost {
            unit_hours: Some(unit_hours),
            cost,
            monthly: monthly(cost, m.month_hours, window_hours, what)?,
            utilization: (!seconds.is_zero())
                .then(|| checked::div(consumed, seconds, what))
                .transpose()?,
            burst_minutes: minutes(burst, c.period, what)?,
            throttle_minutes: minutes(throttle, c.period, what)?,
        })
    };
    // Capacity held step by step, priced with burst.
    let held = |caps: &[Decimal]| -> Result<OptionCost, EngineError> {
        let risk = burst::replay(
            c.units,
            caps.iter().copied(),
            c.period,
            c.burst_seconds,
            what,
        )?;
        provisioned(unit_hours_of(caps, c.period, what)?, risk)
    };
    let sim: Simulation = simulate(c, m.policy)?;
    let auto_scaling = provisioned(sim.unit_hours, (sim.throttle_steps, sim.burst_steps))?;
    let (fixed_units, fixed_risk) = right_sized(&c, m.policy.target, what)?;
    let fixed = provisioned(
        checked::div(
            checked::mul(checked::mul(fixed_units, steps, what)?, period, what)?,
            Decimal::from(3_600),
            what,
        )?,
        fixed_risk,
    )?;
    let (today, source) = today_setting(&m.today);
    // Today's capacity step by step (`None` on demand), and what it cost.
    let (today_caps, current): (Option<Vec<Decimal>>, OptionCost) = match (today, m.today.measured)
    {
        (Setting::OnDemand, _) => (None, on_demand.clone()),
        (_, Some(cap)) if source == Source::Measured => {
            let cap = cap.to_vec();
            let cost = held(&cap)?;
            (Some(cap), cost)
        }
        (Setting::Fixed(u), _) => {
            let cap = vec![u; c.units.len()];
            let cost = held(&cap)?;
            (Some(cap), cost)
        }
        (Setting::AutoScaling(p), _) => {
            let s = if p == m.policy {
                sim.clone()
            } else {
                simulate(c, p)?
            };
            let cost = provisioned(s.unit_hours, (s.throttle_steps, s.burst_steps))?;
            (Some(s.capacity), cost)
        }
        (Setting::Varying, _) => (None, on_demand.clone()),
    };
    let hourly = hours(&c, &sim, today_caps.as_deref())?;
    let today_last = today_caps.as_ref().and_then(|c| c.last().copied());
    let weekly = weekly(&c, what)?;
    Ok(DimensionDecision {
        consumed,
        peak,
        window_hours,
        on_demand,
        policy: m.policy,
        auto_scaling,
        auto_scaling_changes: (sim.increases, sim.decreases),
        auto_scaling_last: sim.capacity.last().copied().unwrap_or(m.policy.min),
        fixed_units,
        fixed,
        today,
        source,
        current,
        today_last,
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
        // 100 × 60 = 6,000 units a minute.
        let used = vec![dec("6000"); 10_080];
        let d = decide(Measured {
            curve: Curve {
                start: 0,
                period: 60,
                units: &used,
                initial: None,
                burst_seconds: 0,
            },
            today: Today {
                stated: None,
                measured: None,
            },
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
        // Fixed with the target's headroom: a flat 100 ÷ 0.7 = 142.86 → 143 WCU (at 142 the
        // bank, empty at the start, never fills: 142 < 142.86), as auto scaling holds.
        assert_eq!(d.fixed_units, dec("143"));
        assert_eq!(d.fixed.cost, dec("15.6156"));
        assert_eq!(d.weekly, [dec("60480000")]);
    }

    #[test]
    fn measured_capacity_counts_its_throttle_minutes() {
        // 10 steps of 5 minutes at 50 units/s against 40 provisioned: every step is at risk,
        // 10 × 300 ÷ 60 = 50 minutes; 40 units × 50 min = 33.33… unit-hours.
        // 50 × 300 = 15,000 units a step.
        let used = vec![dec("15000"); 10];
        let cap = vec![dec("40"); 10];
        let d = decide(Measured {
            curve: Curve {
                start: 0,
                period: 300,
                units: &used,
                initial: Some(dec("40")),
                burst_seconds: 0,
            },
            today: Today {
                stated: None,
                measured: Some(&cap),
            },
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
        let current = d.current;
        assert_eq!(
            (d.today, d.source),
            (Setting::Fixed(dec("40")), Source::Measured)
        );
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
                // Each point's Sum of a 60-second period.
                let used: Vec<Decimal> = sums.iter().map(|s| Decimal::from(*s)).collect();
                let per_million = Decimal::new(i64::from(price), 4);
                let d = decide(Measured {
                    curve: Curve { start: 0, period: 60, units: &used, initial: None, burst_seconds: 0 },
                    today: Today { stated: None, measured: None },
                    policy: Policy { target: dec("0.7"), min: dec("1"), max: dec("40000") },
                    prices: DimensionPrices { per_million, unit_hour: dec("0.00013") },
                    month_hours: dec("730"),
                })
                .unwrap();
                let consumed: Decimal = used.iter().sum();
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
