//! One bill row, whatever its dialect: the fields ddbcost reads, typed (times as Unix seconds,
//! amounts and costs exact), and the charge it is — usage, usage a reservation or a savings
//! plan covered, the fees of either, a credit, refund or tax. Its effective (amortized) cost
//! follows AWS's rules: covered usage costs what the commitment's effective cost says, a
//! plan's negation and an upfront fee cost nothing effective, and a commitment's recurring fee
//! costs its unused part.

use rust_decimal::Decimal;

use super::columns::{Dialect, Field};

/// The charge a row is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub(crate) enum Charge {
    #[default]
    Usage,
    /// Usage a reservation covered (`DiscountedUsage`).
    ReservedUsage,
    /// Usage a savings plan covered (`SavingsPlanCoveredUsage`).
    PlanUsage,
    /// The plan's offset of the covered usage's cost (`SavingsPlanNegation`).
    PlanNegation,
    /// A plan's hourly commitment (`SavingsPlanRecurringFee`) or upfront fee.
    PlanFee,
    /// A reservation's recurring fee (`RIFee`).
    ReservedFee,
    /// An upfront fee (`Fee`): reserved capacity bought.
    Fee,
    Credit,
    Refund,
    Tax,
    /// Any other line item type, named.
    Other,
}

impl Charge {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Charge::Usage => "usage",
            Charge::ReservedUsage => "usage covered by reserved capacity",
            Charge::PlanUsage => "usage covered by a savings plan",
            Charge::PlanNegation => "savings plan negation",
            Charge::PlanFee => "savings plan fee",
            Charge::ReservedFee => "reserved capacity fee",
            Charge::Fee => "upfront fee",
            Charge::Credit => "credit",
            Charge::Refund => "refund",
            Charge::Tax => "tax",
            Charge::Other => "other",
        }
    }

    /// Kept apart from the components, named: credits, refunds, taxes, other types.
    pub(crate) fn is_apart(self) -> bool {
        matches!(
            self,
            Charge::Credit | Charge::Refund | Charge::Tax | Charge::Other
        )
    }

    /// A CUR line item type.
    pub(crate) fn of_cur(text: &str) -> Charge {
        match text {
            "Usage" => Charge::Usage,
            "DiscountedUsage" => Charge::ReservedUsage,
            "SavingsPlanCoveredUsage" => Charge::PlanUsage,
            "SavingsPlanNegation" => Charge::PlanNegation,
            "SavingsPlanRecurringFee" | "SavingsPlanUpfrontFee" => Charge::PlanFee,
            "RIFee" => Charge::ReservedFee,
            "Fee" => Charge::Fee,
            "Credit"
            | "BundledDiscount"
            | "EdpDiscount"
            | "PrivateRateDiscount"
            | "DistributorDiscount" => Charge::Credit,
            "Refund" => Charge::Refund,
            "Tax" => Charge::Tax,
            _ => Charge::Other,
        }
    }

    /// A FOCUS `ChargeCategory`, with whether a commitment covered the row and which.
    pub(crate) fn of_focus(category: &str, status: &str, id: &str) -> Charge {
        let plan = id.contains(":savingsplan/") || id.contains("savingsplan");
        match category {
            "Usage" if status == "Used" && plan => Charge::PlanUsage,
            "Usage" if status == "Used" => Charge::ReservedUsage,
            "Usage" if status == "Unused" && plan => Charge::PlanFee,
            "Usage" if status == "Unused" => Charge::ReservedFee,
            "Usage" => Charge::Usage,
            "Purchase" if plan => Charge::PlanFee,
            "Purchase" => Charge::Fee,
            "Credit" => Charge::Credit,
            "Adjustment" => Charge::Refund,
            "Tax" => Charge::Tax,
            _ => Charge::Other,
        }
    }
}

/// A row as read (the readers fill one again for each row of a file, keeping its strings'
/// room).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Row {
    pub(crate) product: String,
    pub(crate) usage_type: String,
    pub(crate) operation: String,
    pub(crate) resource: String,
    pub(crate) start: i64,
    pub(crate) end: Option<i64>,
    pub(crate) amount: Decimal,
    pub(crate) unblended: Decimal,
    /// The unblended cost was null or empty (taken as 0, and counted to be said).
    pub(crate) cost_missing: bool,
    pub(crate) effective: Decimal,
    pub(crate) list: Option<Decimal>,
    pub(crate) charge: Charge,
    /// The line item type as written (for `Other`).
    pub(crate) kind: String,
    pub(crate) currency: String,
    /// The billing period, `YYYY-MM` (from the period column, else the usage start).
    pub(crate) period: String,
    /// ddbcost's own export: the price key and the table.
    pub(crate) sku: String,
    /// ddbcost's own export: the component (`SkuMeter`).
    pub(crate) meter: String,
    pub(crate) resource_name: String,
    pub(crate) region: String,
    /// The resource's tags on this row, key → value (`user:` dropped from the keys).
    pub(crate) tags: Vec<(String, String)>,
}

/// The effective cost of a CUR row: covered usage at its commitment's effective cost, a
/// negation or an upfront fee at nothing, a recurring fee at its unused part, anything else
/// at its unblended cost.
pub(crate) fn cur_effective(
    charge: Charge,
    unblended: Decimal,
    get: &dyn Fn(Field) -> Option<Decimal>,
) -> Decimal {
    let or_zero = |f: Field| get(f).unwrap_or(Decimal::ZERO);
    match charge {
        Charge::ReservedUsage => or_zero(Field::ReservationEffective),
        Charge::PlanUsage => or_zero(Field::PlanEffective),
        Charge::PlanNegation | Charge::Fee => Decimal::ZERO,
        Charge::ReservedFee => or_zero(Field::ReservationUnusedUpfront)
            .checked_add(or_zero(Field::ReservationUnusedRecurring))
            .unwrap_or(Decimal::MAX),
        Charge::PlanFee => match (get(Field::PlanCommitment), get(Field::PlanUsed)) {
            (Some(total), Some(used)) => total.checked_sub(used).unwrap_or(Decimal::ZERO),
            _ => unblended,
        },
        _ => unblended,
    }
}

/// The dialect's way of telling a row's charge.
pub(crate) fn charge_of(dialect: Dialect, kind: &str, status: &str, id: &str) -> Charge {
    match dialect {
        Dialect::Cur2 | Dialect::Legacy => Charge::of_cur(kind),
        Dialect::Focus | Dialect::Own => Charge::of_focus(kind, status, id),
    }
}
