//! Turns a raw workload file into a validated `model::Workload`. Every refusal names the file,
//! the path inside it, the line and column, what was expected, and suggests a fix: negative
//! or non-numeric quantities, shares outside [0, 1], a strong read on a GSI, an item over
//! 400 KB, a pattern on an index that does not exist, a size the rules need but cannot know.

use rust_decimal::Decimal;

use super::quantity::{parse_count, parse_rate, parse_share, parse_size};
use super::raw::{
    Quantity, RawAttributeType, RawBackups, RawClass, RawConsumer, RawConsumerKind, RawGb,
    RawGrowth, RawItemSize, RawKey, RawMode, RawObserved, RawSettings, RawSizeClass, RawStreamView,
    RawTable, RawWorkload,
};
use super::yaml::{self, position};
use crate::error::Error;
use crate::model::sample::{NoSamples, SampleReader};
use crate::model::{
    Backups, ConsumerKind, DataSize, Forecasting, GbConvention, Growth, KeySchema, SizeClass,
    Stream, StreamConsumer, Table, TableClass, TableObserved, Workload,
};

/// The largest item DynamoDB stores: 400 KB.
pub const MAX_ITEM_BYTES: u32 = 409_600;
/// The most items one operation may touch (and a table may hold): far beyond any real table,
/// and low enough that unit arithmetic on them cannot leave a decimal's range.
pub(super) const MAX_ITEMS: u64 = 1_000_000_000_000_000;
/// The most requests a second a pattern may state.
pub(super) const MAX_RATE_PER_SECOND: u64 = 1_000_000_000_000;
/// A stream `GetRecords` call returns at most 1,000 records.
const MAX_RECORDS_PER_CALL: u32 = 1000;

/// Settings a workload file may set; the command line overrides them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SettingsOverrides {
    pub month_hours: Option<Decimal>,
    pub gb: Option<GbConvention>,
    pub free_tier: Option<bool>,
    /// `settings.fx`: the currency to show costs in and the rate to it.
    pub fx: Option<FxStated>,
}

/// A currency to show costs in, with the rate(s) to it, as stated on the command line or in a
/// workload's `settings.fx`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FxStated {
    /// The currency costs are shown in (ISO 4217, e.g. `EUR`).
    pub currency: String,
    /// Rates to `currency`: per source currency, or (`None`) from whatever currency the prices
    /// are in.
    pub rates: Vec<(Option<String>, Decimal)>,
    /// The rate's day, `YYYY-MM-DD`.
    pub date: Option<String>,
    /// Where the rate comes from.
    pub source: String,
}

/// An ISO 4217 code: three capital letters.
///
/// # Errors
/// Anything else, with what was expected.
pub fn parse_currency(text: &str) -> Result<String, String> {
    let t = text.trim();
    if t.len() == 3 && t.bytes().all(|b| b.is_ascii_uppercase()) {
        Ok(t.to_string())
    } else {
        Err(format!(
            "`{t}` is not a currency code (three capital letters, ISO 4217)"
        ))
    }
}

/// The largest exchange rate accepted: far above any rate between currencies in use (1 KWD
/// is a few hundred thousand IRR at most), low enough that converted figures keep their digits.
const MAX_FX_RATE: u32 = 1_000_000;
/// The most decimal places a rate may have (published rates have 4 to 6).
const MAX_FX_DECIMALS: u32 = 10;

/// An exchange rate: a positive exact decimal (`0.92`, `1.0845`, `151.2`), at most 1,000,000
/// with at most 10 decimal places.
///
/// # Errors
/// Not a number, zero or negative, or outside those bounds.
pub fn parse_fx_rate(text: &str) -> Result<Decimal, String> {
    let rate = super::quantity::parse_number(text)?.normalize();
    if rate <= Decimal::ZERO {
        return Err(format!("`{}` is not a positive exchange rate", text.trim()));
    }
    if rate > Decimal::from(MAX_FX_RATE) || rate.scale() > MAX_FX_DECIMALS {
        return Err(format!(
            "`{}` is not an exchange rate: rates are at most 1,000,000 with at most 10 decimal places",
            text.trim()
        ));
    }
    Ok(rate)
}

/// A calendar day, `YYYY-MM-DD`, that exists.
///
/// # Errors
/// Another shape, or a day the month does not have.
pub fn parse_day(text: &str) -> Result<String, String> {
    let t = text.trim();
    crate::model::period::parse_day(t)
        .map(|_| t.to_string())
        .ok_or_else(|| format!("`{t}` is not a date of the form YYYY-MM-DD"))
}

/// Parses and validates the workload in `text`, read from `file`. An item sample
/// (`item_size: { sample: FILE }`) is refused: see `parse_workload_at`.
///
/// # Errors
/// Any malformed, unknown or out-of-range input, with its file, path and position.
pub fn parse_workload(text: &str, file: &str) -> Result<(Workload, SettingsOverrides), Error> {
    parse_workload_at(text, file, file, &NoSamples)
}

