//! Turns a raw workload file into a validated `model::Workload`. Every refusal names the file,
//! the path inside it, the line and column, what was expected, and suggests a fix: negative
//! or non-numeric quantities, shares outside [0, 1], a strong read on a GSI, an item over
//! 400 KB, a pattern on an index that does not exist, a size the rules need but cannot know.

use rust_decimal::Decimal;

use super::quantity::{parse_count, parse_rate, parse_share, parse_size};
use super::raw::{
    RawAutoScaling, RawBackups, RawCapacity, RawClass, RawConsumer, RawConsumerKind, RawGb,
    RawIndex, RawIndexKind, RawItemSize, RawMode, RawObserved, RawOperation, RawPattern,
    RawProjection, RawSettings, RawTable, RawTerm, RawTraffic, RawWorkload, Scalar,
};
use super::suggest;
use super::yaml::{self, position};
use crate::error::Error;
use crate::model::{
    AccessPattern, Backups, Capacity, CapacityMode, Consistency, ConsumerKind, DataSize,
    GbConvention, Index, IndexKind, IndexObserved, Operation, Projection, ProvisionedCapacity,
    Reserved, ReservedTerm, Stream, StreamConsumer, Table, TableClass, TableObserved,
    TrafficProfile, Workload,
};

/// The largest item DynamoDB stores: 400 KB.
pub const MAX_ITEM_BYTES: u32 = 409_600;
/// The most items one operation may touch (and a table may hold): far beyond any real table,
/// and low enough that unit arithmetic on them cannot leave a decimal's range.
const MAX_ITEMS: u64 = 1_000_000_000_000_000;
/// The most requests a second a pattern may state.
const MAX_RATE_PER_SECOND: u64 = 1_000_000_000_000;
/// A stream `GetRecords` call returns at most 1,000 records.
const MAX_RECORDS_PER_CALL: u32 = 1000;

/// Settings a workload file may set; the command line overrides them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SettingsOverrides {
    pub month_hours: Option<Decimal>,
    pub gb: Option<GbConvention>,
    pub free_tier: Option<bool>,
}

/// Parses and validates the workload in `text`, read from `file`.
///
/// # Errors
/// Any malformed, unknown or out-of-range input, with its file, path and position.
pub fn parse_workload(text: &str, file: &str) -> Result<(Workload, SettingsOverrides), Error> {
    let raw: RawWorkload = yaml::parse(text, file)?;
    let base = std::path::Path::new(file)
        .parent()
        .map(std::path::Path::to_path_buf);
    convert(&raw, file, text, base)
}

/// Validates a workload held as an untyped document (a scenario's merged document), named
/// `label` in errors. Positions are unknown: the document has no text.
///
/// # Errors
/// As `parse_workload`, without line and column.
pub fn workload_from_value(
    mut doc: serde_json::Value,
    file: &str,
    label: &str,
) -> Result<(Workload, SettingsOverrides), Error> {
    // Quantities are read from their text: give numbers back the text they were written as.
    stringify_numbers(&mut doc);
    let raw: RawWorkload = serde_path_to_error::deserialize(doc).map_err(|e| {
        let path = e.path().to_string();
        let message = e.into_inner().to_string();
        let path = path.strip_suffix(".value").unwrap_or(&path).to_string();
        Error::input(message)
            .file(label)
            .path(path)
            .help("Consider checking the value against the README's workload reference.")
    })?;
    let base = std::path::Path::new(file)
        .parent()
        .map(std::path::Path::to_path_buf);
    convert(&raw, label, "", base)
}

fn stringify_numbers(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::Number(n) => *v = serde_json::Value::String(n.to_string()),
        serde_json::Value::Array(items) => items.iter_mut().for_each(stringify_numbers),
        serde_json::Value::Object(map) => map.values_mut().for_each(stringify_numbers),
        _ => {}
    }
}

fn convert(
    raw: &RawWorkload,
    file: &str,
    text: &str,
    base_dir: Option<std::path::PathBuf>,
) -> Result<(Workload, SettingsOverrides), Error> {
    let cx = Cx {
        file,
        text,
        base_dir,
    };
    let settings = match &raw.settings {
        Some(s) => cx.settings(s)?,
        None => SettingsOverrides::default(),
    };
    if raw.tables.is_empty() {
        return Err(Error::input("the workload has no tables")
            .file(file)
            .path("tables")
            .help("Consider adding a table under `tables:` (see workloads/ for examples)."));
    }
    let mut tables = Vec::new();
    for (name, t) in &raw.tables {
        tables.push(cx.table(name, t)?);
    }
    let name = raw.name.clone().unwrap_or_else(|| {
        std::path::Path::new(file)
            .file_stem()
            .map_or_else(|| file.to_string(), |s| s.to_string_lossy().into_owned())
    });
    Ok((
        Workload {
            name,
            description: raw.description.clone(),
            prices: raw.prices.clone(),
            tables,
        },
        settings,
    ))
}

struct Cx<'a> {
    file: &'a str,
    text: &'a str,
    /// The folder sample files are read from (the workload file's).
    base_dir: Option<std::path::PathBuf>,
}

