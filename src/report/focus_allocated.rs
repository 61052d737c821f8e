//! `allocate --format focus`: the bill's DynamoDB charges as FOCUS rows with FOCUS 1.3's
//! data-generator-calculated split cost allocation. Each billed line (per table, region and
//! meter: an *origin charge*, summed over the period) that was split becomes one *allocated
//! charge* per tenant (or pattern) and one per named remainder: dimensions and unit prices
//! are the origin's, and every summable column (`BilledCost`, `EffectiveCost`, `ListCost`,
//! `ContractedCost`, `ConsumedQuantity`, `PricingQuantity`) is split so that the allocated
//! charges add up to the origin exactly. `AllocatedMethodId` names the rule
//! (`ddbcost-consumed-capacity`), `AllocatedMethodDetails` carries the charge's ratio of the
//! origin and the driver it was measured by, `AllocatedResourceId`/`Name` the tenant — null
//! on a remainder, which `x_AllocationRemainder` names — and `AllocatedTags` the tenant as
//! `ddbcost/tenant` (or `ddbcost/pattern`). Lines no driver split (account fees, taxes,
//! credits, a line no source measures) stay single rows with the allocated columns null.

use rust_decimal::{Decimal, RoundingStrategy};

use crate::allocate::split::SHARE_DP;

use crate::allocate::bill::{Allocation, LineSplit, Party, Share};
use crate::engine::Component;
use crate::error::Error;
use crate::model::period::Period;

/// The columns: FOCUS 1.2's that a bill's summed line fills, FOCUS 1.3's allocated ones, ours.
const HEADER: &[&str] = &[
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
    "SkuPriceId",
    "AllocatedMethodId",
    "AllocatedMethodDetails",
    "AllocatedResourceId",
    "AllocatedResourceName",
    "AllocatedTags",
    "x_AllocationRemainder",
];

/// The allocation method's id (documented in docs/commands/allocate.md).
pub(crate) const METHOD: &str = "ddbcost-consumed-capacity";

const AWS: &str = "Amazon Web Services";

/// What a line's quantity counts, in FOCUS's unit format.
fn unit(meter: &str) -> &'static str {
    if meter.ends_with("CapacityUnit-Hrs") {
        "Capacity Unit-Hours"
    } else if meter.contains("ByteHrs") {
        "GB-Months"
    } else if meter.contains("RequestUnits") || meter.contains("Request") {
        "Request Units"
    } else {
        "Units"
    }
}

/// What drove a line's split, in FOCUS's unit format.
fn driver_unit(c: Option<Component>) -> &'static str {
    match c {
        Some(Component::Reads | Component::ReplicaReads) => "Read Capacity Units",
        Some(
            Component::Storage
            | Component::IndexStorage
            | Component::ReplicaStorage
            | Component::Pitr
            | Component::Backups
            | Component::Restores
            | Component::Exports,
        ) => "Bytes",
        _ => "Write Capacity Units",
    }
}

/// The charge category a line's kind says.
fn category(line: &LineSplit) -> &'static str {
    if line.component.is_some() {
        return if line.table.is_empty() {
            "Purchase"
        } else {
            "Usage"
        };
    }
    let kind = line.meter.to_ascii_lowercase();
    if kind.contains("tax") {
        "Tax"
    } else if kind.contains("credit") {
        "Credit"
    } else if kind.contains("fee") {
        "Purchase"
    } else if kind.contains("refund") || kind.contains("adjust") {
        "Adjustment"
    } else {
        "Usage"
    }
}

fn d(v: Decimal) -> String {
    v.normalize().to_string()
}

/// Each share's part of `whole`, in proportion to `weights` over `base`: (whole × weight) ÷
/// base to 10^-12 (toward zero; the product first, so that a share that is exact stays
/// exact), and the last what the others leave, so that the parts add up to `whole` exactly.
fn parts(whole: Decimal, weights: &[Decimal], base: Decimal) -> Vec<Decimal> {
    let mut out = Vec::with_capacity(weights.len());
    let mut left = whole;
    for (i, w) in weights.iter().enumerate() {
        let part = if i.checked_add(1) == Some(weights.len()) {
            left
        } else {
            whole
                .checked_mul(*w)
                .and_then(|p| p.checked_div(base))
                .or_else(|| whole.checked_mul(w.checked_div(base)?))
                .unwrap_or_default()
                .round_dp_with_strategy(SHARE_DP, RoundingStrategy::ToZero)
        };
        left = left.checked_sub(part).unwrap_or_default();
        out.push(part);
    }
    out
}

/// What every allocated charge of one origin charge shares.
struct Origin<'a> {
    line: &'a LineSplit,
    period: &'a str,
    bounds: (String, String),
    currency: &'a str,
    noun: &'static str,
    by: crate::allocate::bill::By,
    category: &'static str,
    split: bool,
    list_price: String,
    contracted_price: String,
}

/// The parts of one share: its ratio of the origin, its quantity and its list cost.
struct Part {
    ratio: Decimal,
    quantity: Decimal,
    list: Decimal,
}

