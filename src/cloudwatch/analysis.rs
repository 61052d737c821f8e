//! From what was read to the decision: each text detected and read (`get-metric-data`
//! pages, CSV), one curve per table, GSI and dimension over the window measured (a period
//! without a point — CloudWatch writes none when nothing was consumed — is a gap, taken as
//! 0 and counted), and the capacity decision on it (`engine::measured`) with the workload's
//! class, region and policy. Pure: the texts come in, the report's data goes out.

use std::collections::{BTreeMap, HashMap};

use rust_decimal::Decimal;

use super::{Key, Metric, Reading};
use crate::engine::measured::{DimensionDecision, DimensionPrices, Measured, decide};
use crate::engine::simulate::{Curve, Policy};
use crate::error::Error;
use crate::model::{Capacity, CapacityMode, PriceBook, PriceKey, TableClass, Workload};

pub(crate) struct Dimension {
    pub(crate) index: Option<String>,
    pub(crate) writes: bool,
    /// Points present, of `steps` in the window.
    pub(crate) points: usize,
    pub(crate) steps: usize,
    pub(crate) policy: Policy,
    pub(crate) decision: DimensionDecision,
}

pub(crate) struct TableReport {
    pub(crate) name: String,
    pub(crate) dimensions: Vec<Dimension>,
    /// Units consumed (reads and writes, the table's and its GSIs') in each hour of the week
    /// (0 = Monday 00:00 UTC), and whether any period of that hour was measured.
    pub(crate) week: Vec<(Decimal, bool)>,
}

/// The most periods a window may span (two years of minutes; 455 days of hours is 10,920):
/// every step of every curve is held, so a stray timestamp must not ask for gigabytes.
const MAX_STEPS: i64 = 1_051_200;
/// The most steps simulated in one run, over all curves (a month of minutes for 2,300 curves:
/// about a minute of work on this machine's core).
const MAX_CELLS: usize = 100_000_000;

/// Hours in a week; the Unix epoch began on a Thursday (hour 72 of a week from Monday).
const WEEK_HOURS: usize = 168;
const EPOCH_HOUR_OF_WEEK: i64 = 72;

/// Adds a curve's consumption to its table's hours of the week: every step of the window
/// covers its hour.
fn add_week(week: &mut [(Decimal, bool)], demand: &[Decimal], start: i64, period: u32) {
    for (i, d) in demand.iter().enumerate() {
        let t = start.saturating_add(
            i64::try_from(i)
                .unwrap_or(i64::MAX)
                .saturating_mul(i64::from(period)),
        );
        if let Some(slot) = week.get_mut(hour_of_week(t)) {
            slot.0 = slot
                .0
                .checked_add(d.checked_mul(Decimal::from(period)).unwrap_or(Decimal::MAX))
                .unwrap_or(Decimal::MAX);
            slot.1 = true;
        }
    }
}

/// The hour of the week (from Monday 00:00 UTC) of Unix second `t`.
fn hour_of_week(t: i64) -> usize {
    let hour = t.div_euclid(3_600).saturating_add(EPOCH_HOUR_OF_WEEK);
    usize::try_from(hour.rem_euclid(168)).unwrap_or(0)
}

pub(crate) struct Report {
    pub(crate) currency: String,
    pub(crate) price_table: String,
    pub(crate) start: i64,
    pub(crate) end: i64,
    pub(crate) period: u32,
    pub(crate) month_hours: Decimal,
    pub(crate) points_read: u64,
    pub(crate) points_used: u64,
    pub(crate) duplicated: u64,
    pub(crate) dropped: u64,
    pub(crate) tables: Vec<TableReport>,
    /// A result not `Complete`, said once each.
    pub(crate) warnings: Vec<String>,
    /// The other metrics measured (throttle events, returned items, TTL deletions): per
    /// table, index and metric, Σ of its `Sum` points over the window.
    pub(crate) counts: Vec<(Key, Decimal)>,
}

