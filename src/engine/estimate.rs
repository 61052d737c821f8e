//! What the engine produces: an `Estimate` made of `LineItem`s. Each line has a stable key
//! (`orders/gsi/by-status/writes`) separate from its label, so comparisons join on keys, and
//! carries the access patterns its cost is attributed to.

use std::borrow::Cow;
use std::sync::Arc;

use indexmap::IndexMap;
use rust_decimal::Decimal;

use crate::model::Settings;

/// The billing dimension a line item belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Component {
    /// Read request units or capacity, of the table and of its indexes (AWS bills both as
    /// reads).
    Reads,
    Writes,
    IndexWrites,
    Storage,
    IndexStorage,
    Pitr,
    Backups,
    Restores,
    Exports,
    Imports,
    StreamReads,
    KinesisCdc,
    TtlDeletes,
    /// Reserved capacity: the upfront fee, amortized over the term, and the hourly fee.
    ReservedUpfront,
    ReservedCapacity,
    /// A Database Savings Plan: its commitment and the usage it covers (a credit).
    SavingsPlan,
    ReplicatedWrites,
    ReplicaIndexWrites,
    ReplicaStorage,
    ReplicaReads,
    Transfer,
    /// A DynamoDB Accelerator cluster's node-hours.
    Dax,
    /// CloudWatch Contributor Insights on a table or GSI: its rules and the events they match.
    ContributorInsights,
    FreeTier,
}

impl Component {
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Component::Reads => "reads",
            Component::Writes => "writes",
            Component::IndexWrites => "index-writes",
            Component::Storage => "storage",
            Component::IndexStorage => "index-storage",
            Component::Pitr => "pitr",
            Component::Backups => "backups",
            Component::Restores => "restores",
            Component::Exports => "exports",
            Component::Imports => "imports",
            Component::StreamReads => "stream-reads",
            Component::KinesisCdc => "kinesis-cdc",
            Component::TtlDeletes => "ttl-deletes",
            Component::ReservedUpfront => "reserved-upfront",
            Component::ReservedCapacity => "reserved-capacity",
            Component::SavingsPlan => "savings-plan",
            Component::ReplicatedWrites => "replicated-writes",
            Component::ReplicaIndexWrites => "replica-index-writes",
            Component::ReplicaStorage => "replica-storage",
            Component::ReplicaReads => "replica-reads",
            Component::Transfer => "transfer",
            Component::Dax => "dax",
            Component::ContributorInsights => "contributor-insights",
            Component::FreeTier => "free-tier",
        }
    }
}

/// Where a line's quantity comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Basis {
    /// Computed from the workload's patterns, sizes and counts.
    Derived,
    /// Stated in the workload's `observed` block (CloudWatch, the bill).
    Observed,
    /// Not known: the line shows its unit price and is left out of the total.
    DependsOnUsage,
}

impl Basis {
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Basis::Derived => "derived",
            Basis::Observed => "observed",
            Basis::DependsOnUsage => "depends-on-usage",
        }
    }
}

/// The share of a line's quantity and cost caused by one access pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attribution {
    pub pattern: Arc<str>,
    pub cost: Decimal,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineItem {
    pub key: String,
    pub table: Arc<str>,
    pub component: Component,
    /// What the line is, in structured fields (`report::labels` writes its words).
    pub label: super::label::Label,
    pub region: Arc<str>,
    /// In `unit`s; `None` when it depends on usage the workload does not state.
    pub quantity: Option<Decimal>,
    pub unit: &'static str,
    /// In the estimate's currency (converted at the estimate's `fx` rate, if any).
    pub unit_price: Decimal,
    /// The unit price in the price table's currency, as listed (equal to `unit_price` when no
    /// conversion applies).
    pub pricing_unit_price: Decimal,
    /// The price-table entry the unit price comes from (`standard.read_per_million`).
    pub price_key: Cow<'static, str>,
    /// The price table that lacks the line's price, on a line whose quantity is unknown too
    /// (its `unit_price` is then 0 and means nothing): "depends on usage; price not in X".
    pub price_missing_from: Option<String>,
    /// `quantity × unit_price`, exact; `None` when the quantity is unknown.
    pub cost: Option<Decimal>,
    /// The cost in the price table's currency (equal to `cost` when no conversion applies).
    pub pricing_cost: Option<Decimal>,
    pub basis: Basis,
    pub attribution: Vec<Attribution>,
}

