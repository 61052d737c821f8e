//! What CloudWatch measured of each table, UTC day by day — the units consumed (the table's
//! and each GSI's), the successful requests per operation (`SuccessfulRequestLatency`
//! `SampleCount`), the items queries and scans returned, the TTL deletions, a GSI's
//! backfill, the regions a replica's lag is measured to — and the DynamoDB mechanism they
//! show behind a departure of the bill: a GSI that began, items per request that jumped (a
//! query turned scan), units per request that stepped (an item past a size boundary,
//! stronger reads), more requests, TTL deletions that stopped; or nothing measured that
//! moved, said as such.
//!
//! Each measure is compared the way the bill is: the median of the departure's window days
//! against the median of its new days (the day itself for a one-day departure), moved when
//! they differ by more than the rule's share.

use std::collections::BTreeMap;

use rust_decimal::Decimal;

use super::daily::Daily;
use super::detect::{Departure, Mechanism, Rule, Shape};
use crate::cloudwatch::query::{READ_OPERATIONS, WRITE_OPERATIONS};
use crate::cloudwatch::{Key, Metric, Reading, input};
use crate::engine::Component;
use crate::error::Error;

/// The points held at most: daily or hourly points of many tables over months are far
/// fewer; minute points over a quarter of a large account are not needed here.
const MAX_POINTS: u64 = 20_000_000;

/// Per series, per day (days since 1970-01-01, UTC): the day's total of the metric's
/// statistic.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Measured {
    days: BTreeMap<Key, BTreeMap<i64, Decimal>>,
}

impl Measured {
    /// The series read.
    pub(crate) fn series(&self) -> usize {
        self.days.len()
    }

    /// The write units each GSI's backfill consumed (`OnlineIndexConsumedWriteCapacity`), per
    /// (table, GSI), over the days `from..to`.
    pub(crate) fn backfills(&self, (from, to): (i64, i64)) -> BTreeMap<(String, String), Decimal> {
        let mut out: BTreeMap<(String, String), Decimal> = BTreeMap::new();
        for (k, days) in &self.days {
            let (Metric::OnlineIndexConsumedWrite, Some(index)) = (k.metric, &k.index) else {
                continue;
            };
            let units = days
                .range(from..to)
                .fold(Decimal::ZERO, |a, (_, v)| a.saturating_add(*v));
            let e = out.entry((k.table.clone(), index.clone())).or_default();
            *e = e.saturating_add(units);
        }
        out
    }
}

