//! The workload file exactly as written: serde structs that only describe its shape. Unknown
//! fields are refused; quantities stay as their text (with their position) until `workload`
//! parses and validates them. The README's workload reference documents every field.

use indexmap::IndexMap;
use serde::Deserialize;

use super::yaml::Spanned;

/// A scalar kept as written, with its position, parsed later as a quantity.
pub type Scalar = Spanned<String>;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawWorkload {
    pub name: Option<String>,
    pub description: Option<String>,
    pub prices: Option<String>,
    /// Folders of price tables (imported ones), searched before the bundled tables.
    #[serde(default)]
    pub price_dirs: Vec<String>,
    pub settings: Option<RawSettings>,
    pub tables: IndexMap<String, RawTable>,
    /// What-if scenarios; read by `scenario`, checked for shape here.
    pub scenarios: Option<RawScenarios>,
    /// Commitments of the account: reserved capacity, pooled per region, and a Database
    /// Savings Plan.
    pub commitments: Option<RawCommitments>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCommitments {
    #[serde(default)]
    pub reserved: Vec<RawReservation>,
    pub savings_plan: Option<RawSavingsPlan>,
}

/// A Database Savings Plan: `{ per_hour: 0.50, term: 1y, start: 2027-01, rates: {...} }`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSavingsPlan {
    pub per_hour: Scalar,
    pub term: Option<Spanned<RawTerm>>,
    pub start: Option<Scalar>,
    pub rates: Option<super::savings_plan::RawRates>,
}

/// What is known of a key's spread: distinct values, and the busiest value's share of the
/// traffic (`busiest_share` for both, or `busiest_read_share` / `busiest_write_share`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawKeys {
    pub distinct: Option<Scalar>,
    pub busiest_share: Option<Scalar>,
    pub busiest_read_share: Option<Scalar>,
    pub busiest_write_share: Option<Scalar>,
}

