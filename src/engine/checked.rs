//! Checked decimal arithmetic: an absurd workload must end in a clear error, never a panic
//! or a wrapped number.

use rust_decimal::Decimal;

use super::EngineError;

#[cold]
fn overflow(context: &str) -> EngineError {
    EngineError::Overflow {
        context: context.to_string(),
    }
}

#[inline]
pub(crate) fn add(a: Decimal, b: Decimal, context: &str) -> Result<Decimal, EngineError> {
    a.checked_add(b).ok_or_else(|| overflow(context))
}

#[inline]
pub(crate) fn sub(a: Decimal, b: Decimal, context: &str) -> Result<Decimal, EngineError> {
    a.checked_sub(b).ok_or_else(|| overflow(context))
}

#[inline]
pub(crate) fn mul(a: Decimal, b: Decimal, context: &str) -> Result<Decimal, EngineError> {
    a.checked_mul(b).ok_or_else(|| overflow(context))
}

#[inline]
pub(crate) fn div(a: Decimal, b: Decimal, context: &str) -> Result<Decimal, EngineError> {
    a.checked_div(b).ok_or_else(|| overflow(context))
}

/// Σ `values`, exactly as adding them one by one in `Decimal` gives: while every partial sum
/// and every addend fits `Decimal`'s 96-bit mantissa at the widest scale seen so far (where
/// `Decimal` adds exactly too), in an `i128` of that scale — a month of minutes is 43,200
/// additions, and this is several times faster; from the first that does not, in `Decimal`.
pub(crate) fn sum<I: IntoIterator<Item = Decimal>>(
    values: I,
    context: &str,
) -> Result<Decimal, EngineError> {
    let mut values = values.into_iter();
    let (mut acc, mut scale) = (0i128, 0u32);
    while let Some(v) = values.next() {
        if let Some(next) = fixed_add(acc, scale, v) {
            (acc, scale) = next;
        } else {
            let so_far =
                Decimal::try_from_i128_with_scale(acc, scale).map_err(|_| overflow(context))?;
            return values.try_fold(add(so_far, v, context)?, |t, v| add(t, v, context));
        }
    }
    Decimal::try_from_i128_with_scale(acc, scale).map_err(|_| overflow(context))
}

/// `sum` of a slice (a curve of a month of minutes), the same figure and scale, faster:
/// blocks of addends at the scale held and of one sign are summed without a check each —
/// their partial sums only move one way, so each lies between the block's start and its end,
/// and fits 96 bits when both ends do; any other block is added one by one as `sum` adds.
pub(crate) fn sum_slice(values: &[Decimal], context: &str) -> Result<Decimal, EngineError> {
    // 4,096 mantissas below 2^96 sum below 2^108: far inside an `i128`.
    const BLOCK: usize = 4_096;
    const FITS: u128 = 1 << 96;
    let (mut acc, mut scale) = (0i128, 0u32);
    let mut blocks = values.chunks(BLOCK);
    while let Some(block) = blocks.next() {
        let first_negative = block.first().is_some_and(Decimal::is_sign_negative);
        let even = block
            .iter()
            .all(|v| v.scale() == scale && v.is_sign_negative() == first_negative);
        if even {
            // Within the bound above: no wrap.
            let t = acc.checked_add(
                block
                    .iter()
                    .fold(0i128, |a, v| a.wrapping_add(v.mantissa())),
            );
            if let Some(t) = t.filter(|t| t.unsigned_abs() < FITS) {
                acc = t;
                continue;
            }
        }
        let mut one = block.iter();
        while let Some(v) = one.next() {
            if let Some(next) = fixed_add(acc, scale, *v) {
                (acc, scale) = next;
            } else {
                let so_far =
                    Decimal::try_from_i128_with_scale(acc, scale).map_err(|_| overflow(context))?;
                let start = add(so_far, *v, context)?;
                let mut rest = one.copied().chain(blocks.flatten().copied());
                return rest.try_fold(start, |t, v| add(t, v, context));
            }
        }
    }
    Decimal::try_from_i128_with_scale(acc, scale).map_err(|_| overflow(context))
}

