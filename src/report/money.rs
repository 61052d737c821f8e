//! The rounding policy, in one place: amounts are exact everywhere else and are rounded only
//! here, when rendered, to the currency's minor unit, half away from zero.

use rust_decimal::{Decimal, RoundingStrategy};

/// Digits after the decimal point in the currency's minor unit: ISO 4217's list A.1 (the
/// currencies whose minor unit is not hundredths, as of its 2026 edition; every other is 2).
#[must_use]
pub(crate) fn minor_digits(currency: &str) -> u32 {
    match currency {
        "BIF" | "CLP" | "DJF" | "GNF" | "ISK" | "JPY" | "KMF" | "KRW" | "PYG" | "RWF" | "UGX"
        | "UYI" | "VND" | "VUV" | "XAF" | "XOF" | "XPF" => 0,
        "BHD" | "IQD" | "JOD" | "KWD" | "LYD" | "OMR" | "TND" => 3,
        "CLF" | "UYW" => 4,
        _ => 2,
    }
}

#[must_use]
pub(crate) fn symbol(currency: &str) -> &str {
    match currency {
        "USD" => "$",
        "EUR" => "€",
        "GBP" => "£",
        "JPY" => "¥",
        other => other,
    }
}

/// `amount` rounded to the currency's minor unit.
#[must_use]
pub(crate) fn round(amount: Decimal, currency: &str) -> Decimal {
    amount.round_dp_with_strategy(
        minor_digits(currency),
        RoundingStrategy::MidpointAwayFromZero,
    )
}

/// Each amount rounded to the currency's minor unit so that the rounded amounts add up to the
/// rounded sum of the exact ones: `apportion_dp` at the currency's digits.
#[must_use]
pub(crate) fn apportion(amounts: &[Option<Decimal>], currency: &str) -> Vec<Option<Decimal>> {
    apportion_dp(amounts, minor_digits(currency))
}

/// Each amount shown to `dp` places so that the shown amounts add up to the sum of the exact
/// ones shown the same way (half away from zero) — largest remainder, as Hamilton
/// apportions seats: each is first rounded down, and the units of the last place the sum
/// still lacks go one each to the amounts with the largest remainders (ties: the first). No
/// amount moves by a whole unit or more from its exact value; each is written with `dp`
/// places (`3.00`). `None`s (unknown amounts) stay `None` and count for nothing.
#[must_use]
pub(crate) fn apportion_dp(amounts: &[Option<Decimal>], dp: u32) -> Vec<Option<Decimal>> {
    let unit = Decimal::new(1, dp);
    let floors: Vec<Option<Decimal>> = amounts
        .iter()
        .map(|a| a.map(|v| v.round_dp_with_strategy(dp, RoundingStrategy::ToNegativeInfinity)))
        .collect();
    let sum = |v: &[Option<Decimal>]| {
        v.iter()
            .flatten()
            .try_fold(Decimal::ZERO, |s, x| s.checked_add(*x))
    };
    let shown = |mut v: Decimal| {
        v.rescale(dp);
        v
    };
    let (Some(exact), Some(floored)) = (sum(amounts), sum(&floors)) else {
        // Past a decimal's range: each rounded on its own.
        return amounts
            .iter()
            .map(|a| {
                a.map(|v| {
                    shown(v.round_dp_with_strategy(dp, RoundingStrategy::MidpointAwayFromZero))
                })
            })
            .collect();
    };
    let missing = exact
        .round_dp_with_strategy(dp, RoundingStrategy::MidpointAwayFromZero)
        .checked_sub(floored)
        .and_then(|d| d.checked_div(unit))
        .and_then(|d| usize::try_from(d.trunc().mantissa()).ok())
        .unwrap_or(0);
    let mut order: Vec<(Decimal, usize)> = amounts
        .iter()
        .zip(&floors)
        .enumerate()
        .filter_map(|(i, (a, f))| Some(((*a)?.checked_sub((*f)?)?, i)))
        .collect();
    // Largest remainder first; ties in the amounts' order.
    order.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut out = floors;
    for &(_, i) in order.iter().take(missing) {
        if let Some(Some(v)) = out.get_mut(i) {
            *v = v.checked_add(unit).unwrap_or(*v);
        }
    }
    out.into_iter().map(|v| v.map(shown)).collect()
}

