//! CloudWatch data for `AWS/DynamoDB`, as the AWS CLI writes it (`get-metric-data`, several
//! files being pages in any order) or as a plain CSV (`timestamp,table,index,metric,statistic,
//! value`): read into one series per table, index, metric and statistic, sorted, with the
//! points read, used, duplicated (two pages that overlap and agree) and dropped counted. The
//! readers never fill a gap; `query` writes the queries and commands that fetch the data.

pub(crate) mod analysis;
pub(crate) mod csv;
pub(crate) mod input;
pub(crate) mod measured;
pub(crate) mod metric_data;
mod page;
mod points;
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
    /// A GSI being created (backfilled): the write units its backfill consumed…
    OnlineIndexConsumedWrite,
    /// …how far along it is (percent)…
    OnlineIndexProgress,
    /// …and the backfill's throttled writes.
    OnlineIndexThrottleEvents,
    /// Per `Operation`: its `SampleCount` is the successful requests of that operation
    /// (DESIGN "Requests per operation").
    SuccessfulRequestLatency,
    /// Per `ReceivingRegion`: a replica's lag; a region measured is a replica that runs.
    ReplicationLatency,
}

impl Metric {
    pub(crate) const ALL: [Metric; 13] = [
        Metric::ConsumedRead,
        Metric::ConsumedWrite,
        Metric::ProvisionedRead,
        Metric::ProvisionedWrite,
        Metric::ReadThrottleEvents,
        Metric::WriteThrottleEvents,
        Metric::ReturnedItemCount,
        Metric::TimeToLiveDeletedItemCount,
        Metric::OnlineIndexConsumedWrite,
        Metric::OnlineIndexProgress,
        Metric::OnlineIndexThrottleEvents,
        Metric::SuccessfulRequestLatency,
        Metric::ReplicationLatency,
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
            Metric::OnlineIndexConsumedWrite => "OnlineIndexConsumedWriteCapacity",
            Metric::OnlineIndexProgress => "OnlineIndexPercentageProgress",
            Metric::OnlineIndexThrottleEvents => "OnlineIndexThrottleEvents",
            Metric::SuccessfulRequestLatency => "SuccessfulRequestLatency",
            Metric::ReplicationLatency => "ReplicationLatency",
        }
    }

    pub(crate) fn parse(name: &str) -> Option<Metric> {
        Metric::ALL.into_iter().find(|m| m.name() == name)
    }

    /// The statistic the analysis reads the metric by: `Sum` for what is counted, `Average`
    /// for provisioned capacity and a replica's lag, `Maximum` for a backfill's progress,
    /// `SampleCount` for the requests a latency counts.
    pub(crate) fn statistic(self) -> &'static str {
        match self {
            Metric::ProvisionedRead | Metric::ProvisionedWrite | Metric::ReplicationLatency => {
                "Average"
            }
            Metric::SuccessfulRequestLatency => "SampleCount",
            Metric::OnlineIndexProgress => "Maximum",
            _ => "Sum",
        }
    }

    /// The dimension CloudWatch keeps the metric by besides the table: `Operation` for the
    /// requests and the items returned, `ReceivingRegion` for a replica's lag.
    pub(crate) fn by(self) -> Option<&'static str> {
        match self {
            Metric::SuccessfulRequestLatency | Metric::ReturnedItemCount => Some("Operation"),
            Metric::ReplicationLatency => Some("ReceivingRegion"),
            _ => None,
        }
    }
}

/// A series' identity: the table, the GSI (`None`: the table's own), the metric, and the
/// value of the metric's other dimension (`Metric::by`: an operation, a receiving region).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Key {
    pub(crate) table: String,
    pub(crate) index: Option<String>,
    pub(crate) metric: Metric,
    pub(crate) by: Option<String>,
}

impl Key {
    /// The series of `metric` on `table` (or its GSI `index`), kept by no other dimension.
    pub(crate) fn of(table: &str, index: Option<&str>, metric: Metric) -> Key {
        Key {
            table: table.to_string(),
            index: index.map(str::to_string),
            metric,
            by: None,
        }
    }

