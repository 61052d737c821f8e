//! Partitions and key spread. A partition serves about 3,000 read units and 1,000 write units
//! a second and holds about 10 GB (DESIGN.md, from the DynamoDB developer guide); AWS does not
//! publish how many partitions a table has, so the counts here are minimums estimated from
//! those limits. One partition-key value always lives in one partition: adaptive capacity
//! moves throughput between partitions, but never splits a single key's traffic, so a key
//! whose busiest value takes more than a partition serves throttles while the table shows
//! low utilization. Only write sharding (N suffixes; each read of the key then takes N
//! queries), a cache for reads, or another key spreads it.

use rust_decimal::Decimal;

use std::sync::Arc;

use super::EngineError;
use super::capacity::{self, TablePlans};
use super::checked;
use super::label::IndexRef;
use super::notice::{KeyFinding, KeyReason, KeySubject, Notice};
use super::sizes::TableSizes;
use super::usage::{Metric, TableUsage};
use crate::model::CapacityKind;
use crate::model::{IndexKind, KeySpread, Settings, Table, TrafficProfile};

/// Read units a partition serves each second.
pub(super) const PARTITION_RCU: Decimal = Decimal::from_parts(3000, 0, 0, false, 0);
/// Write units a partition serves each second.
pub(super) const PARTITION_WCU: Decimal = Decimal::from_parts(1000, 0, 0, false, 0);
/// GB a partition holds.
pub(super) const PARTITION_GB: Decimal = Decimal::from_parts(10, 0, 0, false, 0);
/// The busiest value's share of a key's traffic from which the key is at risk whatever its
/// volume today (our threshold, not AWS's: that value's partition carries this share of any
/// growth).
pub(super) const CONCENTRATED_SHARE: Decimal = Decimal::from_parts(25, 0, 0, false, 2);

/// The minimum partitions one table needs, by size and by peak throughput.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TablePartitions {
    pub table: String,
    /// Table and LSI storage, where known.
    pub stored_gb: Option<Decimal>,
    /// Read and write units a second in the peak hour (or provisioned, if higher).
    pub peak_rcu: Decimal,
    pub peak_wcu: Decimal,
    /// ⌈stored GB ÷ 10⌉ (0 when the size is unknown).
    pub by_size: Decimal,
    /// ⌈peak RCU ÷ 3,000 + peak WCU ÷ 1,000⌉.
    pub by_throughput: Decimal,
}

impl TablePartitions {
    /// The larger of the two: the fewest partitions the table can have.
    #[must_use]
    pub fn minimum(&self) -> Decimal {
        self.by_size.max(self.by_throughput).max(Decimal::ONE)
    }
}

/// Partitions the throughput `(reads, writes)` a second needs: ⌈R ÷ 3,000 + W ÷ 1,000⌉,
/// computed as ⌈(R + 3·W) ÷ 3,000⌉ (one division, the same number).
fn for_throughput(reads: Decimal, writes: Decimal, context: &str) -> Result<Decimal, EngineError> {
    let write_weight = checked::div(PARTITION_RCU, PARTITION_WCU, context)?;
    Ok(checked::div(
        checked::add(reads, checked::mul(writes, write_weight, context)?, context)?,
        PARTITION_RCU,
        context,
    )?
    .ceil())
}

