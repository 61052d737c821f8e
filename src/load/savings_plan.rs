//! Database Savings Plan rates as written — in a price table's `savings_plan_rates` or a
//! workload's `commitments.savings_plan.rates` — with the same keys as the prices they
//! discount: `standard.write_per_million: 0.8` charges 80 % of that list price. Only DynamoDB
//! throughput prices can be covered (on-demand request units and provisioned capacity); a
//! storage or backup price under `savings_plan_rates` is an unknown field.

use serde::Deserialize;

use super::quantity::parse_share;
use super::raw::Quantity;
use super::yaml::position;
use crate::error::Error;
use crate::model::{PriceKey, SavingsPlanRates, TableClass};

/// `savings_plan_rates` / `rates`: per table class, the eligible prices' rates.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawRates {
    /// Where the rates come from (required in a price table).
    pub source: Option<String>,
    /// The date the rates took effect (`2026-07-22`), where the source states one.
    pub effective: Option<Quantity>,
    /// Rates for the Standard class.
    pub standard: Option<RawClassRates>,
    /// Rates for the Standard-IA class.
    pub standard_ia: Option<RawClassRates>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawClassRates {
    /// On-demand reads: the share of the on-demand price the plan charges (0 < rate ≤ 1).
    read_per_million: Option<Quantity>,
    /// On-demand writes: the share of the on-demand price the plan charges (0 < rate ≤ 1).
    write_per_million: Option<Quantity>,
    /// Replicated on-demand writes: the share of the on-demand price the plan charges (0 < rate ≤ 1).
    replicated_write_per_million: Option<Quantity>,
    /// Provisioned RCU: the share of the on-demand price the plan charges (0 < rate ≤ 1).
    rcu_hour: Option<Quantity>,
    /// Provisioned WCU: the share of the on-demand price the plan charges (0 < rate ≤ 1).
    wcu_hour: Option<Quantity>,
    /// Replicated WCU: the share of the on-demand price the plan charges (0 < rate ≤ 1).
    replicated_wcu_hour: Option<Quantity>,
}

/// Converts written rates: each a fraction of list price in (0, 1] (`0.8` or `80%`).
/// `fail(scalar, path, why)` builds the error for a bad value at `prefix.path`.
///
/// # Errors
/// A rate outside (0, 1] or not a number; no rate at all.
pub(crate) fn rates(
    raw: &RawRates,
    prefix: &str,
    default_source: &str,
    fail: &dyn Fn(Option<&Quantity>, &str, String) -> Error,
) -> Result<SavingsPlanRates, Error> {
    let mut out = SavingsPlanRates {
        rates: std::collections::BTreeMap::new(),
        source: raw
            .source
            .clone()
            .unwrap_or_else(|| default_source.to_string()),
        effective: None,
    };
    if let Some(e) = &raw.effective {
        let day = e.value.trim();
        if crate::model::period::parse_day(day).is_none() {
            return Err(fail(
                Some(e),
                &format!("{prefix}.effective"),
                format!(
                    "`{day}` is not a date; expected the date the rates took effect, such as `2026-07-22`"
                ),
            ));
        }
        out.effective = Some(day.to_string());
    }
    for (class, block) in [
        (TableClass::Standard, &raw.standard),
        (TableClass::StandardIa, &raw.standard_ia),
    ] {
        let Some(b) = block else { continue };
        for (key, s) in [
            (PriceKey::ReadPerMillion(class), &b.read_per_million),
            (PriceKey::WritePerMillion(class), &b.write_per_million),
            (
                PriceKey::ReplicatedWritePerMillion(class),
                &b.replicated_write_per_million,
            ),
            (PriceKey::RcuHour(class), &b.rcu_hour),
            (PriceKey::WcuHour(class), &b.wcu_hour),
            (PriceKey::ReplicatedWcuHour(class), &b.replicated_wcu_hour),
        ] {
            let Some(s) = s else { continue };
            let path = format!("{prefix}.{}", key.path());
            let rate = parse_share(&s.value)
                .map_err(|why| fail(Some(s), &path, format!("{why}; expected the fraction of list price the plan charges, such as `0.8` or `80%`")))?;
            if rate.is_zero() {
                return Err(fail(
                    Some(s),
                    &path,
                    "a rate of 0 would make covered usage free; expected the fraction of list price the plan charges, such as `0.8`".to_string(),
                ));
            }
            out.rates.insert(key, rate);
        }
    }
    if out.rates.is_empty() {
        return Err(fail(
            None,
            prefix,
            "states no rate; expected at least one eligible price, such as `standard: { write_per_million: 0.8 }`".to_string(),
        ));
    }
    Ok(out)
}

/// A scalar's position, for callers building errors.
#[must_use]
pub(crate) fn at(s: Option<&Quantity>) -> Option<(u64, u64)> {
    s.and_then(position)
}
