//! CloudWatch data for `AWS/DynamoDB`, as the AWS CLI writes it (`get-metric-data`, several
//! files being pages in any order) or as a plain CSV (`timestamp,table,index,metric,statistic,
//! value`): read into one series per table, index, metric and statistic, sorted, with the
//! points read, used, duplicated (two pages that overlap and agree) and dropped counted. The
//! readers never fill a gap; `query` writes the queries and commands that fetch the data.

pub(crate) mod analysis;
pub(crate) mod csv;
pub(crate) mod measured;
pub(crate) mod metric_data;
pub(crate) mod query;
pub(crate) mod statistics;

use std::collections::BTreeMap;

use rust_decimal::Decimal;

use crate::error::Error;

/// The `AWS/DynamoDB` metrics ddbcost reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Metric {
    ConsumedRead,
    ConsumedWrite,
    ProvisionedRead,
    ProvisionedWrite,
    ReadThrottleEvents,
    WriteThrottleEvents,
    ReturnedItemCount,
    TimeToLiveDeletedItemCount,
}

impl Metric {
    pub(crate) const ALL: [Metric; 8] = [
        Metric::ConsumedRead,
        Metric::ConsumedWrite,
        Metric::ProvisionedRead,
        Metric::ProvisionedWrite,
        Metric::ReadThrottleEvents,
        Metric::WriteThrottleEvents,
        Metric::ReturnedItemCount,
        Metric::TimeToLiveDeletedItemCount,
    ];

    pub(crate) fn name(self) -> &'static str {
        match self {
            Metric::ConsumedRead => "ConsumedReadCapacityUnits",
            Metric::ConsumedWrite => "ConsumedWriteCapacityUnits",
            Metric::ProvisionedRead => "ProvisionedReadCapacityUnits",
            Metric::ProvisionedWrite => "ProvisionedWriteCapacityUnits",
            Metric::ReadThrottleEvents => "ReadThrottleEvents",
            Metric::WriteThrottleEvents => "WriteThrottleEvents",
            Metric::ReturnedItemCount => "ReturnedItemCount",
            Metric::TimeToLiveDeletedItemCount => "TimeToLiveDeletedItemCount",
        }
    }

    pub(crate) fn parse(name: &str) -> Option<Metric> {
        Metric::ALL.into_iter().find(|m| m.name() == name)
    }

    /// The statistic the analysis reads the metric by: `Sum` for what is counted, `Average`
    /// for provisioned capacity.
    pub(crate) fn statistic(self) -> &'static str {
        match self {
            Metric::ProvisionedRead | Metric::ProvisionedWrite => "Average",
            _ => "Sum",
        }
    }
}

/// A series' identity: the table, the GSI (`None`: the table's own), the metric.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Key {
    pub(crate) table: String,
    pub(crate) index: Option<String>,
    pub(crate) metric: Metric,
}

/// One metric's points: (Unix seconds, value), sorted by time, one per period.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Series {
    pub(crate) statistic: String,
    /// Seconds between points (60, 300, 3,600…).
    pub(crate) period: u32,
    pub(crate) points: Vec<(i64, Decimal)>,
}

/// Everything read from the files, and what was counted on the way.
#[derive(Debug, Default)]
pub(crate) struct Reading {
    pub(crate) series: BTreeMap<Key, Series>,
    pub(crate) points_read: u64,
    pub(crate) duplicated: u64,
    /// Said once each: a result that is not `Complete`, a metric not analysed.
    pub(crate) warnings: Vec<String>,
    /// Each point's file, for errors that name where two pages disagree.
    files: BTreeMap<Key, Vec<String>>,
}

