//! Building line items: looking a price up (a missing one is an error naming the price and
//! the table, never a zero), multiplying it out exactly, and splitting the cost over the
//! access patterns that caused it.

use rust_decimal::Decimal;

use super::EngineError;
use super::checked;
use super::estimate::{Attribution, Basis, Component, LineItem};
use crate::model::{PriceBook, PriceKey, PriceTable, Settings};

/// Requests are priced per million.
pub const MILLION: u32 = 1_000_000;

pub struct Pricer<'a> {
    pub book: &'a PriceBook,
    pub settings: &'a Settings,
}

/// What a line needs besides its price.
pub struct LineSpec<'a> {
    pub key: String,
    pub table: &'a str,
    pub component: Component,
    pub label: String,
    pub region: &'a str,
    pub unit: &'a str,
    pub basis: Basis,
}

impl<'a> Pricer<'a> {
    pub fn new(book: &'a PriceBook, settings: &'a Settings) -> Self {
        Pricer { book, settings }
    }

    pub fn primary_region(&self) -> &'a str {
        &self.book.primary.region
    }

    /// The price table for `region`, in the primary table's currency.
    pub fn table_for(&self, region: &str, needed_by: &str) -> Result<&'a PriceTable, EngineError> {
        self.book
            .region(region)
            .filter(|t| t.currency == self.book.primary.currency)
            .ok_or_else(|| EngineError::MissingRegion {
                region: region.to_string(),
                needed_by: needed_by.to_string(),
                currency: self.book.primary.currency.clone(),
            })
    }

    pub fn price(
        &self,
        region: &str,
        key: &PriceKey,
        needed_by: &str,
    ) -> Result<Decimal, EngineError> {
        let table = self.table_for(region, needed_by)?;
        table.get(key).ok_or_else(|| EngineError::MissingPrice {
            price: key.path(),
            table_id: table.id.clone(),
            file: table.file.clone(),
            needed_by: needed_by.to_string(),
        })
    }

    /// A line of `quantity` (in the unit the price is quoted in) at the price `key` in
    /// `region`; `None` quantity means "depends on usage".
    pub fn line(
        &self,
        spec: LineSpec<'_>,
        key: &PriceKey,
        quantity: Option<Decimal>,
        weights: &[(&str, Decimal)],
    ) -> Result<LineItem, EngineError> {
        let unit_price = self.price(spec.region, key, &spec.key)?;
        self.line_at(spec, unit_price, key.path(), quantity, weights)
    }

    /// A line at an explicit unit price (free-by-rule lines, credits).
    pub fn line_at(
        &self,
        spec: LineSpec<'_>,
        unit_price: Decimal,
        price_key: String,
        quantity: Option<Decimal>,
        weights: &[(&str, Decimal)],
    ) -> Result<LineItem, EngineError> {
        let cost = match quantity {
            Some(q) => Some(checked::mul(q, unit_price, &spec.key)?),
            None => None,
        };
        let attribution = match cost {
            Some(c) => attribute(c, weights),
            None => Vec::new(),
        };
        let basis = if quantity.is_none() {
            Basis::DependsOnUsage
        } else {
            spec.basis
        };
        Ok(LineItem {
            key: spec.key,
            table: spec.table.to_string(),
            component: spec.component,
            label: spec.label,
            region: spec.region.to_string(),
            quantity,
            unit: spec.unit.to_string(),
            unit_price,
            price_key,
            cost,
            basis,
            attribution,
        })
    }
}

/// Splits `cost` over patterns in proportion to their weights (usage they caused). The last
/// share takes the remainder of the division so the shares add up to the cost exactly.
pub fn attribute(cost: Decimal, weights: &[(&str, Decimal)]) -> Vec<Attribution> {
    let positive: Vec<&(&str, Decimal)> =
        weights.iter().filter(|(_, w)| *w > Decimal::ZERO).collect();
    let total: Decimal = positive.iter().map(|(_, w)| *w).sum();
    if total.is_zero() {
        return Vec::new();
    }
    let mut out = Vec::with_capacity(positive.len());
    let mut given = Decimal::ZERO;
    for (i, (name, w)) in positive.iter().enumerate() {
        let share = if i + 1 == positive.len() {
            cost - given
        } else {
            cost * *w / total
        };
        given += share;
        out.push(Attribution {
            pattern: (*name).to_string(),
            cost: share,
        });
    }
    out
}

/// Units → millions of units, the quantity requests are priced in.
pub fn millions(units: Decimal) -> Decimal {
    units / Decimal::from(MILLION)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::dec;

    #[test]
    fn attribution_adds_up_exactly() {
        // 10 split 1:1:1 → 3.333…, 3.333…, and the remainder, which sum to 10 exactly.
        let shares = attribute(
            dec("10"),
            &[("a", dec("1")), ("b", dec("1")), ("c", dec("1"))],
        );
        let sum: Decimal = shares.iter().map(|a| a.cost).sum();
        assert_eq!(sum, dec("10"));
        assert_eq!(shares.len(), 3);
        // Zero weights are dropped.
        assert_eq!(
            attribute(dec("5"), &[("a", dec("0")), ("b", dec("2"))]).len(),
            1
        );
    }
}
