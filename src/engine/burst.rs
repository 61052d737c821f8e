//! DynamoDB's burst capacity, step by step: a provisioned table or GSI keeps up to 300 seconds
//! of its unused capacity and spends it on demand above the provisioned rate (Developer Guide,
//! "burst capacity"; DESIGN.md §9). Throttling begins only when that reserve is spent, so a
//! step is throttle risk only when its demand above capacity exceeds what the bank holds.
//!
//! Conventions (docs/commands/usage.md states them): the bank starts empty at the window's first point
//! (a spike in the first minutes is at risk: the conservative side); a step whose excess the
//! bank cannot cover in full is counted whole as at risk and empties the bank; when the
//! capacity falls, the bank is clamped to 300 seconds of the new capacity. Burst is best effort
//! at AWS, so a plan that leans on it is said (`burst_steps`), never hidden.

use rust_decimal::Decimal;

use super::EngineError;
use super::checked;

/// Seconds of unused capacity DynamoDB keeps for bursts.
pub(crate) const BURST_SECONDS: u32 = 300;

/// What one step did with the bank.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Step {
    /// Demand within capacity (unused capacity banked).
    Served,
    /// Demand above capacity, covered by the bank.
    Burst,
    /// Demand above capacity that the bank could not cover: throttle risk.
    AtRisk,
}

/// Unused capacity held for bursts, in units.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Bank {
    held: Decimal,
    /// Seconds of capacity the bank may hold (300; 0 turns burst off).
    seconds: Decimal,
}

impl Bank {
    /// An empty bank holding at most `seconds` of capacity.
    pub(crate) fn new(seconds: u32) -> Bank {
        Bank {
            held: Decimal::ZERO,
            seconds: Decimal::from(seconds),
        }
    }

    /// One step of `period` seconds at `capacity` units a second that consumed `units`.
    ///
    /// # Errors
    /// A figure too large to compute.
    pub(crate) fn step(
        &mut self,
        units: Decimal,
        capacity: Decimal,
        period: u32,
        what: &str,
    ) -> Result<Step, EngineError> {
        let per_step = checked::mul(capacity, Decimal::from(period), what)?;
        let limit = checked::mul(capacity, self.seconds, what)?;
        if units <= per_step {
            let unused = checked::sub(per_step, units, what)?;
            self.held = checked::add(self.held, unused, what)?.min(limit);
            return Ok(Step::Served);
        }
        let need = checked::sub(units, per_step, what)?;
        self.held = self.held.min(limit);
        if need <= self.held {
            self.held = checked::sub(self.held, need, what)?;
            Ok(Step::Burst)
        } else {
            self.held = Decimal::ZERO;
            Ok(Step::AtRisk)
        }
    }
}

/// Steps at risk and steps served from burst of steps consuming `units` each against a
/// capacity per step.
///
/// # Errors
/// A figure too large to compute.
pub(crate) fn replay(
    units: &[Decimal],
    capacity: impl IntoIterator<Item = Decimal>,
    period: u32,
    seconds: u32,
    what: &str,
) -> Result<(usize, usize), EngineError> {
    let mut bank = Bank::new(seconds);
    let (mut at_risk, mut burst) = (0usize, 0usize);
    for (u, c) in units.iter().zip(capacity) {
        match bank.step(*u, c, period, what)? {
            Step::Served => {}
            Step::Burst => burst = burst.saturating_add(1),
            Step::AtRisk => at_risk = at_risk.saturating_add(1),
        }
    }
    Ok((at_risk, burst))
}

/// The smallest whole capacity from 1 up to ⌈the peak⌉ that serves `demand` (units a
/// second) with no step at risk once burst is counted: `smallest_fixed_units` on the units
/// each step consumes, at a share of 1.
///
/// # Errors
/// A figure too large to compute.
#[cfg(test)]
pub(crate) fn smallest_fixed(
    demand: &[Decimal],
    period: u32,
    seconds: u32,
    what: &str,
) -> Result<Decimal, EngineError> {
    smallest_fixed_units(
        &units_of(demand, period, what)?,
        period,
        seconds,
        Decimal::ONE,
        what,
    )
}

