//! The conventions an estimate runs under. They change numbers, so every report prints them.

use rust_decimal::Decimal;

/// What "GB" means for storage billing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GbConvention {
    /// 2^30 bytes, as the DynamoDB Developer Guide counts storage (the default).
    Binary,
    /// 10^9 bytes, as some AWS tools do (7.4 % fewer bytes per GB).
    Decimal,
}

impl GbConvention {
    #[must_use]
    pub fn gb_bytes(self) -> Decimal {
        match self {
            GbConvention::Binary => Decimal::from(1_073_741_824u64),
            GbConvention::Decimal => Decimal::from(1_000_000_000u64),
        }
    }

    #[must_use]
    pub fn step(self) -> Decimal {
        match self {
            GbConvention::Binary => Decimal::from(1024),
            GbConvention::Decimal => Decimal::from(1000),
        }
    }

    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            GbConvention::Binary => "binary",
            GbConvention::Decimal => "decimal",
        }
    }
}

/// Settings in force for one estimate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// Hours in a billing month; 730 like the AWS Pricing Calculator and Infracost.
    pub month_hours: Decimal,
    pub gb: GbConvention,
    /// Whether the AWS free tier is subtracted; off by default, like the AWS calculator.
    pub free_tier: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            month_hours: Decimal::from(730),
            gb: GbConvention::Binary,
            free_tier: false,
        }
    }
}
