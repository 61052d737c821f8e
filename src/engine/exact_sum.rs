//! The total of a bill's lines, exact: every cost added without rounding (a whole part and a
//! fraction of 28 digits, each an `i128`), rounded once at the end — half to even — to the
//! widest scale the sum fits `Decimal` at. A total so made does not depend on the order its
//! lines are added in, and a part of it can be taken out and another put in: `advise` prices
//! a changed table against the rest of the bill in time that does not grow with the bill,
//! and `sweep` adds a design's tables' parts, each the very total the engine makes.
//!
//! Its scale is the widest of the costs that are not zero: what adding them one by one in
//! `Decimal` gives while nothing rounds. Adding them one by one rounds at each step once a
//! sum needs more than 96 bits (costs of 28 digits), so this total can differ from that
//! running sum in its last digit — it is the exact sum, rounded once.

use rust_decimal::Decimal;

use super::checked::pow10;

/// 10^28: one in units of the fraction.
const ONE: i128 = 10_000_000_000_000_000_000_000_000_000;
/// The widest scale of a `Decimal`.
const SCALES: usize = 29;

/// A sum of decimals held exactly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ExactSum {
    /// The whole part (the floor of the sum).
    whole: i128,
    /// What the sum holds above `whole`, in units of 10^-28: in `0..ONE`.
    fraction: i128,
    /// How many costs that are not zero were added at each scale (taken out again by `minus`).
    scales: [u32; SCALES],
}

impl Default for ExactSum {
    fn default() -> Self {
        ExactSum {
            whole: 0,
            fraction: 0,
            scales: [0; SCALES],
        }
    }
}

impl ExactSum {
    /// The exact sum of `values`; `None` past the reach of its whole part (2^127).
    pub(crate) fn of<I: IntoIterator<Item = Decimal>>(values: I) -> Option<ExactSum> {
        let mut sum = ExactSum::default();
        for v in values {
            sum.add(v)?;
        }
        Some(sum)
    }

    /// Adds `v`; `None` (the sum unchanged in its scales) past the whole part's reach.
    pub(crate) fn add(&mut self, v: Decimal) -> Option<()> {
        if v.is_zero() {
            return Some(());
        }
        let scale = v.scale();
        let m = v.mantissa();
        let (whole, fraction) = if scale == 0 {
            (m, 0)
        } else {
            let p = pow10(scale)?;
            let below = pow10(28u32.checked_sub(scale)?)?;
            (m.div_euclid(p), m.rem_euclid(p).checked_mul(below)?)
        };
        let slot = self.scales.get_mut(usize::try_from(scale).ok()?)?;
        let count = slot.checked_add(1)?;
        let (w, f) = carry(
            self.whole.checked_add(whole)?,
            self.fraction.checked_add(fraction)?,
        )?;
        (self.whole, self.fraction, *slot) = (w, f, count);
        Some(())
    }

    /// This sum and `other`'s costs together; `None` past the reach of the whole part.
    #[must_use]
    pub(crate) fn plus(&self, other: &ExactSum) -> Option<ExactSum> {
        self.joined(other, false)
    }

    /// This sum with the costs of `part` (a sum of some of its costs) taken out; `None` when
    /// `part` holds costs of a scale this sum does not.
    #[must_use]
    pub(crate) fn minus(&self, part: &ExactSum) -> Option<ExactSum> {
        self.joined(part, true)
    }

    /// `other` added to this sum, or taken out of it.
    fn joined(&self, other: &ExactSum, take_out: bool) -> Option<ExactSum> {
        let op = |a: i128, b: i128| {
            if take_out {
                a.checked_sub(b)
            } else {
                a.checked_add(b)
            }
        };
        let mut scales = self.scales;
        for (a, b) in scales.iter_mut().zip(other.scales) {
            *a = if take_out {
                a.checked_sub(b)?
            } else {
                a.checked_add(b)?
            };
        }
        let (whole, fraction) = carry(
            op(self.whole, other.whole)?,
            op(self.fraction, other.fraction)?,
        )?;
        Some(ExactSum {
            whole,
            fraction,
            scales,
        })
    }

    /// The sum as a `Decimal`: at the widest scale of its costs, or, where that does not fit
    /// 96 bits, at the widest that does, rounded half to even; `None` when even its whole
    /// part does not fit.
    #[must_use]
    pub(crate) fn value(&self) -> Option<Decimal> {
        let Some(widest) = (0..SCALES)
            .rev()
            .find(|s| self.scales.get(*s).is_some_and(|c| *c > 0))
        else {
            return Some(Decimal::ZERO);
        };
        const FITS: u128 = 1 << 96;
        for scale in (0..=u32::try_from(widest).ok()?).rev() {
            let unit = pow10(28u32.checked_sub(scale)?)?;
            let (q, r) = (
                self.fraction.div_euclid(unit),
                self.fraction.rem_euclid(unit),
            );
            let Some(m) = self
                .whole
                .checked_mul(pow10(scale)?)
                .and_then(|w| w.checked_add(q))
            else {
                continue;
            };
            // The sum is m + r / unit, with 0 ≤ r < unit: nearest, a tie to the even one.
            let half = unit.checked_div(2)?;
            let up = r > half || (r == half && unit > 1 && m.rem_euclid(2) == 1);
            let m = if up { m.checked_add(1)? } else { m };
            if m.unsigned_abs() < FITS {
                return Decimal::try_from_i128_with_scale(m, scale).ok();
            }
        }
        None
    }
}

