//! Application Auto Scaling's target tracking, simulated step by step over a measured demand
//! curve at the data's own resolution (one step per CloudWatch period), by the rules AWS
//! documents for DynamoDB (DESIGN.md §8):
//!
//! - utilization is demand (units a second) ÷ provisioned capacity;
//! - capacity rises when utilization has been above the target for 2 consecutive minutes, to
//!   ⌈latest demand ÷ target⌉ (at most `max`);
//! - it falls when utilization has been 20 points or more below the target for 15
//!   consecutive minutes, to ⌈the highest demand of those minutes ÷ target⌉ (at least `min`);
//! - decreases per UTC day: 4 at any time, then one more for each hour since the last, 27 at
//!   most;
//! - a change takes effect from the next step; demand above capacity is served from burst
//!   capacity while the bank holds (`burst`: up to 300 s of unused capacity), and otherwise is
//!   throttle risk, never counted as served.
//!
//! Conventions the simulation chooses (docs/commands/usage.md states them): "2 minutes" and "15 minutes"
//! are ⌈120 ÷ period⌉ and ⌈900 ÷ period⌉ steps (at least 1: one 300-second point is above the
//! target for "2 minutes", three points for 15); the first step starts at the stated initial
//! capacity (the `Provisioned…CapacityUnits` measured, else ⌈first demand ÷ target⌉), clamped
//! to [min, max]; burst is accounted as `burst` states (the bank starts empty). Scaling decides
//! on the demand measured whether burst served it or not. Provisioned capacity is billed in
//! unit-hours: Σ capacity × period ÷ 3,600, exactly.

use rust_decimal::Decimal;

use super::EngineError;
use super::burst::{Bank, Step};
use super::checked;

/// A target-tracking policy: the target utilization (a share in (0, 1]) and the bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Policy {
    pub target: Decimal,
    pub min: Decimal,
    pub max: Decimal,
}

/// A measured curve: the units each step of `period` seconds consumed (the CloudWatch `Sum`
/// of its period, 0 for a gap), from `start` (Unix seconds). Demand a second is a step's
/// units ÷ the period; every rule is applied to the units themselves (utilization above the
/// target is units > target × capacity × period), so nothing is divided before it is
/// compared.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Curve<'a> {
    pub start: i64,
    pub period: u32,
    pub units: &'a [Decimal],
    /// The capacity provisioned at the first step, where measured.
    pub initial: Option<Decimal>,
    /// Seconds of unused capacity banked for bursts (`burst::BURST_SECONDS`; 0: none).
    pub burst_seconds: u32,
}

/// What the simulation did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Simulation {
    /// Capacity in force at each step.
    pub capacity: Vec<Decimal>,
    /// Σ capacity × period ÷ 3,600.
    pub unit_hours: Decimal,
    /// Steps whose demand exceeded the capacity in force and what burst had banked.
    pub throttle_steps: usize,
    /// Steps whose demand exceeded the capacity in force, served from burst.
    pub burst_steps: usize,
    /// The steps at risk, in order (for the hour-by-hour series).
    pub at_risk: Vec<usize>,
    pub increases: usize,
    pub decreases: usize,
    /// The most decreases in one UTC day.
    pub most_decreases_in_a_day: u32,
}

impl Simulation {
    /// Nothing simulated yet, with room for `steps` capacities.
    pub(super) fn over(steps: usize) -> Simulation {
        Simulation {
            capacity: Vec::with_capacity(steps),
            unit_hours: Decimal::ZERO,
            throttle_steps: 0,
            burst_steps: 0,
            at_risk: Vec::new(),
            increases: 0,
            decreases: 0,
            most_decreases_in_a_day: 0,
        }
    }

    /// Counts what step `i` did with the bank.
    pub(super) fn count(&mut self, step: Step, i: usize) {
        match step {
            Step::Served => {}
            Step::Burst => self.burst_steps = self.burst_steps.saturating_add(1),
            Step::AtRisk => {
                self.throttle_steps = self.throttle_steps.saturating_add(1);
                self.at_risk.push(i);
            }
        }
    }
}

/// The decreases allowed in a UTC day.
pub(crate) const MAX_DECREASES_A_DAY: u32 = 27;
/// Decreases allowed at any time of the day before the hourly allowance applies.
const FREE_DECREASES: u32 = 4;
/// Utilization points below the target that count as "well below".
pub(super) const SCALE_IN_GAP: Decimal = Decimal::from_parts(20, 0, 0, false, 2);

