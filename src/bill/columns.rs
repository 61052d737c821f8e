//! The column dictionaries of the bills ddbcost reads, one per dialect — CUR 2.0 (AWS Data
//! Exports, snake_case; also the legacy CUR as Athena and Parquet name it), the legacy CUR
//! (`lineItem/UsageType`), FOCUS 1.2 with AWS columns (`x_UsageType`), and ddbcost's own
//! FOCUS export (`x_LineItemKey`) — and which dialect a header is.

/// A bill's column dictionary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dialect {
    Cur2,
    Legacy,
    Focus,
    /// ddbcost's own FOCUS export (an estimate, read back).
    Own,
}

impl Dialect {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Dialect::Cur2 => "CUR 2.0",
            Dialect::Legacy => "legacy CUR",
            Dialect::Focus => "FOCUS 1.2 (AWS)",
            Dialect::Own => "ddbcost FOCUS export",
        }
    }
}

/// The fields ddbcost reads of a row, whatever the dialect calls them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Field {
    Product,
    UsageType,
    Operation,
    Resource,
    Start,
    End,
    Amount,
    Unblended,
    /// FOCUS's `EffectiveCost`.
    Effective,
    List,
    Kind,
    Currency,
    Period,
    /// CUR's effective cost of usage a reservation covers.
    ReservationEffective,
    /// CUR's effective cost of usage a savings plan covers.
    PlanEffective,
    ReservationUnusedUpfront,
    ReservationUnusedRecurring,
    PlanCommitment,
    PlanUsed,
    /// FOCUS: whether a commitment covered the row (`Used`/`Unused`).
    CommitmentStatus,
    /// FOCUS: the commitment's id.
    CommitmentId,
    /// ddbcost's own export: the price key (`standard.read_per_million`) and table.
    Sku,
    Meter,
    ResourceName,
    RegionId,
    /// ddbcost's own export: the region the line was priced in (`x_Region`), which is also
    /// a price table's own region where that is not an AWS region (`RegionId` is then empty).
    PricedRegion,
}

/// Every field, each at its place in the enum (`Field as usize` indexes by it; a test holds
/// the two in step).
pub(crate) const FIELDS: [Field; 26] = [
    Field::Product,
    Field::UsageType,
    Field::Operation,
    Field::Resource,
    Field::Start,
    Field::End,
    Field::Amount,
    Field::Unblended,
    Field::Effective,
    Field::List,
    Field::Kind,
    Field::Currency,
    Field::Period,
    Field::ReservationEffective,
    Field::PlanEffective,
    Field::ReservationUnusedUpfront,
    Field::ReservationUnusedRecurring,
    Field::PlanCommitment,
    Field::PlanUsed,
    Field::CommitmentStatus,
    Field::CommitmentId,
    Field::Sku,
    Field::Meter,
    Field::ResourceName,
    Field::RegionId,
    Field::PricedRegion,
];

/// The column of `field` in `dialect`, if it has one.
pub(crate) fn column(dialect: Dialect, field: Field) -> Option<&'static str> {
    match dialect {
        Dialect::Cur2 => cur2(field),
        Dialect::Legacy => legacy(field),
        Dialect::Focus => focus(field),
        Dialect::Own => own(field),
    }
}

fn cur2(field: Field) -> Option<&'static str> {
    Some(match field {
        Field::Product => "line_item_product_code",
        Field::UsageType => "line_item_usage_type",
        Field::Operation => "line_item_operation",
        Field::Resource => "line_item_resource_id",
        Field::Start => "line_item_usage_start_date",
        Field::End => "line_item_usage_end_date",
        Field::Amount => "line_item_usage_amount",
        Field::Unblended => "line_item_unblended_cost",
        Field::List => "pricing_public_on_demand_cost",
        Field::Kind => "line_item_line_item_type",
        Field::Currency => "line_item_currency_code",
        Field::Period => "bill_billing_period_start_date",
        Field::ReservationEffective => "reservation_effective_cost",
        Field::PlanEffective => "savings_plan_savings_plan_effective_cost",
        Field::ReservationUnusedUpfront => {
            "reservation_unused_amortized_upfront_fee_for_billing_period"
        }
        Field::ReservationUnusedRecurring => "reservation_unused_recurring_fee",
        Field::PlanCommitment => "savings_plan_total_commitment_to_date",
        Field::PlanUsed => "savings_plan_used_commitment",
        Field::Effective
        | Field::CommitmentStatus
        | Field::CommitmentId
        | Field::Sku
        | Field::Meter
        | Field::ResourceName
        | Field::RegionId
        | Field::PricedRegion => return None,
    })
}

