//! The FinOps FOCUS 1.2 export (`--format focus`): one row per line item, every mandatory
//! column filled honestly for an estimate, provenance in `x_` columns. ListCost is exactly
//! ListUnitPrice × PricingQuantity. Lines whose usage is unknown have no cost and are left out
//! (the report says so on standard error). Shown in another currency (`--currency`), costs
//! and unit prices are in `BillingCurrency` and the list prices stay in `PricingCurrency`
//! (`PricingCurrency…` columns), with the rate, its date and source in `x_Fx…`.

use rust_decimal::Decimal;

use crate::engine::checked;
use crate::engine::{
    CommitmentKind, Component, Estimate, LineItem, commitment_groups, commitment_of,
    reserved_unit_hours,
};
use crate::model::period::Period;

/// FOCUS columns, then ours (`x_`).
pub(crate) const HEADER: &[&str] = &[
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
    "CommitmentDiscountCategory",
    "CommitmentDiscountId",
    "CommitmentDiscountName",
    "CommitmentDiscountQuantity",
    "CommitmentDiscountStatus",
    "CommitmentDiscountType",
    "CommitmentDiscountUnit",
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
    "Tags",
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
    "x_Region",
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
        "node-hour" => "Node-Hours".into(),
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

/// Commitments are purchases: reserved capacity's fees (the upfront one billed once, in the
/// month bought; the hourly one each month) and a savings plan's hourly commitment. Free tier and what commitments cover are credits (negative amounts).
fn category(item: &LineItem) -> &'static str {
    match item.component {
        Component::FreeTier => "Credit",
        _ if item.unit_price.is_sign_negative() => "Credit",
        Component::ReservedUpfront | Component::ReservedCapacity | Component::SavingsPlan => {
            "Purchase"
        }
        _ => "Usage",
    }
}

fn frequency(item: &LineItem) -> &'static str {
    match item.component {
        Component::ReservedUpfront => "One-Time",
        Component::ReservedCapacity | Component::SavingsPlan => "Recurring",
        _ => "Usage-Based",
    }
}

/// An upfront fee's row as the export's billing period is billed for it: the fee of the
/// blocks bought in that month, whole and once (quantity the blocks, unit price the fee of
/// one, as the price table lists it); nothing for blocks bought in another month, or whose
/// month is not stated, nor for a table's own reservation (which states none) — their fees
/// were billed when bought and reach this month amortized, in the `EffectiveCost` of the
/// capacity they cover. The estimate's line amortizes; this row is the invoice's view.
fn upfront_as_billed(e: &Estimate, i: &LineItem, period: Period) -> LineItem {
    let month = (i64::from(period.year), period.month);
    let (fee, blocks) = match &i.label {
        crate::engine::label::Label::PoolUpfront { fee, bought, .. } => (
            *fee,
            bought
                .iter()
                .filter(|(m, _)| *m == Some(month))
                .fold(Decimal::ZERO, |a, (_, b)| a.saturating_add(*b)),
        ),
        _ => (Decimal::ZERO, Decimal::ZERO),
    };
    let rate = e.fx.as_ref().map_or(Decimal::ONE, |fx| fx.rate);
    // The line's cost (blocks × fee ÷ months) was computed checked, so fee × blocks is within
    // Decimal's range for any term AWS sells; saturating only past it.
    let pricing_cost = fee.saturating_mul(blocks);
    let described = if blocks.is_zero() {
        format!(
            "{}; paid once when bought, not in this month: here in EffectiveCost only",
            i.label
        )
    } else {
        format!("{}; paid in full this month, when bought", i.label)
    };
    LineItem {
        quantity: Some(blocks),
        unit_price: fee.saturating_mul(rate),
        pricing_unit_price: fee,
        cost: Some(pricing_cost.saturating_mul(rate)),
        pricing_cost: Some(pricing_cost),
        label: crate::engine::label::Label::Text(std::borrow::Cow::Owned(described)),
        ..i.clone()
    }
}

/// The commitment a line belongs to, in FOCUS's terms.
struct Commitment {
    id: String,
    name: String,
    category: &'static str,
    kind: &'static str,
    /// For purchases: what the commitment makes available this month, and its unit.
    quantity: Option<(Decimal, String)>,
}

/// A reservation commits to capacity units (FOCUS category Usage), a savings plan to spend
/// (Spend).
fn commitment(e: &Estimate, i: &LineItem) -> Option<Commitment> {
    let (kind, purchase) = commitment_of(i)?;
    Some(match kind {
        CommitmentKind::SavingsPlan => Commitment {
            id: format!("ddbcost:{}:savings-plan", e.workload),
            name: "Database Savings Plan".to_string(),
            category: "Spend",
            kind: "Database Savings Plan",
            quantity: purchase.then(|| {
                (
                    i.pricing_cost.unwrap_or_default(),
                    e.price_table.currency.clone(),
                )
            }),
        },
        CommitmentKind::Reserved {
            scope,
            capacity,
            table,
        } => {
            let scope = if table {
                format!("table {scope}")
            } else {
                scope
            };
            let upper = capacity.to_ascii_uppercase();
            Commitment {
                id: format!("ddbcost:{}:reserved:{scope}:{capacity}", e.workload),
                name: format!("Reserved {upper}, {scope}"),
                category: "Usage",
                kind: "Reserved Capacity",
                quantity: purchase
                    .then(|| reserved_unit_hours(i, e.settings.month_hours))
                    .flatten()
                    .map(|q| (q, format!("{upper}-Hours"))),
            }
        }
    })
}