    /// How errors and reports name the series: `ReturnedItemCount (Operation Scan) of table
    /// `t``.
    pub(crate) fn said(&self) -> String {
        let by = match (self.metric.by(), &self.by) {
            (Some(d), Some(v)) => format!(" ({d} {v})"),
            _ => String::new(),
        };
        format!(
            "{}{by} of table `{}`{}",
            self.metric.name(),
            self.table,
            self.index
                .as_ref()
                .map_or_else(String::new, |i| format!(" (index `{i}`)"))
        )
    }
}

/// One metric's points, and what was surveyed of them while reading: the statistic, the
/// period (stated by the query, or inferred: the greatest common divisor of the points'
/// distances from the first), the first and last times and the count. The points are held
/// only for the tables a pass holds (see `Hold`); `finish` sorts them, one per period.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Series {
    pub(crate) statistic: String,
    /// Seconds between points (60, 300, 3,600…); 0 until `finish` for an inferred period.
    pub(crate) period: u32,
    stated: bool,
    /// The first point read (the anchor of the period's checks) and the gcd of the others'
    /// distances from it.
    anchor: i64,
    gcd: u64,
    pub(crate) first: i64,
    pub(crate) last: i64,
    pub(crate) read: u64,
    /// A point off a stated period: (it, the anchor), refused at `finish`.
    off: Option<(i64, i64)>,
    pub(crate) points: points::Points,
}

/// Which points a pass keeps in memory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Hold {
    /// Every table's, while they number at most this many points; past it the points are
    /// let go (`Reading::overflowed`) and the reading is a survey.
    All(u64),
    /// The points of these tables only (one shard of a reading too large to hold).
    Tables(std::collections::BTreeSet<String>),
}

/// Everything read from the files, and what was counted on the way.
#[derive(Debug)]
pub(crate) struct Reading {
    pub(crate) series: BTreeMap<Key, Series>,
    pub(crate) points_read: u64,
    pub(crate) duplicated: u64,
    /// Said once each: a result that is not `Complete`, a message CloudWatch sent, a metric
    /// not analysed.
    pub(crate) warnings: Vec<String>,
    /// Per series, how many results said `Complete` and how many `PartialData` (more pages
    /// exist); a series whose every result is partial lacks its last page.
    pub(crate) statuses: BTreeMap<Key, (u32, u32)>,
    /// `get-metric-data` pages read, and the files among them that carry a `NextToken`.
    pub(crate) pages: u32,
    pub(crate) continued: Vec<String>,
    /// Series asked for (a result, a queries file's query) that came back with no point.
    pub(crate) empty: std::collections::BTreeSet<Key>,
    hold: Hold,
    held: u64,
    /// The points outgrew `Hold::All`: only the survey is left, and the tables are read
    /// again in shards.
    pub(crate) overflowed: bool,
    /// Each series' files, for errors that name where two pages disagree.
    files: BTreeMap<Key, Vec<String>>,
}

impl Default for Reading {
    fn default() -> Self {
        Reading::new(Hold::All(u64::MAX))
    }
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        let r = a.checked_rem(b).unwrap_or(0);
        a = b;
        b = r;
    }
    a
}

impl Reading {
    pub(crate) fn new(hold: Hold) -> Reading {
        Reading {
            series: BTreeMap::new(),
            points_read: 0,
            duplicated: 0,
            warnings: Vec::new(),
            statuses: BTreeMap::new(),
            pages: 0,
            continued: Vec::new(),
            empty: std::collections::BTreeSet::new(),
            hold,
            held: 0,
            overflowed: false,
            files: BTreeMap::new(),
        }
    }

    /// Whether this pass holds the points of `table`.
    fn holds(&self, table: &str) -> bool {
        match &self.hold {
            Hold::All(_) => !self.overflowed,
            Hold::Tables(t) => t.contains(table),
        }
    }