/// Units a second of `metric` in the peak hour: the month's total over its seconds when
/// traffic is flat (no profile anywhere on the table), else the highest hour of the profile.
fn peak(
    table: &Table,
    usage: &TableUsage,
    metric: Metric,
    observed: Option<Decimal>,
    month_hours: Decimal,
) -> Result<Decimal, EngineError> {
    let shaped = table.traffic.is_some() || table.patterns.iter().any(|p| p.traffic.is_some());
    if !shaped {
        let total = observed.unwrap_or_else(|| usage.total(metric));
        let seconds = checked::mul(month_hours, Decimal::from(3600), &table.name)?;
        return checked::div(total, seconds, &table.name);
    }
    let own_profiles = table.patterns.iter().any(|p| p.traffic.is_some());
    if let (Some(profile), true) = (&table.traffic, observed.is_some() || !own_profiles) {
        // One profile for all: the peak hour is the average times the highest multiplier.
        // Rounding a product never reverses an order, so this is exactly the highest of the
        // hourly figures `hourly_demand` would compute — one multiplication instead of 24.
        let total = observed.unwrap_or_else(|| usage.total(metric));
        let seconds = checked::mul(month_hours, Decimal::from(3600), &table.name)?;
        let average = checked::div(total, seconds, &table.name)?;
        let top = profile.hourly.iter().max().copied().unwrap_or(Decimal::ONE);
        return checked::mul(average, top, &table.name);
    }
    Ok(
        capacity::hourly_demand(table, usage, metric, observed, month_hours)?
            .into_iter()
            .max()
            .unwrap_or_default(),
    )
}

/// The peak demand on a table's key and on each index's, in units a second.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct KeyPeaks {
    /// Read and write units a second on the table's partition key at the peak hour.
    pub table: (Decimal, Decimal),
    /// Per index, in the table's order: name, kind, read and write units a second (an LSI
    /// shares the table's partition key, so its figures are the table's).
    pub indexes: Vec<(String, IndexKind, Decimal, Decimal)>,
}

/// The demand peaks of `table`'s keys (what its traffic asks at the peak hour, provisioned
/// capacity aside: a key's traffic is demand).
///
/// # Errors
/// A figure too large to compute.
pub(crate) fn key_peaks(table: &Table, settings: &Settings) -> Result<KeyPeaks, EngineError> {
    let usage = super::usage::table_usage(table, settings)?;
    let hours = settings.month_hours;
    let reads = peak(
        table,
        &usage,
        Metric::BaseReads,
        table.observed.read_units,
        hours,
    )?;
    let writes = peak(
        table,
        &usage,
        Metric::BaseWrites,
        table.observed.write_units,
        hours,
    )?;
    Ok(KeyPeaks {
        table: (reads, writes),
        indexes: index_peaks(table, &usage, (reads, writes), hours)?,
    })
}

/// Each index's peak read and write units a second: a GSI's own, an LSI's the table's
/// `table_peak` (it shares the table's partition key and partitions).
fn index_peaks(
    table: &Table,
    usage: &TableUsage,
    table_peak: (Decimal, Decimal),
    hours: Decimal,
) -> Result<Vec<(String, IndexKind, Decimal, Decimal)>, EngineError> {
    let mut out = Vec::with_capacity(table.indexes.len());
    for (pos, index) in table.indexes.iter().enumerate() {
        let (r, w) = match index.kind {
            IndexKind::Local => table_peak,
            IndexKind::Global => (
                peak(
                    table,
                    usage,
                    Metric::IndexReads(pos),
                    index.observed.read_units,
                    hours,
                )?,
                peak(
                    table,
                    usage,
                    Metric::IndexWrites(pos),
                    index.observed.write_units,
                    hours,
                )?,
            ),
        };
        out.push((index.name.to_string(), index.kind, r, w));
    }
    Ok(out)
}

/// The highest provisioned units of a plan.
fn provisioned(plan: &capacity::Plan) -> Decimal {
    plan.hourly.iter().copied().max().unwrap_or_default()
}