fn row(o: &Origin<'_>, share: &Share, part: &Part) -> Vec<String> {
    let line = o.line;
    let usage = o.category == "Usage";
    let when = |s: &str| if usage { s.to_string() } else { String::new() };
    let (tenant, remainder) = match &share.party {
        Party::Named(n) => (Some(n.as_str()), String::new()),
        Party::Remainder(r) => (None, r.name(o.by).to_string()),
    };
    let text = |s: &str| crate::text::one_line(s).into_owned();
    let details = format!(
        "{{\"Elements\":[{{\"AllocatedRatio\":{},\"UsageUnit\":\"{}\",\"UsageQuantity\":{}}}]}}",
        d(part.ratio),
        driver_unit(line.component),
        d(share.driver)
    );
    let allocated = |v: Option<String>| {
        if o.split {
            v.unwrap_or_default()
        } else {
            String::new()
        }
    };
    let tags = tenant.map(|t| serde_json::json!({ format!("ddbcost/{}", o.noun): t }).to_string());
    let region = if line.region.contains('-') {
        line.region.as_str()
    } else {
        ""
    };
    let description = if line.table.is_empty() {
        line.meter.clone()
    } else {
        format!("{} {}", line.table, line.meter)
    };
    let (start, end) = (o.bounds.0.clone(), o.bounds.1.clone());
    vec![
        d(share.money.unblended),
        format!("bill:{}", o.period),
        format!("DynamoDB bill {}", o.period),
        "Bill".to_string(),
        o.currency.to_string(),
        end.clone(),
        start.clone(),
        o.category.to_string(),
        String::new(),
        text(&description),
        if usage { "Usage-Based" } else { "One-Time" }.to_string(),
        end,
        start,
        when(&d(part.quantity)),
        when(unit(&line.meter)),
        d(share.money.unblended),
        when(&o.contracted_price),
        d(share.money.effective),
        // The invoice is not in the summed bill: no id rather than a made-up one.
        String::new(),
        AWS.to_string(),
        d(part.list),
        when(&o.list_price),
        when("Standard"),
        o.currency.to_string(),
        when(&o.contracted_price),
        d(share.money.effective),
        when(&o.list_price),
        when(&d(part.quantity)),
        when(unit(&line.meter)),
        AWS.to_string(),
        AWS.to_string(),
        region.to_string(),
        region.to_string(),
        text(&line.table),
        text(&line.table),
        if line.table.is_empty() {
            ""
        } else {
            "DynamoDB Table"
        }
        .to_string(),
        "Databases".to_string(),
        "Amazon DynamoDB".to_string(),
        "NoSQL Databases".to_string(),
        text(&line.meter),
        text(&line.meter),
        allocated(Some(METHOD.to_string())),
        allocated(Some(details)),
        allocated(tenant.map(text)),
        allocated(tenant.map(text)),
        allocated(tags),
        remainder,
    ]
}

/// The FOCUS CSV of an allocation of `period`'s bill in `currency`.
///
/// # Errors
/// A period that does not read as `YYYY-MM`; a CSV that cannot be written.
pub(crate) fn render(a: &Allocation, currency: &str, period: &str) -> Result<String, Error> {
    let p = Period::parse(period)
        .map_err(|why| Error::input(format!("the bill's period `{period}`: {why}")))?;
    let mut w = csv::Writer::from_writer(Vec::new());
    let fail = |e: csv::Error| Error::input(format!("cannot write the FOCUS CSV: {e}"));
    w.write_record(HEADER).map_err(fail)?;
    for line in &a.lines {
        let money = line.money;
        // Each share's ratio: by the unblended cost, or the effective where the line bills
        // nothing; the last what the others leave, so the ratios add up to 1.
        let by_effective = money.unblended.is_zero();
        let base = if by_effective {
            money.effective
        } else {
            money.unblended
        };
        let weights: Vec<Decimal> = line
            .parties
            .iter()
            .map(|s| {
                if by_effective {
                    s.money.effective
                } else {
                    s.money.unblended
                }
            })
            .collect();
        let ratios = parts(Decimal::ONE, &weights, base);
        let quantity = parts(line.amount, &weights, base);
        let list = parts(line.list, &weights, base);
        let price = |total: Decimal| total.checked_div(line.amount).map(d).unwrap_or_default();
        let origin = Origin {
            line,
            period,
            bounds: (p.start_time(), p.next().start_time()),
            currency,
            noun: a.by.noun(),
            by: a.by,
            category: category(line),
            split: !(line.parties.len() == 1
                && matches!(
                    line.parties.first().map(|s| &s.party),
                    Some(Party::Remainder(_))
                )),
            list_price: price(line.list),
            contracted_price: price(money.unblended),
        };
        for (i, share) in line.parties.iter().enumerate() {
            let at = |v: &[Decimal]| v.get(i).copied().unwrap_or_default();
            let part = Part {
                ratio: at(&ratios),
                quantity: at(&quantity),
                list: at(&list),
            };
            w.write_record(row(&origin, share, &part)).map_err(fail)?;
        }
    }
    let bytes = w
        .into_inner()
        .map_err(|e| Error::input(format!("cannot write the FOCUS CSV: {e}")))?;
    String::from_utf8(bytes).map_err(|e| Error::input(format!("cannot write the FOCUS CSV: {e}")))
}
