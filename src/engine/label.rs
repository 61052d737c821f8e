//! What a line item is, as structured fields: the engine says which rule produced a line and
//! with which figures (exact, unrounded); `report::labels` writes the words and rounds the
//! figures for display. Nothing here allocates text.

use std::borrow::Cow;
use std::sync::Arc;

use rust_decimal::Decimal;

use crate::model::{CapacityKind, Index, IndexKind, ReservedTerm, Retention, TableClass};

/// An index a line belongs to: its kind (GSI, LSI) and name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexRef {
    pub kind: IndexKind,
    pub name: Arc<str>,
}

impl IndexRef {
    #[must_use]
    pub fn of(index: &Index) -> Self {
        IndexRef {
            kind: index.kind,
            name: Arc::clone(&index.name),
        }
    }
}

/// How provisioned capacity was set (the plan behind a provisioned line).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlanShape {
    /// Fixed units for every hour of the month.
    Fixed { units: Decimal, hours: Decimal },
    /// Units still to fill (`TODO`).
    Unknown,
    /// Auto scaling at `target` (a share), within [min, max], averaging `average` units.
    AutoScaling {
        target: Decimal,
        min: Decimal,
        max: Decimal,
        average: Decimal,
    },
}

/// The TTL figures a table's storage line states: items kept, inserts a month, retention.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TtlNote {
    pub items: Decimal,
    pub inserts: Decimal,
    pub ttl: Retention,
}

/// A free-tier allowance a credit line applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FreeAllowance {
    Storage {
        gb: Decimal,
    },
    StreamReads,
    Rcu,
    Wcu,
    /// Transfer out to the internet, across services and regions.
    TransferOut {
        gb: Decimal,
    },
}

/// A stream consumer's read requests.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StreamReader {
    /// Stated as `observed`.
    Observed,
    /// A Lambda trigger (its reads are free).
    Lambda(Arc<str>),
    /// A consumer stating its calls a month.
    Calls(Arc<str>),
    /// A consumer stating records per `GetRecords` call.
    RecordsPerCall(Arc<str>, Decimal),
}

