//! Departures of a daily bill from its own baseline, by a stated rule, each with the
//! mechanism the bill shows.
//!
//! The rule: a meter's baseline on day d is the median of its cost on the `window` days
//! before d (a day without a row costs 0); day d departs when its cost differs from the
//! baseline by at least `relative` of it and at least `floor` a day. With a workload, the
//! baseline is instead its estimate of the meter, a day (0 for a meter it lacks), and every
//! day of the bill is checked. A departure is reported
//! on its first day: a *step* when the two days after it depart the same way too, a *spike*
//! when they do not, *recent* when the bill ends before it can tell. Its new rate is the
//! median of its first three days (a spike: the day itself); its money a month is (new rate −
//! baseline) × the month's days. Without a workload, nothing is flagged in the first
//! `window` days (they are the baseline).
//!
//! Storage is billed by what is kept, so a change in what is written or deleted shows as a
//! slope, not a step: a storage meter's daily *growth* (its cost a day less the day
//! before's) is set against the median growth of the window too, and a growth that departs
//! for three days running — by at least `relative` of the baseline's and by `floor` a day
//! after a month of it — is a *growth* departure, reported on the day it began; its money
//! a month is what a month of it adds to the next month's bill ((new growth − baseline) ×
//! the month's days²). Once a storage meter's growth departs, the level departures it
//! causes later the same way are not reported again.

use rust_decimal::Decimal;

use super::daily::{Daily, Day, Meter};
use crate::engine::Component;

/// The rule's figures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Rule {
    pub(crate) window: usize,
    pub(crate) relative: Decimal,
    pub(crate) floor: Decimal,
    /// Days in a month, for the money a month (730 h ÷ 24 by default).
    pub(crate) month_days: Decimal,
    /// The CloudWatch series read to explain the departures, if any were given.
    pub(crate) metrics: Option<usize>,
}

impl Rule {
    /// A rule of `window` days, flagged at `percent` of the baseline and `floor` a day; a month
    /// of 730 hours (the one every other command prices a month at).
    #[must_use]
    pub(crate) fn new(window: usize, percent: Decimal, floor: Decimal) -> Rule {
        Rule {
            window,
            relative: percent
                .checked_div(Decimal::ONE_HUNDRED)
                .unwrap_or_default(),
            floor,
            month_days: Decimal::from(730)
                .checked_div(Decimal::from(24))
                .unwrap_or_default(),
            metrics: None,
        }
    }
}

/// How a departure goes on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Shape {
    Step,
    Spike,
    Recent,
    /// A storage meter's slope: `before` and `after` are its growth a day.
    Growth,
}

/// What the bill shows caused it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Mechanism {
    /// A meter that cost nothing began (its usage type names what).
    Began,
    /// A meter stopped.
    Stopped,
    /// The same units a day at another price a unit: a commitment or a discount began or
    /// ended covering it (unit prices before and after).
    Price { before: Decimal, after: Decimal },
    /// Set against a workload, the bill differs from it with nothing in the bill's own days
    /// to tell why: from its first day (no day before to compare units or prices with), or
    /// a meter the workload lacks, billed before too.
    FromTheStart,
    /// More or fewer units a day (before and after), the price a unit the same: more
    /// requests, larger items, another read consistency or a query turned scan — the bill
    /// alone cannot tell which.
    Units { before: Decimal, after: Decimal },
    /// Storage growing faster a day (usage units a day, before and after): more kept than
    /// deleted — the bill alone cannot tell why.
    Growth { before: Decimal, after: Decimal },
    /// Measured: a GSI of the table began (or stopped) consuming units of the meter's kind —
    /// its units a day after (before), and the write units its backfill consumed.
    Index {
        index: String,
        began: bool,
        units: Decimal,
        backfill: Option<Decimal>,
    },
    /// Measured: the items a query or scan returns per request moved (a query turned scan,
    /// a broader query); `scans_began`: scans ran where none had.
    ItemsPerRequest {
        operation: String,
        before: Decimal,
        after: Decimal,
        scans_began: bool,
    },
    /// Measured: the units a request consumes stepped, the requests the same — an item past
    /// a size boundary (1 KB a write unit, 4 KB a read unit), or reads turned strong or
    /// transactional.
    PerRequest {
        before: Decimal,
        after: Decimal,
        writes: bool,
    },
    /// Measured: more (or fewer) requests, each consuming the same units.
    Requests { before: Decimal, after: Decimal },
    /// Measured: the table's TTL deletions a day stopped (or fell), so what expired stays.
    TtlStopped { before: Decimal, after: Decimal },
    /// Measured: a replica's lag to the meter's region is measured from `since` (a day).
    Replica { since: i64 },
    /// The table's metrics were given and none of them shows what moved the bill.
    Unexplained,
}

