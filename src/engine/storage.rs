//! Storage and data protection: table and index storage per GB-month, point-in-time recovery
//! (table + LSIs, not GSIs), on-demand backups (table + LSIs per retained backup), restores
//! (per GB, including GSIs), and S3 exports and imports (per GB).

use rust_decimal::Decimal;

use super::EngineError;
use super::label::{IndexRef, Label};
use super::usage::Weights;
use std::sync::Arc;

use super::checked;
use super::estimate::{Basis, Component, LineItem};
use super::line::cat;
use super::line::{LineSpec, Pricer};
use super::sizes::{TableSizes, stated_gb};
use crate::model::{PriceKey, Table};

/// Every storage and data-protection line of `table`, in the bill's order: table storage,
/// each index's storage, PITR, backups, restores, exports, imports.
pub(super) fn lines(
    pricer: &Pricer<'_>,
    table: &Table,
    sizes: &TableSizes,
) -> Result<Vec<LineItem>, EngineError> {
    let cx = Cx {
        pricer,
        table,
        sizes,
        name: Arc::clone(&table.name),
        region: pricer.region_of(table),
    };
    let mut out = vec![cx.table_storage()?];
    for (pos, _) in table.indexes.iter().enumerate() {
        out.push(cx.index_storage(pos)?);
    }
    for line in [
        cx.pitr()?,
        cx.backups()?,
        cx.restores()?,
        cx.exports()?,
        cx.imports()?,
    ] {
        out.extend(line);
    }
    Ok(out)
}

/// What every storage line of one table is priced with.
struct Cx<'a> {
    pricer: &'a Pricer<'a>,
    table: &'a Table,
    sizes: &'a TableSizes,
    name: Arc<str>,
    region: Arc<str>,
}