/// One reserved-capacity purchase: `{ region, capacity: wcu, units: 200, term: 1y, start }`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawReservation {
    pub region: Option<String>,
    pub capacity: Spanned<RawCapacityKind>,
    pub units: Scalar,
    pub term: Spanned<RawTerm>,
    pub start: Option<Scalar>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RawCapacityKind {
    Rcu,
    Wcu,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawScenarios {
    #[serde(default)]
    pub steps: Vec<RawScenario>,
    #[serde(default)]
    pub alternatives: Vec<RawScenario>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawScenario {
    pub name: String,
    pub description: Option<String>,
    pub patch: serde_json::Value,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSettings {
    pub month_hours: Option<Scalar>,
    pub gb: Option<RawGb>,
    pub free_tier: Option<bool>,
    pub fx: Option<RawFx>,
}

/// `settings.fx`: show costs in `currency` at `rate` units of it per unit of the price
/// table's currency, as of `date`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawFx {
    pub currency: Scalar,
    pub rate: Scalar,
    pub date: Scalar,
    pub source: Option<Scalar>,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RawGb {
    Binary,
    Decimal,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RawClass {
    Standard,
    StandardIa,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RawMode {
    OnDemand,
    Provisioned,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCapacity {
    pub mode: Spanned<RawMode>,
    /// On-demand maximum throughput (read / write request units a second), where stated.
    pub max_read_units: Option<Scalar>,
    pub max_write_units: Option<Scalar>,
    pub rcu: Option<Scalar>,
    pub wcu: Option<Scalar>,
    pub auto_scaling: Option<RawAutoScaling>,
    pub reserved: Option<RawReserved>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawAutoScaling {
    pub target: Option<Scalar>,
    /// Per-dimension targets, overriding `target` (templates may set one per dimension).
    pub target_rcu: Option<Scalar>,
    pub target_wcu: Option<Scalar>,
    pub min_rcu: Option<Scalar>,
    pub max_rcu: Option<Scalar>,
    pub min_wcu: Option<Scalar>,
    pub max_wcu: Option<Scalar>,
}

#[derive(Debug, Clone, Copy, Deserialize)]
pub enum RawTerm {
    #[serde(rename = "1y")]
    OneYear,
    #[serde(rename = "3y")]
    ThreeYears,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawReserved {
    pub rcu: Option<Scalar>,
    pub wcu: Option<Scalar>,
    pub term: Spanned<RawTerm>,
}

/// A traffic profile: exactly one of `flat`, `peak`, `hourly` (24 multipliers) or `weekly`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawTraffic {
    pub flat: Option<bool>,
    pub peak: Option<RawPeak>,
    pub hourly: Option<Vec<Scalar>>,
    pub weekly: Option<RawWeekly>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawPeak {
    /// Traffic in each peak hour as a multiple of an off-peak hour's.
    pub times_off_peak: Option<Scalar>,
    /// Traffic in each peak hour as a multiple of the day's average hour.
    pub times_average: Option<Scalar>,
    /// Refused with a message: it read as "3× for 4 hours" but meant neither exactly.
    pub multiplier: Option<Scalar>,
    pub hours: Scalar,
    /// Hour of day (UTC) the peak starts; default 0.
    pub start: Option<Scalar>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawWeekly {
    pub mon: Vec<Scalar>,
    pub tue: Vec<Scalar>,
    pub wed: Vec<Scalar>,
    pub thu: Vec<Scalar>,
    pub fri: Vec<Scalar>,
    pub sat: Vec<Scalar>,
    pub sun: Vec<Scalar>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawTable {
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
    pub attribute_sizes: IndexMap<String, Scalar>,
    /// The attribute TTL reads expiry times from.
    pub ttl_attribute: Option<String>,
    pub class: Option<RawClass>,
    pub capacity: Option<RawCapacity>,
    pub items: Option<Scalar>,
    pub item_size: Option<Spanned<RawItemSize>>,
    pub storage: Option<Scalar>,
    pub key_size: Option<Scalar>,
    #[serde(default)]
    pub pitr: bool,
    pub backups: Option<RawBackups>,
    pub stream: Option<RawStream>,
    #[serde(default)]
    pub kinesis_cdc: bool,
    #[serde(default)]
    pub replicas: Vec<Spanned<String>>,
    pub ttl_deletes: Option<Scalar>,
    /// The table's region, when not the workload price table's.
    pub region: Option<String>,
    /// How long items live before TTL removes them (`90 days`): with the puts' rates, the
    /// number of items stored and the TTL deletes follow.
    pub ttl: Option<Scalar>,
    /// For `advise`: items nobody reads once older than an age, and their share.
    pub stale: Option<RawStale>,
    pub traffic: Option<Spanned<RawTraffic>>,
    /// How the table's traffic changes over a forecast.
    pub growth: Option<RawGrowth>,
    #[serde(default)]
    pub seasonal: IndexMap<String, Scalar>,
    /// The month the table is created (`2027-03`).
    pub from: Option<Scalar>,
    #[serde(default)]
    pub indexes: IndexMap<String, RawIndex>,
    #[serde(default)]
    pub patterns: IndexMap<String, RawPattern>,
    pub observed: Option<RawObserved>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawBackups {
    pub retained: Option<Scalar>,
    pub restores_per_month: Option<Scalar>,
    pub full_exports_per_month: Option<Scalar>,
    pub incremental_export_per_month: Option<Scalar>,
    pub import_per_month: Option<Scalar>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawObserved {
    pub read_units: Option<Scalar>,
    pub write_units: Option<Scalar>,
    pub storage: Option<Scalar>,
    pub pitr: Option<Scalar>,
    pub stream_read_requests: Option<Scalar>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawStream {
    /// What each stream record holds (informational: stream reads cost the same).
    pub view: Option<RawStreamView>,
    #[serde(default)]
    pub consumers: IndexMap<String, RawConsumer>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RawStreamView {
    KeysOnly,
    NewImage,
    OldImage,
    NewAndOldImages,
}

/// A key schema: the partition (hash) key's attribute name and the sort (range) key's.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawKey {
    pub partition: Spanned<String>,
    pub sort: Option<Spanned<String>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum RawAttributeType {
    S,
    N,
    B,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RawConsumerKind {
    Lambda,
    Reader,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawConsumer {
    pub kind: Spanned<RawConsumerKind>,
    pub get_records: Option<Scalar>,
    pub records_per_call: Option<Scalar>,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RawIndexKind {
    Gsi,
    Lsi,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RawProjection {
    KeysOnly,
    Include,
    All,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawIndex {
    #[serde(rename = "type")]
    pub kind: RawIndexKind,
    /// The index's key attribute names.
    pub key: Option<RawKey>,
    /// The spread of the index's partition key.
    pub keys: Option<RawKeys>,
    /// The non-key attributes an `include` projection holds, by name.
    #[serde(default)]
    pub include: Vec<Spanned<String>>,
    pub projection: Spanned<RawProjection>,
    pub projected_size: Option<Scalar>,
    pub key_size: Option<Scalar>,
    pub entry_size: Option<Scalar>,
    pub key_share: Option<Scalar>,
    /// For `advise`: the writes that put an item into the set the index's queries need and
    /// take it out (`{ added_by: [pattern], removed_by: [pattern] }`).
    pub sparse: Option<RawSparse>,
    pub updates_moving_key: Option<Scalar>,
    pub updates_adding_key: Option<Scalar>,
    pub updates_removing_key: Option<Scalar>,
    pub updates_touching_projection: Option<Scalar>,
    pub rcu: Option<Scalar>,
    pub wcu: Option<Scalar>,
    pub auto_scaling: Option<RawAutoScaling>,
    pub observed: Option<RawIndexObserved>,
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

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawStale {
    pub older_than: Scalar,
    pub share: Scalar,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSparse {
    pub added_by: Vec<Spanned<String>>,
    pub removed_by: Vec<Spanned<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawIndexObserved {
    pub read_units: Option<Scalar>,
    pub write_units: Option<Scalar>,
    pub storage: Option<Scalar>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
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

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawPattern {
    /// The spread of the key the pattern uses.
    pub keys: Option<RawKeys>,
    pub op: Spanned<RawOperation>,
    pub rate: Scalar,
    pub item_size: Option<Spanned<RawItemSize>>,
    pub items: Option<Scalar>,
    pub consistency: Option<Scalar>,
    /// Share of puts that replace an existing item (default 0: every put inserts).
    pub overwrites: Option<Scalar>,
    pub index: Option<Spanned<String>>,
    #[serde(default)]
    pub fetch_base_items: bool,
    pub description: Option<String>,
    #[serde(default)]
    pub index_effects: IndexMap<String, Scalar>,
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
    pub growth: Option<RawGrowth>,
    /// Factors for named months (`{ nov: 1.4, dec: 1.8 }`).
    #[serde(default)]
    pub seasonal: IndexMap<String, Scalar>,
    /// The month the pattern starts (`2027-03`): no traffic before it in a forecast.
    pub from: Option<Scalar>,
}

/// Growth over a forecast: a monthly rate (`3%/month`, compounding) or one factor per month.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RawGrowth {
    Rate(Scalar),
    Factors(Vec<Scalar>),
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
                while let Some(f) = seq.next_element::<Scalar>()? {
                    out.push(f);
                }
                Ok(RawGrowth::Factors(out))
            }
        }
        d.deserialize_any(V)
    }
}

/// A scalar without a known position.
fn text_scalar(value: String) -> Scalar {
    Spanned {
        value,
        referenced: serde_saphyr::Location::UNKNOWN,
        defined: serde_saphyr::Location::UNKNOWN,
    }
}

/// An item size as written (`900 B`, `3.5 KB`) or measured from a sample file
/// (`{ sample: samples/order.json }`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RawItemSize {
    Text(String),
    /// A plain number: its text is taken from the source at the node's span, never read
    /// through a float.
    Number,
    Sample(String),
    /// Items of several sizes: `[{ size: 1.8 KB, share: 90% }, { size: 4.5 KB, share: 10% }]`.
    Classes(Vec<RawSizeClass>),
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSizeClass {
    pub size: Scalar,
    pub share: Scalar,
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
            // Plain numbers: the value is dropped unread; the loader takes the text at the
            // node's span (sizes are read exactly from their text).
            fn visit_u64<E: serde::de::Error>(self, _: u64) -> Result<RawItemSize, E> {
                Ok(RawItemSize::Number)
            }
            fn visit_i64<E: serde::de::Error>(self, _: i64) -> Result<RawItemSize, E> {
                Ok(RawItemSize::Number)
            }
            fn visit_f64<E: serde::de::Error>(self, _: f64) -> Result<RawItemSize, E> {
                Ok(RawItemSize::Number)
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
