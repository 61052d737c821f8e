//! The JSON document (`--format json`), a versioned contract other tools rely on: money and
//! quantities as decimal strings, exact, with the rounded figure beside them.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::money;
use crate::engine::Estimate;

pub(crate) const ESTIMATE_SCHEMA: &str = "ddbcost.estimate/v1";

#[derive(Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct EstimateDoc {
    pub schema: String,
    pub workload: String,
    pub currency: String,
    pub total: Decimal,
    pub total_rounded: Decimal,
    pub rounding: String,
    /// The conversion costs are shown with; `null` when they are in the price table's currency.
    pub fx: Option<FxDoc>,
    /// How a Database Savings Plan was used; `null` without one.
    pub savings_plan: Option<SavingsPlanDoc>,
    /// The minimum partitions each table needs (an estimate).
    pub partitions: Vec<PartitionsDoc>,
    pub price_table: PriceTableDoc,
    /// The other price tables that priced a line (a replica's region, a table's `region:`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub other_price_tables: Vec<PriceTableDoc>,
    pub settings: SettingsDoc,
    pub tables: Vec<TableDoc>,
    pub line_items: Vec<LineItemDoc>,
    pub patterns: Vec<PatternDoc>,
    pub excluded: Vec<String>,
    pub warnings: Vec<String>,
}

#[derive(Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct PriceTableDoc {
    pub id: String,
    pub region: String,
    pub currency: String,
    pub source: String,
    pub effective: String,
}

impl PriceTableDoc {
    fn of(t: &crate::engine::PriceTableRef) -> Self {
        PriceTableDoc {
            id: t.id.clone(),
            region: t.region.clone(),
            currency: t.currency.clone(),
            source: t.source.clone(),
            effective: t.effective.clone(),
        }
    }
}

/// `1 from = rate to`, as of `date`, per `source`.
#[derive(Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct FxDoc {
    pub from: String,
    pub to: String,
    pub rate: Decimal,
    pub date: String,
    pub source: String,
}

/// One table's minimum partitions: by size (10 GB each) and by peak throughput (3,000 RCU/s
/// and 1,000 WCU/s each).
#[derive(Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct PartitionsDoc {
    pub table: String,
    pub stored_gb: Option<Decimal>,
    pub peak_rcu: Decimal,
    pub peak_wcu: Decimal,
    pub by_size: Decimal,
    pub by_throughput: Decimal,
    pub minimum: Decimal,
}

/// A Database Savings Plan's month: amounts exact, in the estimate's currency; shares of 1.
#[derive(Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct SavingsPlanDoc {
    pub per_hour: Decimal,
    /// The commitment billed this month.
    pub commitment: Decimal,
    /// The part of the commitment the covered usage consumed.
    pub used: Decimal,
    /// Eligible usage at list price (after reservations).
    pub eligible: Decimal,
    /// Eligible usage covered, at list price.
    pub covered: Decimal,
    /// covered ÷ eligible.
    pub coverage: Decimal,
    /// used ÷ commitment.
    pub utilization: Decimal,
    /// covered − commitment.
    pub savings: Decimal,
    pub rate_sources: Vec<String>,
}

#[derive(Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct SettingsDoc {
    pub month_hours: Decimal,
    pub gb: String,
    pub free_tier: bool,
}

#[derive(Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct TableDoc {
    pub name: String,
    pub subtotal: Decimal,
}

#[derive(Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct LineItemDoc {
    pub key: String,
    pub table: String,
    pub component: String,
    pub label: String,
    pub region: String,
    /// `null` when it depends on usage the workload does not state.
    pub quantity: Option<Decimal>,
    pub unit: String,
    /// `null` when the price table lacks the price of a line whose quantity is unknown too.
    pub unit_price: Option<Decimal>,
    /// That price table's id, on such a line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price_missing_from: Option<String>,
    pub price_key: String,
    pub cost: Option<Decimal>,
    pub cost_rounded: Option<Decimal>,
    /// With a conversion only: the unit price and cost in the price table's currency.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pricing_unit_price: Option<Decimal>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pricing_cost: Option<Decimal>,
    pub basis: String,
    pub patterns: Vec<String>,
    pub attribution: Vec<PatternDoc>,
}

#[derive(Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct PatternDoc {
    pub pattern: String,
    pub cost: Decimal,
}

