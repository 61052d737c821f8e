//! Where a bill row belongs: its table (the resource ARN's name; a row without a resource is
//! the account's — reserved-capacity and savings-plan fees), its region (the usage type's
//! prefix, through the same map `prices import` reads the Price List with), and its component
//! — the usage-type map read the other way, from usage type to the price it bills, and from
//! that price to the engine's component. A usage type nobody maps is said, never dropped.

use super::row::{Charge, Row};
use crate::engine::Component;
use crate::pricelist::mapping::{self, Target};

/// Who a row bills.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Owner {
    Table(String),
    /// No table: fees of commitments, account-wide charges.
    Account,
}

/// A row's place in the bill.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Place {
    pub(crate) owner: Owner,
    pub(crate) region: String,
    pub(crate) component: Component,
    /// The usage type without its region prefix (`ReadRequestUnits`), or the price key of
    /// ddbcost's own export: what the quantity counts.
    pub(crate) meter: String,
}

/// The table an ARN names: `arn:aws:dynamodb:REGION:ACCOUNT:table/NAME[/index/…]`.
pub(crate) fn table_of(resource: &str) -> Option<&str> {
    let (_, rest) = resource.split_once(":table/")?;
    let name = rest.split('/').next().unwrap_or(rest);
    (!name.is_empty()).then_some(name)
}

/// The component a price key bills (`standard.read_per_million` → reads).
pub(crate) fn component_of_price(path: &str) -> Option<Component> {
    let leaf = path.rsplit('.').next().unwrap_or(path);
    Some(match leaf {
        // A vector index's searches and writes bill on their table too.
        "read_per_million" | "rcu_hour" | "vector_search_per_gb" => Component::Reads,
        "write_per_million" | "wcu_hour" | "vector_write_per_gb" => Component::Writes,
        "replicated_write_per_million" | "replicated_wcu_hour" => Component::ReplicatedWrites,
        "storage_gb_month" => Component::Storage,
        "pitr_gb_month" => Component::Pitr,
        "backup_gb_month" => Component::Backups,
        "restore_gb" => Component::Restores,
        "export_gb" => Component::Exports,
        "import_gb" => Component::Imports,
        "stream_reads_per_million" => Component::StreamReads,
        "kinesis_cdc_per_million" => Component::KinesisCdc,
        "transfer_out_gb" => Component::Transfer,
        _ => return None,
    })
}

/// The bill's component for an estimate's line: indexes bill on their table, replicas in
/// their region as their table's reads, writes and storage.
pub(crate) fn billed_as(c: Component) -> Component {
    match c {
        Component::IndexWrites => Component::Writes,
        Component::IndexStorage | Component::ReplicaStorage => Component::Storage,
        Component::ReplicaIndexWrites => Component::ReplicatedWrites,
        Component::ReplicaReads => Component::Reads,
        Component::ReservedUpfront => Component::ReservedCapacity,
        other => other,
    }
}

/// Every component, for reading one back by its name.
const COMPONENTS: [Component; 22] = [
    Component::Reads,
    Component::Writes,
    Component::IndexWrites,
    Component::Storage,
    Component::IndexStorage,
    Component::Pitr,
    Component::Backups,
    Component::Restores,
    Component::Exports,
    Component::Imports,
    Component::StreamReads,
    Component::KinesisCdc,
    Component::TtlDeletes,
    Component::ReservedUpfront,
    Component::ReservedCapacity,
    Component::SavingsPlan,
    Component::ReplicatedWrites,
    Component::ReplicaIndexWrites,
    Component::ReplicaStorage,
    Component::ReplicaReads,
    Component::Transfer,
    Component::FreeTier,
];

/// The component of that name (`reads`, `index-writes`…), as ddbcost's export writes it.
pub(crate) fn component_named(name: &str) -> Option<Component> {
    COMPONENTS.into_iter().find(|c| c.name() == name)
}

/// The usage type (without prefix) a price key bills, and the factor from the price's unit to
/// the usage type's (a million for per-million prices): the map read backwards.
pub(crate) fn meter_of(price_key: &str) -> Option<(&'static str, u32)> {
    mapping::ROWS.iter().find_map(|r| match r.target {
        Target::Price { path, factor } if path == price_key => Some((r.usage_type, factor)),
        _ => None,
    })
}

/// Why a row has no place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Unplaced {
    /// A usage type the map does not know: listed with its cost.
    UnknownUsageType(String),
}

/// The place of a DynamoDB row (credits, refunds and taxes are kept apart by the caller).
pub(crate) fn place(row: &Row) -> Result<Place, Unplaced> {
    if !row.sku.is_empty() {
        // ddbcost's own export: the price key and table are stated.
        let component = component_named(&row.meter)
            .or_else(|| component_of_price(&row.sku))
            .map(billed_as)
            .ok_or_else(|| Unplaced::UnknownUsageType(row.sku.clone()))?;
        return Ok(Place {
            owner: if row.resource_name.is_empty() || row.resource_name == "(account)" {
                Owner::Account
            } else {
                Owner::Table(row.resource_name.clone())
            },
            region: row.region.clone(),
            component,
            // The usage type the price key bills, as the CUR names it (the quantity was
            // scaled to its unit when read).
            // A price key no usage type bills (a free line, a transfer to a region) is
            // named by its component, as the estimate's side names it.
            meter: meter_of(&row.sku)
                .map_or_else(|| component.name().to_string(), |(m, _)| m.to_string()),
        });
    }
    let (region, root) = mapping::split_usage_type(&row.usage_type);
    let region = region.unwrap_or("us-east-1").to_string();
    let owner = match table_of(&row.resource) {
        Some(t) => Owner::Table(t.to_string()),
        None => Owner::Account,
    };
    let component = match row.charge {
        Charge::PlanFee => Some(Component::SavingsPlan),
        Charge::Fee | Charge::ReservedFee => Some(Component::ReservedCapacity),
        _ => match mapping::row(root).map(|r| r.target) {
            Some(Target::Price { path, .. }) => component_of_price(path),
            Some(Target::Reserved { .. }) => Some(Component::ReservedCapacity),
            None => None,
        },
    }
    .ok_or_else(|| Unplaced::UnknownUsageType(row.usage_type.clone()))?;
    Ok(Place {
        owner,
        region,
        component,
        meter: root.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arns_name_their_table() {
        assert_eq!(
            table_of("arn:aws:dynamodb:us-east-1:123456789012:table/orders"),
            Some("orders")
        );
        assert_eq!(
            table_of("arn:aws:dynamodb:eu-west-1:1:table/orders/index/by-status"),
            Some("orders")
        );
        assert_eq!(table_of(""), None);
        assert_eq!(table_of("arn:aws:dynamodb:us-east-1:1:table/"), None);
    }

    #[test]
    fn every_price_of_the_usage_type_map_has_a_component() {
        for r in mapping::ROWS {
            if let Target::Price { path, .. } = r.target {
                assert!(component_of_price(path).is_some(), "{path}");
            }
        }
    }
}