/// Which rule produced a line, with the figures its label states.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Label {
    /// On-demand request units of the table (`index: None`) or of an index; `derived` holds
    /// what the patterns derive when the quantity is observed.
    Requests {
        index: Option<IndexRef>,
        kind: CapacityKind,
        derived: Option<Decimal>,
    },
    /// Provisioned capacity of the table (`gsi: None`) or of a GSI, above `reserved` units.
    Provisioned {
        kind: CapacityKind,
        table: Arc<str>,
        gsi: Option<Arc<str>>,
        plan: PlanShape,
        reserved: Decimal,
    },
    /// A table's own reservation: the upfront fee (`paid` once in all), amortized.
    TableReservedUpfront {
        kind: CapacityKind,
        term: ReservedTerm,
        paid: Decimal,
    },
    /// A table's own reservation: the hourly fee.
    TableReservedHourly {
        kind: CapacityKind,
        term: ReservedTerm,
        blocks: Decimal,
        hours: Decimal,
    },
    TableStorage {
        class: TableClass,
        ttl: Option<TtlNote>,
    },
    IndexStorage(IndexRef),
    Pitr,
    Backups {
        retained: Decimal,
        /// Taken on this day of the month: (the day, the hours billed of the month's).
        taken: Option<(Decimal, Decimal)>,
    },
    /// Backup storage as the workload states it.
    BackupsStated,
    Restores {
        per_month: Decimal,
    },
    /// Data restored as the workload states it.
    RestoresStated,
    Exports,
    Imports,
    TtlDeletes,
    StreamReads(StreamReader),
    KinesisCdc,
    /// Replicated write request units of the table (`index: None`) or an index in `region`.
    ReplicatedRequests {
        region: Arc<str>,
        index: Option<IndexRef>,
    },
    /// A global table's writes in its own region: replicated write request units (and the
    /// units the patterns derive, where the count was observed).
    GlobalWrites {
        region: Arc<str>,
        derived: Option<Decimal>,
    },
    /// A global table's write capacity in its own region: replicated WCU, which no
    /// reservation covers.
    GlobalWcu {
        region: Arc<str>,
        plan: PlanShape,
    },
    ReplicatedWcu {
        region: Arc<str>,
        plan: PlanShape,
    },
    ReplicaRcu {
        region: Arc<str>,
        plan: PlanShape,
    },
    ReplicaGsiWcu {
        region: Arc<str>,
        index: Arc<str>,
    },
    ReplicaStorage {
        region: Arc<str>,
    },
    ReplicationTransfer {
        from: Arc<str>,
        to: Arc<str>,
    },
    /// A table's data sent out to the internet, at the first tier's price.
    TransferOut,
    /// A vector index's entries (vectors of `dimensions`).
    VectorStorage {
        index: Arc<str>,
        dimensions: Decimal,
    },
    /// The bytes `writes` of vectors a month replicate into the index.
    VectorWrites {
        index: Arc<str>,
        writes: Decimal,
    },
    /// The bytes `searches` a month examine and return.
    VectorSearches {
        index: Arc<str>,
        searches: Decimal,
    },
    /// A DAX cluster in front of a table: `nodes` of `node_type` for `hours`, its cache
    /// serving `hits` of the eventually consistent reads.
    /// Contributor Insights' rules on a table (`index: None`) or a GSI, for a month.
    InsightsRules {
        index: Option<Arc<str>>,
        rules: u32,
    },
    /// The events Contributor Insights' most-accessed rules match: one per request that
    /// reaches the table or GSI, for each such rule.
    InsightsEvents {
        index: Option<Arc<str>>,
        requests: Decimal,
        rules: u32,
    },
    Dax {
        node_type: Arc<str>,
        nodes: Decimal,
        hours: Decimal,
        hits: Decimal,
    },
    /// A region's transfer out past a tier's first GB: billed at `price` instead of the first
    /// tier's `first` (the line prices the difference), up to `to` GB.
    TransferOutTier {
        region: Arc<str>,
        from: Decimal,
        to: Option<Decimal>,
        price: Decimal,
        first: Decimal,
    },
    /// A free-tier credit, in `region` when it is not the primary one.
    FreeTier {
        allowance: FreeAllowance,
        region: Option<Arc<str>>,
    },
    /// Reservations pooled in a region: the upfront fee of `blocks`, amortized.
    PoolUpfront {
        kind: CapacityKind,
        region: Arc<str>,
        term: ReservedTerm,
        blocks: Decimal,
        /// The upfront fee of one block, as the price table lists it (paid once).
        fee: Decimal,
        /// Each purchase: the month it was bought (`None`: not stated) and its blocks.
        bought: Vec<(Option<(i64, u32)>, Decimal)>,
    },
    /// Reservations pooled in a region: the hourly fee of `blocks`.
    PoolHourly {
        kind: CapacityKind,
        region: Arc<str>,
        term: ReservedTerm,
        blocks: Decimal,
        hours: Decimal,
    },
    /// What pooled reservations cover, and the reserved unit-hours left unused.
    PoolCovered {
        kind: CapacityKind,
        region: Arc<str>,
        covered: Decimal,
        unused: Decimal,
    },
    /// The savings plan's commitment, with its utilization and coverage (shares).
    SavingsPlanCommitment {
        per_hour: Decimal,
        hours: Decimal,
        utilization: Decimal,
        coverage: Decimal,
    },
    /// Usage the savings plan covers, at `rate` of list.
    SavingsPlanCovers {
        quantity: Decimal,
        unit: &'static str,
        price: Cow<'static, str>,
        region: Arc<str>,
        rate: Decimal,
    },
    /// A line stated as plain text (tests, hand-built lines).
    Text(Cow<'static, str>),
}

impl Label {
    /// Whether the label already says its quantity was observed.
    #[must_use]
    pub fn says_observed(&self) -> bool {
        matches!(
            self,
            Label::Requests {
                derived: Some(_),
                ..
            } | Label::GlobalWrites {
                derived: Some(_),
                ..
            } | Label::StreamReads(StreamReader::Observed)
        ) || matches!(self, Label::Text(t) if t.contains("observed"))
    }
}