/// How anomalies reads a metric.
enum Use {
    /// Not at all (provisioned capacity, throttles, a backfill's progress).
    Not,
    /// A day's total of this statistic.
    Statistic(&'static str),
    /// Only the days it was measured on (a replica's lag), by any statistic.
    Presence,
}

fn wanted(metric: Metric) -> Use {
    match metric {
        Metric::ConsumedRead
        | Metric::ConsumedWrite
        | Metric::ReturnedItemCount
        | Metric::TimeToLiveDeletedItemCount
        | Metric::OnlineIndexConsumedWrite
        | Metric::SuccessfulRequestLatency => Use::Statistic(metric.statistic()),
        Metric::ReplicationLatency => Use::Presence,
        _ => Use::Not,
    }
}

/// Reads CloudWatch files (`get-metric-data` pages, named by the labels `usage query`
/// writes or by `queries`; or the CSV of metrics) into days; the notes to say.
///
/// # Errors
/// What the CloudWatch readers refuse; a series of the wrong statistic, or at a period
/// that does not divide a day; more points than are held.
pub(crate) fn read(
    files: &[String],
    queries: Option<&str>,
) -> Result<(Measured, Vec<String>), Error> {
    let queries = match queries {
        Some(q) => input::queries(&input::Input::file(q))?,
        None => std::collections::HashMap::new(),
    };
    let inputs: Vec<input::Input> = files.iter().map(|f| input::Input::file(f)).collect();
    read_inputs(&inputs, &queries)
}

/// Reads `inputs` (files, or texts held in memory) into days; the notes to say.
///
/// # Errors
/// As `read`.
pub(crate) fn read_inputs(
    inputs: &[input::Input],
    queries: &std::collections::HashMap<String, crate::cloudwatch::metric_data::Query>,
) -> Result<(Measured, Vec<String>), Error> {
    let names = || {
        inputs
            .iter()
            .map(|i| i.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut reading = Reading::new(crate::cloudwatch::Hold::All(MAX_POINTS));
    for i in inputs {
        input::read(i, queries, &mut reading)?;
    }
    if reading.overflowed {
        return Err(Error::input(format!(
            "more than {MAX_POINTS} CloudWatch points: anomalies reads days"
        ))
        .file(names())
        .help("Consider fetching an hour or a day a point: `ddbcost usage query --period 86400 --requests`."));
    }
    reading.finish()?;
    let mut notes = reading.warnings.clone();
    notes.extend(reading.missing_pages());
    let mut measured = Measured::default();
    let mut ignored = 0u64;
    for (key, series) in &reading.series {
        let statistic = match wanted(key.metric) {
            Use::Not => {
                ignored = ignored.saturating_add(1);
                continue;
            }
            Use::Statistic(st) => Some(st),
            Use::Presence => None,
        };
        if let Some(st) = statistic
            && series.statistic != st
        {
            return Err(Error::input(format!(
                "{}: statistic {}, where anomalies adds a day's {st}",
                key.said(),
                series.statistic
            ))
            .file(names())
            .help("Consider the queries `ddbcost usage query --requests` writes."));
        }
        if series.period == 0 || 86_400u32.checked_rem(series.period) != Some(0) {
            return Err(Error::input(format!(
                "{}: points every {} s, which does not divide a day",
                key.said(),
                series.period
            ))
            .file(names())
            .help("Consider a period of 60, 300, 3,600 or 86,400 seconds."));
        }
        let days = measured.days.entry(key.clone()).or_default();
        for (t, v) in series.points.iter() {
            let d = days.entry(t.div_euclid(86_400)).or_default();
            *d = d.checked_add(v).ok_or_else(|| {
                Error::input(format!(
                    "{}: a day's sum past what a decimal holds",
                    key.said()
                ))
                .file(names())
            })?;
        }
    }
    if ignored > 0 {
        notes.push(format!(
            "{ignored} CloudWatch series of metrics anomalies does not use (provisioned capacity, throttles, a backfill's progress) left aside"
        ));
    }
    Ok((measured, notes))
}

/// The departure's days before (its window) and its new days.
fn spans(d: &Departure, rule: &Rule) -> ((i64, i64), (i64, i64)) {
    let window = i64::try_from(rule.window).unwrap_or(i64::MAX);
    let new = if d.shape == Shape::Spike { 1 } else { 3 };
    (
        (d.day.saturating_sub(window), d.day),
        (d.day, d.day.saturating_add(new)),
    )
}

/// A series' days in `from..to` (a day without a point: 0), or `None` when not measured.
fn values(m: &Measured, key: &Key, (from, to): (i64, i64)) -> Option<Vec<Decimal>> {
    let days = m.days.get(key)?;
    Some(
        (from..to)
            .map(|d| days.get(&d).copied().unwrap_or_default())
            .collect(),
    )
}

/// The sum, day by day, of the series that are measured among `keys` (`None`: none is).
fn summed(m: &Measured, keys: &[Key], span: (i64, i64)) -> Option<Vec<Decimal>> {
    let mut out: Option<Vec<Decimal>> = None;
    for k in keys {
        let Some(v) = values(m, k, span) else {
            continue;
        };
        out = Some(match out {
            None => v,
            Some(acc) => acc
                .iter()
                .zip(&v)
                .map(|(a, b)| a.saturating_add(*b))
                .collect(),
        });
    }
    out
}

fn median(v: Option<Vec<Decimal>>) -> Option<Decimal> {
    let mut v = v?;
    v.sort_unstable();
    let mid = v.len().checked_div(2)?;
    let upper = *v.get(mid)?;
    if v.len().is_multiple_of(2) {
        let lower = *v.get(mid.checked_sub(1)?)?;
        lower.checked_add(upper)?.checked_div(Decimal::TWO)
    } else {
        Some(upper)
    }
}

/// `a ÷ b` per day, over the span: Σa ÷ Σb (`None` when b is not measured or is 0).
fn ratio(a: Option<Vec<Decimal>>, b: Option<Vec<Decimal>>) -> Option<Decimal> {
    let total = |v: Vec<Decimal>| v.iter().fold(Decimal::ZERO, |s, x| s.saturating_add(*x));
    let (a, b) = (total(a?), total(b?));
    (!b.is_zero()).then(|| a.checked_div(b)).flatten()
}

/// Whether `after` differs from `before` by more than the rule's share of it.
fn moved(before: Decimal, after: Decimal, rule: &Rule) -> bool {
    after.saturating_sub(before).abs() > before.abs().saturating_mul(rule.relative)
}

/// What the bill meter bills, for the metrics that explain it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Reads,
    Writes,
    Storage,
    Replica,
}

fn side(daily: &Daily, d: &Departure) -> Option<Side> {
    match crate::bill::map::billed_as(*daily.components.get(&d.meter)?) {
        Component::Reads => Some(Side::Reads),
        Component::Writes => Some(Side::Writes),
        Component::Storage => Some(Side::Storage),
        Component::ReplicatedWrites => Some(Side::Replica),
        _ => None,
    }
}

/// Sets each departure's mechanism to what the metrics show, where they measure its table:
/// the bill's own reading (a meter that began, a price that moved) is kept where the
/// metrics add nothing to it.
pub(crate) fn explain(found: &mut [Departure], daily: &Daily, m: &Measured, rule: &Rule) {
    for d in found.iter_mut() {
        let Some(table) = d.meter.0.clone() else {
            continue;
        };
        if !m.days.keys().any(|k| k.table == table) {
            continue;
        }
        let keep = matches!(
            d.mechanism,
            Mechanism::Price { .. } | Mechanism::Stopped | Mechanism::FromTheStart
        );
        let found = match side(daily, d) {
            Some(Side::Reads) if !keep => Some(throughput(m, &table, d, rule, false)),
            Some(Side::Writes) if !keep => Some(throughput(m, &table, d, rule, true)),
            Some(Side::Storage) if !keep => Some(storage(m, &table, d, rule)),
            Some(Side::Replica) if d.mechanism == Mechanism::Began => replica(m, &table, d),
            _ => None,
        };
        if let Some(mechanism) = found {
            d.mechanism = mechanism;
        }
    }
}

/// A read or write departure: a GSI that began or stopped, items per request (a scan),
/// units per request, requests — the first that moved; else unexplained.
fn throughput(m: &Measured, table: &str, d: &Departure, rule: &Rule, writes: bool) -> Mechanism {
    let (before, after) = spans(d, rule);
    let consumed = if writes {
        Metric::ConsumedWrite
    } else {
        Metric::ConsumedRead
    };
    // A GSI whose units began (or stopped).
    let indexes: Vec<&Key> = m
        .days
        .keys()
        .filter(|k| k.table == table && k.metric == consumed && k.index.is_some())
        .collect();
    for k in indexes {
        let (b, a) = (
            median(values(m, k, before)).unwrap_or_default(),
            median(values(m, k, after)).unwrap_or_default(),
        );
        if b.is_zero() != a.is_zero() {
            let backfill = writes
                .then(|| {
                    let key = Key::of(table, k.index.as_deref(), Metric::OnlineIndexConsumedWrite);
                    summed(m, &[key], (before.0, after.1))
                })
                .flatten()
                .map(|v| v.iter().fold(Decimal::ZERO, |s, x| s.saturating_add(*x)))
                .filter(|t| !t.is_zero());
            return Mechanism::Index {
                index: k.index.clone().unwrap_or_default(),
                began: a > b,
                units: a.max(b),
                backfill,
            };
        }
    }
    let op = |o: &str, metric: Metric| Key {
        by: Some(o.to_string()),
        ..Key::of(table, None, metric)
    };
    let ops = if writes {
        &WRITE_OPERATIONS
    } else {
        &READ_OPERATIONS
    };
    let requests: Vec<Key> = ops
        .iter()
        .map(|o| op(o, Metric::SuccessfulRequestLatency))
        .collect();
    // Items a query or scan returns per request.
    if !writes {
        let scans = |s| summed(m, &[op("Scan", Metric::SuccessfulRequestLatency)], s);
        let none_before = scans(before).is_some_and(|v| v.iter().all(Decimal::is_zero));
        let some_after = scans(after).is_some_and(|v| v.iter().any(|x| !x.is_zero()));
        let per = |o: &str, s| {
            ratio(
                summed(m, &[op(o, Metric::ReturnedItemCount)], s),
                summed(m, &[op(o, Metric::SuccessfulRequestLatency)], s),
            )
        };
        if none_before && some_after {
            return Mechanism::ItemsPerRequest {
                operation: "Scan".to_string(),
                before: per("Query", before).unwrap_or_default(),
                after: per("Scan", after).unwrap_or_default(),
                scans_began: true,
            };
        }
        for o in ["Query", "Scan"] {
            if let (Some(b), Some(a)) = (per(o, before), per(o, after))
                && moved(b, a, rule)
            {
                return Mechanism::ItemsPerRequest {
                    operation: o.to_string(),
                    before: b,
                    after: a,
                    scans_began: false,
                };
            }
        }
    }
    // Units per request, then requests.
    let units = |s| summed(m, &[Key::of(table, None, consumed)], s);
    let (upr_b, upr_a) = (
        ratio(units(before), summed(m, &requests, before)),
        ratio(units(after), summed(m, &requests, after)),
    );
    if let (Some(b), Some(a)) = (upr_b, upr_a)
        && moved(b, a, rule)
    {
        return Mechanism::PerRequest {
            before: b,
            after: a,
            writes,
        };
    }
    if let (Some(b), Some(a)) = (
        median(summed(m, &requests, before)),
        median(summed(m, &requests, after)),
    ) && moved(b, a, rule)
    {
        return Mechanism::Requests {
            before: b,
            after: a,
        };
    }
    Mechanism::Unexplained
}

/// A storage departure: the TTL deletions a day that stopped or fell; else unexplained.
fn storage(m: &Measured, table: &str, d: &Departure, rule: &Rule) -> Mechanism {
    let (before, after) = spans(d, rule);
    let key = Key::of(table, None, Metric::TimeToLiveDeletedItemCount);
    if let (Some(b), Some(a)) = (
        median(values(m, &key, before)),
        median(values(m, &key, after)),
    ) && b > a
        && moved(b, a, rule)
    {
        return Mechanism::TtlStopped {
            before: b,
            after: a,
        };
    }
    Mechanism::Unexplained
}

/// A replica meter that began: the first day its lag is measured to the meter's region.
fn replica(m: &Measured, table: &str, d: &Departure) -> Option<Mechanism> {
    let key = Key {
        by: Some(d.meter.1.clone()),
        ..Key::of(table, None, Metric::ReplicationLatency)
    };
    let since = *m.days.get(&key)?.keys().next()?;
    Some(Mechanism::Replica { since })
}
