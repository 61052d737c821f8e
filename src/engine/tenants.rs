//! An estimate per tenant (`estimate --by tenant`), for a table that states its `tenants:`:
//! each line's cost goes to the tenants by the driver that causes it — a pattern's requests
//! by the tiers' shares of that pattern (so a tier's index writes follow its own mix of
//! writes), the table's other request lines by the tiers' shares of requests, storage, PITR
//! and backups by their shares of bytes. A tier's tenants are alike; under a Zipf spread
//! the k-th busiest of N tenants takes w_k = 1/k^s of every line, over Σ w. What no tenant
//! causes — tables without `tenants:`, account-wide lines (reservations, savings plans, the
//! free tier) — is a named remainder. The groups and the remainders add up to the estimate's
//! total exactly; figures for one tenant (a tier's, the median's) are exact quotients.

use std::sync::Arc;

use rust_decimal::{Decimal, MathematicalOps};

use super::{Component, Estimate};
use crate::model::{TenantSpread, Workload};

/// How many of the busiest tenants a Zipf spread lists one by one.
pub(crate) const TOP: u32 = 5;

/// Tenants that cost alike: a tier, one ranked tenant, or the tail of a Zipf spread.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TenantGroup {
    pub table: Arc<str>,
    /// The tier's name, `#3` for a ranked tenant, `#6–#2000` for a tail.
    pub name: String,
    pub tenants: u32,
    /// Σ over the group's tenants, exact.
    pub total: Decimal,
    /// One tenant's cost (`total ÷ tenants`; the mean for a tail).
    pub each: Decimal,
}

/// A table's tenants in one figure each: the median and the busiest tenant's cost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TenantTable {
    pub table: Arc<str>,
    pub tenants: u32,
    pub median: Decimal,
    pub busiest: Decimal,
    /// `tiers` or `zipf 1.1`.
    pub spread: String,
}

/// What no tenant causes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum TenantRemainder {
    /// Lines of tables that state no `tenants:`.
    Untenanted,
    /// Lines of the account: reservations, savings plans, the free tier.
    Account,
    /// The digits a product or quotient past 28 digits leaves.
    Rounding,
}

impl TenantRemainder {
    #[must_use]
    pub(crate) fn name(self) -> &'static str {
        match self {
            TenantRemainder::Untenanted => "tables without tenants",
            TenantRemainder::Account => "account-wide (reservations, savings plans, free tier)",
            TenantRemainder::Rounding => "below a decimal's 28 digits (products of shares)",
        }
    }
}

/// The estimate per tenant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TenantEstimate {
    pub groups: Vec<TenantGroup>,
    pub tables: Vec<TenantTable>,
    pub remainders: Vec<(TenantRemainder, Decimal)>,
    pub total: Decimal,
}

/// Whether a component is driven by bytes stored.
fn by_bytes(c: Component) -> bool {
    matches!(
        c,
        Component::Storage
            | Component::IndexStorage
            | Component::ReplicaStorage
            | Component::Pitr
            | Component::Backups
            | Component::Restores
            | Component::Exports
    )
}

/// `a + b`, or `None` past a decimal.
fn add(a: &mut Decimal, b: Decimal) -> Option<()> {
    *a = a.checked_add(b)?;
    Some(())
}

/// The estimate's lines per tenant of `workload`'s tables (`None`: a figure past a decimal).
#[must_use]
pub(crate) fn by_tenant(estimate: &Estimate, workload: &Workload) -> Option<TenantEstimate> {
    let mut groups = Vec::new();
    let mut tables = Vec::new();
    let mut untenanted = Decimal::ZERO;
    let mut account = Decimal::ZERO;
    let mut assigned = Decimal::ZERO;
    for line in &estimate.line_items {
        let Some(cost) = line.cost else { continue };
        match workload.tables.iter().find(|t| t.name == line.table) {
            Some(t) if t.tenants.is_some() => {}
            Some(_) => add(&mut untenanted, cost)?,
            None => add(&mut account, cost)?,
        }
    }
    for table in &workload.tables {
        let Some(tenants) = &table.tenants else {
            continue;
        };
        let lines: Vec<_> = estimate
            .line_items
            .iter()
            .filter(|l| l.table == table.name)
            .collect();
        let (g, summary) = match &tenants.spread {
            TenantSpread::Tiers(tiers) => {
                let mut totals = vec![Decimal::ZERO; tiers.len()];
                for line in &lines {
                    let Some(cost) = line.cost else { continue };
                    for (tier, total) in tiers.iter().zip(totals.iter_mut()) {
                        add(total, tier_cost(tier, line, cost)?)?;
                    }
                }
                tier_groups(&table.name, tiers, &totals)?
            }
            TenantSpread::Zipf { count, exponent } => {
                let mut sum = Decimal::ZERO;
                for line in &lines {
                    if let Some(c) = line.cost {
                        add(&mut sum, c)?;
                    }
                }
                zipf_groups(&table.name, *count, *exponent, sum)?
            }
        };
        for group in &g {
            add(&mut assigned, group.total)?;
        }
        groups.extend(g);
        tables.push(summary);
    }
    // What the products and quotients left: the estimate's total less every share.
    let mut given = assigned;
    add(&mut given, untenanted)?;
    add(&mut given, account)?;
    let rounding = estimate.total.checked_sub(given)?;
    let remainders = [
        (TenantRemainder::Untenanted, untenanted),
        (TenantRemainder::Account, account),
        (TenantRemainder::Rounding, rounding),
    ]
    .into_iter()
    .filter(|(_, d)| !d.is_zero())
    .collect();
    Some(TenantEstimate {
        groups,
        tables,
        remainders,
        total: estimate.total,
    })
}