/// As `parse_workload`, with sample files relative to `base_file`'s folder (a workload
/// written from a template and a usage file, named `label` in errors), measured by
/// `samples`.
///
/// # Errors
/// As `parse_workload`; a sample `samples` cannot measure.
pub fn parse_workload_at(
    text: &str,
    label: &str,
    base_file: &str,
    samples: &dyn SampleReader,
) -> Result<(Workload, SettingsOverrides), Error> {
    let raw: RawWorkload = yaml::parse(text, label)?;
    let base = std::path::Path::new(base_file)
        .parent()
        .map(std::path::Path::to_path_buf);
    convert(&raw, label, text, base, samples)
}

/// Validates a workload held as an untyped document (a scenario's merged document), named
/// `label` in errors. Positions are unknown: the document has no text.
///
/// # Errors
/// As `parse_workload`, without line and column.
pub fn workload_from_value(
    doc: serde_json::Value,
    file: &str,
    label: &str,
    samples: &dyn SampleReader,
) -> Result<(Workload, SettingsOverrides), Error> {
    // Quantities are read from their text: `yaml::parse_value` keeps every number as the text
    // it was written as, so no number (and no float) reaches this point.
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
    convert(&raw, label, "", base, samples)
}

fn convert(
    raw: &RawWorkload,
    file: &str,
    text: &str,
    base_dir: Option<std::path::PathBuf>,
    samples: &dyn SampleReader,
) -> Result<(Workload, SettingsOverrides), Error> {
    let cx = Cx {
        file,
        text,
        base_dir,
        samples,
        placeholders: std::cell::RefCell::new(Vec::new()),
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
        if file == super::STDIN {
            return "standard input".to_string();
        }
        std::path::Path::new(file)
            .file_stem()
            .map_or_else(|| file.to_string(), |s| s.to_string_lossy().into_owned())
    });
    Ok((
        Workload {
            name,
            description: raw.description.clone(),
            prices: raw.prices.clone(),
            price_dirs: raw
                .price_dirs
                .iter()
                .map(
                    |d| match (&cx.base_dir, std::path::Path::new(d).is_absolute()) {
                        (Some(base), false) => base.join(d).display().to_string(),
                        _ => d.clone(),
                    },
                )
                .collect(),
            tables,
            reservations: cx.reservations(raw.commitments.as_ref())?,
            savings_plan: cx.savings_plan(
                raw.commitments
                    .as_ref()
                    .and_then(|c| c.savings_plan.as_ref()),
            )?,
            placeholders: cx.placeholders.take(),
        },
        settings,
    ))
}

/// A table's key, and its attributes with their types (`S`, `N`, `B`).
type KeyAndAttributes = (Option<KeySchema>, Vec<(String, char)>);

pub(super) struct Cx<'a> {
    file: &'a str,
    text: &'a str,
    /// The folder sample files are read from (the workload file's).
    base_dir: Option<std::path::PathBuf>,
    /// What measures them.
    samples: &'a dyn SampleReader,
    /// Paths of the values written as `TODO` (placeholders `ddbcost import` leaves for usage
    /// a template cannot know), in the order met.
    placeholders: std::cell::RefCell<Vec<String>>,
}

/// `3%/month` (or `-2%/month`) as a monthly growth rate.
fn parse_growth_rate(text: &str) -> Result<Decimal, String> {
    let t = text.trim();
    let Some(pct) = t
        .strip_suffix("/month")
        .map(str::trim)
        .and_then(|p| p.strip_suffix('%'))
    else {
        return Err(format!("`{t}` is not a growth rate"));
    };
    let (negative, digits) = match pct.trim().strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, pct.trim()),
    };
    let share = super::quantity::parse_number(digits)?
        .checked_div(Decimal::ONE_HUNDRED)
        .ok_or_else(|| format!("`{t}` is too large"))?;
    let rate = if negative {
        Decimal::ZERO.saturating_sub(share)
    } else {
        share
    };
    if rate <= Decimal::NEGATIVE_ONE || rate > Decimal::TEN {
        return Err(format!("`{t}` is outside −100 %…+1000 % a month"));
    }
    Ok(rate)
}

/// `YYYY-MM` as (year, month).
pub(super) fn parse_month(text: &str) -> Result<(i64, u32), String> {
    let t = text.trim();
    let parsed = t.split_once('-').and_then(|(y, m)| {
        let (y, m): (i64, u32) = (y.parse().ok()?, m.parse().ok()?);
        (y.to_string().len() == 4
            && m.to_string().len() <= 2
            && (1..=12).contains(&m)
            && (1970..=9999).contains(&y)
            && t.len() == 7)
            .then_some((y, m))
    });
    parsed.ok_or_else(|| format!("`{t}` is not a month of the form YYYY-MM"))
}

