//! Month after month (`ddbcost forecast`): each month of the horizon is the workload with its
//! rates scaled by growth, season and launch month, and its stored items moved by what the
//! patterns insert and delete and what TTL expires — then priced by `estimate` like any month.
//! Pure: the first month is given, never read from a clock.

use rust_decimal::Decimal;

use super::checked;
use super::{EngineError, Estimate, estimate};
use crate::model::{Forecasting, Growth, PriceBook, Rate, Settings, Workload};

/// One month of a forecast.
#[derive(Debug, Clone)]
pub struct ForecastMonth {
    /// (year, month).
    pub period: (i64, u32),
    pub estimate: Estimate,
}

#[derive(Debug, Clone)]
pub struct Forecast {
    pub months: Vec<ForecastMonth>,
    /// Sum of the months' totals, exact.
    pub total: Decimal,
}

/// The calendar month `k` months after `start` (k = 0 is `start`).
fn month_after(start: (i64, u32), k: u32) -> (i64, u32) {
    // Months are 1–12 and horizons a few hundred months: no overflow.
    let index = start
        .0
        .saturating_mul(12)
        .saturating_add(i64::from(start.1))
        .saturating_sub(1)
        .saturating_add(i64::from(k));
    (
        index.div_euclid(12),
        u32::try_from(index.rem_euclid(12))
            .unwrap_or(0)
            .saturating_add(1),
    )
}

/// The factor month `k` (1-based, calendar month `at`) applies to rates that change by `f`:
/// 0 before its launch month; growth `g`/month compounds as (1 + g)^(k−1) (AWS bills each
/// month's usage: growth is a property of the workload, stated per month); a list gives the
/// k-th factor; a seasonal factor for the calendar month multiplies.
fn factor(f: &Forecasting, k: u32, at: (i64, u32), path: &str) -> Result<Decimal, EngineError> {
    if f.from.is_some_and(|from| at < from) {
        return Ok(Decimal::ZERO);
    }
    let mut x = match &f.growth {
        None => Decimal::ONE,
        Some(Growth::Monthly(g)) => {
            let step = checked::add(Decimal::ONE, *g, path)?;
            let mut x = Decimal::ONE;
            for _ in 1..k {
                x = checked::mul(x, step, path)?;
            }
            x
        }
        Some(Growth::Factors(list)) => *list
            .get(usize::try_from(k.saturating_sub(1)).unwrap_or(usize::MAX))
            .ok_or_else(|| EngineError::Forecast {
                path: format!("{path}.growth"),
                message: format!(
                    "lists {} month(s), and the forecast has a month {k}",
                    list.len()
                ),
            })?,
    };
    if let Some((_, s)) = f.seasonal.iter().find(|(m, _)| *m == at.1) {
        x = checked::mul(x, *s, path)?;
    }
    Ok(x)
}

/// Items expired by TTL within a month and their contribution to the month's average, for a
/// retention of `r` months: what was inserted `r` earlier expires. Inserts are spread evenly
/// within each month, so the expiry rate over the month is the insert rate of the month(s) `r`
/// earlier: rate `a` for the first `p` of the month and `b` for the rest, where `p` is the
/// part of the month whose source lies in the earlier month. Returns (expired, ∫ expired so
/// far over the month) = (a·p + b·(1−p), a·p²/2 + a·p·(1−p) + b·(1−p)²/2).
fn expiries(
    inserts: &[Decimal],
    history: Decimal,
    k: usize,
    r: Decimal,
    context: &str,
) -> Result<(Decimal, Decimal), EngineError> {
    // Month k (1-based) spans [k−1, k); its source interval is [k−1−r, k−r).
    let start = checked::sub(Decimal::from(k.saturating_sub(1)), r, context)?;
    let rate_at = |month_start: Decimal| -> Decimal {
        // The month whose span holds `month_start`: index floor(x) (0-based), before 0 the
        // history rate.
        let i = month_start.floor();
        if i.is_sign_negative() {
            return history;
        }
        usize::try_from(i.mantissa())
            .ok()
            .and_then(|i| inserts.get(i))
            .copied()
            .unwrap_or_default()
    };
    let a = rate_at(start);
    let p = checked::sub(start.ceil(), start, context)?;
    let half = Decimal::new(5, 1);
    if p.is_zero() {
        return Ok((a, checked::mul(a, half, context)?));
    }
    let b = rate_at(start.ceil());
    let q = checked::sub(Decimal::ONE, p, context)?;
    let expired = checked::add(
        checked::mul(a, p, context)?,
        checked::mul(b, q, context)?,
        context,
    )?;
    let area = checked::sum(
        [
            checked::mul(
                checked::mul(a, checked::mul(p, p, context)?, context)?,
                half,
                context,
            )?,
            checked::mul(a, checked::mul(p, q, context)?, context)?,
            checked::mul(
                checked::mul(b, checked::mul(q, q, context)?, context)?,
                half,
                context,
            )?,
        ],
        context,
    )?;
    Ok((expired, area))
}

