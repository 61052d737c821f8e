//! The workload file exactly as written: serde structs that only describe its shape. Unknown
//! fields are refused; quantities stay as their text (with their position) until `workload`
//! parses and validates them. docs/workload.md documents every field.

use indexmap::IndexMap;
use serde::Deserialize;

use super::yaml::{Located, Location, Spanned};

/// A quantity kept as written, with its position, parsed later (`20/s`, `6.3M/month`,
/// `1.2 KB`, `40M`, `70%`, `200`): a string or a number in the file, read exactly from its
/// text. It carries its own JSON Schema (`Quantity`), so no field declares one and the
/// schema cannot drift from the loader.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(transparent)]
pub struct Quantity(pub Spanned<String>);

impl Quantity {
    /// `value`, at the positions of another node.
    #[must_use]
    pub fn at(value: String, referenced: Location, defined: Location) -> Self {
        Quantity(Spanned::at(value, referenced, defined))
    }
}

impl std::ops::Deref for Quantity {
    type Target = Spanned<String>;
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl serde::Serialize for Quantity {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl Located for Quantity {
    fn locations(&self) -> (Location, Location) {
        self.0.locations()
    }
}

impl schemars::JsonSchema for Quantity {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Quantity".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": ["string", "number"],
            "description": "A number, or a number with a unit or rate, read exactly from its text (never through a float).",
            "examples": ["20/s", "6.3M/month", "1.2 KB", "40M", "70%", 200]
        })
    }
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawWorkload {
    /// Shown in reports (default: file name).
    pub name: Option<String>,
    /// Free text shown in reports.
    pub description: Option<String>,
    /// Price table id (in a price directory, else bundled) or path; `--prices` overrides it; one of
    /// the two is required.
    #[schemars(example = &"aws-us-east-1")]
    pub prices: Option<String>,
    /// Folders of price tables (imported ones), searched before the bundled tables.
    #[serde(default)]
    pub price_dirs: Vec<String>,
    /// `month_hours` (number), `gb` (`binary`/`decimal`), `free_tier` (bool), `fx` (`currency`,
    /// `rate`, `date`, optional `source`: see Currency); the command line overrides them.
    pub settings: Option<RawSettings>,
    /// The tables, by name. (required).
    pub tables: IndexMap<String, RawTable>,
    /// What-if scenarios; read by `scenario`, checked for shape here.
    #[allow(
        dead_code,
        reason = "read to check the scenarios' shape; `scenario` applies them as documents"
    )]
    pub scenarios: Option<RawScenarios>,
    /// Commitments of the account: reserved capacity, pooled per region, and a Database
    /// Savings Plan.
    pub commitments: Option<RawCommitments>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawCommitments {
    /// Reserved-capacity purchases of the account, pooled per region.
    #[serde(default)]
    pub reserved: Vec<RawReservation>,
    /// A Database Savings Plan.
    pub savings_plan: Option<RawSavingsPlan>,
}

/// A Database Savings Plan: `{ per_hour: 0.50, term: 1y, start: 2027-01, rates: {...} }`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawSavingsPlan {
    /// The hourly commitment, in the price table's currency.
    pub per_hour: Quantity,
    /// `1y` or `3y`.
    pub term: Option<Spanned<RawTerm>>,
    /// The first month (`2027-01`).
    pub start: Option<Quantity>,
    /// The plan's discount rates, where the price table has none.
    pub rates: Option<super::savings_plan::RawRates>,
}

/// What is known of a key's spread: distinct values, and the busiest value's share of the
/// traffic (`busiest_share` for both, or `busiest_read_share` / `busiest_write_share`).
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawKeys {
    /// Distinct values of the key.
    pub distinct: Option<Quantity>,
    /// The busiest value's share of reads and writes.
    pub busiest_share: Option<Quantity>,
    /// The busiest value's share of reads.
    pub busiest_read_share: Option<Quantity>,
    /// The busiest value's share of writes.
    pub busiest_write_share: Option<Quantity>,
}

/// A table's tenants: `{ key: PK, pattern: 'ORG#([^#]+)', tiers: {...} }` or `{ key, pattern,
/// count: 2000, zipf: 1.1 }`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawTenants {
    /// The key attribute that names the tenant.
    #[schemars(example = &"PK")]
    pub key: Spanned<String>,
    /// A regular expression whose first group (or whole match) is the tenant.
    #[schemars(example = &"ORG#([^#]+)")]
    pub pattern: Spanned<String>,
    /// Tiers of alike tenants, by name (either `tiers`, or `count` with `zipf`).
    #[serde(default)]
    pub tiers: IndexMap<String, RawTenantTier>,
    /// How many tenants, spread by `zipf`.
    pub count: Option<Quantity>,
    /// The Zipf exponent s: the k-th busiest tenant takes a share ∝ 1/k^s (0: all alike).
    pub zipf: Option<Quantity>,
}

