//! Global tables: every write is replicated to each other replica region and billed there as
//! a replicated write (rWRU on demand, rWCU provisioned) at that region's price — without the
//! transaction factor, which applies in the originating region only. Each replica also keeps
//! its indexes up to date, stores the table and its indexes (with the extra 48 B per item),
//! and the replicated data crosses regions at the source region's transfer price.
//! Reads are assumed to be served by the primary region.

use super::EngineError;
use std::borrow::Cow;
use std::sync::Arc;

use super::capacity::TablePlans;
use super::checked;
use super::estimate::{Basis, Component, LineItem};
use super::line::cat;
use super::line::{LineSpec, Pricer, millions};
use super::sizes::TableSizes;
use super::usage::{Metric, TableUsage, Weights};
use crate::model::{CapacityMode, PriceKey, Table};

pub fn lines(
    pricer: &Pricer<'_>,
    table: &Table,
    usage: &TableUsage,
    sizes: &TableSizes,
    plans: Option<&TablePlans>,
) -> Result<Vec<LineItem>, EngineError> {
    let t = &Arc::<str>::from(table.name.as_str());
    let mut out = Vec::new();
    for region_name in &table.replicas {
        let region = &Arc::<str>::from(region_name.as_str());
        let prefix = cat!(t, "/replica/", region);
        let spec = |suffix: &str, component, label: String, unit, basis| LineSpec {
            key: cat!(prefix, "/", suffix),
            table: t,
            component,
            label: Cow::Owned(label),
            region,
            unit,
            basis,
        };
        match table.capacity {
            CapacityMode::OnDemand => {
                let (units, basis) = match table.observed.write_units {
                    Some(observed) => (observed, Basis::Observed),
                    None => (
                        checked::add(
                            usage.total(Metric::PlainWriteUnits),
                            usage.ttl_delete_units,
                            t,
                        )?,
                        Basis::Derived,
                    ),
                };
                out.push(pricer.line(
                    spec(
                        "writes",
                        Component::ReplicatedWrites,
                        cat!("Replicated write request units in ", region),
                        "M rWRU",
                        basis,
                    ),
                    &PriceKey::ReplicatedWritePerMillion(table.class),
                    Some(millions(units)),
                    usage.weights(Metric::PlainWriteUnits),
                )?);
                for (pos, index) in table.indexes.iter().enumerate() {
                    let kind = index.kind.short();
                    out.push(pricer.line(
                        spec(
                            &cat!(kind, "/", index.name, "/writes"),
                            Component::ReplicaIndexWrites,
                            cat!(
                                index.kind.upper(),
                                " `",
                                index.name,
                                "` write request units in ",
                                region
                            ),
                            "M WRU",
                            Basis::Derived,
                        ),
                        &PriceKey::WritePerMillion(table.class),
                        Some(millions(usage.total(Metric::IndexWrites(pos)))),
                        usage.weights(Metric::IndexWrites(pos)),
                    )?);
                }
            }
            CapacityMode::Provisioned(_) => {
                // A provisioned replica carries the table's write capacity as rWCU (reserved
                // capacity does not cover replicated writes) and, by default, the same read
                // capacity; its GSIs carry their write capacity.
                let Some(plans) = plans else { continue };
                out.push(pricer.line(
                    spec(
                        "writes",
                        Component::ReplicatedWrites,
                        format!("Replicated WCU in {region} ({})", plans.write.description),
                        "rWCU-hour",
                        Basis::Derived,
                    ),
                    &PriceKey::ReplicatedWcuHour(table.class),
                    Some(plans.write.unit_hours),
                    usage.weights(Metric::PlainWriteUnits),
                )?);
                out.push(pricer.line(
                    spec(
                        "reads",
                        Component::ReplicaReads,
                        format!("Provisioned RCU in {region} ({})", plans.read.description),
                        "RCU-hour",
                        Basis::Derived,
                    ),
                    &PriceKey::RcuHour(table.class),
                    Some(plans.read.unit_hours),
                    Weights::NONE,
                )?);
                for (pos, _, write) in &plans.gsis {
                    let index = &table.indexes[*pos];
                    out.push(pricer.line(
                        spec(
                            &cat!("gsi/", index.name, "/writes"),
                            Component::ReplicaIndexWrites,
                            cat!("GSI `", index.name, "` provisioned WCU in ", region),
                            "WCU-hour",
                            Basis::Derived,
                        ),
                        &PriceKey::WcuHour(table.class),
                        Some(write.unit_hours),
                        usage.weights(Metric::IndexWrites(*pos)),
                    )?);
                }
            }
        }

        let gb = sizes.with_all_indexes(table)?;
        out.push(pricer.line(
            spec(
                "storage",
                Component::ReplicaStorage,
                cat!("Replica storage in ", region, " (table + indexes)"),
                "GB-month",
                Basis::Derived,
            ),
            &PriceKey::StorageGbMonth(table.class),
            gb,
            Weights::NONE,
        )?);

        // The bytes replicated are known from write patterns only: observed write units say
        // nothing of item sizes, and provisioned capacity without patterns says nothing of
        // what is written. Then the line depends on usage, like unknown storage.
        let has_write_patterns = table.patterns.iter().any(|p| !p.operation.is_read());
        let provisioned = matches!(table.capacity, crate::model::CapacityMode::Provisioned(_));
        let transfer_known = table.observed.write_units.is_none()
            && (has_write_patterns || (!provisioned && table.ttl_deletes.is_none()));
        let transfer_gb = if transfer_known {
            let bytes = checked::add(usage.total(Metric::BytesWritten), usage.ttl_delete_bytes, t)?;
            Some(checked::div(bytes, pricer.settings.gb.gb_bytes(), t)?)
        } else {
            None
        };
        let home = pricer.region_of(table);
        let source = pricer.table_for(&home, &prefix)?;
        let key = cat!(prefix, "/transfer");
        let (price_key, price) =
            source
                .transfer_to(region)
                .ok_or_else(|| EngineError::MissingPrice {
                    price: PriceKey::InterRegionTransferGb(None).path().into_owned(),
                    table_id: source.id.clone(),
                    file: source.file.clone(),
                    needed_by: key.clone(),
                })?;
        out.push(pricer.line_at(
            LineSpec {
                key,
                table: t,
                component: Component::Transfer,
                label: Cow::Owned(cat!("Replication transfer ", &home, " → ", region)),
                region: &home,
                unit: "GB",
                basis: Basis::Derived,
            },
            price,
            price_key.path(),
            transfer_gb,
            usage.weights(Metric::BytesWritten),
        )?);
    }
    Ok(out)
}