#[must_use]
pub(crate) fn document(e: &Estimate) -> EstimateDoc {
    let c = &e.currency;
    EstimateDoc {
        schema: ESTIMATE_SCHEMA.to_string(),
        workload: e.workload.clone(),
        currency: c.clone(),
        total: e.total.normalize(),
        total_rounded: money::round(e.total, c),
        rounding: money::policy(c),
        fx: e.fx.as_ref().map(|fx| FxDoc {
            from: fx.from.clone(),
            to: fx.to.clone(),
            rate: fx.rate.normalize(),
            date: fx.date.clone(),
            source: fx.source.clone(),
        }),
        partitions: e
            .partitions
            .iter()
            .map(|p| PartitionsDoc {
                table: p.table.clone(),
                stored_gb: p.stored_gb.map(|g| g.normalize()),
                peak_rcu: p.peak_rcu.normalize(),
                peak_wcu: p.peak_wcu.normalize(),
                by_size: p.by_size.normalize(),
                by_throughput: p.by_throughput.normalize(),
                minimum: p.minimum().normalize(),
            })
            .collect(),
        savings_plan: e.savings_plan.as_ref().map(|sp| SavingsPlanDoc {
            per_hour: sp.per_hour.normalize(),
            commitment: sp.commitment.normalize(),
            used: sp.used.normalize(),
            eligible: sp.eligible.normalize(),
            covered: sp.covered.normalize(),
            coverage: sp.coverage().normalize(),
            utilization: sp.utilization().normalize(),
            savings: sp.savings().normalize(),
            rate_sources: sp.sources.clone(),
        }),
        price_table: PriceTableDoc::of(&e.price_table),
        other_price_tables: e.other_price_tables.iter().map(PriceTableDoc::of).collect(),
        settings: SettingsDoc {
            month_hours: e.settings.month_hours.normalize(),
            gb: e.settings.gb.name().to_string(),
            free_tier: e.settings.free_tier,
        },
        tables: e
            .table_subtotals()
            .into_iter()
            .map(|(name, subtotal)| TableDoc {
                name,
                subtotal: subtotal.normalize(),
            })
            .collect(),
        line_items: line_item_docs(e),
        patterns: e
            .pattern_costs()
            .into_iter()
            .map(|(pattern, cost)| PatternDoc {
                pattern,
                cost: cost.normalize(),
            })
            .collect(),
        excluded: e.excluded.clone(),
        warnings: super::notices::texts(&e.warnings),
    }
}

/// The line items of `e` as documents.
#[must_use]
pub(crate) fn line_item_docs(e: &Estimate) -> Vec<LineItemDoc> {
    let c = &e.currency;
    // `cost_rounded` adds up to `total_rounded`: apportioned over the lines.
    let costs: Vec<Option<Decimal>> = e.line_items.iter().map(|i| i.cost).collect();
    e.line_items
        .iter()
        .zip(money::apportion(&costs, c))
        .map(|(i, rounded)| LineItemDoc {
            key: i.key.clone(),
            table: i.table.to_string(),
            component: i.component.name().to_string(),
            label: i.label.to_string(),
            region: i.region.to_string(),
            quantity: i.quantity.map(|v| v.normalize()),
            unit: i.unit.to_string(),
            unit_price: i
                .price_missing_from
                .is_none()
                .then(|| i.unit_price.normalize()),
            price_missing_from: i.price_missing_from.clone(),
            price_key: i.price_key.to_string(),
            cost: i.cost.map(|v| v.normalize()),
            cost_rounded: rounded,
            pricing_unit_price: e.fx.as_ref().map(|_| i.pricing_unit_price.normalize()),
            pricing_cost: e
                .fx
                .as_ref()
                .and_then(|_| i.pricing_cost.map(|v| v.normalize())),
            basis: i.basis.name().to_string(),
            patterns: i.patterns().into_iter().map(str::to_string).collect(),
            attribution: i
                .attribution
                .iter()
                .map(|a| PatternDoc {
                    pattern: a.pattern.to_string(),
                    cost: a.cost.normalize(),
                })
                .collect(),
        })
        .collect()
}

/// Pretty-printed JSON with a trailing newline.
#[must_use]
pub(crate) fn render(e: &Estimate) -> String {
    let mut s = serde_json::to_string_pretty(&document(e)).unwrap_or_default();
    s.push('\n');
    s
}
