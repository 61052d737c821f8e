//! Importing the AWS Price List for `AmazonDynamoDB` (`ddbcost prices import`): the price
//! list's SKUs (`parse`), mapped by usage type (`mapping`), become one ddbcost price table per
//! region, written in the bundled tables' YAML format. Prices are converted exactly (decimal
//! per-unit prices × 10^6 for the per-million prices, × 100 for reserved blocks). A first tier
//! priced 0 is the free tier; prices the list does not hold stay absent; SKUs that map to
//! nothing are counted and listed, never dropped silently.

mod dax;
pub(crate) mod mapping;
pub(crate) mod parse;
mod plan_rates;
pub(crate) mod plans;
mod transfer;

use std::collections::BTreeMap;

use rust_decimal::Decimal;

use mapping::{FreeTierField, Target};
use parse::{PriceList, Sku};

/// A price table built from the price list, before it is written.
#[derive(Debug, Clone, Default)]
pub struct Imported {
    pub region: String,
    pub currency: String,
    /// Price-table paths (`standard.read_per_million`) and their prices.
    pub prices: BTreeMap<&'static str, Decimal>,
    /// `rcu_1y` → (upfront, hourly) per block of 100 units.
    pub reserved: BTreeMap<String, (Decimal, Decimal)>,
    pub free_tier: BTreeMap<&'static str, Decimal>,
    /// Database Savings Plan rates: price-table path → the fraction of list price charged.
    pub plan_rates: BTreeMap<&'static str, Decimal>,
    /// The Savings Plans files that gave this table's rates.
    pub plan_files: Vec<String>,
    /// Tiers past the first priced one, kept as notes (the engine prices the first).
    pub further_tiers: Vec<String>,
    /// Transfer to each other region, per GB (`AWSDataTransfer`).
    pub transfer_to: BTreeMap<String, Decimal>,
    /// Transfer out to the internet past the first tier: each tier's first GB and price.
    pub transfer_out_tiers: Option<Vec<(Decimal, Decimal)>>,
    /// Transfer out free each month, where the offer states a free first tier.
    pub transfer_out_free_gb: Option<Decimal>,
    /// DAX nodes per hour, by node type (`AmazonDAX`).
    pub dax_node_hour: BTreeMap<String, Decimal>,
}

/// What an import found.
#[derive(Debug, Clone, Default)]
pub struct Import {
    pub tables: BTreeMap<String, Imported>,
    /// The offer's version and publication date (the first input that states them).
    pub version: Option<String>,
    pub publication_date: Option<String>,
    pub files: Vec<String>,
    /// SKUs that map to no price (usage type, SKU, why).
    pub unmapped: Vec<(String, String, String)>,
    /// The Savings Plans lists read: their files, version and publication date.
    pub plan_files: Vec<String>,
    pub plan_version: Option<String>,
    pub plan_publication_date: Option<String>,
    /// Savings Plans rates for services other than DynamoDB, skipped.
    pub plan_rates_other_services: usize,
    /// The `AWSDataTransfer` offers read: their files, version and publication date.
    pub transfer_files: Vec<String>,
    pub transfer_version: Option<String>,
    pub transfer_publication_date: Option<String>,
    /// What those offers held that no table takes.
    pub transfer_skipped: transfer::Skipped,
    /// The `AmazonDAX` offers read, and their version.
    pub dax_files: Vec<String>,
    pub dax_version: Option<String>,
    /// DAX SKUs that are not node-hours (or not priced), and regions without DynamoDB prices.
    pub dax_skipped: usize,
    pub dax_regions_skipped: std::collections::BTreeSet<String>,
}

/// Hours in the longest month: AWS states the provisioned free tier as 18,600 unit-hours,
/// 25 units × 744 hours.
const FREE_TIER_MONTH_HOURS: u32 = 744;