fn legacy(field: Field) -> Option<&'static str> {
    Some(match field {
        Field::Product => "lineItem/ProductCode",
        Field::UsageType => "lineItem/UsageType",
        Field::Operation => "lineItem/Operation",
        Field::Resource => "lineItem/ResourceId",
        Field::Start => "lineItem/UsageStartDate",
        Field::End => "lineItem/UsageEndDate",
        Field::Amount => "lineItem/UsageAmount",
        Field::Unblended => "lineItem/UnblendedCost",
        Field::List => "pricing/publicOnDemandCost",
        Field::Kind => "lineItem/LineItemType",
        Field::Currency => "lineItem/CurrencyCode",
        Field::Period => "bill/BillingPeriodStartDate",
        Field::ReservationEffective => "reservation/EffectiveCost",
        Field::PlanEffective => "savingsPlan/SavingsPlanEffectiveCost",
        Field::ReservationUnusedUpfront => "reservation/UnusedAmortizedUpfrontFeeForBillingPeriod",
        Field::ReservationUnusedRecurring => "reservation/UnusedRecurringFee",
        Field::PlanCommitment => "savingsPlan/TotalCommitmentToDate",
        Field::PlanUsed => "savingsPlan/UsedCommitment",
        Field::Effective
        | Field::CommitmentStatus
        | Field::CommitmentId
        | Field::Sku
        | Field::Meter
        | Field::ResourceName
        | Field::RegionId
        | Field::PricedRegion => return None,
    })
}

fn focus(field: Field) -> Option<&'static str> {
    Some(match field {
        Field::Product => "x_ServiceCode",
        Field::UsageType => "x_UsageType",
        Field::Operation => "x_Operation",
        Field::Resource => "ResourceId",
        Field::Start => "ChargePeriodStart",
        Field::End => "ChargePeriodEnd",
        Field::Amount => "ConsumedQuantity",
        Field::Unblended => "BilledCost",
        Field::Effective => "EffectiveCost",
        Field::List => "ListCost",
        Field::Kind => "ChargeCategory",
        Field::Currency => "BillingCurrency",
        Field::Period => "BillingPeriodStart",
        Field::CommitmentStatus => "CommitmentDiscountStatus",
        Field::CommitmentId => "CommitmentDiscountId",
        Field::RegionId => "RegionId",
        Field::ResourceName => "ResourceName",
        Field::Sku
        | Field::Meter
        | Field::ReservationEffective
        | Field::PlanEffective
        | Field::ReservationUnusedUpfront
        | Field::ReservationUnusedRecurring
        | Field::PlanCommitment
        | Field::PlanUsed
        | Field::PricedRegion => return None,
    })
}

fn own(field: Field) -> Option<&'static str> {
    match field {
        Field::Product => Some("ServiceName"),
        Field::Sku => Some("SkuId"),
        Field::Meter => Some("SkuMeter"),
        Field::UsageType | Field::Operation => None,
        Field::PricedRegion => Some("x_Region"),
        other => focus(other),
    }
}

/// The fields a dialect must have for a row to be read.
pub(crate) fn required(dialect: Dialect) -> &'static [Field] {
    match dialect {
        Dialect::Own => &[
            Field::Product,
            Field::Sku,
            Field::ResourceName,
            Field::Amount,
            Field::Unblended,
            Field::Kind,
            Field::Currency,
            Field::Start,
        ],
        _ => &[
            Field::Product,
            Field::UsageType,
            Field::Amount,
            Field::Unblended,
            Field::Kind,
            Field::Currency,
            Field::Start,
        ],
    }
}

/// Which dialect `header` is: the first whose identifying column it has.
pub(crate) fn dialect(header: &[&str]) -> Option<Dialect> {
    let has = |c: &str| header.contains(&c);
    if has("x_LineItemKey") {
        Some(Dialect::Own)
    } else if has("x_UsageType") || has("x_ServiceCode") {
        Some(Dialect::Focus)
    } else if has("lineItem/UsageType") {
        Some(Dialect::Legacy)
    } else if has("line_item_usage_type") {
        Some(Dialect::Cur2)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_field_sits_at_its_place() {
        for (i, f) in FIELDS.iter().enumerate() {
            assert_eq!(*f as usize, i, "{f:?}");
        }
    }
}
