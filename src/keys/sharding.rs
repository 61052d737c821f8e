//! What write sharding a hot value does to the bill, priced with the engine. With N suffixes
//! (value#0 … value#N−1) writes spread over N partitions at no extra cost, but a read of the
//! value no longer knows its suffix: each get or query on the key becomes N of them (a query
//! then returns a 1/N share of the items each time, and every request costs at least one
//! read unit). The workload is changed that way — the rate of every get, batch-get and query
//! on the key × N, a query's items per request ÷ N (at least 1) — and both are estimated.

use rust_decimal::Decimal;

use crate::engine::{self, EngineError};
use crate::model::{Operation, PriceBook, Settings, Workload};

/// The bill before and after sharding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShardingCost {
    pub suffixes: Decimal,
    /// The patterns whose reads multiply.
    pub patterns: Vec<String>,
    pub before: Decimal,
    pub after: Decimal,
    pub currency: String,
}

impl ShardingCost {
    /// `after − before`.
    #[must_use]
    pub fn delta(&self) -> Decimal {
        self.after.saturating_sub(self.before)
    }
}

/// `workload` with the key of `table` (its own, or index `index`'s) sharded `suffixes` ways.
///
/// # Errors
/// A rate too large to multiply.
pub(crate) fn sharded(
    workload: &Workload,
    table: &str,
    index: Option<&str>,
    suffixes: Decimal,
) -> Result<(Workload, Vec<String>), EngineError> {
    let mut out = workload.clone();
    let mut changed = Vec::new();
    for t in out.tables.iter_mut().filter(|t| *t.name == *table) {
        for p in &mut t.patterns {
            let reads_key = matches!(
                p.operation,
                Operation::Get | Operation::BatchGet | Operation::Query
            ) && p.index.as_deref() == index;
            if !reads_key {
                continue;
            }
            p.rate.amount = engine::checked::mul(p.rate.amount, suffixes, &p.name)?;
            if p.operation == Operation::Query {
                p.items_per_op =
                    engine::checked::div(p.items_per_op, suffixes, &p.name)?.max(Decimal::ONE);
            }
            changed.push(p.name.to_string());
        }
    }
    Ok((out, changed))
}

/// The bill of `workload` before and after sharding the key `suffixes` ways.
///
/// # Errors
/// What the engine refuses.
pub(crate) fn price_sharding(
    workload: &Workload,
    prices: &PriceBook,
    settings: &Settings,
    table: &str,
    index: Option<&str>,
    suffixes: Decimal,
) -> Result<ShardingCost, EngineError> {
    let before = engine::estimate(workload, prices, settings)?;
    let (changed, patterns) = sharded(workload, table, index, suffixes)?;
    let after = engine::estimate(&changed, prices, settings)?;
    Ok(ShardingCost {
        suffixes,
        patterns,
        before: before.total,
        after: after.total,
        currency: before.currency,
    })
}