/// Adds `v` to a running total that stays the exact sum rounded once: `Decimal` adds while
/// nothing rounds (the two are then the same number, scale included), and from the first
/// addition that would round, `exact` holds the sum and `total` is its value. `None` past
/// the reach of either.
pub(crate) fn add_to(total: &mut Decimal, exact: &mut Option<ExactSum>, v: Decimal) -> Option<()> {
    if let Some(e) = exact.as_mut() {
        e.add(v)?;
        *total = e.value()?;
        return Some(());
    }
    match total.checked_add(v) {
        // `Decimal` keeps the wider scale of two numbers it adds exactly, and gives one of
        // them back whole when the other is zero: a narrower scale means it rounded.
        Some(next)
            if total.is_zero() || v.is_zero() || next.scale() >= total.scale().max(v.scale()) =>
        {
            *total = next;
        }
        _ => {
            let mut e = ExactSum::of([*total])?;
            e.add(v)?;
            *total = e.value()?;
            *exact = Some(e);
        }
    }
    Some(())
}

/// A whole part and a fraction in `-ONE..2·ONE`, with the fraction brought into `0..ONE`.
fn carry(whole: i128, fraction: i128) -> Option<(i128, i128)> {
    if fraction >= ONE {
        Some((whole.checked_add(1)?, fraction.checked_sub(ONE)?))
    } else if fraction < 0 {
        Some((whole.checked_sub(1)?, fraction.checked_add(ONE)?))
    } else {
        Some((whole, fraction))
    }
}

