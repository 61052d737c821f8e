//! The FinOps FOCUS 1.2 export (`--format focus`): one row per line item, every mandatory
//! column filled honestly for an estimate, provenance in `x_` columns. ListCost is exactly
//! ListUnitPrice × PricingQuantity. Lines whose usage is unknown have no cost and are left out
//! (the report says so on standard error). Shown in another currency (`--currency`), costs
//! and unit prices are in `BillingCurrency` and the list prices stay in `PricingCurrency`
//! (`PricingCurrency…` columns), with the rate, its date and source in `x_Fx…`.

use rust_decimal::Decimal;

use super::period::Period;
use crate::engine::{Component, Estimate, LineItem};

/// FOCUS columns, then ours (`x_`).
pub const HEADER: &[&str] = &[
    "BilledCost",
    "BillingAccountId",
    "BillingAccountName",
    "BillingAccountType",
    "BillingCurrency",
    "BillingPeriodEnd",
    "BillingPeriodStart",
    "ChargeCategory",
    "ChargeClass",
    "ChargeDescription",
    "ChargeFrequency",
    "ChargePeriodEnd",
    "ChargePeriodStart",
    "ConsumedQuantity",
    "ConsumedUnit",
    "ContractedCost",
    "ContractedUnitPrice",
    "EffectiveCost",
    "InvoiceId",
    "InvoiceIssuerName",
    "ListCost",
    "ListUnitPrice",
    "PricingCategory",
    "PricingCurrency",
    "PricingCurrencyContractedUnitPrice",
    "PricingCurrencyEffectiveCost",
    "PricingCurrencyListUnitPrice",
    "PricingQuantity",
    "PricingUnit",
    "ProviderName",
    "PublisherName",
    "RegionId",
    "RegionName",
    "ResourceId",
    "ResourceName",
    "ResourceType",
    "ServiceCategory",
    "ServiceName",
    "ServiceSubcategory",
    "SkuId",
    "SkuMeter",
    "SkuPriceId",
    "SubAccountId",
    "SubAccountName",
    "SubAccountType",
    "x_CostType",
    "x_Scenario",
    "x_PriceTable",
    "x_PriceTableDate",
    "x_LineItemKey",
    "x_Patterns",
    "x_Basis",
    "x_FxRate",
    "x_FxDate",
    "x_FxSource",
];

/// Our unit in the FOCUS Unit Format: blocks as `1000000 Read Request Units`, time-based
/// units as `GiB-Months`; GiB when the GB convention is binary (the default), GB when decimal.
fn focus_unit(unit: &str, binary_gb: bool) -> String {
    let gb = if binary_gb { "GiB" } else { "GB" };
    match unit {
        "M RRU" => "1000000 Read Request Units".into(),
        "M WRU" => "1000000 Write Request Units".into(),
        "M rWRU" => "1000000 Replicated Write Request Units".into(),
        "M stream reads" => "1000000 Stream Read Requests".into(),
        "M CDC units" => "1000000 Change Data Capture Units".into(),
        "M deletes" => "1000000 Deletes".into(),
        "GB-month" => format!("{gb}-Months"),
        "GB" => gb.into(),
        "RCU-hour" => "RCU-Hours".into(),
        "WCU-hour" => "WCU-Hours".into(),
        "rWCU-hour" => "Replicated WCU-Hours".into(),
        "100 units" => "100 Reserved Capacity Units".into(),
        "100-unit-hour" => "Reserved Capacity Block-Hours".into(),
        other => other.replace(['-', '_'], " "),
    }
}

/// FOCUS strings must be ASCII: our arrows and multiplication signs are spelled out, accents
/// dropped, anything else replaced by `?`.
fn ascii(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            c if c.is_ascii() => out.push(c),
            '→' => out.push_str("->"),
            '×' => out.push('x'),
            '–' | '—' | '−' => out.push('-'),
            '…' => out.push_str("..."),
            '≤' => out.push_str("<="),
            '≥' => out.push_str(">="),
            '€' => out.push_str("EUR"),
            'á' | 'à' | 'ä' | 'â' => out.push('a'),
            'é' | 'è' | 'ë' | 'ê' => out.push('e'),
            'í' | 'ì' | 'ï' | 'î' => out.push('i'),
            'ó' | 'ò' | 'ö' | 'ô' => out.push('o'),
            'ú' | 'ù' | 'ü' | 'û' => out.push('u'),
            'ñ' => out.push('n'),
            'ç' => out.push('c'),
            _ => out.push('?'),
        }
    }
    out
}

