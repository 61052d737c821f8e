//! A workload: tables with their capacity mode, storage, indexes, access patterns, streams,
//! backups and replicas. Built by `load` from a workload file after validation.

use rust_decimal::Decimal;

use super::quantity::{DataSize, Rate};

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Workload {
    pub name: String,
    pub description: Option<String>,
    /// Price table id or path named by the workload; `--prices` overrides it.
    pub prices: Option<String>,
    /// Folders of price tables (`price_dirs:`), relative to the workload's folder already:
    /// searched before the bundled tables for every region the workload needs.
    pub price_dirs: Vec<String>,
    pub tables: Vec<Table>,
    /// Reserved capacity bought for the account, applied to each region's pooled provisioned
    /// capacity.
    pub reservations: Vec<Reservation>,
    /// A Database Savings Plan of the account, applied after reservations.
    pub savings_plan: Option<SavingsPlan>,
    /// Paths of values still written as `TODO` (usage `ddbcost import` could not know): the
    /// lines that need them depend on usage, and `--strict` refuses the workload.
    pub placeholders: Vec<String>,
}

impl Workload {
    /// The table named `name` (`--table`), or the only table when no name is given.
    ///
    /// # Errors
    /// No table of that name, or several tables and no name: the message (with `file`, the
    /// workload's label) and a suggestion naming the tables.
    pub fn pick_table(&self, file: &str, name: Option<&str>) -> Result<&Table, (String, String)> {
        let names: Vec<&str> = self.tables.iter().map(|t| &*t.name).collect();
        match (name, self.tables.as_slice()) {
            (Some(n), _) => self.tables.iter().find(|t| *t.name == *n).ok_or_else(|| {
                (
                    format!("--table `{n}` is not in `{file}`"),
                    format!("Consider one of: {}.", names.join(", ")),
                )
            }),
            (None, [only]) => Ok(only),
            (None, _) => Err((
                format!(
                    "`{file}` has {} tables: which one is this export?",
                    names.len()
                ),
                format!("Consider `--table NAME`, one of: {}.", names.join(", ")),
            )),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum TableClass {
    Standard,
    StandardIa,
}

impl TableClass {
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            TableClass::Standard => "standard",
            TableClass::StandardIa => "standard-ia",
        }
    }
}

/// How much capacity of one kind (reads or writes) is provisioned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Capacity {
    /// The same number of units every hour.
    Fixed(Decimal),
    /// Application Auto Scaling: capacity follows consumption / `target`, within
    /// [`min`, `max`], with at most 27 decreases a day.
    AutoScaling {
        target: Decimal,
        min: Decimal,
        max: Decimal,
    },
    /// Provisioned, but its units are still to fill (`rcu: TODO`, as `import` writes for a
    /// capacity the template does not resolve): its line's cost depends on them.
    Unknown,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ReservedTerm {
    OneYear,
    ThreeYears,
}

impl ReservedTerm {
    #[must_use]
    pub fn months(self) -> u32 {
        match self {
            ReservedTerm::OneYear => 12,
            ReservedTerm::ThreeYears => 36,
        }
    }

    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            ReservedTerm::OneYear => "1-year",
            ReservedTerm::ThreeYears => "3-year",
        }
    }
}

/// Reserved capacity bought in blocks of 100 units (Standard class, provisioned only).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reserved {
    pub rcu: Decimal,
    pub wcu: Decimal,
    pub term: ReservedTerm,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProvisionedCapacity {
    pub read: Capacity,
    pub write: Capacity,
    pub reserved: Option<Reserved>,
}

/// How throughput is bought.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CapacityMode {
    OnDemand,
    Provisioned(ProvisionedCapacity),
}

