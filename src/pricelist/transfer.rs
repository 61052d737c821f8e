//! Data-transfer prices from the `AWSDataTransfer` offer (AmazonDynamoDB's holds none): a
//! region's transfer to each other region (`transferType` `InterRegion Outbound`, usage type
//! `…-AWS-Out-Bytes`) becomes its table's `inter_region_transfer_gb.<region>`, and transfer out
//! to the internet (`AWS Outbound` to `External`, `…DataTransfer-Out-Bytes`) its
//! `transfer_out_gb` (the first priced tier), `transfer_out_tiers` (the others) and, where the
//! offer states a free first tier, `transfer_out_free_gb`. Only regions that an AmazonDynamoDB
//! offer of the same import priced get them; other SKUs (intra-region, inbound, CloudFront…)
//! are counted, never guessed at.

use std::collections::BTreeSet;

use super::parse::Sku;
use super::{Import, is_region_code};

/// What the transfer offers held that no table takes.
#[derive(Debug, Clone, Default)]
pub struct Skipped {
    /// SKUs of other kinds of transfer (intra-region, inbound, to CloudFront…).
    pub other_kinds: usize,
    /// Regions with transfer prices and no AmazonDynamoDB prices in the import.
    pub regions: BTreeSet<String>,
}

/// Adds the transfer prices of `skus` to the tables `out` already holds.
///
/// # Errors
/// Two SKUs giving one route two prices, or a price that is negative or too large.
pub(super) fn add(out: &mut Import, skus: &[Sku], file: &str) -> Result<(), String> {
    for sku in skus {
        let Some(route) = &sku.transfer else {
            out.transfer_skipped.other_kinds = out.transfer_skipped.other_kinds.saturating_add(1);
            continue;
        };
        let internet = route.kind == "AWS Outbound"
            && route.to_location.as_deref() == Some("External")
            && sku.usage_type.ends_with("DataTransfer-Out-Bytes");
        let inter_region =
            route.kind == "InterRegion Outbound" && sku.usage_type.ends_with("-AWS-Out-Bytes");
        let (Some(from), true) = (&route.from_region, internet || inter_region) else {
            out.transfer_skipped.other_kinds = out.transfer_skipped.other_kinds.saturating_add(1);
            continue;
        };
        if !is_region_code(from) {
            out.transfer_skipped.other_kinds = out.transfer_skipped.other_kinds.saturating_add(1);
            continue;
        }
        let Some(table) = out.tables.get_mut(from.as_str()) else {
            out.transfer_skipped.regions.insert(from.clone());
            continue;
        };
        if let Some(d) = sku.on_demand.first()
            && d.currency != table.currency
        {
            return Err(format!(
                "{from}: transfer priced in {} and DynamoDB in {} (SKU {})",
                d.currency, table.currency, sku.sku
            ));
        }
        let negative = sku.on_demand.iter().any(|d| d.price.is_sign_negative());
        if negative {
            return Err(format!("SKU {} ({file}): a negative price", sku.sku));
        }
        if inter_region {
            let Some(to) = route.to_region.as_ref().filter(|r| is_region_code(r)) else {
                out.transfer_skipped.other_kinds =
                    out.transfer_skipped.other_kinds.saturating_add(1);
                continue;
            };
            // Inter-region transfer has one price from the first GB: a tiered one is
            // reported, and its first tier kept.
            let Some(first) = sku.on_demand.first() else {
                continue;
            };
            if sku.on_demand.len() > 1 {
                table.further_tiers.push(format!(
                    "inter_region_transfer_gb.{to}: {} tiers, the first ({} per GB) kept",
                    sku.on_demand.len(),
                    first.price.normalize()
                ));
            }
            let price = first.price.normalize();
            if let Some(previous) = table.transfer_to.insert(to.clone(), price)
                && previous != price
            {
                return Err(format!(
                    "{from}: transfer to {to} is {previous} in one SKU and {price} in SKU {} ({})",
                    sku.sku, sku.usage_type
                ));
            }
            continue;
        }
        internet_tiers(table, sku, from)?;
    }
    Ok(())
}

/// Transfer out to the internet: a free first tier (if the offer states one), the first
/// priced tier's price and each further tier's start and price.
fn internet_tiers(table: &mut super::Imported, sku: &Sku, region: &str) -> Result<(), String> {
    let mut dims = sku.on_demand.iter().peekable();
    let mut free = None;
    if let Some(d) = dims.peek()
        && d.price.is_zero()
        && d.end.is_some()
    {
        free = d.end;
        dims.next();
    }
    let Some(first) = dims.next() else {
        return Ok(());
    };
    // The tiers count the month past the free allowance, as the offer's own ranges do
    // (`first 10 TB / month data transfer out beyond the global free tier`).
    let offset = free.unwrap_or_default();
    let mut tiers = Vec::new();
    for d in dims {
        let from = d
            .begin
            .checked_sub(offset)
            .ok_or_else(|| format!("SKU {}: a tier too large", sku.sku))?;
        tiers.push((from.normalize(), d.price.normalize()));
    }
    let price = first.price.normalize();
    let tiers_differ = table
        .transfer_out_tiers
        .as_ref()
        .is_some_and(|t| *t != tiers);
    if let Some(previous) = table.prices.insert("transfer_out_gb", price)
        && (previous != price || tiers_differ)
    {
        return Err(format!(
            "{region}: transfer out to the internet is priced twice, differently (SKU {}, {})",
            sku.sku, sku.usage_type
        ));
    }
    table.transfer_out_tiers = Some(tiers);
    if let Some(gb) = free {
        table.transfer_out_free_gb = Some(gb.normalize());
    }
    Ok(())
}