/// Builds the price tables of every region the price lists hold.
///
/// # Errors
/// Two inputs disagreeing on a price, or a price too large to convert.
pub(crate) fn import(lists: &[PriceList]) -> Result<Import, String> {
    let mut out = Import::default();
    let is_transfer = |l: &PriceList| l.offer.as_deref() == Some("AWSDataTransfer");
    let is_dax = |l: &PriceList| l.offer.as_deref() == Some("AmazonDAX");
    for list in lists.iter().filter(|l| {
        l.plan_rates.is_empty() && l.regions.is_empty() && !is_transfer(l) && !is_dax(l)
    }) {
        out.files.push(list.file.clone());
        if out.version.is_none() {
            out.version.clone_from(&list.version);
        }
        if out.publication_date.is_none() {
            out.publication_date.clone_from(&list.publication_date);
        }
        for sku in &list.skus {
            add_sku(&mut out, sku)?;
        }
    }
    // Transfer prices go to the regions the DynamoDB offers priced.
    for list in lists.iter().filter(|l| is_transfer(l)) {
        out.transfer_files.push(list.file.clone());
        if out.transfer_version.is_none() {
            out.transfer_version.clone_from(&list.version);
        }
        if out.transfer_publication_date.is_none() {
            out.transfer_publication_date
                .clone_from(&list.publication_date);
        }
        transfer::add(&mut out, &list.skus, &list.file)?;
    }
    for list in lists.iter().filter(|l| is_dax(l)) {
        out.dax_files.push(list.file.clone());
        if out.dax_version.is_none() {
            out.dax_version.clone_from(&list.version);
        }
        dax::add(&mut out, &list.skus)?;
    }
    // Plan rates last: each is a share of a list price the offers above hold.
    for list in lists.iter().filter(|l| !l.plan_rates.is_empty()) {
        out.plan_files.push(list.file.clone());
        if out.plan_version.is_none() {
            out.plan_version.clone_from(&list.version);
        }
        if out.plan_publication_date.is_none() {
            out.plan_publication_date.clone_from(&list.publication_date);
        }
        plan_rates::add(&mut out, &list.plan_rates, &list.file)?;
    }
    // Every table is dated by the offer: a date that is not one would be written and then
    // refused when the table is loaded.
    match out.publication_date.as_deref() {
        Some(d)
            if d.get(..10)
                .and_then(crate::model::period::parse_day)
                .is_some() => {}
        Some(d) => {
            return Err(format!(
                "the price list's publicationDate `{d}` is not a date (YYYY-MM-DD…)"
            ));
        }
        None if out.tables.is_empty() => {}
        None => {
            return Err(
                "the price list states no publicationDate: its prices cannot be dated".into(),
            );
        }
    }
    Ok(out)
}

/// The region of a SKU: its `regionCode`, else its usage type's prefix, if a region code.
pub(crate) fn sku_region(sku: &Sku, prefix_region: Option<&str>) -> Option<String> {
    let region = sku
        .region_code
        .clone()
        .or_else(|| prefix_region.map(str::to_string))?;
    is_region_code(&region).then_some(region)
}

/// A region code as AWS writes them (`us-east-1`, `ap-southeast-3`, `us-gov-west-1`).
pub(crate) fn is_region_code(r: &str) -> bool {
    !r.is_empty()
        && r.len() <= 32
        && r.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !r.starts_with('-')
}

fn add_sku(out: &mut Import, sku: &Sku) -> Result<(), String> {
    let (prefix_region, base) = mapping::split_usage_type(&sku.usage_type);
    let unmapped = |out: &mut Import, why: &str| {
        out.unmapped
            .push((sku.usage_type.clone(), sku.sku.clone(), why.to_string()));
    };
    let Some(row) = mapping::row(base) else {
        unmapped(out, "no price-table field for this usage type");
        return Ok(());
    };
    if let (Some(group), false) = (&sku.group, row.groups.is_empty())
        && !row.groups.contains(&group.as_str())
    {
        unmapped(
            out,
            &format!("group `{group}` does not confirm the usage type"),
        );
        return Ok(());
    }
    let Some(region) = sku_region(sku, prefix_region) else {
        let named = sku
            .region_code
            .as_deref()
            .or(prefix_region)
            .unwrap_or_default();
        unmapped(out, &format!("`{named}` is not a region code"));
        return Ok(());
    };
    match row.target {
        Target::Price { path, factor } => add_price(out, sku, row, &region, path, factor)?,
        Target::Reserved { kind } => add_reserved(out, sku, &region, kind)?,
    }
    Ok(())
}