/// The units each step consumes: demand a second × the period.
#[cfg(test)]
fn units_of(demand: &[Decimal], period: u32, what: &str) -> Result<Vec<Decimal>, EngineError> {
    let step = Decimal::from(period);
    demand
        .iter()
        .map(|d| checked::mul(*d, step, what))
        .collect()
}

/// The smallest whole capacity C that serves steps consuming `units` each (of `period`
/// seconds) with no step at risk when only `share` of it may be used — the curve ÷ share at
/// C, which is the curve at C × share with a bank of 300 s of C × share (every quantity of
/// the bank scales alike), so the units are never divided. Steps at risk only fall as C
/// rises, so a binary search finds it, from the bound a full bank sets at the busiest step
/// (units ÷ (share × (period + 300 s))) up to ⌈units ÷ (share × period)⌉, where no step
/// exceeds; each candidate is one pass, stopping at the first step at risk.
///
/// # Errors
/// A share that is not above 0, or a figure too large to compute.
pub(crate) fn smallest_fixed_units(
    units: &[Decimal],
    period: u32,
    seconds: u32,
    share: Decimal,
    what: &str,
) -> Result<Decimal, EngineError> {
    if share <= Decimal::ZERO {
        return Err(EngineError::Invalid {
            what: what.to_string(),
            why: format!("a share of capacity above 0 is needed ({share})"),
        });
    }
    let peak = units.iter().copied().max().unwrap_or_default();
    let step = Decimal::from(period);
    let bank = Decimal::from(seconds);
    let top = checked::div(peak, checked::mul(share, step, what)?, what)?
        .ceil()
        .max(Decimal::ONE);
    let floor = checked::div(
        peak,
        checked::mul(share, checked::add(step, bank, what)?, what)?,
        what,
    )?
    .floor()
    .max(Decimal::ONE)
    .min(top);
    // The units once as integers of one scale, for the search's passes (each exact; the
    // Decimal pass when a figure does not fit).
    let scale = units
        .iter()
        .map(Decimal::scale)
        .max()
        .unwrap_or(0)
        .max(share.scale());
    let fixed = all_at_scale(units, scale);
    let (mut lo, mut hi) = (floor, top);
    while lo < hi {
        let mid = checked::add(lo, hi, what)?
            .checked_div(Decimal::TWO)
            .unwrap_or(lo)
            .floor();
        let capacity = checked::mul(mid, share, what)?;
        let quick = fixed.as_deref().and_then(|f| {
            serves_fixed(
                f,
                at_scale(capacity.checked_mul(step)?, scale)?,
                at_scale(capacity.checked_mul(bank)?, scale)?,
            )
        });
        let served = match quick {
            Some(served) => served,
            None => serves(units, capacity, step, bank, what)?,
        };
        if served {
            hi = mid;
        } else {
            lo = checked::add(mid, Decimal::ONE, what)?;
        }
    }
    Ok(hi)
}

/// Steps at risk and served from burst of `demand` against one `capacity` throughout: as
/// `replay`, through `replay_units`.
///
/// # Errors
/// A figure too large to compute.
#[cfg(test)]
pub(crate) fn replay_constant(
    demand: &[Decimal],
    capacity: Decimal,
    period: u32,
    seconds: u32,
    what: &str,
) -> Result<(usize, usize), EngineError> {
    replay_units(
        &units_of(demand, period, what)?,
        capacity,
        period,
        seconds,
        what,
    )
}

/// Steps at risk and served from burst of steps consuming `units` each against one
/// `capacity` throughout (no per-step product: the units are the measured sums).
///
/// # Errors
/// A figure too large to compute.
pub(crate) fn replay_units(
    units: &[Decimal],
    capacity: Decimal,
    period: u32,
    seconds: u32,
    what: &str,
) -> Result<(usize, usize), EngineError> {
    let per_step = checked::mul(capacity, Decimal::from(period), what)?;
    let limit = checked::mul(capacity, Decimal::from(seconds), what)?;
    match replay_fixed(units, per_step, limit) {
        Some(counts) => Ok(counts),
        None => replay_decimal(units, per_step, limit, what),
    }
}