impl Reading {
    /// Adds points of `key` read from `file` (any order; `finish` sorts and checks them).
    pub(crate) fn add(
        &mut self,
        key: Key,
        statistic: &str,
        period: u32,
        points: impl IntoIterator<Item = (i64, Decimal)>,
        file: &str,
    ) -> Result<(), Error> {
        let series = self.series.entry(key.clone()).or_insert_with(|| Series {
            statistic: statistic.to_string(),
            period,
            points: Vec::new(),
        });
        if series.statistic != statistic || series.period != period {
            return Err(Error::input(format!(
                "{} of table `{}`{}: {} every {} s here, {} every {} s elsewhere: one series, one statistic and period",
                key.metric.name(),
                key.table,
                key.index.as_ref().map_or_else(String::new, |i| format!(" (index `{i}`)")),
                statistic,
                period,
                series.statistic,
                series.period
            ))
            .file(file)
            .help("Consider fetching every page with the same queries (`ddbcost usage query` writes them)."));
        }
        let before = series.points.len();
        series.points.extend(points);
        let added = series.points.len().saturating_sub(before);
        self.points_read = self.points_read.saturating_add(added as u64);
        let files = self.files.entry(key).or_default();
        if !files.iter().any(|f| f == file) {
            files.push(file.to_string());
        }
        Ok(())
    }

    /// Sorts every series, drops the duplicates two overlapping pages share, and refuses
    /// points that disagree or are off the series' period.
    pub(crate) fn finish(&mut self) -> Result<(), Error> {
        for (key, s) in &mut self.series {
            s.points.sort_by_key(|(t, _)| *t);
            let mut kept: Vec<(i64, Decimal)> = Vec::with_capacity(s.points.len());
            for (t, v) in s.points.drain(..) {
                match kept.last() {
                    Some((lt, lv)) if *lt == t => {
                        if *lv != v {
                            let files = self
                                .files
                                .get(key)
                                .map_or_else(String::new, |f| f.join(", "));
                            return Err(Error::input(format!(
                                "{} of table `{}`: two values at {} ({lv} and {v}): overlapping pages that disagree",
                                key.metric.name(),
                                key.table,
                                timestamp(t)
                            ))
                            .file(files)
                            .help("Consider giving each page once, or fetching the window again."));
                        }
                        self.duplicated = self.duplicated.saturating_add(1);
                    }
                    Some((lt, _))
                        if t.saturating_sub(*lt)
                            .checked_rem(i64::from(s.period.max(1)))
                            != Some(0) =>
                    {
                        return Err(Error::input(format!(
                            "{} of table `{}`: points {} and {} are not a whole number of {}-second periods apart: mixed periods in one series",
                            key.metric.name(),
                            key.table,
                            timestamp(*lt),
                            timestamp(t),
                            s.period
                        ))
                        .file(self.files.get(key).map_or_else(String::new, |f| f.join(", ")))
                        .help("Consider one period per series (`--period` of `ddbcost usage query`)."));
                    }
                    _ => kept.push((t, v)),
                }
            }
            s.points = kept;
        }
        Ok(())
    }

    pub(crate) fn points_used(&self) -> u64 {
        self.series.values().map(|s| s.points.len() as u64).sum()
    }
}

/// The period of points read without one stated (CSV, `get-metric-statistics`): their
/// smallest gap, once sorted; `None` with fewer than two distinct times.
pub(crate) fn inferred_period(points: &mut [(i64, Decimal)]) -> Option<u32> {
    points.sort_by_key(|(t, _)| *t);
    points
        .windows(2)
        .map(|w| w[1].0.saturating_sub(w[0].0))
        .filter(|g| *g > 0)
        .min()
        .and_then(|g| u32::try_from(g).ok())
}

