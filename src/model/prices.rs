//! Price tables: one region, one currency, each price by name with its source and the date
//! it took effect. A price the table does not know is absent, never zero.

use std::borrow::Cow;
use std::collections::BTreeMap;

use rust_decimal::Decimal;

use super::workload::{ReservedTerm, TableClass};

/// The name of one price in a price table. Class-dependent prices carry the table class.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum PriceKey {
    ReadPerMillion(TableClass),
    WritePerMillion(TableClass),
    ReplicatedWritePerMillion(TableClass),
    RcuHour(TableClass),
    WcuHour(TableClass),
    ReplicatedWcuHour(TableClass),
    StorageGbMonth(TableClass),
    PitrGbMonth,
    BackupGbMonth,
    RestoreGb,
    ExportGb,
    ImportGb,
    StreamReadsPerMillion,
    KinesisCdcPerMillion,
    TransferOutGb,
    /// Transfer to another region; the destination region, or `None` for the default.
    InterRegionTransferGb(Option<String>),
    /// A DynamoDB Accelerator (DAX) node of a type (`dax.r5.large`), per hour.
    DaxNodeHour(String),
    /// Vector index writes, per GB of `VectorWriteRequestBytes`.
    VectorWriteGb(TableClass),
    /// Vector searches, per GB of `VectorSearchRequestBytes`.
    VectorSearchGb(TableClass),
    /// CloudWatch Contributor Insights: a rule for a month…
    InsightsRuleMonth,
    /// …and a million events its rules match.
    InsightsEventsPerMillion,
    /// Reserved capacity, per block of 100 units: the upfront fee…
    ReservedUpfront(CapacityKind, ReservedTerm),
    /// …and the hourly fee.
    ReservedHourly(CapacityKind, ReservedTerm),
}

/// Read or write capacity units.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum CapacityKind {
    Rcu,
    Wcu,
}

impl CapacityKind {
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            CapacityKind::Rcu => "rcu",
            CapacityKind::Wcu => "wcu",
        }
    }
}

/// Number of price keys with a fixed slot (all but region-specific transfer prices).
pub(crate) const PRICE_SLOTS: usize = 31;

impl PriceKey {
    /// Every price the engine can ask a table for (the default inter-region transfer price
    /// stands for the per-destination ones), in the order `prices show` lists them.
    #[must_use]
    pub fn all() -> Vec<PriceKey> {
        let mut out = Vec::with_capacity(PRICE_SLOTS);
        for class in [TableClass::Standard, TableClass::StandardIa] {
            out.extend([
                PriceKey::ReadPerMillion(class),
                PriceKey::WritePerMillion(class),
                PriceKey::ReplicatedWritePerMillion(class),
                PriceKey::RcuHour(class),
                PriceKey::WcuHour(class),
                PriceKey::ReplicatedWcuHour(class),
                PriceKey::StorageGbMonth(class),
            ]);
        }
        out.extend([
            PriceKey::PitrGbMonth,
            PriceKey::BackupGbMonth,
            PriceKey::RestoreGb,
            PriceKey::ExportGb,
            PriceKey::ImportGb,
            PriceKey::StreamReadsPerMillion,
            PriceKey::KinesisCdcPerMillion,
            PriceKey::TransferOutGb,
            PriceKey::InterRegionTransferGb(None),
        ]);
        for kind in [CapacityKind::Rcu, CapacityKind::Wcu] {
            for term in [ReservedTerm::OneYear, ReservedTerm::ThreeYears] {
                out.extend([
                    PriceKey::ReservedUpfront(kind, term),
                    PriceKey::ReservedHourly(kind, term),
                ]);
            }
        }
        out
    }

