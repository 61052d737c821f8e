//! Quantities with their units, kept symbolic until the engine knows the settings: a rate is
//! "400 per second" until the month length turns it into requests per month, and a data size
//! is "210 GB" until the GB convention turns it into bytes or billed GB.

use rust_decimal::Decimal;

/// The period a rate is written against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Period {
    Second,
    Minute,
    Hour,
    Day,
    Month,
}

/// A number of events per period, e.g. `400/s` or `41M/month`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rate {
    pub amount: Decimal,
    pub period: Period,
}

impl Rate {
    #[must_use]
    pub fn per_month(amount: Decimal) -> Self {
        Rate {
            amount,
            period: Period::Month,
        }
    }

    /// Events in a month of `month_hours` hours. Multiplies before dividing so that whole
    /// inputs stay exact (20,000 a day over 730 hours is 20,000 × 730 / 24).
    /// `None` when the result does not fit a decimal.
    #[must_use]
    pub fn monthly(self, month_hours: Decimal) -> Option<Decimal> {
        let hours = self.amount.checked_mul(month_hours);
        match self.period {
            Period::Second => hours?.checked_mul(Decimal::from(3600)),
            Period::Minute => hours?.checked_mul(Decimal::from(60)),
            Period::Hour => hours,
            Period::Day => hours?.checked_div(Decimal::from(24)),
            Period::Month => Some(self.amount),
        }
    }
}

/// Units of data size. KB, MB, GB and TB are powers of 1,024 for item sizes (the DynamoDB
/// rule); for storage GB they follow the GB convention in force.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SizeUnit {
    B,
    Kb,
    Mb,
    Gb,
    Tb,
}

impl SizeUnit {
    fn power(self) -> i32 {
        match self {
            SizeUnit::B => 0,
            SizeUnit::Kb => 1,
            SizeUnit::Mb => 2,
            SizeUnit::Gb => 3,
            SizeUnit::Tb => 4,
        }
    }
}

/// A size as written: an amount and its unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DataSize {
    pub amount: Decimal,
    pub unit: SizeUnit,
}

impl DataSize {
    #[must_use]
    pub fn bytes(amount: Decimal) -> Self {
        DataSize {
            amount,
            unit: SizeUnit::B,
        }
    }

    /// Bytes, with KB = 1,024 B (DynamoDB's sizing rule).
    #[must_use]
    pub fn to_bytes(self) -> Option<Decimal> {
        let mut v = self.amount;
        for _ in 0..self.unit.power() {
            v = v.checked_mul(Decimal::from(1024))?;
        }
        Some(v)
    }

    /// Billed GB under a convention whose GB is `gb_bytes` bytes and whose step between
    /// units is `step` (1,024 binary, 1,000 decimal). "210 GB" stays 210 GB in both.
    #[must_use]
    pub fn to_gb(self, gb_bytes: Decimal, step: Decimal) -> Option<Decimal> {
        match self.unit {
            SizeUnit::B => self.amount.checked_div(gb_bytes),
            unit => {
                let mut v = self.amount;
                let p = unit.power().saturating_sub(3);
                for _ in 0..p.max(0) {
                    v = v.checked_mul(step)?;
                }
                for _ in 0..p.saturating_neg().max(0) {
                    v = v.checked_div(step)?;
                }
                Some(v)
            }
        }
    }
}