const MONTH_NAMES: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];

impl Cx<'_> {
    /// `growth`, `seasonal` and `from` of a table or pattern at `path`.
    pub(super) fn forecasting(
        &self,
        growth: Option<&RawGrowth>,
        seasonal: &indexmap::IndexMap<String, Quantity>,
        from: Option<&Quantity>,
        path: &str,
    ) -> Result<Forecasting, Error> {
        let factor = |s: &Quantity, p: &str| -> Result<Decimal, Error> {
            let f = self.scalar(
                s,
                p,
                super::quantity::parse_number,
                "a factor such as `1.4`",
            )?;
            if f.is_sign_negative() || f > Decimal::from(1000) {
                return Err(self.err(
                    p,
                    position(s),
                    format!("factor `{}` is outside 0–1000", s.value.trim()),
                    "Consider a multiplier of the month's rates, such as `1.4`.",
                ));
            }
            Ok(f)
        };
        let growth = match growth {
            None => None,
            Some(RawGrowth::Rate(s)) => Some(Growth::Monthly(self.scalar(
                s,
                &format!("{path}.growth"),
                parse_growth_rate,
                "a monthly growth such as `3%/month`",
            )?)),
            Some(RawGrowth::Factors(list)) => {
                let mut out = Vec::new();
                for (i, s) in list.iter().enumerate() {
                    out.push(factor(s, &format!("{path}.growth[{i}]"))?);
                }
                if out.is_empty() {
                    return Err(self.err(
                        &format!("{path}.growth"),
                        None,
                        "an empty list of growth factors",
                        "Consider one factor per month of the forecast, or `3%/month`.",
                    ));
                }
                Some(Growth::Factors(out))
            }
        };
        let mut months = Vec::new();
        for (name, s) in seasonal {
            let p = format!("{path}.seasonal.{name}");
            let Some(m) = MONTH_NAMES
                .iter()
                .position(|n| *n == name.to_ascii_lowercase())
            else {
                return Err(self.err(
                    &p,
                    position(s),
                    format!("`{name}` is not a month"),
                    "Consider `jan` … `dec`.",
                ));
            };
            months.push((
                u32::try_from(m).unwrap_or(0).saturating_add(1),
                factor(s, &p)?,
            ));
        }
        let from = from
            .map(|s| {
                self.scalar(
                    s,
                    &format!("{path}.from"),
                    parse_month,
                    "a month such as `2027-03`",
                )
            })
            .transpose()?;
        Ok(Forecasting {
            growth,
            seasonal: months,
            from,
        })
    }
}

impl Cx<'_> {
    /// `commitments.reserved`: blocks of 100 units, a term, an optional region and start.
    fn reservations(
        &self,
        c: Option<&super::raw::RawCommitments>,
    ) -> Result<Vec<crate::model::Reservation>, Error> {
        let mut out = Vec::new();
        for (i, r) in c
            .map(|c| c.reserved.as_slice())
            .unwrap_or_default()
            .iter()
            .enumerate()
        {
            let path = format!("commitments.reserved[{i}]");
            let units = self
                .units(Some(&r.units), &format!("{path}.units"), "`units`")?
                .unwrap_or_default();
            if units.is_zero()
                || !units
                    .checked_rem(Decimal::ONE_HUNDRED)
                    .unwrap_or_default()
                    .is_zero()
            {
                return Err(self.err(
                    &format!("{path}.units"),
                    position(&r.units),
                    format!(
                        "reserved capacity is sold in blocks of 100 units, not `{}`",
                        r.units.value.trim()
                    ),
                    "Consider a multiple of 100, e.g. `units: 200`.",
                ));
            }
            out.push(crate::model::Reservation {
                region: r.region.clone(),
                kind: match r.capacity.value {
                    super::raw::RawCapacityKind::Rcu => crate::model::CapacityKind::Rcu,
                    super::raw::RawCapacityKind::Wcu => crate::model::CapacityKind::Wcu,
                },
                blocks: units.checked_div(Decimal::ONE_HUNDRED).unwrap_or_default(),
                term: match r.term.value {
                    super::raw::RawTerm::OneYear => crate::model::ReservedTerm::OneYear,
                    super::raw::RawTerm::ThreeYears => crate::model::ReservedTerm::ThreeYears,
                },
                start: r
                    .start
                    .as_ref()
                    .map(|s| {
                        self.scalar(
                            s,
                            &format!("{path}.start"),
                            parse_month,
                            "a month such as `2027-01`",
                        )
                    })
                    .transpose()?,
            });
        }
        Ok(out)
    }
}