/// One departure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Departure {
    pub(crate) meter: Meter,
    /// Days since 1970-01-01 (UTC).
    pub(crate) day: i64,
    pub(crate) shape: Shape,
    /// The baseline's cost a day, and the new rate's.
    pub(crate) before: Decimal,
    pub(crate) after: Decimal,
    /// (after − before) × the month's days; `None` for one day (no new rate).
    pub(crate) per_month: Option<Decimal>,
    /// after − before: what a day of the new rate (or the one day) costs more.
    pub(crate) excess: Decimal,
    pub(crate) mechanism: Mechanism,
}

fn median(mut v: Vec<Decimal>) -> Decimal {
    v.sort_unstable();
    let mid = v.len().checked_div(2).unwrap_or(0);
    let upper = v.get(mid).copied().unwrap_or_default();
    if v.len().is_multiple_of(2) {
        let lower = mid
            .checked_sub(1)
            .and_then(|i| v.get(i))
            .copied()
            .unwrap_or_default();
        lower
            .checked_add(upper)
            .and_then(|s| s.checked_div(Decimal::TWO))
            .unwrap_or_default()
    } else {
        upper
    }
}

/// A meter's days, dense over the bill's span.
fn dense(days: &std::collections::BTreeMap<i64, Day>, (first, last): (i64, i64)) -> Vec<Day> {
    (first..=last)
        .map(|d| days.get(&d).copied().unwrap_or_default())
        .collect()
}

/// What a day is set against.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Baseline<'a> {
    /// The median of the meter's own `window` days before.
    Trailing,
    /// The workload's estimate, a day: a meter it lacks is expected at 0; every day of the
    /// bill is checked.
    Expected(&'a std::collections::BTreeMap<Meter, Decimal>),
}

/// The departures of every meter, by day, then meter; against its own trailing days, or
/// against the workload's estimate.
#[must_use]
pub(crate) fn departures(daily: &Daily, rule: &Rule, baseline: Baseline<'_>) -> Vec<Departure> {
    let Some(span) = daily.span else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (meter, days) in &daily.series {
        let d = dense(days, span);
        let expected = match baseline {
            Baseline::Trailing => None,
            Baseline::Expected(m) => Some(m.get(meter).copied().unwrap_or_default()),
        };
        let storage = daily
            .components
            .get(meter)
            .is_some_and(|c| crate::bill::map::billed_as(*c) == Component::Storage);
        // What is kept grows as a ramp, not in steps: against a workload it is reported once.
        let mut found = of_meter(meter, &d, span.0, rule, (expected, !storage));
        if expected.is_none() && storage {
            let grows = growth(meter, &d, span.0, rule);
            // The level departures a growth causes are the growth, said once.
            found.retain(|l| {
                !grows.iter().any(|g| {
                    l.day >= g.day && (l.excess > Decimal::ZERO) == (g.excess > Decimal::ZERO)
                })
            });
            found.extend(grows);
        }
        out.extend(found);
    }
    out.sort_by(|a, b| a.day.cmp(&b.day).then_with(|| a.meter.cmp(&b.meter)));
    out
}