#[cfg(test)]
mod tests {
    #![allow(
        clippy::arithmetic_side_effects,
        reason = "a test's small bounded figures"
    )]

    use super::*;
    use proptest::prelude::*;

    fn d(s: &str) -> Decimal {
        s.parse().unwrap()
    }

    #[test]
    fn short_costs_add_as_decimal_does_scale_included() {
        // 1.25 + 2.50 + 0.125 = 3.875, at the widest scale (3).
        let s = ExactSum::of([d("1.25"), d("2.50"), d("0.125")]).unwrap();
        assert_eq!(s.value().unwrap().to_string(), "3.875");
        // 1.50 + 2 = 3.50: the scale of 1.50 kept, as Decimal's own sum keeps it.
        let s = ExactSum::of([d("1.50"), d("2")]).unwrap();
        assert_eq!(s.value().unwrap().to_string(), "3.50");
        // A zero's scale counts for nothing: 5 + 0.000 = 5.
        let s = ExactSum::of([d("5"), d("0.000")]).unwrap();
        assert_eq!(s.value().unwrap().to_string(), "5");
        assert_eq!(ExactSum::default().value(), Some(Decimal::ZERO));
    }

    #[test]
    fn negative_costs_and_their_floor() {
        // -0.75 + 0.5 = -0.25 (whole -1, fraction 0.75).
        let s = ExactSum::of([d("-0.75"), d("0.5")]).unwrap();
        assert_eq!(s.value().unwrap().to_string(), "-0.25");
        // -3 + -0.001 = -3.001.
        let s = ExactSum::of([d("-3"), d("-0.001")]).unwrap();
        assert_eq!(s.value().unwrap().to_string(), "-3.001");
    }

    #[test]
    fn a_sum_past_96_bits_is_rounded_once_half_to_even() {
        // 10000 + 0.1234567890123456789012345678: 33 digits, more than 96 bits hold (about
        // 28.9 digits); at scale 24 it is 10000.123456789012345678901234|5678 → …1235 (the
        // rest, 0.5678 of a unit, rounds up).
        let s = ExactSum::of([d("10000"), d("0.1234567890123456789012345678")]).unwrap();
        assert_eq!(
            s.value().unwrap().to_string(),
            "10000.123456789012345678901235"
        );
        // 79228162514264337593543950335 (2^96 - 1) + 0.5: the whole part only fits at scale
        // 0, and the half rounds to the even neighbour, 2^96 - 1 being odd → 2^96, which does
        // not fit: no value.
        let s = ExactSum::of([d("79228162514264337593543950335"), d("0.5")]).unwrap();
        assert_eq!(s.value(), None);
        // 79228162514264337593543950334 + 0.5: even, the half rounds down.
        let s = ExactSum::of([d("79228162514264337593543950334"), d("0.5")]).unwrap();
        assert_eq!(
            s.value().unwrap().to_string(),
            "79228162514264337593543950334"
        );
    }

    #[test]
    fn a_part_taken_out_and_another_put_in() {
        // (1.25 + 2.5 + 4) − 2.5 + 0.75 = 6.
        let all = ExactSum::of([d("1.25"), d("2.5"), d("4")]).unwrap();
        let part = ExactSum::of([d("2.5")]).unwrap();
        let with = ExactSum::of([d("0.75")]).unwrap();
        let s = all.minus(&part).unwrap().plus(&with).unwrap();
        assert_eq!(s.value().unwrap().to_string(), "6.00");
        // A part holding a scale the sum never held is refused.
        assert!(part.minus(&all).is_none());
    }

    fn decimal() -> impl Strategy<Value = Decimal> {
        (any::<i64>(), 0u32..29, any::<bool>()).prop_map(|(m, s, big)| {
            let v = Decimal::new(m, s);
            if big {
                v.checked_mul(Decimal::from(u32::MAX)).unwrap_or(v)
            } else {
                v
            }
        })
    }

    proptest! {
        /// Where adding one by one never rounds (every partial sum fits at the widest scale),
        /// the exact sum is that sum, value and scale.
        #[test]
        fn equals_the_running_sum_where_nothing_rounds(
            values in prop::collection::vec(decimal(), 0..40),
        ) {
            let widest = values.iter().filter(|v| !v.is_zero()).map(Decimal::scale).max();
            let exact = ExactSum::of(values.iter().copied()).and_then(|s| s.value());
            let mut running = Some(Decimal::ZERO);
            let mut rounded = false;
            for v in &values {
                running = running.and_then(|r| r.checked_add(*v));
                if let (Some(r), Some(w)) = (running, widest)
                    && !r.is_zero() && r.scale() < w
                {
                    rounded = true;
                }
            }
            if !rounded && let (Some(r), Some(w)) = (running, widest) && !r.is_zero() {
                prop_assert_eq!(exact, Some(r));
                prop_assert_eq!(exact.map(|e| e.scale()), Some(w));
            }
        }

        /// The running total is the exact sum rounded once, whatever the costs: the same
        /// value (and scale) as `ExactSum` gives where adding one by one rounds, the one-by-one
        /// sum itself where it does not.
        #[test]
        fn the_running_total_is_the_exact_one(values in prop::collection::vec(decimal(), 0..40)) {
            let (mut total, mut exact) = (Decimal::ZERO, None);
            let mut ok = true;
            for v in &values {
                ok = ok && add_to(&mut total, &mut exact, *v).is_some();
            }
            let whole = ExactSum::of(values.iter().copied()).and_then(|s| s.value());
            if ok {
                prop_assert_eq!(Some(total), whole);
                if exact.is_some() {
                    prop_assert_eq!(whole.map(|w| w.scale()), Some(total.scale()));
                } else {
                    let plain = values.iter().try_fold(Decimal::ZERO, |a, v| a.checked_add(*v));
                    prop_assert_eq!(plain.map(|p| (p, p.scale())), Some((total, total.scale())));
                }
            }
        }

        /// The order of the costs changes nothing, and a part taken out and put back in is
        /// the sum again.
        #[test]
        fn order_free_and_parts_come_back(
            values in prop::collection::vec(decimal(), 0..40),
            split in 0usize..40,
        ) {
            let at = split.min(values.len());
            let all = ExactSum::of(values.iter().copied()).unwrap();
            let reversed = ExactSum::of(values.iter().rev().copied()).unwrap();
            prop_assert_eq!(all, reversed);
            let (a, b) = values.split_at(at);
            let (a, b) = (ExactSum::of(a.iter().copied()).unwrap(), ExactSum::of(b.iter().copied()).unwrap());
            prop_assert_eq!(a.plus(&b), Some(all));
            prop_assert_eq!(all.minus(&a), Some(b));
        }

        /// The value is the nearest of its scale to the exact sum (checked in wider
        /// arithmetic: the sum and the value both × 10^28 as a pair of i128).
        #[test]
        fn the_value_is_within_half_a_unit(values in prop::collection::vec(decimal(), 1..20)) {
            let s = ExactSum::of(values.iter().copied()).unwrap();
            if let Some(v) = s.value() {
                // v as whole and fraction, like the sum; their difference below half a unit
                // of v's scale.
                let back = ExactSum::of([v]).unwrap();
                let diff = (back.whole - s.whole) * ONE + (back.fraction - s.fraction);
                let unit = pow10(28 - v.scale()).unwrap();
                prop_assert!(diff.abs() * 2 <= unit, "{v} vs {s:?}");
            }
        }
    }
}
