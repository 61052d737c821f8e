//! `ddbcost usage`: CloudWatch's measured consumption read (`cloudwatch`), one curve per
//! table, GSI and dimension over the window measured (a period without a point — CloudWatch
//! writes none when nothing was consumed — is counted as a gap and taken as 0, and said), and
//! the capacity decision on it (`engine::measured`): on demand, auto scaling simulated step
//! by step, fixed at the peak, and the current capacity where measured, per month; then the
//! verdict by the seeds' rule. `usage query` writes the fetch (`cloudwatch::query`).

use std::collections::{BTreeMap, HashMap};

use rust_decimal::Decimal;

use super::config::Run;
use super::pricing::Pricing;
use crate::cli::{UsageAction, UsageArgs, UsageQueryArgs};
use crate::cloudwatch::{self, Key, Metric, Reading};
use crate::engine::measured::{DimensionDecision, DimensionPrices, Measured, decide};
use crate::engine::simulate::{Curve, Policy};
use crate::error::Error;
use crate::model::{Capacity, CapacityMode, PriceKey, TableClass, Workload};
use crate::report::usage::{Dimension, Report, TableReport};
use crate::{load, output, report};

pub(super) fn run(args: &UsageArgs, run: &Run) -> Result<(), Error> {
    if let Some(UsageAction::Query(q)) = &args.action {
        return query(q, run);
    }
    // The arguments that need no input, typed first.
    let target = load::quantity::parse_share(&args.target)
        .ok()
        .filter(|t| *t > Decimal::ZERO)
        .ok_or_else(|| {
            Error::usage(format!(
                "--target `{}` is not a share in (0, 100 %]",
                args.target
            ))
            .help("Consider `--target 70%` (DynamoDB's default), between 20 % and 90 %.")
        })?;
    let mut queries = HashMap::new();
    for f in &args.queries {
        let text = load::read_input(f, load::InputKind::Template)?;
        queries.extend(cloudwatch::metric_data::queries(&text, f)?);
    }
    let mut reading = Reading::default();
    for f in &args.inputs {
        let text = load::read_input(f, load::InputKind::Template)?;
        if text.trim_start().starts_with('{') {
            cloudwatch::metric_data::read(&text, f, &queries, &mut reading)?;
        } else if text
            .trim_start()
            .to_ascii_lowercase()
            .starts_with("timestamp")
        {
            cloudwatch::csv::read(&text, f, &mut reading)?;
        } else {
            return Err(Error::input("neither `get-metric-data` output nor a CSV of metrics")
                .file(f.as_str())
                .help("Consider the files the script of `ddbcost usage query` writes, or a CSV with `timestamp,table,index,metric,statistic,value`."));
        }
    }
    reading.finish()?;
    for w in &reading.warnings {
        run.diagnostics.once("warning", w);
    }
    let workload = match &args.workload {
        Some(file) => {
            let text = load::read_file(file)?;
            Some((
                load::parse_workload_at(&text, file, file, &run.samples)?.0,
                file.clone(),
            ))
        }
        None => None,
    };
    let (pricing, book) = match &workload {
        Some((w, file)) => {
            let pricing = Pricing::defaults(args.prices.clone(), &[], run);
            let book = pricing.book(w, file)?;
            (pricing, book)
        }
        None => {
            let id = args
                .prices
                .clone()
                .unwrap_or_else(|| "aws-us-east-1".to_string());
            let pricing = Pricing::defaults(Some(id), &[], run);
            let book = pricing.book(&Workload::default(), "usage")?;
            (pricing, book)
        }
    };
    let settings = pricing.settings(&load::SettingsOverrides::default());
    let report = analyse(
        &reading,
        workload.as_ref().map(|(w, _)| w),
        &book,
        target,
        settings.month_hours,
    )?;
    let text = match args.format {
        crate::cli::UsageFormat::Table => report::usage::table(&report),
        crate::cli::UsageFormat::Markdown => report::usage::markdown(&report),
        crate::cli::UsageFormat::Json => report::usage::json(&report),
    };
    output::emit(args.output.as_deref(), &text)
}

/// The tables' curves and decisions.
fn analyse(
    reading: &Reading,
    workload: Option<&Workload>,
    book: &crate::model::PriceBook,
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
            })
            .dimensions
            .push(Dimension {
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
    Ok((start, end, period))
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
    book: &crate::model::PriceBook,
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

fn query(q: &UsageQueryArgs, run: &Run) -> Result<(), Error> {
    let mut targets: Vec<(String, Option<String>)> =
        q.tables.iter().map(|t| (t.clone(), None)).collect();
    for g in &q.gsis {
        let (t, i) = g
            .split_once(':')
            .filter(|(t, i)| !t.is_empty() && !i.is_empty())
            .ok_or_else(|| {
                Error::usage(format!("--gsi `{g}`: expected TABLE:INDEX"))
                    .help("Consider `--gsi orders:by-status`.")
            })?;
        targets.push((t.to_string(), Some(i.to_string())));
    }
    let end_day = match &q.end {
        Some(d) => crate::model::period::parse_date(d).ok_or_else(|| {
            Error::usage(format!("--end `{d}` is not a date"))
                .help("Consider `--end 2026-12-01` (the window ends at its first second, UTC).")
        })?,
        None => run.today,
    };
    let script = cloudwatch::query::script(
        &targets,
        q.days,
        q.period,
        end_day.saturating_mul(86_400),
        q.region.as_deref(),
    )
    .map_err(|why| Error::usage(why).help("Consider `--period 60 --days 14` for a fortnight of minutes, or `--period 300 --days 60`."))?;
    output::emit(q.output.as_deref(), &script)
}
