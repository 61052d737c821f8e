//! Global tables: every write is replicated to each other replica region and billed there as
//! a replicated write (rWRU on demand, rWCU provisioned) at that region's price — without the
//! transaction factor, which applies in the originating region only. Each replica also keeps
//! its indexes up to date, stores the table and its indexes (with the extra 48 B per item),
//! and the replicated data crosses regions at the source region's transfer price.
//! Reads are assumed to be served by the primary region.

use super::EngineError;
use super::checked;
use super::estimate::{Basis, Component, LineItem};
use super::line::{LineSpec, Pricer, millions};
use super::sizes::{index_gb, table_gb};
use super::usage::TableUsage;
use crate::model::{CapacityMode, PriceKey, Table};

pub fn lines(
    pricer: &Pricer<'_>,
    table: &Table,
    usage: &TableUsage,
) -> Result<Vec<LineItem>, EngineError> {
    let t = &table.name;
    let hours = pricer.settings.month_hours;
    let mut out = Vec::new();
    for region in &table.replicas {
        let prefix = format!("{t}/replica/{region}");
        let spec = |suffix: &str, component, label: String, unit, basis| LineSpec {
            key: format!("{prefix}/{suffix}"),
            table: t,
            component,
            label,
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
                            usage.total(t, |p| p.plain_write_units)?,
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
                        format!("Replicated write request units in {region}"),
                        "M rWRU",
                        basis,
                    ),
                    &PriceKey::ReplicatedWritePerMillion(table.class),
                    Some(millions(units)),
                    &usage.weights(|p| p.plain_write_units),
                )?);
                for (pos, index) in table.indexes.iter().enumerate() {
                    let kind = index.kind.short();
                    out.push(pricer.line(
                        spec(
                            &format!("{kind}/{}/writes", index.name),
                            Component::ReplicaIndexWrites,
                            format!(
                                "{} `{}` write request units in {region}",
                                kind.to_uppercase(),
                                index.name
                            ),
                            "M WRU",
                            Basis::Derived,
                        ),
                        &PriceKey::WritePerMillion(table.class),
                        Some(millions(usage.total(t, |p| p.index_write_units[pos])?)),
                        &usage.weights(|p| p.index_write_units[pos]),
                    )?);
                }
            }
            CapacityMode::Provisioned(cap) => {
                // A provisioned replica carries the table's write capacity as rWCU and, by
                // default, the same read capacity.
                out.push(pricer.line(
                    spec(
                        "wcu",
                        Component::ReplicatedWrites,
                        format!(
                            "Replicated WCU in {region} ({} × {} h)",
                            cap.wcu.normalize(),
                            hours.normalize()
                        ),
                        "rWCU-hour",
                        Basis::Derived,
                    ),
                    &PriceKey::ReplicatedWcuHour(table.class),
                    Some(checked::mul(cap.wcu, hours, t)?),
                    &usage.weights(|p| p.plain_write_units),
                )?);
                out.push(pricer.line(
                    spec(
                        "rcu",
                        Component::ReplicaReads,
                        format!(
                            "Provisioned RCU in {region} ({} × {} h)",
                            cap.rcu.normalize(),
                            hours.normalize()
                        ),
                        "RCU-hour",
                        Basis::Derived,
                    ),
                    &PriceKey::RcuHour(table.class),
                    Some(checked::mul(cap.rcu, hours, t)?),
                    &[],
                )?);
                for index in &table.indexes {
                    let Some(icap) = index.capacity else { continue };
                    out.push(pricer.line(
                        spec(
                            &format!("gsi/{}/wcu", index.name),
                            Component::ReplicaIndexWrites,
                            format!("GSI `{}` provisioned WCU in {region}", index.name),
                            "WCU-hour",
                            Basis::Derived,
                        ),
                        &PriceKey::WcuHour(table.class),
                        Some(checked::mul(icap.wcu, hours, t)?),
                        &[],
                    )?);
                }
            }
        }

        let mut gb = table_gb(table, pricer.settings)?;
        for index in &table.indexes {
            gb = match (gb, index_gb(table, index, pricer.settings)?) {
                (Some(a), Some(b)) => Some(checked::add(a, b, t)?),
                _ => None,
            };
        }
        out.push(pricer.line(
            spec(
                "storage",
                Component::ReplicaStorage,
                format!("Replica storage in {region} (table + indexes)"),
                "GB-month",
                Basis::Derived,
            ),
            &PriceKey::StorageGbMonth(table.class),
            gb,
            &[],
        )?);

        let bytes = checked::add(
            usage.total(t, |p| p.bytes_written)?,
            usage.ttl_delete_bytes,
            t,
        )?;
        let transfer_gb = checked::div(bytes, pricer.settings.gb.gb_bytes(), t)?;
        let source = pricer.table_for(pricer.primary_region(), &prefix)?;
        let key = format!("{prefix}/transfer");
        let (price_key, price) =
            source
                .transfer_to(region)
                .ok_or_else(|| EngineError::MissingPrice {
                    price: PriceKey::InterRegionTransferGb(None).path(),
                    table_id: source.id.clone(),
                    file: source.file.clone(),
                    needed_by: key.clone(),
                })?;
        out.push(pricer.line_at(
            LineSpec {
                key,
                table: t,
                component: Component::Transfer,
                label: format!(
                    "Replication transfer {} → {region}",
                    pricer.primary_region()
                ),
                region: pricer.primary_region(),
                unit: "GB",
                basis: Basis::Derived,
            },
            price,
            price_key.path(),
            Some(transfer_gb),
            &usage.weights(|p| p.bytes_written),
        )?);
    }
    Ok(out)
}