/// The minimum partitions `table` needs.
///
/// # Errors
/// A figure too large to compute.
pub(super) fn table_partitions(
    table: &Table,
    usage: &TableUsage,
    sizes: &TableSizes,
    plans: Option<&TablePlans>,
    settings: &Settings,
) -> Result<TablePartitions, EngineError> {
    let hours = settings.month_hours;
    let (rcu, wcu) = match plans {
        // The plans know the peak demand; provisioned capacity splits partitions whether
        // used or not.
        Some(p) => (
            p.read.peak_demand.max(provisioned(&p.read)),
            p.write.peak_demand.max(provisioned(&p.write)),
        ),
        None => (
            peak(
                table,
                usage,
                Metric::BaseReads,
                table.observed.read_units,
                hours,
            )?,
            peak(
                table,
                usage,
                Metric::BaseWrites,
                table.observed.write_units,
                hours,
            )?,
        ),
    };
    let stored_gb = sizes.table_and_lsis(table)?;
    let by_size = match stored_gb {
        Some(gb) => checked::div(gb, PARTITION_GB, &table.name)?.ceil(),
        None => Decimal::ZERO,
    };
    Ok(TablePartitions {
        table: table.name.to_string(),
        stored_gb,
        peak_rcu: rcu,
        peak_wcu: wcu,
        by_size,
        by_throughput: for_throughput(rcu, wcu, &table.name)?,
    })
}

/// The highest value of a traffic profile (1 for flat traffic).
fn profile_peak(profile: Option<&TrafficProfile>) -> Decimal {
    profile
        .and_then(|p| p.hourly.iter().copied().max())
        .unwrap_or(Decimal::ONE)
}

/// How a key fares, worst first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum KeyVerdict {
    WellSpread,
    AtRisk,
    Hot,
}

impl KeyVerdict {
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            KeyVerdict::WellSpread => "well spread",
            KeyVerdict::AtRisk => "at risk",
            KeyVerdict::Hot => "hot",
        }
    }
}

/// What the check of one key found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyAssessment {
    pub verdict: KeyVerdict,
    /// The findings, with their exact figures (none when well spread).
    pub reasons: Vec<KeyReason>,
    /// Units a second on the busiest value at the peak.
    pub busiest_rcu: Decimal,
    pub busiest_wcu: Decimal,
    /// Partitions the peak needs (⌈R ÷ 3,000 + W ÷ 1,000⌉).
    pub needed_partitions: Decimal,
    /// Fewer distinct values than `needed_partitions`.
    pub low_cardinality: bool,
    /// Write-sharding suffixes the busiest value needs (⌈busiest WCU ÷ 1,000⌉), when hot on
    /// writes.
    pub suffixes: Option<Decimal>,
}

/// Warnings for one key whose busiest value is `spread` and whose traffic peaks at `reads`
/// and `writes` units a second (see `assess_key`).
fn check(
    subject: &KeySubject,
    spread: &KeySpread,
    reads: Decimal,
    writes: Decimal,
    out: &mut Vec<Notice>,
) -> Result<(), EngineError> {
    out.extend(
        assess_key(subject, spread, reads, writes)?
            .reasons
            .into_iter()
            .map(Notice::Key),
    );
    Ok(())
}