/// `replay_units` in Decimal: each step's units against `per_step`, the bank within `limit`.
fn replay_decimal(
    units: &[Decimal],
    per_step: Decimal,
    limit: Decimal,
    what: &str,
) -> Result<(usize, usize), EngineError> {
    let (mut held, mut at_risk, mut burst) = (Decimal::ZERO, 0usize, 0usize);
    for u in units {
        if *u <= per_step {
            held = checked::add(held, checked::sub(per_step, *u, what)?, what)?.min(limit);
        } else {
            let need = checked::sub(*u, per_step, what)?;
            if need <= held {
                held = checked::sub(held, need, what)?;
                burst = burst.saturating_add(1);
            } else {
                held = Decimal::ZERO;
                at_risk = at_risk.saturating_add(1);
            }
        }
    }
    Ok((at_risk, burst))
}

/// Whether `capacity` serves steps consuming `units` each (of `step` seconds) with no step at
/// risk, the bank holding at most `seconds` of it: `Bank::step` at one capacity, on units.
fn serves(
    units: &[Decimal],
    capacity: Decimal,
    step: Decimal,
    seconds: Decimal,
    what: &str,
) -> Result<bool, EngineError> {
    let per_step = checked::mul(capacity, step, what)?;
    let limit = checked::mul(capacity, seconds, what)?;
    let mut held = Decimal::ZERO;
    for u in units {
        if *u <= per_step {
            held = checked::add(held, checked::sub(per_step, *u, what)?, what)?.min(limit);
        } else {
            let need = checked::sub(*u, per_step, what)?;
            if need > held {
                return Ok(false);
            }
            held = checked::sub(held, need, what)?;
        }
    }
    Ok(true)
}

/// `d` as an integer count of 10^-`scale`, exactly; `None` when `d` has more decimals or the
/// count does not fit.
pub(super) fn at_scale(d: Decimal, scale: u32) -> Option<i128> {
    if d.scale() == scale {
        return Some(d.mantissa());
    }
    let up = scale.checked_sub(d.scale())?;
    let (m, p) = (d.mantissa(), checked::pow10(up)?);
    // Most figures fit 64 bits, where a checked product is one instruction (an `i128` one is
    // a call); the same product either way.
    if let (Ok(m64), Ok(p64)) = (i64::try_from(m), i64::try_from(p))
        && let Some(product) = m64.checked_mul(p64)
    {
        return Some(i128::from(product));
    }
    m.checked_mul(p)
}

/// Each of `units` as an integer of `scale` (`at_scale`), into a vector sized once (a month
/// of minutes is 43,200 of them); `None` when one does not fit.
pub(super) fn all_at_scale(units: &[Decimal], scale: u32) -> Option<Vec<i128>> {
    let mut out = Vec::with_capacity(units.len());
    for u in units {
        out.push(at_scale(*u, scale)?);
    }
    Some(out)
}

/// `replay_units` with every figure as an integer of one scale: the same counts, exact;
/// `None` when a figure does not fit (the caller then takes the Decimal pass).
fn replay_fixed(units: &[Decimal], per_step: Decimal, limit: Decimal) -> Option<(usize, usize)> {
    let scale = units
        .iter()
        .map(Decimal::scale)
        .max()
        .unwrap_or(0)
        .max(per_step.scale())
        .max(limit.scale());
    let (per_step, limit) = (at_scale(per_step, scale)?, at_scale(limit, scale)?);
    let (mut held, mut at_risk, mut burst) = (0i128, 0usize, 0usize);
    for u in units {
        let u = at_scale(*u, scale)?;
        if u <= per_step {
            held = held.checked_add(per_step.checked_sub(u)?)?.min(limit);
        } else {
            let need = u.checked_sub(per_step)?;
            if need <= held {
                held = held.checked_sub(need)?;
                burst = burst.saturating_add(1);
            } else {
                held = 0;
                at_risk = at_risk.saturating_add(1);
            }
        }
    }
    Some((at_risk, burst))
}

