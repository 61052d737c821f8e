//! Turns a raw workload file into a validated `model::Workload`: the entry points (a file's
//! text, a scenario's document), the workload's own fields and settings, and the limits every
//! concept shares; each table is read by `table` (its patterns by `pattern`, indexes by
//! `index`, capacity by `capacity`), commitments by `commitments`, each a function of the one
//! `context::Reader`. Every refusal names the file, the path inside it, the line and column, what was
//! expected, and suggests a fix: negative or non-numeric quantities, shares outside [0, 1], a
//! strong read on a GSI, an item over 400 KB, a pattern on an index that does not exist, a
//! size the rules need but cannot know.

use rust_decimal::Decimal;

use super::context::Reader;
use super::raw::{RawGb, RawSettings, RawWorkload};
use super::yaml::{self, position};
use crate::error::Error;
use crate::model::sample::{NoSamples, SampleReader};
use crate::model::{GbConvention, Workload};

/// The largest item DynamoDB stores: 400 KB.
pub(super) const MAX_ITEM_BYTES: u32 = 409_600;
/// The most items one operation may touch (and a table may hold): far beyond any real table,
/// and low enough that unit arithmetic on them cannot leave a decimal's range.
pub(super) const MAX_ITEMS: u64 = 1_000_000_000_000_000;
/// The most requests a second a pattern may state.
pub(super) const MAX_RATE_PER_SECOND: u64 = 1_000_000_000_000;
/// A stream `GetRecords` call returns at most 1,000 records.
pub(super) const MAX_RECORDS_PER_CALL: u32 = 1000;

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
pub(crate) fn parse_currency(text: &str) -> Result<String, String> {
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
pub(crate) fn parse_fx_rate(text: &str) -> Result<Decimal, String> {
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
pub(crate) fn parse_day(text: &str) -> Result<String, String> {
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
pub(crate) fn parse_workload(
    text: &str,
    file: &str,
) -> Result<(Workload, SettingsOverrides), Error> {
    parse_workload_at(text, file, file, &NoSamples)
}

/// As `parse_workload`, with sample files relative to `base_file`'s folder (a workload
/// written from a template and a usage file, named `label` in errors), measured by
/// `samples`.
///
/// # Errors
/// As `parse_workload`; a sample `samples` cannot measure.
pub(crate) fn parse_workload_at(
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
pub(crate) fn workload_from_value(
    doc: serde_json::Value,
    file: &str,
    label: &str,
    samples: &dyn SampleReader,
) -> Result<(Workload, SettingsOverrides), Error> {
    // Quantities are read from their text: `yaml::parse_value` keeps every number as the text
    // it was written as, so no number (and no float) reaches this point.
    let raw: RawWorkload = yaml::parse_document(doc, label)?;
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
    let rd = Reader {
        file,
        text,
        base_dir,
        samples,
        placeholders: std::cell::RefCell::default(),
    };
    let settings = match &raw.settings {
        Some(s) => settings(&rd, s)?,
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
        tables.push(super::table::table(&rd, name, t)?);
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
                    |d| match (&rd.base_dir, std::path::Path::new(d).is_absolute()) {
                        (Some(base), false) => base.join(d).display().to_string(),
                        _ => d.clone(),
                    },
                )
                .collect(),
            tables,
            reservations: super::commitments::reservations(&rd, raw.commitments.as_ref())?,
            savings_plan: super::commitments::savings_plan(
                &rd,
                raw.commitments
                    .as_ref()
                    .and_then(|c| c.savings_plan.as_ref()),
            )?,
            placeholders: rd.placeholders.take().into_paths(),
        },
        settings,
    ))
}

pub(super) fn settings(rd: &Reader<'_>, s: &RawSettings) -> Result<SettingsOverrides, Error> {
    let month_hours = match &s.month_hours {
        Some(h) => {
            let hours = rd.scalar(
                h,
                "settings.month_hours",
                super::quantity::parse_number,
                "a number of hours such as `730`",
            )?;
            if hours <= Decimal::ZERO || hours > Decimal::from(744) {
                return Err(rd.err(
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
                currency: rd.scalar(
                    &fx.currency,
                    "settings.fx.currency",
                    parse_currency,
                    "a currency code such as `EUR`",
                )?,
                rates: vec![(
                    None,
                    rd.scalar(
                        &fx.rate,
                        "settings.fx.rate",
                        parse_fx_rate,
                        "units of the currency per unit of the price table's, such as `0.92`",
                    )?,
                )],
                date: Some(rd.scalar(
                    &fx.date,
                    "settings.fx.date",
                    parse_day,
                    "the rate's day, such as `2026-11-30`",
                )?),
                source: fx.source.as_ref().map_or_else(
                    || format!("stated in {}", rd.file),
                    |s| s.value.trim().to_string(),
                ),
            }),
            None => None,
        },
    })
}
