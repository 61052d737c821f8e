//! Splitting one billed amount over the tenants (or tags, or patterns) that caused it, in
//! proportion to what each drove (read units, write units, bytes…), exactly: every share is
//! the amount × the tenant's driver ÷ the drivers' total, computed to `SHARE_DP` decimal
//! places, and what no tenant caused — the part of the driver no source attributes, and the
//! last digits the division leaves — is the named remainder, so that the shares and the
//! remainder add up to the amount with no digit lost. Shown to the currency's minor unit,
//! the shares are rounded by largest remainder (`to_minor_unit`): the rounded rows add up to
//! the rounded amount. The allocation rules of `ddbcost allocate` (issue #50) build on this.

use rust_decimal::{Decimal, RoundingStrategy};

/// The decimal places a share is computed to: far below a cent, well within a decimal's 28
/// digits for any bill (amounts up to 10^12 in the currency).
pub(crate) const SHARE_DP: u32 = 12;

/// One amount split: each party's share (in the order given) and what no party caused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Split {
    pub shares: Vec<Decimal>,
    pub remainder: Decimal,
}

/// Why an amount cannot be split.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SplitError {
    /// A driver below zero (a party cannot have caused less than nothing).
    NegativeDriver(usize),
    /// A figure past what a decimal holds.
    Overflow,
}

/// Splits `amount` over `drivers` (each party's measure of what it caused) and `unattributed`
/// (the measure no party is known to have caused), in proportion. With no driver at all
/// (every measure zero), the whole amount is the remainder.
///
/// # Errors
/// A negative driver; a figure past a decimal's range.
pub fn split(
    amount: Decimal,
    drivers: &[Decimal],
    unattributed: Decimal,
) -> Result<Split, SplitError> {
    if let Some(i) = drivers
        .iter()
        .position(|d| d.is_sign_negative() && !d.is_zero())
    {
        return Err(SplitError::NegativeDriver(i));
    }
    if unattributed.is_sign_negative() && !unattributed.is_zero() {
        return Err(SplitError::NegativeDriver(drivers.len()));
    }
    let mut total = unattributed;
    for d in drivers {
        total = total.checked_add(*d).ok_or(SplitError::Overflow)?;
    }
    if total.is_zero() {
        return Ok(Split {
            shares: vec![Decimal::ZERO; drivers.len()],
            remainder: amount,
        });
    }
    let mut shares = Vec::with_capacity(drivers.len());
    let mut given = Decimal::ZERO;
    for d in drivers {
        // (amount × d) ÷ total: the product first, so a share that is exact (a cent a
        // unit) comes out exact; past a decimal's range, amount × (d ÷ total).
        let share = amount
            .checked_mul(*d)
            .and_then(|p| p.checked_div(total))
            .or_else(|| amount.checked_mul(d.checked_div(total)?))
            .ok_or(SplitError::Overflow)?
            .round_dp_with_strategy(SHARE_DP, RoundingStrategy::ToZero);
        given = given.checked_add(share).ok_or(SplitError::Overflow)?;
        shares.push(share);
    }
    let remainder = amount.checked_sub(given).ok_or(SplitError::Overflow)?;
    Ok(Split { shares, remainder })
}

/// `values` shown to `dp` decimal places so that they add up to their total shown the same
/// way (half away from zero): largest remainder (`report::money::apportion_dp`).
#[must_use]
pub fn to_minor_unit(values: &[Decimal], dp: u32) -> Vec<Decimal> {
    let some: Vec<Option<Decimal>> = values.iter().copied().map(Some).collect();
    crate::report::money::apportion_dp(&some, dp)
        .into_iter()
        .map(Option::unwrap_or_default)
        .collect()
}
