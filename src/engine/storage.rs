//! Storage and data protection: table and index storage per GB-month, point-in-time recovery
//! (table + LSIs, not GSIs), on-demand backups (table + LSIs per retained backup), restores
//! (per GB, including GSIs), and S3 exports and imports (per GB).

use rust_decimal::Decimal;
use std::borrow::Cow;

use super::EngineError;
use super::usage::Weights;
use std::sync::Arc;

use super::checked;
use super::estimate::{Basis, Component, LineItem};
use super::line::cat;
use super::line::{LineSpec, Pricer};
use super::sizes::{TableSizes, stated_gb};
use crate::model::{PriceKey, Table};

pub fn lines(
    pricer: &Pricer<'_>,
    table: &Table,
    sizes: &TableSizes,
) -> Result<Vec<LineItem>, EngineError> {
    let t = &Arc::<str>::from(table.name.as_str());
    let home = pricer.region_of(table);
    let region = &home;
    let spec = |key: String, component, label: String, unit, basis| LineSpec {
        key,
        table: t,
        component,
        label: Cow::Owned(label),
        region,
        unit,
        basis,
    };
    let mut out = Vec::new();

    let observed_storage = table.observed.storage.is_some();
    out.push(pricer.line(
        spec(
            cat!(t, "/storage"),
            Component::Storage,
            cat!("Table storage (", table.class.name(), ")"),
            "GB-month",
            if observed_storage {
                Basis::Observed
            } else {
                Basis::Derived
            },
        ),
        &PriceKey::StorageGbMonth(table.class),
        sizes.table_gb,
        Weights::NONE,
    )?);
    for (pos, index) in table.indexes.iter().enumerate() {
        let kind = index.kind.short();
        out.push(pricer.line(
            spec(
                cat!(t, "/", kind, "/", index.name, "/storage"),
                Component::IndexStorage,
                cat!(index.kind.upper(), " `", index.name, "` storage"),
                "GB-month",
                if index.observed.storage.is_some() {
                    Basis::Observed
                } else {
                    Basis::Derived
                },
            ),
            &PriceKey::StorageGbMonth(table.class),
            sizes.index_gb[pos],
            Weights::NONE,
        )?);
    }

    if table.pitr {
        let (gb, basis) = match table.observed.pitr {
            Some(size) => (Some(stated_gb(size, pricer.settings, t)?), Basis::Observed),
            None => (sizes.table_and_lsis(table)?, Basis::Derived),
        };
        out.push(pricer.line(
            spec(
                cat!(t, "/pitr"),
                Component::Pitr,
                "Point-in-time recovery (table + LSIs)".into(),
                "GB-month",
                basis,
            ),
            &PriceKey::PitrGbMonth,
            gb,
            Weights::NONE,
        )?);
    }

    let backups = &table.backups;
    if backups.retained > Decimal::ZERO {
        let gb = sizes
            .table_and_lsis(table)?
            .map(|gb| checked::mul(gb, backups.retained, t))
            .transpose()?;
        out.push(pricer.line(
            spec(
                cat!(t, "/backups"),
                Component::Backups,
                format!(
                    "On-demand backups ({} retained, table + LSIs)",
                    backups.retained.normalize()
                ),
                "GB-month",
                Basis::Derived,
            ),
            &PriceKey::BackupGbMonth,
            gb,
            Weights::NONE,
        )?);
    }
    if backups.restores_per_month > Decimal::ZERO {
        let gb = sizes
            .with_all_indexes(table)?
            .map(|gb| checked::mul(gb, backups.restores_per_month, t))
            .transpose()?;
        out.push(pricer.line(
            spec(
                cat!(t, "/restores"),
                Component::Restores,
                format!(
                    "Restores ({} a month, table + all indexes)",
                    backups.restores_per_month.normalize()
                ),
                "GB",
                Basis::Derived,
            ),
            &PriceKey::RestoreGb,
            gb,
            Weights::NONE,
        )?);
    }
    if backups.full_exports_per_month > Decimal::ZERO || backups.incremental_export.is_some() {
        let full = match sizes.table_gb {
            Some(gb) => Some(checked::mul(gb, backups.full_exports_per_month, t)?),
            None if backups.full_exports_per_month.is_zero() => Some(Decimal::ZERO),
            None => None,
        };
        let incremental = match backups.incremental_export {
            Some(size) => stated_gb(size, pricer.settings, t)?,
            None => Decimal::ZERO,
        };
        let gb = full.map(|f| checked::add(f, incremental, t)).transpose()?;
        out.push(pricer.line(
            spec(
                cat!(t, "/exports"),
                Component::Exports,
                "Exports to S3 (full + incremental data processed)".into(),
                "GB",
                Basis::Derived,
            ),
            &PriceKey::ExportGb,
            gb,
            Weights::NONE,
        )?);
    }
    if let Some(size) = backups.import {
        out.push(pricer.line(
            spec(
                cat!(t, "/imports"),
                Component::Imports,
                "Import from S3 (uncompressed source)".into(),
                "GB",
                Basis::Derived,
            ),
            &PriceKey::ImportGb,
            Some(stated_gb(size, pricer.settings, t)?),
            Weights::NONE,
        )?);
    }
    Ok(out)
}