/// Whether day `i` departs from its baseline (`expected` a day, else its trailing median),
/// and which way (the baseline with it).
fn departs(d: &[Day], i: usize, rule: &Rule, expected: Option<Decimal>) -> Option<(bool, Decimal)> {
    let base = match expected {
        Some(e) => e,
        None => {
            let from = i.checked_sub(rule.window)?;
            median(d.get(from..i)?.iter().map(|x| x.cost).collect())
        }
    };
    let cost = d.get(i)?.cost;
    let dev = cost.checked_sub(base)?;
    let threshold = base.abs().checked_mul(rule.relative)?.max(rule.floor);
    (dev.abs() >= threshold && !dev.is_zero()).then_some((dev > Decimal::ZERO, base))
}

fn of_meter(
    meter: &Meter,
    d: &[Day],
    first_day: i64,
    rule: &Rule,
    (expected, restep): (Option<Decimal>, bool),
) -> Vec<Departure> {
    let mut out: Vec<Departure> = Vec::new();
    let mut was = false;
    let start = if expected.is_some() { 0 } else { rule.window };
    for i in start..d.len() {
        let Some((mut up, mut base)) = departs(d, i, rule, expected) else {
            was = false;
            continue;
        };
        // What the day is set against: the baseline, or — against a workload, whose baseline
        // never moves — the new rate of the step under way, when the meter steps again.
        let mut against = expected;
        if was {
            let Some(again) = step_again(d, i, rule, expected.filter(|_| restep), out.last())
            else {
                continue;
            };
            (up, base, against) = again;
        }
        was = true;
        let next: Vec<Option<bool>> = (1..=2)
            .map(|k| {
                let j = i.checked_add(k)?;
                (j < d.len()).then(|| departs(d, j, rule, against).is_some_and(|(u, _)| u == up))
            })
            .collect();
        let shape = if next.iter().any(Option::is_none) {
            Shape::Recent
        } else if next.iter().all(|x| *x == Some(true)) {
            Shape::Step
        } else {
            Shape::Spike
        };
        let new_days: Vec<Day> = match shape {
            Shape::Spike => d.get(i..=i).unwrap_or_default().to_vec(),
            _ => d
                .get(i..d.len().min(i.saturating_add(3)))
                .unwrap_or_default()
                .to_vec(),
        };
        let after = median(new_days.iter().map(|x| x.cost).collect());
        let window = d.get(i.saturating_sub(rule.window)..i).unwrap_or_default();
        let mechanism = mechanism(window, &new_days, base, after, rule);
        let excess = after.checked_sub(base).unwrap_or_default();
        let per_month = (shape != Shape::Spike)
            .then(|| excess.checked_mul(rule.month_days))
            .flatten();
        out.push(Departure {
            meter: meter.clone(),
            day: first_day.saturating_add(i64::try_from(i).unwrap_or(i64::MAX)),
            shape,
            before: base,
            after,
            per_month,
            excess,
            mechanism,
        });
    }
    out
}

/// Against a workload, a step under way that steps again — three days running off its own
/// new rate, the same way — is a departure of its own, set against that rate: which way,
/// the rate, and the rate as what the days are set against (`expected`: `None` when not
/// set against a workload, or the meter is not re-stepped).
fn step_again(
    d: &[Day],
    i: usize,
    rule: &Rule,
    expected: Option<Decimal>,
    last: Option<&Departure>,
) -> Option<(bool, Decimal, Option<Decimal>)> {
    expected?;
    let last = last.filter(|l| l.shape == Shape::Step)?;
    let level = Some(last.after);
    let (up, base) = departs(d, i, rule, level)?;
    let sustained = (1..=2).all(|k| {
        i.checked_add(k)
            .and_then(|j| departs(d, j, rule, level))
            .is_some_and(|(u, _)| u == up)
    });
    sustained.then_some((up, base, level))
}

/// Whether a storage meter's growth on day `j` of `g` (its growths a day) departs from the
/// median growth of the window before, and which way (the baseline with it): by `relative`
/// of the baseline and by `floor` a day after a month of it.
fn growth_departs(g: &[Day], j: usize, rule: &Rule) -> Option<(bool, Decimal)> {
    let from = j.checked_sub(rule.window)?;
    let base = median(g.get(from..j)?.iter().map(|x| x.cost).collect());
    let dev = g.get(j)?.cost.checked_sub(base)?;
    let month = dev.abs().checked_mul(rule.month_days)?;
    let threshold = base
        .abs()
        .checked_mul(rule.month_days)?
        .checked_mul(rule.relative)?
        .max(rule.floor);
    (month >= threshold && !dev.is_zero()).then_some((dev > Decimal::ZERO, base))
}