/// A tier's part of one line: a pattern's cost by its share of the pattern, what the line
/// does not attribute to a pattern by its share of requests (or of bytes, for storage).
fn tier_cost(
    tier: &crate::model::TenantTier,
    line: &super::LineItem,
    cost: Decimal,
) -> Option<Decimal> {
    if by_bytes(line.component) {
        return cost.checked_mul(tier.storage_share);
    }
    let mut out = Decimal::ZERO;
    let mut rest = cost;
    for a in &line.attribution {
        add(&mut out, a.cost.checked_mul(tier.share_of(&a.pattern))?)?;
        rest = rest.checked_sub(a.cost)?;
    }
    add(&mut out, rest.checked_mul(tier.share)?)?;
    Some(out)
}

fn tier_groups(
    table: &Arc<str>,
    tiers: &[crate::model::TenantTier],
    totals: &[Decimal],
) -> Option<(Vec<TenantGroup>, TenantTable)> {
    let groups: Vec<TenantGroup> = tiers
        .iter()
        .zip(totals)
        .map(|(tier, total)| {
            Some(TenantGroup {
                table: Arc::clone(table),
                name: tier.name.clone(),
                tenants: tier.count,
                total: *total,
                each: total.checked_div(Decimal::from(tier.count))?,
            })
        })
        .collect::<Option<_>>()?;
    // The median tenant: tenants ranked by cost, the one at the middle rank (the lower
    // middle of an even count).
    let mut ranked: Vec<&TenantGroup> = groups.iter().collect();
    ranked.sort_by_key(|g| std::cmp::Reverse(g.each));
    let count: u32 = groups
        .iter()
        .try_fold(0u32, |a, g| a.checked_add(g.tenants))?;
    let middle = count.checked_add(1)?.checked_div(2)?;
    let mut seen = 0u32;
    let mut median = Decimal::ZERO;
    for g in &ranked {
        seen = seen.checked_add(g.tenants)?;
        if seen >= middle {
            median = g.each;
            break;
        }
    }
    let busiest = ranked.first().map_or(Decimal::ZERO, |g| g.each);
    Some((
        groups,
        TenantTable {
            table: Arc::clone(table),
            tenants: count,
            median,
            busiest,
            spread: "tiers".to_string(),
        },
    ))
}

/// 1/k^s.
fn weight(k: u32, s: Decimal) -> Option<Decimal> {
    Decimal::ONE.checked_div(Decimal::from(k).checked_powd(s)?)
}

fn zipf_groups(
    table: &Arc<str>,
    n: u32,
    s: Decimal,
    sum: Decimal,
) -> Option<(Vec<TenantGroup>, TenantTable)> {
    let mut w_total = Decimal::ZERO;
    for k in 1..=n {
        add(&mut w_total, weight(k, s)?)?;
    }
    let of = |k: u32| -> Option<Decimal> { sum.checked_mul(weight(k, s)?.checked_div(w_total)?) };
    let mut groups = Vec::new();
    let mut given = Decimal::ZERO;
    for k in 1..=n.min(TOP) {
        let c = of(k)?;
        add(&mut given, c)?;
        groups.push(TenantGroup {
            table: Arc::clone(table),
            name: format!("#{k}"),
            tenants: 1,
            total: c,
            each: c,
        });
    }
    if n > TOP {
        // The tail takes the rest, so the groups add up to the table exactly.
        let tail = sum.checked_sub(given)?;
        let tenants = n.checked_sub(TOP)?;
        groups.push(TenantGroup {
            table: Arc::clone(table),
            name: format!("#{}–#{n}", TOP.checked_add(1)?),
            tenants,
            total: tail,
            each: tail.checked_div(Decimal::from(tenants))?,
        });
    }
    let median = of(n.checked_add(1)?.checked_div(2)?)?;
    Some((
        groups,
        TenantTable {
            table: Arc::clone(table),
            tenants: n,
            median,
            busiest: of(1)?,
            spread: format!("zipf {}", s.normalize()),
        },
    ))
}