    /// Adds points of `key` read from `file` (any order; `finish` sorts and checks them), at
    /// the `period` the query stated (`None`: inferred from the points).
    pub(crate) fn add(
        &mut self,
        key: Key,
        statistic: &str,
        period: Option<u32>,
        points: impl IntoIterator<Item = (i64, Decimal)>,
        file: &str,
    ) -> Result<(), Error> {
        let hold = self.holds(&key.table);
        let mut points = points.into_iter().peekable();
        let Some(&(t0, _)) = points.peek() else {
            // Asked for, and nothing came back: CloudWatch writes no point for a period with
            // nothing consumed, so a whole window of none is a measured zero.
            self.empty.insert(key);
            return Ok(());
        };
        let series = self.series.entry(key.clone()).or_insert_with(|| Series {
            statistic: statistic.to_string(),
            period: period.unwrap_or(0),
            stated: period.is_some(),
            anchor: t0,
            gcd: 0,
            first: t0,
            last: t0,
            read: 0,
            off: None,
            points: points::Points::default(),
        });
        let differs = match period {
            Some(p) if series.stated => p != series.period,
            Some(_) => true,
            None => series.stated,
        };
        if series.statistic != statistic || differs {
            let every = |stated: bool, p: u32| {
                if stated {
                    format!("every {p} s")
                } else {
                    "at an inferred period".to_string()
                }
            };
            return Err(Error::input(format!(
                "{}: {} {} here, {} {} elsewhere: one series, one statistic and period",
                key.said(),
                statistic,
                every(period.is_some(), period.unwrap_or(0)),
                series.statistic,
                every(series.stated, series.period),
            ))
            .file(file)
            .help("Consider fetching every page with the same queries (`ddbcost usage query` writes them)."));
        }
        if hold {
            series.points.reserve(points.size_hint().0);
        }
        let mut added = 0u64;
        for (t, v) in points {
            series.first = series.first.min(t);
            series.last = series.last.max(t);
            let distance = t.abs_diff(series.anchor);
            // Mostly a multiple of the divisor found already: one remainder, no search. Such
            // a distance is on a stated period too, for while no point is off it, the period
            // divides the divisor; so the first point off it is found here.
            if distance.checked_rem(series.gcd) != Some(0) {
                series.gcd = gcd(series.gcd, distance);
                if series.stated
                    && series.off.is_none()
                    && distance.checked_rem(u64::from(series.period.max(1))) != Some(0)
                {
                    series.off = Some((t, series.anchor));
                }
            }
            added = added.saturating_add(1);
            if hold && series.points.push(t, v).is_err() {
                return Err(Error::input(format!(
                    "{}: points {} and {} are more than 68 years apart",
                    key.said(),
                    timestamp(series.first),
                    timestamp(series.last)
                ))
                .file(file)
                .help("Consider a timestamp out of place (a year typed wrong): one window of CloudWatch data spans days or months."));
            }
        }
        series.read = series.read.saturating_add(added);
        self.points_read = self.points_read.saturating_add(added);
        if hold {
            self.held = self.held.saturating_add(added);
            if let Hold::All(budget) = self.hold
                && self.held > budget
            {
                // Past the budget: let every point go and keep surveying.
                self.overflowed = true;
                self.held = 0;
                for s in self.series.values_mut() {
                    s.points = points::Points::default();
                }
            }
        }
        let files = self.files.entry(key).or_default();
        if !files.iter().any(|f| f == file) {
            files.push(file.to_string());
        }
        Ok(())
    }

