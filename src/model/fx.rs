//! A currency conversion an estimate is shown in: list prices stay in the price table's
//! currency (the *pricing* currency); costs are shown in another (the *billing* currency) at
//! one stated, dated rate. The rate is exact (a decimal, never a float).

use rust_decimal::Decimal;

/// `1 from = rate to`, as of `date`, per `source`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fx {
    /// The pricing currency (the price table's), e.g. `USD`.
    pub from: String,
    /// The currency costs are shown in, e.g. `EUR`.
    pub to: String,
    /// Units of `to` per unit of `from`; positive.
    pub rate: Decimal,
    /// The day the rate is from (`YYYY-MM-DD`).
    pub date: String,
    /// Where the rate comes from, in the user's words (or where it was stated).
    pub source: String,
}

impl Fx {
    /// `1 USD = 0.92 EUR (2026-11-30; ECB reference rate)`.
    #[must_use]
    pub fn describe(&self) -> String {
        format!(
            "1 {} = {} {} ({}; {})",
            self.from,
            self.rate.normalize(),
            self.to,
            self.date,
            self.source
        )
    }
}
