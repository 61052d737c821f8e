//! The account's commitments: reserved capacity (blocks, term, region, start) and a Database
//! Savings Plan (its hourly commitment, term, start and rates).

use rust_decimal::Decimal;

use super::context::Reader;
use super::forecast::parse_month;
use super::yaml::position;
use crate::error::Error;

/// `commitments.reserved`: blocks of 100 units, a term, an optional region and start.
pub(super) fn reservations(
    rd: &Reader<'_>,
    c: Option<&super::raw::RawCommitments>,
) -> Result<Vec<crate::model::Reservation>, Error> {
    let mut out = Vec::new();
    for (i, r) in c
        .map(|c| c.reserved.as_slice())
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        let path = format!("commitments.reserved[{i}]");
        let units =
            super::capacity::units(rd, Some(&r.units), &format!("{path}.units"), "`units`")?
                .unwrap_or_default();
        if units.is_zero()
            || !units
                .checked_rem(Decimal::ONE_HUNDRED)
                .unwrap_or_default()
                .is_zero()
        {
            return Err(rd.err(
                &format!("{path}.units"),
                position(&r.units),
                format!(
                    "reserved capacity is sold in blocks of 100 units, not `{}`",
                    r.units.value.trim()
                ),
                "Consider a multiple of 100, e.g. `units: 200`.",
            ));
        }
        out.push(crate::model::Reservation {
            region: r.region.clone(),
            kind: match r.capacity.value {
                super::raw::RawCapacityKind::Rcu => crate::model::CapacityKind::Rcu,
                super::raw::RawCapacityKind::Wcu => crate::model::CapacityKind::Wcu,
            },
            blocks: units.checked_div(Decimal::ONE_HUNDRED).unwrap_or_default(),
            term: match r.term.value {
                super::raw::RawTerm::OneYear => crate::model::ReservedTerm::OneYear,
                super::raw::RawTerm::ThreeYears => crate::model::ReservedTerm::ThreeYears,
            },
            start: r
                .start
                .as_ref()
                .map(|s| {
                    rd.scalar(
                        s,
                        &format!("{path}.start"),
                        parse_month,
                        "a month such as `2027-01`",
                    )
                })
                .transpose()?,
        });
    }
    Ok(out)
}

/// `commitments.savings_plan`: a positive commitment per hour, a 1-year term (the only
/// one AWS sells), an optional start month and rates.
pub(super) fn savings_plan(
    rd: &Reader<'_>,
    raw: Option<&super::raw::RawSavingsPlan>,
) -> Result<Option<crate::model::SavingsPlan>, Error> {
    let Some(sp) = raw else { return Ok(None) };
    let path = "commitments.savings_plan";
    let per_hour = rd.scalar(
        &sp.per_hour,
        &format!("{path}.per_hour"),
        super::quantity::parse_money,
        "an amount per hour in the price table's currency, such as `0.50`",
    )?;
    if per_hour.is_zero() {
        return Err(rd.err(
                &format!("{path}.per_hour"),
                position(&sp.per_hour),
                "a savings plan of 0 per hour commits to nothing",
                "Consider the commitment in the price table's currency per hour, e.g. `per_hour: 0.50`, or remove the plan.",
            ));
    }
    if let Some(t) = &sp.term
        && matches!(t.value, super::raw::RawTerm::ThreeYears)
    {
        return Err(rd.err(
                &format!("{path}.term"),
                position(t),
                "Database Savings Plans are sold for 1 year, not 3",
                "Consider `term: 1y` (or leave it out), or reserved capacity (`commitments.reserved`) for a 3-year term.",
            ));
    }
    let start = sp
        .start
        .as_ref()
        .map(|s| {
            rd.scalar(
                s,
                &format!("{path}.start"),
                parse_month,
                "a month such as `2027-01`",
            )
        })
        .transpose()?;
    let rates = sp
        .rates
        .as_ref()
        .map(|r| {
            super::savings_plan::rates(
                r,
                &format!("{path}.rates"),
                "stated in the workload",
                &|s, p, why| {
                    rd.err(
                        p,
                        super::savings_plan::at(s),
                        why,
                        "Consider the rate as a fraction of list price, e.g. `0.8` for 20 % off.",
                    )
                },
            )
        })
        .transpose()?;
    Ok(Some(crate::model::SavingsPlan {
        per_hour,
        start,
        rates,
    }))
}