    /// Settles each series' period (refusing points off a stated one, and an inferred period
    /// of a single time), then sorts the points held, drops the duplicates two overlapping
    /// pages share, and refuses points that disagree.
    pub(crate) fn finish(&mut self) -> Result<(), Error> {
        for (key, s) in &mut self.series {
            if let Some((t, anchor)) = s.off {
                return Err(Error::input(format!(
                    "{}: points {} and {} are not a whole number of {}-second periods apart: mixed periods in one series",
                    key.said(),
                    timestamp(anchor.min(t)),
                    timestamp(anchor.max(t)),
                    s.period
                ))
                .file(
                    self.files
                        .get(key)
                        .map_or_else(String::new, |f| f.join(", ")),
                )
                .help("Consider one period per series (`--period` of `ddbcost usage query`)."));
            }
            if !s.stated {
                s.period = u32::try_from(s.gcd)
                    .ok()
                    .filter(|p| *p > 0)
                    .ok_or_else(|| {
                        Error::input(format!(
                            "{}: {}, so its period cannot be told",
                            key.said(),
                            if s.gcd == 0 {
                                "points at one time only"
                            } else {
                                "points further apart than any period"
                            }
                        ))
                        .file(
                            self.files
                                .get(key)
                                .map_or_else(String::new, |f| f.join(", ")),
                        )
                        .help("Consider exporting at least two periods of each series.")
                    })?;
            }
            s.points.sort_by_time();
            let files = &self.files;
            let duplicated = &mut self.duplicated;
            s.points.retain_with(|last, (t, v)| match last {
                Some((lt, lv)) if lt == t => {
                    if lv != v {
                        let files = files.get(key).map_or_else(String::new, |f| f.join(", "));
                        return Err(Error::input(format!(
                            "{}: two values at {} ({lv} and {v}): overlapping pages that disagree",
                            key.said(),
                            timestamp(t)
                        ))
                        .file(files)
                        .help("Consider giving each page once, or fetching the window again."));
                    }
                    *duplicated = duplicated.saturating_add(1);
                    Ok(false)
                }
                _ => Ok(true),
            })?;
            check_spacing(&self.files, key, s)?;
        }
        Ok(())
    }

    /// Whether every page was read to its end: a series whose every result was `PartialData`
    /// lacks its last page, and so does a set of pages that all carry a `NextToken`. Refused
    /// (`None` returned when complete), or, allowed, said as what is missing.
    pub(crate) fn missing_pages(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (key, (complete, partial)) in &self.statuses {
            if *complete == 0 && *partial > 0 {
                out.push(format!(
                    "{}: every result read is PartialData (in {}): the page that completes it was not given",
                    key.said(),
                    self.files.get(key).map_or_else(String::new, |f| f.join(", "))
                ));
            }
        }
        if self.pages > 0 && self.continued.len() as u64 == u64::from(self.pages) {
            out.push(format!(
                "every page given carries a NextToken ({}): the last page of the answer was not given",
                self.continued.join(", ")
            ));
        }
        out
    }

    pub(crate) fn points_used(&self) -> u64 {
        self.series.values().map(|s| s.points.len() as u64).sum()
    }

    /// The files that hold points of `tables`: a shard's pass reads only these.
    pub(crate) fn files_of(
        &self,
        tables: &std::collections::BTreeSet<String>,
    ) -> std::collections::BTreeSet<&str> {
        self.files
            .iter()
            .filter(|(k, _)| tables.contains(&k.table))
            .flat_map(|(_, f)| f.iter().map(String::as_str))
            .collect()
    }

    /// The points read of each table, for sharding a reading too large to hold.
    pub(crate) fn points_per_table(&self) -> BTreeMap<&str, u64> {
        let mut out: BTreeMap<&str, u64> = BTreeMap::new();
        for (k, s) in &self.series {
            let n = out.entry(k.table.as_str()).or_default();
            *n = n.saturating_add(s.read);
        }
        out
    }
}

