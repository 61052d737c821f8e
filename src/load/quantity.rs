//! Parses quantities the way people write them: counts (`41M`, `2.5K`, `1_000`), rates
//! (`400/s`, `41M/month`, `20000/day`; a plain number is per second), sizes (`3.5 KB`,
//! `210 GB`; a plain number is bytes), shares (`0.92`, `92%`) and money (`0.125`).
//! Numbers are parsed as exact decimals from their text, never through a float.
//! Errors are plain strings saying what was expected; the caller adds file and path.

use rust_decimal::Decimal;

use crate::model::{DataSize, Period, Rate, SizeUnit};

/// A plain decimal, optionally with an exponent (`1.5`, `2e6`), `_` allowed between digits.
pub(crate) fn parse_number(text: &str) -> Result<Decimal, String> {
    let cleaned: String = text.trim().chars().filter(|c| *c != '_').collect();
    let valid = !cleaned.is_empty()
        && cleaned
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | '-' | '+' | 'e' | 'E'))
        && cleaned.chars().any(|c| c.is_ascii_digit());
    if !valid {
        return Err(format!("`{}` is not a number", text.trim()));
    }
    let parsed = if cleaned.contains(['e', 'E']) {
        Decimal::from_scientific(&cleaned)
    } else {
        cleaned.parse::<Decimal>()
    };
    parsed.map_err(|_| {
        format!(
            "`{}` is not a number that fits (at most 28 significant digits, below 7.9e28)",
            text.trim()
        )
    })
}

fn non_negative(value: Decimal, text: &str) -> Result<Decimal, String> {
    if value.is_sign_negative() && !value.is_zero() {
        Err(format!("`{}` is negative", text.trim()))
    } else {
        Ok(value)
    }
}

/// Splits `41M` into (`41`, `M`): the numeric part and the alphabetic suffix.
fn split_suffix(text: &str) -> (&str, &str) {
    let t = text.trim();
    let at = t
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_ascii_alphabetic() || *c == ' ' || *c == '%')
        .last()
        .map_or(t.len(), |(i, _)| i);
    // Keep an exponent (`2e6`) in the number.
    let (num, suffix) = t.split_at(at);
    if suffix.trim_start().starts_with(['e', 'E']) && suffix.trim().len() > 1 {
        return (t, "");
    }
    (num.trim(), suffix.trim())
}

/// A non-negative count with an optional multiplier: K (10^3), M (10^6), B or G (10^9),
/// T (10^12).
pub(crate) fn parse_count(text: &str) -> Result<Decimal, String> {
    let (num, suffix) = split_suffix(text);
    let multiplier: u64 = match suffix {
        "" => 1,
        "K" | "k" => 1_000,
        "M" => 1_000_000,
        "B" | "G" | "bn" => 1_000_000_000,
        "T" => 1_000_000_000_000,
        other => {
            return Err(format!(
                "unknown count suffix `{other}` in `{}` (use K, M, B or T, e.g. `41M`)",
                text.trim()
            ));
        }
    };
    let value = non_negative(parse_number(num)?, text)?;
    value
        .checked_mul(Decimal::from(multiplier))
        .ok_or_else(|| format!("`{}` is too large", text.trim()))
}

/// A non-negative rate: a count, `/`, and a period (`s`, `min`, `h`, `day`, `month`).
/// A plain count is per second.
pub(crate) fn parse_rate(text: &str) -> Result<Rate, String> {
    let (count, period) = match text.split_once('/') {
        Some((count, period)) => (count, period.trim()),
        None => (text, "s"),
    };
    let period = match period {
        "s" | "sec" | "second" => Period::Second,
        "min" | "minute" => Period::Minute,
        "h" | "hour" => Period::Hour,
        "d" | "day" => Period::Day,
        "mo" | "month" => Period::Month,
        other => {
            return Err(format!(
                "unknown period `/{other}` in `{}` (use /s, /min, /h, /day or /month)",
                text.trim()
            ));
        }
    };
    Ok(Rate {
        amount: parse_count(count)?,
        period,
    })
}

/// A non-negative data size: a number and a unit (B, KB, MB, GB, TB; KiB… accepted as the
/// same binary units). A plain number is bytes.
pub(crate) fn parse_size(text: &str) -> Result<DataSize, String> {
    let (num, suffix) = split_suffix(text);
    let unit = match suffix.to_ascii_uppercase().as_str() {
        "" | "B" => SizeUnit::B,
        "KB" | "KIB" | "K" => SizeUnit::Kb,
        "MB" | "MIB" => SizeUnit::Mb,
        "GB" | "GIB" => SizeUnit::Gb,
        "TB" | "TIB" => SizeUnit::Tb,
        _ => {
            return Err(format!(
                "unknown size unit `{suffix}` in `{}` (use B, KB, MB, GB or TB, e.g. `3.5 KB`)",
                text.trim()
            ));
        }
    };
    Ok(DataSize {
        amount: non_negative(parse_number(num)?, text)?,
        unit,
    })
}