impl LineItem {
    /// The unit price as reports write it: empty where the price table lacks it.
    #[must_use]
    pub fn unit_price_text(&self) -> String {
        if self.price_missing_from.is_some() {
            String::new()
        } else {
            self.unit_price.normalize().to_string()
        }
    }

    /// What a line of unknown quantity shows for its cost: its unit price, or the table that
    /// lacks it.
    #[must_use]
    pub fn unknown_cost_text(&self) -> String {
        match &self.price_missing_from {
            Some(t) => format!("(price not in table {t})"),
            None => format!("({} per {})", self.unit_price.normalize(), self.unit),
        }
    }

    /// Names of the patterns the line's cost is attributed to.
    #[must_use]
    pub fn patterns(&self) -> Vec<&str> {
        self.attribution.iter().map(|a| &*a.pattern).collect()
    }
}

/// The price table an estimate used, for the report's footer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PriceTableRef {
    pub id: String,
    pub region: String,
    pub currency: String,
    pub source: String,
    pub effective: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Estimate {
    pub workload: String,
    /// The currency every cost is in: the price table's, or the one `fx` converts to.
    pub currency: String,
    /// The conversion applied, if the estimate is shown in another currency than its prices.
    pub fx: Option<crate::model::Fx>,
    pub price_table: PriceTableRef,
    /// The other price tables that priced a line (a table's own `region:`, a replica's
    /// region), in the order first used; the primary is `price_table`.
    pub other_price_tables: Vec<PriceTableRef>,
    pub settings: Settings,
    pub line_items: Vec<LineItem>,
    /// Sum of the known costs: exact, rounded once where it needs more digits than a
    /// `Decimal` holds (`exact_sum`).
    pub total: Decimal,
    /// Keys of lines left out of the total because their quantity is unknown.
    pub excluded: Vec<String>,
    /// What the estimate warns about (`report::notices` writes the words).
    pub warnings: Vec<super::notice::Notice>,
    /// How a Database Savings Plan was used, if the workload has one in force.
    pub savings_plan: Option<super::SavingsPlanUse>,
    /// The minimum partitions each table needs (an estimate: AWS does not publish them).
    pub partitions: Vec<super::TablePartitions>,
    /// Each table's resource tags (`tags:`), for the exports that carry them.
    pub tags: Vec<(Arc<str>, Tags)>,
}

/// Resource tags, key → value, in the order written.
pub(super) type Tags = Vec<(String, String)>;

impl Estimate {
    /// The tags of table `table`, if it has any.
    #[must_use]
    pub fn tags_of(&self, table: &str) -> &[(String, String)] {
        self.tags
            .iter()
            .find(|(t, _)| &**t == table)
            .map_or(&[], |(_, tags)| tags.as_slice())
    }
}

impl PriceTableRef {
    #[must_use]
    pub fn of(t: &crate::model::PriceTable) -> Self {
        PriceTableRef {
            id: t.id.clone(),
            region: t.region.clone(),
            currency: t.currency.clone(),
            source: t.source.clone(),
            effective: t.effective.clone(),
        }
    }
}

impl Estimate {
    /// Every price table that priced a line, the primary first.
    pub fn price_tables(&self) -> impl Iterator<Item = &PriceTableRef> {
        std::iter::once(&self.price_table).chain(&self.other_price_tables)
    }

