//! The auto-scaling simulation (`simulate`) in integers of one scale: every unit count as
//! CloudWatch writes it (`1234`, `12.5`) times 10^scale, whole capacities, the target and
//! its floor at the same scale — the rules compared and summed exactly in `i128`, with none
//! of `Decimal`'s rescaling at each step. Where a figure has a fraction the scale cannot hold,
//! a capacity bound is not whole, or a product does not fit, it answers `None` and the
//! `Decimal` pass runs instead; both give the same simulation (property-tested below).

use rust_decimal::Decimal;

use super::burst::{Step, all_at_scale, at_scale};
use super::checked;
use super::simulate::{
    Curve, Decreases, Policy, SCALE_IN_GAP, Simulation, steps, time_of, unit_hours,
};

/// `d` as an integer when it is whole (any scale).
fn whole(d: Decimal) -> Option<i128> {
    let t = d.trunc();
    (t == d).then(|| t.mantissa())
}

/// ⌈a ÷ b⌉ for b > 0.
fn ceil_div(a: i128, b: i128) -> Option<i128> {
    let q = a.checked_div_euclid(b)?;
    let r = a.checked_rem_euclid(b)?;
    if r == 0 { Some(q) } else { q.checked_add(1) }
}

/// The simulation's fixed figures at one scale.
struct Setup {
    /// Each step's units × 10^scale.
    units: Vec<i128>,
    /// Units a step at the target (and at the floor) per unit of capacity, × 10^scale.
    at_target: i128,
    at_floor: i128,
    /// 10^scale × the period and × the bank's seconds: a unit of capacity's units a step
    /// and its bank's limit.
    per_step: i128,
    bank: i128,
    min: i128,
    max: i128,
}

impl Setup {
    fn new(curve: &Curve<'_>, policy: Policy) -> Option<Setup> {
        let floor = policy.target.saturating_sub(SCALE_IN_GAP);
        let scale = curve
            .units
            .iter()
            .map(Decimal::scale)
            .max()
            .unwrap_or(0)
            .max(policy.target.scale())
            .max(floor.scale());
        let one = checked::pow10(scale)?;
        let period = i128::from(curve.period);
        let units = all_at_scale(curve.units, scale)?;
        Some(Setup {
            units,
            at_target: at_scale(policy.target, scale)?.checked_mul(period)?,
            at_floor: at_scale(floor, scale)?.checked_mul(period)?,
            per_step: one.checked_mul(period)?,
            bank: one.checked_mul(i128::from(curve.burst_seconds))?,
            min: whole(policy.min)?,
            max: whole(policy.max)?,
        })
    }

    /// ⌈units ÷ (target × period)⌉ within [min, max].
    fn desired(&self, units: i128) -> Option<i128> {
        Some(ceil_div(units, self.at_target)?.clamp(self.min, self.max))
    }
}

/// `Bank::step` in integers: the bank's units held, a step at `capacity` consuming `units`.
fn bank_step(held: &mut i128, s: &Setup, units: i128, capacity: i128) -> Option<Step> {
    let per_step = capacity.checked_mul(s.per_step)?;
    let limit = capacity.checked_mul(s.bank)?;
    if units <= per_step {
        *held = held.checked_add(per_step.checked_sub(units)?)?.min(limit);
        return Some(Step::Served);
    }
    let need = units.checked_sub(per_step)?;
    *held = (*held).min(limit);
    if need <= *held {
        *held = held.checked_sub(need)?;
        Some(Step::Burst)
    } else {
        *held = 0;
        Some(Step::AtRisk)
    }
}