/// A storage meter's growth departures: three days running that grow faster (or slower)
/// than the window's median growth, reported on the first.
fn growth(meter: &Meter, d: &[Day], first_day: i64, rule: &Rule) -> Vec<Departure> {
    let mut g = Vec::with_capacity(d.len());
    for w in d.windows(2) {
        let (Some(a), Some(b)) = (w.first(), w.get(1)) else {
            continue;
        };
        let (Some(amount), Some(cost)) =
            (b.amount.checked_sub(a.amount), b.cost.checked_sub(a.cost))
        else {
            return Vec::new();
        };
        g.push(Day { amount, cost });
    }
    let mut out = Vec::new();
    let mut was = false;
    for j in rule.window..g.len() {
        let Some((up, base)) = growth_departs(&g, j, rule) else {
            was = false;
            continue;
        };
        if was {
            continue;
        }
        let sustained = (1..=2).all(|k| {
            j.checked_add(k)
                .and_then(|n| growth_departs(&g, n, rule))
                .is_some_and(|(u, _)| u == up)
        });
        if !sustained {
            // A day's jump, or too recent to tell: the level's rule judges it.
            continue;
        }
        was = true;
        let new = g.get(j..j.saturating_add(3)).unwrap_or_default();
        let window = g.get(j.saturating_sub(rule.window)..j).unwrap_or_default();
        let after = median(new.iter().map(|x| x.cost).collect());
        let excess = after.checked_sub(base).unwrap_or_default();
        out.push(Departure {
            meter: meter.clone(),
            // g[j] is day j + 1 less day j.
            day: first_day
                .saturating_add(i64::try_from(j).unwrap_or(i64::MAX))
                .saturating_add(1),
            shape: Shape::Growth,
            before: base,
            after,
            per_month: excess
                .checked_mul(rule.month_days)
                .and_then(|m| m.checked_mul(rule.month_days)),
            excess,
            mechanism: Mechanism::Growth {
                before: median(window.iter().map(|x| x.amount).collect()),
                after: median(new.iter().map(|x| x.amount).collect()),
            },
        });
    }
    out
}

/// The cost a unit over `days` (`None`: no units).
fn unit_price(days: &[Day]) -> Option<Decimal> {
    let (amount, cost) = days
        .iter()
        .fold((Decimal::ZERO, Decimal::ZERO), |(a, c), d| {
            (a.saturating_add(d.amount), c.saturating_add(d.cost))
        });
    (!amount.is_zero())
        .then(|| cost.checked_div(amount))
        .flatten()
}

fn mechanism(
    window: &[Day],
    new: &[Day],
    before: Decimal,
    after: Decimal,
    rule: &Rule,
) -> Mechanism {
    if window.is_empty() {
        return Mechanism::FromTheStart;
    }
    if window.iter().all(|d| d.cost.is_zero()) && !after.is_zero() {
        return Mechanism::Began;
    }
    if before.is_zero() {
        // Set against a workload that lacks the meter, billed before too.
        return Mechanism::FromTheStart;
    }
    if after.is_zero() {
        return Mechanism::Stopped;
    }
    let units_before = median(window.iter().map(|x| x.amount).collect());
    let units_after = median(new.iter().map(|x| x.amount).collect());
    let moved = |a: Decimal, b: Decimal| {
        let dev = b.saturating_sub(a).abs();
        dev > a.abs().saturating_mul(rule.relative)
    };
    if !moved(units_before, units_after)
        && let (Some(pb), Some(pa)) = (unit_price(window), unit_price(new))
        && moved(pb, pa)
    {
        return Mechanism::Price {
            before: pb,
            after: pa,
        };
    }
    Mechanism::Units {
        before: units_before,
        after: units_after,
    }
}