/// Prices `months` months of `workload` from `start` (year, month).
///
/// Stored items start at each table's `items` (0 for a table with a launch month) and move
/// each month by inserts − deletes − TTL expiries; a month's storage is billed on its average
/// items, with every flow spread evenly through the month (a month that starts empty and
/// inserts 10 M items bills 5 M). Before the horizon an existing table is taken to have been
/// inserting at its first month's rate (so TTL expires from the start); items present at the
/// start whose age is unknown are otherwise kept. A table stated by `storage` keeps it.
///
/// # Errors
/// A growth list shorter than the horizon, a price the workload needs, or a figure too large.
pub(crate) fn forecast(
    workload: &Workload,
    book: &PriceBook,
    settings: &Settings,
    start: (i64, u32),
    months: u32,
) -> Result<Forecast, EngineError> {
    let hours = settings.month_hours;
    // Per table: base flows per pattern (inserts, deletes a month at the stated rates).
    let mut flows = Vec::with_capacity(workload.tables.len());
    for t in &workload.tables {
        flows.push(super::item_flows(t, settings)?);
    }
    let mut stored: Vec<Decimal> = workload
        .tables
        .iter()
        .map(|t| {
            if t.forecast.from.is_some() {
                Decimal::ZERO
            } else {
                t.items.unwrap_or_default()
            }
        })
        .collect();
    let mut inserted: Vec<Vec<Decimal>> = vec![Vec::new(); workload.tables.len()];
    let mut out = Vec::with_capacity(usize::try_from(months).unwrap_or(0));
    let mut total = Decimal::ZERO;
    for k in 1..=months {
        let at = month_after(start, k.saturating_sub(1));
        let mut month = commitments_in(workload, start, at);
        for (ti, t) in workload.tables.iter().enumerate() {
            let tpath = format!("tables.{}", t.name);
            let tf = factor(&t.forecast, k, at, &tpath)?;
            let mut table = t.clone();
            let (patterns, ins, del) = scaled_patterns(t, &flows[ti], (k, at), tf, &tpath)?;
            table.patterns = patterns;
            let launched = t.forecast.from.is_none_or(|from| at >= from);
            if !launched {
                inserted[ti].push(Decimal::ZERO);
                continue;
            }
            inserted[ti].push(ins);
            let half = Decimal::new(5, 1);
            let (expired, expired_area) = match t.ttl {
                Some(ttl) => {
                    let r = checked::some(ttl.months(hours), &tpath)?;
                    // An existing table has been inserting before the horizon.
                    let history = if t.forecast.from.is_none() && !stored[ti].is_zero() {
                        inserted[ti].first().copied().unwrap_or_default()
                    } else {
                        Decimal::ZERO
                    };
                    expiries(
                        &inserted[ti],
                        history,
                        usize::try_from(k).unwrap_or(usize::MAX),
                        r,
                        &tpath,
                    )?
                }
                None => (Decimal::ZERO, Decimal::ZERO),
            };
            let begin = stored[ti];
            // Average over the month: begin + inserts/2 − deletes/2 − ∫ expiries; never below 0.
            let average = checked::sub(
                checked::add(
                    begin,
                    checked::mul(checked::sub(ins, del, &tpath)?, half, &tpath)?,
                    &tpath,
                )?,
                expired_area,
                &tpath,
            )?
            .max(Decimal::ZERO);
            let end = checked::sub(
                checked::sub(checked::add(begin, ins, &tpath)?, del, &tpath)?,
                expired,
                &tpath,
            )?
            .max(Decimal::ZERO);
            stored[ti] = end;
            if table.storage.is_none()
                && (t.items.is_some()
                    || t.ttl.is_some()
                    || t.forecast.from.is_some()
                    || !ins.is_zero())
            {
                table.items = Some(average);
            }
            if t.ttl.is_some() && t.ttl_deletes.is_none() {
                table.ttl_deletes = Some(Rate::per_month(expired));
            }
            month.tables.push(table);
        }
        // A month before every table's launch prices nothing (an estimate of no tables).
        let e = estimate(&month, book, settings)?;
        total = checked::add(total, e.total, "forecast total")?;
        out.push(ForecastMonth {
            period: at,
            estimate: e,
        });
    }
    Ok(Forecast { months: out, total })
}