/// An ISO 8601 timestamp as CloudWatch writes it (`2026-11-01T00:00:00Z`,
/// `2026-11-01T00:00:00+00:00`, `2026-11-01T00:00:00.000Z`) as Unix seconds.
pub(crate) fn parse_time(text: &str) -> Option<i64> {
    let text = text.trim();
    let (date, rest) = text.split_at_checked(10)?;
    let day = crate::model::period::parse_date(date)?;
    let rest = rest.strip_prefix(['T', ' '])?;
    let (clock, zone) = match rest.find(['Z', '+', '-']) {
        Some(i) => rest.split_at(i),
        None => (rest, ""),
    };
    let clock = clock.split('.').next()?;
    let mut hms = clock.split(':').map(|p| p.parse::<i64>().ok());
    let (h, m, s) = (hms.next()??, hms.next()??, hms.next().unwrap_or(Some(0))?);
    if hms.next().is_some()
        || !(0..24).contains(&h)
        || !(0..60).contains(&m)
        || !(0..61).contains(&s)
    {
        return None;
    }
    let offset = match zone {
        "" | "Z" => 0,
        z => {
            let sign = if z.starts_with('-') { -1 } else { 1 };
            let body = z.get(1..)?;
            let (oh, om) = body
                .split_once(':')
                .unwrap_or((body.get(..2)?, body.get(2..).unwrap_or("0")));
            let (oh, om) = (oh.parse::<i64>().ok()?, om.parse::<i64>().ok()?);
            if !(0..24).contains(&oh) || !(0..60).contains(&om) {
                return None;
            }
            // Hours below 24 and minutes below 60: the products stay tiny.
            oh.checked_mul(3_600)?
                .checked_add(om.checked_mul(60)?)?
                .checked_mul(sign)?
        }
    };
    day.checked_mul(86_400)?
        .checked_add(
            h.checked_mul(3_600)?
                .checked_add(m.checked_mul(60)?)?
                .checked_add(s)?,
        )?
        .checked_sub(offset)
}

/// Unix seconds as `YYYY-MM-DDTHH:MM:SSZ`.
pub(crate) fn timestamp(t: i64) -> String {
    let day = t.div_euclid(86_400);
    let secs = t.rem_euclid(86_400);
    let date = crate::model::period::date_of(
        u64::try_from(day.max(0))
            .unwrap_or(0)
            .saturating_mul(86_400),
    );
    format!(
        "{date}T{:02}:{:02}:{:02}Z",
        secs / 3_600,
        secs % 3_600 / 60,
        secs % 60
    )
}

/// A value as CloudWatch writes it (a JSON number or its text), exactly, never negative.
pub(crate) fn value(text: &str) -> Result<Decimal, String> {
    let d = text
        .trim()
        .parse::<Decimal>()
        .or_else(|_| Decimal::from_scientific(text.trim()))
        .map_err(|_| format!("`{text}` is not a number"))?;
    if d.is_sign_negative() && !d.is_zero() {
        return Err(format!("{text} is negative"));
    }
    Ok(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_read_every_way_cloudwatch_writes_them() {
        // 2026-11-01T00:00:00Z = day 20,758 (2026-12-02 is day 20,789, 31 days later) × 86,400
        // = 1,793,491,200 s.
        for t in [
            "2026-11-01T00:00:00Z",
            "2026-11-01T00:00:00+00:00",
            "2026-11-01T00:00:00.000Z",
            "2026-11-01T01:00:00+01:00",
            "2026-10-31T23:00:00-01:00",
        ] {
            assert_eq!(parse_time(t), Some(1_793_491_200), "{t}");
        }
        assert_eq!(timestamp(1_793_491_260), "2026-11-01T00:01:00Z");
        for bad in [
            "2026-11-01",
            "2026-11-01T25:00:00Z",
            "yesterday",
            "2026-13-01T00:00:00Z",
        ] {
            assert_eq!(parse_time(bad), None, "{bad}");
        }
    }

    #[test]
    fn values_are_exact_and_never_negative() {
        assert_eq!(
            value("6000.5").unwrap(),
            "6000.5".parse::<Decimal>().unwrap()
        );
        assert_eq!(value("1.5E3").unwrap(), Decimal::from(1500));
        assert!(value("-1").is_err());
        assert!(value("NaN").is_err());
    }
}