impl Cx<'_> {
    fn err(
        &self,
        path: &str,
        pos: Option<(u64, u64)>,
        message: impl Into<String>,
        help: impl Into<String>,
    ) -> Error {
        Error::input(message)
            .file(self.file)
            .path(path)
            .at(pos)
            .quoting(self.text)
            .help(help)
    }

    fn scalar<T>(
        &self,
        s: &Scalar,
        path: &str,
        parse: fn(&str) -> Result<T, String>,
        example: &str,
    ) -> Result<T, Error> {
        parse(&s.value).map_err(|why| {
            self.err(
                path,
                position(s),
                format!("{why}; expected {example}"),
                format!("Consider writing it like {example}."),
            )
        })
    }

    fn count(&self, s: Option<&Scalar>, path: &str) -> Result<Option<Decimal>, Error> {
        s.map(|s| {
            self.scalar(
                s,
                path,
                parse_count,
                "a non-negative count such as `41M` or `1200`",
            )
        })
        .transpose()
    }

    fn share(&self, s: Option<&Scalar>, path: &str, default: Decimal) -> Result<Decimal, Error> {
        Ok(s.map(|s| {
            self.scalar(
                s,
                path,
                parse_share,
                "a share between 0 and 1 such as `0.92` or `92%`",
            )
        })
        .transpose()?
        .unwrap_or(default))
    }

    fn size(&self, s: Option<&Scalar>, path: &str) -> Result<Option<DataSize>, Error> {
        s.map(|s| {
            self.scalar(
                s,
                path,
                parse_size,
                "a size such as `3.5 KB`, `210 GB` or `800` (bytes)",
            )
        })
        .transpose()
    }

    /// An item or entry size in bytes, at most 400 KB.
    fn item_bytes(&self, s: Option<&Scalar>, path: &str) -> Result<Option<Decimal>, Error> {
        let Some(s) = s else { return Ok(None) };
        let size = self.scalar(
            s,
            path,
            parse_size,
            "a size such as `3.5 KB` or `800` (bytes)",
        )?;
        let bytes =
            size.to_bytes()
                .filter(|b| *b <= Decimal::from(MAX_ITEM_BYTES))
                .ok_or_else(|| {
                    self.err(
                path,
                position(s),
                format!("item size `{}` is over DynamoDB's 400 KB (409,600 B) limit", s.value),
                "Consider storing large attributes in S3 and keeping a pointer in the item.",
            )
                })?;
        Ok(Some(bytes))
    }

    /// An item size written out, or the mean size of the items in a sample file (relative to
    /// the workload's folder), measured by DynamoDB's rules.
    fn item_size(
        &self,
        s: Option<&yaml::Spanned<RawItemSize>>,
        path: &str,
    ) -> Result<Option<Decimal>, Error> {
        let Some(s) = s else { return Ok(None) };
        match &s.value {
            RawItemSize::Text(text) => {
                let scalar = yaml::Spanned {
                    value: text.clone(),
                    referenced: s.referenced,
                    defined: s.defined,
                };
                self.item_bytes(Some(&scalar), path)
            }
            RawItemSize::Sample(file) => {
                let Some(base) = &self.base_dir else {
                    return Err(self.err(
                        path,
                        position(s),
                        format!("a sample (`{file}`) cannot be read from here"),
                        "Consider a workload file on disk.",
                    ));
                };
                let sample = base.join(file);
                let shown = sample.display().to_string();
                let measured = crate::size::scan::expand(std::slice::from_ref(&shown))
                    .and_then(|files| crate::size::scan::scan(&files, &crate::size::scan::ScanOptions { strict: true, jobs: 1, ..Default::default() }))
                    .map_err(|e| {
                        let why = e.message.to_string();
                        self.err(path, position(s), format!("sample `{shown}`: {why}"), "Consider a file of items in DynamoDB JSON or plain JSON (see `ddbcost size`).")
                    })?;
                let stats = measured.sizes.stats();
                if measured.oversized > 0 {
                    return Err(self.err(
                        path,
                        position(s),
                        format!("sample `{shown}` holds an item over DynamoDB's 400 KB limit"),
                        "Consider storing large attributes in S3.",
                    ));
                }
                match stats.mean() {
                    Some(mean) => Ok(Some(mean)),
                    None => Err(self.err(
                        path,
                        position(s),
                        format!("sample `{shown}` holds no items"),
                        "Consider a file with at least one item.",
                    )),
                }
            }
        }
    }

    fn settings(&self, s: &RawSettings) -> Result<SettingsOverrides, Error> {
        let month_hours = match &s.month_hours {
            Some(h) => {
                let hours = self.scalar(
                    h,
                    "settings.month_hours",
                    super::quantity::parse_number,
                    "a number of hours such as `730`",
                )?;
                if hours <= Decimal::ZERO || hours > Decimal::from(744) {
                    return Err(self.err(
                        "settings.month_hours",
                        position(h),
                        format!("`{}` hours is not a month", h.value),
                        "Consider 730 (the AWS calculator's month) or 720, 744.",
                    ));
                }
                Some(hours)
            }
            None => None,
        };
        Ok(SettingsOverrides {
            month_hours,
            gb: s.gb.map(|g| match g {
                RawGb::Binary => GbConvention::Binary,
                RawGb::Decimal => GbConvention::Decimal,
            }),
            free_tier: s.free_tier,
        })
    }

    fn capacity(
        &self,
        c: Option<&RawCapacity>,
        path: &str,
        class: TableClass,
    ) -> Result<CapacityMode, Error> {
        let Some(c) = c else {
            return Ok(CapacityMode::OnDemand);
        };
        let rcu = self.count(c.rcu.as_ref(), &format!("{path}.rcu"))?;
        let wcu = self.count(c.wcu.as_ref(), &format!("{path}.wcu"))?;
        if c.mode.value == RawMode::OnDemand {
            if rcu.is_some() || wcu.is_some() || c.auto_scaling.is_some() {
                return Err(self.err(
                    path,
                    position(&c.mode),
                    "an on-demand table has no provisioned `rcu`/`wcu` or `auto_scaling`",
                    "Consider `mode: provisioned`, or removing them.",
                ));
            }
            if let Some(r) = &c.reserved {
                return Err(self.err(&format!("{path}.reserved"), position(&r.term), "reserved capacity is not offered for on-demand tables", "Consider `mode: provisioned`: reserved capacity discounts provisioned Standard-class capacity only."));
            }
            return Ok(CapacityMode::OnDemand);
        }
        let (read, write) = match (rcu, wcu, &c.auto_scaling) {
            (Some(rcu), Some(wcu), None) => (Capacity::Fixed(rcu), Capacity::Fixed(wcu)),
            (None, None, Some(a)) => self.auto_scaling(a, &format!("{path}.auto_scaling"))?,
            (_, _, Some(_)) => {
                return Err(self.err(path, position(&c.mode), "a provisioned table has either fixed `rcu` and `wcu` or `auto_scaling`, not both", "Consider removing `rcu`/`wcu` (auto scaling sizes capacity hour by hour)."));
            }
            _ => {
                return Err(self.err(path, position(&c.mode), "a provisioned table needs both `rcu` and `wcu`, or `auto_scaling`", "Consider `rcu: 100` and `wcu: 50` (units per second), or `auto_scaling: { target: 70% }`."));
            }
        };
        let reserved = match &c.reserved {
            None => None,
            Some(r) => {
                let rpath = format!("{path}.reserved");
                if class == TableClass::StandardIa {
                    return Err(self.err(
                        &rpath,
                        position(&r.term),
                        "reserved capacity is not offered for Standard-IA tables",
                        "Consider `class: standard`, or no reservation.",
                    ));
                }
                let block = |s: Option<&Scalar>, field: &str| -> Result<Decimal, Error> {
                    let units = self
                        .count(s, &format!("{rpath}.{field}"))?
                        .unwrap_or_default();
                    if !(units % Decimal::from(100)).is_zero() {
                        return Err(self.err(
                            &format!("{rpath}.{field}"),
                            s.and_then(position),
                            format!(
                                "reserved capacity is sold in blocks of 100 units, not {}",
                                units.normalize()
                            ),
                            "Consider a multiple of 100, e.g. `200`.",
                        ));
                    }
                    Ok(units)
                };
                let (rcu, wcu) = (block(r.rcu.as_ref(), "rcu")?, block(r.wcu.as_ref(), "wcu")?);
                if rcu.is_zero() && wcu.is_zero() {
                    return Err(self.err(
                        &rpath,
                        position(&r.term),
                        "a reservation of no units",
                        "Consider `rcu: 100` or `wcu: 100`.",
                    ));
                }
                Some(Reserved {
                    rcu,
                    wcu,
                    term: match r.term.value {
                        RawTerm::OneYear => ReservedTerm::OneYear,
                        RawTerm::ThreeYears => ReservedTerm::ThreeYears,
                    },
                })
            }
        };
        Ok(CapacityMode::Provisioned(ProvisionedCapacity {
            read,
            write,
            reserved,
        }))
    }

    /// Auto scaling for reads and writes: target utilization 20–90 % (default 70 %),
    /// min and max units (default 1 and 40,000, AWS's defaults).
    fn auto_scaling(&self, a: &RawAutoScaling, path: &str) -> Result<(Capacity, Capacity), Error> {
        let target = match &a.target {
            Some(t) => {
                let target = self.scalar(
                    t,
                    &format!("{path}.target"),
                    parse_share,
                    "a target utilization such as `70%`",
                )?;
                if target < Decimal::new(2, 1) || target > Decimal::new(9, 1) {
                    return Err(self.err(
                        &format!("{path}.target"),
                        position(t),
                        format!("target utilization `{}` is outside 20–90 %", t.value),
                        "Consider a target between 20% and 90% (AWS's range); 70% is the default.",
                    ));
                }
                target
            }
            None => Decimal::new(7, 1),
        };
        let bound = |s: Option<&Scalar>, field: &str, default: u32| -> Result<Decimal, Error> {
            Ok(self
                .count(s, &format!("{path}.{field}"))?
                .unwrap_or_else(|| Decimal::from(default)))
        };
        let mut out = Vec::new();
        for (min, max, kind) in [
            (&a.min_rcu, &a.max_rcu, "rcu"),
            (&a.min_wcu, &a.max_wcu, "wcu"),
        ] {
            let (lo, hi) = (
                bound(min.as_ref(), &format!("min_{kind}"), 1)?,
                bound(max.as_ref(), &format!("max_{kind}"), 40_000)?,
            );
            if lo > hi || hi.is_zero() {
                return Err(self.err(
                    &format!("{path}.max_{kind}"),
                    max.as_ref().and_then(position),
                    format!(
                        "`max_{kind}` {} is below `min_{kind}` {} (or zero)",
                        hi.normalize(),
                        lo.normalize()
                    ),
                    "Consider a maximum at least the minimum.",
                ));
            }
            out.push(Capacity::AutoScaling {
                target,
                min: lo,
                max: hi,
            });
        }
        Ok((out[0], out[1]))
    }

    /// A traffic profile, normalized to a mean multiplier of 1.
    fn traffic(&self, t: &yaml::Spanned<RawTraffic>, path: &str) -> Result<TrafficProfile, Error> {
        let pos = position(t);
        let raw = &t.value;
        let given = [
            raw.flat.is_some(),
            raw.peak.is_some(),
            raw.hourly.is_some(),
            raw.weekly.is_some(),
        ]
        .iter()
        .filter(|g| **g)
        .count();
        if given != 1 {
            return Err(self.err(path, pos, "a traffic profile needs exactly one of `flat`, `peak`, `hourly` or `weekly`", "Consider `traffic: { peak: { multiplier: 3, hours: 4, start: 18 } }` or 24 `hourly` multipliers."));
        }
        let multiplier = |s: &Scalar, p: &str| {
            self.scalar(
                s,
                p,
                super::quantity::parse_money,
                "a non-negative multiplier such as `1.5`",
            )
        };
        let day = |values: &Vec<Scalar>, p: &str| -> Result<Vec<Decimal>, Error> {
            if values.len() != 24 {
                return Err(self.err(
                    p,
                    pos,
                    format!("{} hourly multipliers; a day has 24", values.len()),
                    "Consider one multiplier per hour, 0:00 to 23:00 UTC.",
                ));
            }
            values
                .iter()
                .enumerate()
                .map(|(h, v)| multiplier(v, &format!("{p}[{h}]")))
                .collect()
        };
        let hourly: Vec<Decimal> = if raw.flat.is_some() {
            vec![Decimal::ONE; 24]
        } else if let Some(peak) = &raw.peak {
            let m = multiplier(&peak.multiplier, &format!("{path}.peak.multiplier"))?;
            let hours = self.scalar(
                &peak.hours,
                &format!("{path}.peak.hours"),
                parse_count,
                "a number of hours between 1 and 23",
            )?;
            let start = match &peak.start {
                Some(s) => self.scalar(
                    s,
                    &format!("{path}.peak.start"),
                    parse_count,
                    "an hour of the day, 0 to 23",
                )?,
                None => Decimal::ZERO,
            };
            if hours < Decimal::ONE
                || hours > Decimal::from(23)
                || !hours.fract().is_zero()
                || start > Decimal::from(23)
                || !start.fract().is_zero()
            {
                return Err(self.err(
                    &format!("{path}.peak"),
                    pos,
                    "peak `hours` must be a whole 1–23 and `start` a whole 0–23",
                    "Consider `peak: { multiplier: 3, hours: 4, start: 18 }`.",
                ));
            }
            let (hours, start) = (
                u32::try_from(hours.mantissa()).unwrap_or(0),
                u32::try_from(start.mantissa()).unwrap_or(0),
            );
            (0..24u32)
                .map(|h| {
                    if (h + 24 - start) % 24 < hours {
                        m
                    } else {
                        Decimal::ONE
                    }
                })
                .collect()
        } else if let Some(values) = &raw.hourly {
            day(values, &format!("{path}.hourly"))?
        } else if let Some(w) = &raw.weekly {
            let mut all = Vec::with_capacity(168);
            for (name, values) in [
                ("mon", &w.mon),
                ("tue", &w.tue),
                ("wed", &w.wed),
                ("thu", &w.thu),
                ("fri", &w.fri),
                ("sat", &w.sat),
                ("sun", &w.sun),
            ] {
                all.extend(day(values, &format!("{path}.weekly.{name}"))?);
            }
            all
        } else {
            unreachable!("one profile kind is given")
        };
        let sum: Decimal = hourly.iter().sum();
        if sum.is_zero() {
            return Err(self.err(
                path,
                pos,
                "a traffic profile whose multipliers are all zero",
                "Consider multipliers relative to an ordinary hour (1 = average).",
            ));
        }
        let mean = sum / Decimal::from(hourly.len());
        Ok(TrafficProfile {
            hourly: hourly.into_iter().map(|m| m / mean).collect(),
        })
    }

    fn table(&self, name: &str, t: &RawTable) -> Result<Table, Error> {
        let path = format!("tables.{name}");
        let class = match t.class {
            Some(RawClass::StandardIa) => TableClass::StandardIa,
            _ => TableClass::Standard,
        };
        let capacity = self.capacity(t.capacity.as_ref(), &format!("{path}.capacity"), class)?;
        let item_size_bytes = self.item_size(t.item_size.as_ref(), &format!("{path}.item_size"))?;
        let key_size_bytes = self.item_bytes(t.key_size.as_ref(), &format!("{path}.key_size"))?;
        let mut indexes = Vec::new();
        for (iname, i) in &t.indexes {
            indexes.push(self.index(
                &path,
                iname,
                i,
                &capacity,
                key_size_bytes,
                item_size_bytes,
            )?);
        }
        let mut table = Table {
            name: name.to_string(),
            class,
            capacity,
            items: match self.count(t.items.as_ref(), &format!("{path}.items"))? {
                Some(n) if n > Decimal::from(MAX_ITEMS) => {
                    return Err(self.err(
                        &format!("{path}.items"),
                        t.items.as_ref().and_then(position),
                        "a table of more than 10^15 items",
                        "Consider a multiplier typo (B for M)?",
                    ));
                }
                other => other,
            },
            item_size_bytes,
            storage: self.size(t.storage.as_ref(), &format!("{path}.storage"))?,
            key_size_bytes,
            pitr: t.pitr,
            backups: self.backups(t.backups.as_ref(), &path)?,
            stream: None,
            kinesis_cdc: t.kinesis_cdc,
            replicas: Vec::new(),
            traffic: t
                .traffic
                .as_ref()
                .map(|tr| self.traffic(tr, &format!("{path}.traffic")))
                .transpose()?,
            ttl_deletes: t
                .ttl_deletes
                .as_ref()
                .map(|s| {
                    self.scalar(
                        s,
                        &format!("{path}.ttl_deletes"),
                        parse_rate,
                        "a rate such as `2M/month`",
                    )
                })
                .transpose()?,
            indexes,
            patterns: Vec::new(),
            observed: self.observed(t.observed.as_ref(), &path)?,
        };
        for r in &t.replicas {
            if r.value.trim().is_empty() || table.replicas.contains(&r.value) {
                return Err(self.err(
                    &format!("{path}.replicas"),
                    position(r),
                    format!("replica region `{}` is empty or repeated", r.value),
                    "Consider listing each other region once, e.g. `[us-east-2]`.",
                ));
            }
            table.replicas.push(r.value.clone());
        }
        if let Some(stream) = &t.stream {
            let mut consumers = Vec::new();
            for (cname, c) in &stream.consumers {
                consumers.push(self.consumer(
                    &format!("{path}.stream.consumers.{cname}"),
                    cname,
                    c,
                )?);
            }
            table.stream = Some(Stream { consumers });
        } else if let Some(s) = t
            .observed
            .as_ref()
            .and_then(|o| o.stream_read_requests.as_ref())
        {
            return Err(self.err(
                &format!("{path}.observed.stream_read_requests"),
                position(s),
                "observed stream reads on a table without a stream",
                "Consider adding `stream: { consumers: ... }` to the table.",
            ));
        }
        for (pname, p) in &t.patterns {
            let pattern = self.pattern(&path, pname, p, &table)?;
            table.patterns.push(pattern);
        }
        Ok(table)
    }

    fn backups(&self, b: Option<&RawBackups>, table_path: &str) -> Result<Backups, Error> {
        let Some(b) = b else {
            return Ok(Backups::default());
        };
        let p = |f: &str| format!("{table_path}.backups.{f}");
        Ok(Backups {
            retained: self
                .count(b.retained.as_ref(), &p("retained"))?
                .unwrap_or_default(),
            restores_per_month: self
                .count(b.restores_per_month.as_ref(), &p("restores_per_month"))?
                .unwrap_or_default(),
            full_exports_per_month: self
                .count(
                    b.full_exports_per_month.as_ref(),
                    &p("full_exports_per_month"),
                )?
                .unwrap_or_default(),
            incremental_export: self.size(
                b.incremental_export_per_month.as_ref(),
                &p("incremental_export_per_month"),
            )?,
            import: self.size(b.import_per_month.as_ref(), &p("import_per_month"))?,
        })
    }

    fn observed(&self, o: Option<&RawObserved>, table_path: &str) -> Result<TableObserved, Error> {
        let Some(o) = o else {
            return Ok(TableObserved::default());
        };
        let p = |f: &str| format!("{table_path}.observed.{f}");
        Ok(TableObserved {
            read_units: self.count(o.read_units.as_ref(), &p("read_units"))?,
            write_units: self.count(o.write_units.as_ref(), &p("write_units"))?,
            storage: self.size(o.storage.as_ref(), &p("storage"))?,
            pitr: self.size(o.pitr.as_ref(), &p("pitr"))?,
            stream_read_requests: self
                .count(o.stream_read_requests.as_ref(), &p("stream_read_requests"))?,
        })
    }

    fn consumer(&self, path: &str, name: &str, c: &RawConsumer) -> Result<StreamConsumer, Error> {
        let kind = match (c.kind.value, &c.get_records, &c.records_per_call) {
            (RawConsumerKind::Lambda, None, None) => ConsumerKind::Lambda,
            (RawConsumerKind::Lambda, _, _) => {
                return Err(self.err(path, position(&c.kind), "a Lambda trigger's stream reads are free and take no `get_records`/`records_per_call`", "Consider `kind: reader` for a consumer that is not an AWS Lambda trigger."));
            }
            (RawConsumerKind::Reader, Some(calls), None) => {
                ConsumerKind::CallsPerMonth(self.scalar(
                    calls,
                    &format!("{path}.get_records"),
                    parse_rate,
                    "a rate of GetRecords calls such as `41M/month`",
                )?)
            }
            (RawConsumerKind::Reader, None, Some(per_call)) => {
                let n = self.scalar(
                    per_call,
                    &format!("{path}.records_per_call"),
                    parse_count,
                    "a number of records between 1 and 1000",
                )?;
                if n < Decimal::ONE || n > Decimal::from(MAX_RECORDS_PER_CALL) {
                    return Err(self.err(&format!("{path}.records_per_call"), position(per_call), format!("`{}` records per GetRecords call is outside 1–1000", per_call.value), "Consider the average batch your consumer reads; GetRecords returns at most 1,000 records."));
                }
                ConsumerKind::RecordsPerCall(n)
            }
            (RawConsumerKind::Reader, _, _) => {
                return Err(self.err(path, position(&c.kind), "a reader needs exactly one of `get_records` (calls per period) or `records_per_call`", "Consider `records_per_call: 100`, or `get_records: 41M/month` from CloudWatch."));
            }
        };
        Ok(StreamConsumer {
            name: name.to_string(),
            kind,
        })
    }

    fn index(
        &self,
        table_path: &str,
        name: &str,
        i: &RawIndex,
        capacity: &CapacityMode,
        table_key: Option<Decimal>,
        table_item: Option<Decimal>,
    ) -> Result<Index, Error> {
        let path = format!("{table_path}.indexes.{name}");
        let p = |f: &str| format!("{path}.{f}");
        let kind = match i.kind {
            RawIndexKind::Gsi => IndexKind::Global,
            RawIndexKind::Lsi => IndexKind::Local,
        };
        let entry_size_bytes = self.item_bytes(i.entry_size.as_ref(), &p("entry_size"))?;
        let key_size_bytes = self.item_bytes(i.key_size.as_ref(), &p("key_size"))?;
        let projected = self.item_bytes(i.projected_size.as_ref(), &p("projected_size"))?;
        let projection = match (i.projection.value, projected) {
            (RawProjection::KeysOnly, None) => Projection::KeysOnly,
            (RawProjection::All, None) => Projection::All,
            (RawProjection::Include, Some(projected_bytes)) => {
                Projection::Include { projected_bytes }
            }
            (RawProjection::Include, None) if entry_size_bytes.is_some() => Projection::Include {
                projected_bytes: Decimal::ZERO,
            },
            (RawProjection::Include, None) => {
                return Err(self.err(&p("projection"), position(&i.projection), "an `include` projection needs `projected_size` (bytes of the included attributes)", "Consider `projected_size: 120 B`, or `entry_size` for the whole entry."));
            }
            (_, Some(_)) => {
                return Err(self.err(
                    &p("projected_size"),
                    position(&i.projection),
                    "`projected_size` applies only to `projection: include`",
                    "Consider removing it, or `projection: include`.",
                ));
            }
        };
        if entry_size_bytes.is_none() {
            let needs_keys = !matches!(projection, Projection::All);
            if needs_keys && (table_key.is_none() || key_size_bytes.is_none()) {
                return Err(self.err(&path, position(&i.projection), "the index entry size cannot be derived: it needs the table's `key_size` and the index's `key_size`", "Consider adding `key_size` to the table and to the index (bytes of the key attributes' names and values), or `entry_size` to the index."));
            }
            if !needs_keys && table_item.is_none() {
                return Err(self.err(
                    &path,
                    position(&i.projection),
                    "an ALL projection copies the item, but the table has no `item_size`",
                    "Consider adding `item_size` to the table, or `entry_size` to the index.",
                ));
            }
        }
        let moving = self.share(
            i.updates_moving_key.as_ref(),
            &p("updates_moving_key"),
            Decimal::ZERO,
        )?;
        let adding = self.share(
            i.updates_adding_key.as_ref(),
            &p("updates_adding_key"),
            Decimal::ZERO,
        )?;
        let removing = self.share(
            i.updates_removing_key.as_ref(),
            &p("updates_removing_key"),
            Decimal::ZERO,
        )?;
        if moving + adding + removing > Decimal::ONE {
            return Err(self.err(
                &path,
                position(&i.projection),
                "`updates_moving_key` + `updates_adding_key` + `updates_removing_key` is above 1",
                "Consider shares of all updates that add up to at most 1.",
            ));
        }
        // ALL sees every attribute change; KEYS_ONLY none; INCLUDE is assumed to (1) unless
        // the workload says how often an included attribute changes.
        let touching_default = match projection {
            Projection::KeysOnly => Decimal::ZERO,
            _ => Decimal::ONE,
        };
        let rcu = self.count(i.rcu.as_ref(), &p("rcu"))?;
        let wcu = self.count(i.wcu.as_ref(), &p("wcu"))?;
        let own = rcu.is_some() || wcu.is_some() || i.auto_scaling.is_some();
        let index_capacity = match (kind, capacity) {
            (IndexKind::Local, _) if own => {
                return Err(self.err(
                    &path,
                    position(&i.projection),
                    "an LSI shares the table's capacity and takes no `rcu`/`wcu`/`auto_scaling`",
                    "Consider removing them from the LSI.",
                ));
            }
            (IndexKind::Global, CapacityMode::OnDemand) if own => {
                return Err(self.err(
                    &path,
                    position(&i.projection),
                    "a GSI of an on-demand table takes no provisioned capacity",
                    "Consider removing it, or making the table provisioned.",
                ));
            }
            (IndexKind::Local, _) | (IndexKind::Global, CapacityMode::OnDemand) => None,
            (IndexKind::Global, CapacityMode::Provisioned(table_cap)) => {
                let (read, write) = match (rcu, wcu, &i.auto_scaling) {
                    (Some(r), Some(w), None) => (Capacity::Fixed(r), Capacity::Fixed(w)),
                    (None, None, Some(a)) => self.auto_scaling(a, &p("auto_scaling"))?,
                    // AWS applies a table's auto scaling settings to its GSIs by default.
                    (None, None, None)
                        if matches!(table_cap.read, Capacity::AutoScaling { .. }) =>
                    {
                        (table_cap.read, table_cap.write)
                    }
                    _ => {
                        return Err(self.err(&path, position(&i.projection), "a GSI of a provisioned table needs its own `rcu` and `wcu` (or `auto_scaling`)", "Consider adding `rcu` and `wcu` to the index."));
                    }
                };
                Some(ProvisionedCapacity {
                    read,
                    write,
                    reserved: None,
                })
            }
        };
        let observed = match &i.observed {
            Some(o) => IndexObserved {
                read_units: self.count(o.read_units.as_ref(), &p("observed.read_units"))?,
                write_units: self.count(o.write_units.as_ref(), &p("observed.write_units"))?,
                storage: self.size(o.storage.as_ref(), &p("observed.storage"))?,
            },
            None => IndexObserved::default(),
        };
        Ok(Index {
            name: name.to_string(),
            kind,
            projection,
            key_size_bytes,
            entry_size_bytes,
            key_share: self.share(i.key_share.as_ref(), &p("key_share"), Decimal::ONE)?,
            updates_moving_key: moving,
            updates_adding_key: adding,
            updates_removing_key: removing,
            updates_touching_projection: self.share(
                i.updates_touching_projection.as_ref(),
                &p("updates_touching_projection"),
                touching_default,
            )?,
            capacity: index_capacity,
            observed,
        })
    }

    fn pattern(
        &self,
        table_path: &str,
        name: &str,
        p: &RawPattern,
        table: &Table,
    ) -> Result<AccessPattern, Error> {
        let path = format!("{table_path}.patterns.{name}");
        let f = |field: &str| format!("{path}.{field}");
        let operation = operation(p.op.value);
        let rate = self.scalar(
            &p.rate,
            &f("rate"),
            parse_rate,
            "a rate such as `400/s` or `41M/month` (a plain number is per second)",
        )?;
        // No table serves a trillion requests a second: such a rate is a unit typo, and would
        // only make numbers nobody can use.
        let per_second = rate
            .monthly(Decimal::from(730))
            .and_then(|m| m.checked_div(Decimal::from(2_628_000)));
        if per_second.is_none_or(|r| r > Decimal::from(MAX_RATE_PER_SECOND)) {
            return Err(self.err(
                &f("rate"),
                position(&p.rate),
                format!("`{}` is above 10^12 requests a second", p.rate.value),
                "Consider checking the unit (`/month` rather than `/s`?) and the multiplier (M = 10^6, B = 10^9).",
            ));
        }
        let item_size_bytes = self.item_size(p.item_size.as_ref(), &f("item_size"))?;

        let items = self.count(p.items.as_ref(), &f("items"))?;
        if let (Some(n), Some(s)) = (items, p.items.as_ref())
            && n > Decimal::from(MAX_ITEMS)
        {
            return Err(self.err(
                &f("items"),
                position(s),
                format!("`{}` items per operation is above 10^15", s.value),
                "Consider the items one operation touches; a multiplier typo (B for M)?",
            ));
        }
        let items_per_op = match (operation.is_multi_item(), items) {
            (true, Some(n)) => n,
            (true, None) => {
                return Err(self.err(&path, position(&p.op), format!("a `{}` needs `items` (items per operation)", operation.name()), match operation {
                    Operation::Scan => "Consider `items:` the number of items the scan evaluates (filters do not reduce it).",
                    Operation::Query => "Consider `items:` the number of items a query returns (their sizes are summed, then rounded to 4 KB).",
                    _ => "Consider `items:` the number of items in the batch or transaction.",
                }));
            }
            (false, Some(_)) => {
                return Err(self.err(
                    &f("items"),
                    position(&p.op),
                    format!(
                        "a `{}` works on one item and takes no `items`",
                        operation.name()
                    ),
                    "Consider `batch-get`, `batch-write` or `query` for several items.",
                ));
            }
            (false, None) => Decimal::ONE,
        };
        let limit = match operation {
            Operation::BatchWrite => Some(25),
            Operation::BatchGet | Operation::TransactGet | Operation::TransactWrite => Some(100),
            _ => None,
        };
        if let (Some(limit), Some(items_scalar)) = (limit, p.items.as_ref())
            && (items_per_op > Decimal::from(limit) || items_per_op < Decimal::ONE)
        {
            return Err(self.err(
                &f("items"),
                position(items_scalar),
                format!(
                    "a `{}` holds 1 to {limit} items, not `{}`",
                    operation.name(),
                    items_scalar.value
                ),
                "Consider splitting it into several operations (a higher rate).",
            ));
        }

        let index = match &p.index {
            None => None,
            Some(iname) => {
                let Some(index) = table.indexes.iter().find(|i| i.name == iname.value) else {
                    let names: Vec<&str> = table.indexes.iter().map(|i| i.name.as_str()).collect();
                    let help = suggest::consider(&iname.value, &names, "the table's indexes");
                    return Err(self.err(
                        &f("index"),
                        position(iname),
                        format!("table `{}` has no index `{}`", table.name, iname.value),
                        help,
                    ));
                };
                if !matches!(operation, Operation::Query | Operation::Scan) {
                    return Err(self.err(
                        &f("index"),
                        position(iname),
                        format!(
                            "a `{}` cannot run on an index; only `query` and `scan` can",
                            operation.name()
                        ),
                        "Consider `op: query` on the index.",
                    ));
                }
                Some(index)
            }
        };
        if p.fetch_base_items && !index.is_some_and(|i| i.kind == IndexKind::Local) {
            return Err(self.err(
                &f("fetch_base_items"),
                position(&p.op),
                "only a query on an LSI can fetch non-projected attributes from the table",
                "Consider removing `fetch_base_items`, or querying the table.",
            ));
        }

        let consistency = match (&p.consistency, operation.is_read(), operation) {
            (Some(c), false, _) | (Some(c), _, Operation::TransactGet) => {
                return Err(self.err(&f("consistency"), position(c), format!("a `{}` has no read consistency", operation.name()), "Consider removing `consistency`; transactional reads always cost 2 units per 4 KB."));
            }
            (Some(c), true, _) => {
                let parsed = parse_consistency(&c.value).map_err(|why| {
                    let help = match suggest::closest(c.value.trim(), ["strong", "eventual"]) {
                        Some(close) => format!("Consider `{close}` (did you mean it?), or a share such as `92% eventual`."),
                        None => "Consider `strong`, `eventual`, or a share such as `92% eventual`.".to_string(),
                    };
                    self.err(&f("consistency"), position(c), why, help)
                })?;
                let on_gsi = index.is_some_and(|i| i.kind == IndexKind::Global);
                if on_gsi && parsed != Consistency::Eventual {
                    return Err(self.err(&f("consistency"), position(c), format!("a strongly consistent read on GSI `{}`: GSIs support eventual consistency only", index.map_or("", |i| i.name.as_str())), "Consider `consistency: eventual`, or querying the table or an LSI."));
                }
                parsed
            }
            (None, true, Operation::TransactGet) => Consistency::Strong,
            (None, true, _) if index.is_some_and(|i| i.kind == IndexKind::Global) => {
                Consistency::Eventual
            }
            (None, true, _) => {
                return Err(self.err(&path, position(&p.op), format!("read pattern `{name}` does not say its consistency"), "Consider `consistency: eventual` (half price, DynamoDB's default) or `consistency: strong`."));
            }
            (None, false, _) => Consistency::Strong,
        };

        let mut index_effects = Vec::new();
        for (iname, effect) in &p.index_effects {
            let epath = f(&format!("index_effects.{iname}"));
            if !table.indexes.iter().any(|i| &i.name == iname) {
                let names: Vec<&str> = table.indexes.iter().map(|i| i.name.as_str()).collect();
                return Err(self.err(
                    &epath,
                    position(effect),
                    format!("table `{}` has no index `{iname}`", table.name),
                    suggest::consider(iname, &names, "the table's indexes"),
                ));
            }
            if operation.is_read() {
                return Err(self.err(
                    &epath,
                    position(effect),
                    "a read pattern writes no index entries",
                    "Consider removing `index_effects` from this read pattern.",
                ));
            }
            index_effects.push((iname.clone(), self.scalar(effect, &epath, parse_index_effect, "one of `none`, `put`, `add`, `remove`, `update`, `move`, or index writes per item written such as `0.5`")?));
        }

        let size_known = item_size_bytes.is_some()
            || table.item_size_bytes.is_some()
            || index.is_some_and(|i| {
                i.entry_size_bytes.is_some() || !matches!(i.projection, Projection::All)
            });
        if !size_known {
            return Err(self.err(&path, position(&p.op), format!("pattern `{name}` has no `item_size` and the table has none"), "Consider `item_size: 1.2 KB` on the pattern or the table (for writes: the larger of the item before and after)."));
        }
        Ok(AccessPattern {
            name: name.to_string(),
            operation,
            rate,
            item_size_bytes,
            items_per_op,
            consistency,
            index: index.map(|i| i.name.clone()),
            fetches_base_items: p.fetch_base_items,
            description: p.description.clone(),
            index_effects,
            traffic: p
                .traffic
                .as_ref()
                .map(|tr| self.traffic(tr, &f("traffic")))
                .transpose()?,
        })
    }
}