/// How traffic spreads over the hours of a day or a week: multipliers of the average rate,
/// normalized to a mean of 1 (so monthly totals do not change), 24 or 168 of them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrafficProfile {
    pub hourly: Vec<Decimal>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    pub name: std::sync::Arc<str>,
    /// For `advise`: sizes (name + value, bytes) of named attributes.
    pub attribute_sizes: Vec<(String, Decimal)>,
    /// The key schema's attribute names, where stated.
    pub key: Option<KeySchema>,
    /// Attribute types by name (`S`, `N`, `B`), where stated.
    pub attributes: Vec<(String, char)>,
    /// The attribute TTL reads expiry times from, where stated.
    pub ttl_attribute: Option<String>,
    /// The spread of the table's partition key, where known.
    pub keys: Option<KeySpread>,
    /// On-demand maximum throughput (read, write request units a second), where stated.
    pub max_throughput: (Option<Decimal>, Option<Decimal>),
    /// The table's own region (`None`: the region of the workload's price table).
    pub region: Option<String>,
    pub class: TableClass,
    pub capacity: CapacityMode,
    /// Number of items stored.
    pub items: Option<Decimal>,
    /// Average item size in bytes (attribute names + values, without the 100 B overhead).
    pub item_size_bytes: Option<Decimal>,
    /// The sizes the average is made of, when items differ (a list of classes or a sample):
    /// request units are rounded per item, so each class is rounded on its own. Empty when
    /// every item has the average size.
    pub item_size_classes: Vec<SizeClass>,
    /// Table size stated directly (overrides items × size for storage).
    pub storage: Option<DataSize>,
    /// Bytes of the table's key attributes (names + values), used for index entries.
    pub key_size_bytes: Option<Decimal>,
    pub pitr: bool,
    pub backups: Backups,
    pub stream: Option<Stream>,
    pub kinesis_cdc: bool,
    /// CloudWatch Contributor Insights on the table (its own rules; a GSI states its own).
    pub contributor_insights: bool,
    /// How the table's tenants are found and spread (`tenants:`), for pricing per tenant.
    pub tenants: Option<Tenants>,
    /// The table's resource tags, key → value.
    pub tags: Vec<(String, String)>,
    /// Other regions of a global table (the table's own region is the price table's).
    pub replicas: Vec<String>,
    /// Items expired by TTL per month.
    pub ttl_deletes: Option<Rate>,
    /// Data sent out to the internet in a month besides what the patterns state.
    pub transfer_out: Option<DataSize>,
    /// A DynamoDB Accelerator cluster in front of the table.
    pub dax: Option<Dax>,
    /// Vector indexes (vector search).
    pub vector_indexes: Vec<VectorIndex>,
    /// How long an item lives before TTL removes it.
    pub ttl: Option<Retention>,
    /// For `advise`: the share of stored items nobody reads once older than an age.
    pub stale: Option<(Retention, Decimal)>,
    /// How the table's traffic spreads over the day or week (flat when `None`).
    pub traffic: Option<TrafficProfile>,
    /// How it changes over a forecast (growth, seasons, launch month).
    pub forecast: Forecasting,
    pub indexes: Vec<Index>,
    pub patterns: Vec<AccessPattern>,
    /// `patterns: TODO`: the requests are not stated yet, so they depend on usage (never
    /// zero).
    pub patterns_unknown: bool,
    pub observed: TableObserved,
    /// One-time work that goes with this version of the table.
    pub once: Once,
}

/// What a request sends out to the internet: a stated size, or what a read returns (its
/// items, or their index entries, × the items per request).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SentOut {
    Bytes(DataSize),
    Returned,
}

/// A vector index: its entries (an f32 vector of `dimensions` plus the attributes it copies)
/// are stored at the table's storage price, each write of one and each search is metered in
/// bytes (`VectorWriteRequestBytes`, `VectorSearchRequestBytes`), billed at no less than the
/// price table's minimum per request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VectorIndex {
    pub name: String,
    pub dimensions: Decimal,
    /// Bytes of one entry: the vector (4 bytes a dimension) and the copied attributes, or as
    /// stated.
    pub entry_bytes: Decimal,
    /// Items holding a vector (`None`: unknown).
    pub items: Option<Decimal>,
    pub writes: Option<Rate>,
    pub searches: Option<Rate>,
    pub search_bytes: Option<Decimal>,
}

/// A DAX cluster in front of a table: its nodes, priced per node-hour, and the share of the
/// eventually consistent reads it serves from its cache (strong and transactional reads, and
/// writes, pass through to the table).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dax {
    /// `dax.r5.large`.
    pub node_type: String,
    pub nodes: Decimal,
    /// Hours the cluster runs in the month (`None`: the whole month).
    pub hours: Option<Decimal>,
    /// Share of eventually consistent reads served from the cache.
    pub hits: Decimal,
}

/// Backups, restores and S3 exports/imports of one table.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Backups {
    /// On-demand backups kept at any time, each the size of table + LSIs.
    pub retained: Decimal,
    /// Full restores per month, each of table + all indexes.
    pub restores_per_month: Decimal,
    /// Full exports to S3 per month, each of the table size.
    pub full_exports_per_month: Decimal,
    /// On-demand backup storage as stated (in place of `retained` copies).
    pub stored: Option<DataSize>,
    /// Data restored per month as stated (in place of `restores_per_month`).
    pub restored: Option<DataSize>,
    /// Data of full exports per month as stated (in place of `full_exports_per_month`).
    pub exported: Option<DataSize>,
    /// Data processed by incremental exports per month.
    pub incremental_export: Option<DataSize>,
    /// Uncompressed source data imported from S3 per month.
    pub import: Option<DataSize>,
    /// The day of the month (1–31) the backups were taken: billed from it (the month they
    /// are taken in).
    pub taken_on_day: Option<Decimal>,
}