/// An on-demand price (its free tier first, where the first tier is free), at `path`.
fn add_price(
    out: &mut Import,
    sku: &Sku,
    row: &mapping::Row,
    region: &str,
    path: &'static str,
    factor: u32,
) -> Result<(), String> {
    let unmapped = |out: &mut Import, why: &str| {
        out.unmapped
            .push((sku.usage_type.clone(), sku.sku.clone(), why.to_string()));
    };
    // Tiers in order: a first tier priced 0 with an end is the free tier.
    let mut tiers = sku.on_demand.iter().peekable();
    let Some(first) = tiers.peek() else {
        unmapped(out, "no on-demand price");
        return Ok(());
    };
    let currency = first.currency.clone();
    let table = table(out, region, &currency)?;
    // A first tier priced 0 that ends is a free tier, whether a price follows or not.
    let free_first = first.price.is_zero() && first.end.is_some();
    if free_first {
        if let (Some(field), Some(end)) = (row.free_tier, first.end) {
            let (name, amount) = match field {
                FreeTierField::StorageGb => ("storage_gb", end),
                FreeTierField::StreamReads => ("stream_reads", end),
                FreeTierField::Rcu => (
                    "rcu",
                    end.checked_div(Decimal::from(FREE_TIER_MONTH_HOURS))
                        .ok_or("a free tier too large")?,
                ),
                FreeTierField::Wcu => (
                    "wcu",
                    end.checked_div(Decimal::from(FREE_TIER_MONTH_HOURS))
                        .ok_or("a free tier too large")?,
                ),
            };
            if amount.is_sign_negative() {
                return Err(format!("SKU {}: a negative free tier", sku.sku));
            }
            table.free_tier.insert(name, amount.normalize());
        }
        tiers.next();
    }
    let Some(priced) = tiers.next() else {
        if free_first {
            // Nothing is priced past the allowance: the price is not 0, it is unknown.
            unmapped(
                out,
                &format!("only a free tier, no price after it: `{path}` stays absent"),
            );
        }
        return Ok(());
    };
    let price = priced
        .price
        .checked_mul(Decimal::from(factor))
        .ok_or_else(|| format!("SKU {}: the price is too large", sku.sku))?
        .normalize();
    if price.is_sign_negative() {
        return Err(format!("SKU {}: a negative price ({price})", sku.sku));
    }
    if let Some(previous) = table.prices.insert(path, price)
        && previous != price
    {
        return Err(format!(
            "{region}: `{path}` is {previous} in one SKU and {price} in SKU {} ({})",
            sku.sku, sku.usage_type
        ));
    }
    for further in tiers {
        table.further_tiers.push(format!(
            "{path}: from {} {} at {} per {} (per AWS unit)",
            further.begin.normalize(),
            further.unit,
            further.price.normalize(),
            further.unit
        ));
    }
    Ok(())
}

/// Reserved capacity: each term's upfront and hourly fee per block of 100 units.
fn add_reserved(out: &mut Import, sku: &Sku, region: &str, kind: &str) -> Result<(), String> {
    let unmapped = |out: &mut Import, why: &str| {
        out.unmapped
            .push((sku.usage_type.clone(), sku.sku.clone(), why.to_string()));
    };
    let mut any = false;
    for term in &sku.reserved {
        let (Some(upfront), Some(hourly)) = (term.upfront, term.hourly) else {
            continue;
        };
        let hundred = Decimal::ONE_HUNDRED;
        let block = (
            upfront
                .checked_mul(hundred)
                .ok_or("a reserved fee too large")?
                .normalize(),
            hourly
                .checked_mul(hundred)
                .ok_or("a reserved fee too large")?
                .normalize(),
        );
        if block.0.is_sign_negative() || block.1.is_sign_negative() {
            return Err(format!("SKU {}: a negative reserved fee", sku.sku));
        }
        let table = table(out, region, &term.currency)?;
        table
            .reserved
            .insert(format!("{kind}_{}y", term.years), block);
        any = true;
    }
    if !any {
        unmapped(out, "no reserved term with an upfront and an hourly fee");
    }
    Ok(())
}

fn table<'a>(
    out: &'a mut Import,
    region: &str,
    currency: &str,
) -> Result<&'a mut Imported, String> {
    if currency.len() != 3 || !currency.bytes().all(|b| b.is_ascii_uppercase()) {
        return Err(format!("{region}: `{currency}` is not a currency code"));
    }
    let t = out
        .tables
        .entry(region.to_string())
        .or_insert_with(|| Imported {
            region: region.to_string(),
            currency: currency.to_string(),
            ..Imported::default()
        });
    if t.currency != currency {
        return Err(format!(
            "{region}: prices in both {} and {currency}",
            t.currency
        ));
    }
    Ok(t)
}