/// `simulate` in integers, or `None` where a figure does not fit (the caller then runs the
/// `Decimal` pass, which also reports any error).
pub(super) fn simulate(curve: &Curve<'_>, policy: Policy) -> Option<Simulation> {
    let what = "auto scaling simulation";
    let s = Setup::new(curve, policy)?;
    let up_after = steps(120, curve.period);
    let down_after = steps(900, curve.period);
    // The capacity as an integer and as the Decimal the Decimal pass would hold (a bound or
    // a measured initial capacity keeps its own scale there).
    let clamp = |q: Decimal| q.max(policy.min).min(policy.max);
    let (mut current, mut shown) = match (curve.initial, s.units.first()) {
        (Some(c), _) => {
            let c = clamp(c);
            (whole(c)?, c)
        }
        (None, Some(u)) => {
            let q = s.desired(*u)?;
            (q, clamp(Decimal::from(q)))
        }
        (None, None) => (s.min, policy.min),
    };
    let mut out = Simulation::over(s.units.len());
    let (mut above, mut below) = (0usize, 0usize);
    let mut decreases = Decreases::new();
    let (mut sum, mut scale, mut held) = (0i128, 0u32, 0i128);
    for (i, u) in s.units.iter().copied().enumerate() {
        let t = time_of(curve, i, what).ok()?;
        decreases.at(t);
        out.capacity.push(shown);
        sum = sum.checked_add(current)?;
        scale = scale.max(shown.scale());
        out.count(bank_step(&mut held, &s, u, current)?, i);
        let high = u > s.at_target.checked_mul(current)?;
        let low = u <= s.at_floor.checked_mul(current)?;
        above = if high { above.saturating_add(1) } else { 0 };
        below = if low { below.saturating_add(1) } else { 0 };
        if above >= up_after {
            let want = s.desired(u)?;
            if want > current {
                current = want;
                shown = clamp(Decimal::from(want));
                out.increases = out.increases.saturating_add(1);
            }
            above = 0;
            below = 0;
        } else if below >= down_after {
            let from = i.saturating_add(1).saturating_sub(down_after);
            let highest = s.units.get(from..=i)?.iter().copied().max()?;
            let want = s.desired(highest)?;
            if want < current && decreases.allowed(t) {
                current = want;
                shown = clamp(Decimal::from(want));
                out.decreases = out.decreases.saturating_add(1);
                out.most_decreases_in_a_day = out.most_decreases_in_a_day.max(decreases.made(t));
                below = 0;
            }
        }
    }
    // Σ capacity at the widest scale the capacities were held at, as the Decimal sum is.
    let sum =
        Decimal::try_from_i128_with_scale(sum.checked_mul(checked::pow10(scale)?)?, scale).ok()?;
    out.unit_hours = unit_hours(sum, curve.period, what).ok()?;
    Some(out)
}

#[cfg(test)]
#[allow(
    clippy::arithmetic_side_effects,
    reason = "the generated figures are small"
)]
mod tests {
    use super::super::simulate::simulate_decimal;
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The integer pass simulates as the Decimal pass does: any units (whole, halves,
        /// two decimals), a target of one or two decimals, bounds, an initial capacity
        /// measured or not (`1200.0` as CloudWatch writes it), one- or five-minute points,
        /// with and without burst.
        #[test]
        fn the_integer_pass_agrees_with_the_decimal_pass(
            // Runs of one count, large or small: small whole ones held for minutes meet
            // the thresholds exactly (units equal to target × capacity × period, for the
            // steps a rule waits), where `<` and `≤` part.
            runs in prop::collection::vec(
                (prop_oneof![(0i64..3_000_000, 0u32..3), (0i64..300, Just(0u32))], 1usize..40),
                1..120,
            ),
            target in 20u32..=90,
            min in 1u32..8,
            span in 0u32..3_000,
            initial in prop::option::of((1i64..5_000, 0u32..2)),
            five in any::<bool>(),
            burst in any::<bool>(),
            start in 0i64..200_000,
        ) {
            let units: Vec<Decimal> = runs
                .into_iter()
                .flat_map(|((m, s), n)| std::iter::repeat_n(Decimal::new(m, s), n))
                .collect();
            let p = Policy {
                target: Decimal::new(i64::from(target), 2).normalize(),
                min: Decimal::from(min),
                max: Decimal::from(min + span),
            };
            let initial = initial.map(|(c, s)| Decimal::new(c * 10i64.pow(s), s));
            let c = Curve {
                start,
                period: if five { 300 } else { 60 },
                units: &units,
                initial,
                burst_seconds: if burst { 300 } else { 0 },
            };
            let fixed = simulate(&c, p);
            prop_assert!(fixed.is_some());
            let plain = simulate_decimal(c, p).unwrap();
            let fixed = fixed.unwrap();
            prop_assert_eq!(&fixed, &plain);
            // To the scale of every figure (what a report prints).
            prop_assert_eq!(fixed.unit_hours.to_string(), plain.unit_hours.to_string());
            let shown = |s: &Simulation| s.capacity.iter().map(Decimal::to_string).collect::<Vec<_>>();
            prop_assert_eq!(shown(&fixed), shown(&plain));
        }
    }

    #[test]
    fn a_fraction_of_capacity_takes_the_decimal_pass() {
        // A bound of 2.5 units is not whole: the integer pass declines.
        let units = [Decimal::from(60)];
        let c = Curve {
            start: 0,
            period: 60,
            units: &units,
            initial: None,
            burst_seconds: 0,
        };
        let p = Policy {
            target: Decimal::new(7, 1),
            min: Decimal::new(25, 1),
            max: Decimal::from(10),
        };
        assert!(simulate(&c, p).is_none());
    }
}