/// `serves` on units, a step's capacity and the bank's limit as integers of one scale: the
/// same decision, exact; `None` when a sum does not fit (the caller then takes the Decimal
/// pass).
fn serves_fixed(units: &[i128], per_step: i128, limit: i128) -> Option<bool> {
    let mut held = 0i128;
    for u in units {
        if *u <= per_step {
            held = held.checked_add(per_step.checked_sub(*u)?)?.min(limit);
        } else {
            let need = u.checked_sub(per_step)?;
            if need > held {
                return Some(false);
            }
            held = held.checked_sub(need)?;
        }
    }
    Some(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::dec;

    /// `demand` (units a second, one-minute steps) replayed at 100 units throughout, with a
    /// bank of `seconds`.
    fn at_100(demand: &[Decimal], seconds: u32) -> (usize, usize) {
        let units = units_of(demand, 60, "t").unwrap();
        replay(&units, std::iter::repeat(dec("100")), 60, seconds, "t").unwrap()
    }

    #[test]
    fn a_two_minute_step_is_served_from_what_was_banked() {
        // 100 units/s provisioned, 60 used for 10 minutes: 40 × 60 = 2,400 banked a minute,
        // capped at 300 × 100 = 30,000 (reached after 10 minutes: 24,000 — not yet). Then two
        // minutes at 150: 50 × 60 = 3,000 each, 6,000 of the 24,000 banked: no risk.
        let mut demand = vec![dec("60"); 10];
        demand.extend([dec("150"), dec("150")]);
        let (risk, burst) = at_100(&demand, 300);
        assert_eq!((risk, burst), (0, 2));
        // Without burst both minutes are at risk.
        let (risk, _) = at_100(&demand, 0);
        assert_eq!(risk, 2);
    }

    #[test]
    fn the_bank_holds_at_most_300_seconds_and_starts_empty() {
        // 100 provisioned, nothing used for an hour: the bank holds 300 × 100 = 30,000, not
        // 360,000. Then 20 minutes at 125: 25 × 60 = 1,500 a minute, so 20 minutes take the
        // 30,000 exactly; the 21st is at risk.
        let mut demand = vec![dec("0"); 60];
        demand.extend(vec![dec("125"); 21]);
        let (risk, burst) = at_100(&demand, 300);
        assert_eq!((risk, burst), (1, 20));
        // A spike in the first minute finds the bank empty: 101 units/s for 60 s = 6,060 units,
        // above the 6,000 that 100 units/s serve.
        let (risk, _) = replay(&[dec("6060")], [dec("100")], 60, 300, "t").unwrap();
        assert_eq!(risk, 1);
    }

    #[test]
    fn the_smallest_fixed_capacity_leans_on_burst() {
        // 10 units/s all along, one minute at 40 every hour: at capacity C the bank fills
        // by (C − 10) × 60 a minute up to 300 × C and the spike needs (40 − C) × 60. C = 13:
        // 59 minutes bank 3 × 60 × 59 = 10,620, capped at 3,900; the spike needs 1,620 —
        // covered. C = 12 would bank 2 × 60 × 59 = 7,080, capped at 3,600, need 1,680 —
        // covered too. C = 11: 3,300 cap, need 1,740 — covered. C = 10: nothing is banked at
        // 10 units used, the spike needs 1,800 — at risk. So 11.
        let mut demand = Vec::new();
        for _ in 0..5 {
            demand.extend(vec![dec("10"); 59]);
            demand.push(dec("40"));
        }
        assert_eq!(smallest_fixed(&demand, 60, 300, "t").unwrap(), dec("11"));
        // Without burst, the peak.
        assert_eq!(smallest_fixed(&demand, 60, 0, "t").unwrap(), dec("40"));
    }

    #[allow(
        clippy::arithmetic_side_effects,
        reason = "the expected figures, on small generated values"
    )]
    mod properties {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            /// A figure at a scale is its mantissa times the power of ten, in `i128`, whether
            /// the product was found in 64 bits or not, or `None` where `i128` cannot hold it.
            #[test]
            fn a_figure_at_a_scale_is_the_wide_product(
                m in any::<i64>(),
                wide in any::<bool>(),
                from in 0u32..29,
                to in 0u32..40,
            ) {
                let d = Decimal::new(m, from);
                let d = if wide { d.checked_mul(Decimal::from(u64::MAX)).unwrap_or(d) } else { d };
                let plain = to
                    .checked_sub(d.scale())
                    .and_then(checked::pow10)
                    .and_then(|p| d.mantissa().checked_mul(p));
                prop_assert_eq!(at_scale(d, to), plain);
            }

            /// Burst never adds a step at risk, whatever the curve and capacities; and the
            /// smallest fixed capacity serves the curve while one unit less does not.
            #[test]
            fn burst_never_increases_throttle_minutes(
                demand in prop::collection::vec(0u32..3_000, 1..400),
                capacity in prop::collection::vec(1u32..3_000, 1..400),
                five in any::<bool>(),
            ) {
                let period = if five { 300 } else { 60 };
                let demand: Vec<Decimal> = demand.into_iter().map(|d| Decimal::new(i64::from(d), 1)).collect();
                let cap: Vec<Decimal> = capacity.iter().cycle().take(demand.len()).map(|c| Decimal::new(i64::from(*c), 1)).collect();
                let used = units_of(&demand, period, "p").unwrap();
                let with = replay(&used, cap.iter().copied(), period, 300, "p").unwrap();
                let without = replay(&used, cap.iter().copied(), period, 0, "p").unwrap();
                prop_assert!(with.0 <= without.0);
                prop_assert_eq!(without.1, 0);
                let at = cap[0];
                prop_assert_eq!(
                    replay_constant(&demand, at, period, 300, "p").unwrap(),
                    replay(&used, std::iter::repeat(at), period, 300, "p").unwrap()
                );
                let c = smallest_fixed(&demand, period, 300, "p").unwrap();
                // At a share: the smallest C whose C × share serves the units, C − 1 not.
                let share = Decimal::new(7, 1);
                let step = Decimal::from(period);
                let units: Vec<Decimal> = demand.iter().map(|d| d * step).collect();
                let s = smallest_fixed_units(&units, period, 300, share, "p").unwrap();
                prop_assert!(serves(&units, s * share, step, Decimal::from(300), "p").unwrap());
                if s > Decimal::ONE {
                    prop_assert!(!serves(&units, (s - Decimal::ONE) * share, step, Decimal::from(300), "p").unwrap());
                }
                prop_assert_eq!(replay(&used, std::iter::repeat(c), period, 300, "p").unwrap().0, 0);
                if c > Decimal::ONE {
                    prop_assert!(replay(&used, std::iter::repeat(c - Decimal::ONE), period, 300, "p").unwrap().0 > 0);
                }
            }

            /// The integer pass decides as the Decimal pass does, units of mixed decimals
            /// (CloudWatch writes `12`, `12.5`, `0.25`) and any capacity.
            #[test]
            fn the_integer_pass_agrees_with_the_decimal_pass(
                units in prop::collection::vec((0i64..5_000_000, 0u32..4), 1..300),
                capacity in (1i64..100_000, 0u32..3),
                five in any::<bool>(),
            ) {
                let units: Vec<Decimal> = units.into_iter().map(|(m, s)| Decimal::new(m, s)).collect();
                let capacity = Decimal::new(capacity.0, capacity.1);
                let step = Decimal::from(if five { 300 } else { 60 });
                let bank = Decimal::from(300);
                let scale = units.iter().map(Decimal::scale).max().unwrap().max(capacity.scale());
                let fixed: Vec<i128> = units.iter().map(|u| at_scale(*u, scale).unwrap()).collect();
                let quick = serves_fixed(
                    &fixed,
                    at_scale(capacity * step, scale).unwrap(),
                    at_scale(capacity * bank, scale).unwrap(),
                );
                prop_assert_eq!(quick, Some(serves(&units, capacity, step, bank, "p").unwrap()));
                // And the counts of a replay.
                prop_assert_eq!(
                    replay_fixed(&units, capacity * step, capacity * bank),
                    Some(replay_decimal(&units, capacity * step, capacity * bank, "p").unwrap())
                );
            }
        }
    }
}