    /// A dense index for the keys that do not name a region, for O(1) lookups.
    #[must_use]
    // Small constant offsets (at most 30): no user number reaches this arithmetic.
    #[allow(clippy::arithmetic_side_effects)]
    pub fn slot(&self) -> Option<usize> {
        let class = |c: &TableClass| match c {
            TableClass::Standard => 0,
            TableClass::StandardIa => 1,
        };
        Some(match self {
            PriceKey::ReadPerMillion(c) => class(c),
            PriceKey::WritePerMillion(c) => 2 + class(c),
            PriceKey::ReplicatedWritePerMillion(c) => 4 + class(c),
            PriceKey::RcuHour(c) => 6 + class(c),
            PriceKey::WcuHour(c) => 8 + class(c),
            PriceKey::ReplicatedWcuHour(c) => 10 + class(c),
            PriceKey::StorageGbMonth(c) => 12 + class(c),
            PriceKey::PitrGbMonth => 14,
            PriceKey::BackupGbMonth => 15,
            PriceKey::RestoreGb => 16,
            PriceKey::ExportGb => 17,
            PriceKey::ImportGb => 18,
            PriceKey::StreamReadsPerMillion => 19,
            PriceKey::KinesisCdcPerMillion => 20,
            PriceKey::TransferOutGb => 21,
            PriceKey::InterRegionTransferGb(None) => 22,
            PriceKey::InterRegionTransferGb(Some(_))
            | PriceKey::DaxNodeHour(_)
            | PriceKey::VectorWriteGb(_)
            | PriceKey::VectorSearchGb(_)
            | PriceKey::InsightsRuleMonth
            | PriceKey::InsightsEventsPerMillion => return None,
            PriceKey::ReservedUpfront(k, t) => 23 + reserved_slot(*k, *t),
            PriceKey::ReservedHourly(k, t) => 27 + reserved_slot(*k, *t),
        })
    }

    /// The dotted name the price has in a price-table file.
    #[must_use]
    pub fn path(&self) -> Cow<'static, str> {
        use TableClass::{Standard as S, StandardIa as Ia};
        Cow::Borrowed(match self {
            PriceKey::ReadPerMillion(S) => "standard.read_per_million",
            PriceKey::ReadPerMillion(Ia) => "standard_ia.read_per_million",
            PriceKey::WritePerMillion(S) => "standard.write_per_million",
            PriceKey::WritePerMillion(Ia) => "standard_ia.write_per_million",
            PriceKey::ReplicatedWritePerMillion(S) => "standard.replicated_write_per_million",
            PriceKey::ReplicatedWritePerMillion(Ia) => "standard_ia.replicated_write_per_million",
            PriceKey::RcuHour(S) => "standard.rcu_hour",
            PriceKey::RcuHour(Ia) => "standard_ia.rcu_hour",
            PriceKey::WcuHour(S) => "standard.wcu_hour",
            PriceKey::WcuHour(Ia) => "standard_ia.wcu_hour",
            PriceKey::ReplicatedWcuHour(S) => "standard.replicated_wcu_hour",
            PriceKey::ReplicatedWcuHour(Ia) => "standard_ia.replicated_wcu_hour",
            PriceKey::StorageGbMonth(S) => "standard.storage_gb_month",
            PriceKey::StorageGbMonth(Ia) => "standard_ia.storage_gb_month",
            PriceKey::PitrGbMonth => "pitr_gb_month",
            PriceKey::BackupGbMonth => "backup_gb_month",
            PriceKey::RestoreGb => "restore_gb",
            PriceKey::ExportGb => "export_gb",
            PriceKey::ImportGb => "import_gb",
            PriceKey::StreamReadsPerMillion => "stream_reads_per_million",
            PriceKey::KinesisCdcPerMillion => "kinesis_cdc_per_million",
            PriceKey::TransferOutGb => "transfer_out_gb",
            PriceKey::InterRegionTransferGb(None) => "inter_region_transfer_gb.default",
            PriceKey::InterRegionTransferGb(Some(r)) => {
                return Cow::Owned(format!("inter_region_transfer_gb.{r}"));
            }
            PriceKey::DaxNodeHour(node) => return Cow::Owned(format!("dax_node_hour.{node}")),
            PriceKey::VectorWriteGb(S) => "standard.vector_write_per_gb",
            PriceKey::VectorWriteGb(Ia) => "standard_ia.vector_write_per_gb",
            PriceKey::VectorSearchGb(S) => "standard.vector_search_per_gb",
            PriceKey::VectorSearchGb(Ia) => "standard_ia.vector_search_per_gb",
            PriceKey::InsightsRuleMonth => "cloudwatch.contributor_insights_rule_month",
            PriceKey::InsightsEventsPerMillion => {
                "cloudwatch.contributor_insights_events_per_million"
            }
            PriceKey::ReservedUpfront(k, t) => {
                return Cow::Owned(format!("reserved.{}_{}.upfront", k.name(), term_code(*t)));
            }
            PriceKey::ReservedHourly(k, t) => {
                return Cow::Owned(format!("reserved.{}_{}.hourly", k.name(), term_code(*t)));
            }
        })
    }
}

