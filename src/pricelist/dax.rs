//! DAX node prices from the `AmazonDAX` offer: each node SKU (usage type
//! `[REGION-]NodeUsage:dax.<type>`, unit `Hrs`) becomes `dax_node_hour.<type>` of its region's
//! table — for the regions an AmazonDynamoDB offer of the same import priced. Other SKUs are
//! counted.

use super::parse::Sku;
use super::{Import, mapping};

/// Adds the node prices of `skus` to the tables `out` holds.
///
/// # Errors
/// Two SKUs giving one node type two prices, or a negative price.
pub(super) fn add(out: &mut Import, skus: &[Sku]) -> Result<(), String> {
    for sku in skus {
        let (prefix_region, base) = mapping::split_usage_type(&sku.usage_type);
        let node = base.strip_prefix("NodeUsage:").filter(|n| is_node_type(n));
        let priced = sku.on_demand.iter().find(|d| !d.price.is_zero());
        let (Some(node), Some(priced)) = (node, priced) else {
            out.dax_skipped = out.dax_skipped.saturating_add(1);
            continue;
        };
        let Some(region) = super::sku_region(sku, prefix_region) else {
            out.dax_skipped = out.dax_skipped.saturating_add(1);
            continue;
        };
        let Some(table) = out.tables.get_mut(&region) else {
            out.dax_regions_skipped.insert(region);
            continue;
        };
        if priced.currency != table.currency {
            return Err(format!(
                "{region}: DAX priced in {} and DynamoDB in {} (SKU {})",
                priced.currency, table.currency, sku.sku
            ));
        }
        if priced.price.is_sign_negative() {
            return Err(format!("SKU {}: a negative price", sku.sku));
        }
        let price = priced.price.normalize();
        if let Some(previous) = table.dax_node_hour.insert(node.to_string(), price)
            && previous != price
        {
            return Err(format!(
                "{region}: DAX node {node} is {previous} an hour in one SKU and {price} in SKU {}",
                sku.sku
            ));
        }
    }
    Ok(())
}

/// `dax.r5.large`: what a price-table key may hold.
fn is_node_type(n: &str) -> bool {
    n.strip_prefix("dax.").is_some_and(|rest| {
        !rest.is_empty()
            && rest.len() <= 40
            && rest
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'.')
    })
}