/// A decimal with at least one fractional digit: the validator infers column types from the
/// CSV, and a column of whole numbers would read as integers.
/// A table's tags as FOCUS's `Tags`, a JSON object of key → value; empty (null) without.
pub(crate) fn tags_json(tags: &[(String, String)]) -> String {
    if tags.is_empty() {
        return String::new();
    }
    let map: serde_json::Map<String, serde_json::Value> = tags
        .iter()
        .map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone())))
        .collect();
    serde_json::Value::Object(map).to_string()
}

fn decimal(v: Decimal) -> String {
    let v = v.normalize();
    if v.scale() == 0 {
        format!("{v}.0")
    } else {
        v.to_string()
    }
}

/// How a row departs from its line: commitments move cost between `BilledCost` (when it is
/// paid) and `EffectiveCost` (where it is consumed). FOCUS's view: a purchase's
/// `EffectiveCost` is 0, each credit for covered usage carries its amortized share of the
/// fees (`fees × used ÷ bought`), and what is left is an `Unused` usage row — so
/// `EffectiveCost` adds up to the estimate's total, and `BilledCost` to the month's invoice:
/// the total with each upfront fee's amortized share taken out, and the whole fee put in
/// the month it was bought (`upfront_as_billed`).
struct Row<'a> {
    category: &'static str,
    effective: Decimal,
    pricing_effective: Decimal,
    status: &'static str,
    commit: Option<&'a Commitment>,
}

/// The FOCUS CSV for `estimates` (scenario name, estimate) and the number of lines left out.
///
/// # Errors
/// A commitment's amortized share too large to compute.
pub(crate) fn render(
    estimates: &[(&str, &Estimate)],
    period: Period,
) -> Result<(String, usize), crate::engine::EngineError> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let _ = w.write_record(HEADER);
    let mut skipped = 0;
    for (scenario, e) in estimates {
        let commits: Vec<Option<Commitment>> =
            e.line_items.iter().map(|i| commitment(e, i)).collect();
        let groups = commitment_groups(e)?;
        for (n, (line, c)) in e.line_items.iter().zip(&commits).enumerate() {
            let (Some(_), Some(cost)) = (line.quantity, line.cost) else {
                skipped = usize::saturating_add(skipped, 1);
                continue;
            };
            let billed;
            let i = if line.component == Component::ReservedUpfront {
                billed = upfront_as_billed(e, line, period);
                &billed
            } else {
                line
            };
            let pricing_cost = i.pricing_cost.unwrap_or(cost);
            let mut row = Row {
                category: category(i),
                effective: cost,
                pricing_effective: pricing_cost,
                status: "",
                commit: c.as_ref(),
            };
            if row.category == "Purchase" {
                row.effective = Decimal::ZERO;
                row.pricing_effective = Decimal::ZERO;
            }
            for g in &groups {
                if let Some((_, used)) = g.consumed.iter().find(|(k, _)| *k == n) {
                    let what = "a covered line's effective cost";
                    row.effective = checked::add(cost, g.share(g.fees, *used)?, what)?;
                    row.pricing_effective =
                        checked::add(pricing_cost, g.share(g.pricing_fees, *used)?, what)?;
                }
            }
            let _ = w.write_record(record(e, scenario, period, i, &row));
        }
        for g in &groups {
            let left = (g.unused_fees(g.fees)?, g.unused_fees(g.pricing_fees)?);
            let Some(&purchase) = g.purchases.last() else {
                continue;
            };
            let (Some(Some(commit)), false) =
                (commits.get(purchase), left.0.is_zero() && left.1.is_zero())
            else {
                continue;
            };
            let template = &e.line_items[purchase];
            // A table's own reservation has no credit row: its cover is netted in the
            // table's capacity line, so what is left is used there, not unused.
            let own = g.consumed.is_empty();
            let unused = g.unused();
            let unit = commit.quantity.as_ref().map_or("", |(_, u)| u.as_str());
            let line = LineItem {
                key: format!(
                    "{}/{}",
                    template
                        .key
                        .rsplit_once('/')
                        .map_or(template.key.as_str(), |(k, _)| k),
                    if own { "applied" } else { "unused" }
                ),
                label: crate::engine::label::Label::Text(std::borrow::Cow::Owned(if own {
                    format!(
                        "{}: fees applied to the table's provisioned capacity",
                        commit.name
                    )
                } else {
                    format!(
                        "{}: unused commitment ({} {unit} not consumed)",
                        commit.name,
                        unused.round_dp(2).normalize()
                    )
                })),
                quantity: Some(unused),
                unit: match unit {
                    "RCU-Hours" => "RCU-hour",
                    "WCU-Hours" => "WCU-hour",
                    _ => "commitment",
                },
                unit_price: Decimal::ZERO,
                pricing_unit_price: Decimal::ZERO,
                cost: Some(Decimal::ZERO),
                pricing_cost: Some(Decimal::ZERO),
                attribution: Vec::new(),
                ..template.clone()
            };
            let unused_commit = Commitment {
                id: commit.id.clone(),
                name: commit.name.clone(),
                category: commit.category,
                kind: commit.kind,
                quantity: Some((unused, unit.to_string())),
            };
            let row = Row {
                category: "Usage",
                effective: left.0,
                pricing_effective: left.1,
                status: if own { "Used" } else { "Unused" },
                commit: Some(&unused_commit),
            };
            let _ = w.write_record(record(e, scenario, period, &line, &row));
        }
    }
    // Written to memory: neither the flush nor the text (every field ASCII) can fail.
    Ok((
        String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default(),
        skipped,
    ))
}