// Constants 0–3: no user number reaches this arithmetic.
#[allow(clippy::arithmetic_side_effects)]
fn reserved_slot(kind: CapacityKind, term: ReservedTerm) -> usize {
    let k = match kind {
        CapacityKind::Rcu => 0,
        CapacityKind::Wcu => 2,
    };
    k + match term {
        ReservedTerm::OneYear => 0,
        ReservedTerm::ThreeYears => 1,
    }
}

/// `1y` or `3y`, as price tables and workloads write a term.
#[must_use]
pub(crate) fn term_code(term: ReservedTerm) -> &'static str {
    match term {
        ReservedTerm::OneYear => "1y",
        ReservedTerm::ThreeYears => "3y",
    }
}

/// Database Savings Plan rates: for each eligible price, the fraction of its list price the
/// plan charges (`0.8` = 20 % off). A price without a rate is not eligible. Rates are data
/// (a price table's `savings_plan_rates` or a workload's `commitments.savings_plan.rates`),
/// never constants: AWS publishes them in the Savings Plans price list, per usage type.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SavingsPlanRates {
    pub rates: BTreeMap<PriceKey, Decimal>,
    /// Where the rates come from.
    pub source: String,
    /// The date they took effect, where the source states one (ISO 8601).
    pub effective: Option<String>,
}

impl SavingsPlanRates {
    /// The source as reports name it: with its date where one is stated.
    #[must_use]
    pub fn described(&self) -> String {
        match &self.effective {
            Some(d) => format!("{} (effective {d})", self.source),
            None => self.source.clone(),
        }
    }
}

impl PriceKey {
    /// Whether a Database Savings Plan can cover this price at all: DynamoDB on-demand
    /// throughput and provisioned capacity (of tables, indexes and replicas).
    #[must_use]
    pub fn savings_plan_eligible(&self) -> bool {
        matches!(
            self,
            PriceKey::ReadPerMillion(_)
                | PriceKey::WritePerMillion(_)
                | PriceKey::ReplicatedWritePerMillion(_)
                | PriceKey::RcuHour(_)
                | PriceKey::WcuHour(_)
                | PriceKey::ReplicatedWcuHour(_)
        )
    }
}

/// Free-tier allowances per account and region (applied only with `--free-tier`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FreeTier {
    pub storage_gb: Decimal,
    pub stream_reads: Decimal,
    pub rcu: Decimal,
    pub wcu: Decimal,
}

/// Tiers past a first price: each tier's first unit and its price per unit, in order.
pub(crate) type Tiers = Vec<(Decimal, Decimal)>;

/// The primary region's price table and those of replica regions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PriceBook {
    pub primary: PriceTable,
    pub others: Vec<PriceTable>,
}

impl PriceBook {
    #[must_use]
    pub fn region(&self, region: &str) -> Option<&PriceTable> {
        std::iter::once(&self.primary)
            .chain(&self.others)
            .find(|t| t.region == region)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PriceTable {
    pub id: String,
    pub region: String,
    /// ISO 4217 code.
    pub currency: String,
    pub source: String,
    /// ISO 8601 date the prices took effect.
    pub effective: String,
    /// Where the table was read from, for error messages.
    pub file: String,
    pub prices: BTreeMap<PriceKey, Decimal>,
    pub free_tier: Option<FreeTier>,
    /// Transfer out to the internet past the first tier (`transfer_out_gb`): each further
    /// tier's first GB of the region's month and its price per GB, in order.
    pub transfer_out_tiers: Tiers,
    /// GB of transfer out to the internet free each month (AWS: 100, across services and
    /// regions); applied with `--free-tier`.
    pub transfer_out_free_gb: Option<Decimal>,
    /// The fewest bytes a vector index request is billed for, where a source states it.
    pub vector_min_request_bytes: Option<Decimal>,
    /// Database Savings Plan rates for this region, where a source states them.
    pub savings_plan_rates: Option<SavingsPlanRates>,
}

impl PriceTable {
    #[must_use]
    pub fn get(&self, key: &PriceKey) -> Option<Decimal> {
        self.prices.get(key).copied()
    }

    /// The price to send data to `region`: a specific entry, or the table's default.
    #[must_use]
    pub fn transfer_to(&self, region: &str) -> Option<(PriceKey, Decimal)> {
        let specific = self
            .prices
            .iter()
            .find(|(k, _)| matches!(k, PriceKey::InterRegionTransferGb(Some(r)) if r == region));
        if let Some((key, price)) = specific {
            return Some((key.clone(), *price));
        }
        let default = PriceKey::InterRegionTransferGb(None);
        self.get(&default).map(|p| (default, p))
    }
}