    /// The price table that priced `line`: the one of its region (lines of the account, such
    /// as commitments, are the primary's).
    #[must_use]
    pub fn price_table_of(&self, line: &LineItem) -> &PriceTableRef {
        self.price_table_in(&line.region)
    }

    /// The price table that priced lines of `region` (the primary for any other).
    #[must_use]
    pub fn price_table_in(&self, region: &str) -> &PriceTableRef {
        self.other_price_tables
            .iter()
            .find(|t| t.region == region)
            .unwrap_or(&self.price_table)
    }

    /// Tables in the order they appear, with their exact subtotals.
    ///
    /// Sums here cannot overflow: the engine summed every cost with checked arithmetic,
    /// positive lines before credits, so each partial sum is bounded by one it already
    /// computed. `saturating_add` states that without a panic path.
    #[must_use]
    pub fn table_subtotals(&self) -> Vec<(String, Decimal)> {
        let mut out: IndexMap<&str, Decimal> = IndexMap::new();
        for item in &self.line_items {
            let sum = out.entry(&item.table).or_default();
            *sum = sum.saturating_add(item.cost.unwrap_or_default());
        }
        out.into_iter().map(|(t, c)| (t.to_string(), c)).collect()
    }

    /// The line items of each table, tables in order of first appearance, with the exact
    /// subtotal: one pass over the lines, whatever the number of tables.
    #[must_use]
    pub fn lines_by_table(&self) -> Vec<(&str, Decimal, Vec<&LineItem>)> {
        let mut out: IndexMap<&str, (Decimal, Vec<&LineItem>)> = IndexMap::new();
        for item in &self.line_items {
            let (sum, lines) = out.entry(&item.table).or_default();
            // Bounded by the checked total (see `table_subtotals`).
            *sum = sum.saturating_add(item.cost.unwrap_or_default());
            lines.push(item);
        }
        out.into_iter().map(|(t, (s, l))| (t, s, l)).collect()
    }

    /// Cost per region the lines are billed in, in order of first appearance (bounded by the
    /// checked total, as `table_subtotals`).
    #[must_use]
    pub fn region_costs(&self) -> Vec<(String, Decimal)> {
        let mut out: IndexMap<&str, Decimal> = IndexMap::new();
        for item in &self.line_items {
            let sum = out.entry(&item.region).or_default();
            *sum = sum.saturating_add(item.cost.unwrap_or_default());
        }
        out.into_iter().map(|(r, c)| (r.to_string(), c)).collect()
    }

    /// Cost per component, in the order components are declared.
    #[must_use]
    pub fn component_costs(&self) -> Vec<(Component, Decimal)> {
        let mut out: IndexMap<Component, Decimal> = IndexMap::new();
        for item in &self.line_items {
            let sum = out.entry(item.component).or_default();
            *sum = sum.saturating_add(item.cost.unwrap_or_default());
        }
        let mut out: Vec<(Component, Decimal)> = out.into_iter().collect();
        out.sort_by_key(|(c, _)| *c);
        out
    }

    /// Cost per access pattern, in order of first appearance, then the unattributed rest.
    #[must_use]
    pub fn pattern_costs(&self) -> Vec<(String, Decimal)> {
        let mut out: IndexMap<(&str, &str), Decimal> = IndexMap::new();
        let mut unattributed = Decimal::ZERO;
        for item in &self.line_items {
            let Some(cost) = item.cost else { continue };
            if item.attribution.is_empty() {
                unattributed = unattributed.saturating_add(cost);
            }
            for a in &item.attribution {
                let sum = out.entry((&item.table, &a.pattern)).or_default();
                *sum = sum.saturating_add(a.cost);
            }
        }
        let mut out: Vec<(String, Decimal)> = out
            .into_iter()
            .map(|((t, p), c)| (format!("{t}/{p}"), c))
            .collect();
        out.push(("(not attributable to a pattern)".to_string(), unattributed));
        out
    }
}