/// One FOCUS row for line `i` as `row` says; every field ASCII, whatever the workload's
/// names and labels hold.
fn record(
    e: &Estimate,
    scenario: &str,
    period: Period,
    i: &LineItem,
    row: &Row<'_>,
) -> Vec<String> {
    let quantity = i.quantity.unwrap_or_default();
    let cost = i.cost.unwrap_or_default();
    // The engine computed the cost as quantity × unit price (checked): the same product.
    let list_cost = quantity.checked_mul(i.unit_price).unwrap_or(cost);
    let d = decimal;
    let usage = row.category == "Usage";
    let unit = focus_unit(i.unit, e.settings.gb == crate::model::GbConvention::Binary);
    let region_known = !i.region.is_empty() && i.region.contains('-');
    let c = row.commit;
    // A DAX cluster is its own resource, billed by its own service.
    let dax = i.component == crate::engine::Component::Dax;
    // Contributor Insights is billed by CloudWatch, on the table's resource.
    let insights = i.component == crate::engine::Component::ContributorInsights;
    let resource = if dax {
        format!("{}/dax/{}", e.workload, i.table)
    } else {
        format!("{}/table/{}", e.workload, i.table)
    };
    let record = [
        d(cost),
        // Not an AWS account number: an all-digit id would also read as a number.
        format!("estimate:{}", e.workload),
        e.workload.clone(),
        "Estimate".to_string(),
        e.currency.clone(),
        period.end_time(),
        period.start_time(),
        row.category.to_string(),
        String::new(),
        i.label.to_string(),
        if usage && c.is_some() {
            "Usage-Based"
        } else {
            frequency(i)
        }
        .to_string(),
        period.end_time(),
        period.start_time(),
        c.map(|c| c.category.to_string()).unwrap_or_default(),
        c.map(|c| c.id.clone()).unwrap_or_default(),
        c.map(|c| c.name.clone()).unwrap_or_default(),
        c.and_then(|c| c.quantity.as_ref())
            .map(|(q, _)| d(*q))
            .unwrap_or_default(),
        row.status.to_string(),
        c.map(|c| c.kind.to_string()).unwrap_or_default(),
        c.and_then(|c| c.quantity.as_ref())
            .map(|(_, u)| u.clone())
            .unwrap_or_default(),
        if usage { d(quantity) } else { String::new() },
        if usage { unit.clone() } else { String::new() },
        d(cost),
        d(i.unit_price),
        d(row.effective),
        String::new(), // no invoice for an estimate
        "Amazon Web Services".to_string(),
        d(list_cost),
        d(i.unit_price),
        if c.is_some() { "Committed" } else { "Standard" }.to_string(),
        e.price_table.currency.clone(),
        d(i.pricing_unit_price),
        d(row.pricing_effective),
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
        resource,
        i.table.to_string(),
        if dax { "DAX Cluster" } else { "DynamoDB Table" }.to_string(),
        if insights {
            "Management and Governance"
        } else {
            "Databases"
        }
        .to_string(),
        if dax {
            "Amazon DynamoDB Accelerator (DAX)"
        } else if insights {
            "Amazon CloudWatch"
        } else {
            "Amazon DynamoDB"
        }
        .to_string(),
        if dax {
            "Caching"
        } else if insights {
            "Observability"
        } else {
            "NoSQL Databases"
        }
        .to_string(),
        i.price_key.to_string(),
        i.component.name().to_string(),
        format!("{}:{}", e.price_table_of(i).id, i.price_key),
        String::new(),
        String::new(),
        String::new(),
        tags_json(e.tags_of(&i.table)),
        "Estimate".to_string(),
        scenario.to_string(),
        e.price_table_of(i).id.clone(),
        e.price_table_of(i).effective.clone(),
        i.key.clone(),
        i.patterns().join(";"),
        i.basis.name().to_string(),
        e.fx.as_ref().map(|fx| d(fx.rate)).unwrap_or_default(),
        e.fx.as_ref().map(|fx| fx.date.clone()).unwrap_or_default(),
        e.fx.as_ref()
            .map(|fx| fx.source.clone())
            .unwrap_or_default(),
        i.region.to_string(),
    ];
    record.iter().map(|f| ascii(f)).collect()
}
