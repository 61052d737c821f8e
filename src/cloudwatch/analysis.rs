//! From what was read to the decision: each text detected and read (`get-metric-data`
//! pages, CSV), one curve per table, GSI and dimension over the window measured (a period
//! without a point — CloudWatch writes none when nothing was consumed — is a gap, taken as
//! 0 and counted), and the capacity decision on it (`engine::measured`) with the workload's
//! class, region and policy. Pure: the texts come in, the report's data goes out.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use rust_decimal::Decimal;

use super::input::Input;
use super::points::Points;
use super::{Hold, Key, Metric, Reading, timestamp};
use crate::engine::measured::{
    DimensionDecision, DimensionPrices, Measured, Setting, Today, decide,
};
use crate::engine::simulate::{Curve, Policy};
use crate::engine::verdict::{TableVerdict, decide_table};
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
    /// The verdict on the table (`engine::verdict`), its plans in `dimensions`' order.
    pub(crate) verdict: TableVerdict,
    /// Every dimension of the table and its GSIs as the workload states it (GSI, writes,
    /// setting), measured or not: what a command must restate for what was not measured.
    pub(crate) stated: Vec<(Option<String>, bool, Setting)>,
    /// GSIs whose writes were measured and whose reads were measured as none over the window
    /// (a read series of zeros, or one asked for that came back empty).
    pub(crate) unread: Vec<String>,
    /// GSIs the workload describes that have no metric at all: they keep the workload's own
    /// figures and are in no verdict.
    pub(crate) unmeasured: Vec<String>,
    /// What the measured GSIs could save (with `--workload`; set by the command).
    pub(crate) index_findings: Vec<IndexFinding>,
}

/// What a measured GSI could save, priced on the measured workload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum IndexFinding {
    /// Never read in the window: deleting it saves its writes (measured, so with the table's
    /// amplification), its read capacity where provisioned, and its storage.
    Delete {
        index: String,
        writes: Decimal,
        reads: Decimal,
        storage: Option<Decimal>,
    },
    /// Read only for what its patterns state (`reads_attributes`): `advise`'s narrower
    /// projection, priced on the measured workload (its measured index units scaled by what
    /// the patterns derive after ÷ before).
    Project {
        index: String,
        what: String,
        saving: Decimal,
    },
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