/// `strong`, `eventual`, or a share of eventually consistent reads: `92% eventual`.
fn parse_consistency(text: &str) -> Result<Consistency, String> {
    match text.trim() {
        "strong" => Ok(Consistency::Strong),
        "eventual" => Ok(Consistency::Eventual),
        other => {
            let share = other
                .strip_suffix("eventual")
                .map(str::trim)
                .ok_or_else(|| format!("unknown consistency `{other}`"))?;
            let eventual_share =
                parse_share(share).map_err(|why| format!("{why} in consistency `{other}`"))?;
            Ok(match eventual_share {
                s if s.is_zero() => Consistency::Strong,
                s if s == Decimal::ONE => Consistency::Eventual,
                eventual_share => Consistency::Mixed { eventual_share },
            })
        }
    }
}

/// An index effect keyword (DESIGN.md §3) as index writes per item written: an item without
/// the key writes nothing (`none`), a put of an item carrying it or an update that adds or
/// removes it or changes a projected attribute writes 1, an update that moves it writes 2.
fn parse_index_effect(text: &str) -> Result<Decimal, String> {
    match text.trim() {
        "none" => Ok(Decimal::ZERO),
        "put" | "add" | "remove" | "update" | "delete" => Ok(Decimal::ONE),
        "move" => Ok(Decimal::TWO),
        other => {
            let n = parse_count(other).map_err(|_| format!("unknown index effect `{other}`"))?;
            if n > Decimal::TWO {
                return Err(format!(
                    "`{other}` index writes per item is above 2 (a key move)"
                ));
            }
            Ok(n)
        }
    }
}

fn operation(op: RawOperation) -> Operation {
    match op {
        RawOperation::Get => Operation::Get,
        RawOperation::BatchGet => Operation::BatchGet,
        RawOperation::Query => Operation::Query,
        RawOperation::Scan => Operation::Scan,
        RawOperation::Put => Operation::Put,
        RawOperation::Update => Operation::Update,
        RawOperation::Delete => Operation::Delete,
        RawOperation::BatchWrite => Operation::BatchWrite,
        RawOperation::TransactGet => Operation::TransactGet,
        RawOperation::TransactWrite => Operation::TransactWrite,
    }
}
