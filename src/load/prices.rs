//! Price tables: the bundled ones (compiled in from `pricing/`, so the binary works from any
//! directory) and files named on the command line. A price a table does not state stays
//! absent; the engine refuses a workload that needs it.

use std::collections::BTreeMap;

use indexmap::IndexMap;
use rust_decimal::Decimal;
use serde::Deserialize;

use super::quantity::{parse_count, parse_money};
use super::raw::Quantity;
use super::yaml::{self, position};
use super::{read_file, suggest};
use std::sync::OnceLock;

use crate::error::Error;
use crate::model::{CapacityKind, FreeTier, PriceKey, PriceTable, ReservedTerm, TableClass};

/// The price tables shipped in `pricing/`: (id, file name, contents).
pub(crate) const BUNDLED: &[(&str, &str, &str)] = &[
    (
        "aws-us-east-1",
        "pricing/aws-us-east-1.yaml",
        include_str!("../../pricing/aws-us-east-1.yaml"),
    ),
    (
        "aws-us-east-2",
        "pricing/aws-us-east-2.yaml",
        include_str!("../../pricing/aws-us-east-2.yaml"),
    ),
    (
        "aws-us-west-1",
        "pricing/aws-us-west-1.yaml",
        include_str!("../../pricing/aws-us-west-1.yaml"),
    ),
    (
        "aws-eu-west-1",
        "pricing/aws-eu-west-1.yaml",
        include_str!("../../pricing/aws-eu-west-1.yaml"),
    ),
    (
        "aws-eu-central-1",
        "pricing/aws-eu-central-1.yaml",
        include_str!("../../pricing/aws-eu-central-1.yaml"),
    ),
    (
        "aws-ap-northeast-1",
        "pricing/aws-ap-northeast-1.yaml",
        include_str!("../../pricing/aws-ap-northeast-1.yaml"),
    ),
    (
        "cloudshop-eur",
        "pricing/cloudshop-eur.yaml",
        include_str!("../../pricing/cloudshop-eur.yaml"),
    ),
];

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct RawPriceTable {
    /// The table's id (what a workload's `prices` names).
    id: String,
    /// AWS region code.
    region: String,
    /// ISO 4217 code.
    currency: String,
    /// Where the prices come from.
    source: String,
    /// The date the prices are effective (`2026-06-01`).
    effective: Quantity,
    /// Free text.
    #[serde(default)]
    notes: Option<String>,
    /// Prices of the Standard table class.
    standard: Option<RawClassPrices>,
    /// Prices of the Standard-IA table class.
    standard_ia: Option<RawClassPrices>,
    /// PITR, per GB-month.
    pitr_gb_month: Option<Quantity>,
    /// On-demand backup, per GB-month.
    backup_gb_month: Option<Quantity>,
    /// Restore, per GB.
    restore_gb: Option<Quantity>,
    /// Export to S3, per GB.
    export_gb: Option<Quantity>,
    /// Import from S3, per GB.
    import_gb: Option<Quantity>,
    /// Stream read requests, per million.
    stream_reads_per_million: Option<Quantity>,
    /// Kinesis CDC change units, per million.
    kinesis_cdc_per_million: Option<Quantity>,
    /// Data transfer out to the internet, per GB: the first tier's price.
    transfer_out_gb: Option<Quantity>,
    /// Transfer out to the internet past the first tier, in order: each tier's first GB of the
    /// region's month and its price per GB (`[{ from: 10240, price: 0.085 }]`).
    #[serde(default)]
    transfer_out_tiers: Vec<RawTier>,
    /// GB of transfer out to the internet free each month, across services and regions
    /// (applied with `--free-tier`).
    transfer_out_free_gb: Option<Quantity>,
    /// The fewest bytes a vector index request (a write of an entry, a search) is billed for.
    vector_min_request_bytes: Option<Quantity>,
    /// CloudWatch prices DynamoDB features bill: Contributor Insights.
    cloudwatch: Option<RawCloudWatch>,
    /// Replication transfer to each region, per GB.
    #[serde(default)]
    inter_region_transfer_gb: IndexMap<String, Quantity>,
    /// DynamoDB Accelerator (DAX) nodes per hour, by node type (`dax.r5.large: 0.269`).
    #[serde(default)]
    dax_node_hour: IndexMap<String, Quantity>,
    /// Reserved capacity per block of 100 units (Standard class).
    reserved: Option<RawReservedPrices>,
    /// The always-free allowance.
    free_tier: Option<RawFreeTier>,
    /// Database Savings Plan rates, with the source that states them.
    savings_plan_rates: Option<super::savings_plan::RawRates>,
}