/// One-time work stated with a version of a table (`once:`): priced by `diff` and `compare`
/// where the version before did not state the same.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Once {
    pub rewrite: Option<Rewrite>,
    pub restore: Option<DataSize>,
    pub export: Option<DataSize>,
    pub import: Option<DataSize>,
    pub warm_throughput: Option<WarmThroughput>,
}

/// Items rewritten once: each at its size's write units, and each named GSI's entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rewrite {
    pub items: Decimal,
    /// Bytes of a rewritten item (`None`: the table's item size).
    pub item_bytes: Option<Decimal>,
    pub indexes: Vec<String>,
}

/// A warm throughput raise: units a second, and its price where stated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WarmThroughput {
    pub reads: Option<Decimal>,
    pub writes: Option<Decimal>,
    pub price: Option<Decimal>,
}

/// Figures measured elsewhere (CloudWatch, the bill) that replace derived ones.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TableObserved {
    pub read_units: Option<Decimal>,
    pub write_units: Option<Decimal>,
    pub storage: Option<DataSize>,
    pub pitr: Option<DataSize>,
    pub stream_read_requests: Option<Decimal>,
    /// The hours the counts were measured over (`observed.hours`): priced for a month of
    /// `month_hours`, they are × month_hours ÷ hours. `None`: counts for the priced month.
    pub hours: Option<Decimal>,
}

/// How a table's tenants are found (the key attribute and the pattern whose first group is
/// the tenant: what `allocate --tenant` reads) and, before launch, how many there are and
/// how their traffic and bytes spread.
#[derive(Debug, Clone, PartialEq)]
pub struct Tenants {
    pub key: String,
    pub pattern: String,
    pub spread: TenantSpread,
}

/// How the tenants share the table.
#[derive(Debug, Clone, PartialEq)]
pub enum TenantSpread {
    /// Tiers, each of `count` alike tenants taking a share of the traffic and the bytes.
    Tiers(Vec<TenantTier>),
    /// `count` tenants, the k-th busiest taking a share ∝ 1/k^`exponent` of traffic and bytes.
    Zipf { count: u32, exponent: Decimal },
}

/// A tier of alike tenants.
#[derive(Debug, Clone, PartialEq)]
pub struct TenantTier {
    pub name: String,
    pub count: u32,
    /// The tier's share of the table's requests (all its tenants together).
    pub share: Decimal,
    /// The tier's share of the table's bytes (default: `share`).
    pub storage_share: Decimal,
    /// The tier's share of a pattern's requests, where it differs from `share`.
    pub patterns: Vec<(String, Decimal)>,
}

impl TenantTier {
    /// The tier's share of pattern `name`'s requests.
    #[must_use]
    pub fn share_of(&self, pattern: &str) -> Decimal {
        self.patterns
            .iter()
            .find(|(p, _)| p == pattern)
            .map_or(self.share, |(_, s)| *s)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Stream {
    /// `keys-only`, `new-image`, `old-image` or `new-and-old-images`, where stated.
    pub view: Option<&'static str>,
    pub consumers: Vec<StreamConsumer>,
}

/// What is known about how a key spreads (`keys:`): how many distinct values it has, and the
/// share of reads and of writes its busiest value takes (a spread check on real traffic).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KeySpread {
    pub distinct: Option<Decimal>,
    pub busiest_reads: Option<Decimal>,
    pub busiest_writes: Option<Decimal>,
}

/// A reserved-capacity purchase of the account: blocks of 100 units of one kind, in one
/// region, for a term from a month.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reservation {
    /// `None`: the workload's price table's region.
    pub region: Option<String>,
    pub kind: crate::model::CapacityKind,
    /// Blocks of 100 units.
    pub blocks: Decimal,
    pub term: ReservedTerm,
    /// The first month it applies (year, month); `None`: always (an estimate's month).
    pub start: Option<(i64, u32)>,
}

/// A Database Savings Plan: a commitment of `per_hour` (in the price tables' currency) for
/// one year, no upfront, billed every hour whether used or not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SavingsPlan {
    pub per_hour: Decimal,
    /// The first month it applies; `None`: always (an estimate's month).
    pub start: Option<(i64, u32)>,
    /// Rates stated in the workload, used instead of the price tables' for every region.
    pub rates: Option<crate::model::SavingsPlanRates>,
}