/// The policy, as printed in reports.
#[must_use]
pub(crate) fn policy(currency: &str) -> String {
    format!(
        "amounts are exact; shown rounded half away from zero to {} decimal(s) of {currency}",
        minor_digits(currency)
    )
}

/// `1243.54` → `1,243.54` (rounded, with the minor unit's digits, thousands grouped).
#[must_use]
pub(crate) fn display(amount: Decimal, currency: &str) -> String {
    let digits = minor_digits(currency);
    let rounded = round(amount, currency);
    grouped(&format!("{:.*}", digits as usize, rounded.abs()), rounded)
}

/// A quantity for people: at most 4 decimals, trailing zeros dropped, thousands grouped.
#[must_use]
pub(crate) fn quantity(q: Decimal) -> String {
    let q = q
        .round_dp_with_strategy(4, RoundingStrategy::MidpointAwayFromZero)
        .normalize();
    grouped(&q.abs().to_string(), q)
}

/// `text` (the absolute value of `value`, written out) with its integer digits grouped by
/// thousands and the sign of `value`.
fn grouped(text: &str, value: Decimal) -> String {
    let (int, frac) = text
        .split_once('.')
        .map_or((text, None), |(i, f)| (i, Some(f)));
    let mut out = String::with_capacity(text.len().saturating_mul(2));
    if value.is_sign_negative() && !value.is_zero() {
        out.push('-');
    }
    for (i, c) in int.chars().enumerate() {
        if i > 0 && int.len().saturating_sub(i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    if let Some(f) = frac {
        out.push('.');
        out.push_str(f);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::dec;

    #[test]
    fn rounds_half_away_from_zero_to_minor_unit() {
        assert_eq!(round(dec("1243.545"), "EUR"), dec("1243.55"));
        assert_eq!(round(dec("-0.005"), "USD"), dec("-0.01"));
        assert_eq!(round(dec("12.5"), "JPY"), dec("13"));
        // ISO 4217: the guaraní, the CFA francs and the Ugandan shilling have no minor unit;
        // the Libyan and Iraqi dinars have three digits, the Chilean UF four.
        for zero in ["PYG", "XOF", "XAF", "UGX", "XPF"] {
            assert_eq!(round(dec("1234.5"), zero), dec("1235"), "{zero}");
        }
        assert_eq!(round(dec("1.23456"), "LYD"), dec("1.235"));
        assert_eq!(round(dec("1.23456"), "CLF"), dec("1.2346"));
        assert_eq!(display(dec("1243.54"), "EUR"), "1,243.54");
        assert_eq!(display(dec("52.5"), "EUR"), "52.50");
        assert_eq!(display(dec("-1234567.891"), "USD"), "-1,234,567.89");
        assert_eq!(quantity(dec("980.000000")), "980");
        assert_eq!(quantity(dec("1051200000.123456")), "1,051,200,000.1235");
    }

    proptest::proptest! {
        /// Apportioned amounts add up to the rounded sum of the exact ones, and none is a
        /// whole minor unit or more from its exact value.
        #[test]
        fn apportioned_amounts_add_up(
            cents in proptest::collection::vec(proptest::option::of(-1_000_000_000i64..1_000_000_000), 0..40),
            scale in 0u32..6,
            currency in proptest::sample::select(vec!["USD", "JPY", "KWD", "CLF"]),
        ) {
            let amounts: Vec<Option<Decimal>> =
                cents.iter().map(|c| c.map(|v| Decimal::new(v, scale))).collect();
            let out = apportion(&amounts, currency);
            let exact: Decimal = amounts.iter().flatten().sum();
            let shown: Decimal = out.iter().flatten().sum();
            proptest::prop_assert_eq!(shown, round(exact, currency));
            let unit = Decimal::new(1, minor_digits(currency));
            for (a, o) in amounts.iter().zip(&out) {
                proptest::prop_assert_eq!(a.is_some(), o.is_some());
                if let (Some(a), Some(o)) = (a, o) {
                    proptest::prop_assert!(o.checked_sub(*a).is_some_and(|d| d.abs() < unit), "{} → {}", a, o);
                    proptest::prop_assert_eq!(o.scale().min(minor_digits(currency)), o.scale());
                }
            }
        }
    }
}
