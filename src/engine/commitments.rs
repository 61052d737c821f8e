//! The commitments of an estimate, read back from its lines: each reservation (per region and
//! kind, or a table's own) and the savings plan, with the fees its purchase lines bill, what
//! it makes available over the month, and what each of its credit lines consumed. Exports
//! amortize fees by it (FOCUS `EffectiveCost`) and the advice counts unused fees with it.

use rust_decimal::Decimal;

use super::estimate::{Component, Estimate, LineItem};
use super::{EngineError, checked};

/// What a commitment is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum CommitmentKind {
    SavingsPlan,
    /// Reserved `capacity` (`rcu` or `wcu`) of a region (`account/reserved/<region>/…`) or of
    /// one table (`<table>/reserved/…`, `table` set).
    Reserved {
        scope: String,
        capacity: String,
        table: bool,
    },
}

/// One commitment of a month.
#[derive(Debug, Clone)]
pub(crate) struct CommitmentGroup {
    pub kind: CommitmentKind,
    /// Fees billed, in the estimate's currency and in the price table's.
    pub fees: Decimal,
    pub pricing_fees: Decimal,
    /// What the purchases make available: unit-hours, or the plan's commitment in the price
    /// table's currency.
    pub bought: Decimal,
    /// Purchase lines (indices into the estimate's lines), in order.
    pub purchases: Vec<usize>,
    /// Credit lines for covered usage, and what each consumed (in `bought`'s unit).
    pub consumed: Vec<(usize, Decimal)>,
}

impl CommitmentGroup {
    /// `fees × used ÷ bought`: the part of `fees` a consumption of `used` stands for (none
    /// when nothing was bought: nothing can have been consumed of it).
    ///
    /// # Errors
    /// A product too large to compute.
    pub(crate) fn share(&self, fees: Decimal, used: Decimal) -> Result<Decimal, EngineError> {
        if self.bought.is_zero() {
            return Ok(Decimal::ZERO);
        }
        let what = "a commitment's amortized share";
        checked::div(checked::mul(fees, used, what)?, self.bought, what)
    }

    /// What was bought and not consumed, in `bought`'s unit (never negative).
    #[must_use]
    pub(crate) fn unused(&self) -> Decimal {
        self.consumed
            .iter()
            .fold(self.bought, |left, (_, u)| left.saturating_sub(*u))
            .max(Decimal::ZERO)
    }

    /// The fees (in `fees`' currency) the consumption does not account for.
    ///
    /// # Errors
    /// A share too large to compute.
    pub(crate) fn unused_fees(&self, fees: Decimal) -> Result<Decimal, EngineError> {
        let what = "a commitment's unused fees";
        self.consumed.iter().try_fold(fees, |left, (_, u)| {
            checked::sub(left, self.share(fees, *u)?, what)
        })
    }
}

/// The commitment `line` belongs to, and whether it is a purchase (a fee) rather than a
/// credit for covered usage.
#[must_use]
pub(crate) fn commitment_of(line: &LineItem) -> Option<(CommitmentKind, bool)> {
    let purchase = !line.unit_price.is_sign_negative();
    if line.component == Component::SavingsPlan || line.key.starts_with("account/savings-plan/") {
        return Some((CommitmentKind::SavingsPlan, purchase));
    }
    let (scope, rest) = line.key.split_once("/reserved/")?;
    let mut parts = rest.split('/');
    // account/reserved/<region>/<kind>/… or <table>/reserved/<kind>/…
    let (scope, capacity, table) = if scope == "account" {
        (parts.next()?.to_string(), parts.next()?, false)
    } else {
        (scope.to_string(), parts.next()?, true)
    };
    Some((
        CommitmentKind::Reserved {
            scope,
            capacity: capacity.to_string(),
            table,
        },
        purchase,
    ))
}

/// Unit-hours a reservation's purchase line makes available: the upfront line counts blocks
/// of 100 (the same units as its hourly line, so nothing more), the hourly one block-hours.
#[must_use]
pub(crate) fn reserved_unit_hours(line: &LineItem, month_hours: Decimal) -> Option<Decimal> {
    let q = line.quantity?;
    match line.unit {
        "100 units" => q
            .checked_mul(Decimal::ONE_HUNDRED)
            .and_then(|u| u.checked_mul(month_hours)),
        "100-unit-hour" => q.checked_mul(Decimal::ONE_HUNDRED),
        _ => None,
    }
}

/// Every commitment of `e`, in order of first appearance.
///
/// # Errors
/// A sum of fees, units or covered usage too large to compute.
pub(crate) fn commitment_groups(e: &Estimate) -> Result<Vec<CommitmentGroup>, EngineError> {
    let what = "the commitments' fees";
    let mut out: Vec<CommitmentGroup> = Vec::new();
    for (n, line) in e.line_items.iter().enumerate() {
        let (Some((kind, purchase)), Some(cost)) = (commitment_of(line), line.cost) else {
            continue;
        };
        let at = if let Some(i) = out.iter().position(|g| g.kind == kind) {
            i
        } else {
            out.push(CommitmentGroup {
                kind: kind.clone(),
                fees: Decimal::ZERO,
                pricing_fees: Decimal::ZERO,
                bought: Decimal::ZERO,
                purchases: Vec::new(),
                consumed: Vec::new(),
            });
            out.len().saturating_sub(1)
        };
        let g = &mut out[at];
        let pricing_cost = line.pricing_cost.unwrap_or(cost);
        if purchase {
            g.fees = checked::add(g.fees, cost, what)?;
            g.pricing_fees = checked::add(g.pricing_fees, pricing_cost, what)?;
            g.purchases.push(n);
            let bought = match kind {
                CommitmentKind::SavingsPlan => pricing_cost,
                // The upfront and the hourly fee of one purchase make the same units
                // available: count them once, from the hourly fee (whose quantity is known:
                // the line has a cost).
                CommitmentKind::Reserved { .. } if line.unit == "100-unit-hour" => {
                    checked::some(reserved_unit_hours(line, e.settings.month_hours), what)?
                }
                CommitmentKind::Reserved { .. } => Decimal::ZERO,
            };
            g.bought = checked::add(g.bought, bought, what)?;
        } else {
            let used = match kind {
                // Covered usage at list × the plan's rate: the commitment it consumed.
                CommitmentKind::SavingsPlan => {
                    let rate = e
                        .savings_plan
                        .as_ref()
                        .and_then(|sp| sp.covered_rates.iter().find(|(k, _)| *k == line.key))
                        .map_or(Decimal::ONE, |(_, r)| *r);
                    checked::mul(checked::sub(Decimal::ZERO, pricing_cost, what)?, rate, what)?
                }
                // A credit with a cost has its quantity.
                CommitmentKind::Reserved { .. } => checked::some(line.quantity, what)?,
            };
            g.consumed.push((n, used));
        }
    }
    Ok(out)
}