impl SavingsPlan {
    /// Database Savings Plans are sold for one year.
    pub const TERM_MONTHS: u32 = 12;
}

/// Growth over a forecast.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Growth {
    /// Compounding: month k's rates are × (1 + rate)^(k−1).
    Monthly(Decimal),
    /// Month k's rates are × the k-th factor.
    Factors(Vec<Decimal>),
}

/// How a table or a pattern changes over a forecast.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Forecasting {
    pub growth: Option<Growth>,
    /// Factor by calendar month (1–12), for the months stated.
    pub seasonal: Vec<(u32, Decimal)>,
    /// The first month with traffic (year, month); none before it.
    pub from: Option<(i64, u32)>,
}

/// A key schema's attribute names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeySchema {
    pub partition: String,
    pub sort: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct StreamConsumer {
    pub name: String,
    pub kind: ConsumerKind,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ConsumerKind {
    /// An AWS Lambda trigger: its stream reads are free.
    Lambda,
    /// Another reader, whose `GetRecords` calls are billed.
    CallsPerMonth(Rate),
    /// Another reader that gets this many records per call on average (max 1,000).
    RecordsPerCall(Decimal),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IndexKind {
    Global,
    Local,
}

impl IndexKind {
    #[must_use]
    pub fn short(self) -> &'static str {
        match self {
            IndexKind::Global => "gsi",
            IndexKind::Local => "lsi",
        }
    }

    #[must_use]
    pub fn upper(self) -> &'static str {
        match self {
            IndexKind::Global => "GSI",
            IndexKind::Local => "LSI",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Projection {
    KeysOnly,
    /// Non-key attributes copied into the index, their size in bytes.
    Include {
        projected_bytes: Decimal,
    },
    All,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct IndexObserved {
    pub write_units: Option<Decimal>,
    pub read_units: Option<Decimal>,
    pub storage: Option<DataSize>,
    /// As `TableObserved::hours`.
    pub hours: Option<Decimal>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Index {
    pub name: std::sync::Arc<str>,
    /// For `advise`: the writes that make an item needed by the index and no longer needed.
    pub sparse: Option<SparseRule>,
    /// The spread of the index's partition key, where known.
    pub keys: Option<KeySpread>,
    pub kind: IndexKind,
    pub projection: Projection,
    /// The index's key attribute names, where stated.
    pub key: Option<KeySchema>,
    /// The non-key attributes an INCLUDE projection holds, where stated.
    pub include: Vec<String>,
    /// False while a size the entry needs is a placeholder (`TODO`): the index's storage
    /// then depends on usage, and no pattern may touch the table.
    pub sizes_known: bool,
    /// Bytes of the index's own key attributes.
    pub key_size_bytes: Option<Decimal>,
    /// Index entry size stated directly (table keys + index keys + projection).
    pub entry_size_bytes: Option<Decimal>,
    /// Share of items that carry the index key (sparse index below 1).
    pub key_share: Decimal,
    /// Share of updates that change the index key (delete + put = 2 index writes).
    pub updates_moving_key: Decimal,
    /// Share of updates that add the index key to an item (1 index write).
    pub updates_adding_key: Decimal,
    /// Share of updates that remove the index key (1 index write).
    pub updates_removing_key: Decimal,
    /// Share of the other updates that change a projected attribute (1 index write).
    pub updates_touching_projection: Decimal,
    /// Own provisioned capacity of a GSI when the table is provisioned.
    pub capacity: Option<ProvisionedCapacity>,
    pub observed: IndexObserved,
    /// CloudWatch Contributor Insights on this GSI.
    pub contributor_insights: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
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

impl Operation {
    #[must_use]
    pub fn is_read(self) -> bool {
        matches!(
            self,
            Operation::Get
                | Operation::BatchGet
                | Operation::Query
                | Operation::Scan
                | Operation::TransactGet
        )
    }

    /// Whether the operation works on several items (so `items` applies).
    #[must_use]
    pub fn is_multi_item(self) -> bool {
        matches!(
            self,
            Operation::BatchGet
                | Operation::Query
                | Operation::Scan
                | Operation::BatchWrite
                | Operation::TransactGet
                | Operation::TransactWrite
        )
    }

    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Operation::Get => "get",
            Operation::BatchGet => "batch-get",
            Operation::Query => "query",
            Operation::Scan => "scan",
            Operation::Put => "put",
            Operation::Update => "update",
            Operation::Delete => "delete",
            Operation::BatchWrite => "batch-write",
            Operation::TransactGet => "transact-get",
            Operation::TransactWrite => "transact-write",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Consistency {
    Strong,
    Eventual,
    /// A share of the reads eventually consistent, the rest strong (`92% eventual`).
    Mixed {
        eventual_share: Decimal,
    },
}

/// A retention period: hours (from hours, days, weeks) or months (of the settings' month).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Retention {
    Hours(Decimal),
    Months(Decimal),
}

impl Retention {
    /// The period in months of `month_hours` hours.
    #[must_use]
    pub fn months(self, month_hours: Decimal) -> Option<Decimal> {
        match self {
            Retention::Hours(h) => h.checked_div(month_hours),
            Retention::Months(m) => Some(m),
        }
    }

    /// `90 days`, as written back in a label.
    #[must_use]
    pub fn describe(self) -> String {
        match self {
            Retention::Hours(h) => {
                let days = h.checked_div(Decimal::from(24)).unwrap_or_default();
                if days.fract().is_zero() {
                    format!("{} days", days.normalize())
                } else {
                    format!("{} hours", h.normalize())
                }
            }
            Retention::Months(m) => format!("{} months", m.normalize()),
        }
    }
}

/// Items of one size, and how many of them (a weight: a share, or a count in a sample).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SizeClass {
    pub bytes: Decimal,
    pub weight: Decimal,
}

/// What an overwriting put changes, as far as the indexes can tell (measured on DynamoDB:
/// replacing an item whose index keys and projected attributes stay the same writes no index
/// entry — 1 WCU in all for a 1 KB item).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum OverwriteChanges {
    /// No indexed or projected attribute changes: no index write.
    #[default]
    Nothing,
    /// Attributes the indexes project change: 1 write on each index projecting more than keys.
    Projected,
    /// An index key changes: 2 writes (the old entry deleted, the new one put) on each index.
    Keys,
    /// Each index's `updates_*` shares, as for an update.
    Updates,
}

#[derive(Debug, Clone, PartialEq)]
pub struct AccessPattern {
    pub name: std::sync::Arc<str>,
    pub operation: Operation,
    pub rate: Rate,
    /// Bytes per item read or written (for writes: the larger of before and after); `None`
    /// means the table's average item size (or, on an index, the index entry size).
    pub item_size_bytes: Option<Decimal>,
    /// The pattern's own size classes (see `Table::item_size_classes`).
    pub item_size_classes: Vec<SizeClass>,
    /// Share of puts that replace an existing item (0 = every put inserts). An overwrite
    /// writes index entries only where it changes them: by `overwrite_changes`.
    pub overwrites: Decimal,
    /// What an overwrite changes (default: nothing, as an identical rewrite).
    pub overwrite_changes: OverwriteChanges,
    /// Items per operation: returned by a query, evaluated by a scan, in a batch or transaction.
    pub items_per_op: Decimal,
    pub consistency: Consistency,
    /// What each request sends out to the internet.
    pub transfer_out: Option<SentOut>,
    /// The index a query or scan runs on.
    pub index: Option<String>,
    /// An LSI query that also fetches non-projected attributes from the base table.
    pub fetches_base_items: bool,
    /// What the pattern serves, as the access-pattern document says.
    pub description: Option<String>,
    /// The pattern's own traffic profile (else the table's).
    pub traffic: Option<TrafficProfile>,
    /// How it changes over a forecast (growth, seasons, launch month).
    pub forecast: Forecasting,
    /// Index writes per item written, per index name, overriding the index-level rules for
    /// this pattern (single-table designs: a task put never touches the user index).
    pub index_effects: Vec<(String, Decimal)>,
    /// The spread of the key the pattern reads or writes by, where known.
    pub keys: Option<KeySpread>,
    /// Declarations for `advise` (no effect on the bill).
    pub needs: PatternNeeds,
}

/// What a pattern declares it needs, so that `advise` never suggests taking it away.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PatternNeeds {
    /// The share of its reads that need strong consistency (`None`: not stated, taken as 0).
    pub strong_share: Option<Decimal>,
    /// The pattern needs a transaction.
    pub transaction: bool,
    /// The attributes its reads use (`None`: not stated: all of them).
    pub reads_attributes: Option<Vec<String>>,
}

/// The writes that add an item to, and remove it from, the set an index's queries need.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SparseRule {
    pub added_by: Vec<String>,
    pub removed_by: Vec<String>,
}

/// DynamoDB's rule for table and index names: 3 to 255 of `a-z A-Z 0-9 _ . -`.
#[must_use]
pub(crate) fn is_dynamodb_name(name: &str) -> bool {
    (3..=255).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
}
