//! What the engine warns about, as structured fields with exact figures: throttling, an
//! on-demand peak above what a new table absorbs, a key that concentrates traffic, a plan
//! without a rate, placeholders. `report::notices` writes the words and rounds the figures.

use std::sync::Arc;

use rust_decimal::Decimal;

use super::label::IndexRef;
use crate::model::CapacityKind;

/// The key a finding is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeySubject {
    /// The partition key of a table.
    Table(Arc<str>),
    /// The partition key of an index.
    Index(IndexRef),
    /// The key an access pattern uses.
    Pattern(Arc<str>),
    /// A key named by the caller (`ddbcost keys` names the attribute it counted).
    Named(String),
}

impl KeySubject {
    /// The name of the table, index or pattern (an error's context).
    #[must_use]
    pub fn name(&self) -> &str {
        match self {
            KeySubject::Table(name) | KeySubject::Pattern(name) => name,
            KeySubject::Index(index) => &index.name,
            KeySubject::Named(what) => what,
        }
    }
}

/// What the check of one key found (see `engine::assess_key`); figures exact.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyFinding {
    /// The busiest value takes `share` of `reads` RCU/s at the peak: `busiest` RCU/s, above
    /// a partition's 3,000.
    HotReads {
        share: Decimal,
        reads: Decimal,
        busiest: Decimal,
    },
    /// The busiest value takes `share` of `writes` WCU/s: `busiest` WCU/s, above a
    /// partition's 1,000, so it needs `suffixes` write shards.
    HotWrites {
        share: Decimal,
        writes: Decimal,
        busiest: Decimal,
        suffixes: Decimal,
    },
    /// `distinct` values, fewer than the `needed` partitions the peak needs.
    FewValues {
        distinct: Decimal,
        needed: Decimal,
        reads: Decimal,
        writes: Decimal,
    },
    /// One value takes `share` (at least a quarter) of the `kind` traffic: `busiest` units a
    /// second at the peak, `limit` being what a partition serves.
    AtRisk {
        share: Decimal,
        kind: CapacityKind,
        busiest: Decimal,
        limit: Decimal,
        /// `limit ÷ busiest`: how many times today's peak reaches a partition's limit.
        headroom: Option<Decimal>,
        distinct: Option<Decimal>,
    },
}

/// One finding about one key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyReason {
    pub subject: KeySubject,
    pub finding: KeyFinding,
}

/// A warning an estimate carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    /// Values written as `TODO`, by path.
    Placeholders(Vec<String>),
    /// An on-demand table's peak hour needs `peak` units a second; a new table absorbs `limit`.
    OnDemandPeak {
        table: Arc<str>,
        kind: CapacityKind,
        peak: Decimal,
        limit: Decimal,
    },
    /// Demand exceeds the provisioned capacity of the table (`gsi: None`) or a GSI in
    /// `hours` hours of the traffic profile, peaking at `peak` units a second.
    Throttled {
        table: Arc<str>,
        gsi: Option<Arc<str>>,
        kind: CapacityKind,
        hours: usize,
        peak: Decimal,
    },
    /// The savings plan has no rate for a price used in a region.
    NoPlanRate { price: String, region: Arc<str> },
    /// A key that concentrates traffic.
    Key(KeyReason),
    /// A note a command adds (the age of the prices), already in words.
    Note(String),
    /// A table's (or its GSI's) `observed` counts were measured over `hours` and priced for
    /// a month of `month_hours`.
    Windowed {
        table: Arc<str>,
        index: Option<Arc<str>>,
        hours: Decimal,
        month_hours: Decimal,
    },
}
