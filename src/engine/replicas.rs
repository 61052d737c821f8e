//! Global tables: every write is replicated to each other replica region and billed there as
//! a replicated write (rWRU on demand, rWCU provisioned) at that region's price — without the
//! transaction factor, which applies in the originating region only. Each replica also keeps
//! its indexes up to date, stores the table and its indexes (with the extra 48 B per item),
//! and the replicated data crosses regions at the source region's transfer price.
//! Reads are assumed to be served by the primary region.

use super::EngineError;
use super::label::{IndexRef, Label};
use std::sync::Arc;

use super::capacity::TablePlans;
use super::checked;
use super::estimate::{Basis, Component, LineItem};
use super::line::cat;
use super::line::{LineSpec, Pricer, millions};
use super::sizes::TableSizes;
use super::usage::{Metric, TableUsage, Weights};
use crate::model::{CapacityMode, PriceKey, Table};

/// Every line each replica region of `table` bills: its writes (on demand, or provisioned
/// capacity), its storage, and the transfer of the replicated data.
pub(super) fn lines(
    pricer: &Pricer<'_>,
    table: &Table,
    usage: &TableUsage,
    sizes: &TableSizes,
    plans: Option<&TablePlans>,
) -> Result<Vec<LineItem>, EngineError> {
    let t = Arc::clone(&table.name);
    let mut out = Vec::new();
    for region_name in &table.replicas {
        let region = Arc::<str>::from(region_name.as_str());
        let replica = Replica {
            pricer,
            table,
            usage,
            prefix: cat!(t, "/replica/", region),
            t: t.clone(),
            region,
        };
        match table.capacity {
            CapacityMode::OnDemand => replica.on_demand_writes(&mut out)?,
            CapacityMode::Provisioned(_) => match plans {
                Some(plans) => replica.provisioned(plans, &mut out)?,
                None => continue,
            },
        }
        out.push(replica.storage(sizes)?);
        out.push(replica.transfer()?);
    }
    Ok(out)
}

/// One replica region of a table.
struct Replica<'a> {
    pricer: &'a Pricer<'a>,
    table: &'a Table,
    usage: &'a TableUsage,
    /// `TABLE/replica/REGION`: the start of every key of its lines.
    prefix: String,
    t: Arc<str>,
    region: Arc<str>,
}