/// A tier: `{ count: 10, share: 40%, storage_share: 50%, patterns: { export: 90% } }`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawTenantTier {
    /// Tenants in the tier.
    pub count: Quantity,
    /// The tier's share of the table's requests.
    pub share: Quantity,
    /// The tier's share of the table's bytes (default: `share`).
    pub storage_share: Option<Quantity>,
    /// The tier's share of a pattern's requests, where it differs from `share`.
    #[serde(default)]
    pub patterns: IndexMap<String, Quantity>,
}

/// One reserved-capacity purchase: `{ region, capacity: wcu, units: 200, term: 1y, start }`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawReservation {
    /// The region the reservation is in (default: the workload's).
    #[schemars(example = &"eu-west-1")]
    pub region: Option<String>,
    /// `rcu` or `wcu`.
    pub capacity: Spanned<RawCapacityKind>,
    /// Units reserved (blocks of 100).
    pub units: Quantity,
    /// `1y` or `3y`.
    pub term: Spanned<RawTerm>,
    /// The first month (`2027-01`).
    pub start: Option<Quantity>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum RawCapacityKind {
    Rcu,
    Wcu,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(
    dead_code,
    reason = "read to check the scenarios' shape (unknown fields, types); `scenario` applies them as documents"
)]
pub(crate) struct RawScenarios {
    /// Cumulative changes, each on top of the ones before.
    #[serde(default)]
    pub steps: Vec<RawScenario>,
    /// Independent changes, each compared with the baseline.
    #[serde(default)]
    pub alternatives: Vec<RawScenario>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(
    dead_code,
    reason = "read to check the scenarios' shape (unknown fields, types); `scenario` applies them as documents"
)]
pub(crate) struct RawScenario {
    /// The scenario's name.
    pub name: String,
    /// What the change is and why.
    pub description: Option<String>,
    /// A JSON merge patch of the workload (RFC 7386): the fields it sets replace the workload's;
    /// `null` removes one.
    pub patch: serde_json::Value,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawSettings {
    /// Hours in a billing month (default: 730).
    pub month_hours: Option<Quantity>,
    /// `binary` (GiB, AWS's billing) or `decimal` (default: binary).
    pub gb: Option<RawGb>,
    /// Subtract the free tier (default: false).
    pub free_tier: Option<bool>,
    /// Show costs in another currency.
    pub fx: Option<RawFx>,
}

/// `settings.fx`: show costs in `currency` at `rate` units of it per unit of the price
/// table's currency, as of `date`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawFx {
    /// The currency shown (`USD`).
    pub currency: Quantity,
    /// Units of it per unit of the price table's currency.
    pub rate: Quantity,
    /// The date of the rate.
    pub date: Quantity,
    /// Where the rate comes from.
    pub source: Option<Quantity>,
}

#[derive(Debug, Clone, Copy, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum RawGb {
    Binary,
    Decimal,
}

