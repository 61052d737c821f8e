//! Placeholder replaced below.
use super::period::Period;
use crate::scenario::Comparison;

#[must_use]
pub fn render(_c: &Comparison, _p: Period) -> String {
    String::new()
}
