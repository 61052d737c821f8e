//! Checked decimal arithmetic: an absurd workload must end in a clear error, never a panic
//! or a wrapped number.

use rust_decimal::Decimal;

use super::EngineError;

#[cold]
fn overflow(context: &str) -> EngineError {
    EngineError::Overflow {
        context: context.to_string(),
    }
}

#[inline]
pub(crate) fn add(a: Decimal, b: Decimal, context: &str) -> Result<Decimal, EngineError> {
    a.checked_add(b).ok_or_else(|| overflow(context))
}

#[inline]
pub(crate) fn sub(a: Decimal, b: Decimal, context: &str) -> Result<Decimal, EngineError> {
    a.checked_sub(b).ok_or_else(|| overflow(context))
}

#[inline]
pub(crate) fn mul(a: Decimal, b: Decimal, context: &str) -> Result<Decimal, EngineError> {
    a.checked_mul(b).ok_or_else(|| overflow(context))
}

#[inline]
pub(crate) fn div(a: Decimal, b: Decimal, context: &str) -> Result<Decimal, EngineError> {
    a.checked_div(b).ok_or_else(|| overflow(context))
}

#[inline]
pub(crate) fn sum<I: IntoIterator<Item = Decimal>>(
    values: I,
    context: &str,
) -> Result<Decimal, EngineError> {
    values
        .into_iter()
        .try_fold(Decimal::ZERO, |acc, v| add(acc, v, context))
}

#[inline]
pub(crate) fn some(value: Option<Decimal>, context: &str) -> Result<Decimal, EngineError> {
    value.ok_or_else(|| overflow(context))
}