/// A monthly estimate carries reserved capacity's upfront fee amortized over the term: a
/// recurring committed charge of the month, not the one-time purchase (which FOCUS would
/// record with an EffectiveCost of 0 in the month it is paid).
fn category(item: &LineItem) -> &'static str {
    // Free tier and the capacity reserved units cover are credits (negative amounts).
    match item.component {
        Component::FreeTier => "Credit",
        _ if item.unit_price.is_sign_negative() => "Credit",
        _ => "Usage",
    }
}

fn frequency(item: &LineItem) -> &'static str {
    match item.component {
        Component::ReservedUpfront | Component::ReservedCapacity => "Recurring",
        _ => "Usage-Based",
    }
}

/// A decimal with at least one fractional digit: the validator infers column types from the
/// CSV, and a column of whole numbers would read as integers.
fn decimal(v: Decimal) -> String {
    let v = v.normalize();
    if v.scale() == 0 {
        format!("{v}.0")
    } else {
        v.to_string()
    }
}

/// The FOCUS CSV for `estimates` (scenario name, estimate) and the number of lines left out.
#[must_use]
pub fn render(estimates: &[(&str, &Estimate)], period: Period) -> (String, usize) {
    let mut w = csv::Writer::from_writer(Vec::new());
    let _ = w.write_record(HEADER);
    let mut skipped = 0;
    for (scenario, e) in estimates {
        for i in &e.line_items {
            let (Some(quantity), Some(cost)) = (i.quantity, i.cost) else {
                skipped = usize::saturating_add(skipped, 1);
                continue;
            };
            // The engine computed the cost as quantity × unit price (checked): the same product.
            let list_cost = quantity.checked_mul(i.unit_price).unwrap_or(cost);
            let d = decimal;
            let usage = category(i) == "Usage";
            let unit = focus_unit(i.unit, e.settings.gb == crate::model::GbConvention::Binary);
            let region_known = !i.region.is_empty() && i.region.contains('-');
            let resource = format!("{}/table/{}", e.workload, i.table);
            // Every field ASCII, whatever the workload's names and labels hold.
            let record = [
                d(cost),
                // Not an AWS account number: an all-digit id would also read as a number.
                ascii(&format!("estimate:{}", e.workload)),
                ascii(&e.workload),
                "Estimate".to_string(),
                e.currency.clone(),
                period.end_time(),
                period.start_time(),
                category(i).to_string(),
                String::new(),
                ascii(&i.label),
                frequency(i).to_string(),
                period.end_time(),
                period.start_time(),
                if usage { d(quantity) } else { String::new() },
                if usage { unit.clone() } else { String::new() },
                d(cost),
                d(i.unit_price),
                d(cost),
                String::new(), // no invoice for an estimate
                "Amazon Web Services".to_string(),
                d(list_cost),
                d(i.unit_price),
                if matches!(
                    i.component,
                    Component::ReservedUpfront | Component::ReservedCapacity
                ) {
                    "Committed"
                } else {
                    "Standard"
                }
                .to_string(),
                e.price_table.currency.clone(),
                d(i.pricing_unit_price),
                d(i.pricing_cost.unwrap_or(cost)),
                d(i.pricing_unit_price),
                d(quantity),
                unit,
                "Amazon Web Services".to_string(),
                "Amazon Web Services".to_string(),
                if region_known {
                    i.region.to_string()
                } else {
                    String::new()
                },
                if region_known {
                    i.region.to_string()
                } else {
                    String::new()
                },
                ascii(&resource),
                ascii(&i.table),
                "DynamoDB Table".to_string(),
                "Databases".to_string(),
                "Amazon DynamoDB".to_string(),
                "NoSQL Databases".to_string(),
                i.price_key.to_string(),
                i.component.name().to_string(),
                format!("{}:{}", e.price_table.id, i.price_key),
                String::new(),
                String::new(),
                String::new(),
                "Estimate".to_string(),
                ascii(scenario),
                e.price_table.id.clone(),
                e.price_table.effective.clone(),
                i.key.clone(),
                i.patterns().join(";"),
                i.basis.name().to_string(),
                e.fx.as_ref().map(|fx| d(fx.rate)).unwrap_or_default(),
                e.fx.as_ref().map(|fx| fx.date.clone()).unwrap_or_default(),
                e.fx.as_ref()
                    .map(|fx| fx.source.clone())
                    .unwrap_or_default(),
            ];
            let _ = w.write_record(record.iter().map(|f| ascii(f)));
        }
    }
    (
        String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default(),
        skipped,
    )
}