impl Cx<'_> {
    /// `commitments.savings_plan`: a positive commitment per hour, a 1-year term (the only
    /// one AWS sells), an optional start month and rates.
    fn savings_plan(
        &self,
        raw: Option<&super::raw::RawSavingsPlan>,
    ) -> Result<Option<crate::model::SavingsPlan>, Error> {
        let Some(sp) = raw else { return Ok(None) };
        let path = "commitments.savings_plan";
        let per_hour = self.scalar(
            &sp.per_hour,
            &format!("{path}.per_hour"),
            super::quantity::parse_money,
            "an amount per hour in the price table's currency, such as `0.50`",
        )?;
        if per_hour.is_zero() {
            return Err(self.err(
                &format!("{path}.per_hour"),
                position(&sp.per_hour),
                "a savings plan of 0 per hour commits to nothing",
                "Consider the commitment in the price table's currency per hour, e.g. `per_hour: 0.50`, or remove the plan.",
            ));
        }
        if let Some(t) = &sp.term
            && matches!(t.value, super::raw::RawTerm::ThreeYears)
        {
            return Err(self.err(
                &format!("{path}.term"),
                position(t),
                "Database Savings Plans are sold for 1 year, not 3",
                "Consider `term: 1y` (or leave it out), or reserved capacity (`commitments.reserved`) for a 3-year term.",
            ));
        }
        let start = sp
            .start
            .as_ref()
            .map(|s| {
                self.scalar(
                    s,
                    &format!("{path}.start"),
                    parse_month,
                    "a month such as `2027-01`",
                )
            })
            .transpose()?;
        let rates = sp
            .rates
            .as_ref()
            .map(|r| {
                super::savings_plan::rates(
                    r,
                    &format!("{path}.rates"),
                    "stated in the workload",
                    &|s, p, why| {
                        self.err(
                            p,
                            super::savings_plan::at(s),
                            why,
                            "Consider the rate as a fraction of list price, e.g. `0.8` for 20 % off.",
                        )
                    },
                )
            })
            .transpose()?;
        Ok(Some(crate::model::SavingsPlan {
            per_hour,
            start,
            rates,
        }))
    }
}

impl Cx<'_> {
    /// `keys: { distinct, busiest_share | busiest_read_share, busiest_write_share }`: at
    /// least one distinct value, shares within [0, 1] (a specific share overrides the common
    /// one), and a busiest value taking at least the average share (1 ÷ distinct).
    pub(super) fn key_spread(
        &self,
        raw: Option<&super::raw::RawKeys>,
        path: &str,
    ) -> Result<Option<crate::model::KeySpread>, Error> {
        let Some(k) = raw else { return Ok(None) };
        let distinct = self.whole(
            k.distinct.as_ref(),
            &format!("{path}.distinct"),
            "`distinct`",
        )?;
        if distinct.is_some_and(|d| d.is_zero()) {
            return Err(self.err(
                &format!("{path}.distinct"),
                k.distinct.as_ref().and_then(position),
                "a key has at least one distinct value",
                "Consider the number of distinct partition-key values, e.g. `distinct: 41200`.",
            ));
        }
        let share = |s: Option<&Quantity>, field: &str| -> Result<Option<Decimal>, Error> {
            s.map(|s| self.share(Some(s), &format!("{path}.{field}"), Decimal::ZERO))
                .transpose()
        };
        let common = share(k.busiest_share.as_ref(), "busiest_share")?;
        let reads = share(k.busiest_read_share.as_ref(), "busiest_read_share")?.or(common);
        let writes = share(k.busiest_write_share.as_ref(), "busiest_write_share")?.or(common);
        if let Some(d) = distinct {
            for (value, field, s) in [
                (reads, "busiest_read_share", k.busiest_read_share.as_ref()),
                (
                    writes,
                    "busiest_write_share",
                    k.busiest_write_share.as_ref(),
                ),
            ] {
                let average = Decimal::ONE.checked_div(d).unwrap_or_default();
                if let Some(v) = value
                    && v < average
                {
                    let (field, s) = match s {
                        Some(s) => (field, Some(s)),
                        None => ("busiest_share", k.busiest_share.as_ref()),
                    };
                    return Err(self.err(
                        &format!("{path}.{field}"),
                        s.and_then(position),
                        format!(
                            "the busiest of {} values takes at least 1/{} of the traffic, not {}",
                            d.normalize(),
                            d.normalize(),
                            v.normalize()
                        ),
                        "Consider the share the busiest value was measured to take (it is at least the average share).",
                    ));
                }
            }
        }
        Ok(Some(crate::model::KeySpread {
            distinct,
            busiest_reads: reads,
            busiest_writes: writes,
        }))
    }
}

/// A key schema as written.
pub(super) fn key_schema(k: &RawKey) -> KeySchema {
    KeySchema {
        partition: k.partition.value.clone(),
        sort: k.sort.as_ref().map(|s| s.value.clone()),
    }
}

