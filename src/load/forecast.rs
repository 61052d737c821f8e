//! How a table's or a pattern's rates change over a forecast: `growth` (a monthly rate or
//! one factor per month), `seasonal` factors for named months, and `from`, its first month.

use rust_decimal::Decimal;

use super::context::Reader;
use super::raw::{Quantity, RawGrowth};
use super::yaml::Spanned;
use super::yaml::position;
use crate::error::Error;
use crate::model::{Forecasting, Growth};

/// `3%/month` (or `-2%/month`) as a monthly growth rate.
fn parse_growth_rate(text: &str) -> Result<Decimal, String> {
    let t = text.trim();
    let Some(pct) = t
        .strip_suffix("/month")
        .map(str::trim)
        .and_then(|p| p.strip_suffix('%'))
    else {
        return Err(format!("`{t}` is not a growth rate"));
    };
    let (negative, digits) = match pct.trim().strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, pct.trim()),
    };
    let share = super::quantity::parse_number(digits)?
        .checked_div(Decimal::ONE_HUNDRED)
        .ok_or_else(|| format!("`{t}` is too large"))?;
    let rate = if negative {
        Decimal::ZERO.saturating_sub(share)
    } else {
        share
    };
    if rate <= Decimal::NEGATIVE_ONE || rate > Decimal::TEN {
        return Err(format!("`{t}` is outside −100 %…+1000 % a month"));
    }
    Ok(rate)
}

/// `YYYY-MM` as (year, month).
pub(super) fn parse_month(text: &str) -> Result<(i64, u32), String> {
    let t = text.trim();
    let parsed = t.split_once('-').and_then(|(y, m)| {
        let (y, m): (i64, u32) = (y.parse().ok()?, m.parse().ok()?);
        (y.to_string().len() == 4
            && m.to_string().len() <= 2
            && (1..=12).contains(&m)
            && (1970..=9999).contains(&y)
            && t.len() == 7)
            .then_some((y, m))
    });
    parsed.ok_or_else(|| format!("`{t}` is not a month of the form YYYY-MM"))
}

const MONTH_NAMES: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];

/// `growth`, `seasonal` and `from` of a table or pattern at `path`.
pub(super) fn forecasting(
    rd: &Reader<'_>,
    growth: Option<&Spanned<RawGrowth>>,
    seasonal: &indexmap::IndexMap<String, Quantity>,
    from: Option<&Quantity>,
    path: &str,
) -> Result<Forecasting, Error> {
    let factor = |s: &Quantity, p: &str| -> Result<Decimal, Error> {
        let f = rd.scalar(
            s,
            p,
            super::quantity::parse_number,
            "a factor such as `1.4`",
        )?;
        if f.is_sign_negative() || f > Decimal::from(1000) {
            return Err(rd.err(
                p,
                position(s),
                format!("factor `{}` is outside 0–1000", s.value.trim()),
                "Consider a multiplier of the month's rates, such as `1.4`.",
            ));
        }
        Ok(f)
    };
    let growth = match growth.map(|g| (&g.value, g)) {
        None => None,
        Some((RawGrowth::Rate(s), at)) => Some(Growth::Monthly(rd.scalar(
            // The rate is refused where the growth was written.
            &Quantity::at(s.value.clone(), at.referenced, at.defined),
            &format!("{path}.growth"),
            parse_growth_rate,
            "a monthly growth such as `3%/month`",
        )?)),
        Some((RawGrowth::Factors(list), at)) => {
            let mut out = Vec::new();
            for (i, s) in list.iter().enumerate() {
                out.push(factor(s, &format!("{path}.growth[{i}]"))?);
            }
            if out.is_empty() {
                return Err(rd.err(
                    &format!("{path}.growth"),
                    position(at),
                    "an empty list of growth factors",
                    "Consider one factor per month of the forecast, or `3%/month`.",
                ));
            }
            Some(Growth::Factors(out))
        }
    };
    let mut months = Vec::new();
    for (name, s) in seasonal {
        let p = format!("{path}.seasonal.{name}");
        let Some(m) = MONTH_NAMES
            .iter()
            .position(|n| *n == name.to_ascii_lowercase())
        else {
            return Err(rd.err(
                &p,
                position(s),
                format!("`{name}` is not a month"),
                "Consider `jan` … `dec`.",
            ));
        };
        months.push((
            u32::try_from(m).unwrap_or(0).saturating_add(1),
            factor(s, &p)?,
        ));
    }
    let from = from
        .map(|s| {
            rd.scalar(
                s,
                &format!("{path}.from"),
                parse_month,
                "a month such as `2027-03`",
            )
        })
        .transpose()?;
    Ok(Forecasting {
        growth,
        seasonal: months,
        from,
    })
}