/// Steps that span at least `seconds` (at least one).
pub(super) fn steps(seconds: u32, period: u32) -> usize {
    usize::try_from(seconds.div_ceil(period.max(1)).max(1)).unwrap_or(1)
}

/// The day's count of decreases and when the last one was: whether another is allowed at
/// `t` (4 at any time, then one an hour, 27 a UTC day).
pub(super) struct Decreases {
    day: i64,
    today: u32,
    last: i64,
}

impl Decreases {
    pub(super) fn new() -> Decreases {
        Decreases {
            day: i64::MIN,
            today: 0,
            last: i64::MIN,
        }
    }

    /// Enters step `t` (a new UTC day resets the count).
    pub(super) fn at(&mut self, t: i64) {
        if t.div_euclid(86_400) != self.day {
            self.day = t.div_euclid(86_400);
            self.today = 0;
        }
    }

    pub(super) fn allowed(&self, t: i64) -> bool {
        self.today < FREE_DECREASES
            || (self.today < MAX_DECREASES_A_DAY && t.saturating_sub(self.last) >= 3_600)
    }

    /// A decrease made at `t`: the day's count after it.
    pub(super) fn made(&mut self, t: i64) -> u32 {
        self.today = self.today.saturating_add(1);
        self.last = t;
        self.today
    }
}

/// The Unix second step `i` starts at.
pub(super) fn time_of(curve: &Curve<'_>, i: usize, what: &str) -> Result<i64, EngineError> {
    i64::try_from(i)
        .ok()
        .and_then(|i| i.checked_mul(i64::from(curve.period)))
        .and_then(|s| s.checked_add(curve.start))
        .ok_or_else(|| EngineError::Overflow {
            context: what.to_string(),
        })
}

/// Runs `policy` over `curve`: in integers of one scale where every figure fits (the units
/// as CloudWatch writes them, whole capacities), else in `Decimal` — the same rules, the same
/// result (property-tested).
///
/// # Errors
/// A target outside (0, 1], bounds that are not 1 ≤ min ≤ max, a period of 0, or a figure
/// too large to compute.
pub(crate) fn simulate(curve: Curve<'_>, policy: Policy) -> Result<Simulation, EngineError> {
    let what = "auto scaling simulation";
    if policy.target <= Decimal::ZERO
        || policy.target > Decimal::ONE
        || policy.min < Decimal::ONE
        || policy.max < policy.min
        || curve.period == 0
    {
        return Err(EngineError::Invalid {
            what: what.to_string(),
            why: format!(
                "a target in (0, 1], 1 ≤ min ≤ max and a period above 0 are needed (target {}, min {}, max {}, period {} s)",
                policy.target, policy.min, policy.max, curve.period
            ),
        });
    }
    if let Some(fixed) = super::simulate_fixed::simulate(&curve, policy) {
        return Ok(fixed);
    }
    simulate_decimal(curve, policy)
}

/// `simulate` in `Decimal`.
pub(super) fn simulate_decimal(
    curve: Curve<'_>,
    policy: Policy,
) -> Result<Simulation, EngineError> {
    let what = "auto scaling simulation";
    let period = Decimal::from(curve.period);
    // Units a step at the target (and at the floor) for each unit of capacity.
    let at_target = checked::mul(policy.target, period, what)?;
    let at_floor = checked::mul(policy.target.saturating_sub(SCALE_IN_GAP), period, what)?;
    let desired = |units: Decimal| -> Result<Decimal, EngineError> {
        Ok(checked::div(units, at_target, what)?
            .ceil()
            .max(policy.min)
            .min(policy.max))
    };
    let up_after = steps(120, curve.period);
    let down_after = steps(900, curve.period);
    let mut current = match (curve.initial, curve.units.first()) {
        (Some(c), _) => c.max(policy.min).min(policy.max),
        (None, Some(u)) => desired(*u)?,
        (None, None) => policy.min,
    };
    let mut out = Simulation::over(curve.units.len());
    let (mut above, mut below) = (0usize, 0usize);
    let mut decreases = Decreases::new();
    let mut sum = Decimal::ZERO;
    let mut bank = Bank::new(curve.burst_seconds);
    for (i, u) in curve.units.iter().enumerate() {
        let t = time_of(&curve, i, what)?;
        decreases.at(t);
        out.capacity.push(current);
        sum = checked::add(sum, current, what)?;
        out.count(bank.step(*u, current, curve.period, what)?, i);
        // Utilization above the target, or well below it (units against target × capacity
        // × period).
        let high = *u > checked::mul(at_target, current, what)?;
        let low = *u <= checked::mul(at_floor, current, what)?;
        above = if high { above.saturating_add(1) } else { 0 };
        below = if low { below.saturating_add(1) } else { 0 };
        if above >= up_after {
            let want = desired(*u)?;
            if want > current {
                current = want;
                out.increases = out.increases.saturating_add(1);
            }
            above = 0;
            below = 0;
        } else if below >= down_after {
            let from = i.saturating_add(1).saturating_sub(down_after);
            let highest = curve.units[from..=i]
                .iter()
                .copied()
                .max()
                .unwrap_or_default();
            let want = desired(highest)?;
            if want < current && decreases.allowed(t) {
                current = want;
                out.decreases = out.decreases.saturating_add(1);
                out.most_decreases_in_a_day = out.most_decreases_in_a_day.max(decreases.made(t));
                below = 0;
            }
        }
    }
    out.unit_hours = unit_hours(sum, curve.period, what)?;
    Ok(out)
}