/// Checks one key whose busiest value is `spread` and whose traffic peaks at `reads` and
/// `writes` units a second: hot (the busiest value needs more than a partition serves), fewer
/// values than partitions the peak needs, or concentrated (one value takes at least a quarter
/// of the traffic). `subject` names the key in the reasons.
///
/// # Errors
/// A figure too large to compute.
pub(crate) fn assess_key(
    subject: &KeySubject,
    spread: &KeySpread,
    reads: Decimal,
    writes: Decimal,
) -> Result<KeyAssessment, EngineError> {
    let what = subject.name();
    let mut out = Vec::new();
    let reason = |finding| KeyReason {
        subject: subject.clone(),
        finding,
    };
    let mut suffixes = None;
    let busiest_reads = checked::mul(reads, spread.busiest_reads.unwrap_or_default(), what)?;
    let busiest_writes = checked::mul(writes, spread.busiest_writes.unwrap_or_default(), what)?;
    let mut hot = false;
    if busiest_reads > PARTITION_RCU {
        hot = true;
        out.push(reason(KeyFinding::HotReads {
            share: spread.busiest_reads.unwrap_or_default(),
            reads,
            busiest: busiest_reads,
        }));
    }
    if busiest_writes > PARTITION_WCU {
        hot = true;
        let count = checked::div(busiest_writes, PARTITION_WCU, what)?.ceil();
        suffixes = Some(count);
        out.push(reason(KeyFinding::HotWrites {
            share: spread.busiest_writes.unwrap_or_default(),
            writes,
            busiest: busiest_writes,
            suffixes: count,
        }));
    }
    let needed = for_throughput(reads, writes, what)?;
    let low_cardinality = spread.distinct.is_some_and(|d| d < needed);
    if let Some(d) = spread.distinct
        && d < needed
    {
        out.push(reason(KeyFinding::FewValues {
            distinct: d,
            needed,
            reads,
            writes,
        }));
    }
    let done = |out: Vec<KeyReason>| {
        let verdict = if hot {
            KeyVerdict::Hot
        } else if out.is_empty() {
            KeyVerdict::WellSpread
        } else {
            KeyVerdict::AtRisk
        };
        KeyAssessment {
            verdict,
            reasons: out,
            busiest_rcu: busiest_reads,
            busiest_wcu: busiest_writes,
            needed_partitions: needed,
            low_cardinality,
            suffixes,
        }
    };
    if hot {
        return Ok(done(out));
    }
    for (share, busiest, limit, kind) in [
        (
            spread.busiest_writes,
            busiest_writes,
            PARTITION_WCU,
            CapacityKind::Wcu,
        ),
        (
            spread.busiest_reads,
            busiest_reads,
            PARTITION_RCU,
            CapacityKind::Rcu,
        ),
    ] {
        let Some(share) = share else { continue };
        if share < CONCENTRATED_SHARE {
            continue;
        }
        // No figure for a busiest value of zero, nor for one so small that the ratio has no
        // exact decimal (a key barely used is not a risk worth failing the estimate over).
        let headroom = limit.checked_div(busiest);
        out.push(reason(KeyFinding::AtRisk {
            share,
            kind,
            busiest,
            limit,
            headroom,
            distinct: spread.distinct,
        }));
        break;
    }
    Ok(done(out))
}

/// Warnings for every key of `table` whose spread the workload states: the table's partition
/// key, each index's, each pattern's.
///
/// # Errors
/// A figure too large to compute.
/// Whether the workload states a key spread anywhere on `table` (the key warnings' input).
fn keys_stated(table: &Table) -> bool {
    table.keys.is_some()
        || table.indexes.iter().any(|i| i.keys.is_some())
        || table.patterns.iter().any(|p| p.keys.is_some())
}