#[derive(Debug, Clone, Copy, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum RawClass {
    Standard,
    StandardIa,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum RawMode {
    OnDemand,
    Provisioned,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawCapacity {
    /// `on-demand` or `provisioned`.
    pub mode: Spanned<RawMode>,
    /// On-demand maximum throughput (read / write request units a second), where stated.
    pub max_read_units: Option<Quantity>,
    /// On-demand maximum write throughput (informational).
    pub max_write_units: Option<Quantity>,
    /// Fixed read capacity units (whole, at least 1).
    pub rcu: Option<Quantity>,
    /// Fixed write capacity units (whole, at least 1).
    pub wcu: Option<Quantity>,
    /// Auto scaling, sized hour by hour from the traffic profile.
    pub auto_scaling: Option<RawAutoScaling>,
    /// Reserved capacity blocks held for this table.
    pub reserved: Option<RawReserved>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawAutoScaling {
    /// Target utilization, 20–90 % (default: 70%).
    #[schemars(example = &"70%")]
    pub target: Option<Quantity>,
    /// Per-dimension targets, overriding `target` (templates may set one per dimension).
    pub target_rcu: Option<Quantity>,
    /// Write target utilization, overriding `target`.
    pub target_wcu: Option<Quantity>,
    /// Least read units (default: 1).
    pub min_rcu: Option<Quantity>,
    /// Most read units (default: 40,000).
    pub max_rcu: Option<Quantity>,
    /// Least write units (default: 1).
    pub min_wcu: Option<Quantity>,
    /// Most write units (default: 40,000).
    pub max_wcu: Option<Quantity>,
}

#[derive(Debug, Clone, Copy, Deserialize, schemars::JsonSchema)]
pub(crate) enum RawTerm {
    #[serde(rename = "1y")]
    OneYear,
    #[serde(rename = "3y")]
    ThreeYears,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawReserved {
    /// Reserved read units (blocks of 100).
    pub rcu: Option<Quantity>,
    /// Reserved write units (blocks of 100).
    pub wcu: Option<Quantity>,
    /// `1y` or `3y`.
    pub term: Spanned<RawTerm>,
}

/// A traffic profile: exactly one of `flat`, `peak`, `hourly` (24 multipliers) or `weekly`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawTraffic {
    /// The same traffic every hour.
    pub flat: Option<bool>,
    /// A daily peak.
    pub peak: Option<RawPeak>,
    /// 24 multipliers, 0:00 to 23:00 UTC.
    pub hourly: Option<Vec<Quantity>>,
    /// 24 multipliers for each day of the week.
    pub weekly: Option<RawWeekly>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawPeak {
    /// Traffic in each peak hour as a multiple of an off-peak hour's.
    pub times_off_peak: Option<Quantity>,
    /// Traffic in each peak hour as a multiple of the day's average hour.
    pub times_average: Option<Quantity>,
    /// Refused with a message: it read as "3× for 4 hours" but meant neither exactly.
    pub multiplier: Option<Quantity>,
    /// Peak hours a day.
    pub hours: Quantity,
    /// Hour of day (UTC) the peak starts; default 0.
    pub start: Option<Quantity>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawWeekly {
    /// 24 multipliers, 0:00 to 23:00 UTC.
    pub mon: Vec<Quantity>,
    /// 24 multipliers, 0:00 to 23:00 UTC.
    pub tue: Vec<Quantity>,
    /// 24 multipliers, 0:00 to 23:00 UTC.
    pub wed: Vec<Quantity>,
    /// 24 multipliers, 0:00 to 23:00 UTC.
    pub thu: Vec<Quantity>,
    /// 24 multipliers, 0:00 to 23:00 UTC.
    pub fri: Vec<Quantity>,
    /// 24 multipliers, 0:00 to 23:00 UTC.
    pub sat: Vec<Quantity>,
    /// 24 multipliers, 0:00 to 23:00 UTC.
    pub sun: Vec<Quantity>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawTable {
    /// The key schema's attribute names (informational for pricing; `size --workload` sizes
    /// index entries with them).
    pub key: Option<RawKey>,
    /// The spread of the partition key: `{ distinct, busiest_share }`.
    pub keys: Option<RawKeys>,
    /// Attribute types by name (`S`, `N`, `B`), as a template's attribute definitions.
    #[serde(default)]
    pub attributes: IndexMap<String, Spanned<RawAttributeType>>,
    /// For `advise`: the size of named attributes (name + value), for projections.
    #[serde(default)]
    pub attribute_sizes: IndexMap<String, Quantity>,
    /// The attribute TTL reads expiry times from.
    pub ttl_attribute: Option<String>,
    /// Table class (prices differ) (default: `standard`).
    pub class: Option<RawClass>,
    /// `mode: on-demand` (optionally `max_read_units` / `max_write_units`, the on-demand maximum
    /// throughput, informational), or `mode: provisioned` with, for each of reads and writes, fixed
    /// units (`rcu`, `wcu`: whole, at least 1) or `auto_scaling`, and optionally `reserved` — see
    /// Capacity from traffic (default: `{ mode: on-demand }`).
    pub capacity: Option<RawCapacity>,
    /// Items stored.
    #[schemars(example = &"40M")]
    pub items: Option<Quantity>,
    /// Item size (names + values), the default size of the patterns: `1.2 KB`; or items of several
    /// sizes, `[{ size: 1.8 KB, share: 90% }, { size: 4.5 KB, share: 10% }]` (shares add up to 1);
    /// or `{ sample: FILE }`. With several sizes, storage uses the mean and request units are
    /// rounded for each size.
    #[schemars(example = &"1.2 KB")]
    pub item_size: Option<Spanned<RawItemSize>>,
    /// Table size stated directly (instead of `items` × `item_size`).
    #[schemars(example = &"210 GB")]
    pub storage: Option<Quantity>,
    /// Bytes of the table's key attributes (names + values), for index entries.
    #[schemars(example = &"40 B")]
    pub key_size: Option<Quantity>,
    /// Point-in-time recovery (default: `false`).
    #[serde(default)]
    pub pitr: bool,
    /// `retained` (count of on-demand backups kept) or `stored` (size), `restores_per_month` or
    /// `restored_per_month` (size), `full_exports_per_month` or `exported_per_month` (size),
    /// `incremental_export_per_month` (size), `import_per_month` (size).
    pub backups: Option<RawBackups>,
    /// `view` (`keys-only`, `new-image`, `old-image`, `new-and-old-images`; informational) and
    /// `consumers`: name → `{ kind: lambda }` (free reads), or `{ kind: reader, records_per_call: N
    /// }` (1–1000) or `{ kind: reader, get_records: RATE }`.
    pub stream: Option<RawStream>,
    /// Kinesis Data Streams change data capture (default: `false`).
    #[serde(default)]
    pub kinesis_cdc: bool,
    /// CloudWatch Contributor Insights on the table: its rules (most accessed and most
    /// throttled keys) priced per rule-month and per million events (default: `false`).
    #[serde(default)]
    pub contributor_insights: bool,
    /// How the table's tenants are found and spread, for `estimate --by tenant`.
    pub tenants: Option<RawTenants>,
    /// The table's resource tags, key → value (`team: payments`), for `--by tag:KEY`.
    #[serde(default)]
    pub tags: IndexMap<String, Quantity>,
    /// The other regions of a global table; each needs a bundled price table in the same currency
    /// (default: `[]`).
    #[serde(default)]
    pub replicas: Vec<Spanned<String>>,
    /// Items expired by TTL.
    pub ttl_deletes: Option<Quantity>,
    /// Data sent out to the internet in a month besides what the patterns state (`50 GB`),
    /// priced at the region's transfer-out tiers.
    #[schemars(example = &"50 GB")]
    pub transfer_out: Option<Quantity>,
    /// A DynamoDB Accelerator (DAX) cluster in front of the table.
    pub dax: Option<RawDax>,
    /// Vector indexes (DynamoDB vector search), by name: an on-demand table's only.
    #[serde(default)]
    pub vector_indexes: IndexMap<String, RawVectorIndex>,
    /// The table's region, when not the workload price table's.
    #[schemars(example = &"eu-west-1")]
    pub region: Option<String>,
    /// How long items live before TTL removes them (`90 days`): with the puts' rates, the
    /// number of items stored and the TTL deletes follow.
    #[schemars(example = &"90 days")]
    pub ttl: Option<Quantity>,
    /// For `advise`: items nobody reads once older than an age, and their share.
    pub stale: Option<RawStale>,
    /// How the table's traffic spreads over the day or week (see below) (default: flat).
    pub traffic: Option<Spanned<RawTraffic>>,
    /// How the table's traffic changes over a forecast.
    pub growth: Option<Spanned<RawGrowth>>,
    /// How the table's rates change month by month in a forecast, and its first month.
    #[serde(default)]
    pub seasonal: IndexMap<String, Quantity>,
    /// The month the table is created (`2027-03`).
    pub from: Option<Quantity>,
    /// The table's indexes, by name. (default: `{}`).
    #[serde(default)]
    pub indexes: IndexMap<String, RawIndex>,
    /// The table's access patterns, by name (default: `{}`); `TODO` (what `ddbcost import`
    /// writes) when they are still to be stated: the table's requests then depend on usage.
    #[serde(default, deserialize_with = "patterns_or_placeholder")]
    pub patterns: RawPatterns,
    /// Figures measured elsewhere that replace derived ones: `read_units`, `write_units` (counts
    /// per month), `storage`, `pitr` (sizes), `stream_read_requests` (count per month).
    pub observed: Option<RawObserved>,
    /// One-time work that goes with this version of the table (a TTL, attribute or key
    /// backfill, a restore, an export, an import, a warm throughput raise): what `diff` and
    /// `compare` price once where the version before did not state it.
    pub once: Option<RawOnce>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawOnce {
    /// Items rewritten once (a TTL attribute, a new attribute or key added to existing items).
    pub rewrite: Option<RawRewrite>,
    /// Data restored once from a backup or a point in time (size).
    #[schemars(example = &"100 GB")]
    pub restore: Option<Quantity>,
    /// Data exported to S3 once (size).
    pub export: Option<Quantity>,
    /// Data imported from S3 once (size of the uncompressed source).
    pub import: Option<Quantity>,
    /// Warm throughput raised above the default: read and write units a second, and its
    /// price if you know it (no public price was found: without one it is stated, not priced).
    pub warm_throughput: Option<RawWarmThroughput>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawRewrite {
    /// How many items are rewritten (count).
    pub items: Quantity,
    /// The size of a rewritten item (default: the table's `item_size`).
    pub item_size: Option<Quantity>,
    /// The GSIs whose entries the rewrite changes (a projected attribute or a key written):
    /// each written once per item carrying its key (default: none).
    #[serde(default)]
    pub indexes: Vec<Spanned<String>>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawWarmThroughput {
    /// Read units a second the table is warmed to.
    pub reads: Option<Quantity>,
    /// Write units a second the table is warmed to.
    pub writes: Option<Quantity>,
    /// What the raise costs, once, in the price table's currency (no public price found).
    pub price: Option<Quantity>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawBackups {
    /// On-demand backups kept (count), each the size of the table and its LSIs.
    pub retained: Option<Quantity>,
    /// On-demand backup storage held (size, billed per GB-month), in place of `retained`.
    #[schemars(example = &"460 GB")]
    pub stored: Option<Quantity>,
    /// Restores a month (count), each of the table and all its indexes.
    pub restores_per_month: Option<Quantity>,
    /// Data restored a month (size), in place of `restores_per_month`.
    #[schemars(example = &"100 GB")]
    pub restored_per_month: Option<Quantity>,
    /// Full exports to S3 a month (count), each the size of the table.
    pub full_exports_per_month: Option<Quantity>,
    /// Data of full exports a month (size), in place of `full_exports_per_month`.
    pub exported_per_month: Option<Quantity>,
    /// Data exported incrementally a month (size).
    pub incremental_export_per_month: Option<Quantity>,
    /// Data imported from S3 a month (size).
    pub import_per_month: Option<Quantity>,
    /// The day of the month (1–31) the backups were taken, for the month they are taken in:
    /// their storage is billed from that day on (default: held the whole month).
    pub taken_on_day: Option<Quantity>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawObserved {
    /// Read units measured a month (count).
    pub read_units: Option<Quantity>,
    /// Write units measured a month (count).
    pub write_units: Option<Quantity>,
    /// Table size measured.
    pub storage: Option<Quantity>,
    /// PITR size measured.
    pub pitr: Option<Quantity>,
    /// Stream read requests measured a month (count).
    pub stream_read_requests: Option<Quantity>,
    /// The hours the counts above were measured over (as `ddbcost usage --measured-workload`
    /// writes them): priced for any month by × its hours ÷ these. Without it, the counts are
    /// for the month priced.
    pub hours: Option<Quantity>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawStream {
    /// What each stream record holds (informational: stream reads cost the same).
    pub view: Option<RawStreamView>,
    /// The stream's consumers, by name.
    #[serde(default)]
    pub consumers: IndexMap<String, RawConsumer>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum RawStreamView {
    KeysOnly,
    NewImage,
    OldImage,
    NewAndOldImages,
}

/// A key schema: the partition (hash) key's attribute name and the sort (range) key's.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawKey {
    /// The partition (hash) key attribute.
    pub partition: Spanned<String>,
    /// The sort (range) key attribute.
    pub sort: Option<Spanned<String>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
pub(crate) enum RawAttributeType {
    S,
    N,
    B,
}

#[derive(Debug, Clone, Copy, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum RawConsumerKind {
    Lambda,
    Reader,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawConsumer {
    /// `lambda` (free reads) or `reader`.
    pub kind: Spanned<RawConsumerKind>,
    /// GetRecords calls (a rate).
    pub get_records: Option<Quantity>,
    /// Records a call returns (1–1000).
    pub records_per_call: Option<Quantity>,
}

#[derive(Debug, Clone, Copy, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum RawIndexKind {
    Gsi,
    Lsi,
}

#[derive(Debug, Clone, Copy, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum RawProjection {
    KeysOnly,
    Include,
    All,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawIndex {
    /// `gsi` or `lsi` (required).
    #[serde(rename = "type")]
    pub kind: RawIndexKind,
    /// The index's key attribute names.
    pub key: Option<RawKey>,
    /// The spread of the index's partition key.
    pub keys: Option<RawKeys>,
    /// The non-key attributes an `include` projection holds, by name.
    #[serde(default)]
    pub include: Vec<Spanned<String>>,
    /// The index projection: `keys-only`, `include` or `all`. (required).
    pub projection: Spanned<RawProjection>,
    /// Bytes of the included attributes (default: required for `include`).
    #[schemars(example = &"120 B")]
    pub projected_size: Option<Quantity>,
    /// Bytes of the index's key attributes; with the table's `key_size` it sizes KEYS_ONLY and
    /// INCLUDE entries.
    #[schemars(example = &"40 B")]
    pub key_size: Option<Quantity>,
    /// The whole entry stated directly (overrides the derivation).
    pub entry_size: Option<Quantity>,
    /// Share of items carrying the index key (sparse below 1) (default: `1`).
    pub key_share: Option<Quantity>,
    /// For `advise`: the writes that put an item into the set the index's queries need and
    /// take it out (`{ added_by: [pattern], removed_by: [pattern] }`).
    pub sparse: Option<RawSparse>,
    /// Share of updates that change the key (2 index writes) (default: `0`).
    pub updates_moving_key: Option<Quantity>,
    /// Shares of updates that add / remove the key (1 write) (default: `0`).
    pub updates_adding_key: Option<Quantity>,
    /// Shares of updates that add / remove the key (1 write) (default: `0`).
    pub updates_removing_key: Option<Quantity>,
    /// Share of the other updates that change a projected attribute (1 write) (default: `1` (ALL,
    /// INCLUDE), `0` (KEYS_ONLY)).
    pub updates_touching_projection: Option<Quantity>,
    /// A GSI's own fixed capacity, per dimension (whole, at least 1); a dimension it does not fix
    /// uses its own `auto_scaling`, else the table's auto scaling for that dimension (never the
    /// table's fixed units).
    pub rcu: Option<Quantity>,
    /// A GSI's own fixed capacity, per dimension (whole, at least 1); a dimension it does not fix
    /// uses its own `auto_scaling`, else the table's auto scaling for that dimension (never the
    /// table's fixed units).
    pub wcu: Option<Quantity>,
    /// A GSI's own auto scaling (same fields as the table's) (default: the table's).
    pub auto_scaling: Option<RawAutoScaling>,
    /// `read_units`, `write_units`, `storage`.
    pub observed: Option<RawIndexObserved>,
    /// CloudWatch Contributor Insights on this GSI (default: `false`).
    #[serde(default)]
    pub contributor_insights: bool,
}

/// `strong_required`: a flag, or the share of reads that need strong consistency (its
/// text, never a float).
#[derive(Debug, Clone)]
pub enum RawStrong {
    Flag(bool),
    Share(String),
}

impl<'de> Deserialize<'de> for RawStrong {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = RawStrong;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("`true`, `false`, or a share such as `8%`")
            }
            fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<RawStrong, E> {
                Ok(RawStrong::Flag(v))
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<RawStrong, E> {
                Ok(RawStrong::Share(v.to_string()))
            }
        }
        // As text: a number arrives as written.
        d.deserialize_string(V)
    }
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawStale {
    /// An age (`1 year`).
    pub older_than: Quantity,
    /// The share of stored items older than that nobody reads.
    pub share: Quantity,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawVectorIndex {
    /// Dimensions of the embedding, stored as 32-bit floats (4 bytes each) (required).
    #[schemars(example = &"1536")]
    pub dimensions: Quantity,
    /// Bytes of the attributes the index copies besides the vector (keys and projected
    /// attributes) (default: `0`).
    #[schemars(example = &"120 B")]
    pub projected_size: Option<Quantity>,
    /// The whole entry (vector + copied attributes) stated directly, as
    /// `VectorWriteRequestBytes` reports a write of it (overrides the derivation).
    pub entry_size: Option<Quantity>,
    /// Items holding a vector (default: the table's `items`).
    pub items: Option<Quantity>,
    /// Writes that change an indexed vector (a rate: `2M/month`) (default: none).
    pub writes: Option<Quantity>,
    /// `SearchVectors` requests (a rate) (default: none).
    pub searches: Option<Quantity>,
    /// Bytes one search consumes, as `ReturnConsumedCapacity` reports it
    /// (`VectorSearchRequestBytes`; it grows with dimensions, `TopK` and what is returned)
    /// (required with `searches`).
    #[schemars(example = &"40 KB")]
    pub search_bytes: Option<Quantity>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawDax {
    /// The node type, as AWS names it (required).
    #[schemars(example = &"dax.r5.large")]
    pub node_type: Spanned<String>,
    /// Nodes in the cluster, 1 to 11 (AWS recommends 3 for production) (required).
    pub nodes: Quantity,
    /// Hours the cluster runs in the month (default: the whole month).
    pub hours: Option<Quantity>,
    /// Share of the eventually consistent reads served from the cache (required).
    #[schemars(example = &"80%")]
    pub hits: Quantity,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawSparse {
    /// Write patterns that put an item into the index's set.
    pub added_by: Vec<Spanned<String>>,
    /// Write patterns that take it out.
    pub removed_by: Vec<Spanned<String>>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawIndexObserved {
    /// Read units measured a month (count).
    pub read_units: Option<Quantity>,
    /// Write units measured a month (count).
    pub write_units: Option<Quantity>,
    /// Index size measured.
    pub storage: Option<Quantity>,
    /// The hours the counts above were measured over (see the table's `observed.hours`).
    pub hours: Option<Quantity>,
}

/// `overwrite_changes`: what an overwriting put changes, as far as the indexes can tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum RawOverwriteChanges {
    Nothing,
    Projected,
    Keys,
    Updates,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum RawOperation {
    Get,
    BatchGet,
    Query,
    Scan,
    Put,
    Update,
    Delete,
    BatchWrite,
    TransactGet,
    TransactWrite,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawPattern {
    /// The spread of the key the pattern uses.
    pub keys: Option<RawKeys>,
    /// The operation. (required).
    pub op: Spanned<RawOperation>,
    /// Operations per period (required).
    #[schemars(example = &"20/s")]
    pub rate: Quantity,
    /// Bytes per item; for writes, the larger of before and after (default: the table's (on an
    /// index: the entry)).
    #[schemars(example = &"1.2 KB")]
    pub item_size: Option<Spanned<RawItemSize>>,
    /// Items returned (query), evaluated (scan), or in the batch (≤ 100; batch-write ≤ 25) or
    /// transaction (≤ 100) (default: required for multi-item ops).
    #[schemars(example = &"40M")]
    pub items: Option<Quantity>,
    /// A share of eventual reads costs `1 − share / 2` of strong; not allowed on writes and
    /// transactions (default: required for table and LSI reads; `eventual` on a GSI).
    #[schemars(example = &"92% eventual")]
    pub consistency: Option<Quantity>,
    /// Share of puts that replace an existing item (default 0: every put inserts).
    pub overwrites: Option<Quantity>,
    /// What an overwrite changes: `nothing` (an identical or unindexed rewrite: no index
    /// write), `projected` (attributes the indexes project: 1 write on each ALL or INCLUDE
    /// index), `keys` (an index key: 2 writes, delete and put, on each index) or `updates`
    /// (each index's `updates_*` shares) (default: `nothing`).
    pub overwrite_changes: Option<Spanned<RawOverwriteChanges>>,
    /// Bytes each request sends out to the internet (`4 KB`), or `returned` for a read (its
    /// items or index entries × `items`: a client outside AWS reading the results), priced at
    /// the region's transfer-out tiers (default: none).
    #[schemars(example = &"4 KB")]
    pub transfer_out: Option<Quantity>,
    /// A query or scan on this index.
    pub index: Option<Spanned<String>>,
    /// An LSI query that fetches non-projected attributes (default: `false`).
    #[serde(default)]
    pub fetch_base_items: bool,
    /// Free text shown in reports.
    pub description: Option<String>,
    /// Overrides the index rules for this pattern: `none`, `put`, `add`, `remove`, `update`,
    /// `move`, or index writes per item written (`0.5`); single-table designs need it.
    #[serde(default)]
    pub index_effects: IndexMap<String, Quantity>,
    /// The pattern's own traffic profile (a nightly job, say) (default: the table's).
    pub traffic: Option<Spanned<RawTraffic>>,
    /// For `advise`: the share of these reads that need strong consistency (`true` = all,
    /// `false` = none, or a share such as `8%`).
    pub strong_required: Option<Spanned<RawStrong>>,
    /// For `advise`: the pattern needs a transaction (all-or-nothing), not only batching.
    #[serde(default)]
    pub transaction_required: bool,
    /// For `advise`: the attributes the pattern's reads use (an index projection holding
    /// only these serves it).
    pub reads_attributes: Option<Vec<Spanned<String>>>,
    /// How the pattern's rate changes over a forecast (`3%/month` or factors per month).
    pub growth: Option<Spanned<RawGrowth>>,
    /// Factors for named months (`{ nov: 1.4, dec: 1.8 }`).
    #[serde(default)]
    pub seasonal: IndexMap<String, Quantity>,
    /// The month the pattern starts (`2027-03`): no traffic before it in a forecast.
    pub from: Option<Quantity>,
}

/// Growth over a forecast: a monthly rate (`3%/month`, compounding) or one factor per month.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RawGrowth {
    Rate(Quantity),
    Factors(Vec<Quantity>),
}

impl<'de> Deserialize<'de> for RawGrowth {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = RawGrowth;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a growth such as `3%/month`, or a list of monthly factors")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<RawGrowth, E> {
                Ok(RawGrowth::Rate(text_scalar(v.to_string())))
            }
            fn visit_string<E: serde::de::Error>(self, v: String) -> Result<RawGrowth, E> {
                Ok(RawGrowth::Rate(text_scalar(v)))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<RawGrowth, A::Error> {
                // Each factor as the text it was written as (never through a float).
                let mut out = Vec::new();
                while let Some(f) = seq.next_element::<Quantity>()? {
                    out.push(f);
                }
                Ok(RawGrowth::Factors(out))
            }
        }
        d.deserialize_any(V)
    }
}

/// A scalar without a known position.
fn text_scalar(value: String) -> Quantity {
    Quantity::at(value, Location::UNKNOWN, Location::UNKNOWN)
}

/// An item size as written (`900 B`, `3.5 KB`) or measured from a sample file
/// (`{ sample: samples/order.json }`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RawItemSize {
    /// A size as written (a plain number too: the YAML reader hands numbers over as their
    /// text, never through a float).
    Text(String),
    Sample(String),
    /// Items of several sizes: `[{ size: 1.8 KB, share: 90% }, { size: 4.5 KB, share: 10% }]`.
    Classes(Vec<RawSizeClass>),
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawSizeClass {
    /// An item size.
    pub size: Quantity,
    /// The share of items of that size.
    pub share: Quantity,
}

impl<'de> Deserialize<'de> for RawItemSize {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = RawItemSize;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a size such as `3.5 KB`, or `{ sample: FILE }`")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<RawItemSize, E> {
                Ok(RawItemSize::Text(v.to_string()))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<RawItemSize, A::Error> {
                let mut classes = Vec::new();
                while let Some(c) = seq.next_element::<RawSizeClass>()? {
                    classes.push(c);
                }
                Ok(RawItemSize::Classes(classes))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<RawItemSize, A::Error> {
                let mut sample = None;
                while let Some(key) = map.next_key::<String>()? {
                    if key != "sample" {
                        return Err(serde::de::Error::unknown_field(&key, &["sample"]));
                    }
                    sample = Some(map.next_value::<String>()?);
                }
                sample
                    .map(RawItemSize::Sample)
                    .ok_or_else(|| serde::de::Error::missing_field("sample"))
            }
        }
        d.deserialize_any(V)
    }
}

/// A table's patterns: by name, or still to be stated (`patterns: TODO`).
#[derive(Debug, Default)]
pub struct RawPatterns {
    pub by_name: IndexMap<String, RawPattern>,
    /// `patterns: TODO`.
    pub placeholder: bool,
}

impl RawPatterns {
    #[must_use]
    pub fn iter(&self) -> indexmap::map::Iter<'_, String, RawPattern> {
        self.by_name.iter()
    }
}

impl<'a> IntoIterator for &'a RawPatterns {
    type Item = (&'a String, &'a RawPattern);
    type IntoIter = indexmap::map::Iter<'a, String, RawPattern>;
    fn into_iter(self) -> Self::IntoIter {
        self.by_name.iter()
    }
}

/// The schema of `patterns`: a map of patterns, or the placeholder `TODO`.
#[derive(schemars::JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)] // only its schema is used
pub(super) enum PatternsOrPlaceholder {
    /// The patterns, by name.
    Map(IndexMap<String, RawPattern>),
    /// `TODO`: still to be stated.
    Placeholder(String),
}

/// A map of patterns (read as a map, so its errors name the pattern and field), or the text
/// `TODO`.
fn patterns_or_placeholder<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<RawPatterns, D::Error> {
    struct V;
    impl<'de> serde::de::Visitor<'de> for V {
        type Value = RawPatterns;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a map of access patterns by name, or `TODO`")
        }
        fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<RawPatterns, E> {
            if v.trim() == crate::load::PLACEHOLDER {
                Ok(RawPatterns {
                    by_name: IndexMap::new(),
                    placeholder: true,
                })
            } else {
                Err(E::custom(format!(
                    "`{v}` is not a map of access patterns (or `TODO`)"
                )))
            }
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<RawPatterns, A::Error> {
            let by_name =
                serde::Deserialize::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
            Ok(RawPatterns {
                by_name,
                placeholder: false,
            })
        }
        fn visit_unit<E: serde::de::Error>(self) -> Result<RawPatterns, E> {
            Ok(RawPatterns::default())
        }
    }
    d.deserialize_any(V)
}
