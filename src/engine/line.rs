//! Building line items: looking a price up (a missing one is an error naming the price and
//! the table, never a zero), multiplying it out exactly, and splitting the cost over the
//! access patterns that caused it.

use std::borrow::Cow;
use std::sync::Arc;

use rust_decimal::Decimal;

use super::EngineError;
use super::checked;
use super::estimate::{Attribution, Basis, Component, LineItem};
use super::usage::Weights;
use crate::model::{PRICE_SLOTS, PriceBook, PriceKey, PriceTable, Settings};

/// Concatenates string parts into a `String` of exactly the right capacity: keys and labels
/// are built for every line of every estimate, and `format!` (growing its buffer) was a
/// measurable share of the engine's time.
macro_rules! cat {
    ($($part:expr),+ $(,)?) => {
        // Temporaries in a match scrutinee live until the end of the match.
        match [$(::core::convert::AsRef::<str>::as_ref(&$part)),+] {
            parts => {
                let mut s = String::with_capacity(parts.iter().map(|p| p.len()).sum());
                for p in parts {
                    s.push_str(p);
                }
                s
            }
        }
    };
}
pub(crate) use cat;

/// Requests are priced per million.
pub(super) const MILLION: u32 = 1_000_000;

pub(super) struct Pricer<'a> {
    pub book: &'a PriceBook,
    pub settings: &'a Settings,
    primary_region: Arc<str>,
    /// Each table's prices by `PriceKey::slot`, so most lookups are an index.
    slots: Vec<(&'a str, [Option<Decimal>; PRICE_SLOTS])>,
}

/// What a line needs besides its price.
pub(super) struct LineSpec<'a> {
    pub key: String,
    pub table: &'a Arc<str>,
    pub component: Component,
    pub label: super::label::Label,
    pub region: &'a Arc<str>,
    pub unit: &'static str,
    pub basis: Basis,
}

impl<'a> Pricer<'a> {
    pub(super) fn new(book: &'a PriceBook, settings: &'a Settings) -> Self {
        let slots = std::iter::once(&book.primary)
            .chain(&book.others)
            .filter(|t| t.currency == book.primary.currency)
            .map(|t| {
                let mut slots = [None; PRICE_SLOTS];
                for (key, price) in &t.prices {
                    if let Some(slot) = key.slot() {
                        slots[slot] = Some(*price);
                    }
                }
                (t.region.as_str(), slots)
            })
            .collect();
        Pricer {
            book,
            settings,
            primary_region: Arc::from(book.primary.region.as_str()),
            slots,
        }
    }

    pub(super) fn primary_region(&self) -> &Arc<str> {
        &self.primary_region
    }

    /// The region a table is priced in: its own, else the primary table's.
    pub(super) fn region_of(&self, table: &crate::model::Table) -> Arc<str> {
        table
            .region
            .as_deref()
            .map_or_else(|| Arc::clone(&self.primary_region), Arc::from)
    }