/// Reads every `(file, text)`: `get-metric-data` output (named by its labels or `queries`)
/// or CSV.
///
/// # Errors
/// A text that is neither; what each reader refuses.
pub(crate) fn read_all(
    inputs: &[(String, String)],
    queries: &[(String, String)],
) -> Result<Reading, Error> {
    let mut named = HashMap::new();
    for (f, text) in queries {
        named.extend(super::metric_data::queries(text, f)?);
    }
    let mut reading = Reading::default();
    for (f, text) in inputs {
        if super::statistics::is_statistics(text) {
            // Named `TABLE=FILE` or `TABLE:INDEX=FILE`: the output names no table.
            let Some((target, file)) = f.split_once('=') else {
                return Err(
                    Error::input("`get-metric-statistics` output names no table")
                        .file(f.as_str())
                        .help(
                            "Consider giving it as `TABLE=FILE` (or `TABLE:INDEX=FILE` for a GSI).",
                        ),
                );
            };
            let (table, index) = match target.split_once(':') {
                Some((t, i)) => (t, Some(i)),
                None => (target, None),
            };
            super::statistics::read(text, file, (table, index), &mut reading)?;
        } else if text.trim_start().starts_with('{') {
            super::metric_data::read(text, f, &named, &mut reading)?;
        } else if text
            .trim_start()
            .to_ascii_lowercase()
            .starts_with("timestamp")
        {
            super::csv::read(text, f, &mut reading)?;
        } else {
            return Err(Error::input("neither `get-metric-data` output nor a CSV of metrics")
                .file(f.as_str())
                .help("Consider the files the script of `ddbcost usage query` writes, or a CSV with `timestamp,table,index,metric,statistic,value`."));
        }
    }
    reading.finish()?;
    Ok(reading)
}

/// The tables' curves and decisions.
pub(crate) fn analyse(
    reading: &Reading,
    workload: Option<&Workload>,
    book: &PriceBook,
    target: Decimal,
    month_hours: Decimal,
) -> Result<Report, Error> {
    let consumed = |m: Metric| matches!(m, Metric::ConsumedRead | Metric::ConsumedWrite);
    let (start, end, period) = window(reading)?;
    let steps = usize::try_from(
        end.saturating_sub(start)
            .checked_div(i64::from(period))
            .unwrap_or(0),
    )
    .unwrap_or(0);
    // Every curve is simulated over every step of the window: bound the work, not only one
    // curve's length (many short series far apart would ask for hours).
    let curves = reading.series.keys().filter(|k| consumed(k.metric)).count();
    let cells = curves.saturating_mul(steps);
    if cells > MAX_CELLS {
        return Err(Error::input(format!(
            "{curves} consumed series over a window of {steps} periods: {cells} steps to simulate, more than {MAX_CELLS}"
        ))
        .help("Consider splitting the tables into shards, one `ddbcost usage` run each (tables are independent), or a shorter window."));
    }
    let mut tables: BTreeMap<String, TableReport> = BTreeMap::new();
    for (k, s) in &reading.series {
        if !consumed(k.metric) {
            continue;
        }
        if s.statistic != "Sum" {
            return Err(Error::input(format!(
                "{} of table `{}` is read as {}: the consumed units of a period are its Sum",
                k.metric.name(),
                k.table,
                s.statistic
            ))
            .help(
                "Consider `Stat: Sum` for consumed capacity (`ddbcost usage query` writes it).",
            ));
        }
        let (class, policy) = table_facts(workload, k, target)?;
        let mut demand = vec![Decimal::ZERO; steps];
        let mut present = 0usize;
        for (t, v) in &s.points {
            let i = usize::try_from(
                t.saturating_sub(start)
                    .checked_div(i64::from(period))
                    .unwrap_or(-1),
            )
            .unwrap_or(usize::MAX);
            if let Some(slot) = demand.get_mut(i) {
                *slot = v
                    .checked_div(Decimal::from(period))
                    .ok_or_else(|| Error::input("a consumed value too large to compute"))?;
                present = present.saturating_add(1);
            }
        }
        let provisioned_metric = if k.metric == Metric::ConsumedRead {
            Metric::ProvisionedRead
        } else {
            Metric::ProvisionedWrite
        };
        let provisioned = reading
            .series
            .get(&Key {
                metric: provisioned_metric,
                ..k.clone()
            })
            .map(|p| dense(&p.points, start, period, steps));
        let prices = prices(book, workload, k, class)?;
        let d: DimensionDecision = decide(Measured {
            curve: Curve {
                start,
                period,
                demand: &demand,
                initial: provisioned.as_ref().and_then(|p| p.first().copied()),
            },
            provisioned: provisioned.as_deref(),
            policy,
            prices,
            month_hours,
        })
        .map_err(Error::from)?;
        tables
            .entry(k.table.clone())
            .or_insert_with(|| TableReport {
                name: k.table.clone(),
                dimensions: Vec::new(),
                week: vec![(Decimal::ZERO, false); WEEK_HOURS],
            });
        let report = tables
            .get_mut(&k.table)
            .ok_or_else(|| Error::input("a table vanished"))?;
        add_week(&mut report.week, &demand, start, period);
        report.dimensions.push(Dimension {
            index: k.index.clone(),
            writes: k.metric == Metric::ConsumedWrite,
            points: present,
            steps,
            policy,
            decision: d,
        });
    }
    // Points used: the consumed series and the provisioned capacity read beside them.
    let used: u64 = reading
        .series
        .iter()
        .filter(|(k, _)| {
            consumed(k.metric)
                || matches!(k.metric, Metric::ProvisionedRead | Metric::ProvisionedWrite)
        })
        .map(|(_, s)| s.points.len() as u64)
        .sum();
    Ok(Report {
        currency: book.primary.currency.clone(),
        price_table: book.primary.id.clone(),
        start,
        end,
        period,
        month_hours,
        points_read: reading.points_read,
        points_used: used,
        duplicated: reading.duplicated,
        dropped: reading.points_used().saturating_sub(used),
        tables: tables.into_values().collect(),
        warnings: reading.warnings.clone(),
        counts: counts(reading),
    })
}

