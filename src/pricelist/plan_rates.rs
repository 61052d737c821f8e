//! Database Savings Plans rates from the Savings Plans price list: each DynamoDB rate
//! (`DiscountedServiceCode` `AmazonDynamoDB`) of the 1-year No Upfront plan, found by its
//! usage type through the same map as list prices, becomes the fraction of the region's list
//! price it charges — the discounted price per unit ÷ the list price per unit of the same
//! run's offer. A rate whose list price the inputs lack, that discounts a price no plan can
//! cover, or that lies above list is reported, never guessed.

use rust_decimal::Decimal;

use super::mapping::{self, Target};
use super::plans::PlanRate;
use super::{Import, is_region_code};

/// The service whose rates are read.
const DYNAMODB: &str = "AmazonDynamoDB";

/// The price-table fields a Database Savings Plan can cover (throughput, either class).
const ELIGIBLE: &[&str] = &[
    "read_per_million",
    "write_per_million",
    "replicated_write_per_million",
    "rcu_hour",
    "wcu_hour",
    "replicated_wcu_hour",
];

fn eligible(path: &str) -> bool {
    path.split_once('.').is_some_and(|(class, field)| {
        matches!(class, "standard" | "standard_ia") && ELIGIBLE.contains(&field)
    })
}

/// Adds the plan rates of `rates` to the tables already built from the offers.
///
/// # Errors
/// Two rates for one price that disagree, or a rate too large to convert.
pub(super) fn add(out: &mut Import, rates: &[PlanRate], file: &str) -> Result<(), String> {
    for rate in rates {
        if rate.service != DYNAMODB {
            out.plan_rates_other_services = out.plan_rates_other_services.saturating_add(1);
            continue;
        }
        add_one(out, rate, file)?;
    }
    Ok(())
}

fn add_one(out: &mut Import, rate: &PlanRate, file: &str) -> Result<(), String> {
    let unmapped = |out: &mut Import, why: String| {
        out.unmapped.push((
            rate.usage_type.clone(),
            rate.plan.clone(),
            format!("savings plan rate: {why}"),
        ));
    };
    if rate.years.is_some_and(|y| y != 1)
        || rate
            .purchase_option
            .as_deref()
            .is_some_and(|o| !o.eq_ignore_ascii_case("No Upfront"))
    {
        unmapped(
            out,
            format!(
                "a {}-year {} plan: ddbcost prices the 1-year No Upfront Database Savings Plan AWS sells",
                rate.years
                    .map_or_else(|| "?".to_string(), |y| y.to_string()),
                rate.purchase_option.as_deref().unwrap_or("")
            ),
        );
        return Ok(());
    }
    let (prefix_region, base) = mapping::split_usage_type(&rate.usage_type);
    let Some(Target::Price { path, factor }) = mapping::row(base).map(|r| r.target) else {
        unmapped(out, "no price-table field for this usage type".into());
        return Ok(());
    };
    if !eligible(path) {
        unmapped(
            out,
            format!("`{path}` is not throughput a Database Savings Plan covers"),
        );
        return Ok(());
    }
    let region = rate
        .region_code
        .clone()
        .or_else(|| prefix_region.map(str::to_string))
        .unwrap_or_default();
    if !is_region_code(&region) {
        unmapped(out, format!("`{region}` is not a region code"));
        return Ok(());
    }
    let Some(table) = out.tables.get_mut(&region) else {
        unmapped(
            out,
            format!(
                "no list price for {region} in the inputs: pass the AmazonDynamoDB offer for {region} in the same import to derive the rate"
            ),
        );
        return Ok(());
    };
    if let Some(c) = &rate.currency
        && *c != table.currency
    {
        return Err(format!(
            "{region}: savings plan {} rates {} in {c}, the list prices are in {}",
            rate.plan, rate.usage_type, table.currency
        ));
    }
    let Some(list) = table.prices.get(path).copied().filter(|p| !p.is_zero()) else {
        unmapped(
            out,
            format!(
                "`{path}` has no list price in the inputs for {region}: the rate cannot be derived"
            ),
        );
        return Ok(());
    };
    let discounted = rate
        .price
        .checked_mul(Decimal::from(factor))
        .ok_or_else(|| format!("savings plan {}: the rate is too large", rate.plan))?;
    let share = discounted
        .checked_div(list)
        .ok_or_else(|| format!("savings plan {}: the rate is too large", rate.plan))?
        .normalize();
    if share.is_sign_negative() || share.is_zero() || share > Decimal::ONE {
        unmapped(
            out,
            format!(
                "a discounted price of {} per unit against a list price of {} is a share of {share}, not in (0, 1]",
                rate.price.normalize(),
                list.checked_div(Decimal::from(factor))
                    .unwrap_or(list)
                    .normalize()
            ),
        );
        return Ok(());
    }
    if !table.plan_files.iter().any(|f| f == file) {
        table.plan_files.push(file.to_string());
    }
    if let Some(previous) = table.plan_rates.insert(path, share)
        && previous != share
    {
        return Err(format!(
            "{region}: the savings plan rates `{path}` at {previous} and at {share} ({} under `{}`): ddbcost does not choose between them",
            rate.usage_type, rate.operation
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_throughput_is_eligible() {
        assert!(eligible("standard.write_per_million"));
        assert!(eligible("standard_ia.replicated_wcu_hour"));
        assert!(!eligible("standard.storage_gb_month"));
        assert!(!eligible("pitr_gb_month"));
    }
}