/// A stated period (a label's, a query's) must be the points' own spacing: a series at
/// 300-second points labelled 60 would be read as five times the demand. Points every
/// `g` seconds (a multiple of the stated period), filling at least 90 % of their span
/// on that grid with 10 points or more, are a series of period `g`, not a sparse one of
/// the stated period (CloudWatch writes no point for a period with nothing consumed,
/// which leaves irregular gaps, not a regular grid).
fn check_spacing(files: &BTreeMap<Key, Vec<String>>, key: &Key, s: &Series) -> Result<(), Error> {
    let period = u64::from(s.period);
    if !s.stated || period == 0 || s.gcd <= period || s.gcd.checked_rem(period) != Some(0) {
        return Ok(());
    }
    let count = if s.points.is_empty() {
        s.read
    } else {
        s.points.len() as u64
    };
    let slots = s
        .last
        .abs_diff(s.first)
        .checked_div(s.gcd)
        .unwrap_or(0)
        .saturating_add(1);
    if count < 10 || count.saturating_mul(10) < slots.saturating_mul(9) {
        return Ok(());
    }
    Err(Error::input(format!(
        "{}: labelled every {} s, but its {count} points are {} s apart: priced at the label's period, each point would count {}× the demand",
        key.said(),
        s.period,
        s.gcd,
        s.gcd.checked_div(period).unwrap_or(1)
    ))
    .file(
        files
            .get(key)
            .map_or_else(String::new, |f| f.join(", ")),
    )
    .help("Consider the label `usage query` wrote for the period fetched (`…:PERIOD` is the query's `Period`), or fetching again with `ddbcost usage query --period` as labelled."))
}

/// An ISO 8601 timestamp as CloudWatch writes it (`2026-11-01T00:00:00Z`,
/// `2026-11-01T00:00:00+00:00`, `2026-11-01T00:00:00.000Z`) as Unix seconds.
pub(crate) fn parse_time(text: &str) -> Option<i64> {
    match canonical_time(text.as_bytes()) {
        Some(t) => Some(t),
        None => parse_time_general(text),
    }
}

/// `YYYY-MM-DDTHH:MM:SSZ` exactly, the AWS CLI's shape (millions of them in a month of
/// minutes), read from its bytes; `None` for any other text or a value out of range (the
/// general reader then decides). The same time as `parse_time_general` (property-tested).
fn canonical_time(b: &[u8]) -> Option<i64> {
    let day = canonical_day(b.get(..10)?)?;
    canonical_clock(b.get(10..)?, day)
}

fn digits(a: u8, b: u8) -> Option<i64> {
    let d = |c: u8| {
        c.is_ascii_digit()
            .then(|| i64::from(c.saturating_sub(b'0')))
    };
    d(a)?.checked_mul(10)?.checked_add(d(b)?)
}

/// `YYYY-MM-DD` of a year from 1970 to 9999, a day that exists: days since 1970-01-01.
fn canonical_day(b: &[u8]) -> Option<i64> {
    let &[y0, y1, y2, y3, b'-', m0, m1, b'-', d0, d1] = b else {
        return None;
    };
    let year = digits(y0, y1)?
        .checked_mul(100)?
        .checked_add(digits(y2, y3)?)?;
    let month = u32::try_from(digits(m0, m1)?).ok()?;
    let day = u32::try_from(digits(d0, d1)?).ok()?;
    let days = crate::model::period::days_in_month(year, month)?;
    ((1970..=9999).contains(&year) && (1..=days).contains(&day))
        .then(|| crate::model::period::days_from_civil(year, month, day))
}

/// `THH:MM:SSZ` after day `day`: Unix seconds.
fn canonical_clock(b: &[u8], day: i64) -> Option<i64> {
    let &[b'T', h0, h1, b':', n0, n1, b':', s0, s1, b'Z'] = b else {
        return None;
    };
    // Six digits checked at once (a byte below '0' wraps above 9), then read without a
    // check each: every figure is at most 99.
    let d = [h0, h1, n0, n1, s0, s1].map(|c| c.wrapping_sub(b'0'));
    if d.iter().any(|x| *x > 9) {
        return None;
    }
    let pair = |a: u8, b: u8| i64::from(a.wrapping_mul(10).wrapping_add(b));
    let (h, m, s) = (pair(d[0], d[1]), pair(d[2], d[3]), pair(d[4], d[5]));
    if h > 23 || m > 59 || s > 60 {
        return None;
    }
    day.checked_mul(86_400)?
        .checked_add(h.checked_mul(3_600)?)?
        .checked_add(m.checked_mul(60)?)?
        .checked_add(s)
}

/// Timestamps read one after another (a result's thousands): `parse_time`, the day of the
/// last date in the AWS CLI's shape kept while the date repeats (1,440 minutes a day).
#[derive(Debug, Default)]
pub(crate) struct Times {
    date: [u8; 10],
    day: Option<i64>,
}