pub(super) fn key_warnings(
    table: &Table,
    usage: &TableUsage,
    parts: &TablePartitions,
    settings: &Settings,
    out: &mut Vec<Notice>,
) -> Result<(), EngineError> {
    if !keys_stated(table) {
        return Ok(());
    }
    let hours = settings.month_hours;
    if let Some(spread) = &table.keys {
        check(
            &KeySubject::Table(Arc::clone(&table.name)),
            spread,
            parts.peak_rcu,
            parts.peak_wcu,
            out,
        )?;
    }
    let peaks = index_peaks(table, usage, (parts.peak_rcu, parts.peak_wcu), hours)?;
    for (index, (_, _, reads, writes)) in table.indexes.iter().zip(peaks) {
        let Some(spread) = &index.keys else { continue };
        check(
            &KeySubject::Index(IndexRef::of(index)),
            spread,
            reads,
            writes,
            out,
        )?;
    }
    let seconds = checked::mul(hours, Decimal::from(3600), &table.name)?;
    let reads = usage.weights(Metric::Reads);
    let writes = usage.weights(Metric::Writes);
    for ((pattern, (_, r)), (_, w)) in table.patterns.iter().zip(reads.each()).zip(writes.each()) {
        let Some(spread) = &pattern.keys else {
            continue;
        };
        let top = profile_peak(pattern.traffic.as_ref().or(table.traffic.as_ref()));
        let at_peak = |monthly: Decimal| -> Result<Decimal, EngineError> {
            checked::mul(
                checked::div(monthly, seconds, &pattern.name)?,
                top,
                &pattern.name,
            )
        };
        check(
            &KeySubject::Pattern(Arc::clone(&pattern.name)),
            spread,
            at_peak(r)?,
            at_peak(w)?,
            out,
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Decimal {
        s.parse().unwrap()
    }

    fn spread(distinct: Option<&str>, reads: &str, writes: &str) -> KeySpread {
        KeySpread {
            distinct: distinct.map(d),
            busiest_reads: Some(d(reads)),
            busiest_writes: Some(d(writes)),
        }
    }

    fn subject() -> KeySubject {
        KeySubject::Named("k".to_string())
    }

    fn findings(out: &[Notice]) -> Vec<&KeyFinding> {
        out.iter()
            .map(|n| match n {
                Notice::Key(r) => &r.finding,
                other => panic!("not a key finding: {other:?}"),
            })
            .collect()
    }

    #[test]
    fn the_seed_spread_check_is_well_spread() {
        // 41,200 keys, 2.1 % of reads and 0.8 % of writes: at 10,000 RCU/s and 2,000 WCU/s
        // the busiest value takes 210 RCU/s and 16 WCU/s, far below 3,000 and 1,000; the
        // peak needs ⌈10,000/3,000 + 2,000/1,000⌉ = ⌈5.33⌉ = 6 partitions < 41,200.
        let mut out = Vec::new();
        check(
            &subject(),
            &spread(Some("41200"), "0.021", "0.008"),
            d("10000"),
            d("2000"),
            &mut out,
        )
        .unwrap();
        assert!(out.is_empty(), "{out:?}");
    }

    #[test]
    fn a_hot_write_key_needs_suffixes() {
        // 94 % of 2,500 WCU/s = 2,350 WCU/s on one value: ⌈2,350 ÷ 1,000⌉ = ⌈2.35⌉ = 3
        // suffixes.
        let mut out = Vec::new();
        check(
            &subject(),
            &spread(None, "0", "0.94"),
            d("0"),
            d("2500"),
            &mut out,
        )
        .unwrap();
        assert_eq!(
            findings(&out),
            [&KeyFinding::HotWrites {
                share: d("0.94"),
                writes: d("2500"),
                busiest: d("2350"),
                suffixes: d("3"),
            }]
        );
    }

    #[test]
    fn few_values_and_concentration_are_at_risk() {
        // A status key: 6 values, 71 % of 55 WCU/s = 39.05 WCU/s on one: not hot, but
        // concentrated; 1,000 ÷ 39.05 = 25.608… × headroom.
        let mut out = Vec::new();
        check(
            &subject(),
            &spread(Some("6"), "0.2", "0.71"),
            d("10"),
            d("55"),
            &mut out,
        )
        .unwrap();
        assert_eq!(
            findings(&out),
            [&KeyFinding::AtRisk {
                share: d("0.71"),
                kind: CapacityKind::Wcu,
                busiest: d("39.05"),
                limit: d("1000"),
                headroom: Some(d("1000") / d("39.05")),
                distinct: Some(d("6")),
            }]
        );
        // A date key with 1 value a day against a peak needing ⌈9,000/3,000 + 1,500/1,000⌉ =
        // ⌈4.5⌉ = 5 partitions: fewer values than partitions.
        let mut out = Vec::new();
        check(
            &subject(),
            &spread(Some("1"), "1", "1"),
            d("9000"),
            d("1500"),
            &mut out,
        )
        .unwrap();
        assert!(
            findings(&out).contains(&&KeyFinding::FewValues {
                distinct: d("1"),
                needed: d("5"),
                reads: d("9000"),
                writes: d("1500"),
            }),
            "{out:?}"
        );
    }
}