/// CloudWatch's prices for what DynamoDB features bill there.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct RawCloudWatch {
    /// Contributor Insights: one rule for a month.
    contributor_insights_rule_month: Option<Quantity>,
    /// Contributor Insights: a million events matched by its rules.
    contributor_insights_events_per_million: Option<Quantity>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct RawReservedPrices {
    /// A block of 100 RCU, 1y term.
    rcu_1y: Option<RawBlockPrice>,
    /// A block of 100 RCU, 3y term.
    rcu_3y: Option<RawBlockPrice>,
    /// A block of 100 WCU, 1y term.
    wcu_1y: Option<RawBlockPrice>,
    /// A block of 100 WCU, 3y term.
    wcu_3y: Option<RawBlockPrice>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct RawTier {
    /// The tier's first GB of the month (the tier before it ends here).
    from: Quantity,
    /// Per GB.
    price: Quantity,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct RawBlockPrice {
    /// Paid once per block.
    upfront: Quantity,
    /// Paid per block-hour.
    hourly: Quantity,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct RawClassPrices {
    /// On-demand read request units, per million.
    read_per_million: Option<Quantity>,
    /// On-demand write request units, per million.
    write_per_million: Option<Quantity>,
    /// Replicated write request units, per million.
    replicated_write_per_million: Option<Quantity>,
    /// Vector index writes, per GB of `VectorWriteRequestBytes`.
    vector_write_per_gb: Option<Quantity>,
    /// Vector searches, per GB of `VectorSearchRequestBytes`.
    vector_search_per_gb: Option<Quantity>,
    /// Provisioned RCU, per hour.
    rcu_hour: Option<Quantity>,
    /// Provisioned WCU, per hour.
    wcu_hour: Option<Quantity>,
    /// Replicated WCU, per hour.
    replicated_wcu_hour: Option<Quantity>,
    /// Storage, per GB-month.
    storage_gb_month: Option<Quantity>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct RawFreeTier {
    /// Free storage (GB).
    storage_gb: Quantity,
    /// Free stream read requests a month.
    stream_reads: Quantity,
    /// Free provisioned RCU.
    rcu: Quantity,
    /// Free provisioned WCU.
    wcu: Quantity,
}

/// The JSON Schema of a price table (`load::schema` adds its address).
#[must_use]
pub(crate) fn schema() -> schemars::Schema {
    schemars::schema_for!(RawPriceTable)
}

/// Parses a price table from `text`, read from `file`.
///
/// # Errors
/// Malformed YAML, unknown fields, negative or non-numeric prices, a bad date.
pub(crate) fn parse_price_table(text: &str, file: &str) -> Result<PriceTable, Error> {
    let raw: RawPriceTable = yaml::parse(text, file)?;
    let prices = price_map(&raw, text, file)?;
    let effective = raw.effective.value.trim().to_string();
    if !is_iso_date(&effective) {
        return Err(
            Error::input(format!("`{effective}` is not an ISO 8601 date"))
                .file(file)
                .path("effective")
                .at(position(&raw.effective))
                .quoting(text)
                .help("Consider the date the prices took effect, as `2024-11-01`."),
        );
    }
    let count = |s: &Quantity, path: &str| {
        parse_count(&s.value).map_err(|why| {
            Error::input(why)
                .file(file)
                .path(path)
                .at(position(s))
                .quoting(text)
        })
    };
    let free_tier = match &raw.free_tier {
        Some(f) => Some(FreeTier {
            storage_gb: count(&f.storage_gb, "free_tier.storage_gb")?,
            stream_reads: count(&f.stream_reads, "free_tier.stream_reads")?,
            rcu: count(&f.rcu, "free_tier.rcu")?,
            wcu: count(&f.wcu, "free_tier.wcu")?,
        }),
        None => None,
    };
    let savings_plan_rates = match &raw.savings_plan_rates {
        Some(r) => {
            if r.source.as_deref().is_none_or(|s| s.trim().is_empty()) {
                return Err(Error::input(
                    "savings-plan rates without a `source`: a rate nobody can trace cannot be trusted",
                )
                .file(file)
                .path("savings_plan_rates.source")
                .help("Consider `source:` naming the Savings Plans price list or page the rates come from."));
            }
            Some(super::savings_plan::rates(
                r,
                "savings_plan_rates",
                "",
                &|s, path, why| {
                    Error::input(why)
                        .file(file)
                        .path(path)
                        .at(super::savings_plan::at(s))
                        .quoting(text)
                        .help("Consider the rate as a fraction of list price, e.g. `0.8` for 20 % off.")
                },
            )?)
        }
        None => None,
    };
    let (transfer_out_tiers, transfer_out_free_gb) = transfer_out(&raw, text, file, &prices)?;
    let _ = raw.notes;
    Ok(PriceTable {
        id: raw.id,
        region: raw.region,
        currency: raw.currency,
        source: raw.source,
        effective,
        file: file.to_string(),
        prices,
        free_tier,
        transfer_out_tiers,
        transfer_out_free_gb,
        vector_min_request_bytes: raw
            .vector_min_request_bytes
            .as_ref()
            .map(|q| {
                crate::load::quantity::parse_size(&q.value)
                    .ok()
                    .and_then(crate::model::DataSize::to_bytes)
                    .ok_or_else(|| {
                        Error::input(format!("`{}` is not a size", q.value))
                            .file(file)
                            .path("vector_min_request_bytes")
                            .at(position(q))
                            .quoting(text)
                            .help("Consider the fewest bytes a request is billed for, e.g. `1 KB`.")
                    })
            })
            .transpose()?,
        savings_plan_rates,
    })
}

/// The tiers of transfer out past the first (each starting above the one before, with the
/// first tier's price stated) and the free allowance.
fn transfer_out(
    raw: &RawPriceTable,
    text: &str,
    file: &str,
    prices: &BTreeMap<PriceKey, Decimal>,
) -> Result<(crate::model::Tiers, Option<Decimal>), Error> {
    let fail = |s: &Quantity, path: &str, why: String, help: &str| {
        Error::input(why)
            .file(file)
            .path(path)
            .at(position(s))
            .quoting(text)
            .help(help.to_string())
    };
    let mut tiers: Vec<(Decimal, Decimal)> = Vec::with_capacity(raw.transfer_out_tiers.len());
    for (i, t) in raw.transfer_out_tiers.iter().enumerate() {
        let path = |f: &str| format!("transfer_out_tiers[{i}].{f}");
        let from = parse_count(&t.from.value).map_err(|why| {
            fail(
                &t.from,
                &path("from"),
                why,
                "Consider the tier's first GB, e.g. `10240`.",
            )
        })?;
        let price = parse_money(&t.price.value).map_err(|why| {
            fail(
                &t.price,
                &path("price"),
                format!("{why}; expected a non-negative price such as `0.085`"),
                "Consider writing the price as a plain decimal in the table's currency.",
            )
        })?;
        let after = tiers.last().map_or(Decimal::ZERO, |(f, _)| *f);
        if from <= after {
            return Err(fail(
                &t.from,
                &path("from"),
                format!(
                    "a tier must start above the one before it ({} GB)",
                    after.normalize()
                ),
                "Consider the tiers in order, each `from` the GB where the tier before it ends.",
            ));
        }
        if !prices.contains_key(&PriceKey::TransferOutGb) {
            return Err(fail(
                &t.from,
                &path("from"),
                "transfer-out tiers without `transfer_out_gb`, the first tier's price".into(),
                "Consider `transfer_out_gb:` with the price of the first tier (from 0 GB).",
            ));
        }
        tiers.push((from, price));
    }
    let free = raw
        .transfer_out_free_gb
        .as_ref()
        .map(|s| {
            parse_count(&s.value).map_err(|why| {
                fail(
                    s,
                    "transfer_out_free_gb",
                    why,
                    "Consider the GB free each month, e.g. `100`.",
                )
            })
        })
        .transpose()?;
    Ok((tiers, free))
}

/// Every price the table states, by key: a non-negative plain decimal each.
fn price_map(
    raw: &RawPriceTable,
    text: &str,
    file: &str,
) -> Result<BTreeMap<PriceKey, Decimal>, Error> {
    let money = |s: &Quantity, path: &str| -> Result<Decimal, Error> {
        parse_money(&s.value).map_err(|why| {
            Error::input(format!(
                "{why}; expected a non-negative price such as `0.125`"
            ))
            .file(file)
            .path(path)
            .at(position(s))
            .quoting(text)
            .help("Consider writing the price as a plain decimal in the table's currency.")
        })
    };
    let mut prices = BTreeMap::new();
    let mut put = |key: PriceKey, s: Option<&Quantity>| -> Result<(), Error> {
        if let Some(s) = s {
            let value = money(s, &key.path())?;
            prices.insert(key, value);
        }
        Ok(())
    };
    for (class, block) in [
        (TableClass::Standard, &raw.standard),
        (TableClass::StandardIa, &raw.standard_ia),
    ] {
        let Some(b) = block else { continue };
        put(PriceKey::ReadPerMillion(class), b.read_per_million.as_ref())?;
        put(
            PriceKey::WritePerMillion(class),
            b.write_per_million.as_ref(),
        )?;
        put(
            PriceKey::ReplicatedWritePerMillion(class),
            b.replicated_write_per_million.as_ref(),
        )?;
        put(PriceKey::RcuHour(class), b.rcu_hour.as_ref())?;
        put(PriceKey::WcuHour(class), b.wcu_hour.as_ref())?;
        put(
            PriceKey::ReplicatedWcuHour(class),
            b.replicated_wcu_hour.as_ref(),
        )?;
        put(PriceKey::StorageGbMonth(class), b.storage_gb_month.as_ref())?;
        put(
            PriceKey::VectorWriteGb(class),
            b.vector_write_per_gb.as_ref(),
        )?;
        put(
            PriceKey::VectorSearchGb(class),
            b.vector_search_per_gb.as_ref(),
        )?;
    }
    put(PriceKey::PitrGbMonth, raw.pitr_gb_month.as_ref())?;
    put(PriceKey::BackupGbMonth, raw.backup_gb_month.as_ref())?;
    put(PriceKey::RestoreGb, raw.restore_gb.as_ref())?;
    put(PriceKey::ExportGb, raw.export_gb.as_ref())?;
    put(PriceKey::ImportGb, raw.import_gb.as_ref())?;
    put(
        PriceKey::StreamReadsPerMillion,
        raw.stream_reads_per_million.as_ref(),
    )?;
    put(
        PriceKey::KinesisCdcPerMillion,
        raw.kinesis_cdc_per_million.as_ref(),
    )?;
    put(PriceKey::TransferOutGb, raw.transfer_out_gb.as_ref())?;
    if let Some(cw) = &raw.cloudwatch {
        put(
            PriceKey::InsightsRuleMonth,
            cw.contributor_insights_rule_month.as_ref(),
        )?;
        put(
            PriceKey::InsightsEventsPerMillion,
            cw.contributor_insights_events_per_million.as_ref(),
        )?;
    }
    if let Some(r) = &raw.reserved {
        for (kind, term, block) in [
            (CapacityKind::Rcu, ReservedTerm::OneYear, &r.rcu_1y),
            (CapacityKind::Rcu, ReservedTerm::ThreeYears, &r.rcu_3y),
            (CapacityKind::Wcu, ReservedTerm::OneYear, &r.wcu_1y),
            (CapacityKind::Wcu, ReservedTerm::ThreeYears, &r.wcu_3y),
        ] {
            if let Some(b) = block {
                put(PriceKey::ReservedUpfront(kind, term), Some(&b.upfront))?;
                put(PriceKey::ReservedHourly(kind, term), Some(&b.hourly))?;
            }
        }
    }
    for (dest, s) in &raw.inter_region_transfer_gb {
        let key = if dest == "default" {
            None
        } else {
            Some(dest.clone())
        };
        put(PriceKey::InterRegionTransferGb(key), Some(s))?;
    }
    for (node, s) in &raw.dax_node_hour {
        put(PriceKey::DaxNodeHour(node.clone()), Some(s))?;
    }
    Ok(prices)
}

fn is_iso_date(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit())
        && matches!(s[5..7].parse::<u8>(), Ok(1..=12))
        && matches!(s[8..10].parse::<u8>(), Ok(1..=31))
}

/// All bundled price tables, parsed.
///
/// # Errors
/// Only if a bundled table is malformed (a bug the test suite catches).
pub(crate) fn bundled() -> Result<Vec<PriceTable>, Error> {
    (0..BUNDLED.len()).map(bundled_at).collect()
}

/// Bundled tables already parsed in this process: each is parsed once, when first needed
/// (`compare` and `advise` price many scenarios with the same tables).
static PARSED: [OnceLock<PriceTable>; BUNDLED.len()] = [const { OnceLock::new() }; BUNDLED.len()];

/// The bundled table at position `i` of `BUNDLED`, parsed once.
fn bundled_at(i: usize) -> Result<PriceTable, Error> {
    let (Some(cache), Some((_, file, text))) = (PARSED.get(i), BUNDLED.get(i)) else {
        return Err(Error::input(format!("no bundled price table number {i}")));
    };
    if let Some(t) = cache.get() {
        return Ok(t.clone());
    }
    let table = parse_price_table(text, file)?;
    Ok(cache.get_or_init(|| table).clone())
}

/// Every price table in the folder `dir` (its `.yaml` and `.yml` files, in name order).
///
/// # Errors
/// The folder cannot be listed, or one of its files is not a valid price table.
pub(crate) fn directory(dir: &str) -> Result<Vec<PriceTable>, Error> {
    crate::confine::check(std::path::Path::new(dir))?;
    let listing = crate::confine::read_dir(std::path::Path::new(dir)).map_err(|e| {
        Error::input(format!("price directory `{dir}` cannot be read ({e})"))
            .file(dir)
            .help("Consider the folder `ddbcost prices import --output-dir` wrote.")
    })?;
    let files: Vec<std::path::PathBuf> = listing
        .into_iter()
        .filter(|e| {
            e.meta.is_file
                && e.path
                    .extension()
                    .is_some_and(|x| x == "yaml" || x == "yml")
        })
        .map(|e| e.path)
        .collect();
    files
        .iter()
        .map(|p| {
            let shown = p.display().to_string();
            parse_price_table(&read_file(&shown)?, &shown)
        })
        .collect()
}

/// Whether a price-table name is a path (`pricing/mine.yaml`, `./t.yml`) rather than an id.
#[must_use]
pub(crate) fn is_path(name: &str) -> bool {
    name.contains('/') || name.ends_with(".yaml") || name.ends_with(".yml")
}

/// An error about a file that is not named as YAML (`prices: ../.env`) does not quote its
/// line, nor the value the parser stumbled on: a file of another kind may hold secrets, and
/// its text is not ddbcost's to print. Its position is kept.
#[must_use]
pub(crate) fn unquoted_unless_yaml(mut e: Error, name: &str) -> Error {
    if !(name.ends_with(".yaml") || name.ends_with(".yml")) {
        // The parser's message may quote a value too (`invalid type: string "…"`).
        e.message = format!("`{name}` is not a price table").into_boxed_str();
        e.source_line = None;
        e.path = None;
        e.help = Some(
            format!(
                "Consider a price-table file (`.yaml`); this one's text is not shown, as it is not named as YAML.{}",
                e.help.as_deref().map(|h| format!(" {h}")).unwrap_or_default()
            )
            .into_boxed_str(),
        );
    }
    e
}

/// A price table by bundled id, or by path to a YAML file.
///
/// # Errors
/// Neither a bundled id nor a readable, valid price-table file.
pub(crate) fn resolve(name: &str) -> Result<PriceTable, Error> {
    if let Some(i) = BUNDLED.iter().position(|(id, _, _)| *id == name) {
        return bundled_at(i);
    }
    if is_path(name) || crate::confine::metadata(std::path::Path::new(name)).is_ok() {
        let text = read_file(name)?;
        return parse_price_table(&text, name).map_err(|e| unquoted_unless_yaml(e, name));
    }
    let ids: Vec<&str> = BUNDLED.iter().map(|(id, _, _)| *id).collect();
    Err(
        Error::input(format!("no price table `{name}`")).help(format!(
            "{} A path to a price-table file works too.",
            suggest::consider(name, &ids, "bundled price tables (`ddbcost prices`)")
        )),
    )
}
