//! Storage and data protection: table and index storage per GB-month, point-in-time recovery
//! (table + LSIs, not GSIs), on-demand backups (table + LSIs per retained backup), restores
//! (per GB, including GSIs), and S3 exports and imports (per GB).

use rust_decimal::Decimal;

use super::EngineError;
use super::checked;
use super::estimate::{Basis, Component, LineItem};
use super::line::{LineSpec, Pricer};
use super::sizes::{index_gb, stated_gb, table_gb};
use crate::model::{IndexKind, PriceKey, Table};

/// GB of the table plus its LSIs (what PITR and backups are billed on), `None` if unknown.
pub fn table_and_lsi_gb(
    pricer: &Pricer<'_>,
    table: &Table,
) -> Result<Option<Decimal>, EngineError> {
    let mut total = table_gb(table, pricer.settings)?;
    for index in table.indexes.iter().filter(|i| i.kind == IndexKind::Local) {
        total = match (total, index_gb(table, index, pricer.settings)?) {
            (Some(a), Some(b)) => Some(checked::add(a, b, &table.name)?),
            _ => None,
        };
    }
    Ok(total)
}

fn all_indexes_gb(pricer: &Pricer<'_>, table: &Table) -> Result<Option<Decimal>, EngineError> {
    let mut total = table_gb(table, pricer.settings)?;
    for index in &table.indexes {
        total = match (total, index_gb(table, index, pricer.settings)?) {
            (Some(a), Some(b)) => Some(checked::add(a, b, &table.name)?),
            _ => None,
        };
    }
    Ok(total)
}

pub fn lines(pricer: &Pricer<'_>, table: &Table) -> Result<Vec<LineItem>, EngineError> {
    let t = &table.name;
    let region = pricer.primary_region();
    let spec = |key: String, component, label: String, unit, basis| LineSpec {
        key,
        table: t,
        component,
        label,
        region,
        unit,
        basis,
    };
    let mut out = Vec::new();

    let observed_storage = table.observed.storage.is_some();
    out.push(pricer.line(
        spec(
            format!("{t}/storage"),
            Component::Storage,
            format!("Table storage ({})", table.class.name()),
            "GB-month",
            if observed_storage {
                Basis::Observed
            } else {
                Basis::Derived
            },
        ),
        &PriceKey::StorageGbMonth(table.class),
        table_gb(table, pricer.settings)?,
        &[],
    )?);
    for index in &table.indexes {
        let kind = index.kind.short();
        out.push(pricer.line(
            spec(
                format!("{t}/{kind}/{}/storage", index.name),
                Component::IndexStorage,
                format!("{} `{}` storage", kind.to_uppercase(), index.name),
                "GB-month",
                if index.observed.storage.is_some() {
                    Basis::Observed
                } else {
                    Basis::Derived
                },
            ),
            &PriceKey::StorageGbMonth(table.class),
            index_gb(table, index, pricer.settings)?,
            &[],
        )?);
    }

    if table.pitr {
        let (gb, basis) = match table.observed.pitr {
            Some(size) => (Some(stated_gb(size, pricer.settings, t)?), Basis::Observed),
            None => (table_and_lsi_gb(pricer, table)?, Basis::Derived),
        };
        out.push(pricer.line(
            spec(
                format!("{t}/pitr"),
                Component::Pitr,
                "Point-in-time recovery (table + LSIs)".into(),
                "GB-month",
                basis,
            ),
            &PriceKey::PitrGbMonth,
            gb,
            &[],
        )?);
    }

    let backups = &table.backups;
    if backups.retained > Decimal::ZERO {
        let gb = table_and_lsi_gb(pricer, table)?
            .map(|gb| checked::mul(gb, backups.retained, t))
            .transpose()?;
        out.push(pricer.line(
            spec(
                format!("{t}/backups"),
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
            &[],
        )?);
    }
    if backups.restores_per_month > Decimal::ZERO {
        let gb = all_indexes_gb(pricer, table)?
            .map(|gb| checked::mul(gb, backups.restores_per_month, t))
            .transpose()?;
        out.push(pricer.line(
            spec(
                format!("{t}/restores"),
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
            &[],
        )?);
    }
    if backups.full_exports_per_month > Decimal::ZERO || backups.incremental_export.is_some() {
        let full = match table_gb(table, pricer.settings)? {
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
                format!("{t}/exports"),
                Component::Exports,
                "Exports to S3 (full + incremental data processed)".into(),
                "GB",
                Basis::Derived,
            ),
            &PriceKey::ExportGb,
            gb,
            &[],
        )?);
    }
    if let Some(size) = backups.import {
        out.push(pricer.line(
            spec(
                format!("{t}/imports"),
                Component::Imports,
                "Import from S3 (uncompressed source)".into(),
                "GB",
                Basis::Derived,
            ),
            &PriceKey::ImportGb,
            Some(stated_gb(size, pricer.settings, t)?),
            &[],
        )?);
    }
    Ok(out)
}