/// A retention period: `90 days`, `12 weeks`, `6 months`, `1 year`, `36 hours`.
pub(crate) fn parse_retention(text: &str) -> Result<crate::model::Retention, String> {
    use crate::model::Retention;
    let t = text.trim();
    let (num, unit) = t
        .split_once(char::is_whitespace)
        .map_or_else(|| split_suffix(t), |(n, u)| (n, u.trim()));
    let n = non_negative(parse_number(num)?, t)?;
    if n.is_zero() {
        return Err(format!("`{t}` keeps nothing"));
    }
    let hours = |per: u32| {
        n.checked_mul(Decimal::from(per))
            .map(Retention::Hours)
            .ok_or_else(|| format!("`{t}` is too long"))
    };
    match unit.to_ascii_lowercase().trim_end_matches('s') {
        "h" | "hour" => hours(1),
        "d" | "day" => hours(24),
        "w" | "week" => hours(168),
        "month" => Ok(Retention::Months(n)),
        "y" | "year" => n
            .checked_mul(Decimal::from(12))
            .map(Retention::Months)
            .ok_or_else(|| format!("`{t}` is too long")),
        _ => Err(format!(
            "`{t}` has no time unit (hours, days, weeks, months or years)"
        )),
    }
}

/// A share between 0 and 1, as a fraction (`0.92`) or a percentage (`92%`).
pub(crate) fn parse_share(text: &str) -> Result<Decimal, String> {
    let t = text.trim();
    let value = match t.strip_suffix('%') {
        Some(pct) => parse_number(pct)?
            .checked_div(Decimal::ONE_HUNDRED)
            .ok_or_else(|| format!("`{t}` is not a percentage"))?,
        None => parse_number(t)?,
    };
    if value < Decimal::ZERO || value > Decimal::ONE {
        return Err(format!("`{t}` is outside [0, 1]"));
    }
    Ok(value)
}

/// A non-negative amount of money in the price table's currency.
pub(crate) fn parse_money(text: &str) -> Result<Decimal, String> {
    non_negative(parse_number(text)?, text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::dec;

    #[test]
    fn counts_with_suffixes() {
        assert_eq!(parse_count("41M").unwrap(), dec("41000000"));
        assert_eq!(parse_count("2.5K").unwrap(), dec("2500"));
        assert_eq!(parse_count("1_000").unwrap(), dec("1000"));
        assert_eq!(parse_count("2e6").unwrap(), dec("2000000"));
        assert_eq!(parse_count("1.2 B").unwrap(), dec("1200000000"));
        assert!(parse_count("-5").unwrap_err().contains("negative"));
        assert!(
            parse_count("12X")
                .unwrap_err()
                .contains("unknown count suffix")
        );
        assert!(parse_count("abc").is_err());
        assert!(parse_count("NaN").is_err());
        assert!(parse_count("inf").is_err());
        assert!(parse_count("1e400").is_err());
        assert!(parse_count("79228162514264337593543950336").is_err());
    }

    #[test]
    fn rates_with_periods() {
        let r = parse_rate("400/s").unwrap();
        assert_eq!((r.amount, r.period), (dec("400"), Period::Second));
        assert_eq!(parse_rate("41M/month").unwrap().period, Period::Month);
        assert_eq!(parse_rate("20000/day").unwrap().period, Period::Day);
        assert_eq!(parse_rate("7").unwrap().period, Period::Second);
        assert!(parse_rate("5/fortnight").is_err());
        assert!(parse_rate("-5/s").is_err());
        // 400/s over a 730-hour month: 400 × 730 × 3600 = 1,051,200,000.
        assert_eq!(
            parse_rate("400/s").unwrap().monthly(dec("730")),
            Some(dec("1051200000"))
        );
    }

    #[test]
    fn sizes_with_units() {
        // 3.5 KB = 3.5 × 1024 = 3,584 B.
        assert_eq!(parse_size("3.5 KB").unwrap().to_bytes(), Some(dec("3584")));
        assert_eq!(parse_size("400").unwrap().to_bytes(), Some(dec("400")));
        assert_eq!(parse_size("210 GB").unwrap().unit, SizeUnit::Gb);
        assert!(parse_size("3 parsecs").is_err());
        assert!(parse_size("-1 KB").is_err());
    }

    #[test]
    fn shares_and_percentages() {
        assert_eq!(parse_share("92%").unwrap(), dec("0.92"));
        assert_eq!(parse_share("0.08").unwrap(), dec("0.08"));
        assert!(parse_share("1.5").unwrap_err().contains("outside"));
        assert!(parse_share("-0.1").is_err());
    }
}