/// The window analysed: every consumed series' first point to the last one's end, and their
/// one period.
fn window(reading: &Reading) -> Result<(i64, i64, u32), Error> {
    let consumed = |m: Metric| matches!(m, Metric::ConsumedRead | Metric::ConsumedWrite);
    // The window: every consumed series' first point to the last one's end.
    let mut start = i64::MAX;
    let mut end = i64::MIN;
    let mut period = 0u32;
    for (k, s) in &reading.series {
        if !consumed(k.metric) {
            continue;
        }
        if period != 0 && s.period != period {
            return Err(Error::input(format!(
                "{} of table `{}` is every {} s, other consumed series every {period} s: one period for the analysis",
                k.metric.name(),
                k.table,
                s.period
            ))
            .help("Consider fetching every series at one `--period`."));
        }
        period = s.period;
        if let (Some(f), Some(l)) = (s.points.first(), s.points.last()) {
            start = start.min(f.0);
            end = end.max(l.0.saturating_add(i64::from(s.period)));
        }
    }
    if period == 0 || start >= end {
        return Err(Error::input(
            "no ConsumedReadCapacityUnits or ConsumedWriteCapacityUnits points to analyse",
        )
        .help("Consider fetching the consumed metrics (`ddbcost usage query` asks for them)."));
    }
    let span = end
        .saturating_sub(start)
        .checked_div(i64::from(period))
        .unwrap_or(0);
    if span > MAX_STEPS {
        return Err(Error::input(format!(
            "the window spans {span} periods of {period} s ({} to {}): more than {MAX_STEPS}",
            super::timestamp(start),
            super::timestamp(end)
        ))
        .help("Consider a timestamp out of place (a year typed wrong), or analysing the months one run at a time."));
    }
    Ok((start, end, period))
}

/// The other metrics measured (throttle events, returned items, TTL deletions), each summed.
fn counts(reading: &Reading) -> Vec<(Key, Decimal)> {
    reading
        .series
        .iter()
        .filter(|(k, s)| {
            s.statistic == "Sum"
                && matches!(
                    k.metric,
                    Metric::ReadThrottleEvents
                        | Metric::WriteThrottleEvents
                        | Metric::ReturnedItemCount
                        | Metric::TimeToLiveDeletedItemCount
                )
        })
        .map(|(k, s)| {
            let total = s.points.iter().fold(Decimal::ZERO, |a, (_, v)| {
                a.checked_add(*v).unwrap_or(Decimal::MAX)
            });
            (k.clone(), total)
        })
        .collect()
}