/// Σ capacity × period ÷ 3,600, divided once.
pub(super) fn unit_hours(sum: Decimal, period: u32, what: &str) -> Result<Decimal, EngineError> {
    checked::div(
        checked::mul(sum, Decimal::from(period), what)?,
        Decimal::from(3_600),
        what,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::dec;

    /// The units each step consumes at `demand` units a second.
    fn used(demand: &[Decimal], period: u32) -> Vec<Decimal> {
        demand
            .iter()
            .map(|d| checked::mul(*d, Decimal::from(period), "t").unwrap())
            .collect()
    }

    fn policy(target: &str, min: u32, max: u32) -> Policy {
        Policy {
            target: dec(target),
            min: Decimal::from(min),
            max: Decimal::from(max),
        }
    }

    #[test]
    fn a_constant_week_settles_at_demand_over_target() {
        // 100 WCU/s for a week, one-minute points: ⌈100 ÷ 0.7⌉ = 143 units from the first
        // minute, never changed: 143 × 10,080 minutes × 60 s ÷ 3,600 = 143 × 168 h = 24,024
        // unit-hours, no throttle.
        let demand = vec![dec("100"); 10_080];
        let s = simulate(
            Curve {
                start: 0,
                period: 60,
                units: &used(&demand, 60),
                initial: None,
                burst_seconds: 0,
            },
            policy("0.7", 1, 40_000),
        )
        .unwrap();
        assert_eq!(s.unit_hours, dec("24024"));
        assert_eq!((s.throttle_steps, s.increases, s.decreases), (0, 0, 0));
    }

    #[test]
    fn a_step_up_scales_after_two_minutes_and_back_down_after_fifteen() {
        // 70 units/s for 30 minutes from capacity 100 (utilization 70 %, at the target: no
        // change), then 140 for 10 minutes: above 70 % at minutes 30 and 31, so from minute
        // 32 the capacity is ⌈140 ÷ 0.7⌉ = 200; minutes 30 and 31 (140 > 100) are throttle
        // risk. Then 35 units/s: 35 ÷ 200 = 17.5 % ≤ 50 % from minute 40; after 15 such
        // minutes (40–54) it falls to ⌈35 ÷ 0.7⌉ = 50 from minute 55.
        let mut demand = vec![dec("70"); 30];
        demand.extend(vec![dec("140"); 10]);
        demand.extend(vec![dec("35"); 30]);
        let s = simulate(
            Curve {
                start: 0,
                period: 60,
                units: &used(&demand, 60),
                initial: Some(dec("100")),
                burst_seconds: 0,
            },
            policy("0.7", 1, 1_000),
        )
        .unwrap();
        assert_eq!(s.capacity[31], dec("100"));
        assert_eq!(s.capacity[32], dec("200"));
        assert_eq!(s.capacity[54], dec("200"));
        assert_eq!(s.capacity[55], dec("50"));
        assert_eq!(s.throttle_steps, 2);
        assert_eq!((s.increases, s.decreases), (1, 1));
        // Unit-hours: (32 × 100 + 23 × 200 + 15 × 50) ÷ 60 = 8,550 ÷ 60 = 142.5.
        assert_eq!(s.unit_hours, dec("142.5"));
    }

    #[test]
    fn five_minute_points_scale_up_after_one_point_and_down_after_three() {
        // ⌈120 ÷ 300⌉ = 1 point above, ⌈900 ÷ 300⌉ = 3 points well below.
        let demand = [
            dec("10"),
            dec("100"),
            dec("100"),
            dec("5"),
            dec("5"),
            dec("5"),
            dec("5"),
        ];
        let s = simulate(
            Curve {
                start: 0,
                period: 300,
                units: &used(&demand, 300),
                initial: Some(dec("20")),
                burst_seconds: 0,
            },
            policy("0.5", 1, 1_000),
        )
        .unwrap();
        // 100 > 0.5 × 20 at point 1 → 200 from point 2; 5 ≤ 0.3 × 200 at points 3, 4, 5 →
        // ⌈5 ÷ 0.5⌉ = 10 from point 6.
        assert_eq!(
            s.capacity,
            [20, 20, 200, 200, 200, 200, 10].map(Decimal::from)
        );
    }

    #[test]
    fn decreases_are_limited_per_utc_day() {
        // A sawtooth: 16 minutes high then 16 minutes low, all day. After the 4 free
        // decreases, one an hour at most: the day's decreases stay within 4 + 24 and 27.
        let mut demand = Vec::new();
        for _ in 0..45 {
            demand.extend(vec![dec("700"); 16]);
            demand.extend(vec![dec("7"); 16]);
        }
        let s = simulate(
            Curve {
                start: 0,
                period: 60,
                units: &used(&demand, 60),
                initial: None,
                burst_seconds: 0,
            },
            policy("0.7", 1, 10_000),
        )
        .unwrap();
        assert!(s.most_decreases_in_a_day <= MAX_DECREASES_A_DAY);
        // 1,440 minutes: the first 4 drops come every 32 minutes (minutes ~31…127), then at
        // most one an hour: fewer than the 45 a free scaler would make.
        assert!(s.decreases < 45 && s.decreases >= 4, "{}", s.decreases);
    }

    #[allow(
        clippy::arithmetic_side_effects,
        reason = "the expected figures, on small generated values"
    )]
    mod properties {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            /// Over any curve (one-minute or five-minute points, spikes and lulls) and policy:
            /// the capacity stays within [min, max]; no UTC day has more than 27 decreases;
            /// unit-hours are Σ capacity × period ÷ 3,600 exactly; and a curve that never
            /// exceeds the target at the minimum capacity never throttles.
            #[test]
            fn the_simulation_keeps_its_rules(
                demand in prop::collection::vec(0u32..5_000, 1..3_000),
                target in 20u32..=90,
                min in 1u32..50,
                span in 0u32..2_000,
                five in any::<bool>(),
                start in 0i64..200_000,
            ) {
                let demand: Vec<Decimal> = demand.into_iter().map(|d| Decimal::new(i64::from(d), 1)).collect();
                let p = Policy {
                    target: Decimal::new(i64::from(target), 2),
                    min: Decimal::from(min),
                    max: Decimal::from(min.saturating_add(span)),
                };
                let period = if five { 300 } else { 60 };
                let s = simulate(Curve { start, period, units: &used(&demand, period), initial: None, burst_seconds: 300 }, p).unwrap();
                prop_assert!(s.capacity.iter().all(|c| *c >= p.min && *c <= p.max));
                prop_assert!(s.most_decreases_in_a_day <= MAX_DECREASES_A_DAY);
                let sum: Decimal = s.capacity.iter().copied().sum();
                prop_assert_eq!(s.unit_hours, sum * Decimal::from(period) / Decimal::from(3_600));
                let quiet: Vec<Decimal> = demand.iter().map(|d| (*d).min(p.target * p.min)).collect();
                let q = simulate(Curve { start, period, units: &used(&quiet, period), initial: None, burst_seconds: 300 }, p).unwrap();
                prop_assert_eq!(q.throttle_steps, 0);
            }
        }
    }

    #[test]
    fn a_bad_policy_is_refused() {
        let demand = [dec("1")];
        let curve = Curve {
            start: 0,
            period: 60,
            units: &used(&demand, 60),
            initial: None,
            burst_seconds: 0,
        };
        for p in [
            policy("0", 1, 10),
            policy("1.5", 1, 10),
            policy("0.7", 10, 5),
        ] {
            assert!(simulate(curve, p).is_err());
        }
    }
}