/// The workload of month `at`, without its tables: the reservations and savings plan in
/// force that month. A reservation applies from its start month for its term (one without a
/// start is bought in the forecast's first month); a savings plan from its start month (else
/// the first) for a year.
fn commitments_in(workload: &Workload, start: (i64, u32), at: (i64, u32)) -> Workload {
    let mut month = workload.clone();
    month.tables.clear();
    month.reservations.retain(|r| {
        let s = r.start.unwrap_or(start);
        let end = month_after(s, r.term.months());
        at >= s && at < end
    });
    // Its month of purchase, stated: what FOCUS bills its upfront fee in.
    for r in &mut month.reservations {
        r.start.get_or_insert(start);
    }
    if let Some(sp) = &workload.savings_plan {
        let s = sp.start.unwrap_or(start);
        if !(at >= s && at < month_after(s, crate::model::SavingsPlan::TERM_MONTHS)) {
            month.savings_plan = None;
        }
    }
    month
}

/// A table's patterns in month `k` (at `at`), each rate scaled by the table's factor `tf`
/// and its own (a pattern at zero left out), and the month's inserts and deletes.
fn scaled_patterns(
    t: &crate::model::Table,
    flows: &[(Decimal, Decimal)],
    (k, at): (u32, (i64, u32)),
    tf: Decimal,
    tpath: &str,
) -> Result<(Vec<crate::model::AccessPattern>, Decimal, Decimal), EngineError> {
    let mut patterns = Vec::with_capacity(t.patterns.len());
    let (mut ins, mut del) = (Decimal::ZERO, Decimal::ZERO);
    for (pi, p) in t.patterns.iter().enumerate() {
        let ppath = format!("{tpath}.patterns.{}", p.name);
        let f = checked::mul(tf, factor(&p.forecast, k, at, &ppath)?, &ppath)?;
        let (i, d) = flows[pi];
        ins = checked::add(ins, checked::mul(i, f, &ppath)?, &ppath)?;
        del = checked::add(del, checked::mul(d, f, &ppath)?, &ppath)?;
        if f.is_zero() {
            continue;
        }
        let mut p = p.clone();
        p.rate = Rate {
            amount: checked::mul(p.rate.amount, f, &ppath)?,
            period: p.rate.period,
        };
        patterns.push(p);
    }
    Ok((patterns, ins, del))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Decimal {
        s.parse().unwrap()
    }

    #[test]
    fn months_roll_over_years() {
        assert_eq!(month_after((2026, 11), 0), (2026, 11));
        assert_eq!(month_after((2026, 11), 2), (2027, 1));
        assert_eq!(month_after((2026, 12), 13), (2028, 1));
    }

    #[test]
    fn growth_compounds_and_seasons_multiply() {
        let f = Forecasting {
            growth: Some(Growth::Monthly(d("0.03"))),
            seasonal: vec![(12, d("1.8"))],
            from: Some((2027, 1)),
        };
        // Before launch: 0. Month 3 in March: 1.03² = 1.0609. Month 12 in December: × 1.8.
        assert_eq!(factor(&f, 1, (2026, 12), "t").unwrap(), Decimal::ZERO);
        assert_eq!(factor(&f, 3, (2027, 3), "t").unwrap(), d("1.0609"));
        assert_eq!(factor(&f, 2, (2027, 12), "t").unwrap(), d("1.854")); // 1.03 × 1.8
        let short = Forecasting {
            growth: Some(Growth::Factors(vec![d("1")])),
            ..Forecasting::default()
        };
        assert!(factor(&short, 2, (2027, 1), "t").is_err());
    }

    #[test]
    fn expiries_follow_the_inserts_one_retention_earlier() {
        // Inserts of 30 and 60 in months 1 and 2, a retention of exactly 1 month: month 2
        // expires month 1's 30, spread evenly (average 15); month 3 expires month 2's 60.
        let ins = [d("30"), d("60"), d("0")];
        assert_eq!(
            expiries(&ins, Decimal::ZERO, 2, Decimal::ONE, "t").unwrap(),
            (d("30"), d("15"))
        );
        assert_eq!(
            expiries(&ins, Decimal::ZERO, 3, Decimal::ONE, "t").unwrap(),
            (d("60"), d("30"))
        );
        // Half a month: month 2 expires the second half of month 1 (15) then the first half of
        // month 2 (30): 45; area 15×0.25/… = a·p²/2 + a·p·q + b·q²/2 with a 30, b 60, p q ½:
        // 3.75 + 7.5 + 7.5 = 18.75.
        assert_eq!(
            expiries(&ins, Decimal::ZERO, 2, d("0.5"), "t").unwrap(),
            (d("45"), d("18.75"))
        );
    }
}