/// `acc` (a count of 10^-`scale`) plus `v`, at the wider of the two scales; `None` when an
/// addend or the sum does not fit 96 bits (where `Decimal` would round).
fn fixed_add(acc: i128, scale: u32, v: Decimal) -> Option<(i128, u32)> {
    const FITS: u128 = 1 << 96;
    if v.scale() == scale {
        // The common case: a mantissa (below 2^96) added at the scale held.
        let t = acc.checked_add(v.mantissa())?;
        return (t.unsigned_abs() < FITS).then_some((t, scale));
    }
    let to = scale.max(v.scale());
    let a = acc.checked_mul(pow10(to.checked_sub(scale)?)?)?;
    let m = v
        .mantissa()
        .checked_mul(pow10(to.checked_sub(v.scale())?)?)?;
    let t = a.checked_add(m)?;
    (a.unsigned_abs() < FITS && m.unsigned_abs() < FITS && t.unsigned_abs() < FITS)
        .then_some((t, to))
}

/// 10^`n` for the 29 scales a `Decimal` has (and a few past them), from a table: the
/// integer passes scale every value they take.
pub(crate) fn pow10(n: u32) -> Option<i128> {
    const TABLE: [i128; 39] = {
        let mut t = [1i128; 39];
        let mut i = 1;
        while i < 39 {
            t[i] = t[i - 1] * 10;
            i += 1;
        }
        t
    };
    TABLE.get(usize::try_from(n).ok()?).copied()
}

#[inline]
pub(crate) fn some<T>(value: Option<T>, context: &str) -> Result<T, EngineError> {
    value.ok_or_else(|| overflow(context))
}

#[cfg(test)]
#[allow(
    clippy::arithmetic_side_effects,
    reason = "scales and signs of generated test values"
)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The integer sum is the one-by-one `Decimal` sum, value and scale, whatever the
        /// mix of decimals and signs, up to sums past the integer's reach.
        #[test]
        fn the_sum_is_the_decimal_sum(
            values in prop::collection::vec((any::<i64>(), 0u32..29, any::<bool>()), 0..60),
        ) {
            let values: Vec<Decimal> = values
                .into_iter()
                .map(|(m, s, big)| {
                    let d = Decimal::new(m, s);
                    if big { d.checked_mul(Decimal::from(u32::MAX)).unwrap_or(d) } else { d }
                })
                .collect();
            let plain = values.iter().try_fold(Decimal::ZERO, |a, v| a.checked_add(*v));
            let fast = sum(values.iter().copied(), "p").ok();
            prop_assert_eq!(fast, plain);
            prop_assert_eq!(sum_slice(&values, "p").ok(), plain);
            if let (Some(f), Some(p)) = (fast, plain) {
                prop_assert_eq!(f.scale(), p.scale());
            }
        }

        /// The sum of a slice block by block is the one-by-one `Decimal` sum, value and
        /// scale, over curves as long as months (several blocks) of a few scales, mostly of
        /// one sign, some near and past the 96-bit reach.
        #[test]
        fn the_sum_of_a_slice_is_the_decimal_sum(
            values in prop::collection::vec((0i64..1_000_000, 0u32..3, 0u16..10_000), 0..12_000),
            mix in 0u8..4,
            scales in 1u32..4,
        ) {
            // `mix`: none negative or big, some negative, some big, both; `scales` of them.
            let values: Vec<Decimal> = values
                .into_iter()
                .map(|(m, s, kind)| {
                    let d = Decimal::new(m, s % scales);
                    match kind {
                        0 if mix & 1 != 0 => -d,
                        // Up to 2^94: a few of them pass 96 bits.
                        1 if mix & 2 != 0 => d.checked_mul(Decimal::from_i128_with_scale(1 << 74, 0)).unwrap_or(d),
                        _ => d,
                    }
                })
                .collect();
            let plain = values.iter().try_fold(Decimal::ZERO, |a, v| a.checked_add(*v));
            let fast = sum_slice(&values, "p").ok();
            prop_assert_eq!(fast, plain);
            if let (Some(f), Some(p)) = (fast, plain) {
                prop_assert_eq!(f.scale(), p.scale());
            }
        }
    }

    #[test]
    fn powers_of_ten_from_the_table() {
        for n in 0..39 {
            assert_eq!(pow10(n), 10i128.checked_pow(n), "{n}");
        }
        assert_eq!(pow10(39), None);
    }

    #[test]
    fn a_sum_past_decimal_is_an_error() {
        assert!(sum([Decimal::MAX, Decimal::ONE], "t").is_err());
        // 0.1 + 0.25 = 0.35, at the wider scale.
        assert_eq!(
            sum([Decimal::new(1, 1), Decimal::new(25, 2)], "t").unwrap(),
            Decimal::new(35, 2)
        );
    }
}