impl Times {
    pub(crate) fn parse(&mut self, text: &str) -> Option<i64> {
        self.canonical(text.as_bytes())
            .or_else(|| parse_time_general(text))
    }

    /// `canonical_time` of the 20 bytes of the AWS CLI's shape (each byte checked: a digit
    /// or the separator its place holds), `None` for any other bytes.
    pub(crate) fn canonical(&mut self, b: &[u8]) -> Option<i64> {
        if b.len() == 20 {
            let date = b.get(..10)?;
            let day = match self.day {
                Some(day) if date == self.date => Some(day),
                _ => {
                    let day = canonical_day(date);
                    if let (Some(d), Ok(bytes)) = (day, <[u8; 10]>::try_from(date)) {
                        (self.date, self.day) = (bytes, Some(d));
                    }
                    day
                }
            };
            return day.and_then(|d| canonical_clock(b.get(10..)?, d));
        }
        None
    }
}

/// `parse_time` for every shape it reads.
fn parse_time_general(text: &str) -> Option<i64> {
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
            let (oh, om) = body.split_once(':').unwrap_or((
                body.get(..2)?,
                body.get(2..).filter(|m| !m.is_empty()).unwrap_or("0"),
            ));
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
    if let Some(d) = plain_value(text.as_bytes()) {
        return Ok(d);
    }
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

/// `digits` or `digits.digits` (at most 18 digits in all: what CloudWatch writes for a
/// count, `1234.0`, `12.5`) read from its bytes into the same `Decimal` as `value` reads,
/// scale included (property-tested); `None` for any other text.
fn plain_value(b: &[u8]) -> Option<Decimal> {
    let (whole, fraction) = match b.iter().position(|c| *c == b'.') {
        Some(dot) => (b.get(..dot)?, b.get(dot.checked_add(1)?..)?),
        None => (b, &b""[..]),
    };
    let digits = whole.len().checked_add(fraction.len())?;
    if whole.is_empty() || (fraction.is_empty() && whole.len() < b.len()) || digits > 18 {
        return None;
    }
    let mut m = 0i64;
    for c in whole.iter().chain(fraction) {
        if !c.is_ascii_digit() {
            return None;
        }
        m = m
            .checked_mul(10)?
            .checked_add(i64::from(c.checked_sub(b'0')?))?;
    }
    Decimal::try_from_i128_with_scale(i128::from(m), u32::try_from(fraction.len()).ok()?).ok()
}

#[cfg(test)]
#[allow(
    clippy::arithmetic_side_effects,
    reason = "digits and remainders of generated test texts"
)]
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
            // As DuckDB and Trino print a time with its zone.
            "2026-11-01 00:00:00+00",
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

    proptest::proptest! {
        /// Timestamps read one after another with the day kept are the times `parse_time`
        /// reads, whatever the order, repeats and shapes.
        #[test]
        fn times_read_in_a_run_are_parse_time(
            picks in proptest::collection::vec(0usize..9, 0..60),
        ) {
            let texts = [
                "2026-11-01T00:00:00Z",
                "2026-11-01T23:59:00Z",
                "2026-11-02T00:01:00Z",
                "2026-11-01T24:00:00Z",
                "2026-11-01T00:00:00+01:00",
                "2026-02-29T00:00:00Z",
                "2024-02-29T10:00:00Z",
                "2026-11-01 00:00:00+00",
                "2026-11-0100:00:00Z",
            ];
            let mut times = Times::default();
            for p in picks {
                proptest::prop_assert_eq!(times.parse(texts[p]), parse_time(texts[p]), "{}", texts[p]);
            }
        }
    }

    #[test]
    fn the_canonical_shape_at_its_edges() {
        for t in [
            "2026-11-01T23:59:60Z",
            "2026-11-01T23:59:61Z",
            "2024-02-29T00:00:00Z",
            "2026-02-29T00:00:00Z",
            "2000-02-29T12:00:00Z",
            "1900-02-29T12:00:00Z",
            "1969-12-31T23:59:59Z",
            "1970-01-01T00:00:00Z",
            "9999-12-31T23:59:59Z",
            "2026-11-01T24:00:00Z",
            "2026-11-31T00:00:00Z",
            "2026-00-10T00:00:00Z",
            "2026-11-00T00:00:00Z",
        ] {
            assert_eq!(canonical_time(t.as_bytes()), parse_time_general(t), "{t}");
        }
        // Each of the three that exist, read by the fast path.
        assert!(canonical_time(b"2026-11-01T23:59:60Z").is_some());
        assert!(canonical_time(b"2024-02-29T00:00:00Z").is_some());
        assert!(canonical_time(b"1970-01-01T00:00:00Z") == Some(0));
    }

    proptest::proptest! {
        /// The AWS CLI's shape read from its bytes is the general reader's time, for any
        /// digits in it (months past 12, a 30 February, hour 24, second 60…).
        #[test]
        fn the_canonical_shape_reads_as_the_general_reader_does(
            d in proptest::collection::vec(0u8..10, 14),
            near in proptest::prelude::any::<bool>(),
        ) {
            let n = |i: usize| char::from(b'0' + d[i]);
            // Near real dates half the time (years 19xx/20xx, months 0x/1x, days 0x–3x).
            let (y0, m0, d0) = if near {
                (['1', '2'][usize::from(d[0] % 2)], ['0', '1'][usize::from(d[4] % 2)], char::from(b'0' + d[6] % 4))
            } else {
                (n(0), n(4), n(6))
            };
            // …and near real times (hours 0x–2x, minutes and seconds 0x–5x, a 6x second).
            let tens = |i: usize, top: u8| if near { char::from(b'0' + d[i] % top) } else { n(i) };
            let text = format!(
                "{y0}{}{}{}-{m0}{}-{d0}{}T{}{}:{}{}:{}{}Z",
                if near { ['9', '0'][usize::from(d[1] % 2)] } else { n(1) },
                n(2), n(3), n(5), n(7), tens(8, 3), n(9), tens(10, 6), n(11), tens(12, 7), n(13)
            );
            proptest::prop_assert_eq!(canonical_time(text.as_bytes()), parse_time_general(&text), "{}", text);
        }
    }

    proptest::proptest! {
        /// Plain digits read from their bytes are the Decimal `str::parse` reads, scale
        /// included; anything else is left to it.
        #[test]
        fn plain_values_read_as_decimal_parses_them(text in "[0-9]{0,20}(\\.[0-9]{0,12})?|[-+ .eE0-9]{1,12}") {
            let fast = plain_value(text.as_bytes());
            if let Some(d) = fast {
                let parsed: Decimal = text.parse().unwrap();
                proptest::prop_assert_eq!(d, parsed);
                proptest::prop_assert_eq!(d.to_string(), parsed.to_string());
            }
            let via_value = value(&text).ok().map(|d| d.to_string());
            let plain = text
                .trim()
                .parse::<Decimal>()
                .or_else(|_| Decimal::from_scientific(text.trim()))
                .ok()
                .filter(|d| !d.is_sign_negative() || d.is_zero())
                .map(|d| d.to_string());
            proptest::prop_assert_eq!(via_value, plain);
        }
    }

    #[test]
    fn the_first_point_off_a_stated_period_is_named() {
        // Stated every 60 s, anchored at 0: 120 and 60 are on it (the divisor goes 120, 60);
        // 90 is the first off it (90 ÷ 60 leaves 30), 150 the second (named no more).
        let mut reading = Reading::default();
        let key = Key::of("t", None, Metric::ConsumedRead);
        let points = [0, 120, 60, 90, 150].map(|t| (t, Decimal::ONE));
        reading
            .add(key, "Sum", Some(60), points, "page.json")
            .unwrap();
        let e = reading.finish().unwrap_err().to_string();
        assert!(
            e.contains("points 1970-01-01T00:00:00Z and 1970-01-01T00:01:30Z are not a whole number of 60-second periods apart"),
            "{e}"
        );
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
