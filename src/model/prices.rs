//! Price tables: one region, one currency, each price by name with its source and the date
//! it took effect. A price the table does not know is absent, never zero.

use std::collections::BTreeMap;

use rust_decimal::Decimal;

use super::workload::TableClass;

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
}

impl PriceKey {
    /// The dotted name the price has in a price-table file.
    #[must_use]
    pub fn path(&self) -> String {
        let class = |c: &TableClass| match c {
            TableClass::Standard => "standard",
            TableClass::StandardIa => "standard_ia",
        };
        match self {
            PriceKey::ReadPerMillion(c) => format!("{}.read_per_million", class(c)),
            PriceKey::WritePerMillion(c) => format!("{}.write_per_million", class(c)),
            PriceKey::ReplicatedWritePerMillion(c) => {
                format!("{}.replicated_write_per_million", class(c))
            }
            PriceKey::RcuHour(c) => format!("{}.rcu_hour", class(c)),
            PriceKey::WcuHour(c) => format!("{}.wcu_hour", class(c)),
            PriceKey::ReplicatedWcuHour(c) => format!("{}.replicated_wcu_hour", class(c)),
            PriceKey::StorageGbMonth(c) => format!("{}.storage_gb_month", class(c)),
            PriceKey::PitrGbMonth => "pitr_gb_month".into(),
            PriceKey::BackupGbMonth => "backup_gb_month".into(),
            PriceKey::RestoreGb => "restore_gb".into(),
            PriceKey::ExportGb => "export_gb".into(),
            PriceKey::ImportGb => "import_gb".into(),
            PriceKey::StreamReadsPerMillion => "stream_reads_per_million".into(),
            PriceKey::KinesisCdcPerMillion => "kinesis_cdc_per_million".into(),
            PriceKey::TransferOutGb => "transfer_out_gb".into(),
            PriceKey::InterRegionTransferGb(None) => "inter_region_transfer_gb.default".into(),
            PriceKey::InterRegionTransferGb(Some(r)) => format!("inter_region_transfer_gb.{r}"),
        }
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
}

impl PriceTable {
    #[must_use]
    pub fn get(&self, key: &PriceKey) -> Option<Decimal> {
        self.prices.get(key).copied()
    }

    /// The price to send data to `region`: a specific entry, or the table's default.
    #[must_use]
    pub fn transfer_to(&self, region: &str) -> Option<(PriceKey, Decimal)> {
        let specific = PriceKey::InterRegionTransferGb(Some(region.to_string()));
        if let Some(p) = self.get(&specific) {
            return Some((specific, p));
        }
        let default = PriceKey::InterRegionTransferGb(None);
        self.get(&default).map(|p| (default, p))
    }
}