/// Points on the window's grid, each carried forward over a missing period.
fn dense(points: &[(i64, Decimal)], start: i64, period: u32, steps: usize) -> Vec<Decimal> {
    let mut out = vec![Decimal::ZERO; steps];
    let mut last = points.first().map_or(Decimal::ZERO, |p| p.1);
    let mut it = points.iter().peekable();
    for (i, slot) in out.iter_mut().enumerate() {
        let t = start.saturating_add(
            i64::try_from(i)
                .unwrap_or(i64::MAX)
                .saturating_mul(i64::from(period)),
        );
        while let Some((pt, v)) = it.peek() {
            if *pt > t {
                break;
            }
            last = *v;
            it.next();
        }
        *slot = last;
    }
    out
}

/// A measured table's class and the auto-scaling policy of the dimension measured: the
/// workload's (which must describe the table and its GSI), else `--target` within 1–40,000.
fn table_facts(
    workload: Option<&Workload>,
    k: &Key,
    target: Decimal,
) -> Result<(TableClass, Policy), Error> {
    let default = Policy {
        target,
        min: Decimal::ONE,
        max: Decimal::from(40_000),
    };
    let Some(w) = workload else {
        return Ok((TableClass::Standard, default));
    };
    let t = w.tables.iter().find(|t| t.name == k.table).ok_or_else(|| {
        Error::input(format!("table `{}` is measured, and the workload does not describe it", k.table))
            .help("Consider `ddbcost import` of its describe-table into the workload, or leaving its metrics out.")
    })?;
    let capacity = match &k.index {
        None => match t.capacity {
            CapacityMode::Provisioned(c) => Some(c),
            CapacityMode::OnDemand => None,
        },
        Some(i) => {
            let index = t.indexes.iter().find(|x| &x.name == i).ok_or_else(|| {
                Error::input(format!(
                    "index `{i}` of table `{}` is measured, and the workload does not describe it",
                    k.table
                ))
                .help("Consider importing the table's describe-table again: it lists its GSIs.")
            })?;
            index.capacity.or(match t.capacity {
                CapacityMode::Provisioned(c) => Some(c),
                CapacityMode::OnDemand => None,
            })
        }
    };
    let dim = capacity.map(|c| {
        if k.metric == Metric::ConsumedWrite {
            c.write
        } else {
            c.read
        }
    });
    let policy = match dim {
        Some(Capacity::AutoScaling { target, min, max }) => Policy { target, min, max },
        _ => default,
    };
    Ok((t.class, policy))
}

/// The request and unit-hour prices of a dimension, in the table's region.
fn prices(
    book: &PriceBook,
    workload: Option<&Workload>,
    k: &Key,
    class: TableClass,
) -> Result<DimensionPrices, Error> {
    let region = workload
        .and_then(|w| w.tables.iter().find(|t| t.name == k.table))
        .and_then(|t| t.region.clone())
        .unwrap_or_else(|| book.primary.region.clone());
    let table = book.region(&region).ok_or_else(|| {
        Error::input(format!("no price table for region `{region}`, where table `{}` is", k.table))
            .help("Consider `--prices aws-REGION`, or importing that region's prices (`ddbcost prices import`).")
    })?;
    let (request, hour) = if k.metric == Metric::ConsumedWrite {
        (PriceKey::WritePerMillion(class), PriceKey::WcuHour(class))
    } else {
        (PriceKey::ReadPerMillion(class), PriceKey::RcuHour(class))
    };
    let get = |key: &PriceKey| {
        table.get(key).ok_or_else(|| {
            Error::input(format!("price `{}` is not in price table `{}`", key.path(), table.id))
                .help("Consider another price table with `--prices`, or importing the region's prices (`ddbcost prices import`).")
        })
    };
    Ok(DimensionPrices {
        per_million: get(&request)?,
        unit_hour: get(&hour)?,
    })
}