impl Replica<'_> {
    fn spec(
        &self,
        suffix: &str,
        component: Component,
        label: Label,
        unit: &'static str,
        basis: Basis,
    ) -> LineSpec<'_> {
        LineSpec {
            key: cat!(self.prefix, "/", suffix),
            table: &self.t,
            component,
            label,
            region: &self.region,
            unit,
            basis,
        }
    }

    /// On demand: every write replicated (rWRU, without the transaction factor), and each
    /// index's writes in the replica region.
    fn on_demand_writes(&self, out: &mut Vec<LineItem>) -> Result<(), EngineError> {
        let (table, usage, region) = (self.table, self.usage, &self.region);
        let (units, basis) = match table.observed.write_units {
            Some(observed) => (observed, Basis::Observed),
            None => (
                checked::add(
                    usage.total(Metric::PlainWriteUnits),
                    usage.ttl_delete_units,
                    &self.t,
                )?,
                Basis::Derived,
            ),
        };
        out.push(self.pricer.line(
            self.spec(
                "writes",
                Component::ReplicatedWrites,
                Label::ReplicatedRequests {
                    region: Arc::clone(region),
                    index: None,
                },
                "M rWRU",
                basis,
            ),
            &PriceKey::ReplicatedWritePerMillion(table.class),
            Some(millions(units)),
            usage.weights(Metric::PlainWriteUnits),
        )?);
        for (pos, index) in table.indexes.iter().enumerate() {
            let kind = index.kind.short();
            out.push(self.pricer.line(
                self.spec(
                    &cat!(kind, "/", index.name, "/writes"),
                    Component::ReplicaIndexWrites,
                    Label::ReplicatedRequests {
                        region: Arc::clone(region),
                        index: Some(IndexRef::of(index)),
                    },
                    "M WRU",
                    Basis::Derived,
                ),
                &PriceKey::WritePerMillion(table.class),
                Some(millions(usage.total(Metric::IndexWrites(pos)))),
                usage.weights(Metric::IndexWrites(pos)),
            )?);
        }
        Ok(())
    }

    /// Provisioned: the table's write capacity as rWCU (reserved capacity does not cover
    /// replicated writes) and, by default, the same read capacity; its GSIs carry their
    /// write capacity.
    fn provisioned(&self, plans: &TablePlans, out: &mut Vec<LineItem>) -> Result<(), EngineError> {
        let (table, usage, region) = (self.table, self.usage, &self.region);
        out.push(self.pricer.line(
            self.spec(
                "writes",
                Component::ReplicatedWrites,
                Label::ReplicatedWcu {
                    region: Arc::clone(region),
                    plan: plans.write.shape,
                },
                "rWCU-hour",
                Basis::Derived,
            ),
            &PriceKey::ReplicatedWcuHour(table.class),
            Some(plans.write.unit_hours),
            usage.weights(Metric::PlainWriteUnits),
        )?);
        out.push(self.pricer.line(
            self.spec(
                "reads",
                Component::ReplicaReads,
                Label::ReplicaRcu {
                    region: Arc::clone(region),
                    plan: plans.read.shape,
                },
                "RCU-hour",
                Basis::Derived,
            ),
            &PriceKey::RcuHour(table.class),
            Some(plans.read.unit_hours),
            Weights::NONE,
        )?);
        for (pos, _, write) in &plans.gsis {
            let index = &table.indexes[*pos];
            out.push(self.pricer.line(
                self.spec(
                    &cat!("gsi/", index.name, "/writes"),
                    Component::ReplicaIndexWrites,
                    Label::ReplicaGsiWcu {
                        region: Arc::clone(region),
                        index: Arc::clone(&index.name),
                    },
                    "WCU-hour",
                    Basis::Derived,
                ),
                &PriceKey::WcuHour(table.class),
                Some(write.unit_hours),
                usage.weights(Metric::IndexWrites(*pos)),
            )?);
        }
        Ok(())
    }

    /// The replica's copy of the table and all its indexes.
    fn storage(&self, sizes: &TableSizes) -> Result<LineItem, EngineError> {
        let gb = sizes.with_all_indexes(self.table)?;
        self.pricer.line(
            self.spec(
                "storage",
                Component::ReplicaStorage,
                Label::ReplicaStorage {
                    region: Arc::clone(&self.region),
                },
                "GB-month",
                Basis::Derived,
            ),
            &PriceKey::StorageGbMonth(self.table.class),
            gb,
            Weights::NONE,
        )
    }

    /// The replicated bytes, at the source region's transfer price. They are known from
    /// write patterns only: observed write units say nothing of item sizes, and provisioned
    /// capacity without patterns says nothing of what is written. Then the line depends on
    /// usage, like unknown storage.
    fn transfer(&self) -> Result<LineItem, EngineError> {
        let (pricer, table, usage, t) = (self.pricer, self.table, self.usage, &self.t);
        let has_write_patterns = table.patterns.iter().any(|p| !p.operation.is_read());
        let provisioned = matches!(table.capacity, CapacityMode::Provisioned(_));
        let transfer_known = table.observed.write_units.is_none()
            && (has_write_patterns || (!provisioned && table.ttl_deletes.is_none()));
        let transfer_gb = if transfer_known {
            let bytes = checked::add(usage.total(Metric::BytesWritten), usage.ttl_delete_bytes, t)?;
            Some(checked::div(bytes, pricer.settings.gb.gb_bytes(), t)?)
        } else {
            None
        };
        let home = pricer.region_of(table);
        let source = pricer.table_for(&home, &self.prefix)?;
        let key = cat!(self.prefix, "/transfer");
        let (price_key, price) =
            source
                .transfer_to(&self.region)
                .ok_or_else(|| EngineError::MissingPrice {
                    price: PriceKey::InterRegionTransferGb(None).path().into_owned(),
                    table_id: source.id.clone(),
                    file: source.file.clone(),
                    needed_by: key.clone(),
                })?;
        pricer.line_at(
            LineSpec {
                key,
                table: t,
                component: Component::Transfer,
                label: Label::ReplicationTransfer {
                    from: Arc::clone(&home),
                    to: Arc::clone(&self.region),
                },
                region: &home,
                unit: "GB",
                basis: Basis::Derived,
            },
            price,
            price_key.path(),
            transfer_gb,
            usage.weights(Metric::BytesWritten),
        )
    }
}
