//! Errors the engine can meet once a workload is valid: a price the table lacks, a replica
//! region without a price table, or a number too large to represent.

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineError {
    MissingPrice {
        price: String,
        table_id: String,
        file: String,
        needed_by: String,
    },
    MissingRegion {
        region: String,
        needed_by: String,
        currency: String,
    },
    MissingFreeTier {
        table_id: String,
    },
    /// `--free-tier` with transfer out to the internet, and no price table states the
    /// monthly allowance.
    MissingTransferAllowance {
        table_id: String,
    },
    Overflow {
        context: String,
    },
    FxMismatch {
        priced_in: String,
        from: String,
    },
    /// A Database Savings Plan with eligible usage in a region whose rates nobody states.
    MissingSavingsPlanRates {
        region: String,
        price: String,
        table_id: String,
        needed_by: String,
    },
    /// A forecast the workload cannot be projected over (a growth list shorter than it).
    Forecast {
        path: String,
        message: String,
    },
    /// Inputs a computation cannot take (a simulated policy outside its bounds).
    Invalid {
        what: String,
        why: String,
    },
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::MissingPrice {
                price,
                table_id,
                file,
                needed_by,
            } => write!(
                f,
                "price `{price}` is not in price table `{table_id}` ({file}), and `{needed_by}` needs it"
            ),
            EngineError::MissingRegion {
                region,
                needed_by,
                currency,
            } => write!(
                f,
                "no {currency} price table for region `{region}`, which `{needed_by}` needs"
            ),
            EngineError::MissingFreeTier { table_id } => {
                write!(f, "price table `{table_id}` states no free-tier allowances")
            }
            EngineError::MissingTransferAllowance { table_id } => write!(
                f,
                "the free tier's transfer out to the internet is unknown: price table `{table_id}` (nor any table of a region that sends data out) states no `transfer_out_free_gb`"
            ),
            EngineError::Forecast { path, message } => write!(f, "{path}: {message}"),
            EngineError::Invalid { what, why } => write!(f, "{what}: {why}"),
            EngineError::MissingSavingsPlanRates {
                region,
                price,
                table_id,
                needed_by,
            } => write!(
                f,
                "the Database Savings Plan's rates for {region} are unknown: neither `commitments.savings_plan.rates` nor price table `{table_id}` states `savings_plan_rates`, and `{needed_by}` (`{price}`) is eligible usage"
            ),
            EngineError::FxMismatch { priced_in, from } => write!(
                f,
                "the estimate is priced in {priced_in}, and the exchange rate converts from {from}"
            ),
            EngineError::Overflow { context } => write!(
                f,
                "the numbers in `{context}` are too large to compute exactly"
            ),
        }
    }
}

impl std::error::Error for EngineError {}

impl EngineError {
    /// What the user can do about it.
    #[must_use]
    pub fn suggestion(&self) -> String {
        match self {
            EngineError::MissingPrice { price, .. } if price.contains("vector") => "No published source gives vector index prices for this region: AWS states them for us-east-1 (bundled in aws-us-east-1: $0.52 per GB written, $0.002 per GB searched, 1,024 bytes billed at least per request). Consider adding the region's prices to the table with their source, or an offer file that lists `VectorWriteRequest` and `VectorSearch` (`ddbcost prices import` maps them when AWS publishes them).".into(),
            EngineError::MissingPrice { .. } => "Consider importing the region's prices from the AWS Price List (`ddbcost prices import FILE --output-dir DIR`, then `--prices-dir DIR`), another price table with `--prices` (see `ddbcost prices`), or adding the price to the table with its source.".into(),
            EngineError::MissingRegion { .. } => "Consider importing that region's prices from the AWS Price List (`ddbcost prices import FILE --output-dir DIR`, then `--prices-dir DIR`), or removing the replica.".into(),
            EngineError::MissingFreeTier { .. } => "Consider running without `--free-tier`, or adding a `free_tier` block to the price table.".into(),
            EngineError::MissingTransferAllowance { .. } => "Consider adding `transfer_out_free_gb: 100` to the price table (AWS's 100 GB a month of transfer out to the internet, across services and regions, except China and GovCloud), or running without `--free-tier`.".into(),
            EngineError::MissingSavingsPlanRates { .. } => "Consider stating the plan's rates (fraction of list price per price, from the AWS Savings Plans price list) under `commitments.savings_plan.rates`, e.g. `rates: { source: \"…\", standard: { write_per_million: 0.8 } }`.".into(),
            EngineError::Forecast { .. } => "Consider one growth factor per month of the forecast, `3%/month`, or fewer `--months`.".into(),
            EngineError::FxMismatch { .. } => "Consider a rate from the price table's currency: `--fx-rate CUR=RATE`.".into(),
            EngineError::Invalid { .. } => "Consider a target between 20 % and 90 % (DynamoDB's range) and bounds of at least 1 unit.".into(),
            EngineError::Overflow { .. } => "Consider checking the rates and sizes for a unit typo (e.g. `/s` instead of `/month`).".into(),
        }
    }
}
