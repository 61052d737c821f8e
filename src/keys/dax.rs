//! DAX for a key hot on reads: a cluster in front of the table whose cache serves the busiest
//! value's share of the eventual reads (a hot item is read again and again: the cache holds
//! it), of the cheapest node type the table's price table states, 3 nodes; the bill before
//! and after, priced with the engine, and the hit share at which the cluster pays for itself.

use rust_decimal::Decimal;

use crate::engine::{self, EngineError};
use crate::model::{Dax, PriceBook, PriceKey, Settings, Workload};

/// Nodes proposed: one per Availability Zone, as AWS recommends in production.
const NODES: u32 = 3;

/// What a DAX cluster would do for the key.
#[derive(Debug, Clone)]
pub struct DaxCost {
    pub node_type: String,
    pub nodes: Decimal,
    /// The share of eventual reads taken to hit the cache: the busiest value's.
    pub hits: Decimal,
    /// The cluster's monthly cost.
    pub cluster: Decimal,
    pub before: Decimal,
    pub after: Decimal,
    /// The hit share at which the cluster costs what it saves (`None`: no eventual read to
    /// save, it never pays for itself).
    pub break_even: Option<Decimal>,
    pub currency: String,
}

impl DaxCost {
    /// `after − before`.
    #[must_use]
    pub fn delta(&self) -> Decimal {
        self.after.saturating_sub(self.before)
    }
}

/// The bill of `workload` before and after a DAX cluster in front of `table` serving `hits`
/// of its eventual reads; `None` where the table already has one or no price table states a
/// DAX node price for its region.
///
/// # Errors
/// What the engine refuses.
pub(crate) fn price_dax(
    workload: &Workload,
    prices: &PriceBook,
    settings: &Settings,
    table: &str,
    hits: Decimal,
) -> Result<Option<DaxCost>, EngineError> {
    let Some(t) = workload.tables.iter().find(|t| *t.name == *table) else {
        return Ok(None);
    };
    if t.dax.is_some() {
        return Ok(None);
    }
    let region = t.region.as_deref().unwrap_or(&prices.primary.region);
    let Some(node) = prices.region(region).and_then(|book| {
        book.prices
            .iter()
            .filter_map(|(k, p)| match k {
                PriceKey::DaxNodeHour(n) => Some((n.clone(), *p)),
                _ => None,
            })
            .min_by(|a, b| a.1.cmp(&b.1).then_with(|| a.0.cmp(&b.0)))
    }) else {
        return Ok(None);
    };
    let before = engine::estimate(workload, prices, settings)?;
    let mut cached = workload.clone();
    for t in cached.tables.iter_mut().filter(|t| *t.name == *table) {
        t.dax = Some(Dax {
            node_type: node.0.clone(),
            nodes: Decimal::from(NODES),
            hours: None,
            hits,
        });
    }
    let after = engine::estimate(&cached, prices, settings)?;
    let cluster = after
        .line_items
        .iter()
        .filter(|l| l.component == engine::Component::Dax && *l.table == *table)
        .filter_map(|l| l.cost)
        .sum::<Decimal>();
    // What the cache saves is linear in the hit share (on demand): saved(h) = R·h, and
    // after − before = cluster − R·hits, so the cluster pays for itself at cluster ÷ R.
    let saved = engine::checked::sub(cluster, after.total.saturating_sub(before.total), table)?;
    let break_even = if saved > Decimal::ZERO && hits > Decimal::ZERO {
        engine::checked::mul(cluster, hits, table)
            .and_then(|x| engine::checked::div(x, saved, table))
            .ok()
    } else {
        None
    };
    Ok(Some(DaxCost {
        node_type: node.0,
        nodes: Decimal::from(NODES),
        hits,
        cluster,
        before: before.total,
        after: after.total,
        break_even,
        currency: before.currency,
    }))
}