/// The value a placeholder is written as.
pub const PLACEHOLDER: &str = "TODO";

impl Cx<'_> {
    pub(super) fn err(
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

    pub(super) fn scalar<T>(
        &self,
        s: &Quantity,
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

    pub(super) fn count(&self, s: Option<&Quantity>, path: &str) -> Result<Option<Decimal>, Error> {
        let s = s.filter(|s| !self.placeholder(s, path));
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

    /// A whole number (capacity units, hours, blocks): read from its decimal value, so `4.0`
    /// is 4 and `4.5` is refused with its path — never the digits without their scale.
    pub(super) fn whole(
        &self,
        s: Option<&Quantity>,
        path: &str,
        what: &str,
    ) -> Result<Option<Decimal>, Error> {
        let Some(value) = self.count(s, path)? else {
            return Ok(None);
        };
        if !value.fract().is_zero() {
            return Err(self.err(
                path,
                s.and_then(position),
                format!("{what} must be a whole number, not {}", value.normalize()),
                "Consider a whole number: DynamoDB counts these in whole units.",
            ));
        }
        Ok(Some(value.trunc().normalize()))
    }

    pub(super) fn share(
        &self,
        s: Option<&Quantity>,
        path: &str,
        default: Decimal,
    ) -> Result<Decimal, Error> {
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

    /// Whether `s` is a placeholder (`TODO`): if so it is recorded under `path`, and the
    /// value counts as not stated.
    pub(super) fn placeholder(&self, s: &Quantity, path: &str) -> bool {
        let todo = s.value.trim() == PLACEHOLDER;
        if todo {
            self.placeholders.borrow_mut().push(path.to_string());
        }
        todo
    }

    /// Whether the value at `path` was a placeholder.
    pub(super) fn is_placeholder(&self, path: &str) -> bool {
        self.placeholders.borrow().iter().any(|p| p == path)
    }

    pub(super) fn size(&self, s: Option<&Quantity>, path: &str) -> Result<Option<DataSize>, Error> {
        let s = s.filter(|s| !self.placeholder(s, path));
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
    pub(super) fn item_bytes(
        &self,
        s: Option<&Quantity>,
        path: &str,
    ) -> Result<Option<Decimal>, Error> {
        let Some(s) = s.filter(|s| !self.placeholder(s, path)) else {
            return Ok(None);
        };
        let size = self.scalar(
            s,
            path,
            parse_size,
            "a size such as `3.5 KB` or `800` (bytes)",
        )?;
        if size.unit == crate::model::SizeUnit::B
            && !size.amount.fract().is_zero()
            && !s.value.trim().ends_with(['b', 'B'])
        {
            return Err(self.err(
                path,
                position(s),
                format!("a fractional size needs its unit: `{}`", s.value.trim()),
                "Consider writing the unit, e.g. `114.5 B` or `3.5 KB`.",
            ));
        }
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

    /// An item size written out, a list of size classes, or the sizes of the items in a sample
    /// file (relative to the workload's folder), measured by DynamoDB's rules. Returns the
    /// mean size and, when items differ, the classes it is made of (request units are rounded
    /// per item, so the engine rounds each class on its own).
    pub(super) fn item_size(
        &self,
        s: Option<&yaml::Spanned<RawItemSize>>,
        path: &str,
    ) -> Result<Option<(Decimal, Vec<SizeClass>)>, Error> {
        let Some(s) = s else { return Ok(None) };
        let spanned = |value: String| Quantity::at(value, s.referenced, s.defined);
        match &s.value {
            RawItemSize::Text(text) => Ok(self
                .item_bytes(Some(&spanned(text.clone())), path)?
                .map(|b| (b, Vec::new()))),
            RawItemSize::Number => {
                let text = yaml::source_text(s, self.text).ok_or_else(|| {
                    self.err(
                        path,
                        position(s),
                        "this size cannot be read from its text",
                        "Consider quoting it with its unit, e.g. `\"3.5 KB\"`.",
                    )
                })?;
                Ok(self
                    .item_bytes(Some(&spanned(text.to_string())), path)?
                    .map(|b| (b, Vec::new())))
            }
            RawItemSize::Classes(classes) => self.size_classes(classes, path, s).map(Some),
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
                let measured = self.samples.measure(&shown).map_err(|message| {
                    // The parser may quote the file's text (`invalid type: string "…"`):
                    // a file named as a sample may be anything, so its text is not shown.
                    let why = redact_quoted(&message);
                    self.err(path, position(s), format!("sample `{shown}`: {why}"), "Consider a file of items in DynamoDB JSON or plain JSON (see `ddbcost size`).")
                })?;
                if measured.oversized > 0 {
                    return Err(self.err(
                        path,
                        position(s),
                        format!("sample `{shown}` holds an item over DynamoDB's 400 KB limit"),
                        "Consider storing large attributes in S3.",
                    ));
                }
                match measured.mean {
                    // The sample's own distribution: one class per size, weighted by its count.
                    Some(mean) => Ok(Some((
                        mean,
                        measured
                            .buckets
                            .iter()
                            .map(|&(bytes, count)| SizeClass {
                                bytes: Decimal::from(bytes),
                                weight: Decimal::from(count),
                            })
                            .collect(),
                    ))),
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

    /// `[{ size, share }, …]`: sizes of at most 400 KB whose shares add up to exactly 1.
    fn size_classes(
        &self,
        classes: &[RawSizeClass],
        path: &str,
        s: &yaml::Spanned<RawItemSize>,
    ) -> Result<(Decimal, Vec<SizeClass>), Error> {
        if classes.is_empty() {
            return Err(self.err(
                path,
                position(s),
                "an empty list of item sizes",
                "Consider `[{ size: 1.8 KB, share: 90% }, { size: 4.5 KB, share: 10% }]`.",
            ));
        }
        let mut out = Vec::with_capacity(classes.len());
        let (mut total_share, mut mean) = (Decimal::ZERO, Decimal::ZERO);
        for (i, c) in classes.iter().enumerate() {
            let p = format!("{path}[{i}]");
            let bytes = self
                .item_bytes(Some(&c.size), &format!("{p}.size"))?
                .unwrap_or_default();
            let share = self.share(Some(&c.share), &format!("{p}.share"), Decimal::ZERO)?;
            // Shares are at most 1 each and sizes at most 409,600 B: sums stay small.
            total_share = total_share.saturating_add(share);
            mean = mean.saturating_add(bytes.saturating_mul(share));
            out.push(SizeClass {
                bytes,
                weight: share,
            });
        }
        if total_share != Decimal::ONE {
            return Err(self.err(
                path,
                position(s),
                format!(
                    "the shares of the item sizes add up to {}, not 1",
                    total_share.normalize()
                ),
                "Consider shares that cover every item once, e.g. `90%` and `10%`.",
            ));
        }
        Ok((mean, out))
    }

    pub(super) fn settings(&self, s: &RawSettings) -> Result<SettingsOverrides, Error> {
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
            fx: match &s.fx {
                Some(fx) => Some(FxStated {
                    currency: self.scalar(
                        &fx.currency,
                        "settings.fx.currency",
                        parse_currency,
                        "a currency code such as `EUR`",
                    )?,
                    rates: vec![(
                        None,
                        self.scalar(
                            &fx.rate,
                            "settings.fx.rate",
                            parse_fx_rate,
                            "units of the currency per unit of the price table's, such as `0.92`",
                        )?,
                    )],
                    date: Some(self.scalar(
                        &fx.date,
                        "settings.fx.date",
                        parse_day,
                        "the rate's day, such as `2026-11-30`",
                    )?),
                    source: fx.source.as_ref().map_or_else(
                        || format!("stated in {}", self.file),
                        |s| s.value.trim().to_string(),
                    ),
                }),
                None => None,
            },
        })
    }

    fn table(&self, name: &str, t: &RawTable) -> Result<Table, Error> {
        let path = format!("tables.{name}");
        let class = match t.class {
            Some(RawClass::StandardIa) => TableClass::StandardIa,
            _ => TableClass::Standard,
        };
        let capacity = self.capacity(t.capacity.as_ref(), &format!("{path}.capacity"), class)?;
        let item_size = self.item_size(t.item_size.as_ref(), &format!("{path}.item_size"))?;
        let item_size_bytes = item_size.as_ref().map(|(mean, _)| *mean);
        let item_size_classes = item_size.map(|(_, c)| c).unwrap_or_default();
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
        let (key, attributes) = self.key_and_attributes(t, &path)?;
        let max_throughput = self.max_throughput(t, &path)?;
        let forecast = self.forecasting(t.growth.as_ref(), &t.seasonal, t.from.as_ref(), &path)?;
        let mut attribute_sizes = Vec::with_capacity(t.attribute_sizes.len());
        for (attr, size) in &t.attribute_sizes {
            let at = format!("{path}.attribute_sizes.{attr}");
            if let Some(bytes) = self.item_bytes(Some(size), &at)? {
                attribute_sizes.push((attr.clone(), bytes));
            }
        }
        let mut table = Table {
            attribute_sizes,
            name: name.to_string(),
            forecast,
            key,
            attributes,
            ttl_attribute: t.ttl_attribute.clone(),
            keys: self.key_spread(t.keys.as_ref(), &format!("{path}.keys"))?,
            max_throughput,
            class,
            capacity,
            items: self.table_items(t, &path)?,
            item_size_bytes,
            item_size_classes,
            region: t.region.clone(),
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
            ttl: self.ttl(t, &path)?,
            stale: self.stale(t, &path)?,
            ttl_deletes: self.ttl_deletes(t, &path)?,
            indexes,
            patterns: Vec::new(),
            patterns_unknown: t.patterns.placeholder,
            observed: self.observed(t.observed.as_ref(), &path)?,
        };
        table.replicas = self.replicas(t, &path)?;
        table.stream = self.stream(t, &path)?;
        if t.patterns.placeholder {
            self.placeholders
                .borrow_mut()
                .push(format!("{path}.patterns"));
        }
        for (pname, p) in &t.patterns {
            let pattern = self.pattern(&path, pname, p, &table)?;
            table.patterns.push(pattern);
        }
        self.check_sparse(t, &path, name, &table)?;
        self.check_index_sizes(&path, &table)?;
        Ok(table)
    }

    /// The table's key and its typed attributes; a key attribute must be among them when
    /// attributes are listed.
    fn key_and_attributes(&self, t: &RawTable, path: &str) -> Result<KeyAndAttributes, Error> {
        let mut attributes = Vec::new();
        for (attr, kind) in &t.attributes {
            attributes.push((
                attr.clone(),
                match kind.value {
                    RawAttributeType::S => 'S',
                    RawAttributeType::N => 'N',
                    RawAttributeType::B => 'B',
                },
            ));
        }
        let key = t.key.as_ref().map(key_schema);
        if let (Some(k), false) = (&t.key, t.attributes.is_empty()) {
            for name in std::iter::once(&k.partition).chain(&k.sort) {
                if !t.attributes.contains_key(&name.value) {
                    return Err(self.err(
                        &format!("{path}.key"),
                        position(name),
                        format!("key attribute `{}` is not in `attributes`", name.value),
                        "Consider adding it to `attributes` with its type (`S`, `N` or `B`).",
                    ));
                }
            }
        }
        Ok((key, attributes))
    }

    /// `max_read_units`/`max_write_units`: on-demand caps, refused on a provisioned table.
    fn max_throughput(
        &self,
        t: &RawTable,
        path: &str,
    ) -> Result<(Option<Decimal>, Option<Decimal>), Error> {
        let max_throughput = match &t.capacity {
            Some(c) => {
                let max = |s: Option<&Quantity>, f: &str| {
                    self.units(s, &format!("{path}.capacity.{f}"), &format!("`{f}`"))
                };
                let limits = (
                    max(c.max_read_units.as_ref(), "max_read_units")?,
                    max(c.max_write_units.as_ref(), "max_write_units")?,
                );
                if c.mode.value == RawMode::Provisioned
                    && (limits.0.is_some() || limits.1.is_some())
                {
                    return Err(self.err(
                        &format!("{path}.capacity"),
                        position(&c.mode),
                        "`max_read_units`/`max_write_units` cap on-demand throughput",
                        "Consider `mode: on-demand`, or `auto_scaling` bounds for a provisioned table.",
                    ));
                }
                limits
            }
            None => (None, None),
        };
        Ok(max_throughput)
    }

    /// The items stored: at most 10^15.
    fn table_items(&self, t: &RawTable, path: &str) -> Result<Option<Decimal>, Error> {
        match self.count(t.items.as_ref(), &format!("{path}.items"))? {
            Some(n) if n > Decimal::from(MAX_ITEMS) => Err(self.err(
                &format!("{path}.items"),
                t.items.as_ref().and_then(position),
                "a table of more than 10^15 items",
                "Consider a multiplier typo (B for M)?",
            )),
            other => Ok(other),
        }
    }

    /// How long an item lives (`ttl: 90 days`).
    fn ttl(&self, t: &RawTable, path: &str) -> Result<Option<crate::model::Retention>, Error> {
        t.ttl
            .as_ref()
            .map(|s| {
                self.scalar(
                    s,
                    &format!("{path}.ttl"),
                    super::quantity::parse_retention,
                    "a retention such as `90 days`",
                )
            })
            .transpose()
    }

    /// The share of items older than an age (`stale: { older_than: 1 year, share: 60% }`).
    fn stale(
        &self,
        t: &RawTable,
        path: &str,
    ) -> Result<Option<(crate::model::Retention, Decimal)>, Error> {
        let Some(s) = &t.stale else { return Ok(None) };
        Ok(Some((
            self.scalar(
                &s.older_than,
                &format!("{path}.stale.older_than"),
                super::quantity::parse_retention,
                "an age such as `1 year` or `90 days`",
            )?,
            self.share(
                Some(&s.share),
                &format!("{path}.stale.share"),
                Decimal::ZERO,
            )?,
        )))
    }

    /// Items expired by TTL, as a rate.
    fn ttl_deletes(&self, t: &RawTable, path: &str) -> Result<Option<crate::model::Rate>, Error> {
        t.ttl_deletes
            .as_ref()
            .map(|s| {
                self.scalar(
                    s,
                    &format!("{path}.ttl_deletes"),
                    parse_rate,
                    "a rate such as `2M/month`",
                )
            })
            .transpose()
    }

    /// The other regions of a global table, each once.
    fn replicas(&self, t: &RawTable, path: &str) -> Result<Vec<String>, Error> {
        let mut replicas: Vec<String> = Vec::new();
        for r in &t.replicas {
            if r.value.trim().is_empty() || replicas.contains(&r.value) {
                return Err(self.err(
                    &format!("{path}.replicas"),
                    position(r),
                    format!("replica region `{}` is empty or repeated", r.value),
                    "Consider listing each other region once, e.g. `[us-east-2]`.",
                ));
            }
            replicas.push(r.value.clone());
        }
        Ok(replicas)
    }

    /// The table's stream and its consumers; observed stream reads need one.
    fn stream(&self, t: &RawTable, path: &str) -> Result<Option<Stream>, Error> {
        if let Some(stream) = &t.stream {
            let mut consumers = Vec::new();
            for (cname, c) in &stream.consumers {
                consumers.push(self.consumer(
                    &format!("{path}.stream.consumers.{cname}"),
                    cname,
                    c,
                )?);
            }
            return Ok(Some(Stream {
                view: stream.view.map(|v| match v {
                    RawStreamView::KeysOnly => "keys-only",
                    RawStreamView::NewImage => "new-image",
                    RawStreamView::OldImage => "old-image",
                    RawStreamView::NewAndOldImages => "new-and-old-images",
                }),
                consumers,
            }));
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
        Ok(None)
    }

    /// An index's `sparse` names write patterns of this table.
    fn check_sparse(
        &self,
        t: &RawTable,
        path: &str,
        name: &str,
        table: &Table,
    ) -> Result<(), Error> {
        for (iname, i) in &t.indexes {
            let Some(s) = &i.sparse else { continue };
            for (field, names) in [("added_by", &s.added_by), ("removed_by", &s.removed_by)] {
                for n in names {
                    let known = table
                        .patterns
                        .iter()
                        .any(|p| p.name == n.value && !p.operation.is_read());
                    if !known {
                        let writes: Vec<&str> = table
                            .patterns
                            .iter()
                            .filter(|p| !p.operation.is_read())
                            .map(|p| p.name.as_str())
                            .collect();
                        return Err(self.err(
                            &format!("{path}.indexes.{iname}.sparse.{field}"),
                            position(n),
                            format!("`{}` is not a write pattern of table `{name}`", n.value),
                            format!("Consider one of: {}.", writes.join(", ")),
                        ));
                    }
                }
            }
        }
        Ok(())
    }

    /// The patterns need every index's entry size: placeholders left in the sizes it is made
    /// of are refused, with their paths.
    fn check_index_sizes(&self, path: &str, table: &Table) -> Result<(), Error> {
        if let Some(index) = table.indexes.iter().find(|i| !i.sizes_known)
            && !table.patterns.is_empty()
        {
            let todo: Vec<String> = self
                .placeholders
                .borrow()
                .iter()
                .filter(|p| p.starts_with(&format!("{path}.")))
                .cloned()
                .collect();
            return Err(self.err(
                &format!("{path}.indexes.{}", index.name),
                None,
                format!(
                    "the patterns need index `{}`'s entry size, and the sizes it is made of are still placeholders: {}",
                    index.name,
                    todo.join(", ")
                ),
                "Consider filling them (`ddbcost size` measures item and key sizes from a sample), or `entry_size` on the index.",
            ));
        }
        Ok(())
    }

    pub(super) fn backups(
        &self,
        b: Option<&RawBackups>,
        table_path: &str,
    ) -> Result<Backups, Error> {
        let Some(b) = b else {
            return Ok(Backups::default());
        };
        let p = |f: &str| format!("{table_path}.backups.{f}");
        Ok(Backups {
            retained: self
                .whole(b.retained.as_ref(), &p("retained"), "`retained` backups")?
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

    pub(super) fn observed(
        &self,
        o: Option<&RawObserved>,
        table_path: &str,
    ) -> Result<TableObserved, Error> {
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

    pub(super) fn consumer(
        &self,
        path: &str,
        name: &str,
        c: &RawConsumer,
    ) -> Result<StreamConsumer, Error> {
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
}

/// `message` with every double-quoted text replaced by `"…"`.
fn redact_quoted(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut inside = false;
    for c in message.chars() {
        if c == '"' {
            if inside {
                out.push_str("…\"");
            } else {
                out.push('"');
            }
            inside = !inside;
        } else if !inside {
            out.push(c);
        }
    }
    out
}