/// Adds a curve's consumption (the units of each step) to its table's hours of the week:
/// every step of the window covers its hour.
fn add_week(week: &mut [(Decimal, bool)], units: &[Decimal], start: i64, period: u32) {
    for (i, u) in units.iter().enumerate() {
        let t = start.saturating_add(
            i64::try_from(i)
                .unwrap_or(i64::MAX)
                .saturating_mul(i64::from(period)),
        );
        if let Some(slot) = week.get_mut(hour_of_week(t)) {
            slot.0 = slot.0.checked_add(*u).unwrap_or(Decimal::MAX);
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
    /// The conversion every price was shown in (`--currency`), described.
    pub(crate) fx: Option<String>,
    pub(crate) start: i64,
    pub(crate) end: i64,
    pub(crate) period: u32,
    pub(crate) month_hours: Decimal,
    pub(crate) points_read: u64,
    pub(crate) points_used: u64,
    pub(crate) duplicated: u64,
    pub(crate) dropped: u64,
    /// Passes over the inputs: 1 when every point was held at once, else 1 + the shards.
    pub(crate) passes: u32,
    /// The most points held at once.
    pub(crate) held: u64,
    /// The auto-scaling target of a dimension without a policy of its own.
    pub(crate) target: Decimal,
    /// The commitment search on the measured workload as the verdicts decide it (with
    /// `--workload`), set by the command once the report is built.
    pub(crate) commitments: Option<Commitments>,
    pub(crate) tables: Vec<TableReport>,
    /// A result not `Complete`, said once each.
    pub(crate) warnings: Vec<String>,
    /// The other metrics measured (throttle events, returned items, TTL deletions): per
    /// table, index and metric, Σ of its `Sum` points over the window.
    pub(crate) counts: Vec<(Key, Decimal)>,
    /// What the answer lacks, when priced anyway (`--allow-partial`): said in the header.
    pub(crate) partial: Vec<String>,
}

/// The most points held in memory at once by default: 12 bytes each (`points::Points`), so
/// 4 M points is some 50 MB. A reading past it is read again in shards of tables
/// (`--max-points-held`).
pub(crate) const DEFAULT_HELD: u64 = 4_000_000;

/// Reads every input (`get-metric-data` output named by its labels or `queries`,
/// `get-metric-statistics` output for its `TABLE=`, CSV) as a stream and decides on every
/// table. The first pass holds every point while they number at most `held`; past that it
/// only surveys (series, periods, window, counts), and the tables are then read again in
/// shards of at most `held` points each (one table more than `held` is a shard alone), each
/// pass reading only the files that hold its tables; memory is bounded by `held` and the
/// largest table, never by the inputs.
///
/// # Errors
/// An input that is neither output; what each reader refuses; what `analyse` refuses.
pub(crate) fn measure(
    inputs: &[Input],
    queries: &[Input],
    held: u64,
    facts: &Facts<'_>,
) -> Result<Report, Error> {
    let mut named = HashMap::new();
    for q in queries {
        named.extend(super::input::queries(q)?);
    }
    let read = |hold: Hold, only: Option<&BTreeSet<&str>>| -> Result<Reading, Error> {
        let mut reading = Reading::new(hold);
        for input in inputs {
            if only.is_none_or(|names| names.contains(input.name.as_str())) {
                super::input::read(input, &named, &mut reading)?;
            }
        }
        reading.finish()?;
        Ok(reading)
    };
    let survey = read(Hold::All(held), None)?;
    let missing = survey.missing_pages();
    if !missing.is_empty() && !facts.allow_partial {
        return Err(Error::input(format!(
            "CloudWatch's answer is not whole: {}",
            missing.join("; ")
        ))
        .help("Consider giving every page (the AWS CLI follows NextToken itself unless `--no-paginate` or `--max-items` stopped it), or `--allow-partial` to price what was given, said as partial."));
    }
    let window = window(&survey)?;
    bound_work(&survey, window)?;
    let mut report = Report {
        currency: facts.book.primary.currency.clone(),
        price_table: facts.book.primary.id.clone(),
        fx: None,
        start: window.0,
        end: window.1,
        period: window.2,
        month_hours: facts.month_hours,
        points_read: survey.points_read,
        points_used: 0,
        duplicated: 0,
        dropped: 0,
        passes: 1,
        held,
        target: facts.target,
        commitments: None,
        tables: Vec::new(),
        warnings: survey.warnings.clone(),
        counts: Vec::new(),
        partial: missing,
    };
    report.warnings.extend(partial_windows(&survey, window));
    if !survey.overflowed {
        add_part(&mut report, analyse(&survey, window, facts)?);
        return Ok(report);
    }
    for shard in shards(&survey, held) {
        // Only the files that hold the shard's tables (the script's pages hold a few each).
        let files = survey.files_of(&shard);
        let part = analyse(&read(Hold::Tables(shard), Some(&files))?, window, facts)?;
        add_part(&mut report, part);
        report.passes = report.passes.saturating_add(1);
    }
    Ok(report)
}

/// The tables in name order, grouped into shards of at most `held` points read (a table of
/// more is a shard alone).
fn shards(survey: &Reading, held: u64) -> Vec<BTreeSet<String>> {
    let mut out: Vec<BTreeSet<String>> = Vec::new();
    let mut size = 0u64;
    for (table, n) in survey.points_per_table() {
        match out.last_mut() {
            Some(shard) if size.saturating_add(n) <= held => {
                shard.insert(table.to_string());
                size = size.saturating_add(n);
            }
            _ => {
                out.push(BTreeSet::from([table.to_string()]));
                size = n;
            }
        }
    }
    out
}

fn add_part(report: &mut Report, part: Part) {
    report.points_used = report.points_used.saturating_add(part.used);
    report.duplicated = report.duplicated.saturating_add(part.duplicated);
    report.dropped = report.dropped.saturating_add(part.dropped);
    report.tables.extend(part.tables);
    report.counts.extend(part.counts);
}

/// Reserved capacity and a savings plan sized on the measured workload: the options of the
/// existing commitment search over `months` from `start`, on the `measured-verdict`
/// scenario when one was written (else the workload as measured).
pub(crate) struct Commitments {
    pub(crate) advice: crate::engine::CommitmentAdvice,
    pub(crate) months: u32,
    pub(crate) start: (i64, u32),
    pub(crate) on_verdict: bool,
}

/// What the decision needs besides the data: the workload (class, region, policy per
/// table), the prices, the default target and the month's hours.
pub(crate) struct Facts<'a> {
    pub(crate) workload: Option<&'a Workload>,
    pub(crate) book: &'a PriceBook,
    pub(crate) target: Decimal,
    pub(crate) month_hours: Decimal,
    /// Price an answer that lacks pages (`--allow-partial`), saying so, instead of refusing.
    pub(crate) allow_partial: bool,
    /// Keep each dimension's curve hour by hour (`DimensionDecision::hourly`) for the report:
    /// only the CSV and HTML formats show it. Otherwise it is let go as each dimension is
    /// decided, so what a run holds past the points is a few hundred bytes per series.
    pub(crate) hour_by_hour: bool,
}

/// What one pass decided: its tables and what it counted.
struct Part {
    tables: Vec<TableReport>,
    used: u64,
    duplicated: u64,
    dropped: u64,
    counts: Vec<(Key, Decimal)>,
}

fn consumed(m: Metric) -> bool {
    matches!(m, Metric::ConsumedRead | Metric::ConsumedWrite)
}

/// Every curve is simulated over every step of the window: bound the work, not only one
/// curve's length (many short series far apart would ask for hours).
fn bound_work(survey: &Reading, (start, end, period): (i64, i64, u32)) -> Result<(), Error> {
    let steps = usize::try_from(
        end.saturating_sub(start)
            .checked_div(i64::from(period))
            .unwrap_or(0),
    )
    .unwrap_or(0);
    let curves = survey.series.keys().filter(|k| consumed(k.metric)).count();
    let cells = curves.saturating_mul(steps);
    if cells > MAX_CELLS {
        return Err(Error::input(format!(
            "{curves} consumed series over a window of {steps} periods: {cells} steps to simulate, more than {MAX_CELLS}"
        ))
        .help("Consider splitting the tables into shards, one `ddbcost usage` run each (tables are independent), or a shorter window."));
    }
    Ok(())
}

/// The curves and decisions of the tables whose points `reading` holds, over `window`.
fn analyse(
    reading: &Reading,
    (start, end, period): (i64, i64, u32),
    facts: &Facts<'_>,
) -> Result<Part, Error> {
    let steps = usize::try_from(
        end.saturating_sub(start)
            .checked_div(i64::from(period))
            .unwrap_or(0),
    )
    .unwrap_or(0);
    let mut tables: BTreeMap<String, TableReport> = BTreeMap::new();
    for (k, s) in &reading.series {
        if !consumed(k.metric) || s.points.is_empty() {
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
        let (class, policy, stated) = table_facts(facts.workload, k, facts.target)?;
        let (sums, present) = curve_of(&s.points, start, period, steps);
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
            .filter(|p| !p.points.is_empty())
            .map(|p| dense(&p.points, start, period, steps));
        let prices = prices(facts.book, facts.workload, k, class)?;
        let mut d: DimensionDecision = decide(Measured {
            curve: Curve {
                start,
                period,
                units: &sums,
                initial: provisioned.as_ref().and_then(|p| p.first().copied()),
                burst_seconds: crate::engine::burst::BURST_SECONDS,
            },
            today: Today {
                stated,
                measured: provisioned.as_deref(),
            },
            policy,
            prices,
            month_hours: facts.month_hours,
        })
        .map_err(Error::from)?;
        if !facts.hour_by_hour {
            d.hourly = Vec::new();
        }
        let report = match tables.entry(k.table.clone()) {
            std::collections::btree_map::Entry::Occupied(o) => o.into_mut(),
            std::collections::btree_map::Entry::Vacant(v) => v.insert(TableReport {
                name: k.table.clone(),
                dimensions: Vec::new(),
                week: vec![(Decimal::ZERO, false); WEEK_HOURS],
                // Decided again once its dimensions are all in.
                verdict: decide_table(&[]).map_err(Error::from)?,
                stated: stated_settings(facts.workload, &k.table),
                unread: Vec::new(),
                unmeasured: Vec::new(),
                index_findings: Vec::new(),
            }),
        };
        add_week(&mut report.week, &sums, start, period);
        report.dimensions.push(Dimension {
            index: k.index.clone(),
            writes: k.metric == Metric::ConsumedWrite,
            points: present,
            steps,
            policy,
            decision: d,
        });
    }
    for t in tables.values_mut() {
        t.unread = unread_gsis(reading, t);
        t.unmeasured = unmeasured_gsis(facts.workload, reading, &t.name);
        let dims: Vec<(bool, &DimensionDecision)> = t
            .dimensions
            .iter()
            .map(|d| (d.index.is_none(), &d.decision))
            .collect();
        t.verdict = decide_table(&dims).map_err(Error::from)?;
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
    Ok(Part {
        tables: tables.into_values().collect(),
        used,
        duplicated: reading.duplicated,
        dropped: reading.points_used().saturating_sub(used),
        counts: counts(reading),
    })
}

/// A consumed series on the window's grid: the Sums as measured (0 for a gap), and the
/// points present.
fn curve_of(points: &Points, start: i64, period: u32, steps: usize) -> (Vec<Decimal>, usize) {
    let mut sums = vec![Decimal::ZERO; steps];
    let mut present = 0usize;
    for (t, v) in points.iter() {
        let i = usize::try_from(
            t.saturating_sub(start)
                .checked_div(i64::from(period))
                .unwrap_or(-1),
        )
        .unwrap_or(usize::MAX);
        if let Some(sum) = sums.get_mut(i) {
            *sum = v;
            present = present.saturating_add(1);
        }
    }
    (sums, present)
}

/// The window analysed: every consumed series' first point to the last one's end, and their
/// one period.
fn window(reading: &Reading) -> Result<(i64, i64, u32), Error> {
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
        start = start.min(s.first);
        end = end.max(s.last.saturating_add(i64::from(s.period)));
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

/// Consumed series that start after the window's start or end before its end: the rest of
/// the window is taken as 0 consumed, and that is said.
fn partial_windows(reading: &Reading, (start, end, period): (i64, i64, u32)) -> Vec<String> {
    let period = i64::from(period);
    reading
        .series
        .iter()
        .filter(|(k, s)| {
            consumed(k.metric)
                && (s.first > start.saturating_add(period)
                    || s.last.saturating_add(period.saturating_mul(2)) <= end)
        })
        .map(|(k, s)| {
            format!(
                "{} of table `{}`{}: points from {} to {} only, in a window from {} to {}: the rest is taken as 0 consumed",
                k.metric.name(),
                k.table,
                k.index.as_ref().map_or_else(String::new, |i| format!(" (index `{i}`)")),
                timestamp(s.first),
                timestamp(s.last.saturating_add(period)),
                timestamp(start),
                timestamp(end)
            )
        })
        .collect()
}

/// The other metrics measured (throttle events, returned items, TTL deletions, a GSI
/// backfill's write units and throttled writes), each summed; a backfill's progress, its
/// highest point.
fn counts(reading: &Reading) -> Vec<(Key, Decimal)> {
    reading
        .series
        .iter()
        .filter(|(k, s)| {
            !s.points.is_empty()
                && s.statistic == k.metric.statistic()
                && matches!(
                    k.metric,
                    Metric::ReadThrottleEvents
                        | Metric::WriteThrottleEvents
                        | Metric::ReturnedItemCount
                        | Metric::TimeToLiveDeletedItemCount
                        | Metric::OnlineIndexConsumedWrite
                        | Metric::OnlineIndexProgress
                        | Metric::OnlineIndexThrottleEvents
                )
        })
        .map(|(k, s)| {
            let total = if k.metric == Metric::OnlineIndexProgress {
                s.points.iter().map(|(_, v)| v).max().unwrap_or_default()
            } else {
                s.points.iter().fold(Decimal::ZERO, |a, (_, v)| {
                    a.checked_add(v).unwrap_or(Decimal::MAX)
                })
            };
            (k.clone(), total)
        })
        .collect()
}

/// Points on the window's grid, each carried forward over a missing period.
fn dense(points: &Points, start: i64, period: u32, steps: usize) -> Vec<Decimal> {
    let mut out = vec![Decimal::ZERO; steps];
    let mut it = points.iter().peekable();
    let mut last = it.peek().map_or(Decimal::ZERO, |p| p.1);
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

/// A measured table's class, the auto-scaling policy of the dimension measured — the
/// workload's (which must describe the table and its GSI), else `--target` within 1–40,000 —
/// and the dimension's setting as the workload states it (`None` without a workload, or for
/// a capacity still to fill).
fn table_facts(
    workload: Option<&Workload>,
    k: &Key,
    target: Decimal,
) -> Result<(TableClass, Policy, Option<Setting>), Error> {
    let default = Policy {
        target,
        min: Decimal::ONE,
        max: Decimal::from(40_000),
    };
    let Some(w) = workload else {
        return Ok((TableClass::Standard, default, None));
    };
    let t = w.tables.iter().find(|t| *t.name == *k.table).ok_or_else(|| {
        Error::input(format!("table `{}` is measured, and the workload does not describe it", k.table))
            .help("Consider `ddbcost import` of its describe-table into the workload, or leaving its metrics out.")
    })?;
    let capacity = match &k.index {
        None => match t.capacity {
            CapacityMode::Provisioned(c) => Some(c),
            CapacityMode::OnDemand => None,
        },
        Some(i) => {
            let index = t.indexes.iter().find(|x| *x.name == **i).ok_or_else(|| {
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
    let stated = match dim {
        None => Some(Setting::OnDemand),
        Some(c) => setting_of(c),
    };
    Ok((t.class, policy, stated))
}

/// The GSIs of `t` whose writes were measured and whose reads were measured as none.
fn unread_gsis(reading: &Reading, t: &TableReport) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for d in t.dimensions.iter().filter(|d| d.writes) {
        let Some(g) = &d.index else { continue };
        let key = Key::of(&t.name, Some(g), Metric::ConsumedRead);
        let read = t
            .dimensions
            .iter()
            .find(|x| !x.writes && x.index.as_ref() == Some(g));
        let none = match read {
            Some(r) => r.decision.consumed.is_zero(),
            None => reading.empty.contains(&key),
        };
        if none && !out.contains(g) {
            out.push(g.clone());
        }
    }
    out
}

/// The GSIs the workload describes for `table` with no metric read at all.
fn unmeasured_gsis(workload: Option<&Workload>, reading: &Reading, table: &str) -> Vec<String> {
    let Some(t) = workload.and_then(|w| w.tables.iter().find(|t| *t.name == *table)) else {
        return Vec::new();
    };
    t.indexes
        .iter()
        .filter(|i| i.kind == crate::model::IndexKind::Global)
        .filter(|i| {
            !reading
                .series
                .keys()
                .chain(&reading.empty)
                .any(|k| k.table == table && k.index.as_deref() == Some(&*i.name))
        })
        .map(|i| i.name.to_string())
        .collect()
}

/// A capacity as a setting (`None`: still to fill).
fn setting_of(c: Capacity) -> Option<Setting> {
    match c {
        Capacity::Fixed(u) => Some(Setting::Fixed(u)),
        Capacity::AutoScaling { target, min, max } => {
            Some(Setting::AutoScaling(Policy { target, min, max }))
        }
        Capacity::Unknown => None,
    }
}

/// Every dimension of `table` and its GSIs as the workload states it.
fn stated_settings(
    workload: Option<&Workload>,
    table: &str,
) -> Vec<(Option<String>, bool, Setting)> {
    let Some(t) = workload.and_then(|w| w.tables.iter().find(|t| *t.name == *table)) else {
        return Vec::new();
    };
    let own = match t.capacity {
        CapacityMode::Provisioned(c) => Some(c),
        CapacityMode::OnDemand => None,
    };
    let mut out = Vec::new();
    let mut add = |index: Option<String>, c: Option<crate::model::ProvisionedCapacity>| {
        for (writes, dim) in [(false, c.map(|c| c.read)), (true, c.map(|c| c.write))] {
            let setting = match dim {
                None => Some(Setting::OnDemand),
                Some(d) => setting_of(d),
            };
            if let Some(s) = setting {
                out.push((index.clone(), writes, s));
            }
        }
    };
    add(None, own);
    for i in &t.indexes {
        if i.kind == crate::model::IndexKind::Global {
            add(Some(i.name.to_string()), i.capacity.or(own));
        }
    }
    out
}

/// The request and unit-hour prices of a dimension, in the table's region.
fn prices(
    book: &PriceBook,
    workload: Option<&Workload>,
    k: &Key,
    class: TableClass,
) -> Result<DimensionPrices, Error> {
    let stated = workload.and_then(|w| w.tables.iter().find(|t| *t.name == *k.table));
    let region = stated
        .and_then(|t| t.region.clone())
        .unwrap_or_else(|| book.primary.region.clone());
    // A global table's own writes are replicated writes in its region too (its GSIs' are
    // not): rWRU on demand, rWCU provisioned.
    let global =
        k.index.is_none() && stated.is_some_and(|t| t.replicas.iter().any(|r| **r != *region));
    let table = book.region(&region).ok_or_else(|| {
        Error::input(format!("no price table for region `{region}`, where table `{}` is", k.table))
            .help("Consider `--prices aws-REGION`, or importing that region's prices (`ddbcost prices import`).")
    })?;
    let (request, hour) = if k.metric == Metric::ConsumedWrite && global {
        (
            PriceKey::ReplicatedWritePerMillion(class),
            PriceKey::ReplicatedWcuHour(class),
        )
    } else if k.metric == Metric::ConsumedWrite {
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