/// The YAML price table of `t`, in the bundled tables' format.
#[must_use]
pub(crate) fn render(t: &Imported, import: &Import) -> String {
    let effective = import
        .publication_date
        .as_deref()
        .and_then(|d| d.get(..10))
        .unwrap_or("unknown");
    let version = import.version.as_deref().unwrap_or("unknown");
    let mut y = String::new();
    y.push_str(&format!(
        "# Imported by `ddbcost prices import` from the AWS Price List for AmazonDynamoDB.\n# A price not stated here is not in the price list: a workload that needs it is refused.\nid: aws-{}\nregion: {}\ncurrency: {}\n",
        t.region, t.region, t.currency
    ));
    // Text from the input is written as JSON strings (valid YAML, every character escaped).
    let quoted = |text: String| serde_json::to_string(&text).unwrap_or_else(|_| "\"\"".into());
    let transfer = if import.transfer_files.is_empty() {
        String::new()
    } else {
        format!(
            "; transfer prices from AWS Price List AWSDataTransfer, offer version {}, published {}, from {}",
            import.transfer_version.as_deref().unwrap_or("unknown"),
            import
                .transfer_publication_date
                .as_deref()
                .and_then(|d| d.get(..10))
                .unwrap_or("unknown"),
            import.transfer_files.join(", ")
        )
    };
    let dax = if import.dax_files.is_empty() {
        String::new()
    } else {
        format!(
            "; DAX prices from AWS Price List AmazonDAX, offer version {}, from {}",
            import.dax_version.as_deref().unwrap_or("unknown"),
            import.dax_files.join(", ")
        )
    };
    y.push_str(&format!(
        "source: {}\neffective: {effective}\n",
        quoted(format!(
            "AWS Price List AmazonDynamoDB, offer version {version}, from {}{transfer}{dax}",
            import.files.join(", ")
        ))
    ));
    if !t.further_tiers.is_empty() {
        y.push_str(&format!(
            "notes: {}\n",
            quoted(format!(
                "Further tiers (not priced by ddbcost, which uses the first priced tier): {}",
                t.further_tiers.join("; ")
            ))
        ));
    }
    push_classes(&mut y, &t.prices, "");
    for (path, v) in &t.prices {
        if !path.contains('.') {
            y.push_str(&format!("{path}: {v}\n"));
        }
    }
    if let Some(tiers) = t.transfer_out_tiers.as_ref().filter(|t| !t.is_empty()) {
        y.push_str("transfer_out_tiers:                    # AWSDataTransfer, to the internet\n");
        for (from, price) in tiers {
            y.push_str(&format!("  - {{ from: {from}, price: {price} }}\n"));
        }
    }
    if let Some(gb) = t.transfer_out_free_gb {
        y.push_str(&format!("transfer_out_free_gb: {gb}\n"));
    }
    if !t.transfer_to.is_empty() {
        y.push_str(
            "inter_region_transfer_gb:              # AWSDataTransfer, InterRegion Outbound\n",
        );
        for (to, price) in &t.transfer_to {
            y.push_str(&format!("  {to}: {price}\n"));
        }
    }
    if !t.dax_node_hour.is_empty() {
        y.push_str("dax_node_hour:                         # AmazonDAX, per node-hour\n");
        for (node, price) in &t.dax_node_hour {
            y.push_str(&format!("  {node}: {price}\n"));
        }
    }
    let allowance = ["storage_gb", "stream_reads", "rcu", "wcu"];
    if allowance.iter().all(|k| t.free_tier.contains_key(k)) {
        y.push_str("free_tier:\n");
        for k in allowance {
            y.push_str(&format!("  {k}: {}\n", t.free_tier[k]));
        }
    }
    if !t.reserved.is_empty() {
        y.push_str("reserved:                              # per block of 100 units\n");
        for (k, (upfront, hourly)) in &t.reserved {
            y.push_str(&format!(
                "  {k}: {{ upfront: {upfront}, hourly: {hourly} }}\n"
            ));
        }
    }
    if !t.plan_rates.is_empty() {
        render_plan_rates(&mut y, t, import, &quoted);
    }
    y
}

/// `savings_plan_rates:` of an imported table: each rate a fraction of the list price above.
fn render_plan_rates(
    y: &mut String,
    t: &Imported,
    import: &Import,
    quoted: &dyn Fn(String) -> String,
) {
    let version = import.plan_version.as_deref().unwrap_or("unknown");
    y.push_str(&format!(
        "savings_plan_rates:                    # fraction of the list price above each plan rate charges\n  source: {}\n",
        quoted(format!(
            "AWS Savings Plans price list AWSDatabaseSavingsPlans (1-year No Upfront), version {version}, from {}",
            t.plan_files.join(", ")
        ))
    ));
    if let Some(day) = import
        .plan_publication_date
        .as_deref()
        .and_then(|d| d.get(..10))
        .filter(|d| crate::model::period::parse_day(d).is_some())
    {
        y.push_str(&format!("  effective: {day}\n"));
    }
    push_classes(y, &t.plan_rates, "  ");
}

/// The `standard:` and `standard_ia:` blocks of `values` (keyed `class.field`), indented by
/// `indent`.
fn push_classes(y: &mut String, values: &BTreeMap<&'static str, Decimal>, indent: &str) {
    for class in ["standard", "standard_ia"] {
        let fields: Vec<(&str, &Decimal)> = values
            .iter()
            .filter_map(|(path, v)| {
                path.strip_prefix(class)
                    .and_then(|rest| rest.strip_prefix('.'))
                    .map(|f| (f, v))
            })
            .collect();
        if !fields.is_empty() {
            y.push_str(&format!("{indent}{class}:\n"));
            for (f, v) in fields {
                y.push_str(&format!("{indent}  {f}: {v}\n"));
            }
        }
    }
}