    /// The price table for `region`, in the primary table's currency.
    pub(super) fn table_for(
        &self,
        region: &str,
        needed_by: &str,
    ) -> Result<&'a PriceTable, EngineError> {
        self.book
            .region(region)
            .filter(|t| t.currency == self.book.primary.currency)
            .ok_or_else(|| EngineError::MissingRegion {
                region: region.to_string(),
                needed_by: needed_by.to_string(),
                currency: self.book.primary.currency.clone(),
            })
    }

    pub(super) fn price(
        &self,
        region: &str,
        key: &PriceKey,
        needed_by: &str,
    ) -> Result<Decimal, EngineError> {
        if let Some(slot) = key.slot()
            && let Some((_, slots)) = self.slots.iter().find(|(r, _)| *r == region)
            && let Some(price) = slots[slot]
        {
            return Ok(price);
        }
        let table = self.table_for(region, needed_by)?;
        table.get(key).ok_or_else(|| EngineError::MissingPrice {
            price: key.path().into_owned(),
            table_id: table.id.clone(),
            file: table.file.clone(),
            needed_by: needed_by.to_string(),
        })
    }

    /// A line of `quantity` (in the unit the price is quoted in) at the price `key` in
    /// `region`; `None` quantity means "depends on usage".
    pub(super) fn line(
        &self,
        spec: LineSpec<'_>,
        key: &PriceKey,
        quantity: Option<Decimal>,
        weights: Weights<'_>,
    ) -> Result<LineItem, EngineError> {
        // A price is looked up for a known quantity; an unknown quantity whose price is
        // absent too is shown as such, never refused for a price that would price nothing.
        let unit_price = match self.price(spec.region, key, &spec.key) {
            Ok(p) => p,
            Err(EngineError::MissingPrice { table_id, .. }) if quantity.is_none() => {
                let mut line = self.line_at(spec, Decimal::ZERO, key.path(), None, weights)?;
                line.price_missing_from = Some(table_id);
                return Ok(line);
            }
            Err(e) => return Err(e),
        };
        self.line_at(spec, unit_price, key.path(), quantity, weights)
    }

    /// A line at an explicit unit price (free-by-rule lines, credits).
    #[allow(
        clippy::unused_self,
        reason = "priced through the pricer like every other line, whatever it looks up"
    )]
    pub(super) fn line_at(
        &self,
        spec: LineSpec<'_>,
        unit_price: Decimal,
        price_key: Cow<'static, str>,
        quantity: Option<Decimal>,
        weights: Weights<'_>,
    ) -> Result<LineItem, EngineError> {
        let cost = match quantity {
            Some(q) => Some(checked::mul(q, unit_price, &spec.key)?),
            None => None,
        };
        let attribution = match (cost, quantity) {
            (Some(c), Some(q)) => attribute(c, q, unit_price, weights, &spec.key)?,
            _ => Vec::new(),
        };
        let basis = if quantity.is_none() {
            Basis::DependsOnUsage
        } else {
            spec.basis
        };
        Ok(LineItem {
            key: spec.key,
            table: Arc::clone(spec.table),
            component: spec.component,
            label: spec.label,
            region: Arc::clone(spec.region),
            quantity,
            unit: spec.unit,
            unit_price,
            pricing_unit_price: unit_price,
            price_key,
            price_missing_from: None,
            cost,
            pricing_cost: cost,
            basis,
            attribution,
        })
    }
}

/// Splits `cost` over patterns in proportion to their weights (usage they caused). The last
/// share takes the remainder of the division so the shares add up to the cost exactly.
pub(super) fn attribute(
    cost: Decimal,
    quantity: Decimal,
    unit_price: Decimal,
    weights: Weights<'_>,
    context: &str,
) -> Result<Vec<Attribution>, EngineError> {
    let total = weights.total();
    if total <= Decimal::ZERO {
        return Ok(Vec::new());
    }
    // Decimal division is the engine's most expensive operation. When the quantity is the
    // weights' sum in millions (derived request lines), a pattern's share is simply its
    // weight in millions × the unit price; otherwise one division per line.
    let per_unit = if millions(total) == quantity {
        checked::mul(unit_price, Decimal::new(1, 6), context)?
    } else {
        checked::div(cost, total, context)?
    };
    let mut out: Vec<Attribution> = Vec::with_capacity(weights.pattern_count());
    let mut given = Decimal::ZERO;
    for (name, w) in weights.each() {
        if w > Decimal::ZERO {
            let share = checked::mul(w, per_unit, context)?;
            given = checked::add(given, share, context)?;
            out.push(Attribution {
                pattern: Arc::clone(name),
                cost: share,
            });
        }
    }
    // The last share absorbs the rounding of the 28-digit arithmetic, so that the shares add
    // up to the line's cost exactly.
    if let Some(last) = out.last_mut() {
        last.cost = checked::add(last.cost, checked::sub(cost, given, context)?, context)?;
    }
    Ok(out)
}

/// Units → millions of units, the quantity requests are priced in.
pub(super) fn millions(units: Decimal) -> Decimal {
    // Dividing by 10^6 only moves the decimal point: raise the scale (exact, and far cheaper
    // than a division) unless it would pass the maximum of 28.
    let mut m = units;
    if m.scale() <= 22 && m.set_scale(m.scale().saturating_add(6)).is_ok() {
        return m;
    }
    // Division by a positive constant makes a number smaller: it cannot overflow.
    units
        .checked_div(Decimal::from(MILLION))
        .unwrap_or_default()
}