impl Cx<'_> {
    fn spec(
        &self,
        key: String,
        component: Component,
        label: Label,
        unit: &'static str,
        basis: Basis,
    ) -> LineSpec<'_> {
        LineSpec {
            key,
            table: &self.name,
            component,
            label,
            region: &self.region,
            unit,
            basis,
        }
    }

    /// The table's own storage, per GB-month of its class.
    fn table_storage(&self) -> Result<LineItem, EngineError> {
        let (t, table) = (&self.name, self.table);
        let basis = if table.observed.storage.is_some() {
            Basis::Observed
        } else {
            Basis::Derived
        };
        self.pricer.line(
            self.spec(
                cat!(t, "/storage"),
                Component::Storage,
                Label::TableStorage {
                    class: table.class,
                    ttl: None,
                },
                "GB-month",
                basis,
            ),
            &PriceKey::StorageGbMonth(table.class),
            self.sizes.table_gb,
            Weights::NONE,
        )
    }

    /// The storage of the index at `pos`, at the table's class.
    fn index_storage(&self, pos: usize) -> Result<LineItem, EngineError> {
        let (t, table) = (&self.name, self.table);
        let index = &table.indexes[pos];
        let kind = index.kind.short();
        let basis = if index.observed.storage.is_some() {
            Basis::Observed
        } else {
            Basis::Derived
        };
        self.pricer.line(
            self.spec(
                cat!(t, "/", kind, "/", index.name, "/storage"),
                Component::IndexStorage,
                Label::IndexStorage(IndexRef::of(index)),
                "GB-month",
                basis,
            ),
            &PriceKey::StorageGbMonth(table.class),
            self.sizes.index_gb[pos],
            Weights::NONE,
        )
    }

    /// Point-in-time recovery: the table and its LSIs (not GSIs), or the size observed.
    fn pitr(&self) -> Result<Option<LineItem>, EngineError> {
        let (t, table) = (&self.name, self.table);
        if !table.pitr {
            return Ok(None);
        }
        let (gb, basis) = match table.observed.pitr {
            Some(size) => (
                Some(stated_gb(size, self.pricer.settings, t)?),
                Basis::Observed,
            ),
            None => (self.sizes.table_and_lsis(table)?, Basis::Derived),
        };
        self.pricer
            .line(
                self.spec(
                    cat!(t, "/pitr"),
                    Component::Pitr,
                    Label::Pitr,
                    "GB-month",
                    basis,
                ),
                &PriceKey::PitrGbMonth,
                gb,
                Weights::NONE,
            )
            .map(Some)
    }

    /// On-demand backups: each retained copy of the table and its LSIs.
    fn backups(&self) -> Result<Option<LineItem>, EngineError> {
        let (t, table) = (&self.name, self.table);
        let retained = table.backups.retained;
        let (gb, label) = if let Some(size) = table.backups.stored {
            (
                Some(stated_gb(size, self.pricer.settings, t)?),
                Label::BackupsStated,
            )
        } else {
            if retained <= Decimal::ZERO {
                return Ok(None);
            }
            let gb = self
                .sizes
                .table_and_lsis(table)?
                .map(|gb| checked::mul(gb, retained, t))
                .transpose()?;
            // Taken during the month: billed from that day (day 1's midnight is hour 0).
            let hours = self.pricer.settings.month_hours;
            let taken = table
                .backups
                .taken_on_day
                .map(|day| {
                    let before =
                        checked::mul(checked::sub(day, Decimal::ONE, t)?, Decimal::from(24), t)?;
                    Ok::<_, EngineError>((day, checked::sub(hours, before, t)?.max(Decimal::ZERO)))
                })
                .transpose()?;
            let gb = match (gb, taken) {
                (Some(gb), Some((_, billed))) => {
                    Some(checked::div(checked::mul(gb, billed, t)?, hours, t)?)
                }
                (gb, _) => gb,
            };
            (gb, Label::Backups { retained, taken })
        };
        self.pricer
            .line(
                self.spec(
                    cat!(t, "/backups"),
                    Component::Backups,
                    label,
                    "GB-month",
                    Basis::Derived,
                ),
                &PriceKey::BackupGbMonth,
                gb,
                Weights::NONE,
            )
            .map(Some)
    }

    /// Restores: the table and all its indexes, per GB restored.
    fn restores(&self) -> Result<Option<LineItem>, EngineError> {
        let (t, table) = (&self.name, self.table);
        let restores = table.backups.restores_per_month;
        let (gb, label) = if let Some(size) = table.backups.restored {
            (
                Some(stated_gb(size, self.pricer.settings, t)?),
                Label::RestoresStated,
            )
        } else {
            if restores <= Decimal::ZERO {
                return Ok(None);
            }
            let gb = self
                .sizes
                .with_all_indexes(table)?
                .map(|gb| checked::mul(gb, restores, t))
                .transpose()?;
            (
                gb,
                Label::Restores {
                    per_month: restores,
                },
            )
        };
        self.pricer
            .line(
                self.spec(
                    cat!(t, "/restores"),
                    Component::Restores,
                    label,
                    "GB",
                    Basis::Derived,
                ),
                &PriceKey::RestoreGb,
                gb,
                Weights::NONE,
            )
            .map(Some)
    }

    /// Exports to S3: full exports of the table, plus the incremental data processed.
    fn exports(&self) -> Result<Option<LineItem>, EngineError> {
        let t = &self.name;
        let backups = &self.table.backups;
        if backups.full_exports_per_month <= Decimal::ZERO
            && backups.exported.is_none()
            && backups.incremental_export.is_none()
        {
            return Ok(None);
        }
        let full = match (backups.exported, self.sizes.table_gb) {
            (Some(size), _) => Some(stated_gb(size, self.pricer.settings, t)?),
            (None, Some(gb)) => Some(checked::mul(gb, backups.full_exports_per_month, t)?),
            (None, None) if backups.full_exports_per_month.is_zero() => Some(Decimal::ZERO),
            (None, None) => None,
        };
        let incremental = match backups.incremental_export {
            Some(size) => stated_gb(size, self.pricer.settings, t)?,
            None => Decimal::ZERO,
        };
        let gb = full.map(|f| checked::add(f, incremental, t)).transpose()?;
        self.pricer
            .line(
                self.spec(
                    cat!(t, "/exports"),
                    Component::Exports,
                    Label::Exports,
                    "GB",
                    Basis::Derived,
                ),
                &PriceKey::ExportGb,
                gb,
                Weights::NONE,
            )
            .map(Some)
    }

    /// Imports from S3, per GB of uncompressed source.
    fn imports(&self) -> Result<Option<LineItem>, EngineError> {
        let t = &self.name;
        let Some(size) = self.table.backups.import else {
            return Ok(None);
        };
        self.pricer
            .line(
                self.spec(
                    cat!(t, "/imports"),
                    Component::Imports,
                    Label::Imports,
                    "GB",
                    Basis::Derived,
                ),
                &PriceKey::ImportGb,
                Some(stated_gb(size, self.pricer.settings, t)?),
                Weights::NONE,
            )
            .map(Some)
    }
}
